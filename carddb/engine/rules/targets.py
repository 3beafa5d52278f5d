"""Targets (601.2c, 608.2b): the target phrases of an ability in the order its text names them, whether a
choice is legal, choosing them on casting or activation, and the modes chosen."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import (
    IllegalActionError,
    TargetError,
)
from carddb.engine.core.forms import is_form
from carddb.engine.core.state import Event, Game, GameObject, StackItem
from carddb.engine.query.nouns import matches, noun_zone, resolve, value
from carddb.engine.query.tree import children
from carddb.engine.rules.protection import targetable
from carddb.oracle.model import (
    Ability,
    Action,
    Noun,
    Pronoun,
    TargetSlot,
)

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
    low, high = mode_counts(ability)
    if not low <= len(modes) <= high or len(set(modes)) != len(modes):
        raise IllegalActionError(f"{ability.choose}: choose {low}–{high} different modes, not {list(modes)}")
    for mode in modes:
        if not 1 <= mode <= len(ability.modes):
            raise IllegalActionError(f"there is no mode {mode} (there are {len(ability.modes)})")
    return (*ability.effects, *(step for mode in modes for step in ability.modes[mode - 1].effects))


def mode_counts(ability: Ability) -> tuple[int, int]:
    """How few and how many modes its header lets a player choose ("Choose up to one": 0, 1)."""
    header = (ability.choose or "").split(" ", 1)[-1].lower().rstrip(".")
    return _MODE_COUNTS.get(header, (1, 1))


TargetPhrase = Noun | Pronoun | Action
"""What names a target: a noun phrase ("target creature"), "any target", or the qualifier "target
player controls" / "target opponent controls" of a noun ("Destroy all lands target player
controls": the player is the target)."""


def target_slots(ability: Ability, modes: Sequence[int] = ()) -> list[TargetSlot]:
    """The grammar's target slots of the steps that run (115, 601.2c): the ability's own, then the
    chosen modes', in text order; a reflexive trigger's are chosen later, when it triggers."""
    slots = list(ability.targets)
    if ability.modes:
        chosen_steps(ability, modes)  # the modes are checked against the header
        slots += [slot for mode in modes for slot in ability.modes[mode - 1].targets]
    return [slot for slot in slots if not slot.reflexive]


def target_nouns(ability: Ability, modes: Sequence[int] = ()) -> list[TargetPhrase]:
    """The phrase of each target slot (:func:`target_slots`), in slot order: the noun ("target
    creature"), "any target", "target player controls", or the phrase a possessive gives its slot
    ("switch target creature's power and toughness", "target player's graveyard"). Each chosen
    mode's slots are its own (numbered from 1 in each mode): "Choose one or both — • Return
    target creature card … • Return target artifact card …" has two different phrases."""
    return [phrase for phrase, _ in target_phrase_slots(ability, modes)]


def target_phrase_slots(ability: Ability, modes: Sequence[int] = ()) -> list[tuple[TargetPhrase, TargetSlot]]:
    """:func:`target_nouns`, each phrase with its slot: how many objects or players it takes
    ("two target permanents" 2–2, "up to one target creature" 0–1, 601.2c)."""
    own = _phrases(ability.effects)
    found = [(own[slot.slot], slot) for slot in ability.targets if not slot.reflexive and slot.slot in own]
    if ability.modes:
        chosen_steps(ability, modes)  # the modes are checked against the header
        found += [pair for mode in modes for pair in mode_phrase_slots(ability, mode)]
    return found


def mode_phrase_slots(ability: Ability, mode: int) -> list[tuple[TargetPhrase, TargetSlot]]:
    """The target phrases of one mode (1-based) alone, in slot order, each with its slot (how few
    and how many targets it takes): whether the mode can be chosen (603.3c, 700.2a)."""
    chosen = ability.modes[mode - 1]
    phrases = _phrases(chosen.effects)
    slots = [slot for slot in chosen.targets if not slot.reflexive and slot.slot in phrases]
    return [(phrases[slot.slot], slot) for slot in slots]


def _phrases(steps: Iterable[object]) -> dict[int, TargetPhrase]:
    """The first phrase naming each target slot in ``steps`` (not inside a quoted ability)."""
    phrases: dict[int, TargetPhrase] = {}

    def visit(node: object) -> None:
        slot = node.slot if isinstance(node, Noun | Pronoun | Action) else None
        if slot is not None and slot not in phrases:
            phrases[slot] = node  # type: ignore[assignment]
        if isinstance(node, Ability):
            return  # a quoted ability's targets are its own
        for child in children(node):
            visit(child)

    visit(list(steps))
    return phrases


def step_nouns(step: object) -> list[TargetPhrase]:
    """The target phrases of the steps of a triggered ability an effect creates (a reflexive
    "When you do, …", 603.12, or a delayed one, 603.7), in slot order: chosen as it triggers."""
    phrases = _phrases([step])
    return [phrases[slot] for slot in sorted(phrases)]


DIVIDED_ANY = frozenset({"deal_damage_divided"})
"""Phrases that are their own target slot, any target each ("divided as you choose among …")."""


