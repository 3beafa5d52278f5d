"""Search benchmark: latency of ``Database.search`` for a fixed mix of queries, beside a plain
``sqlite3`` prototype that answers the same queries by hand.

Imports the 15 MTGJSON set files of the shared corpus (``../shared/corpus/mtgjson``) into a fresh
SQLite file or PostgreSQL database (``--backend``), or uses an existing database (``--db URL``, read
as it is: never migrated, never written); with ``--pool``, also the whole card pool (~23,700 cards
in English, the size the speed targets are stated for) built by ``pool.py`` from
``../shared/corpus/oracle-faces-20220425.jsonl.xz``. Then runs each query of the mix ``--repeat``
times after one warm-up run and prints, per query, the number of cards found, the time of the
first run (a query shape seen for the first time: its statement built and compiled), and the median
and 95th percentile latency of the measured runs in milliseconds, and the same over the whole mix,
with the machine's load average at the start and the end.

On SQLite it also runs the **prototype** (:data:`PROTOTYPES`): for each query of the mix, SQL
written by hand for that query alone with the standard library's ``sqlite3``, over the same file
and the same tables (``cards``, ``faces``, the FTS5 tables over ``search_documents``), giving the
same page (the first ``--limit`` cards by name, names and type lines in the requested language,
mana costs) and the same total. It is the floor carddb's general compiler is measured against:
each measured run of carddb is followed by one of the prototype, and the table shows the
prototype's median and carddb's ratio to it. The warm-up checks that both give the same cards
(oracle ids), hits and total, and says where they differ.

    python benchmarks/search_bench.py
    python benchmarks/search_bench.py --db sqlite:////tmp/pool.sqlite --repeat 50
    python benchmarks/search_bench.py --backend postgres --repeat 50
    python benchmarks/search_bench.py --pool

Exit status: 0 on success, 1 when a query of the mix fails or the prototype's answer differs from
carddb's, 2 when the corpus (or, with ``--pool``, its oracle faces file) or the database is
unavailable.
"""

from __future__ import annotations

import os
import re
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url

import carddb
from carddb.characteristics import TYPE_FLAGS, without_reminder
from carddb.errors import CarddbError
from carddb.search.results import SearchResult

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
    ("t:creature c:r mv<=3 o:haste", "de"),  # the compound query again, its page shown in German
)


# -- the prototype ------------------------------------------------------------------------------
# Each entry: the condition on ``cards c`` that finds the query's cards, with its parameters, as
# one would write it by hand for SQLite knowing the schema: search documents have the id
# ``card_id * 32 + language slot`` (en 0, de 1, fr 3, ja 5, zh-Hans 9), the FTS5 trigram tables
# answer substring queries of three characters or more from their row ids, ``search_bigrams``
# two-character CJK words; ``cards.type_bits`` holds the card types of TYPE_FLAGS, and
# ``type_words`` the English type words a word of another language translates (``t:`` means
# those too). What is rare drives (an FTS5 list, an index, a rare layout), the rest is tested on
# each candidate card.
Where = tuple[str, Sequence[object]]

_HAS_TRANSLATION = (
    "EXISTS (SELECT 1 FROM faces f JOIN localizations l ON l.face_id = f.id "
    "WHERE f.card_id = c.id AND l.language = ?)"
)


def _fts(table: str, match: str, slots: str | None = "0") -> str:
    """Cards with a document matching ``match`` in FTS5 table ``table``, in the documents of the
    language ``slots`` (None: any language), from the row ids alone."""
    where = f"{table} MATCH '{match}'" + ("" if slots is None else f" AND rowid & 31 IN ({slots})")
    return f"c.id IN (SELECT rowid >> 5 FROM {table} WHERE {where})"


def _english_types(connection: sqlite3.Connection, word: str) -> tuple[int, list[str]]:
    """``t:word`` in English type lines: the type bits to test, and the words to find as text
    (English first: a word that is an English type word is not read as a translation)."""
    english = (
        word in TYPE_FLAGS
        or connection.execute("SELECT 1 FROM type_words WHERE english = ? LIMIT 1", (word,)).fetchone()
    )
    words = {word} | (
        set()
        if english
        else {row[0] for row in connection.execute("SELECT english FROM type_words WHERE word = ?", (word,))}
    )
    bits = sum(1 << TYPE_FLAGS.index(w) for w in words if w in TYPE_FLAGS)
    return bits, sorted(w for w in words if w not in TYPE_FLAGS)


