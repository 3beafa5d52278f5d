"""Import benchmark: the whole 2022 card pool, as users have it, against a naive stdlib loader.

The input is the whole MTGJSON card pool of 2022-04-25 as 579 set files
(``../shared/corpus/mtgjson-pool/*.json.xz``), imported:

* ``folder``: ``carddb import`` of the folder, as it is;
* ``reimport``: the same folder again, into the database the folder run made;
* ``allprintings``: the same pool as one ``AllPrintings.json`` (the files' ``data`` objects under
  one ``data`` keyed by set code, with one ``meta``), which the benchmark writes first;
* ``postgres``: the folder into a fresh PostgreSQL database (``--pg-url``, else
  ``$CARDDB_TEST_PG_URL``, else ``postgresql://postgres@127.0.0.1:5432/test``; the database
  ``carddb_bench`` on that server is dropped and created again);
* ``naive``: a loader written with the standard library only, one set file at a time: ``json``
  and ``sqlite3``, ``executemany`` into plain tables (cards, foreign data, rulings: one row per
  source record, nothing deduplicated or normalized) plus four FTS5 tables with the trigram
  tokenizer (names, type lines, rules text, rulings: the substring search carddb offers), one
  transaction per file.

Every run is a fresh child process, so its peak memory is its own: the importer's (``VmHWM``) and,
for carddb, its worker process's. Printed: seconds, the ratio to the naive loader measured in the
same run, peak memory, and for the folder the seconds per file in groups of 100 files along the
folder (flat when the import is linear), with the row counts.

    python benchmarks/import_bench.py                      # every run
    python benchmarks/import_bench.py --runs naive,folder  # some of them

Exit status: 0 when every run succeeded, 1 when a run failed or the re-import changed the row
counts, 2 when the pool or the PostgreSQL server is unavailable.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The sibling module, found through the path set just above.
from common import DEFAULT_PG_URL, PG_ENV, POOL, check_postgres, fresh_postgres

RUNS = ("naive", "folder", "reimport", "allprintings", "postgres")


# -- inputs -------------------------------------------------------------------------------------------
def pool_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json.xz")) if folder.is_dir() else []


def write_allprintings(files: Sequence[Path], path: Path) -> int:
    """Write the pool as one AllPrintings.json, set by set; return its size in bytes."""
    with path.open("w", encoding="utf-8") as out:
        for number, file in enumerate(files):
            with lzma.open(file, "rt", encoding="utf-8") as handle:
                document = json.load(handle)
            if number == 0:
                out.write('{"meta": ' + json.dumps(document["meta"]) + ', "data": {')
            else:
                out.write(", ")
            data = document["data"]
            out.write(json.dumps(data["code"]) + ": " + json.dumps(data, ensure_ascii=False))
        out.write("}}")
    return path.stat().st_size


# -- measured runs (in child processes) ----------------------------------------------------------------
def peak_mb() -> float:
    from carddb.measure import peak_memory_mb

    return peak_memory_mb()


def child_carddb(url: str, path: Path) -> dict[str, Any]:
    import carddb

    with carddb.open(url) as db:
        started = time.perf_counter()
        summary = db.import_path(path)
        seconds = time.perf_counter() - started
        counts = db.counts()
    return {
        "seconds": seconds,
        "files": [f.seconds for f in summary.files],
        "file_printings": [f.printings for f in summary.files],
        "index_seconds": summary.index.seconds,
        "unchanged": len(summary.unchanged_sets),
        "counts": counts,
        "peak_mb": peak_mb(),
        "worker_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }


_NAIVE_SCHEMA = """
CREATE TABLE cards (uuid TEXT, name TEXT, face_name TEXT, oracle_id TEXT, layout TEXT, mana_cost TEXT,
                    type TEXT, text TEXT, set_code TEXT, number TEXT, rarity TEXT);
