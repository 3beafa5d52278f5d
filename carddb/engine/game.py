"""Playing: casting spells, activating abilities, playing lands, passing priority, resolving the
stack and moving through the steps of a turn. Every action either happens entirely or raises an
:class:`~carddb.engine.errors.EngineError` and leaves the game exactly as it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from carddb.engine import attachments, cycling, mana
from carddb.engine import combat as _combat
from carddb.engine import handlers as _handlers  # noqa: F401  (registers the phrase handlers)
from carddb.engine.abilities import abilities_of, ability_at, destroy, keywords_of
from carddb.engine.context import Context, Ref
from carddb.engine.decisions import Decider
from carddb.engine.errors import CostError, EngineError, IllegalActionError, NotExecutableError, TargetError
from carddb.engine.executable import face_missing, missing
from carddb.engine.execution import execute, execute_steps
from carddb.engine.nouns import TARGET_FORMS, amount_of, matches, noun_zone, resolve, value
from carddb.engine.protection import targetable
from carddb.engine.state import STEPS, Event, Game, GameObject, StackItem, Step
from carddb.engine.triggers import about_event, settle
from carddb.oracle.model import (
    Ability,
    Action,
    Clause,
    Conditional,
    Kind,
    ManaCost,
    Noun,
    Pronoun,
    RollDie,
    SelfRef,
    TapCost,
    UntapCost,
)
from carddb.oracle.model import (
    Sequence as StepSequence,
)

HAND_SIZE = 7
__all__ = ["activate", "advance", "cast", "face_missing", "pass_priority", "play_land", "resolve_all"]


def _sorcery_speed(game: Game, player: str, item: GameObject) -> None:
    if game.active != player or not game.step.is_main or game.stack:
        raise IllegalActionError(f"{item.name}: only as a sorcery (your main phase, with an empty stack)")


def _once_each_turn(game: Game, player: str, item: GameObject, index: int) -> None:
    """ "Activate only once each turn.": this object's ability ``index`` (0-based) has not been
    activated this turn, whoever controlled it then (602.5b)."""
    if game.once_each_turn.get((item.id, index)) == game.turn:
        raise IllegalActionError(f"{item.name}: ability {index + 1} was already activated this turn")


RESTRICTIONS: dict[str, Callable[[Game, str, GameObject, int], None]] = {
    "sorcery_speed": lambda game, player, item, index: _sorcery_speed(game, player, item),
    "during_your_turn": lambda game, player, item, index: _require(
        game.active == player, f"{item.name}: only during your turn"
    ),
    "during_upkeep": lambda game, player, item, index: _require(
        game.active == player and game.step is Step.UPKEEP, f"{item.name}: only during your upkeep"
    ),
    "once_each_turn": _once_each_turn,
}
"""Checks for the restriction phrases (``restrictions.toml``), by verb: the game, the acting
player, the object and the index of its ability."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalActionError(message)


@contextmanager
def atomic(game: Game) -> Iterator[None]:
    """On an error, put the game back exactly as it was. A game that is over takes no action."""
    if game.over:
        raise IllegalActionError(f"the game is over: {', '.join(game.winners) or 'nobody'} won")
    saved = game.snapshot()
    try:
        yield
    except EngineError:
        game.restore(saved)
        raise


# -- targets ------------------------------------------------------------------------------------
_MODE_COUNTS = {
    "one": (1, 1), "two": (2, 2), "three": (3, 3), "one or both": (1, 2), "one or more": (1, 99),
    "any number": (0, 99), "up to one": (0, 1), "up to two": (0, 2), "one or two": (1, 2),
}  # fmt: skip


def chosen_steps(ability: Ability, modes: Sequence[int] = ()) -> tuple[object, ...]:
    """The steps that run: the ability's own, then the chosen modes' (1-based, checked against
    the header: "Choose one" takes exactly one mode)."""
    if not ability.modes:
        if modes:
            raise IllegalActionError("this has no modes to choose")
        return ability.effects
    header = (ability.choose or "").split(" ", 1)[-1].lower()
    low, high = _MODE_COUNTS.get(header, (1, 1))
    if not low <= len(modes) <= high or len(set(modes)) != len(modes):
        raise IllegalActionError(f"{ability.choose}: choose {low}–{high} different modes, not {list(modes)}")
    for mode in modes:
        if not 1 <= mode <= len(ability.modes):
            raise IllegalActionError(f"there is no mode {mode} (there are {len(ability.modes)})")
    return (*ability.effects, *(step for mode in modes for step in ability.modes[mode - 1].effects))