def _type(connection: sqlite3.Connection, word: str) -> str:
    """``t:word`` (an English query: the English type lines only)."""
    bits, texts = _english_types(connection, word)
    tests = [f"(c.type_bits & {bits}) != 0"] if bits else []
    if texts:
        tests.append(_fts("search_type_line", " OR ".join(f'"{text}"' for text in texts)))
    return "(" + " OR ".join(tests) + ")"


def _kreatur(connection: sqlite3.Connection) -> Where:
    # t:Kreatur under lang:de: also "kreatur" in German type lines, read from each candidate's
    # English and German documents (the list of every German "Kreatur" would be most of the pool)
    bits, texts = _english_types(connection, "kreatur")
    words = " OR ".join(f"d.type_line LIKE '%{text}%'" for text in sorted({*texts, "kreatur"}))
    return (
        "c.colors LIKE '%R%' AND " + _HAS_TRANSLATION + " AND "
        f"((c.type_bits & {bits}) != 0 OR EXISTS (SELECT 1 FROM search_documents d "
        f"WHERE d.id IN (c.id * 32, c.id * 32 + 1) AND ({words})))",
        ("de",),
    )


def _haste(connection: sqlite3.Connection, slots: str) -> str:
    return (
        _fts("search_text", '"haste"', slots) + f" AND {_type(connection, 'creature')} AND c.mana_value <= 3 "
        "AND c.colors LIKE '%R%'"
    )


PROTOTYPES: dict[tuple[str, str | None], Callable[[sqlite3.Connection], Where]] = {
    ("dragon", None): lambda _: (_fts("search_name", '"dragon"', None), ()),
    ('!"Lightning Bolt"', None): lambda _: (
        "c.name_norm = ? OR c.id IN (SELECT card_id FROM faces WHERE name_norm = ?) OR c.id IN "
        "(SELECT f.card_id FROM localizations l JOIN faces f ON f.id = l.face_id WHERE l.name_norm = ?)",
        ("lightning bolt",) * 3,
    ),
    ('o:"draw a card"', None): lambda _: (_fts("search_text", '"draw a card"'), ()),
    ("t:creature c:r mv<=3 o:haste", None): lambda db: (_haste(db, "0"), ()),
    # shown in German: o: searches the German documents too
    ("t:creature c:r mv<=3 o:haste", "de"): lambda db: (_haste(db, "0, 1"), ()),
    ("t:creature c:g pow>=4", None): lambda db: (
        f"{_type(db, 'creature')} AND c.colors LIKE '%G%' "
        "AND c.id IN (SELECT card_id FROM faces WHERE power_value >= 4)",
        (),
    ),
    ("t:instant (o:counter or o:destroy)", None): lambda db: (
        f"{_type(db, 'instant')} AND " + _fts("search_text", '"counter" OR "destroy"'),
        (),
    ),
    ("c>=uw -c:b", None): lambda _: (
        "c.colors LIKE '%W%' AND c.colors LIKE '%U%' AND c.colors NOT LIKE '%B%'",
        (),
    ),
    ("r:rare,mythic s:khm t:legendary", None): lambda db: (
        f"c.id IN (SELECT card_id FROM printings WHERE set_code = 'KHM') AND {_type(db, 'legendary')} AND "
        "EXISTS (SELECT 1 FROM printings p WHERE p.card_id = c.id AND p.rarity IN ('rare', 'mythic'))",
        (),
    ),
    ("mv=2 t:artifact", None): lambda db: (f"c.mana_value = 2 AND {_type(db, 'artifact')}", ()),
    ("pow>tou t:creature", None): lambda db: (
        "c.id IN (SELECT card_id FROM faces WHERE power_value > toughness_value) AND "
        + _type(db, "creature"),
        (),
    ),
    ("lang:de o:fliegend", None): lambda _: (
        _fts("search_text", '"fliegend"', "0, 1") + " AND " + _HAS_TRANSLATION,
        ("de",),
    ),
    ("lang:de t:Kreatur c:r", None): _kreatur,
    ("lang:ja 天使", None): lambda _: (
        _fts("search_bigrams", 'name_bigrams : "天使"', None) + " AND " + _HAS_TRANSLATION,
        ("ja",),
    ),
    ("lang:zhs o:衍生生物", None): lambda _: (
        _fts("search_text", '"衍生生物"', "0, 9") + " AND " + _HAS_TRANSLATION,
        ("zh-Hans",),
    ),
    ("lang:fr name:dragon", None): lambda _: (
        _fts("search_name", '"dragon"', None) + " AND " + _HAS_TRANSLATION,
        ("fr",),
    ),
    ("name:/^a.*n$/", None): lambda _: (
        "(c.name LIKE 'a%' AND c.name REGEXP ?) OR c.id IN "
        "(SELECT card_id FROM faces WHERE name LIKE 'a%' AND name REGEXP ?)",
        ("(?i)^a.*n$",) * 2,
    ),
    ("o:/deals \\d+ damage to any target/", None): lambda _: (
        # three trigrams of "damage to any target" cut the faces down (a phrase costs five times more)
        "c.id IN (SELECT card_id FROM faces WHERE carddb_without_reminder(oracle_text) REGEXP ? "
        "AND card_id IN (SELECT rowid >> 5 "
        'FROM search_text WHERE search_text MATCH \'"dam" AND "tar" AND "any"\' AND rowid & 31 = 0))',
        ("(?i)deals \\d+ damage to any target",),
    ),
    ("rul:dice", None): lambda _: (_fts("search_rulings", '"dice"'), ()),
    ("has:ruling t:saga", None): lambda db: (
        f"{_type(db, 'saga')} AND EXISTS (SELECT 1 FROM rulings r WHERE r.card_id = c.id)",
        (),
    ),
    ("year>=2021 is:mdfc", None): lambda _: (
        "c.layout = 'modal_dfc' AND EXISTS (SELECT 1 FROM printings p JOIN sets s ON s.code = p.set_code "
        "WHERE p.card_id = c.id AND s.release_date >= '2021-01-01')",
        (),
    ),
}