CREATE TABLE foreign_data (uuid TEXT, language TEXT, name TEXT, type TEXT, text TEXT, flavor TEXT);
CREATE TABLE rulings (uuid TEXT, date TEXT, text TEXT);
CREATE VIRTUAL TABLE fts_name USING fts5(name, tokenize='trigram');
CREATE VIRTUAL TABLE fts_type USING fts5(type, tokenize='trigram');
CREATE VIRTUAL TABLE fts_text USING fts5(text, tokenize='trigram');
CREATE VIRTUAL TABLE fts_rulings USING fts5(text, tokenize='trigram');
"""


def child_naive(db_path: Path, folder: Path) -> dict[str, Any]:
    """The baseline: json + sqlite3 only, one set file (and one transaction) at a time."""
    started = time.perf_counter()
    connection = sqlite3.connect(db_path)
    connection.executescript(_NAIVE_SCHEMA)
    for file in pool_files(folder):
        with lzma.open(file, "rb") as handle:
            data = json.loads(handle.read())["data"]
        cards: list[tuple[Any, ...]] = []
        foreign: list[tuple[Any, ...]] = []
        rulings: list[tuple[Any, ...]] = []
        for card in data.get("cards", ()):
            uid = card.get("uuid")
            cards.append(
                (
                    *(uid, card.get("name"), card.get("faceName")),
                    (card.get("identifiers") or {}).get("scryfallOracleId"),
                    *(card.get("layout"), card.get("manaCost"), card.get("type"), card.get("text")),
                    *(data["code"], card.get("number"), card.get("rarity")),
                )
            )
            for entry in card.get("foreignData") or ():
                language, name, kind = entry.get("language"), entry.get("name"), entry.get("type")
                foreign.append((uid, language, name, kind, entry.get("text"), entry.get("flavorText")))
            for ruling in card.get("rulings") or ():
                rulings.append((uid, ruling.get("date"), ruling.get("text")))
        with connection:
            connection.executemany("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?)", cards)
            connection.executemany("INSERT INTO foreign_data VALUES (?,?,?,?,?,?)", foreign)
            connection.executemany("INSERT INTO rulings VALUES (?,?,?)", rulings)
            for table, column, rows in (
                ("fts_name", 1, cards),
                ("fts_name", 2, foreign),
                ("fts_type", 6, cards),
                ("fts_type", 3, foreign),
                ("fts_text", 7, cards),
                ("fts_text", 4, foreign),
                ("fts_rulings", 2, rulings),
            ):
                connection.executemany(f"INSERT INTO {table} VALUES (?)", [(row[column],) for row in rows])
    seconds = time.perf_counter() - started
    counts = {
        table: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("cards", "foreign_data", "rulings")
    }
    connection.close()
    return {"seconds": seconds, "counts": counts, "peak_mb": peak_mb(), "worker_peak_mb": 0.0}


def run_child(mode: str, target: str, path: Path) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", mode, target, str(path)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        error = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        return {"error": error}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


# -- main -------------------------------------------------------------------------------------------------
def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--runs", default=",".join(RUNS), help=f"comma-separated, of: {', '.join(RUNS)}")
    p.add_argument(
        "--pool", type=Path, default=POOL, help="the folder of set files (default: the shared pool)"
    )
    p.add_argument("--pg-url", help=f"PostgreSQL server URL (default ${PG_ENV} or {DEFAULT_PG_URL})")
    p.add_argument("--workdir", type=Path, help="where to write the databases and AllPrintings.json")
    p.add_argument("--child", nargs=3, metavar=("MODE", "TARGET", "PATH"), help=argparse.SUPPRESS)
    return p


def groups_line(seconds: Sequence[float], printings: Sequence[int], size: int = 100) -> str:
    """Per group of ``size`` files along the folder: ms per file, and ms per 1,000 printings
    written (flat when the import is linear: set sizes vary along the alphabet, work per
    printing should not)."""
    parts = []
    for start in range(0, len(seconds), size):
        group, written = seconds[start : start + size], printings[start : start + size]
        per_file = 1000 * sum(group) / len(group)
        per_printings = 1e6 * sum(group) / max(1, sum(written))
        parts.append(
            f"{start + 1}-{start + len(group)}: {per_file:.0f} ms/file, {per_printings:.0f} ms/1k printings"
        )
    return "\n".join(f"{'':15}{part}" for part in parts)


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.child:
        mode, target, path = args.child
        result = (
            child_naive(Path(target), Path(path)) if mode == "naive" else child_carddb(target, Path(path))
        )
        print(json.dumps(result))
        return 0
    runs = [run.strip() for run in args.runs.split(",") if run.strip()]
    unknown = set(runs) - set(RUNS)
    if unknown:
        print(f"import_bench: unknown run(s) {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    files = pool_files(args.pool)
    if not files:
        print(f"import_bench: the card pool is absent ({args.pool} has no *.json.xz files)", file=sys.stderr)
        return 2
    pg_base = str(args.pg_url or os.environ.get(PG_ENV) or DEFAULT_PG_URL)
    if "postgres" in runs and (reason := check_postgres(pg_base)) is not None:
        print(f"import_bench: PostgreSQL at {pg_base} is unavailable: {reason}", file=sys.stderr)
        return 2
    print(f"pool: {args.pool} ({len(files)} set files, {sum(f.stat().st_size for f in files) / 1e6:.1f} MB)")
    failures = 0
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="carddb-import-bench-", dir=args.workdir) as tmp:
        work = Path(tmp)
        folder_db = f"sqlite:///{work / 'folder.sqlite'}"
        for run in runs:
            if run == "naive":
                result = run_child("naive", str(work / "naive.sqlite"), args.pool)
            elif run == "folder":
                result = run_child("carddb", folder_db, args.pool)
            elif run == "reimport":
                if "folder" not in results:
                    results["folder"] = run_child("carddb", folder_db, args.pool)
                result = run_child("carddb", folder_db, args.pool)
            elif run == "allprintings":
                allprintings = work / "AllPrintings.json"
                size = write_allprintings(files, allprintings)
                print(f"wrote {allprintings.name}: {size / 1e6:.1f} MB")
                result = run_child("carddb", f"sqlite:///{work / 'allprintings.sqlite'}", allprintings)
                allprintings.unlink()
            else:
                result = run_child("carddb", fresh_postgres(pg_base, "database"), args.pool)
            results[run] = result
            if "error" in result:
                failures += 1
                print(f"{run:13} failed: {result['error']}", flush=True)
                continue
            print(
                f"{run:13} {result['seconds']:8.2f} s   peak {result['peak_mb']:5.0f} MB"
                f" (worker {result['worker_peak_mb']:4.0f} MB)   rows {result['counts']}",
                flush=True,
            )
            if "files" in result and run != "reimport":
                print(f"{'':15}search index after the files: {result['index_seconds']:.2f} s; by 100 files:")
                print(groups_line(result["files"], result["file_printings"]))
    naive = results.get("naive", {}).get("seconds")
    if naive:
        print(f"\nagainst the naive loader ({naive:.2f} s) in the same run:")
        for run, result in results.items():
            if run != "naive" and "seconds" in result:
                print(f"  {run:13} {result['seconds'] / naive:5.2f}x")
    reimport, folder = results.get("reimport", {}), results.get("folder", {})
    if "counts" in reimport and reimport["counts"] != folder.get("counts"):
        failures += 1
        print("re-import changed the row counts", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