TargetPhrase = Noun | Pronoun | Action
"""What names a target: a noun phrase ("target creature"), "any target", or the qualifier "target
player controls" / "target opponent controls" of a noun ("Destroy all lands target player
controls": the player is the target)."""


def target_nouns(ability: Ability, modes: Sequence[int] = ()) -> list[TargetPhrase]:
    """The target phrases of the steps that run, in the order the text names them ("any target"
    and "target player controls" included)."""
    found: list[TargetPhrase] = []

    def visit(node: object) -> None:
        if (isinstance(node, Noun) and node.targeted) or (
            isinstance(node, Pronoun) and node.word == "any target"
        ):
            found.append(node)
            return
        if isinstance(node, Noun):
            for qualifier in node.qualifiers:
                if _player_target(qualifier):
                    found.append(qualifier)
            return
        if isinstance(node, Clause):
            visit(node.subject)
            for predicate in node.predicates:
                visit(predicate)
        elif isinstance(node, StepSequence):
            for step in node.steps:
                visit(step)
        elif isinstance(node, Conditional):
            visit(node.condition)
            visit(node.body)
        elif isinstance(node, RollDie):
            for row in node.table:
                for step in row.effects:
                    visit(step)
        elif isinstance(node, Action):
            for _, value in node.args:
                visit(value)

    for step in ability.effects if not ability.modes else chosen_steps(ability, modes):
        visit(step)
    return found


def _player_target(qualifier: Action) -> bool:
    return qualifier.verb == "opponent_controls" and qualifier.form in TARGET_FORMS


def _legal_target(game: Game, ctx: Context, noun: TargetPhrase, ref: Ref) -> bool:
    if not targetable(ctx, ref):  # hexproof, shroud
        return False
    if isinstance(noun, Pronoun):  # any target: a creature, a planeswalker or a player
        return _any_target(ref) and (isinstance(ref, str) or ref.zone == "battlefield")
    if isinstance(noun, Action):  # "target player controls", "target opponent controls"
        return isinstance(ref, str) and ref in game.players and (noun.form == 2 or ref != ctx.controller)
    if isinstance(ref, str):
        return ref in game.players and matches(ctx, ref, noun)
    return ref.zone == noun_zone(noun) and matches(ctx, ref, noun)


def _target_text(noun: TargetPhrase) -> str:
    if isinstance(noun, Action):
        return "target player" if noun.form == 2 else "target opponent"
    return noun.word if isinstance(noun, Pronoun) else f"target {noun.description}"


def record_target(ctx: Context, noun: TargetPhrase, refs: list[Ref]) -> None:
    """A target chosen: the phrase names it from now on, and it is named (a later target's "that
    player controls", "another target creature" read what was chosen before them)."""
    ctx.slots[id(noun)] = list(refs)
    if isinstance(noun, Action):
        ctx.mentions.append(list(refs))
    elif isinstance(noun, Noun):
        resolve(ctx, noun)


def _any_target(ref: Ref) -> bool:
    return isinstance(ref, str) or (
        ref.zone == "battlefield" and (ref.is_a("Creature") or ref.is_a("Planeswalker"))
    )


def choose_targets(
    game: Game, ctx: Context, ability: Ability, chosen: Sequence[Sequence[Ref]], modes: Sequence[int] = ()
) -> list[list[Ref]]:
    nouns = target_nouns(ability, modes)
    if len(chosen) != len(nouns):
        names = ", ".join(_target_text(n) for n in nouns) or "no target"
        raise TargetError(f"{ctx.source.name} needs {len(nouns)} target(s) ({names}), got {len(chosen)}")
    picked: list[list[Ref]] = []
    it, mentions = list(ctx.it), list(ctx.mentions)
    for noun, refs in zip(nouns, chosen, strict=True):
        for ref in refs:
            if not _legal_target(game, ctx, noun, ref):
                name = ref if isinstance(ref, str) else ref.name
                raise TargetError(f"{name} is not a legal target ({_target_text(noun)})")
        picked.append(list(refs))
        record_target(ctx, noun, list(refs))
    ctx.slots.clear()
    ctx.it, ctx.mentions = it, mentions
    return picked


