"""Search benchmark: latency of ``Database.search`` for a fixed mix of 20 queries.

Imports the 15 MTGJSON set files of the shared corpus (``../shared/corpus/mtgjson``) into a fresh
SQLite file or PostgreSQL database (``--backend``), or uses an existing database (``--db URL``);
with ``--pool``, also the whole card pool (~23,700 cards in English, the size the speed targets are
stated for) built by ``pool.py`` from ``../shared/corpus/oracle-faces-20220425.jsonl.xz``. Then runs
each query of the mix ``--repeat`` times after one warm-up run and prints, per query, the number of
cards found and the median and 95th percentile latency in milliseconds, and the same over the whole
mix.

    python benchmarks/search_bench.py
    python benchmarks/search_bench.py --backend postgres --repeat 50
    python benchmarks/search_bench.py --pool

Exit status: 0 on success, 1 when a query of the mix fails, 2 when the corpus (or, with ``--pool``,
its oracle faces file) or the database is unavailable.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import carddb
from carddb.errors import CarddbError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lookup_bench import parser, percentile, prepare

MIX: tuple[tuple[str, str | None], ...] = (
    ("dragon", None),  # a name word
    ('!"Lightning Bolt"', None),  # an exact name
    ('o:"draw a card"', None),  # an oracle phrase
    ("t:creature c:r mv<=3 o:haste", None),  # the compound query of the issue
    ("t:creature c:g pow>=4", None),
    ("t:instant (o:counter or o:destroy)", None),
    ("c>=uw -c:b", None),
    ("r:rare,mythic s:khm t:legendary", None),
    ("mv=2 t:artifact", None),
    ("pow>tou t:creature", None),
    ("lang:de o:fliegend", None),  # German rules text
    ("lang:de t:Kreatur c:r", None),
    ("lang:ja 天使", None),  # two Japanese characters
    ("lang:zhs o:衍生生物", None),  # four Chinese characters
    ("lang:fr name:dragon", None),
    ("name:/^a.*n$/", None),  # regular expressions
    ("o:/deals \\d+ damage to any target/", None),
    ("rul:dice", None),  # rulings
    ("has:ruling t:saga", None),
    ("year>=2021 is:mdfc", None),
)


def main(argv: list[str] | None = None) -> int:
    options = parser()
    options.description = __doc__.split("\n\n")[0] if __doc__ else None
    options.add_argument("--repeat", type=int, default=20, help="measured runs of each query (default 20)")
    args = options.parse_args(argv)
    prepared = prepare(args)
    if isinstance(prepared, int):
        return prepared
    url, label, tmp = prepared
    repeat = max(1, args.repeat)
    failures = 0
    everything: list[float] = []
    with carddb.open(url) as db:
        print(f"{'query':44} {'cards':>6} {'median ms':>10} {'p95 ms':>8}")
        for query, lang in MIX:
            try:
                found = db.search(query, lang=lang)
            except CarddbError as error:
                failures += 1
                print(f"{query:44} failed: {error}")
                continue
            times = []
            for _ in range(repeat):
                started = time.perf_counter()
                db.search(query, lang=lang)
                times.append((time.perf_counter() - started) * 1000)
            times.sort()
            everything.extend(times)
            median, p95 = statistics.median(times), percentile(times, 0.95)
            print(f"{query:44} {found.total:>6} {median:>10.2f} {p95:>8.2f}")
    everything.sort()
    if everything:
        median, p95 = statistics.median(everything), percentile(everything, 0.95)
        print(f"{'all (' + label + ')':44} {'':>6} {median:>10.2f} {p95:>8.2f}")
    if tmp is not None:
        tmp.cleanup()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
