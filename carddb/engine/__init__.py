"""The rules engine: parsed abilities executed in a game.

Layers, top to bottom (each imports only those below it; docs/architecture.md): ``scenario``
(TOML scenarios, random play), ``catalog`` (everything the engine knows, joined from the modules'
sections), ``actions`` (casting, activating, the turn), ``effects`` (the verb handlers), ``rules``
(execution, targets, costs, continuous effects, triggers, combat…), ``query`` (noun phrases, what
an object has, what is missing) and ``core`` (state, decisions, cards, context, errors).
"""
