"""Import benchmark: time and peak memory of ``Database.import_path`` on an AllPrintings-style file.

The input is built from the 15 MTGJSON set files of the shared corpus (``../shared/corpus/mtgjson``),
copied ``--copies`` times under new set codes and new printing identifiers (the oracle ids stay, as
for real reprints), and written as ONE file ``{"meta": ..., "data": {CODE: set, ...}}``, set by set.

Every measured import runs in a fresh child process, so the peak resident set size reported is that
of the import alone (not of building the input, nor of an earlier run).

    python benchmarks/import_bench.py --db sqlite --copies 1,5,10 --naive
    python benchmarks/import_bench.py --db postgres --copies 1 --repeat-import

Exit status: 0 when every run succeeded, 1 when an import failed, 2 when the corpus or the database
is unavailable.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
SET_DIR = CORPUS / "mtgjson"
DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"
PG_ENV = "CARDDB_TEST_PG_URL"
BENCH_DATABASE = "carddb_bench"
# Added to every multiverse id of copy k (k * offset): real ids stay below 10 million, and the
# column is a 32-bit integer, so up to ~200 copies fit.
MULTIVERSE_OFFSET = 10_000_000
_NAMESPACE = uuid.UUID("6f6c1b8e-5d0e-4c43-9d0a-6a1f3c2b7e10")


# --------------------------------------------------------------------------------------------------
# Building the input
# --------------------------------------------------------------------------------------------------


def set_files(set_dir: Path = SET_DIR) -> list[Path]:
    return sorted(set_dir.glob("*.json.xz")) if set_dir.is_dir() else []


def copy_code(code: str, copy: int) -> str:
    """The set code of copy ``copy`` (0 keeps the original code): ``AFR``, ``Q01AFR``, ``Q02AFR``..."""
    if copy == 0:
        return code
    new = f"Q{copy:02d}{code}"
    if len(new) > 8:
        raise SystemExit(f"set code {new!r} would be longer than 8 characters: too many copies")
    return new


def _new_id(value: object, copy: int) -> object:
    if not isinstance(value, str) or not value:
        return value
    return str(uuid.uuid5(_NAMESPACE, f"{copy}:{value}"))


def _new_multiverse(value: object, copy: int) -> object:
    if value is None or value == "":
        return value
    try:
        number = int(str(value)) + copy * MULTIVERSE_OFFSET
    except ValueError:
        return value
    return str(number) if isinstance(value, str) else number


def relabel(data: dict[str, Any], copy: int) -> dict[str, Any]:
    """Turn a set (as parsed from its file) into copy ``copy`` of it, in place: new set code,
    new ``uuid``, ``scryfallId`` and multiverse ids; names, texts and oracle ids unchanged."""
    if copy == 0:
        return data
    code = copy_code(str(data["code"]), copy)
    data["code"] = code
    data["name"] = f"{data.get('name', code)} (benchmark copy {copy})"
    for key in ("cards", "tokens"):
        for card in data.get(key) or ():
            card["setCode"] = code
            card["uuid"] = _new_id(card.get("uuid"), copy)
            identifiers = card.get("identifiers")
            if isinstance(identifiers, dict):
                if "scryfallId" in identifiers:
                    identifiers["scryfallId"] = _new_id(identifiers["scryfallId"], copy)
                if "multiverseId" in identifiers:
                    identifiers["multiverseId"] = _new_multiverse(identifiers["multiverseId"], copy)
            for entry in card.get("foreignData") or ():
                if "multiverseId" in entry:
                    entry["multiverseId"] = _new_multiverse(entry["multiverseId"], copy)
    return data


@contextmanager
def _open_output(path: Path, xz: bool) -> Iterator[IO[str]]:
    if xz:
        with lzma.open(path, "wt", encoding="utf-8", preset=3) as handle:
            yield handle
    else:
        with open(path, "w", encoding="utf-8") as handle:
            yield handle


@dataclass(frozen=True)
class BuiltInput:
    path: Path
    copies: int
    sets: int
    json_bytes: int

    @property
    def file_mb(self) -> float:
        return self.path.stat().st_size / 1e6

    @property
    def json_mb(self) -> float:
        return self.json_bytes / 1e6


def build_input(files: Sequence[Path], folder: Path, copies: int, xz: bool) -> BuiltInput:
    """Write ``copies`` copies of the set ``files`` as one AllPrintings-style file, set by set: only
    one set is held in memory at a time."""
    path = folder / (f"AllPrintings-x{copies}.json" + (".xz" if xz else ""))
    meta: dict[str, Any] | None = None
    written = 0
    codes: set[str] = set()
    with _open_output(path, xz) as out:
        for file in files:
            with lzma.open(file, "rt", encoding="utf-8") as handle:
                text = handle.read()
            for copy in range(copies):
                document = json.loads(text)
                if meta is None:
                    meta = document["meta"]
                    head = '{"meta":' + json.dumps(meta, ensure_ascii=False) + ',"data":{'
                    out.write(head)
                    written += len(head.encode())
                data = relabel(document["data"], copy)
                if data["code"] in codes:
                    raise SystemExit(f"duplicate set code {data['code']} in the generated input")
                codes.add(data["code"])
                chunk = ("," if len(codes) > 1 else "") + json.dumps(data["code"]) + ":"
                chunk += json.dumps(data, ensure_ascii=False, separators=(",", ":"))
                out.write(chunk)
                written += len(chunk.encode())
                del document, data, chunk
        out.write("}}")
        written += 2
    return BuiltInput(path=path, copies=copies, sets=len(codes), json_bytes=written)


# --------------------------------------------------------------------------------------------------
# Databases
# --------------------------------------------------------------------------------------------------


def pg_base_url(args: argparse.Namespace) -> str:
    return str(args.pg_url or os.environ.get(PG_ENV) or DEFAULT_PG_URL)


def fresh_postgres(base_url: str, mode: str) -> str:
    """Reset a PostgreSQL target and return its URL: either a dedicated database (dropped and
    created again) or the ``public`` schema of the given database (dropped and created again)."""
    from sqlalchemy import create_engine, text

    from carddb.db.engine import parse_url

    url = parse_url(base_url)
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            if mode == "database":
                conn.execute(text(f'DROP DATABASE IF EXISTS "{BENCH_DATABASE}" WITH (FORCE)'))
                conn.execute(text(f'CREATE DATABASE "{BENCH_DATABASE}"'))
                target = url.set(database=BENCH_DATABASE)
            else:
                conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
                conn.execute(text("CREATE SCHEMA public"))
                target = url
    finally:
        engine.dispose()
    return target.render_as_string(hide_password=False)


def check_postgres(base_url: str) -> str | None:
    """None when the server answers, else the reason it does not."""
    try:
        from sqlalchemy import create_engine, text

        from carddb.db.engine import parse_url

        engine = create_engine(parse_url(base_url))
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        finally:
            engine.dispose()
    except Exception as exc:
        return str(exc).strip().splitlines()[0]
    return None


# --------------------------------------------------------------------------------------------------
# Child processes: the measured runs
# --------------------------------------------------------------------------------------------------


def peak_rss_mb() -> float:
    """This process's peak resident set size in MB (see :func:`carddb.measure.peak_memory_mb`)."""
    from carddb.measure import peak_memory_mb

    return peak_memory_mb()


