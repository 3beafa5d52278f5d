"""Bad input never corrupts the database: every failure is a typed error naming the file (and,
for broken JSON, the line and column), and whatever was stored before is still there, whole.

Inputs are built from the shipped sample (real MTGJSON set files cut down, see
``data/sample/README.md``): read, damaged on purpose, written to ``tmp_path``.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from samples import all_printings, card_record, sample_bytes, sample_file, sample_set, write_json
from sqlalchemy import select

import carddb
from carddb.database import Database
from carddb.db.models import CardSet
from carddb.errors import (
    DatabaseUnavailableError,
    MalformedJSONError,
    NotMTGJSONError,
    SourceError,
    UnknownLanguageError,
)
from carddb.ingest.loader import Loader
from carddb.ingest.records import SetBatch
from carddb.views import CardView

POSITION = re.compile(r"line (\d+), column (\d+)")
UNREACHABLE_PG = "postgresql://postgres@127.0.0.1:1/none"
# Throne of Eldraine cards: stored before each bad import, and checked afterwards.
STORED_CARDS = (("Glass Casket", "ja"), ("Return to Nature", "fr"), ("Realm-Cloaked Giant", "de"))


# -- building inputs --------------------------------------------------------------------------
def pretty_lines(code: str) -> list[str]:
    """A set file pretty-printed (one key per line), as a list of lines."""
    return json.dumps(sample_set(code), ensure_ascii=False, indent=2).splitlines()


# -- what is stored ----------------------------------------------------------------------------
def state(db: Database) -> tuple[dict[str, int], list[CardView]]:
    """Row counts and the full view of a few stored cards."""
    return db.counts(), [db.card(name, lang=lang) for name, lang in STORED_CARDS]


@pytest.fixture
def stored(db: Database) -> Database:
    """A database already holding Throne of Eldraine (ELD)."""
    db.import_path(sample_file("ELD"))
    return db


def stored_set_codes(db: Database) -> set[str]:
    with db.session() as session:
        return set(session.scalars(select(CardSet.code)))


# -- broken JSON -------------------------------------------------------------------------------
def test_a_truncated_set_file_is_malformed_json_named_with_its_position(
    stored: Database, tmp_path: Path
) -> None:
    raw = sample_bytes("AFC")
    cut = raw[: len(raw) // 2]
    path = tmp_path / "AFC.json"
    path.write_bytes(cut)
    before = state(stored)

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    error = caught.value
    assert error.path == path
    assert str(path) in str(error)
    assert POSITION.search(str(error))
    assert "truncated" in str(error)
    assert f"(byte {len(cut)})" in str(error), "the position is where the file ends"
    assert state(stored) == before


def test_a_truncated_file_gives_the_same_error_when_parsed_in_parallel(
    stored: Database, tmp_path: Path
) -> None:
    raw = sample_bytes("AFC")
    path = tmp_path / "AFC.json"
    path.write_bytes(raw[: len(raw) // 2])
    before = state(stored)
    with pytest.raises(MalformedJSONError) as sequential:
        stored.import_path(path, parallel=False)

    with pytest.raises(MalformedJSONError) as parallel:
        stored.import_path(path, parallel=True)

    assert str(parallel.value) == str(sequential.value)
    assert parallel.value.path == path
    assert state(stored) == before


def test_a_truncated_xz_download_is_malformed_json_naming_the_file(stored: Database, tmp_path: Path) -> None:
    compressed = sample_file("AFC").read_bytes()
    path = tmp_path / "AFC.json.xz"
    path.write_bytes(compressed[: len(compressed) // 2])
    before = state(stored)

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert state(stored) == before


def test_a_file_named_xz_that_is_not_xz_is_a_source_error(stored: Database, tmp_path: Path) -> None:
    path = tmp_path / "AFC.json.xz"
    path.write_bytes(sample_bytes("AFC"))
    before = state(stored)

    with pytest.raises(SourceError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert state(stored) == before


def stray_comma(lines: list[str], index: int) -> None:
    lines[index] += ","


def bare_word(lines: list[str], index: int) -> None:
    lines.insert(index, "        Underdark")


@pytest.mark.parametrize("damage", [stray_comma, bare_word], ids=["stray comma", "bare word"])
@pytest.mark.parametrize(
    "name_line",
    ['        "name": "Underdark Rift",', '        "name": "Return to Nature",'],
    ids=["early in the file", "past the first 64 KiB"],
)
def test_malformed_json_names_the_file_and_the_broken_line(
    stored: Database, tmp_path: Path, damage: Callable[[list[str], int], None], name_line: str
) -> None:
    lines = pretty_lines("AFC")
    broken = lines.index(name_line)
    damage(lines, broken)
    path = tmp_path / "AFC.json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = state(stored)

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert str(path) in str(caught.value)
    position = POSITION.search(str(caught.value))
    assert position is not None
    assert int(position[1]) == broken + 1
    assert state(stored) == before


def test_the_column_of_a_json_error_points_at_the_stray_comma(stored: Database, tmp_path: Path) -> None:
    lines = pretty_lines("AFC")
    broken = lines.index('        "name": "Underdark Rift",')
    lines[broken] += ","
    path = tmp_path / "AFC.json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert f"line {broken + 1}, column {len(lines[broken])}" in str(caught.value)


def test_a_json_error_after_japanese_text_names_the_right_line_readably(
    stored: Database, tmp_path: Path
) -> None:
    lines = pretty_lines("AFC")
    robe_ja = card_record(sample_set("AFC"), "Robe of Stars")["foreignData"]
    ja_text = next(entry["text"] for entry in robe_ja if entry["language"] == "Japanese")
    broken = lines.index("            " + json.dumps({"text": ja_text}, ensure_ascii=False)[1:-1] + ",")
    lines[broken] += ","
    path = tmp_path / "AFC.json"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    message = str(caught.value)
    assert f"line {broken + 1}," in message
    assert "b'" not in message and "\\x" not in message


# -- JSON that is not MTGJSON ----------------------------------------------------------------
# A JSON array or a Scryfall list page is a Scryfall file now (carddb.ingest.detect): the Scryfall
# importer refuses those that do not hold cards or rulings (tests/test_scryfall.py).
NOT_MTGJSON = {
    "a data object that is not a set": {"meta": {}, "data": {"foo": 1}},
}


@pytest.mark.parametrize("document", list(NOT_MTGJSON.values()), ids=list(NOT_MTGJSON))
def test_json_that_is_not_mtgjson_is_refused_naming_the_file(
    stored: Database, tmp_path: Path, document: object
) -> None:
    path = write_json(tmp_path / "cards.json", document)
    before = state(stored)

    with pytest.raises(NotMTGJSONError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert str(path) in str(caught.value)
    assert state(stored) == before


def test_an_empty_file_is_malformed_json_naming_the_file(stored: Database, tmp_path: Path) -> None:
    path = tmp_path / "AFC.json"
    path.write_bytes(b"")
    before = state(stored)

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert str(path) in str(caught.value)
    assert state(stored) == before


def test_a_foreign_data_entry_that_is_not_an_object_is_skipped_with_a_warning(
    stored: Database, tmp_path: Path
) -> None:
    document = sample_set("AFC")
    card_record(document, "Underdark Rift")["foreignData"] = ["German"]
    path = write_json(tmp_path / "AFC.json", document)

    summary = stored.import_path(path)

    assert any("not objects (Underdark Rift)" in warning for warning in summary.warnings)
    rift = stored.card("Underdark Rift", lang="de")
    assert rift.fallback
    assert rift.name == "Underdark Rift"


# -- odd but importable records ----------------------------------------------------------------
def test_an_unknown_language_is_kept_under_a_stable_tag_with_a_warning(
    stored: Database, tmp_path: Path
) -> None:
    document = sample_set("AFC")
    german = card_record(document, "Underdark Rift")["foreignData"][0]
    assert german["language"] == "German"
    german["language"] = "Klingon"
    path = write_json(tmp_path / "AFC.json", document)
    counts_before = stored.counts()
    casket_before = stored.card("Glass Casket", lang="ja")

    summary = stored.import_path(path)

    assert any("'Klingon'" in warning and "'x-klingon'" in warning for warning in summary.warnings)
    klingon = [count for count in stored.languages() if count.tag == "x-klingon"]
    assert [(k.english_name, k.localizations, k.printings) for k in klingon] == [("Klingon", 1, 1)]
    found = stored.card("Unterreich-Spalte")
    assert (found.english_name, found.language, found.name) == (
        "Underdark Rift",
        "x-klingon",
        "Unterreich-Spalte",
    )
    assert stored.card("Glass Casket", lang="ja") == casket_before
    assert all(stored.counts()[table] > counts_before[table] for table in counts_before)


def test_a_kept_unknown_language_can_be_asked_for_by_its_tag(stored: Database, tmp_path: Path) -> None:
    document = sample_set("AFC")
    german = card_record(document, "Underdark Rift")["foreignData"][0]
    german["language"] = "Klingon"
    stored.import_path(write_json(tmp_path / "AFC.json", document))

    assert stored.card("Underdark Rift", lang="x-klingon").name == german["name"]


def test_a_blank_language_name_is_skipped_with_a_warning(stored: Database, tmp_path: Path) -> None:
    document = sample_set("AFC")
    card_record(document, "Underdark Rift")["foreignData"][0]["language"] = " "

    summary = stored.import_path(write_json(tmp_path / "AFC.json", document))

    assert any("without a name or language" in warning for warning in summary.warnings)


MINIMAL_SET = {"code": "TST", "name": "Minimal Test Set"}


def test_a_card_with_only_the_required_fields_imports_and_can_be_looked_up(
    stored: Database, tmp_path: Path
) -> None:
    brazen = card_record(sample_set("AFR"), "Brazen Dwarf")
    document = {
        "meta": sample_set("ELD")["meta"],
        "data": {
            **MINIMAL_SET,
            "cards": [
                {
                    "name": brazen["name"],
                    "number": brazen["number"],
                    "type": brazen["type"],
                    "layout": brazen["layout"],
                    "identifiers": {"scryfallOracleId": brazen["identifiers"]["scryfallOracleId"]},
                }
            ],
        },
    }
    path = write_json(tmp_path / "TST.json", document)
    counts_before, cards_before = state(stored)

    summary = stored.import_path(path)

    assert summary.warnings == ()
    view = stored.card("Brazen Dwarf")
    assert view.oracle_id == brazen["identifiers"]["scryfallOracleId"]
    assert [(face.name, face.type_line, face.text, face.mana_cost, face.power) for face in view.faces] == [
        ("Brazen Dwarf", "Creature — Dwarf Shaman", None, None, None)
    ]
    assert [(p.set_code, p.collector_number, p.languages) for p in view.printings] == [
        ("TST", "134", ("en",))
    ]
    assert view.rulings == ()
    assert stored.counts()["printings"] == counts_before["printings"] + 1
    assert [stored.card(name, lang=lang) for name, lang in STORED_CARDS] == cards_before


def test_a_card_without_identifiers_is_keyed_by_its_name_with_a_warning(
    stored: Database, tmp_path: Path
) -> None:
    brazen = card_record(sample_set("AFR"), "Brazen Dwarf")
    del brazen["identifiers"]
    document = {"meta": sample_set("AFR")["meta"], "data": {**MINIMAL_SET, "cards": [brazen]}}
    path = write_json(tmp_path / "TST.json", document)
    counts_before, cards_before = state(stored)

    summary = stored.import_path(path)

    assert any("Brazen Dwarf" in warning and "scryfallOracleId" in warning for warning in summary.warnings)
    view = stored.card("Brazen Dwarf", lang="de")
    assert view.oracle_id == "name:Brazen Dwarf"
    assert view.english_name == "Brazen Dwarf"
    assert stored.counts()["printings"] == counts_before["printings"] + 1
    assert [stored.card(name, lang=lang) for name, lang in STORED_CARDS] == cards_before


def test_the_same_printings_in_a_second_file_are_not_duplicated(db: Database, tmp_path: Path) -> None:
    db.import_path(sample_file("AFC"))
    before = db.counts()
    rift_before = db.card("Underdark Rift", lang="ja")
    path = write_json(tmp_path / "AllPrintings.json", all_printings("AFC"))

    db.import_path(path)

    assert db.counts() == before
    rift = db.card("Underdark Rift", lang="ja")
    assert rift == rift_before
    assert [(p.set_code, p.collector_number) for p in rift.printings] == [("AFC", "62")]


# -- failures in the middle of a file ----------------------------------------------------------
class WriteFailed(RuntimeError):
    """Raised by the patched loader after the first set of a file is written."""


@pytest.mark.parametrize("parallel", [False, True], ids=["sequential", "parallel"])
def test_a_failure_half_way_through_a_file_rolls_that_file_back(
    stored: Database, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parallel: bool
) -> None:
    path = write_json(tmp_path / "AllPrintings.json", all_printings("AFC", "AFR", "ELD"))
    before = state(stored)
    original = Loader.write
    written: list[str] = []

    def write_one_set_then_fail(self: Loader, batch: SetBatch) -> Any:
        if written:
            raise WriteFailed(f"failing on {batch.set.code}")
        result = original(self, batch)
        written.append(batch.set.code)
        return result

    monkeypatch.setattr(Loader, "write", write_one_set_then_fail)

    with pytest.raises((WriteFailed, SourceError)):
        stored.import_path(path, parallel=parallel)

    assert written == ["AFC"]
    assert state(stored) == before
    assert stored_set_codes(stored) == {"ELD"}


KILLED_IMPORT = """
import os, signal, sys
import carddb
from carddb.ingest.loader import Loader