# -- costs --------------------------------------------------------------------------------------
def pay_costs(
    game: Game,
    decider: Decider,
    player: str,
    source: GameObject,
    cost: Sequence[object],
    *,
    x: int | None,
    pay_with: Sequence[GameObject] | None,
) -> None:
    taps_itself = any(isinstance(item, TapCost) for item in cost)
    if taps_itself and source.tapped:
        raise CostError(f"{source.name} is already tapped")
    if taps_itself and _combat.summoning_sick(game, source):
        raise CostError(f"{source.name} has summoning sickness: it cannot use {{T}} abilities yet")
    if taps_itself and pay_with is not None and any(obj is source for obj in pay_with):
        raise CostError(f"{source.name} taps itself as part of the cost: it cannot also pay mana")
    for item in cost:
        if isinstance(item, ManaCost):
            exclude = {source.id} if taps_itself else set()
            mana.pay(game, player, item.symbols, x=x, exclude=exclude, named=pay_with)
    for item in cost:
        if isinstance(item, TapCost):
            source.tapped = True
        elif isinstance(item, UntapCost):
            if not source.tapped:
                raise CostError(f"{source.name} is not tapped")
            source.tapped = False
        elif isinstance(item, Action):
            _pay_action(game, decider, player, source, item)


def _activated(ability: Ability) -> Ability:
    """The activated ability a keyword stands for (Equip, Cycling), or the ability itself."""
    return cycling.as_activated(attachments.as_activated(ability))


def _pay_loyalty(game: Game, player: str, obj: GameObject, ability: Ability, x: int | None) -> None:
    """A loyalty ability (606): as a sorcery, once each turn per permanent; its cost puts or
    removes loyalty counters ("+1", "−2", "−X", "[+1]")."""
    _sorcery_speed(game, player, obj)
    if obj.loyalty_turn == game.turn:
        raise IllegalActionError(f"{obj.name}: a loyalty ability was already activated this turn")
    cost = (ability.loyalty or "0").strip("[]")
    if cost.lstrip("+-") == "X":
        if x is None:
            raise CostError("the loyalty cost has X: choose a value for X")
        change = -x if cost.startswith("-") else x
    else:
        change = int(cost)
    current = obj.counters.get("loyalty", 0)
    if current + change < 0:
        raise CostError(f"{obj.name} has {current} loyalty, not {-change}")
    obj.counters["loyalty"] = current + change
    obj.loyalty_turn = game.turn


def _pay_action(game: Game, decider: Decider, player: str, source: GameObject, action: Action) -> None:
    """A cost written as a phrase: exile or sacrifice this permanent; sacrifice, discard or exile
    cards by a description (chosen through the decider); pay life."""
    what = action.arg("what")
    if isinstance(what, Noun) and what.determiners == ("this",):
        what = SelfRef()  # "Discard this card" (cycling)
    if action.verb == "discard" and isinstance(what, SelfRef):
        if source.zone != "hand":
            raise CostError(f"{source.name} is not in a hand")
        game.move(source, "graveyard")
    elif action.verb in ("exile", "sacrifice") and isinstance(what, SelfRef):
        if source.zone != "battlefield":
            raise CostError(f"{source.name} is not on the battlefield")
        game.move(source, "exile" if action.verb == "exile" else "graveyard")
    elif action.verb == "pay_life":
        needed = value(Context(game, decider, player, source), action.arg("amount"))
        if game.players[player].life < needed:
            raise CostError(f"{player} has only {game.players[player].life} life, not {needed}")
        game.players[player].life -= needed
    elif action.verb in ("sacrifice", "discard", "exile") and isinstance(what, Noun):
        ctx = Context(game, decider, player, source)
        zone = {"sacrifice": "battlefield", "discard": "hand", "exile": _cost_zone(what)}[action.verb]
        candidates = [
            obj
            for obj in (game.permanents(player) if zone == "battlefield" else game.in_zone(zone, player))
            if _cost_matches(ctx, obj, what)
        ]
        count = amount_of(ctx, what)
        if len(candidates) < count:
            raise CostError(f"{player} has no {what.description} to {action.verb}")
        for _ in range(count):
            name = decider.choose(f"{action.verb} which {what.description}?", [o.name for o in candidates])
            chosen = next(o for o in candidates if o.name == name)
            candidates.remove(chosen)
            game.move(chosen, "graveyard" if action.verb != "exile" else "exile")
    else:
        raise CostError(f"cannot pay the cost {action.verb!r}")


