"""Delve (702.66a) and improvise (702.126a): "For each generic mana in this spell's total cost, you
may exile a card from your graveyard rather than pay that mana." and "… you may tap an untapped
artifact you control rather than pay that mana."

Like convoke, they apply after the total cost is determined (601.2f–h): the caster names the cards
they exile from their graveyard (``actions.play.cast(delving=…)``, a scenario's ``delve``) and the
untapped artifacts they tap (``improvising=…``, ``improvise``); each pays {1} of the generic part
(an {X} included, once X is chosen) and the rest is paid with mana. More of them than the generic
mana left refuse the cast, as an unpaid cost does."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.errors import CostError, IllegalActionError
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import keywords_of
from carddb.engine.rules.zones import put
from carddb.oracle.model import Keyword


def _generic(symbols: Sequence[str], x: int | None) -> tuple[int, list[str]]:
    """The generic mana of a total cost ({X} counted as chosen) and its other symbols."""
    generic, rest = 0, []
    for symbol in symbols:
        inner = symbol.strip("{}")
        if inner.isdigit():
            generic += int(inner)
        elif inner == "X" and x is not None:
            generic += x
        else:
            rest.append(symbol)
    return generic, rest


def pay_generic(
    game: Game,
    player: str,
    spell: GameObject,
    symbols: Sequence[str],
    *,
    delving: Sequence[GameObject] = (),
    improvising: Sequence[GameObject] = (),
    x: int | None = None,
) -> tuple[str, ...]:
    """Exile ``delving`` from the graveyard and tap ``improvising`` to pay generic mana of the total
    cost ``symbols``; the symbols left to pay with mana."""
    if not delving and not improvising:
        return tuple(symbols)
    keywords = keywords_of(spell)
    for word, used in (("delve", delving), ("improvise", improvising)):
        if used and word not in keywords:
            raise IllegalActionError(f"{spell.name} has no {word}")
        if len({obj.id for obj in used}) != len(used):
            raise CostError(f"a card pays for {spell.name} once ({word})")
    for card in delving:
        if card.zone != "graveyard" or card.owner != player:
            raise CostError(f"{card.name} is not in {player}'s graveyard (delve)")
    for artifact in improvising:
        if artifact.zone != "battlefield" or artifact.controller != player or not artifact.is_a("Artifact"):
            raise CostError(f"{artifact.name} is not an artifact {player} controls (improvise)")
        if artifact.tapped:
            raise CostError(f"{artifact.name} is tapped: it cannot improvise")
    generic, rest = _generic(symbols, x)
    paid = len(delving) + len(improvising)
    if paid > generic:
        raise CostError(f"{paid} cards and artifacts pay more than the {generic} generic mana of the cost")
    for card in delving:
        put(game, card, "exile", cause="cost")
    for artifact in improvising:
        game.tap(artifact)
    left = generic - paid
    return (*([f"{{{left}}}"] if left else []), *rest)


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    name = keyword.name.lower()
    return [] if not keyword.parameter else [f"keyword {name} {keyword.parameter}"]


SECTION = Section(
    "rules.generic_payers", keyword_checks={"delve": _keyword_problems, "improvise": _keyword_problems}
)
"""Delve and improvise."""
