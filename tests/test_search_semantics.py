"""Scryfall's semantics on real cards (``tests/fixtures/semantics/``), on SQLite and PostgreSQL:
the golden queries of ``tests/golden/search/semantics.toml`` (printing terms on one printing,
colours of all faces, ``o:`` without reminder text, English type words first, legalities,
artists, flavor, borders, frames, games, extras), the malformed and hostile queries of
``tests/golden/search/errors.toml``, ``order:``/``direction:`` in the query and on the API,
fuzzy names and size limits."""

from __future__ import annotations

import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import BACKENDS, fresh_database_url

import carddb
from carddb.errors import CardNotFoundError
from carddb.search.errors import QuerySyntaxError
from carddb.search.parse import MAX_LENGTH, MAX_TERMS, parse_query
from carddb.search.results import SearchValueError

FIXTURE = Path(__file__).parent / "fixtures" / "semantics"
GOLDEN = Path(__file__).parent / "golden" / "search"


def _entries(name: str) -> list[dict[str, Any]]:
    with (GOLDEN / name).open("rb") as file:
        return list(tomllib.load(file)["query"])


SEMANTICS = _entries("semantics.toml")
ERRORS = _entries("errors.toml")


@pytest.fixture(scope="module", params=BACKENDS)
def semantics_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[carddb.Database]:
    """The semantics fixture imported once per backend for the whole module."""
    with fresh_database_url(request.param, tmp_path_factory.mktemp("semantics")) as url:
        database = carddb.open(url)
        database.import_path(FIXTURE)
        yield database
        database.close()


def test_the_fixture_is_small() -> None:
    assert sum(f.stat().st_size for f in FIXTURE.glob("*.json.xz")) < 100_000
    assert len(SEMANTICS) >= 30 and len({e["q"] for e in SEMANTICS}) == len(SEMANTICS)


@pytest.mark.parametrize("entry", SEMANTICS, ids=[e["q"] for e in SEMANTICS])
def test_golden(semantics_db: carddb.Database, entry: dict[str, Any]) -> None:
    result = semantics_db.search(entry["q"], limit=100)
    assert sorted(result.names) == sorted(entry["cards"]), entry["why"]
    assert result.total == len(entry["cards"])  # totals count cards, not printings


@pytest.mark.parametrize("entry", ERRORS, ids=[e["q"] for e in ERRORS])
def test_a_bad_query_is_a_typed_error_at_its_spot(
    semantics_db: carddb.Database, entry: dict[str, Any]
) -> None:
    with pytest.raises(QuerySyntaxError) as caught:
        semantics_db.search(entry["q"])
    error = caught.value
    assert type(error).__name__ == entry["error"]
    assert error.reason.startswith(entry["reason"])
    assert error.position == entry["position"]
    assert "\n" not in str(error) and len(str(error)) < 400
    assert error.caret.splitlines()[1].endswith("^")


# -- regular expressions in linear time ------------------------------------------------------------
@pytest.mark.parametrize("query", ["o:/^(\\w+\\s?)*$/", "rul:/(.*)*x/", "o:/(\\w+)*!/", "o:/(.*a){12}/"])
def test_a_regex_bomb_finishes_in_linear_time(semantics_db: carddb.Database, query: str) -> None:
    """Patterns that backtrack exponentially in Python's re (each ran past 120 s on the whole
    pool) run under RE2 on SQLite and under a statement time limit on PostgreSQL."""
    semantics_db.search(query)


def test_sqlites_regexp_is_linear_on_a_long_text() -> None:
    from carddb.search.regex import sqlite_regexp

    assert sqlite_regexp("(?i)^(\\w+\\s?)*$", "word " * 5_000 + "!") is False
    assert sqlite_regexp("(?i)DRAW", "Draw a card.") is True


# -- size limits -----------------------------------------------------------------------------------
def test_a_huge_query_is_refused_before_it_is_parsed() -> None:
    started = time.perf_counter()
    for query in (" ".join(["o:a"] * 10_000), '"' + "a" * 100_000 + '"'):
        with pytest.raises(QuerySyntaxError) as caught:
            parse_query(query)
        assert caught.value.reason.startswith(f"query longer than {MAX_LENGTH:,} characters")
        assert len(caught.value.query) == MAX_LENGTH  # the error does not carry the whole query
    assert time.perf_counter() - started < 5  # generous: the point is that nothing is parsed


def test_a_query_of_too_many_terms_is_refused_at_the_first_term_too_many() -> None:
    query = " ".join(["c:r"] * (MAX_TERMS + 1))
    with pytest.raises(QuerySyntaxError) as caught:
        parse_query(query)
    assert caught.value.reason.startswith(f"query with more than {MAX_TERMS} terms")
    assert caught.value.position == 4 * MAX_TERMS