def _cost_zone(noun: Noun) -> str:
    for qualifier in noun.qualifiers:
        if qualifier.verb == "in_zone":
            zone = qualifier.arg("zone")
            if isinstance(zone, Action):
                return str(zone.arg("zone"))
    return "battlefield"


def _cost_matches(ctx: Context, obj: GameObject, noun: Noun) -> bool:
    """Cards in a hand or a graveyard match by their description alone ("a card", "a creature card")."""
    plain = Noun((), noun.description)
    return matches(ctx, obj, plain if obj.zone != "battlefield" else noun)


# -- actions ------------------------------------------------------------------------------------
def _executable(obj: GameObject, ability: Ability) -> None:
    problems = missing(ability)
    if problems:
        raise NotExecutableError(obj.name, problems)


def activate(
    game: Game,
    decider: Decider,
    player: str,
    obj: GameObject,
    index: int,
    targets: Sequence[Sequence[Ref]] = (),
    *,
    x: int | None = None,
    pay_with: Sequence[GameObject] | None = None,
    modes: Sequence[int] = (),
) -> None:
    """Activate the ``index``-th (1-based) ability of ``obj``, listed as the card's text lists them
    (``modes``: the chosen modes of a modal ability, 1-based)."""
    with atomic(game):
        abilities = abilities_of(obj)
        from_hand = 1 <= index <= len(abilities) and cycling.cycling_keyword(abilities[index - 1]) is not None
        if from_hand and (obj.zone != "hand" or obj.owner != player):
            raise IllegalActionError(
                f"{obj.name} is not in {player}'s hand (cycling is activated from there)"
            )
        if not from_hand and (obj.zone != "battlefield" or obj.controller != player):
            raise IllegalActionError(f"{player} controls no {obj.name} on the battlefield")
        if not 1 <= index <= len(abilities):
            raise IllegalActionError(f"{obj.name} has no ability {index} (it has {len(abilities)})")
        ability = _activated(abilities[index - 1])  # Equip {N}, Cycling {N}: the abilities they stand for
        if ability.kind not in (Kind.ACTIVATED, Kind.MANA, Kind.LOYALTY):
            raise IllegalActionError(f"ability {index} of {obj.name} is not an activated ability")
        _executable(obj, ability)
        if ability.kind is Kind.LOYALTY:
            _pay_loyalty(game, player, obj, ability, x)
        for restriction in ability.restrictions:
            RESTRICTIONS[restriction.verb](game, player, obj, index - 1)
        ctx = Context(game, decider, player, obj)
        chosen = choose_targets(game, ctx, ability, targets, modes)
        pay_costs(game, decider, player, obj, ability.cost, x=x, pay_with=pay_with)
        if any(restriction.verb == "once_each_turn" for restriction in ability.restrictions):
            game.once_each_turn[(obj.id, index - 1)] = game.turn
        item = StackItem(obj.id, player, index - 1, chosen, x, list(modes))
        if ability.kind is Kind.MANA:
            _resolve_item(game, decider, item)
            settle(game, decider)
        else:
            game.stack.append(item)
            game.log.append(f"{player} activates {obj.name}")
            settle(game, decider)  # abilities triggered by paying the cost go on the stack above it


