"""An import as a whole: files in their own transactions, the search index rebuilt once after the
last one (and by the next import when an earlier one stopped before it), sets stored from the very
same text skipped, and a failure that says which files are in."""

from __future__ import annotations

from pathlib import Path

import pytest
from samples import sample_bytes, sample_file, sample_set, write_json
from sqlalchemy import func, select

import carddb
from carddb.database import Database
from carddb.db.models import CardSet, Localization, SearchDocument, SearchPending
from carddb.errors import MalformedJSONError
from carddb.ingest import importer
from carddb.search import index

SAMPLE = ("AFC", "AFR", "ELD")
FIXTURES = Path(__file__).parent / "fixtures"
FULLTEXT = ("search_name", "search_type_line", "search_text", "search_rulings", "search_bigrams")


def documents(db: Database) -> set[tuple[int, str, str]]:
    with db.session() as session:
        return {
            (row.id, row.language, row.text)
            for row in session.execute(
                select(SearchDocument.id, SearchDocument.language, SearchDocument.text)
            )
        }


def searched(db: Database) -> tuple[tuple[str, ...], ...]:
    return db.search("o:draw t:creature").names, db.search("lang:ja 稲妻").names, db.search("t:Kreatur").names


def pending(db: Database) -> int:
    with db.session() as session:
        return int(session.scalar(select(func.count()).select_from(SearchPending)) or 0)


def test_importing_the_same_files_again_skips_every_set_as_unchanged(sample_db: Database) -> None:
    before = sample_db.counts()

    again = sample_db.import_path(*(sample_file(code) for code in SAMPLE))

    assert sorted(again.unchanged_sets) == sorted(SAMPLE)
    assert again.sets == 0 and again.printings == 0
    assert sample_db.counts() == before
    assert pending(sample_db) == 0


def test_force_writes_unchanged_sets_again(sample_db: Database) -> None:
    again = sample_db.import_path(sample_file("AFC"), force=True)

    assert again.sets == 1 and again.unchanged_sets == ()


def test_a_changed_set_is_written_even_if_its_code_is_stored(sample_db: Database, tmp_path: Path) -> None:
    document = sample_set("AFC")
    document["data"]["name"] = "Forgotten Realms Commander (renamed)"

    again = sample_db.import_path(write_json(tmp_path / "AFC.json", document))

    assert again.sets == 1
    with sample_db.session() as session:
        assert session.scalar(select(CardSet.name).where(CardSet.code == "AFC")) == document["data"]["name"]


def test_a_scryfall_import_makes_the_next_set_file_import_write_again(
    sample_db: Database, tmp_path: Path
) -> None:
    sample_db.import_path(
        Path(__file__).parent / "fixtures" / "scryfall" / "cards-page-multilang-2019.json.xz"
    )

    again = sample_db.import_path(sample_file("AFC"))

    assert again.sets == 1