url, first, second = sys.argv[1:4]
db = carddb.open(url)
db.import_path(first, parallel=False)

original = Loader.write
batches = []

def write_then_die(self, batch):
    batches.append(batch.set.code)
    if len(batches) == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return original(self, batch)

Loader.write = write_then_die
db.import_path(second, parallel=False)
print("not killed")
"""


@pytest.fixture
def sqlite_url(db_url: str) -> str:
    if not db_url.startswith("sqlite"):
        pytest.skip("killing an import mid-file is checked on an SQLite file")
    return db_url


def test_an_import_killed_half_way_leaves_the_database_as_before_that_file(
    sqlite_url: str, tmp_path: Path
) -> None:
    second = write_json(tmp_path / "AllPrintings.json", all_printings("AFC", "AFR"))

    run = subprocess.run(
        [sys.executable, "-c", KILLED_IMPORT, sqlite_url, str(sample_file("ELD")), str(second)],
        capture_output=True,
        text=True,
        timeout=300,
    )

    assert run.returncode == -signal.SIGKILL, run.stderr
    with carddb.open(f"sqlite:///{tmp_path / 'reference.sqlite'}") as reference:
        reference.import_path(sample_file("ELD"))
        expected = state(reference)
    with carddb.open(sqlite_url) as db:
        assert state(db) == expected
        assert stored_set_codes(db) == {"ELD"}
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"


# -- databases that cannot be opened -----------------------------------------------------------
def test_an_unreachable_postgresql_url_is_database_unavailable() -> None:
    with pytest.raises(DatabaseUnavailableError) as caught:
        carddb.open(UNREACHABLE_PG)

    assert "127.0.0.1" in str(caught.value)


def test_an_sqlite_url_in_a_missing_folder_is_database_unavailable(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'missing' / 'carddb.sqlite'}"

    with pytest.raises(DatabaseUnavailableError) as caught:
        carddb.open(url)

    assert str(tmp_path / "missing") in str(caught.value)
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize(
    "url",
    [UNREACHABLE_PG, "sqlite:////nonexistent-carddb-folder/carddb.sqlite"],
    ids=["unreachable PostgreSQL", "SQLite in a missing folder"],
)
def test_the_cli_reports_an_unusable_database_in_one_line(url: str) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "carddb.cli", "--db", url, "card", "Underdark Rift"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )

    assert run.returncode != 0
    assert run.stdout == ""
    assert "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("carddb: cannot open database")


# -- lookups ---------------------------------------------------------------------------------------
def test_an_unknown_lookup_language_lists_the_choices(sample_db: Database) -> None:
    with pytest.raises(UnknownLanguageError) as caught:
        sample_db.card("Underdark Rift", lang="xx")

    assert caught.value.value == "xx"
    assert {"en", "de", "ja"} <= set(caught.value.choices)
    assert "de" in str(caught.value) and "ja" in str(caught.value)
