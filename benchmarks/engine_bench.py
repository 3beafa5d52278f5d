"""Rules-engine benchmark: scenarios per second, and actions per second in seeded random play.

Imports the sample data shipped with carddb (``data/sample``) into a temporary SQLite file, then

* runs every scenario file of ``tests/scenarios`` ``--repeat`` times and prints scenarios per
  second (card definitions are cached across runs, as in a test session);
* builds a two-player game whose libraries hold every card of the sample the engine executes
  entirely (``--copies`` of each; the others are named: a game never holds an ability nobody executes),
  and plays ``--actions`` random actions with a seeded random decider; after every action the game
  is checked (no card lost or duplicated between zones; a refused action left the game unchanged).
  Prints actions per second, how many were accepted and refused, the turns played and peak memory.

    python benchmarks/engine_bench.py
    python benchmarks/engine_bench.py --actions 10000 --seed 7 --repeat 20

Exit status: 0 on success, 1 when a scenario fails or random play finds a broken game.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import carddb
from carddb.engine.catalog import CATALOG
from carddb.engine.core.cards import CardPool
from carddb.engine.core.errors import EngineError
from carddb.engine.query.executable import card_missing
from carddb.engine.scenario.random_play import new_game, random_play
from carddb.engine.scenario.runner import run_file
from carddb.measure import peak_memory_mb
from carddb.resources import sample_dir

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--copies", type=int, default=4, help="copies of each sample card per library")
    parser.add_argument("--repeat", type=int, default=10, help="runs of the scenario suite")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as directory:
        db = carddb.open(f"sqlite:///{directory}/engine-bench.sqlite")
        db.import_path(*sorted(sample_dir().glob("*.json.xz")))
        pool = CardPool(db)

        scenarios = sorted((ROOT / "tests" / "scenarios").glob("*.toml"))
        scenarios += sorted((ROOT / "tests" / "scenarios" / "seeds").glob("*.toml"))  # the seed rulings
        started = time.perf_counter()
        failures = 0
        for _ in range(args.repeat):
            for path in scenarios:
                failures += not run_file(path, pool).passed
        seconds = time.perf_counter() - started
        runs = len(scenarios) * args.repeat
        print(f"scenarios        {len(scenarios)} files x {args.repeat} = {runs} runs in {seconds:.2f} s")
        print(f"scenarios/s      {runs / seconds:,.0f}" + (f"  ({failures} failed)" if failures else ""))

        names = sorted({view.name for view in _sample_cards(db)})
        honest = [name for name in names if not card_missing(pool.get(name), CATALOG)]
        left_out = sorted(set(names) - set(honest))
        print(f"random-play deck {len(honest)} of {len(names)} sample cards", end="")
        print(f" (not executable: {', '.join(left_out)})" if left_out else "")
        deck = [pool.get(name) for name in honest for _ in range(args.copies)]
        game = new_game(deck)
        started = time.perf_counter()
        try:
            report = random_play(game, args.actions, seed=args.seed, restart=lambda: new_game(deck))
        except EngineError as error:
            print(f"random play broke the game: {error}", file=sys.stderr)
            return 1
        seconds = time.perf_counter() - started
        print(f"random play      {report.actions:,} actions, seed {args.seed}, {len(deck)} cards per library")
        print(
            f"accepted         {report.accepted:,}  refused {report.refused:,}  "
            f"turns {report.turns:,}  games {report.games:,}"
        )
        print(f"actions/s        {report.actions / seconds:,.0f}  ({seconds:.2f} s)")
        print(f"peak memory      {peak_memory_mb():.1f} MB")
    return 1 if failures else 0


def _sample_cards(db: carddb.Database) -> list[carddb.views.CardView]:
    from sqlalchemy import select

    from carddb.db.models import Card

    with db.session() as session:
        names = session.scalars(select(Card.name)).all()
    return [db.card(name, lang="en") for name in names]


if __name__ == "__main__":
    sys.exit(main())