def legal_target(game: Game, ctx: Context, noun: TargetPhrase, ref: Ref) -> bool:
    if not targetable(ctx, ref):  # hexproof, shroud
        return False
    if isinstance(noun, Pronoun):  # any target: a creature, a planeswalker or a player
        return _any_target(ref) and (isinstance(ref, str) or ref.zone == "battlefield")
    if isinstance(noun, Action) and noun.verb == "player_controls":  # "target player controls"
        anyone = is_form(noun, "target_player")
        return isinstance(ref, str) and ref in game.players and (anyone or ref != ctx.controller)
    if isinstance(noun, Action) and noun.verb in DIVIDED_ANY:  # "… among one, two, or three targets"
        return _any_target(ref) and (isinstance(ref, str) or ref.zone == "battlefield")
    if isinstance(noun, Action):  # "target creature's power", "target player's graveyard"
        described = possessed(noun)
        if described is None:
            return False
        return legal_target(game, ctx, described, ref)
    if isinstance(ref, str):
        return ref in game.players and matches(ctx, ref, noun)
    return ref.zone == noun_zone(noun) and matches(ctx, ref, noun)


def possessed(action: Action) -> Noun | None:
    """The target a possessive names ("target creature's" → target creature)."""
    for _, written in action.args:
        if isinstance(written, str) and written.startswith("target ") and written.endswith(("'s", "s'")):
            description = written.removeprefix("target ").removesuffix("'s").removesuffix("'")
            return Noun(("target",), description, slot=action.slot)
    return None


def target_text(noun: TargetPhrase) -> str:
    if isinstance(noun, Action) and noun.verb in DIVIDED_ANY:
        return "any target"
    if isinstance(noun, Action) and noun.verb != "player_controls":
        described = possessed(noun)
        return f"target {described.description}" if described is not None else noun.verb
    if isinstance(noun, Action):
        return "target player" if is_form(noun, "target_player") else "target opponent"
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
    phrases = target_phrase_slots(ability, modes)  # a mode's "target creature" takes one target too
    if len(chosen) != len(phrases):
        names = ", ".join(target_text(n) for n, _ in phrases) or "no target"
        raise TargetError(f"{ctx.source.name} needs {len(phrases)} target(s) ({names}), got {len(chosen)}")
    picked: list[list[Ref]] = []
    it, mentions = list(ctx.it), list(ctx.mentions)
    for (noun, slot), refs in zip(phrases, chosen, strict=True):
        most = slot.max if slot.max is not None else len(refs)
        if not slot.min <= len(refs) <= most:
            limit = "any number" if slot.max is None else str(slot.max)
            raise TargetError(
                f"{ctx.source.name}: target {slot.description} takes {slot.min} to {limit}, not {len(refs)}"
            )
        if len({id(ref) if not isinstance(ref, str) else ref for ref in refs}) != len(refs):
            raise TargetError(f"{ctx.source.name}: the same target chosen twice for one phrase (115.3)")
        for ref in refs:
            if not legal_target(game, ctx, noun, ref):
                name = ref if isinstance(ref, str) else ref.name
                raise TargetError(f"{name} is not a legal target ({target_text(noun)})")
        picked.append(list(refs))
        record_target(ctx, noun, list(refs))
    ctx.slots.clear()
    ctx.it, ctx.mentions = it, mentions
    return picked


def still_legal(game: Game, ctx: Context, noun: TargetPhrase, ref: Ref) -> bool:
    if isinstance(ref, GameObject) and ref.id not in game.objects:
        return False
    return legal_target(game, ctx, noun, ref)


def target_events(item: StackItem) -> list[Event]:
    """What ``item`` (just put on the stack) made a target, each object and player once (601.2c:
    "becomes the target of" abilities trigger then, ``rules.targeted``)."""
    events: list[Event] = []
    seen: set[int | str] = set()
    for refs in item.targets:
        for ref in refs:
            key = ref if isinstance(ref, str) else ref.id
            if key in seen:
                continue
            seen.add(key)
            if isinstance(ref, str):
                events.append(Event("target", None, other=ref, player=item.controller, by=item))
            else:
                events.append(Event("target", ref, player=item.controller, by=item))
    return events


def target_key(ref: Ref) -> int | str:
    """A target as :attr:`StackItem.divided` names it: an object's id, a player's name."""
    return ref if isinstance(ref, str) else ref.id


def divide(
    ctx: Context, ability: Ability, chosen: list[list[Ref]], modes: Sequence[int] = ()
) -> dict[int | str, int]:
    """601.2d: "deals 3 damage divided as you choose among one, two, or three targets" — the
    controller divides the amount as the ability is put on the stack, at least 1 to each target
    (asked target by target; the last one gets the rest). Empty: nothing divided."""
    for noun, refs in zip(target_nouns(ability, modes), chosen, strict=False):
        if not (isinstance(noun, Action) and noun.verb == "deal_damage_divided") or not refs:
            continue
        amount = value(ctx, noun.arg("amount"))
        if amount < len(refs):
            raise TargetError(f"{ctx.source.name}: {amount} damage cannot go to {len(refs)} targets (601.2d)")
        division: dict[int | str, int] = {}
        left = amount
        for number, ref in enumerate(refs):
            others = len(refs) - number - 1
            if not others:
                division[target_key(ref)] = left
                break
            name = ref if isinstance(ref, str) else ref.name
            options = [str(n) for n in range(1, left - others + 1)]
            question = f"{ctx.controller}: how much of the {amount} damage to {name}?"
            given = int(ctx.decider.choose(question, options))
            division[target_key(ref)] = given
            left -= given
        return division
    return {}
