"""Scryfall import benchmark: time and peak memory of importing a bulk-style Scryfall card file.

The input repeats the printings of the shared corpus's real Scryfall list page
(``../shared/corpus/scryfall/cards-page-multilang-2019.json.xz``: 175 objects, 32 printings of 32
cards in six languages) ``--copies`` times, as one JSON array written object by object to a temporary
file (the shape of Scryfall's ``all-cards`` bulk file). Copy 0 keeps the page's set ``gk2``; copy *k*
is set ``q<k>`` (``q001``, ``q002``…) with new Scryfall ids (uuid5) and multiverse ids offset by
*k* × 1,000,000, while names, texts and oracle ids stay, as for real reprints: ``--copies 200``
gives 35,000 card objects, 6,400 printings of 32 cards. With ``--new-cards`` every copy is new
cards instead (new oracle ids, names and printed names suffixed `` #k``): 6,400 cards, so card
rows, translations and search documents grow with the input too, as in a real bulk file.

The file is imported with ``carddb.open(url).import_path(file)`` into a fresh SQLite file, or a
fresh PostgreSQL database (``--backend postgres``, helpers of ``import_bench.py``), in this process;
it prints the objects and printings read, the seconds, objects per second and the peak resident set
size (``resource.getrusage``; building the input holds one copy of the page at a time).

    python benchmarks/scryfall_bench.py
    python benchmarks/scryfall_bench.py --copies 200 --backend postgres
    python benchmarks/scryfall_bench.py --copies 50 --twice
    python benchmarks/scryfall_bench.py --copies 200 --new-cards

Exit status: 0 on success, 1 when a second import (``--twice``) changed the row counts, 2 when the
corpus or the database is unavailable.
"""

from __future__ import annotations

import argparse
import json
import lzma
import resource
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The sibling script, found through the path set just above.
from common import BENCH_DATABASE, CORPUS, DEFAULT_PG_URL, PG_ENV, table
from lookup_bench import postgres_database

PAGE_NAME = "scryfall/cards-page-multilang-2019.json.xz"
# Added to every multiverse id of copy k (k * offset): the page's ids are below 500,000 and the
# column is a 32-bit integer, so up to 2,000 copies fit.
MULTIVERSE_OFFSET = 1_000_000
MAX_COPIES = 2000
_NAMESPACE = uuid.UUID("2d0f8a57-3c1e-4b6a-9e2f-7a5c1d3b8e64")


def read_page(path: Path) -> list[dict[str, Any]]:
    with lzma.open(path, "rt", encoding="utf-8") as handle:
        data: list[dict[str, Any]] = json.load(handle)["data"]
    return data


def relabel(card: dict[str, Any], copy: int, new_cards: bool = False) -> dict[str, Any]:
    """Copy ``copy`` of a card object: its own set and Scryfall id, the same card (``new_cards``:
    a new card, with its own oracle id and names)."""
    if copy == 0:
        return card
    new = dict(card)
    new["id"] = str(uuid.uuid5(_NAMESPACE, f"{copy}:{card['id']}"))
    new["set"] = f"q{copy:03d}"
    new["set_name"] = f"{card['set_name']} (copy {copy})"
    new["multiverse_ids"] = [m + copy * MULTIVERSE_OFFSET for m in card.get("multiverse_ids") or ()]
    if new_cards:
        new["oracle_id"] = str(uuid.uuid5(_NAMESPACE, f"{copy}:{card['oracle_id']}"))
        for key in ("name", "printed_name"):
            if key in card:
                new[key] = f"{card[key]} #{copy}"
    return new


def build_input(page: list[dict[str, Any]], copies: int, path: Path, new_cards: bool) -> tuple[int, int]:
    """Write the bulk array, one object at a time; return the objects and bytes written."""
    objects = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("[\n")
        for copy in range(copies):
            for card in page:
                out.write(",\n" if objects else "")
                out.write(json.dumps(relabel(card, copy, new_cards), ensure_ascii=False))
                objects += 1
        out.write("\n]\n")
    return objects, path.stat().st_size


def peak_rss_mb() -> float:
    """This process's peak resident set size (``ru_maxrss``: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--copies", type=int, default=200, help="copies of the page's 175 objects (default 200)")
    p.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    p.add_argument("--pg-url", help=f"PostgreSQL server URL (default ${PG_ENV} or {DEFAULT_PG_URL})")
    p.add_argument(
        "--pg-reset",
        choices=("database", "schema"),
        default="database",
        help=f"drop and create the database {BENCH_DATABASE!r} (default) or the public schema of --pg-url",
    )
    p.add_argument("--twice", action="store_true", help="import again and check the row counts stay")
    p.add_argument("--new-cards", action="store_true", help="make every copy new cards, not reprints")
    p.add_argument("--corpus", type=Path, default=CORPUS, help="the shared corpus folder (../shared/corpus)")
    p.add_argument("--workdir", type=Path, help="where the input and SQLite file go (default: a temp dir)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not 1 <= args.copies <= MAX_COPIES:
        print(f"scryfall_bench: --copies must be between 1 and {MAX_COPIES}", file=sys.stderr)
        return 2
    source = args.corpus / PAGE_NAME
    if not source.is_file():
        print(
            f"scryfall_bench: the shared corpus is absent ({source} not found); nothing to benchmark.",
            file=sys.stderr,
        )
        return 2
    url: str | None = None
    if args.backend == "postgres":
        fresh = postgres_database(args, "scryfall_bench")
        if isinstance(fresh, int):
            return fresh
        url = fresh

    import carddb

    with tempfile.TemporaryDirectory(prefix="carddb-scryfall-bench-", dir=args.workdir) as tmp:
        folder = Path(tmp)
        bulk = folder / "all-cards-bench.json"
        started = time.perf_counter()
        objects, size = build_input(read_page(source), args.copies, bulk, args.new_cards)
        kind = "new cards" if args.new_cards else "reprints"
        print(
            f"input: {objects:,} card objects ({args.copies} copies of {source.name} as {kind}), "
            f"{size / 1e6:.1f} MB of JSON, built in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        url = url or f"sqlite:///{folder / 'scryfall.sqlite'}"
        rss_before = peak_rss_mb()
        rows = []
        with carddb.open(url) as db:
            runs = 2 if args.twice else 1
            counts: list[dict[str, int]] = []
            for run in range(1, runs + 1):
                summary = db.import_path(bulk)
                seconds = summary.seconds
                counts.append(db.counts())
                rows.append(
                    [
                        args.backend,
                        run,
                        f"{objects:,}",
                        f"{summary.printings:,}",
                        f"{summary.localizations:,}",
                        f"{seconds:.2f}",
                        f"{objects / seconds:,.0f}" if seconds else "-",
                        f"{peak_rss_mb():.0f}",
                    ]
                )
        print(
            table(
                (
                    "backend",
                    "run",
                    "objects",
                    "printings",
                    "localized",
                    "seconds",
                    "objects/s",
                    "peak RSS MB",
                ),
                rows,
            )
        )
        print(f"peak RSS before the import (Python, carddb, the page): {rss_before:.0f} MB")
        print("rows after: " + ", ".join(f"{name} {count:,}" for name, count in counts[-1].items()))
        if len(counts) == 2 and counts[0] != counts[1]:
            print(f"scryfall_bench: the second import changed the row counts: {counts[0]} -> {counts[1]}")
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
