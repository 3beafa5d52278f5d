"""Lines that apply while a spell is cast (601.2b–f), not when it resolves: "This spell can't be
countered.", the spell's own alternative cost ("You may sacrifice a Mountain rather than pay this
spell's mana cost.", 118.9: :func:`own_alternative_cost`) and cost changes — affinity (702.41a),
"This spell costs {1} less to cast for each creature you control.", "This spell costs {2} less to
cast if you control a Wizard.", "… costs {1} more to cast …".

``query.executable.casting_problem`` says which of them the engine cannot apply;
:func:`total_cost` applies the cost changes to the mana a spell costs (601.2f: increases, then
reductions, which reduce only generic mana); :func:`uncounterable` tells a spell that can't be
countered (the counter handler leaves it on the stack)."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError, IllegalActionError, NotExecutableError
from carddb.engine.core.forms import written
from carddb.engine.query.executable import alternative_cost_line, casting_line, generic_amount, missing
from carddb.engine.query.nouns import (
    count,
    counter_kind,
    known_description,
    matches,
    objects,
    player_counters,
    resolve,
)
from carddb.engine.rules.conditions import evaluate
from carddb.engine.rules.continuous import static_clauses
from carddb.oracle.model import Ability, Action, Casting, Keyword, Kind, ManaCost, Noun


def _change(ctx: Context, ability: Ability) -> int:
    found = casting_line(ability)
    assert found is not None
    predicate, condition = found
    if condition is not None and not evaluate(ctx, condition):
        return 0
    return _amount(ctx, predicate)


def _amount(ctx: Context, predicate: Action) -> int:
    amount = generic_amount(predicate) or 0
    if predicate.verb == "costs_for_each":
        what = predicate.arg("what")
        counter = predicate.arg("counter")
        if counter is not None and predicate.arg("who") is not None:
            # "… for each experience counter you have" (Mizzix of the Izmagnus, 122.1)
            amount *= player_counters(ctx, counter, predicate.arg("who"))
        elif counter is not None:  # "… for each +1/+1 counter on ~" (Animar, Soul of Elements)
            kind = counter_kind(counter)
            amount *= sum(obj.counters.get(kind, 0) for obj in objects(resolve(ctx, what)))
        elif not isinstance(what, Noun):
            raise EngineError("cannot count what the cost changes for")
        else:
            amount *= count(ctx, what)
    more = predicate.verb == "costs_more" or " more " in written(predicate)  # costs_for_each: its words
    return amount if more else -amount


def _static_changes(ctx: Context) -> int:
    """The cost changes static abilities on the battlefield make to the spell ``ctx.source`` is
    ("Creature spells you cast cost {1} less to cast.", "Noncreature spells cost {1} more to cast.")."""
    spell = ctx.source
    total = 0
    for _source, static, clause in static_clauses(ctx.game):
        subject = clause.subject
        for predicate in clause.predicates:
            if not isinstance(predicate, Action) or predicate.verb not in COST_VERBS:
                continue
            if isinstance(subject, Noun) and matches(static, spell, subject):
                total += _amount(static, predicate)
    return total


def _affinity(ctx: Context) -> int:
    """Affinity for [quality] (702.41a): "This spell costs {1} less to cast for each [quality] you
    control." ("Affinity for artifacts", "… for Islands", "… for tokens"), once per instance."""
    change = 0
    for ability in ctx.source.card.abilities:
        for keyword in ability.keywords if ability.kind is Kind.KEYWORD else ():
            if keyword.name.lower() == "affinity" and keyword.parameter:
                what = Noun((), keyword.parameter)
                change -= sum(1 for obj in ctx.game.permanents(ctx.controller) if matches(ctx, obj, what))
    return change


def _affinity_check(keyword: Keyword, catalog: Catalog) -> list[str]:
    quality = keyword.parameter or ""
    return [] if quality and known_description(quality) else [f"keyword affinity for {quality}"]