def cast(
    game: Game,
    decider: Decider,
    player: str,
    obj: GameObject,
    targets: Sequence[Sequence[Ref]] = (),
    *,
    x: int | None = None,
    pay_with: Sequence[GameObject] | None = None,
    modes: Sequence[int] = (),
) -> None:
    """Cast ``obj`` from its owner's hand (``modes``: the chosen modes of a modal spell, 1-based)."""
    with atomic(game):
        if obj.zone != "hand" or obj.owner != player:
            raise IllegalActionError(f"{obj.name} is not in {player}'s hand")
        card = obj.card
        if "Land" in card.types:
            raise IllegalActionError(f"{obj.name} is a land: play it, don't cast it")
        if "Instant" not in card.types and "flash" not in keywords_of(obj):
            _sorcery_speed(game, player, obj)
        spell = spell_ability(obj)
        if spell is not None:
            _executable(obj, spell)
        ctx = Context(game, decider, player, obj)
        chosen = choose_targets(game, ctx, spell, targets, modes) if spell is not None else []
        mana.pay(game, player, card.mana_symbols, x=x, named=pay_with)
        game.move(obj, "stack")
        game.stack.append(StackItem(obj.id, player, None, chosen, x, list(modes)))
        game.log.append(f"{player} casts {obj.name}")
        game.events.append(Event("cast", obj, "hand", "stack", player))
        settle(game, decider)


def spell_ability(obj: GameObject) -> Ability | None:
    """An instant's or sorcery's text as one ability (its lines joined)."""
    if obj.card.is_permanent:
        return attachments.aura_spell(obj.card)  # an Aura spell targets what it will enchant
    abilities = [a for a in obj.card.abilities if a.kind is Kind.SPELL]
    if len(abilities) == 1:
        return abilities[0]
    effects = tuple(step for ability in abilities for step in ability.effects)
    return Ability(Kind.SPELL, abilities[0].span, effects=effects) if abilities else None


def play_land(game: Game, player: str, obj: GameObject, decider: Decider | None = None) -> None:
    with atomic(game):
        if "Land" not in obj.card.types or obj.zone != "hand" or obj.owner != player:
            raise IllegalActionError(f"{obj.name} is not a land in {player}'s hand")
        _sorcery_speed(game, player, obj)
        if game.players[player].lands_played:
            raise IllegalActionError(f"{player} has already played a land this turn")
        game.players[player].lands_played += 1
        game.move(obj, "battlefield")
        settle(game, decider)


def resolve_top(game: Game, decider: Decider) -> None:
    """All players passed: the top of the stack resolves."""
    if not game.stack:
        raise IllegalActionError("the stack is empty")
    item = game.stack.pop()
    _resolve_item(game, decider, item)
    settle(game, decider)


def _resolve_item(game: Game, decider: Decider, item: StackItem) -> None:
    if item.delayed is not None:
        waiting = item.delayed
        source = game.objects.get(waiting.source.id, waiting.source)
        ctx = Context(game, decider, waiting.controller, source)
        # the objects "it" named, as they are now (gone ones are not affected)
        ctx.it = [
            ref if isinstance(ref, str) else game.objects[ref.id]
            for ref in waiting.it
            if isinstance(ref, str) or ref.id in game.objects
        ]
        execute(ctx, waiting.body)
        return
    source = game.objects[item.source]
    # an Equip or Cycling keyword stands for its activated ability
    ability = spell_ability(source) if item.is_spell else _activated(ability_at(source, item.ability or 0))
    ctx = Context(game, decider, item.controller, source)
    if item.event is not None:  # "it", "that player", "that creature": what the event was about
        about_event(ctx, item.event, ability.trigger if ability is not None else None)
    if item.x is not None:
        ctx.bindings["X"] = item.x
    if ability is not None:
        nouns = target_nouns(ability, item.modes)
        legal_any = not nouns
        it, mentions = list(ctx.it), list(ctx.mentions)
        for noun, refs in zip(nouns, item.targets, strict=False):
            still = [ref for ref in refs if _still_legal(game, ctx, noun, ref)]
            record_target(ctx, noun, still)
            legal_any = legal_any or bool(still)
        ctx.it, ctx.mentions = it, mentions  # the steps name things afresh, in their order
        if legal_any:
            execute_steps(ctx, chosen_steps(ability, item.modes) if ability.modes else ability.effects)
        else:
            game.log.append(f"{source.name}: every target is illegal, nothing happens")
    if item.is_spell:
        fizzled = ability is not None and not legal_any  # an Aura spell with an illegal target (608.3b)
        game.move(source, "battlefield" if source.card.is_permanent and not fizzled else "graveyard")
        if source.card.is_permanent:
            source.controller = item.controller


def _still_legal(game: Game, ctx: Context, noun: TargetPhrase, ref: Ref) -> bool:
    if isinstance(ref, GameObject) and ref.id not in game.objects:
        return False
    return _legal_target(game, ctx, noun, ref)


