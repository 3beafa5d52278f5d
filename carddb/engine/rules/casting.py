"""Lines that apply while a spell is cast (601.2b–f), not when it resolves: "This spell can't be
countered." and cost changes — "This spell costs {1} less to cast for each creature you control.",
"This spell costs {2} less to cast if you control a Wizard.", "… costs {1} more to cast …".

``query.executable.casting_problem`` says which of them the engine cannot apply;
:func:`total_cost` applies the cost changes to the mana a spell costs (601.2f: increases, then
reductions, which reduce only generic mana); :func:`uncounterable` tells a spell that can't be
countered (the counter handler leaves it on the stack)."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import written
from carddb.engine.query.executable import casting_line, generic_amount
from carddb.engine.query.nouns import candidates_for, matches
from carddb.engine.rules.conditions import evaluate
from carddb.oracle.model import Ability, Action, Casting, Kind, Noun


def _change(ctx: Context, ability: Ability) -> int:
    found = casting_line(ability)
    assert found is not None
    predicate, condition = found
    if condition is not None and not evaluate(ctx, condition):
        return 0
    amount = generic_amount(predicate) or 0
    if predicate.verb == "costs_for_each":
        what = predicate.arg("what")
        if not isinstance(what, Noun):
            raise EngineError("cannot count what the cost changes for")
        amount *= sum(1 for obj in candidates_for(ctx, what) if matches(ctx, obj, what))
    return amount if " more " in written(predicate) else -amount


def total_cost(ctx: Context, symbols: Sequence[str]) -> tuple[str, ...]:
    """``symbols`` with the cost changes of the spell's own casting lines applied (601.2f): the
    generic part grows or shrinks, never below zero; coloured symbols stay."""
    change = sum(
        _change(ctx, ability)
        for ability in ctx.source.card.abilities
        if ability.kind is Kind.CASTING and ability.casting is Casting.COST_CHANGE
    )
    if change == 0:
        return tuple(symbols)
    generic = sum(int(s.strip("{}")) for s in symbols if s.strip("{}").isdigit())
    rest = tuple(s for s in symbols if not s.strip("{}").isdigit())
    generic = max(0, generic + change)
    return (f"{{{generic}}}", *rest) if generic else rest


def uncounterable(card: CardDef) -> bool:
    """ "This spell can't be countered." (a spell or ability that counters it does not, 701.5)."""
    return any(a.kind is Kind.CASTING and a.casting is Casting.UNCOUNTERABLE for a in card.abilities)


def _while_cast(ctx: Context, subject: list[Ref], action: Action) -> None:
    raise EngineError(f"{action.verb!r} applies as the spell is cast, not when it resolves")


SECTION = Section(
    "rules.casting",
    verbs={"cant_be_countered": _while_cast, "costs_less": _while_cast, "costs_for_each": _while_cast},
)