def test_the_most_terms_allowed_run_on_both_databases(semantics_db: carddb.Database) -> None:
    assert semantics_db.search(" ".join(["o:a"] * MAX_TERMS)).total > 0
    assert semantics_db.search(" or ".join(["c:r"] * MAX_TERMS)).total > 0


def test_a_byte_that_is_not_utf8_is_a_typed_error() -> None:
    with pytest.raises(QuerySyntaxError, match="not UTF-8"):
        parse_query("\udcff")


@pytest.mark.parametrize("page", [0, 10**20])
def test_a_page_out_of_range_is_a_typed_error(semantics_db: carddb.Database, page: int) -> None:
    with pytest.raises(SearchValueError, match="page must be"):
        semantics_db.search("t:artifact", page=page)


# -- order: and direction: ----------------------------------------------------------------------
def test_order_in_the_query_sorts_with_scryfalls_names(semantics_db: carddb.Database) -> None:
    by_cmc = semantics_db.search("t:artifact order:cmc direction:desc").names
    assert by_cmc == ["Ornithopter", "Black Lotus"] or by_cmc == ["Black Lotus", "Ornithopter"]
    assert semantics_db.search("c:rg order:name direction:desc").names == [
        "Road // Ruin",
        "Research // Development",
        "Heaven // Earth",
    ]
    assert semantics_db.search("t:creature order:power").names[0] == "Goldspan Dragon"  # 4, highest first


def test_the_query_order_wins_over_the_api_argument(semantics_db: carddb.Database) -> None:
    names = semantics_db.search("c:rg order:name", order="released").names
    assert names == ["Heaven // Earth", "Research // Development", "Road // Ruin"]
    result = semantics_db.search("c:rg", order="cmc", direction="desc")
    assert (result.order, result.direction, result.unique) == ("mv", "desc", "cards")


def test_cards_without_a_value_come_last_on_both_databases(semantics_db: carddb.Database) -> None:
    """Lands have no mana value worth sorting by first: SQLite sorts NULL first and PostgreSQL
    last, carddb puts them last on both."""
    names = semantics_db.search("mv>=0 or t:land", order="cmc", limit=100).names
    assert names[0] in ("Black Lotus", "Mishra's Factory", "Ornithopter")


# -- fuzzy names ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "english"),
    [
        ("goldspan", "Goldspan Dragon"),  # a prefix
        ("Goldspan Dragn", "Goldspan Dragon"),  # a typo
        ("Unterreich Spalte", "Underdark Rift"),  # German, the hyphen ignored
        ("faille de l outreterre", "Underdark Rift"),  # French, apostrophe and accents ignored
        ("mishras factory", "Mishra's Factory"),
        ("HEAVEN EARTH", "Heaven // Earth"),
    ],
)
def test_a_fuzzy_name_finds_the_one_card_that_clearly_matches(
    semantics_db: carddb.Database, typed: str, english: str
) -> None:
    assert semantics_db.card(typed, fuzzy=True).english_name == english
    assert semantics_db.named(typed).english_name == english


def test_a_fuzzy_name_is_shown_in_the_language_it_was_typed_in(semantics_db: carddb.Database) -> None:
    assert semantics_db.named("Unterreich Spalte").name == "Unterreich-Spalte"


def test_without_fuzzy_a_near_name_is_not_found_but_suggested(semantics_db: carddb.Database) -> None:
    with pytest.raises(CardNotFoundError) as caught:
        semantics_db.card("Goldspan Dragn")
    assert caught.value.suggestions[0] == "Goldspan Dragon"


def test_a_prefix_shorter_than_three_letters_finds_nothing(semantics_db: carddb.Database) -> None:
    with pytest.raises(CardNotFoundError):
        semantics_db.named("r")  # not every card starting with r


def test_suggestions_are_whole_names_without_noise(semantics_db: carddb.Database) -> None:
    with pytest.raises(CardNotFoundError) as caught:
        semantics_db.named("Blak Lotis Dragon Lightning")
    assert caught.value.suggestions == ()


# -- unique:prints -------------------------------------------------------------------------------
def test_unique_prints_lists_the_printings_that_meet_the_printing_terms(
    semantics_db: carddb.Database,
) -> None:
    result = semantics_db.search("s:atq -is:reprint unique:prints", limit=100)
    assert result.unique == "prints"
    assert result.total == 7  # Atog twice, Mishra's Factory's four variants, Ornithopter
    assert {(hit.english_name, hit.set_code) for hit in result.cards} == {
        ("Atog", "ATQ"),
        ("Mishra's Factory", "ATQ"),
        ("Ornithopter", "ATQ"),
    }