def child_import(url: str, path: Path) -> dict[str, Any]:
    import carddb

    started = time.perf_counter()
    with carddb.open(url) as db:
        opened = time.perf_counter()
        summary = db.import_path(path)
        imported = time.perf_counter()
        counts = db.counts()
    return {
        "ok": True,
        "open_seconds": opened - started,
        "seconds": summary.seconds,
        "wall_seconds": imported - opened,
        "printings": summary.printings,
        "localizations": summary.localizations,
        "rulings": summary.rulings,
        "cards": summary.cards,
        "sets": summary.sets,
        "skipped_sets": len(summary.skipped_sets),
        "warnings": len(summary.warnings),
        "line": summary.line(),
        "counts": counts,
        "peak_rss_mb": peak_rss_mb(),
    }


_NAIVE_SCHEMA = """
CREATE TABLE cards (uuid TEXT, name TEXT, face_name TEXT, oracle_id TEXT, layout TEXT, mana_cost TEXT,
                    type TEXT, text TEXT, power TEXT, toughness TEXT, loyalty TEXT);
CREATE TABLE printings (uuid TEXT, set_code TEXT, number TEXT, rarity TEXT, scryfall_id TEXT,
                        multiverse_id INTEGER, flavor TEXT);
CREATE TABLE foreign_data (uuid TEXT, language TEXT, name TEXT, type TEXT, text TEXT, flavor TEXT,
                           multiverse_id INTEGER);
CREATE TABLE rulings (uuid TEXT, date TEXT, text TEXT);
"""
_NAIVE_INDEXES = """
CREATE INDEX ix_cards_name ON cards (name);
CREATE INDEX ix_foreign_name ON foreign_data (name);
CREATE INDEX ix_printings_uuid ON printings (uuid);
CREATE INDEX ix_rulings_uuid ON rulings (uuid);
"""


