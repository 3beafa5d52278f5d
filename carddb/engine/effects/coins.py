"""Flipping a coin (705): "Flip a coin. If you win the flip, … If you lose the flip, …", "you may
flip a coin", "that player flips a coin. If they lose the flip, …".

The player the clause names flips (one player; the flip is the decider's: a roll of 1 on a
two-sided die is a won flip, 2 a lost one, 705.2) and the ability remembers whether they won; "If
you win the flip" and "If you lose the flip" read it. ``query.executable`` accepts those conditions
only as sentences after the flip of the same ability (a flip delayed to a later moment, or none,
is refused); a flip declined ("you may flip a coin") is neither won nor lost."""

from __future__ import annotations

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import written
from carddb.engine.query.nouns import players
from carddb.oracle.model import Action, Pronoun

WON = "coin flip won"
"""The binding of the last flip: 1 won, 0 lost (and ``WON + ":" + player`` for who flipped)."""
_RESULTS = {"{who:np} win the flip": True, "{who:np} lose the flip": False}


def flip_coin(ctx: Context, subject: list[Ref], action: Action) -> None:
    flippers = list(players(ctx, subject))
    if len(flippers) != 1:
        raise EngineError(f"one player flips a coin, not {len(flippers)}")
    player = flippers[0]
    won = ctx.decider.roll(2, f"{player} flips a coin for {ctx.source.name} (1: wins, 2: loses)") == 1
    ctx.bindings[WON] = ctx.bindings[f"{WON}:{player}"] = int(won)
    ctx.game.log.append(f"{player} {'wins' if won else 'loses'} the flip")


def flip_result(ctx: Context, condition: Action) -> bool:
    """ "If you win the flip", "If they lose the flip": the flip of this ability (none: false)."""
    wanted = _RESULTS[written(condition)]
    who = condition.arg("who")
    if isinstance(who, Pronoun) and who.word == "you":
        key = f"{WON}:{ctx.controller}"
    elif isinstance(who, Pronoun) and who.word in ("they", "that player"):
        key = WON
    else:
        raise EngineError(f"cannot tell whose coin flip {who!r} means")
    if key not in ctx.bindings:
        return False  # the flip was declined ("you may flip a coin")
    return bool(ctx.bindings[key]) == wanted


def _result_check(condition: Action, catalog: Catalog) -> str | None:
    who = condition.arg("who")
    if written(condition) not in _RESULTS or not (isinstance(who, Pronoun) and who.word in ("you", "they")):
        return f"cond 'coin_flip' {written(condition)!r}"
    return None


SECTION = Section(
    "effects.coins",
    verbs={"flip_coin": flip_coin},
    conditions={"coin_flip": flip_result},
    checks={"coin_flip": _result_check},
)
"""Coin flips and whether they were won."""
