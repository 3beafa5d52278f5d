"""Moving through the steps of a turn and their turn-based actions (500-514)."""

from __future__ import annotations

from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import (
    IllegalActionError,
)
from carddb.engine.core.state import STEPS, Event, Game, Step, atomic
from carddb.engine.rules import combat as _combat
from carddb.engine.rules import sagas
from carddb.engine.rules.draws import draw
from carddb.engine.rules.suspend import lose_haste
from carddb.engine.rules.triggers import settle
from carddb.engine.rules.zones import put

HAND_SIZE = 7


def advance(game: Game, decider: Decider, step: Step) -> None:
    """Move through the steps (doing their turn-based actions) to the next ``step``."""
    with atomic(game):
        if game.stack:
            raise IllegalActionError("the stack is not empty")
        next_step(game, decider)
        for _ in range(3 * len(STEPS)):
            if game.step is step or game.stack:  # a triggered ability stops the way
                return
            next_step(game, decider)
        if game.step is step or game.stack:
            return
        raise IllegalActionError(f"the game never reaches the {step} step (no attackers, no blockers step)")


def next_step(game: Game, decider: Decider) -> None:
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
            player.planar_rolls = 0
            player.draws_this_turn = player.spells_cast_this_turn = 0
            player.life_gained_this_turn = player.life_lost_this_turn = 0
            player.attacked_this_turn = player.dealt_damage_this_turn = False
        game.left_this_turn = []
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
                game.tap(obj, False)
    elif game.step is Step.DRAW:
        draw(game, game.active, decider=decider)
    elif game.step is Step.MAIN1:
        sagas.precombat_main(game)  # 714.3b: a turn-based action
    elif game.step is Step.CLEANUP:
        hand = game.in_zone("hand", game.active)
        while len(hand) > HAND_SIZE:
            name = decider.choose(f"{game.active} discards to hand size", [o.name for o in hand])
            chosen = next(o for o in hand if o.name == name)
            put(game, chosen, "graveyard", cause="discard", decider=decider)
            hand.remove(chosen)
        game.shields.clear()  # prevention effects "this turn" end
        game.lasting.clear()  # so do replacement effects (514.2)
        for obj in game.permanents():
            obj.damage = 0
            controller = obj.controller
            obj.end_of_turn()  # "until end of turn" effects end (514.2)
            if obj.controller != controller:  # control went back: it came under that control now
                obj.since_turn = game.turn
                lose_haste(obj)
    game.events.append(Event("step", None, "", game.step, game.active))
    settle(game, decider)


