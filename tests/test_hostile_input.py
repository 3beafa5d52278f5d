"""Hostile and odd input: deep nesting, huge values, wrong types and encodings are refused (or the
value left out) with one clear message naming the file, the position or the card and the field,
in bounded memory and at once; what was stored before is unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from samples import card_record, sample_bytes, sample_file, sample_set, write_json

from carddb.database import Database
from carddb.errors import MalformedJSONError, NotMTGJSONError, SourceError
from carddb.ingest.scryfall import NotScryfallError
from carddb.ingest.values import ValueTooLongError

DEPTH = 100_000


@pytest.fixture
def stored(db: Database) -> Database:
    """A database already holding Throne of Eldraine (ELD)."""
    db.import_path(sample_file("ELD"))
    return db


def with_raw_field(code: str, card: str, field: str, raw_json: str, tmp_path: Path) -> Path:
    """A set file whose card ``card`` has ``field`` set to the JSON text ``raw_json`` (written as
    text, so it may be anything, however deep or long)."""
    document = sample_set(code)
    card_record(document, card)[field] = "@@HOLE@@"
    text = json.dumps(document, ensure_ascii=False).replace('"@@HOLE@@"', raw_json)
    path = tmp_path / f"{code}.json"
    path.write_text(text, encoding="utf-8")
    return path


# -- deep nesting, huge values ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("field", "raw"),
    [
        ("text", "[" * DEPTH + "]" * DEPTH),  # a field carddb keeps
        ("prices", "[" * DEPTH + "]" * DEPTH),  # a field carddb discards
        ("legalities", '{"a":' * DEPTH + "1" + "}" * DEPTH),
    ],
    ids=["arrays in the rules text", "arrays in a discarded field", "objects in a discarded field"],
)
def test_values_nested_100000_deep_are_refused_naming_the_file_and_position(
    stored: Database, tmp_path: Path, field: str, raw: str
) -> None:
    path = with_raw_field("AFC", "Underdark Rift", field, raw, tmp_path)
    before = stored.counts()

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert "nested too deeply" in str(caught.value)
    assert "line 1, column" in str(caught.value)
    assert stored.counts() == before


def test_a_set_field_carddb_skips_may_nest_deeply_only_up_to_a_limit(
    stored: Database, tmp_path: Path
) -> None:
    document = sample_set("AFC")
    document["data"]["booster"] = "@@HOLE@@"
    path = tmp_path / "AFC.json"
    path.write_text(json.dumps(document).replace('"@@HOLE@@"', "[" * DEPTH + "]" * DEPTH), encoding="utf-8")

    with pytest.raises(MalformedJSONError, match="nested too deeply"):
        stored.import_path(path)


def test_a_50_mb_card_name_is_refused_naming_the_card_and_the_field(stored: Database, tmp_path: Path) -> None:
    document = sample_set("AFC")
    card_record(document, "Underdark Rift")["name"] = "Rift" * (50_000_000 // 4)
    path = write_json(tmp_path / "AFC.json", document)
    before = stored.counts()

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert caught.value.path == path
    assert "a value longer than" in str(caught.value)
    assert stored.counts() == before


def test_a_long_field_within_a_card_of_normal_size_is_refused_naming_card_and_field(
    stored: Database, tmp_path: Path
) -> None:
    document = sample_set("AFC")
    card_record(document, "Underdark Rift")["text"] = "x" * 30_000
    path = write_json(tmp_path / "AFC.json", document)
    before = stored.counts()

    with pytest.raises(ValueTooLongError) as caught:
        stored.import_path(path)

    assert "'Underdark Rift'" in str(caught.value) and "'text'" in str(caught.value)
    assert "30,000 characters long (at most 20,000)" in str(caught.value)
    assert stored.counts() == before


def test_a_huge_number_is_refused_naming_its_position(stored: Database, tmp_path: Path) -> None:
    path = with_raw_field("AFC", "Underdark Rift", "manaValue", "9" * 100_000, tmp_path)

    with pytest.raises(MalformedJSONError) as caught:
        stored.import_path(path)

    assert "line 1, column" in str(caught.value)


HOSTILE = """
import sys, carddb
from carddb.errors import CarddbError
from carddb.measure import peak_memory_mb
db = carddb.open(sys.argv[1])
try:
    db.import_path(sys.argv[2])
except CarddbError as error:
    print(type(error).__name__)