_ENGLISH_PAGE = """
WITH matched AS MATERIALIZED (SELECT c.id, c.name_norm AS sort FROM cards c WHERE {where}),
page AS (SELECT id, sort FROM matched ORDER BY sort, id LIMIT ?)
SELECT c.oracle_id, c.name, c.layout, c.mana_value, f.id, f.name, f.type_line, f.mana_cost,
       (SELECT count(*) FROM matched)
FROM page JOIN cards c ON c.id = page.id JOIN faces f ON f.card_id = c.id
ORDER BY page.sort, page.id, f.position"""

# Shown in another language: sorted by the front face's translated name (the smallest of its
# variants), each face shown in the variant whose name is translated, of the newest printing, the
# first imported among equals; the English face where there is none.
_LOCALIZED_PAGE = """
WITH matched AS MATERIALIZED (
  SELECT c.id, coalesce((SELECT min(l.name_norm) FROM faces f JOIN localizations l ON l.face_id = f.id
                         WHERE f.card_id = c.id AND f.position = 0 AND l.language = ?), c.name_norm) AS sort
  FROM cards c WHERE {where}),
page AS MATERIALIZED (SELECT id, sort FROM matched ORDER BY sort, id LIMIT ?),
faces_shown AS MATERIALIZED (
  SELECT page.sort, page.id AS card_id, f.position, f.id, f.name, f.type_line, f.mana_cost, (
    SELECT l.id FROM (
      SELECT l.id, l.name != f.name AS translated, (
        SELECT max(s.release_date) FROM printing_localizations pl JOIN printings p ON p.id = pl.printing_id
        JOIN sets s ON s.code = p.set_code WHERE pl.localization_id = l.id) AS released
      FROM localizations l WHERE l.face_id = f.id AND l.language = ?) l
    ORDER BY l.translated DESC, l.released DESC, l.id LIMIT 1) AS shown
  FROM page JOIN faces f ON f.card_id = page.id)
SELECT c.oracle_id, c.name, c.layout, c.mana_value, f.id, coalesce(l.name, f.name),
       CASE WHEN l.id IS NULL THEN f.type_line ELSE coalesce(l.type_line, f.type_line) END,
       f.mana_cost, (SELECT count(*) FROM matched), l.id IS NOT NULL
FROM faces_shown f JOIN cards c ON c.id = f.card_id LEFT JOIN localizations l ON l.id = f.shown
ORDER BY f.sort, f.card_id, f.position"""

Hit = tuple[str, str, str, str, str, str | None, float | None, str]
"""oracle id, name shown, English name, language shown, layout, mana cost, mana value, type line"""


