"""Parse benchmark: how many oracle-text faces the grammar parses completely, and how fast.

Reads every face of the shared corpus (``../shared/corpus/oracle-faces-20220425.jsonl.xz``,
relative to the repository root; ``--faces PATH`` for another file in any format ``carddb coverage``
reads) into a list, then runs :func:`carddb.oracle.coverage.measure` over the list ``--repeat K``
times in this one process. Only the parse calls are timed: importing ``carddb.oracle`` and reading
the file are shown on their own lines. The first run is the cold one (lazy grammar loading, empty
caches).

    python benchmarks/parse_bench.py
    python benchmarks/parse_bench.py --limit 2000 --repeat 3 --top 15
    python benchmarks/parse_bench.py --cold --runs 3

Prints, per run: faces, parsed, rate, seconds, faces per second and the peak RSS so far (``VmHWM``
on Linux); then the most frequent unimplemented shapes of the last run.

``--cold`` measures start-up instead (no faces file needed): building the oracle grammar's LALR
tables from the grammar text and loading them from a tables file, in this process; then whole
``carddb`` processes, each with an empty user cache (``XDG_CACHE_HOME``) and an empty ``TMPDIR``:
the first ``carddb parse`` (from a wheel: its prebuilt tables; from a checkout or an editable
install: a build), a second one, and a first ``carddb scenario run`` on the shipped sample. Each
figure is the median of ``--runs`` runs; the script also checks that ``TMPDIR`` stayed empty.

Exit status: 0 on success, 1 when the parser crashed on a face (the face is named), 2 when the
faces file is absent (a fresh clone has no ``../shared``).
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from carddb.errors import CarddbError

if TYPE_CHECKING:
    from carddb.oracle.coverage import CoverageReport

REPO = Path(__file__).resolve().parent.parent
FACES = REPO.parent / "shared" / "corpus" / "oracle-faces-20220425.jsonl.xz"
TEXT = "When this creature enters, draw a card."
SCENARIO = REPO / "tests" / "scenarios" / "underdark_rift_beneath_the_top_x.toml"


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--faces", type=Path, default=FACES, help="the faces file (default: the shared corpus)"
    )
    parser.add_argument("--limit", type=int, metavar="N", help="parse only the first N faces")
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="K", help="parse the faces K times (default 1)"
    )
    parser.add_argument(
        "--top", type=int, default=10, metavar="N", help="unimplemented shapes to list (default 10)"
    )
    parser.add_argument("--cold", action="store_true", help="measure start-up with an empty cache instead")
    parser.add_argument(
        "--runs", type=int, default=3, metavar="K", help="--cold: runs per figure (default 3)"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1 or (args.limit is not None and args.limit < 1) or args.top < 0 or args.runs < 1:
        parser.error("--repeat, --runs and --limit must be at least 1, --top at least 0")
    return args


def row(run: str, report: CoverageReport) -> str:
    return (
        f"{run:>5}  {report.faces:>7,}  {report.parsed:>7,}  {report.rate:>6.1%}  "
        f"{report.seconds:>8.3f}  {report.faces_per_second:>9,.0f}  {report.peak_memory_mb:>8.1f}"
    )


def _carddb() -> list[str]:
    """The installed console script beside this Python, else its entry point run by this Python."""
    script = Path(sys.executable).with_name("carddb")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from carddb.cli import main; sys.exit(main(sys.argv[1:]))"]


def _timed(command: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # a scenario that fails still ran
        raise RuntimeError(f"{' '.join(command[-3:])} exited {done.returncode}: {done.stderr.strip()}")
    return seconds


BUILD = "from carddb.oracle.grammar import ToModel, build_from_text; build_from_text(ToModel())"
"""A whole process that builds the oracle parser from the grammar text, as a first run without tables."""


def cold(runs: int) -> int:
    """Start-up figures; 1 when a command left files in TMPDIR."""
    from carddb import lalr
    from carddb.oracle.grammar import ToModel, oracle_grammar, parser

    grammar = oracle_grammar()
    source = (
        "in the installed wheel" if lalr.prebuilt_path(grammar).is_file() else "none (checkout, editable)"
    )
    data = lalr.dumps(grammar, parser())
    loads = []
    for _ in range(runs):
        started = time.perf_counter()
        lalr.loads(grammar, data, ToModel())
        loads.append(time.perf_counter() - started)
    print(f"prebuilt tables  {source}; a tables file is {len(data) / 1e6:.2f} MB")
    print(f"load tables      {statistics.median(loads):6.2f} s  (in this process, median of {runs})")

    scratch = Path(tempfile.mkdtemp(prefix="carddb-cold-"))
    figures: dict[str, list[float]] = {"build": [], "first": [], "second": [], "scenario": []}
    dirty: list[str] = []
    try:
        database = f"sqlite:///{scratch / 'sample.sqlite'}"
        base = {k: v for k, v in os.environ.items() if k not in ("CARDDB_CACHE_DIR", "CARDDB_URL")}
        imported = [*_carddb(), "--db", database, "import", "--sample", "--quiet"]
        subprocess.run(imported, env=base, check=True, stdout=subprocess.DEVNULL)
        scenario = [*_carddb(), "scenario", "run", str(SCENARIO), "--db", database]
        for run in range(runs):
            for name, command in (("first", ["parse", TEXT]), ("scenario", scenario[1:]), ("build", None)):
                temporary, cache = scratch / f"tmp-{name}{run}", scratch / f"cache-{name}{run}"
                temporary.mkdir()
                env = {**base, "TMPDIR": str(temporary), "XDG_CACHE_HOME": str(cache)}
                if command is None:
                    figures[name].append(_timed([sys.executable, "-c", BUILD], env))
                    continue
                figures[name].append(_timed([*_carddb(), *command], env))
                if name == "first":
                    figures["second"].append(_timed([*_carddb(), *command], env))
                dirty += [str(p) for p in temporary.iterdir()]
    finally:
        shutil.rmtree(scratch)

    def median(name: str) -> str:
        return f"{statistics.median(figures[name]):6.2f} s"

    print()
    print(f"whole processes, median of {runs}, each with an empty XDG_CACHE_HOME and TMPDIR:")
    print(f"  carddb parse {TEXT!r}, first run   {median('first')}")
    print(f"  carddb parse {TEXT!r}, second run  {median('second')}")
    print(f"  carddb scenario run {SCENARIO.name}, first run  {median('scenario')}")
    print(f"  build the oracle parser from the grammar text                  {median('build')}")
    print(f"TMPDIR left empty  {'yes' if not dirty else 'NO: ' + ', '.join(dirty)}")
    return 1 if dirty else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments(argv)
    if args.cold:
        return cold(args.runs)
    if not args.faces.is_file():
        print(
            f"faces file not found: {args.faces}\n"
            "The benchmark reads the shared corpus at ../shared/corpus (relative to the repository root),"
            " which a fresh clone does not have; give another file with --faces PATH.",
            file=sys.stderr,
        )
        return 2

    started = time.perf_counter()
    from carddb.measure import peak_memory_mb
    from carddb.oracle import parse_oracle
    from carddb.oracle.coverage import measure
    from carddb.oracle.faces import read_faces

    import_seconds = time.perf_counter() - started

    started = time.perf_counter()
    try:
        faces = list(itertools.islice(read_faces(args.faces), args.limit))
    except CarddbError as exc:
        print(f"cannot read faces: {exc}", file=sys.stderr)
        return 2
    read_seconds = time.perf_counter() - started

    print(f"faces file      {args.faces}")
    print(f"import parser   {import_seconds:.2f} s (not counted below)")
    print(f"read faces      {len(faces):,} in {read_seconds:.2f} s (not counted below)")
    print(f"peak RSS        {peak_memory_mb():.1f} MB before parsing")
    print()
    print("  run    faces   parsed    rate   seconds    faces/s  peak MB")
    report: CoverageReport | None = None
    for run in range(1, args.repeat + 1):
        try:
            report = measure(faces, parse=parse_oracle, top=args.top)
        except (RuntimeError, CarddbError) as exc:
            print(f"run {run}: {exc}", file=sys.stderr)
            return 1
        print(row("cold" if run == 1 else str(run), report))
    assert report is not None
    if report.top_unimplemented:
        print()
        print("most frequent unimplemented shapes (faces, shape, an example):")
        width = len(f"{report.top_unimplemented[0][1]:,}")
        for found, count in report.top_unimplemented:
            example = report.examples_of(found)
            shown = found if len(found) <= 100 else found[:99] + "…"
            print(f"  {count:>{width},}  {shown}" + (f"  [{example[0]}]" if example else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