def total_cost(ctx: Context, symbols: Sequence[str]) -> tuple[str, ...]:
    """``symbols`` with the cost changes of the spell's own casting lines and of static abilities
    applied (601.2f): the generic part grows or shrinks, never below zero; coloured symbols stay."""
    change = _static_changes(ctx) + _affinity(ctx) + sum(
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


def own_alternative_cost(ctx: Context) -> tuple[tuple[str, ...], tuple[Action, ...]]:
    """The alternative cost the spell's own line offers ("[If …,] you may [cost] rather than pay
    this spell's mana cost.", 118.9, 601.2b): the mana symbols paid instead of its mana cost, and
    the other cost phrases ("sacrifice a Mountain", "exile a blue card from your hand"), paid in
    full (601.2h). Refused when the spell has no such line or its condition is not met now."""
    for ability in ctx.source.card.abilities:
        if ability.kind is not Kind.CASTING or ability.casting is not Casting.ALTERNATIVE_COST:
            continue
        problems = missing(ability, ctx.game.catalog)
        found = alternative_cost_line(ability)
        if problems or found is None:
            raise NotExecutableError(ctx.source.name, problems or ["casting ability"])
        condition, costs = found
        if condition is not None and not evaluate(ctx, condition):
            raise IllegalActionError(f"{ctx.source.name}: the condition of its alternative cost is not met")
        mana = tuple(
            symbol
            for cost in costs
            if cost.verb == "pay_mana" and isinstance(paid := cost.arg("mana"), ManaCost)
            for symbol in paid.symbols
        )
        return mana, tuple(cost for cost in costs if cost.verb != "pay_mana")
    raise IllegalActionError(f"{ctx.source.name} has no alternative cost of its own")


def uncounterable(card: CardDef) -> bool:
    """ "This spell can't be countered." (a spell or ability that counters it does not, 701.5)."""
    return any(a.kind is Kind.CASTING and a.casting is Casting.UNCOUNTERABLE for a in card.abilities)


def _while_cast(ctx: Context, subject: list[Ref], action: Action) -> None:
    raise EngineError(f"{action.verb!r} applies as the spell is cast, not when it resolves")


COST_VERBS = frozenset({"costs_less", "costs_more", "costs_for_each"})


def _cost_check(action: Action, catalog: Catalog) -> str | None:
    """A cost change the engine applies: of generic mana, to cast (not to activate, not "for each
    target beyond the first")."""
    text = written(action)
    if "to cast" not in text or "beyond the first" in text:
        return f"cost change {text!r}"
    return None if generic_amount(action) is not None else "cost change of coloured mana"


def _cast_by(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "spells you cast", "spells your opponents cast", "an opponent casts": who casts the spell
    (its controller as it is cast) against the controller of the ability."""
    if isinstance(ref, str):
        return False
    text = written(qualifier)
    if text == "you cast":
        return ref.controller == ctx.controller
    if text in ("your opponents cast", "an opponent casts"):
        return ref.controller != ctx.controller
    raise EngineError(f"cannot tell who cast a spell ({text!r})")


def _cast_by_check(qualifier: Action, catalog: Catalog) -> str | None:
    text = written(qualifier)
    return None if text in ("you cast", "your opponents cast", "an opponent casts") else f"qualifier {text!r}"


SECTION = Section(
    "rules.casting",
    verbs={
        "cant_be_countered": _while_cast,
        "rather_than_mana_cost": _while_cast,
        **dict.fromkeys(COST_VERBS, _while_cast),
    },
    static_verbs=COST_VERBS,
    qualifiers={"cast_by": _cast_by},
    checks={**dict.fromkeys(COST_VERBS, _cost_check), "cast_by": _cast_by_check},
    keyword_checks={"affinity": _affinity_check},
)
"""Spells that can't be countered, their own alternative costs, and cost changes: the spell's own
lines, affinity and static abilities."""
