"""Pathological oracle text: the parse time must grow linearly with the length of the text.

Three inputs found by fuzzing, each at several sizes: ``"Ab — " * n + "Draw a card."`` (ability-word
prefixes), ``"When " + "a creature you control dies and, " * n + "draw a card."`` (a trigger line
with many commas: every prefix up to a comma is a condition not yet finished), and plain sentences
``"Draw a card. " * n`` as the yardstick. Prints, per input and size: the length in KB, the CPU seconds
(best of ``--runs``) and the microseconds per KB; a linear parse keeps the last column flat.
An exception (a ``RecursionError``, say) is printed and the exit status is 1.

    python benchmarks/oracle_bad_input_bench.py
    python benchmarks/oracle_bad_input_bench.py --sizes 10,100,300 --runs 3
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from carddb.oracle import parse as oracle_parse
from carddb.oracle import parse_oracle

INPUTS: dict[str, Callable[[int], str]] = {
    "sentences": lambda n: "Draw a card. " * n,
    "ability words": lambda n: "Ab — " * n + "Draw a card.",
    "trigger commas": lambda n: "When " + "a creature you control dies and, " * n + "draw a card.",
}


def sized(make: Callable[[int], str], kilobytes: int) -> str:
    """The input made at about ``kilobytes`` KB."""
    unit = len(make(2)) - len(make(1))
    return make(max(1, kilobytes * 1000 // unit))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", default="10,30,100,300", help="sizes in KB, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--cache", action="store_true", help="keep the parser's caches of lines and sentences (default: off)"
    )
    args = parser.parse_args(argv)
    if not args.cache:  # a repeated sentence, or a second run of a line, would cost a lookup only
        oracle_parse.LINE_CACHE = 0
    sizes = [int(size) for size in args.sizes.split(",")]
    parse_oracle("Draw a card.", "Warm-up", "Sorcery")  # the grammar loaded before timing
    status = 0
    print(f"{'input':<16} {'KB':>6} {'CPU s':>9} {'µs/KB':>9}")
    for name, make in INPUTS.items():
        for size in sizes:
            text = sized(make, size)
            best = float("inf")
            try:
                for _ in range(args.runs):
                    started = time.process_time()  # CPU time: other processes on the machine do not count
                    parse_oracle(text, "Fuzz", "Creature")
                    best = min(best, time.process_time() - started)
            except Exception as error:  # the benchmark reports any crash and goes on
                print(f"{name:<16} {len(text) / 1000:>6.0f}  {type(error).__name__}: {error}"[:110])
                status = 1
                continue
            kb = len(text) / 1000
            print(f"{name:<16} {kb:>6.0f} {best:>9.3f} {best / kb * 1e6:>9.0f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