def test_the_search_index_is_rebuilt_once_after_the_last_file(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    original = index.refresh

    def counting(connection, source=None, progress=None):  # type: ignore[no-untyped-def]
        calls.append(len(index.pending_cards(connection)))
        return original(connection, source, progress)

    monkeypatch.setattr(index, "refresh", counting)
    summary = db.import_path(*(sample_file(code) for code in SAMPLE))

    assert len(calls) == 1
    assert calls[0] == summary.index.cards > 0
    assert pending(db) == 0


def test_cards_left_pending_by_an_interrupted_import_are_indexed_by_the_next_one(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(importer, "refresh_index", lambda run: index.RefreshResult())
    db.import_path(sample_file("AFC"))  # as if stopped between its file and the rebuild
    assert pending(db) > 0
    assert db.search("Underdark Rift").total == 0
    monkeypatch.undo()

    db.import_path(sample_file("ELD"))

    assert pending(db) == 0
    assert db.search("Underdark Rift").names == ["Underdark Rift"]


def test_a_failed_file_says_which_files_were_imported_before_it(db: Database, tmp_path: Path) -> None:
    broken = tmp_path / "ZZZ.json"
    broken.write_bytes(sample_bytes("AFC")[:5000])
    good = tmp_path / "AFC.json"
    good.write_bytes(sample_bytes("AFC"))
    other = tmp_path / "ELD.json"
    other.write_bytes(sample_bytes("ELD"))

    with pytest.raises(MalformedJSONError) as caught:
        db.import_path(good, broken, other)

    notes = getattr(caught.value, "__notes__", [])
    assert notes == ["1 of 3 file(s) were imported before this one (AFC.json); the 1 after it were not"]
    assert db.search("Underdark Rift").names == ["Underdark Rift"], "what was imported is indexed"


def test_translations_a_newer_set_file_drops_are_pruned(db: Database, tmp_path: Path) -> None:
    db.import_path(sample_file("AFC"))
    document = sample_set("AFC")
    for card in document["data"]["cards"]:
        card["foreignData"] = [
            entry for entry in card.get("foreignData", []) if entry["language"] != "German"
        ]

    db.import_path(write_json(tmp_path / "AFC.json", document))

    with db.session() as session:
        german = session.scalar(
            select(func.count()).select_from(Localization).where(Localization.language == "de")
        )
    assert german == 0


def test_the_bulk_full_text_fill_gives_the_same_index_as_the_trigger(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not db_url.startswith("sqlite"):
        pytest.skip("the bulk fill is SQLite's")
    with _open(tmp_path / "row.sqlite") as by_row:
        by_row.import_path(*(sample_file(code) for code in SAMPLE))
        expected = (
            documents(by_row),
            by_row.search("o:draw t:creature").names,
            by_row.search("lang:ja 稲妻").names,
        )
    monkeypatch.setattr(index, "BULK_MIN_CARDS", 0)
    with _open(tmp_path / "bulk.sqlite") as in_bulk:
        in_bulk.import_path(*(sample_file(code) for code in SAMPLE))
        found = (
            documents(in_bulk),
            in_bulk.search("o:draw t:creature").names,
            in_bulk.search("lang:ja 稲妻").names,
        )
        with in_bulk.engine.connect() as connection:
            for table in (
                "search_name",
                "search_type_line",
                "search_text",
                "search_rulings",
                "search_bigrams",
            ):
                connection.exec_driver_sql(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")
            triggers = connection.exec_driver_sql(
                "SELECT name FROM sqlite_master WHERE type = 'trigger'"
            ).scalars()
            assert "fts_search_documents_insert" in set(triggers)
    assert found == expected


def test_documents_built_in_the_worker_equal_those_built_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _open(tmp_path / "here.sqlite") as here:
        here.import_path(*(sample_file(code) for code in SAMPLE), parallel=False)
        expected = documents(here)
    monkeypatch.setattr(importer, "WORKER_MIN_CARDS", 0)
    with _open(tmp_path / "worker.sqlite") as worker:
        summary = worker.import_path(*(sample_file(code) for code in SAMPLE), parallel=True)
        assert summary.index.cards > 0
        assert documents(worker) == expected


def _open(path: Path) -> Database:
    return carddb.open(f"sqlite:///{path}")


def test_a_bulk_rebuild_on_postgresql_builds_the_gin_indexes_again(
    db_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("the GIN indexes are PostgreSQL's")
    with _open(tmp_path / "row.sqlite") as by_row:
        by_row.import_path(*(sample_file(code) for code in SAMPLE))
        expected = searched(by_row)
    monkeypatch.setattr(index, "BULK_MIN_CARDS", 0)
    monkeypatch.setattr(importer, "WORKER_MIN_CARDS", 0)  # the worker reads while the indexes are gone
    with carddb.open(db_url) as db:
        db.import_path(*(sample_file(code) for code in SAMPLE), parallel=True)
        with db.engine.connect() as connection:
            indexes = connection.exec_driver_sql(
                "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() "
                "AND tablename = 'search_documents' AND starts_with(indexname, 'fts_')"
            ).scalar()
        assert indexes == 8
        assert searched(db) == expected