def child_naive(db_path: Path, path: Path) -> dict[str, Any]:
    """The baseline: json.load the whole file, executemany into plain tables, no dedup."""
    started = time.perf_counter()
    if path.suffix == ".xz":
        with lzma.open(path, "rt", encoding="utf-8") as handle:
            document = json.load(handle)
    else:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    parsed = time.perf_counter()
    conn = sqlite3.connect(db_path)
    conn.executescript(_NAIVE_SCHEMA)
    cards: list[tuple[Any, ...]] = []
    printings: list[tuple[Any, ...]] = []
    foreign: list[tuple[Any, ...]] = []
    rulings: list[tuple[Any, ...]] = []
    for code, card_set in document["data"].items():
        for card in card_set.get("cards") or ():
            ids = card.get("identifiers") or {}
            uid = card.get("uuid")
            cards.append(
                (
                    uid,
                    card.get("name"),
                    card.get("faceName"),
                    ids.get("scryfallOracleId"),
                    card.get("layout"),
                    card.get("manaCost"),
                    card.get("type"),
                    card.get("text"),
                    card.get("power"),
                    card.get("toughness"),
                    card.get("loyalty"),
                )
            )
            printings.append(
                (
                    uid,
                    code,
                    card.get("number"),
                    card.get("rarity"),
                    ids.get("scryfallId"),
                    ids.get("multiverseId"),
                    card.get("flavorText"),
                )
            )
            for entry in card.get("foreignData") or ():
                foreign.append(
                    (
                        uid,
                        entry.get("language"),
                        entry.get("faceName") or entry.get("name"),
                        entry.get("type"),
                        entry.get("text"),
                        entry.get("flavorText"),
                        entry.get("multiverseId"),
                    )
                )
            for ruling in card.get("rulings") or ():
                rulings.append((uid, ruling.get("date"), ruling.get("text")))
    with conn:
        conn.executemany("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?)", cards)
        conn.executemany("INSERT INTO printings VALUES (?,?,?,?,?,?,?)", printings)
        conn.executemany("INSERT INTO foreign_data VALUES (?,?,?,?,?,?,?)", foreign)
        conn.executemany("INSERT INTO rulings VALUES (?,?,?)", rulings)
        conn.executescript(_NAIVE_INDEXES)
    finished = time.perf_counter()
    counts = {
        table: int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        for table in ("cards", "printings", "foreign_data", "rulings")
    }
    conn.close()
    return {
        "ok": True,
        "seconds": finished - started,
        "parse_seconds": parsed - started,
        "printings": len(printings),
        "localizations": len(foreign),
        "rulings": len(rulings),
        "counts": counts,
        "peak_rss_mb": peak_rss_mb(),
    }


