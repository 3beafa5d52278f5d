"""Parse benchmark: how many oracle-text faces the grammar parses completely, and how fast.

Reads every face of the shared corpus (``../shared/corpus/oracle-faces-20220425.jsonl.xz``,
relative to the repository root; ``--faces PATH`` for another file in any format ``carddb coverage``
reads) into a list, then runs :func:`carddb.oracle.coverage.measure` over the list ``--repeat K``
times in this one process. Only the parse calls are timed: importing ``carddb.oracle`` and reading
the file are shown on their own lines. The first run is the cold one (lazy grammar loading, empty
caches).

    python benchmarks/parse_bench.py
    python benchmarks/parse_bench.py --limit 2000 --repeat 3 --top 15

Prints, per run: faces, parsed, rate, seconds, faces per second and the peak RSS so far (``VmHWM``
on Linux); then the most frequent unimplemented shapes of the last run.

Exit status: 0 on success, 1 when the parser crashed on a face (the face is named), 2 when the
faces file is absent (a fresh clone has no ``../shared``).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from carddb.errors import CarddbError

if TYPE_CHECKING:
    from carddb.oracle.coverage import CoverageReport

REPO = Path(__file__).resolve().parent.parent
FACES = REPO.parent / "shared" / "corpus" / "oracle-faces-20220425.jsonl.xz"


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
    args = parser.parse_args(argv)
    if args.repeat < 1 or (args.limit is not None and args.limit < 1) or args.top < 0:
        parser.error("--repeat and --limit must be at least 1, --top at least 0")
    return args


def row(run: str, report: CoverageReport) -> str:
    return (
        f"{run:>5}  {report.faces:>7,}  {report.parsed:>7,}  {report.rate:>6.1%}  "
        f"{report.seconds:>8.3f}  {report.faces_per_second:>9,.0f}  {report.peak_memory_mb:>8.1f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments(argv)
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