print(int(peak_memory_mb()))
"""


def test_deep_nesting_is_refused_in_bounded_memory(db_url: str, tmp_path: Path) -> None:
    if not db_url.startswith("sqlite"):
        pytest.skip("memory is measured on one backend")
    path = with_raw_field("AFC", "Underdark Rift", "text", "[" * 300_000 + "]" * 300_000, tmp_path)

    run = subprocess.run(
        [sys.executable, "-c", HOSTILE, db_url, str(path)], capture_output=True, text=True, timeout=120
    )

    error, peak_mb = run.stdout.split()
    assert error == "MalformedJSONError"
    assert int(peak_mb) < 400


# -- encodings and shapes -----------------------------------------------------------------------
def test_a_utf16_file_is_refused_saying_it_is_utf16(stored: Database, tmp_path: Path) -> None:
    path = tmp_path / "AFC.json"
    path.write_bytes(sample_bytes("AFC").decode("utf-8").encode("utf-16"))

    with pytest.raises(SourceError, match="UTF-16 text: carddb reads UTF-8"):
        stored.import_path(path)


def test_a_utf8_file_with_a_byte_order_mark_imports(db: Database, tmp_path: Path) -> None:
    path = tmp_path / "AFC.json"
    path.write_bytes(b"\xef\xbb\xbf" + sample_bytes("AFC"))

    summary = db.import_path(path)

    assert summary.sets == 1
    assert db.card("Underdark Rift").name == "Underdark Rift"


@pytest.mark.parametrize("value", [None, 42, "a string"], ids=["null", "a number", "a string"])
def test_a_json_value_that_is_not_a_document_says_what_it_holds(
    stored: Database, tmp_path: Path, value: object
) -> None:
    path = write_json(tmp_path / "cards.json", value)

    with pytest.raises(NotMTGJSONError) as caught:
        stored.import_path(path)

    assert f"one JSON value ({json.dumps(value)})" in str(caught.value)


def test_a_scryfall_list_page_whose_data_is_not_a_list_is_refused(stored: Database, tmp_path: Path) -> None:
    path = write_json(tmp_path / "page.json", {"object": "list", "data": {"not": "a list"}})

    with pytest.raises(NotScryfallError, match="'data' is not a list of cards"):
        stored.import_path(path)


# -- values of the wrong kind -------------------------------------------------------------------
def import_with(stored: Database, tmp_path: Path, change: dict[str, Any]) -> Any:
    """Import AFC with Underdark Rift's record changed (written with ASCII escapes, so that even a
    lone surrogate is written as the escape a broken source would have)."""
    document = sample_set("AFC")
    card_record(document, "Underdark Rift").update(change)
    path = tmp_path / "AFC.json"
    path.write_text(json.dumps(document), encoding="ascii")
    return stored.import_path(path)


def test_a_mana_value_written_as_text_is_read_with_a_warning(stored: Database, tmp_path: Path) -> None:
    summary = import_with(stored, tmp_path, {"manaValue": "3"})

    assert any("'manaValue'" in w and "'3' is written as text" in w for w in summary.warnings)
    assert stored.search('!"Underdark Rift" mv=3').total == 1


def test_a_mana_value_that_is_not_a_number_is_left_out_with_a_warning(
    stored: Database, tmp_path: Path
) -> None:
    summary = import_with(stored, tmp_path, {"manaValue": "three"})

    assert any("'manaValue'" in w and "expected a number" in w for w in summary.warnings)


def test_rules_text_that_is_a_number_is_left_out_with_a_warning(stored: Database, tmp_path: Path) -> None:
    summary = import_with(stored, tmp_path, {"text": 42})

    assert any("'Underdark Rift'" in w and "'text'" in w and "the number 42" in w for w in summary.warnings)
    assert stored.card("Underdark Rift").faces[0].text is None


def test_a_lone_surrogate_is_replaced_with_a_warning(stored: Database, tmp_path: Path) -> None:
    summary = import_with(stored, tmp_path, {"flavorText": "Dark \ud800 depths"})

    assert any("lone surrogates" in w and "'flavorText'" in w for w in summary.warnings)


def test_a_nul_character_is_removed_with_a_warning(stored: Database, tmp_path: Path) -> None:
    summary = import_with(stored, tmp_path, {"text": "Exile\u0000 it."})

    assert any("control characters removed" in w and "'text'" in w for w in summary.warnings)
    assert stored.card("Underdark Rift").faces[0].text == "Exile it."


def test_a_garbage_release_date_is_left_out_with_a_warning(stored: Database, tmp_path: Path) -> None:
    document = sample_set("AFC")
    document["data"]["releaseDate"] = "someday"

    summary = stored.import_path(write_json(tmp_path / "AFC.json", document))

    assert any("set AFC" in w and "'releaseDate'" in w and "'someday'" in w for w in summary.warnings)


def test_a_30_digit_multiverse_id_is_left_out_with_a_warning(stored: Database, tmp_path: Path) -> None:
    document = sample_set("AFC")
    card_record(document, "Underdark Rift")["identifiers"]["multiverseId"] = "1" * 30

    summary = stored.import_path(write_json(tmp_path / "AFC.json", document))

    assert any("multiverseId" in w and "'Underdark Rift'" in w for w in summary.warnings)


def test_two_cards_with_one_collector_number_keep_the_first_with_a_warning(
    stored: Database, tmp_path: Path
) -> None:
    document = sample_set("AFC")
    rift = card_record(document, "Underdark Rift")
    other = next(c for c in document["data"]["cards"] if c["name"] != rift["name"])
    other["number"] = rift["number"]

    summary = stored.import_path(write_json(tmp_path / "AFC.json", document))

    first, second = sorted((rift, other), key=lambda card: document["data"]["cards"].index(card))
    assert any(
        f"{second['name']!r} has the collector number {rift['number']!r} of {first['name']!r}" in w
        for w in summary.warnings
    )


def test_a_repeated_problem_is_one_warning_with_a_count(stored: Database, tmp_path: Path) -> None:
    document = sample_set("AFC")
    for card in document["data"]["cards"]:
        card["manaValue"] = "x"

    summary = stored.import_path(write_json(tmp_path / "AFC.json", document))

    lines = [w for w in summary.warnings if "'manaValue'" in w]
    assert len(lines) == 1
    assert f"(and {len(document['data']['cards']) - 1:,} more like it)" in lines[0]
