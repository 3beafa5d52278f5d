"""Life: gaining, losing and paying it; winning the game; the counters a player gets (122.1)."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import named
from carddb.engine.effects.common import (
    stat_amount,
)
from carddb.engine.query.nouns import (
    counter_kind,
    players,
    value,
)
from carddb.engine.rules.execution import count_each
from carddb.engine.rules.life import gain_life, lose_life
from carddb.oracle.model import Action


def life(ctx: Context, subject: list[Ref], action: Action) -> None:
    change = gain_life if action.verb == "gain_life" else lose_life
    for player in players(ctx, subject):
        change(ctx.game, player, value(ctx, action.arg("amount")), ctx.decider)




def get_counters(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "You get an experience counter", "that player gets two poison counters" (122.1: a player
    can have counters; poison counters are counted for 704.5c)."""
    spec = action.arg("counters")
    if not isinstance(spec, Action):
        raise EngineError(f"cannot read the counters {spec!r}")
    kind = counter_kind(spec.arg("kind"))
    count = value(ctx, spec.arg("amount"))
    for player in players(ctx, subject):
        state = ctx.game.players[player]
        if kind == "poison":
            state.poison += count
        else:
            state.counters[kind] = state.counters.get(kind, 0) + count


def pay_life(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Paying life as an effect ("unless that player pays 3 life" is a condition, not this): a
    player can pay life only if their life total is at least that much (rule 119.4)."""
    amount = value(ctx, action.arg("amount"))
    for player in players(ctx, subject):
        state = ctx.game.players[player]
        if state.life < amount:
            raise EngineError(f"{player} has only {state.life} life, not {amount}")
        lose_life(ctx.game, player, amount)




def life_equal(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Each player gains or loses life equal to a number. (With several players and a number that
    speaks of them, "Each player loses life equal to the number of creatures they control", the
    clause is executed for each player, :mod:`carddb.engine.rules.execution`.)"""
    change = gain_life if action.verb == "gain_life_equal" else lose_life
    amount = stat_amount(ctx, subject, action)
    for player in players(ctx, subject):
        change(ctx.game, player, amount, ctx.decider)


def life_for_each(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "You gain 2 life for each creature you control", "Each player loses 1 life for each creature
    they control": each player counts with "they" and "their" naming themselves (the clause is
    executed for each player, :mod:`carddb.engine.rules.execution`)."""
    change = gain_life if action.verb == "gain_life_for_each" else lose_life
    amount = value(ctx, action.arg("amount"))
    for player in list(players(ctx, subject)):
        ctx.it = [player]
        count = count_each(ctx, action.arg("what"), [player])
        change(ctx.game, player, amount * count, ctx.decider)






def win(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        ctx.game.log.append(f"{player} wins the game")


SECTION = Section(
    "effects.life",
    verbs={
        "gain_life": life,
        "lose_life": life,
        "pay_life": pay_life,
        "gain_life_equal": life_equal,
        "lose_life_equal": life_equal,
        "gain_life_for_each": life_for_each,
        "lose_life_for_each": life_for_each,
        "win_the_game": win,
        "get_counters": get_counters,
    },
    forms={
        "gain_life_equal": named(
            "gain_life_equal", "power", "gains_power", "toughness", "gains_toughness", "mana_value",
            "gains_mana_value", "number_of",
        ),
        "lose_life_equal": named(
            "lose_life_equal", "power", "loses_power", "toughness", "loses_toughness", "mana_value",
            "loses_mana_value", "number_of", "loses_number_of",
        ),
    },
)
