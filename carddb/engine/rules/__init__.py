"""The rules that several verbs and actions share: executing steps, targets, costs, mana, continuous
effects, triggers, state-based actions, combat, attachments, protection, destruction, timing."""
