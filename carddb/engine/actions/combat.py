"""The scenario actions ``attack`` and ``block`` (508.1, 509.1): who attacks and who blocks; the game moves
into the step where that is declared, and the declarations are checked there."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.actions.turn import next_step
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.state import Combat, Game, GameObject, Step, atomic


# -- the actions --------------------------------------------------------------------------------
def attack(
    game: Game,
    decider: Decider,
    player: str,
    attackers: Sequence[GameObject],
    defending: str | None = None,
) -> None:
    """``player`` (the active player) attacks ``defending`` (default: the next opponent in turn
    order) with ``attackers``: from the first main phase or the beginning of combat, the game moves
    into the declare attackers step, where they are checked, tapped (unless they have vigilance)
    and attack; their attack triggers go on the stack."""
    with atomic(game):
        if player != game.active:
            raise IllegalActionError(f"only the active player ({game.active}) attacks")
        if game.stack:
            raise IllegalActionError("the stack is not empty")
        if game.step is Step.MAIN1:
            next_step(game, decider)
            if game.stack:
                raise IllegalActionError(
                    "abilities triggered at the beginning of combat: advance to combat and resolve them first"
                )
        if game.step is not Step.COMBAT:
            raise IllegalActionError(
                f"attackers are declared after the beginning of combat, not in {game.step}"
            )
        if defending is None:
            opponents = game.opponents(player)
            if not opponents:
                raise IllegalActionError(f"{player} has no opponent to attack")
            defending = opponents[0]
        if defending == player or defending not in game.players:
            raise IllegalActionError(f"{player} cannot attack {defending!r}")
        if len({obj.id for obj in attackers}) != len(attackers):
            raise IllegalActionError("a creature attacks only once")
        game.combat = game.combat or Combat()
        game.combat.attackers = {obj.id: defending for obj in attackers}
        next_step(game, decider)


def block(game: Game, decider: Decider, player: str, blocks: Sequence[tuple[GameObject, GameObject]]) -> None:
    """``player`` declares blockers, (blocker, attacker) pairs: from the declare attackers step
    (with an empty stack) the game moves into the declare blockers step, where the blocks are
    checked; block triggers go on the stack."""
    with atomic(game):
        combat = game.combat
        if game.step is not Step.DECLARE_ATTACKERS or combat is None or not combat.attackers:
            raise IllegalActionError(
                "blockers are declared when creatures have attacked (declare attackers step)"
            )
        if game.stack:
            raise IllegalActionError("the stack is not empty")
        declared: dict[int, list[int]] = {}
        for blocker, attacker in blocks:
            if blocker.controller != player:
                raise IllegalActionError(f"{player} controls no {blocker.name} to block with")
            if blocker.id in declared:
                raise IllegalActionError(f"{blocker.name} blocks only one creature")
            declared[blocker.id] = [attacker.id]
        combat.blockers = declared
        next_step(game, decider)