def test_unique_prints_shows_every_printing_of_a_card_newest_first(semantics_db: carddb.Database) -> None:
    result = semantics_db.search("ornithopter", unique="prints")
    assert [(hit.set_code, hit.collector_number, hit.released_at) for hit in result.cards] == [
        ("M15", "223", "2014-07-18"),
        ("ATQ", "60", "1994-03-04"),
    ]
    assert semantics_db.search("ornithopter").cards[0].set_code is None  # one per card: no printing


def test_unique_art_is_refused_not_ignored(semantics_db: carddb.Database) -> None:
    with pytest.raises(SearchValueError, match="unique:art is not supported"):
        semantics_db.search("ornithopter", unique="art")


def test_a_database_failure_is_one_line_without_the_statement(tmp_path: Path) -> None:
    """A search the database cannot run (here: a full-text table gone) is a typed error naming
    the database's reason, never the SQL (a query of many terms made 311 KB of it)."""
    from sqlalchemy import text

    from carddb.search.results import SearchDatabaseError

    with carddb.open(f"sqlite:///{tmp_path / 'broken.sqlite'}") as database:
        database.import_path(FIXTURE / "LEA.json.xz")
        with database.engine.begin() as connection:
            connection.execute(text("DROP TABLE search_name"))
        with pytest.raises(SearchDatabaseError) as caught:
            database.search("lotus")
    message = str(caught.value)
    assert "no such table" in message and "SELECT" not in message and "\n" not in message


def test_printing_facts_and_legalities_come_from_scryfall_files_too(tmp_path: Path) -> None:
    """A real Scryfall list page (2019: finishes as the foil and nonfoil flags of the time)."""
    page = Path(__file__).parent / "fixtures" / "scryfall" / "cards-page-multilang-2019.json.xz"
    with carddb.open(f"sqlite:///{tmp_path / 'scryfall.sqlite'}") as database:
        database.import_path(page)
        assert database.search('a:"mike sass"').names == ["Simic Signet"]
        assert "Simic Signet" in database.search("s:gk2 is:reprint border:black frame:2015", limit=100).names
        assert database.search("f:commander t:artifact", limit=100).total > 0
        assert database.search("f:standard t:artifact").total == 0  # "not_legal" is no row
        assert database.search("is:foil game:paper", limit=100).total > 0


def test_a_search_past_the_statement_time_is_a_typed_error_on_postgresql(
    semantics_db: carddb.Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL runs patterns with its own engine: every search's statements are bounded in
    time (20 s; here a millisecond, so that the regex bomb is stopped)."""
    if semantics_db.engine.dialect.name != "postgresql":
        pytest.skip("SQLite's patterns are RE2's, linear in time: no statement time limit")
    from carddb.search import run
    from carddb.search.results import SearchTimeoutError

    monkeypatch.setattr(run, "STATEMENT_SECONDS", 0.001)
    # the fixture is small: a statement may end within the millisecond, so the bomb is heavier
    # (one pattern per letter) and asked again until one is stopped
    bomb = " or ".join(["o:/^(\\w+\\s?)*$/", "rul:/(.*)*x/", *(f"fo:/(.*{c}){{12}}/" for c in "aeiorstln")])
    caught: SearchTimeoutError | None = None
    for _ in range(20):
        try:
            semantics_db.search(bomb)
        except SearchTimeoutError as error:
            caught = error
            break
    assert caught is not None, "no search was stopped at the statement time"
    assert "longer than" in str(caught) and "\n" not in str(caught)
    monkeypatch.undo()
    assert semantics_db.search("t:artifact").total == 2  # the session is usable again


def test_a_database_from_before_revision_0005_searches_the_new_way_after_upgrading(db_url: str) -> None:
    """Down to 0004 and up again: the card colours are filled from the faces, the documents lose
    their reminder text and gain the full text (every one written again), and the printings
    stored before know no reprint flag, so is:reprint falls back to an earlier imported set."""
    from carddb.db import migrate

    with carddb.open(db_url) as database:
        database.import_path(FIXTURE)
        migrate.downgrade(database.engine, "0004")
        migrate.upgrade(database.engine)
        assert sorted(database.search("c:rg t:instant").names) == [
            "Heaven // Earth",
            "Research // Development",
            "Road // Ruin",
        ]
        assert database.search('o:"draw a card" kw:cycling t:creature').names == []
        assert database.search('fo:"draw a card" kw:cycling t:creature').names == ["Oketra's Attendant"]
        assert sorted(database.search("s:atq -is:reprint").names) == [
            "Atog",
            "Mishra's Factory",
            "Ornithopter",
        ]