def run_child(mode: str, target: str, path: Path) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter; its last stdout line is a JSON result."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", mode, "--target", target, str(path)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        error = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        return {"ok": False, "error": error, "stderr": proc.stderr}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


# --------------------------------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------------------------------

COLUMNS = (
    "backend",
    "copies",
    "input MB",
    "JSON MB",
    "printings",
    "localized",
    "ruling rows",
    "seconds",
    "printings/s",
    "peak RSS MB",
)
COUNT_COLUMNS = ("backend", "copies", "run", "cards", "printings", "localizations", "rulings")


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for index, row in enumerate(cells):
        lines.append(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
        if index == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def result_row(label: str, built: BuiltInput, result: dict[str, Any]) -> list[object]:
    seconds = float(result["seconds"])
    return [
        label,
        built.copies,
        f"{built.file_mb:.1f}",
        f"{built.json_mb:.1f}",
        result["printings"],
        result["localizations"],
        result["rulings"],
        f"{seconds:.2f}",
        f"{result['printings'] / seconds:,.0f}" if seconds else "-",
        f"{result['peak_rss_mb']:.0f}",
    ]


# --------------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------------


def parse_copies(value: str) -> list[int]:
    try:
        copies = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of integers: {value!r}") from None
    if not copies or any(c < 1 for c in copies):
        raise argparse.ArgumentTypeError("copies must be positive integers")
    return copies


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument(
        "--db", choices=("sqlite", "postgres", "both"), default="sqlite", help="backend(s) to import into"
    )
    p.add_argument(
        "--copies",
        type=parse_copies,
        default=[1],
        help="copies of the 15 shared sets in the input; a comma list (1,5,10) runs each size",
    )
    p.add_argument("--xz", action="store_true", help="write the generated input xz-compressed")
    p.add_argument("--naive", action="store_true", help="also time a json+sqlite3 baseline loader")
    p.add_argument(
        "--repeat-import",
        action="store_true",
        help="import the same input a second time into the same database and check the counts",
    )
    p.add_argument("--pg-url", help=f"PostgreSQL server URL (default ${PG_ENV} or {DEFAULT_PG_URL})")
    p.add_argument(
        "--pg-reset",
        choices=("database", "schema"),
        default="database",
        help=f"before each PostgreSQL run, drop and create the database {BENCH_DATABASE!r} (default) "
        "or the public schema of the --pg-url database",
    )
    p.add_argument(
        "--corpus", type=Path, default=CORPUS, help="the shared corpus folder (default: ../shared/corpus)"
    )
    p.add_argument(
        "--workdir", type=Path, help="where to write inputs and SQLite files (default: a temp dir)"
    )
    p.add_argument("--keep", action="store_true", help="keep the generated files")
    p.add_argument("--child", choices=("import", "naive"), help=argparse.SUPPRESS)
    p.add_argument("--target", help=argparse.SUPPRESS)
    p.add_argument("input", nargs="?", type=Path, help=argparse.SUPPRESS)
    return p


def child_main(args: argparse.Namespace) -> int:
    if args.child == "import":
        result = child_import(args.target, args.input)
    else:
        result = child_naive(Path(args.target), args.input)
    print(json.dumps(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.child:
        return child_main(args)

    set_dir = args.corpus / "mtgjson"
    files = set_files(set_dir)
    if not files:
        print(
            f"import_bench: the shared corpus is absent ({set_dir} has no *.json.xz set files); "
            "nothing to benchmark.",
            file=sys.stderr,
        )
        return 2
    backends = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    if "postgres" in backends:
        reason = check_postgres(pg_base_url(args))
        if reason is not None:
            print(
                f"import_bench: PostgreSQL at {pg_base_url(args)} is unavailable: {reason}", file=sys.stderr
            )
            return 2

    with tempfile.TemporaryDirectory(prefix="carddb-bench-", dir=args.workdir) as tmp:
        work = Path(tmp)
        print(f"corpus: {set_dir} ({len(files)} set files); work dir: {work}", flush=True)
        rows: list[list[object]] = []
        count_rows: list[list[object]] = []
        failures: list[str] = []
        notes: list[str] = []
        for copies in args.copies:
            started = time.perf_counter()
            built = build_input(files, work, copies, args.xz)
            print(
                f"built {built.path.name}: {built.sets} sets, {built.file_mb:.1f} MB on disk "
                f"({built.json_mb:.1f} MB JSON) in {time.perf_counter() - started:.1f} s",
                flush=True,
            )
            for backend in backends:
                if backend == "sqlite":
                    db_file = work / f"bench-x{copies}.sqlite"
                    for stale in work.glob(f"{db_file.name}*"):
                        stale.unlink()
                    url = f"sqlite:///{db_file}"
                else:
                    url = fresh_postgres(pg_base_url(args), args.pg_reset)
                runs = [("import", "first")] + ([("import", "repeat")] if args.repeat_import else [])
                previous: dict[str, Any] | None = None
                for mode, run in runs:
                    print(f"  {backend} x{copies} ({run} import)...", flush=True)
                    result = run_child(mode, url, built.path)
                    label = backend if run == "first" else f"{backend} (repeat)"
                    if not result["ok"]:
                        failures.append(f"{label} x{copies}: {result['error']}")
                        print(result["stderr"], file=sys.stderr)
                        break
                    rows.append(result_row(label, built, result))
                    counts = result["counts"]
                    count_rows.append(
                        [
                            backend,
                            copies,
                            run,
                            counts["cards"],
                            counts["printings"],
                            counts["localizations"],
                            counts["rulings"],
                        ]
                    )
                    if previous is not None:
                        same = previous["counts"] == counts
                        verdict = "left the row counts unchanged" if same else "CHANGED the row counts"
                        notes.append(
                            f"{backend} x{copies}: repeat import {verdict} ({result['seconds']:.2f} s, "
                            f"first import {previous['seconds']:.2f} s)"
                        )
                        if not same:
                            failures.append(f"{backend} x{copies}: repeat import changed the row counts")
                    if result.get("skipped_sets"):
                        notes.append(f"{label} x{copies}: {result['skipped_sets']} set(s) skipped as older")
                    previous = result
                if backend == "sqlite" and not args.keep:
                    for produced in work.glob(f"bench-x{copies}.sqlite*"):
                        produced.unlink()
            if args.naive:
                print(f"  naive json+sqlite3 x{copies}...", flush=True)
                naive_file = work / f"naive-x{copies}.sqlite"
                result = run_child("naive", str(naive_file), built.path)
                if result["ok"]:
                    rows.append(result_row("naive sqlite3", built, result))
                    counts = result["counts"]
                    count_rows.append(
                        [
                            "naive sqlite3",
                            copies,
                            "first",
                            counts["cards"],
                            counts["printings"],
                            counts["foreign_data"],
                            counts["rulings"],
                        ]
                    )
                    notes.append(f"naive x{copies}: json.load alone took {result['parse_seconds']:.2f} s")
                else:
                    failures.append(f"naive x{copies}: {result['error']}")
                naive_file.unlink(missing_ok=True)
            if not args.keep:
                built.path.unlink()

        print()
        print(table(COLUMNS, rows))
        print(
            "(printings, localized, ruling rows: entries read from the input, as the importer's summary\n"
            " counts them; seconds: the import alone, in a fresh process; peak RSS: that process's maximum)"
        )
        print()
        if args.naive:
            print("Row counts in the database after each run (naive: cards = card records,")
            print("localizations = foreign_data rows; no dedup):")
        else:
            print("Row counts in the database after each run:")
        print(table(COUNT_COLUMNS, count_rows))
        for note in notes:
            print(f"- {note}")
        if "postgres" in backends:
            print("- PostgreSQL: peak RSS is the Python client's only, not the server's.")
        if args.keep:
            kept = Path(tempfile.mkdtemp(prefix="carddb-bench-kept-", dir=args.workdir))
            for produced in work.iterdir():
                produced.rename(kept / produced.name)
            print(f"- generated files kept in {kept}")
        for failure in failures:
            print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
