"""Lookup benchmark: latency of ``Database.card(name, lang=...)`` for names in any language.

Imports the 15 MTGJSON set files of the shared corpus (``../shared/corpus/mtgjson``) into a fresh
SQLite file or PostgreSQL database, or uses an existing database (``--db URL``); with ``--pool``, also
the whole card pool (~23,700 cards in English) built by ``pool.py`` from
``../shared/corpus/oracle-faces-20220425.jsonl.xz`` into a temporary directory. Then draws
``--lookups`` random cards (seeded), for each a random language among those the card's name exists
in (English card and face names, localized names), and one of the card's names in that language;
looks each up with ``db.card(name, lang=language)`` after a warm-up, and prints the median, p95, p99
and maximum latency in milliseconds and the lookups per second.

    python benchmarks/lookup_bench.py
    python benchmarks/lookup_bench.py --backend postgres --lookups 2000 --seed 7
    python benchmarks/lookup_bench.py --pool
    python benchmarks/lookup_bench.py --db sqlite:////path/to/carddb.sqlite

Exit status: 0 on success (failed lookups are counted and shown, not fatal), 2 when the corpus (or,
with ``--pool``, its oracle faces file) or the database is unavailable.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import literal, select, union

import carddb
from carddb.db.models import Card, Face, Localization
from carddb.errors import CarddbError

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The sibling scripts, found through the path set just above.
from common import (
    BENCH_DATABASE,
    CORPUS,
    DEFAULT_PG_URL,
    PG_ENV,
    check_postgres,
    fresh_postgres,
    set_files,
    table,
)
from pool import FACES_NAME, build_pool_file


@dataclass(frozen=True, slots=True)
class Query:
    name: str
    language: str
    oracle_id: str


def names_by_card(db: carddb.Database) -> dict[str, dict[str, list[str]]]:
    """Every name of every card, by oracle id and language: English card and face names, and the
    names of the card's localizations."""
    names = union(
        select(Card.oracle_id, literal("en").label("language"), Card.name),
        select(Card.oracle_id, literal("en"), Face.name).join(Face, Face.card_id == Card.id),
        select(Card.oracle_id, Localization.language, Localization.name)
        .join(Face, Face.card_id == Card.id)
        .join(Localization, Localization.face_id == Face.id),
    ).subquery()
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    with db.session() as session:
        for oracle_id, language, name in session.execute(
            select(names.c.oracle_id, names.c.language, names.c.name)
        ):
            found[oracle_id][language].add(name)
    return {
        oracle_id: {language: sorted(names) for language, names in sorted(by_language.items())}
        for oracle_id, by_language in sorted(found.items())
    }


