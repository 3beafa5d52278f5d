"""Seeded random play over the pool: games whose libraries are random cards the engine counts as
executable, played by random actions, to find where the engine breaks (a corpus check).

    python tools/engine_pool_play.py                         # 100 games from seed 0, the shared corpus
    python tools/engine_pool_play.py --games 300 --start 300 --actions 600 --cards 15

Each game takes ``--cards`` random executable cards of one face (two copies each) and twenty
random basic lands per library, and tries ``--actions`` random actions (as
``benchmarks/engine_bench.py`` does with the sample cards): every action must either happen or be
refused with an :class:`~carddb.engine.core.errors.EngineError` leaving the game unchanged, and no
card may be lost between zones. Anything else (a Python exception inside the engine, a broken
game) is printed, grouped by the place it came from, with the seed that shows it and the cards of
that game. Exit status 0 when no game broke, 1 when one did, 2 when the faces file is absent.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine_sample import FACES, executable_faces, jsonl_records

from carddb.engine.core.cards import CardDef
from carddb.engine.core.errors import EngineError
from carddb.engine.scenario.random_play import new_game, random_play

BASICS = tuple(
    CardDef(name, f"Basic Land — {name}") for name in ("Plains", "Island", "Swamp", "Mountain", "Forest")
)


def card_def(record: dict[str, Any]) -> CardDef:
    """A card of one face as the engine knows it, from its record in the faces file."""
    return CardDef(
        name=record["name"],
        type_line=record.get("type") or "",
        text=record.get("text") or "",
        mana_cost=record.get("mana_cost") or "",
        power=record.get("power"),
        toughness=record.get("toughness"),
        loyalty=record.get("loyalty"),
    )


def pool(path: Path) -> list[dict[str, Any]]:
    """The records of the cards of one face (layout ``normal``) the engine counts as executable."""
    records = jsonl_records(path)
    found = {
        face.name: records[(face.name, None)]
        for face in executable_faces(path)
        if face.layout == "normal" and (face.name, None) in records
    }
    return [found[name] for name in sorted(found)]


def play_one(
    cards: list[dict[str, Any]], seed: int, actions: int, count: int
) -> tuple[str, list[str]] | None:
    """One seeded game; the place it broke and its cards' names, or None if it did not."""
    rng = random.Random(seed)
    chosen = rng.sample(cards, count)
    deck = [card_def(record) for record in chosen for _ in range(2)]
    deck += [rng.choice(BASICS) for _ in range(20)]
    rng.shuffle(deck)
    names = [record["name"] for record in chosen]
    try:
        random_play(new_game(deck), actions, seed=seed, restart=lambda: new_game(deck))
    except EngineError as error:  # the game lost track of a card, or a refusal changed it
        return f"broken game: {error}", names
    except Exception as error:  # an engine bug
        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return f"{type(error).__name__} at {where}: {str(error)[:80]}", names
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--faces", type=Path, default=FACES)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=0, help="the first game's seed")
    parser.add_argument("--actions", type=int, default=600, help="random actions per game")
    parser.add_argument("--cards", type=int, default=15, help="executable cards per library")
    args = parser.parse_args(argv)
    if not args.faces.exists():
        print(f"no faces file at {args.faces} (a fresh clone has no ../shared)", file=sys.stderr)
        return 2
    cards = pool(args.faces)
    print(f"pool             {len(cards):,} executable cards of one face")
    broken: Counter[str] = Counter()
    first: dict[str, tuple[int, list[str]]] = {}
    started = time.perf_counter()
    for seed in range(args.start, args.start + args.games):
        found = play_one(cards, seed, args.actions, args.cards)
        if found is not None:
            broken[found[0]] += 1
            first.setdefault(found[0], (seed, found[1]))
    seconds = time.perf_counter() - started
    print(f"games            {args.games} (seeds {args.start}–{args.start + args.games - 1}), "
          f"{args.actions} actions each, in {seconds:.0f} s")  # fmt: skip
    print(f"broken           {sum(broken.values())}")
    for place, times in broken.most_common():
        seed, names = first[place]
        print(f"  {times} x {place}\n      first at seed {seed}: {', '.join(names)}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