@dataclass(frozen=True, slots=True)
class Answer:
    total: int
    hits: tuple[Hit, ...]


def prototype_connection(path: str) -> sqlite3.Connection:
    """The database file opened read-only, with the ``REGEXP`` function SQLite leaves to its host
    (Python's ``re.search``, as SQLAlchemy registers it for carddb)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    connection.create_function(
        "regexp",
        2,
        lambda pattern, value: None if value is None else re.search(pattern, value) is not None,
        deterministic=True,
    )
    connection.create_function(
        "carddb_without_reminder", 1, lambda text: None if text is None else without_reminder(text)
    )
    return connection


def prototype(connection: sqlite3.Connection, query: str, lang: str | None, limit: int) -> Answer:
    """The prototype's answer to ``query`` shown in ``lang`` (an entry of :data:`MIX`)."""
    where, params = PROTOTYPES[query, lang](connection)
    where = f"({where}) AND c.layout NOT IN ('planar', 'scheme', 'vanguard')"  # Scryfall's extras
    if lang in (None, "en"):
        rows = connection.execute(_ENGLISH_PAGE.format(where=where), (*params, limit)).fetchall()
        return _answer([(*row, False) for row in rows], "en")
    assert lang is not None
    rows = connection.execute(_LOCALIZED_PAGE.format(where=where), (lang, *params, limit, lang)).fetchall()
    return _answer(rows, lang)


def _answer(rows: Sequence[Any], lang: str) -> Answer:
    """Rows of a page (one per face, in order) as hits: faces joined with ``//``."""
    cards: dict[str, list[Any]] = {}
    for row in rows:
        cards.setdefault(row[0], []).append(row)
    hits = []
    for oracle_id, faces in cards.items():
        _, name, layout, mana_value = faces[0][:4]
        localized = any(face[9] for face in faces)
        costs = [face[7] for face in faces if face[7]]
        hits.append(
            (
                oracle_id,
                " // ".join(face[5] for face in faces) if localized else name,
                name,
                lang if localized else "en",
                layout,
                " // ".join(costs) if costs else None,
                mana_value,
                " // ".join(face[6] for face in faces),
            )
        )
    return Answer(int(rows[0][8]) if rows else 0, tuple(hits))


def carddb_answer(result: SearchResult) -> Answer:
    hits = []
    for hit in result.cards:
        shown = (hit.oracle_id, hit.name, hit.english_name, hit.language, hit.layout)
        hits.append((*shown, hit.mana_cost, hit.mana_value, hit.type_line))
    return Answer(result.total, tuple(hits))


def differences(ours: Answer, theirs: Answer) -> list[str]:
    """What differs between carddb's answer and the prototype's (empty: the same)."""
    found = []
    if ours.total != theirs.total:
        found.append(f"total {ours.total} != prototype {theirs.total}")
    if [h[0] for h in ours.hits] != [h[0] for h in theirs.hits]:
        found.append("the cards (oracle ids) of the page differ")
    elif ours.hits != theirs.hits:
        first = next(i for i, (a, b) in enumerate(zip(ours.hits, theirs.hits, strict=True)) if a != b)
        found.append(f"hit {first} differs: {ours.hits[first]} != prototype {theirs.hits[first]}")
    return found


