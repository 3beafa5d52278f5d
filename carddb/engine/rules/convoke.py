"""Convoke (702.51a): "For each colored mana in this spell's total cost, you may tap an untapped
creature of that color you control rather than pay that mana. For each generic mana in this
spell's total cost, you may tap an untapped creature you control rather than pay that mana."

It applies after the total cost is determined (702.51b, 601.2f): the caster names the creatures
that convoke the spell (``actions.play.cast(convoke=…)``, a scenario's ``convoke``), each pays one
mana of the total cost — a coloured symbol of one of its colours (a hybrid or Phyrexian symbol
too), else one generic mana — and the rest is paid with mana as usual. Summoning sickness does not
matter (it is not a {T} cost, 302.6). Creatures that cannot each pay a different mana of the cost
make the cast refused, as an unpaid cost does."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.errors import CostError, IllegalActionError
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import keywords_of
from carddb.engine.query.characteristics import COLORS, colors_of
from carddb.oracle.model import Keyword

GENERIC = "generic"


def has_convoke(obj: GameObject) -> bool:
    return "convoke" in keywords_of(obj)


def _slots(symbols: Sequence[str], x: int | None) -> tuple[list[tuple[str, ...]], list[str], list[str]]:
    """The mana of a total cost one creature may pay, one entry per mana (the colours that pay it,
    or ``generic``) with the symbol it comes from, and the symbols no creature may pay ({C}, {S},
    {2/W})."""
    slots: list[tuple[str, ...]] = []
    written: list[str] = []
    others: list[str] = []
    for symbol in symbols:
        inner = symbol.strip("{}")
        count = int(inner) if inner.isdigit() else x if inner == "X" else None
        if inner == "X" and x is None:
            raise CostError("the cost has {X}: choose a value for X")
        if count is not None:
            slots.extend([(GENERIC,)] * count)
            written.extend(["{1}"] * count)
        elif inner in COLORS or (
            "/" in inner and all(part in COLORS or part == "P" for part in inner.split("/"))
        ):
            slots.append(tuple(part for part in inner.split("/") if part != "P"))
            written.append(symbol)
        else:
            others.append(symbol)
    return slots, written, others


def _assign(creatures: list[GameObject], slots: list[tuple[str, ...]]) -> list[int] | None:
    """For each creature in order, the slot it pays (each slot once): coloured mana of its colours
    before generic mana; None when no assignment lets every creature pay one."""
    if not creatures:
        return []
    colors = colors_of(creatures[0])
    order = [i for i, s in enumerate(slots) if GENERIC not in s and colors & set(s)]
    order += [i for i, s in enumerate(slots) if GENERIC in s]
    for index in order:
        rest = _assign(creatures[1:], [s if i != index else () for i, s in enumerate(slots)])
        if rest is not None:
            return [index, *rest]
    return None


def convoke(
    game: Game, player: str, spell: GameObject, symbols: Sequence[str], creatures: Sequence[GameObject],
    x: int | None,
) -> tuple[str, ...]:  # fmt: skip
    """Tap ``creatures`` to pay part of the total cost ``symbols`` of ``spell``; the symbols left to
    pay with mana."""
    if not creatures:
        return tuple(symbols)
    if not has_convoke(spell):
        raise IllegalActionError(f"{spell.name} has no convoke")
    for obj in creatures:
        if obj.zone != "battlefield" or obj.controller != player or not obj.is_a("Creature"):
            raise CostError(f"{obj.name} is not a creature {player} controls")
        if obj.tapped:
            raise CostError(f"{obj.name} is tapped: it cannot convoke")
    if len({obj.id for obj in creatures}) != len(creatures):
        raise CostError("a creature convokes a spell once")
    slots, written, others = _slots(symbols, x)
    assigned = _assign(list(creatures), slots)
    if assigned is None:
        names = ", ".join(obj.name for obj in creatures)
        raise CostError(f"{names} cannot each pay a different mana of {''.join(symbols)} (convoke)")
    for obj in creatures:
        game.tap(obj)
    left = [index for index in range(len(slots)) if index not in assigned]
    generic = sum(1 for index in left if GENERIC in slots[index])
    colored = [written[index] for index in left if GENERIC not in slots[index]]
    game.log.append(f"{player} convokes {spell.name} with {', '.join(obj.name for obj in creatures)}")
    return (*([f"{{{generic}}}"] if generic else []), *colored, *others)


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    return [] if keyword.name.lower() == "convoke" and not keyword.parameter else ["keyword convoke"]


SECTION = Section("rules.convoke", keyword_checks={"convoke": _keyword_problems})