def draw(catalog: dict[str, dict[str, list[str]]], count: int, rng: random.Random) -> list[Query]:
    """``count`` lookups: a random card, a random language of its name, a random name in it."""
    oracle_ids = list(catalog)
    queries = []
    for _ in range(count):
        oracle_id = rng.choice(oracle_ids)
        language = rng.choice(list(catalog[oracle_id]))
        queries.append(Query(rng.choice(catalog[oracle_id][language]), language, oracle_id))
    return queries


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values."""
    index = max(0, min(len(sorted_values) - 1, round(fraction * len(sorted_values) + 0.5) - 1))
    return sorted_values[index]


def postgres_database(args: argparse.Namespace, program: str) -> str | int:
    """A fresh PostgreSQL database for a benchmark (``--pg-url``, ``$CARDDB_TEST_PG_URL`` or the
    local default), or exit status 2 after saying why the server is unavailable."""
    base = str(args.pg_url or os.environ.get(PG_ENV) or DEFAULT_PG_URL)
    reason = check_postgres(base)
    if reason is not None:
        print(f"{program}: PostgreSQL at {base} is unavailable: {reason}", file=sys.stderr)
        return 2
    return fresh_postgres(base, args.pg_reset)


def prepare(args: argparse.Namespace) -> tuple[str, str, tempfile.TemporaryDirectory[str] | None] | int:
    """The URL to benchmark, a label for it, and the temp dir to clean up; or an exit status.

    Imports the shared set files, then with ``args.pool`` the whole-pool file built by
    :func:`pool.build_pool_file` in the temp dir, and prints a ``data:`` line saying what was imported.
    """
    if args.db:
        if args.pool:
            print("lookup_bench: --pool imports the whole pool; it cannot be used with --db", file=sys.stderr)
            return 2
        print(f"data: the existing database {args.db} (nothing imported)", flush=True)
        return args.db, args.db.split(":", 1)[0], None
    set_dir = args.corpus / "mtgjson"
    if not set_files(set_dir):
        print(
            f"lookup_bench: the shared corpus is absent ({set_dir} has no *.json.xz set files) and no "
            "--db was given; nothing to benchmark.",
            file=sys.stderr,
        )
        return 2
    faces_path = args.corpus / FACES_NAME
    if args.pool and not faces_path.is_file():
        print(
            f"lookup_bench: --pool needs the oracle faces file {faces_path}, which is absent; "
            "run without --pool to benchmark the 15 sets alone.",
            file=sys.stderr,
        )
        return 2
    url: str | None = None
    if args.backend == "postgres":
        fresh = postgres_database(args, "lookup_bench")
        if isinstance(fresh, int):
            return fresh
        url = fresh
    # The SQLite file and the whole-pool file go here; removed by the caller.
    tmp = tempfile.TemporaryDirectory(prefix="carddb-lookup-bench-")
    url = url or f"sqlite:///{Path(tmp.name) / 'lookup.sqlite'}"
    inputs = set_files(set_dir)
    data = f"the {len(inputs)} set files of {set_dir}"
    if args.pool:
        pool_file = Path(tmp.name) / "pool.json.xz"
        print(f"building the whole-pool file from {faces_path}...", flush=True)
        started = time.perf_counter()
        printings = build_pool_file(faces_path, set_dir, pool_file)
        print(f"built: {printings} printings in {time.perf_counter() - started:.1f} s", flush=True)
        inputs.append(pool_file)
        data += f" + the whole card pool in English (set POOL, {printings} cards, from {FACES_NAME})"
    else:
        data += " only (not the whole card pool: see --pool)"
    print(
        f"importing {set_dir}{' and the pool file' if args.pool else ''} into {args.backend}...", flush=True
    )
    with carddb.open(url) as db:
        summary = db.import_path(*inputs)
    print(f"imported: {summary.line()}", flush=True)
    print(f"data: {data}", flush=True)
    return url, args.backend, tmp


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--db", help="benchmark this existing database URL instead of importing the shared sets")
    p.add_argument(
        "--backend", choices=("sqlite", "postgres"), default="sqlite", help="where to import (no --db)"
    )
    p.add_argument("--pg-url", help=f"PostgreSQL server URL (default ${PG_ENV} or {DEFAULT_PG_URL})")
    p.add_argument(
        "--pg-reset",
        choices=("database", "schema"),
        default="database",
        help=f"drop and create the database {BENCH_DATABASE!r} (default) or the public schema of --pg-url",
    )
    p.add_argument(
        "--corpus", type=Path, default=CORPUS, help="the shared corpus folder (default: ../shared/corpus)"
    )
    p.add_argument(
        "--pool",
        action="store_true",
        help=f"also import the whole card pool, built from CORPUS/{FACES_NAME} by pool.py, after the sets",
    )
    p.add_argument("--lookups", type=int, default=1000, help="measured lookups (default 1000)")
    p.add_argument("--warmup", type=int, default=100, help="unmeasured lookups first (default 100)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.lookups < 1:
        print("lookup_bench: --lookups must be at least 1", file=sys.stderr)
        return 2
    prepared = prepare(args)
    if isinstance(prepared, int):
        return prepared
    url, label, tmp = prepared
    try:
        try:
            # An existing database (--db) is read as it is, never migrated by a benchmark.
            db = carddb.open(url, upgrade=not args.db)
        except CarddbError as exc:
            print(f"lookup_bench: {exc}", file=sys.stderr)
            return 2
        with db:
            catalog = names_by_card(db)
            if not catalog:
                print(f"lookup_bench: the database at {label} holds no cards", file=sys.stderr)
                return 2
            languages = Counter(language for by_language in catalog.values() for language in by_language)
            print(
                f"{len(catalog)} cards, names in {len(languages)} languages; "
                f"{args.warmup} warm-up + {args.lookups} measured lookups, seed {args.seed}",
                flush=True,
            )
            rng = random.Random(args.seed)
            warmup = draw(catalog, args.warmup, rng)
            queries = draw(catalog, args.lookups, rng)
            for query in warmup:
                with contextlib.suppress(CarddbError):
                    db.card(query.name, lang=query.language)
            latencies: list[float] = []
            errors: Counter[str] = Counter()
            examples: dict[str, str] = {}
            other_card = 0
            started = time.perf_counter()
            for query in queries:
                before = time.perf_counter()
                try:
                    view = db.card(query.name, lang=query.language)
                except CarddbError as exc:
                    latencies.append(time.perf_counter() - before)
                    kind = type(exc).__name__
                    errors[kind] += 1
                    examples.setdefault(kind, f"{query.name!r} lang={query.language}: {exc}")
                    continue
                latencies.append(time.perf_counter() - before)
                if view.oracle_id != query.oracle_id:
                    other_card += 1
            total = time.perf_counter() - started
    finally:
        if tmp is not None:
            tmp.cleanup()

    ordered = sorted(latencies)
    ms = 1000.0
    print()
    print(
        table(
            ("backend", "lookups", "median ms", "p95 ms", "p99 ms", "max ms", "lookups/s"),
            [
                (
                    label,
                    len(ordered),
                    f"{statistics.median(ordered) * ms:.2f}",
                    f"{percentile(ordered, 0.95) * ms:.2f}",
                    f"{percentile(ordered, 0.99) * ms:.2f}",
                    f"{ordered[-1] * ms:.2f}",
                    f"{len(ordered) / total:,.0f}",
                )
            ],
        )
    )
    asked = Counter(query.language for query in queries)
    print("lookups by language: " + ", ".join(f"{lang} {n}" for lang, n in asked.most_common()))
    ok = len(queries) - sum(errors.values())
    print(
        f"found: {ok}; showing another card with the same name: {other_card}; errors: {sum(errors.values())}"
    )
    for kind, count in errors.most_common():
        print(f"- {kind} x{count}, e.g. {examples[kind]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
