"""The search index: documents folded at import, kept in step by every import, full-text indexes
that agree with a plain scan, and a schema upgrade that builds them for cards imported before."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

import carddb
from carddb import languages
from carddb.db import migrate
from carddb.db.models import Card, SearchDocument
from carddb.search.compile import compile_node, text_languages
from carddb.search.conditions import Context
from carddb.search.documents import SLOTS, bigrams, document_id
from carddb.search.parse import parse_query

FIXTURE = Path(__file__).parent / "fixtures" / "search"
KHM = FIXTURE / "KHM.json.xz"
SQLITE_FULLTEXT_TABLES = (
    "search_name",
    "search_type_line",
    "search_text",
    "search_rulings",
    "search_bigrams",
)


def _documents(db: carddb.Database) -> int:
    with db.session() as session:
        return int(session.scalar(select(func.count()).select_from(SearchDocument)) or 0)


def _newer_khm(tmp_path: Path, old: str, new: str) -> Path:
    """KHM as a newer MTGJSON file in which Demon Bolt's English text says ``new`` for ``old``."""
    with lzma.open(KHM, "rt", encoding="utf-8") as source:
        data = json.load(source)
    data["meta"]["date"] = "2030-01-01"
    for card in data["data"]["cards"]:
        if card["name"] == "Demon Bolt":
            assert old in card["text"]
            card["text"] = card["text"].replace(old, new)
    path = tmp_path / "KHM.json.xz"
    with lzma.open(path, "wt", encoding="utf-8") as out:
        json.dump(data, out)
    return path


def test_every_language_has_a_document_slot() -> None:
    assert set(SLOTS) == {language.tag for language in languages.KNOWN}
    assert len(SLOTS) <= 32
    assert document_id(7, "en") == 7 * 32 and document_id(7, "ja") == 7 * 32 + SLOTS.index("ja")


def test_bigrams_are_the_two_character_runs_of_cjk_text() -> None:
    assert bigrams("悪魔の稲妻はそれに4点") == [
        "悪魔",
        "魔の",
        "の稲",
        "稲妻",
        "妻は",
        "はそ",
        "それ",
        "れに",
    ]
    assert bigrams("비행, 신속") == ["비행", "신속"]
    assert bigrams("flying, haste") == []


def test_importing_twice_keeps_one_document_per_card_and_language(db: carddb.Database) -> None:
    db.import_path(FIXTURE)
    first = _documents(db)
    db.import_path(FIXTURE)

    assert _documents(db) == first
    # 38 cards in English, most of them in ten more languages
    assert 38 < first <= 38 * 11


def test_a_newer_file_replaces_the_text_that_search_finds(db: carddb.Database, tmp_path: Path) -> None:
    db.import_path(FIXTURE)
    assert db.search('o:"4 damage to target creature or planeswalker"').names == ["Demon Bolt"]

    db.import_path(_newer_khm(tmp_path, "4 damage", "5 damage"))

    assert db.search('o:"4 damage to target creature or planeswalker"').names == []
    assert db.search('o:"5 damage to target creature or planeswalker"').names == ["Demon Bolt"]


def test_sqlite_fulltext_tables_agree_with_the_documents(tmp_path: Path) -> None:
    with carddb.open(f"sqlite:///{tmp_path / 'fts.sqlite'}") as db:
        db.import_path(FIXTURE)
        db.import_path(_newer_khm(tmp_path, "4 damage", "5 damage"))
        with db.engine.begin() as connection:
            for table in SQLITE_FULLTEXT_TABLES:
                # raises "database disk image is malformed" if an index lost step with its content
                connection.execute(text(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', 1)"))


@pytest.mark.parametrize(
    "query",
    [
        'o:"4 damage"',
        "lang:ja o:稲妻",
        "lang:ko o:비행",
        "lang:any t:dragon",
        "rul:foretell",
        "o:x",
        "dragon",
        "o:/deals \\d damage to target/",  # narrowed by three of its trigrams
        "o:/^flying/",  # narrowed by its prefix
    ],
)
def test_indexes_and_a_plain_scan_find_the_same_cards(db: carddb.Database, query: str) -> None:
    """Through the full-text indexes the answer is the one a probe of every card's documents gives
    (the form a term takes when another term of its AND drives the query)."""
    db.import_path(FIXTURE)
    ast = parse_query(query)
    with db.session() as session:
        dialect = session.get_bind().dialect.name
        scan = Context(dialect, text_languages(ast), lookup="probe")
        scanned = set(session.scalars(select(Card.name).where(compile_node(ast, scan))))

    assert scanned
    assert set(db.search(query, limit=100).names) == scanned


def test_upgrading_from_the_first_schema_builds_the_documents(db_url: str) -> None:
    with carddb.open(db_url) as db:
        db.import_path(FIXTURE)
        expected = set(db.search("lang:ja o:稲妻").names)
        documents = _documents(db)
        migrate.downgrade(db.engine, "0001")
        migrate.upgrade(db.engine)

        assert _documents(db) == documents
        assert set(db.search("lang:ja o:稲妻").names) == expected == {"Demon Bolt"}
        assert set(db.search("mv=5 t:dragon").names) == {"Glorybringer", "Goldspan Dragon"}
