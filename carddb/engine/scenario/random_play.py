"""Seeded random play: every legal-looking action tried at random, the game checked after each one.

Used by ``benchmarks/engine_bench.py`` (actions per second) and the tests: whatever the random
player tries, an action either happens entirely or is refused with an :class:`EngineError` and an
unchanged game, and no card is ever lost or duplicated between zones (:meth:`Game.check`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from carddb.engine.actions import combat as fighting
from carddb.engine.actions import play, turn
from carddb.engine.catalog import CATALOG
from carddb.engine.core.cards import CardDef
from carddb.engine.core.context import Ref
from carddb.engine.core.decisions import RandomDecider
from carddb.engine.core.errors import EngineError
from carddb.engine.core.state import Game, Player, Step
from carddb.engine.query.executable import check_object
from carddb.engine.rules.targets import target_nouns


@dataclass
class RandomPlayReport:
    actions: int
    accepted: int
    refused: int
    turns: int
    games: int = 1


def new_game(deck: Sequence[CardDef], players: Sequence[str] = ("Alice", "Bob"), hand: int = 7) -> Game:
    """A game whose players each have ``deck`` as their library (in the given order) and draw
    ``hand`` cards."""
    game = Game({name: Player(name) for name in players}, players[0], Step.MAIN1, catalog=CATALOG)
    for name in players:
        for card in deck:
            check_object(game.create(card, name, "library"), game.catalog)  # refused, never ignored
        for _ in range(hand):
            library = game.players[name].zones["library"]
            if library:
                game.move(game.objects[library[0]], "hand")
    return game


def _targets(game: Game, rng: random.Random, count: int) -> list[list[Ref]]:
    candidates: list[Ref] = [*game.players, *game.permanents()]
    candidates += [game.objects[item.source] for item in game.stack if item.is_spell]
    return [[rng.choice(candidates)] for _ in range(count)]


def random_play(
    game: Game, actions: int, seed: int = 0, restart: Callable[[], Game] | None = None
) -> RandomPlayReport:
    """Try ``actions`` random actions; raise :class:`EngineError` if the game ever loses track of a
    card or a refused action changed it. When a game ends, ``restart`` (if given) starts the next."""
    rng = random.Random(seed)
    decider = RandomDecider(seed)
    accepted = refused = 0
    games = 1
    turns = 0
    for _ in range(actions):
        if game.over and restart is not None:
            turns += game.turn
            game = restart()
            games += 1
        before = game.fingerprint()
        try:
            _one_action(game, decider, rng)
            accepted += 1
        except EngineError:
            refused += 1
            if game.fingerprint() != before:
                raise EngineError("a refused action changed the game") from None
        game.check()
    return RandomPlayReport(actions, accepted, refused, turns + game.turn, games)


def _one_action(game: Game, decider: RandomDecider, rng: random.Random) -> None:
    player = rng.choice(list(game.players))
    kind = rng.random()
    if kind < 0.35:
        permanents = game.permanents(player)
        if not permanents:
            raise EngineError("nothing to activate")
        obj = rng.choice(permanents)
        if not obj.card.abilities:
            raise EngineError("no abilities")
        index = rng.randrange(len(obj.card.abilities)) + 1
        ability = obj.card.abilities[index - 1]
        targets = _targets(game, rng, len(target_nouns(ability)))
        play.activate(game, decider, player, obj, index, targets, x=rng.randrange(4))
    elif kind < 0.55:
        hand = game.in_zone("hand", player)
        if not hand:
            raise EngineError("empty hand")
        obj = rng.choice(hand)
        if "Land" in obj.card.types:
            play.play_land(game, player, obj)
            return
        spell = play.spell_ability(obj)
        count = len(target_nouns(spell)) if spell is not None else 0
        play.cast(game, decider, player, obj, _targets(game, rng, count), x=rng.randrange(4))
    elif kind < 0.8:
        play.pass_priority(game, decider)
    elif kind < 0.9:
        turn.advance(game, decider, rng.choice(list(Step)))
    else:
        _combat_action(game, decider, rng, player)


def _combat_action(game: Game, decider: RandomDecider, rng: random.Random, player: str) -> None:
    """Attack with some of the player's creatures, or block some attackers."""
    creatures = [obj for obj in game.permanents(player) if obj.is_a("Creature") and rng.random() < 0.5]
    fight = game.combat
    if game.step is Step.DECLARE_ATTACKERS and fight is not None and fight.attackers:
        attackers = [game.objects[i] for i in fight.attackers]
        fighting.block(game, decider, player, [(blocker, rng.choice(attackers)) for blocker in creatures])
    else:
        fighting.attack(game, decider, player, creatures)