def resolve_all(game: Game, decider: Decider) -> None:
    with atomic(game):
        while game.stack:
            resolve_top(game, decider)


def pass_priority(game: Game, decider: Decider) -> None:
    """Every player passes once: the top of the stack resolves, or the game goes to the next step."""
    with atomic(game):
        if game.stack:
            resolve_top(game, decider)
        else:
            _next_step(game, decider)


def advance(game: Game, decider: Decider, step: Step) -> None:
    """Move through the steps (doing their turn-based actions) to the next ``step``."""
    with atomic(game):
        if game.stack:
            raise IllegalActionError("the stack is not empty")
        _next_step(game, decider)
        for _ in range(3 * len(STEPS)):
            if game.step is step or game.stack:  # a triggered ability stops the way
                return
            _next_step(game, decider)
        if game.step is step or game.stack:
            return
        raise IllegalActionError(f"the game never reaches the {step} step (no attackers, no blockers step)")


def _next_step(game: Game, decider: Decider) -> None:
    for player in game.players.values():
        player.mana_pool.clear()
    index = STEPS.index(game.step)
    if index + 1 == len(STEPS):
        order = list(game.players)
        game.active = order[(order.index(game.active) + 1) % len(order)]
        game.turn += 1
        game.step = Step.UNTAP
        for player in game.players.values():
            player.lands_played = 0
    else:
        game.step = STEPS[index + 1]
    while _combat.skipped(game):  # no attackers: no blockers or damage steps (rule 508.8)
        game.step = STEPS[STEPS.index(game.step) + 1]
    _combat.step_begins(game, decider)
    if game.step is Step.UNTAP:
        for obj in game.permanents(game.active):
            if obj.skip_untaps:
                obj.skip_untaps -= 1
            elif not _combat.restrictions(game, obj, "doesnt_untap"):
                obj.tapped = False
    elif game.step is Step.DRAW:
        library = game.players[game.active].zones["library"]
        if library:
            game.move(game.objects[library[0]], "hand")
    elif game.step is Step.CLEANUP:
        hand = game.in_zone("hand", game.active)
        while len(hand) > HAND_SIZE:
            name = decider.choose(f"{game.active} discards to hand size", [o.name for o in hand])
            chosen = next(o for o in hand if o.name == name)
            game.move(chosen, "graveyard")
            hand.remove(chosen)
        game.shields.clear()  # prevention effects "this turn" end
        for obj in game.permanents():
            obj.damage = 0
            obj.until_end_of_turn.clear()
            obj.keywords_until_end_of_turn.clear()
            obj.restrictions_until_end_of_turn.clear()
            obj.granted_until_end_of_turn.clear()
            if obj.controller_after_turn is not None:
                obj.controller, obj.controller_after_turn = obj.controller_after_turn, None
    game.events.append(Event("step", None, "", game.step, game.active))
    settle(game, decider)


def state_based_actions(game: Game) -> None:
    # Auras and Equipment first: an Aura whose creature dies in this check still sees it die (its
    # "when enchanted creature dies" triggers) and goes to the graveyard in the next round
    attachments.check(game)
    for obj in [o for o in game.objects.values() if o.token and o.zone not in ("battlefield", "stack")]:
        game.zone_list(obj.zone, obj.owner).remove(obj.id)  # a token off the battlefield ceases to exist
        del game.objects[obj.id]
    for obj in list(game.permanents()):
        if obj.is_a("Planeswalker") and obj.counters.get("loyalty", 0) <= 0 and "loyalty" in obj.counters:
            game.move(obj, "graveyard")  # 704.5i
    for player in game.players.values():
        if player.life <= 0 and not player.lost:
            player.lost = True  # rule 704.5a
            game.log.append(f"{player.name} loses the game")
    for obj in list(game.permanents()):
        toughness = obj.toughness
        if obj.is_a("Creature") and toughness is not None and toughness <= 0:
            game.move(obj, "graveyard")
        elif obj.is_a("Creature") and toughness is not None and obj.damage >= toughness:
            destroy(game, obj)  # lethal damage destroys: indestructible and regeneration apply
        elif obj.is_a("Creature") and obj.deathtouched:
            destroy(game, obj)  # damage from a source with deathtouch (rule 704.5h)
        obj.deathtouched = False
