"""Mana: adding it to a pool, paying it as part of an effect ("unless its controller pays {3}")."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import CostError, EngineError
from carddb.engine.core.forms import is_form, named
from carddb.engine.query.nouns import (
    players,
    resolve,
    value,
)
from carddb.engine.rules import mana
from carddb.engine.rules.execution import count_each
from carddb.engine.rules.mana import COLORS, mana_symbols
from carddb.oracle.model import Action, ManaCost


def add_mana(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        pool = ctx.game.players[player].mana_pool
        symbols = [s.strip("{}") for s in mana_symbols(action)]
        if is_form(action, "symbols", "adds_symbols"):
            pool.extend(symbols)
        elif is_form(action, "one_of_two", "one_of_three"):  # "{U}{U}, {U}{B}, or {B}{B}": one of them
            options = {
                "".join(s.strip("{}") for s in m.symbols): m
                for _, m in action.args
                if isinstance(m, ManaCost)
            }
            chosen = options[ctx.decider.choose("add which mana?", list(options))]
            pool.extend(s.strip("{}") for s in chosen.symbols)
        elif is_form(action, "any_color", "any_combination"):  # each one of any colour
            for _ in range(value(ctx, action.arg("amount"))):
                pool.append(ctx.decider.choose("add mana of which color?", list(COLORS)))
        elif is_form(action, "any_one_color"):  # "add three mana of any one color"
            color = ctx.decider.choose("add mana of which one color?", list(COLORS))
            pool.extend([color] * value(ctx, action.arg("amount")))
        else:
            raise EngineError(f"cannot add mana as {action!r}")


def pay_mana(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        mana.pay(ctx.game, player, mana_symbols(action), x=ctx.bindings.get("X"))


def get_energy(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "You get {E}{E}": that many energy counters (107.14, 122.1e)."""
    for player in players(ctx, subject):
        ctx.game.players[player].energy += mana.energy_of(action)


def pay_energy(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "You may pay {E}{E}. If you do, …": that many energy counters, all or none (107.14)."""
    for player in players(ctx, subject):
        mana.pay_energy(ctx.game, player, mana.energy_of(action))


def _pays(ctx: Context, condition: Action) -> bool:
    """ "… unless its controller pays {3}": that player chooses whether to pay, and pays if able.
    "… unless its controller pays {1} for each card in your graveyard": the cost is counted as the
    ability resolves, the symbols once for each (zero of them is a payment of nothing)."""
    paid = False
    for player in players(ctx, resolve(ctx, condition.arg("who"))):
        energy = mana.energy_of(condition)  # "unless you pay {E}{E}" (107.14)
        symbols = mana_symbols(condition) or ["{E}"] * energy
        if is_form(condition, "pays_for_each", "pay_for_each"):
            times = count_each(ctx, condition.arg("what"), [player])
            symbols, energy = symbols * times, energy * times
            if not times:  # nothing to pay: paid (a player would never refuse to pay nothing)
                paid = True
                continue
        if ctx.decider.choose(f"{player}: pay {''.join(symbols)}?", ["yes", "no"]) == "yes":
            try:
                if energy:
                    mana.pay_energy(ctx.game, player, energy)
                else:
                    mana.pay(ctx.game, player, symbols)
                paid = True
            except CostError as error:
                ctx.game.log.append(f"{player} cannot pay: {error}")
    return paid


SECTION = Section(
    "effects.mana",
    verbs={
        "add_mana": add_mana,
        "pay_mana": pay_mana,
        "get_energy": get_energy,
        "pay_energy": pay_energy,
    },
    conditions={
        "pays": _pays,
    },
    forms={
        "add_mana": named(
            "add_mana",
            "symbols",
            "one_of_two",
            "one_of_three",
            "any_color",
            "adds_symbols",
            "any_one_color",
            "any_combination",
        ),
        "pays": named(
            "pays", "pays", "pay", "pays_energy", "pay_energy", "pays_for_each", "pay_for_each"
        ),
    },
)