def sqlite_path(url: str) -> str | None:
    """The file of an SQLite URL (None: another backend, or an in-memory database)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return parsed.database


# -- measuring ----------------------------------------------------------------------------------
def _label(query: str, lang: str | None) -> str:
    return query if lang is None else f"{query}  [lang={lang}]"


@dataclass(frozen=True, slots=True)
class Timings:
    """One query's measured runs, in milliseconds, sorted (``prototype`` empty without one)."""

    carddb: list[float]
    prototype: list[float]


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""``wall``: elapsed time; ``cpu``: this process's CPU time, which other processes competing for the
CPUs do not stretch (on SQLite all the work is in this process; not for PostgreSQL, whose server
works in processes of its own)."""


def measure(
    db: carddb.Database,
    raw: sqlite3.Connection | None,
    query: str,
    lang: str | None,
    limit: int,
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
) -> Timings:
    """``repeat`` runs of carddb, each followed by one of the prototype, so both see the same load."""
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(repeat):
        started = clock()
        db.search(query, lang=lang, limit=limit)
        ours.append((clock() - started) * 1000)
        if raw is not None:
            started = clock()
            prototype(raw, query, lang, limit)
            theirs.append((clock() - started) * 1000)
    return Timings(sorted(ours), sorted(theirs))


def _row(label: str, cards: str, first: str, timings: Timings) -> str:
    median, p95 = statistics.median(timings.carddb), percentile(timings.carddb, 0.95)
    line = f"{label:50} {cards:>6} {first:>8} {median:>10.2f} {p95:>8.2f}"
    if timings.prototype:
        floor = statistics.median(timings.prototype)
        line += f" {floor:>9.2f} {median / floor:>6.1f}"
    return line


def _run_all(connection: Any, statements: Sequence[str]) -> None:
    for statement in statements:
        connection.execute(statement)


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def main(argv: list[str] | None = None) -> int:
    options = parser()
    options.description = __doc__.split("\n\n")[0] if __doc__ else None
    options.add_argument("--repeat", type=int, default=20, help="measured runs of each query (default 20)")
    options.add_argument("--limit", type=int, default=50, help="cards per page (default 50)")
    options.add_argument(
        "--no-prototype", action="store_true", help="measure carddb alone (no stdlib sqlite3 prototype)"
    )
    options.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="wall",
        help="what is measured: elapsed time (default) or this process's CPU time (SQLite on a busy machine)",
    )
    options.add_argument(
        "--pragma",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an SQLite PRAGMA run on every connection, carddb's and the prototype's (an experiment: "
        "what a connection setting would change; repeatable), e.g. cache_size=-65536",
    )
    args = options.parse_args(argv)
    prepared = prepare(args)
    if isinstance(prepared, int):
        return prepared
    url, label, tmp = prepared
    repeat, limit = max(1, args.repeat), max(1, args.limit)
    try:
        # An existing database (--db) is read as it is, never migrated by a benchmark.
        db = carddb.open(url, upgrade=not args.db)
    except CarddbError as exc:
        print(f"search_bench: {exc}", file=sys.stderr)
        return 2
    pragmas = [f"PRAGMA {pragma}" for pragma in args.pragma]
    if pragmas:
        if db.engine.dialect.name != "sqlite":
            print("search_bench: --pragma is for SQLite databases", file=sys.stderr)
            return 2
        event.listen(db.engine, "connect", lambda connection, _record: _run_all(connection, pragmas))
        db.engine.dispose()  # the connection opened to check the database had none
        print("pragmas: " + "; ".join(pragmas))
    path = None if args.no_prototype else sqlite_path(url)
    raw = prototype_connection(path) if path is not None else None
    if raw is not None:
        _run_all(raw, pragmas)
    if raw is None and not args.no_prototype:
        print("prototype: none (the stdlib sqlite3 prototype reads an SQLite file)")
    failures = 0
    everything = Timings([], [])
    slowest = (0.0, "")
    with db:
        print(f"machine: {os.cpu_count()} CPUs, load average {_load()} at the start; clock: {args.clock}")
        print(
            f"{'query':50} {'cards':>6} {'first ms':>8} {'median ms':>10} {'p95 ms':>8} {'proto ms':>9} "
            f"{'ratio':>6}"
        )
        for query, lang in MIX:
            shown = query if lang is None else f"{query}  [lang={lang}]"
            try:
                started = time.perf_counter()
                found = db.search(query, lang=lang, limit=limit)
                first = f"{(time.perf_counter() - started) * 1000:.2f}"
            except CarddbError as error:
                failures += 1
                print(f"{shown:50} failed: {error}")
                continue
            if raw is not None:
                for difference in differences(carddb_answer(found), prototype(raw, query, lang, limit)):
                    failures += 1
                    print(f"{shown:50} the prototype differs: {difference}")
            timings = measure(db, raw, query, lang, limit, repeat, CLOCKS[args.clock])
            everything.carddb.extend(timings.carddb)
            everything.prototype.extend(timings.prototype)
            slowest = max(slowest, (statistics.median(timings.carddb), shown))
            print(_row(shown, str(found.total), first, timings), flush=True)
    if raw is not None:
        raw.close()
    if everything.carddb:
        everything.carddb.sort()
        everything.prototype.sort()
        print(_row(f"all ({label})", "", "", everything))
        print(f"slowest query: {slowest[1]} ({slowest[0]:.2f} ms median); load average {_load()} at the end")
    if tmp is not None:
        tmp.cleanup()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
