"""``carddb serve``'s Scryfall API: the endpoints of https://scryfall.com/docs/api answered from
the served fixture database (on SQLite and PostgreSQL), with Scryfall's objects and errors."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import httpx
import pytest
from conftest import BACKENDS, fresh_database_url
from serve_support import fill, free_port
from starlette.testclient import TestClient

import carddb
from carddb.scryfall_json import derived_id
from carddb.search import index
from carddb.serve.app import create_app
from carddb.serve.backend import Backend
from carddb.serve.errors import ApiError

UNDERDARK_RIFT_ID = "da7b5c5b-fba1-4993-9779-bef96bcb0064"


@pytest.fixture(scope="module", params=BACKENDS)
def served_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with fresh_database_url(request.param, tmp_path_factory.mktemp("served")) as url:
        fill(url)
        yield url


@pytest.fixture(scope="module")
def client(served_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(served_url, page_size=10, timeout=3)) as test_client:
        yield test_client


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["object"] == "error"
    assert (body["status"], body["code"]) == (status, code)
    assert "Traceback" not in response.text
    return body


# -- search -----------------------------------------------------------------------------------------
def test_a_search_is_a_list_of_card_objects_in_the_query_language(client: TestClient) -> None:
    found = client.get("/cards/search", params={"q": "lang:ja 稲妻"}).json()
    assert found["object"] == "list"
    assert (found["total_cards"], found["has_more"]) == (1, False)
    assert "next_page" not in found
    (bolt,) = found["data"]
    assert (bolt["object"], bolt["name"], bolt["lang"]) == ("card", "Demon Bolt", "ja")
    assert bolt["printed_name"] == "悪魔の稲妻"
    assert bolt["set"] == "khm"


def test_a_search_in_english_shows_english_printings(client: TestClient) -> None:
    found = client.get("/cards/search", params={"q": "t:creature c:r"}).json()
    assert found["total_cards"] == len(found["data"]) > 0
    assert {card["lang"] for card in found["data"]} == {"en"}
    assert all("printed_name" not in card for card in found["data"])


def test_pages_follow_next_page_to_the_last(client: TestClient) -> None:
    first = client.get("/cards/search", params={"q": "mv>=0", "order": "name"}).json()
    assert first["has_more"] is True and len(first["data"]) == 10
    total = first["total_cards"]
    names = [card["name"] for card in first["data"]]
    page = first
    while page["has_more"]:
        page = client.get(page["next_page"]).json()
        names.extend(card["name"] for card in page["data"])
    assert len(names) == len(set(names)) == total
    assert names == sorted(names, key=str.casefold)


def test_a_page_past_the_end_is_not_found(client: TestClient) -> None:
    body = _error(client.get("/cards/search", params={"q": "c:r", "page": "99"}), 404, "not_found")
    assert "past the end" in body["details"]
    _error(client.get("/cards/search", params={"q": "c:r", "page": "9" * 30}), 404, "not_found")


def test_a_malformed_query_is_a_bad_request_with_its_caret(client: TestClient) -> None:
    body = _error(client.get("/cards/search", params={"q": "t:creature (c:r"}), 400, "bad_request")
    assert body["details"].splitlines()[-2:] == ["t:creature (c:r", "               ^"]


def test_an_unknown_keyword_suggests_the_known_one(client: TestClient) -> None:
    body = _error(client.get("/cards/search", params={"q": "colr:red"}), 400, "bad_request")
    assert "unknown keyword 'colr'" in body["details"]


def test_a_query_over_a_thousand_characters_is_refused(client: TestClient) -> None:
    body = _error(client.get("/cards/search", params={"q": "o:a " * 251}), 400, "bad_request")
    assert "1,000" in body["details"]


def test_a_query_matching_nothing_is_not_found(client: TestClient) -> None:
    _error(client.get("/cards/search", params={"q": "t:dinosaur"}), 404, "not_found")


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"q": "c:r", "order": "usd"}, "choose one of"),
        ({"q": "c:r", "unique": "prints"}, "unique=prints is not supported"),
        ({"q": "c:r", "dir": "sideways"}, "dir must be"),
        ({"q": "c:r", "page": "0"}, "at least 1"),
        ({"q": "c:r", "page": "two"}, "whole number"),
        ({"q": "c:r", "include_multilingual": "maybe"}, "true or false"),
        ({"q": ""}, "needs a query"),
    ],
)
def test_search_parameters_it_cannot_honour_are_refused(
    client: TestClient, params: dict[str, str], words: str
) -> None:
    assert words in _error(client.get("/cards/search", params=params), 400, "bad_request")["details"]


def test_answers_are_json_only_and_pretty_on_request(client: TestClient) -> None:
    assert (
        "JSON only"
        in _error(client.get("/cards/search", params={"q": "c:r", "format": "csv"}), 400, "bad_request")[
            "details"
        ]
    )
    _error(client.get("/cards/afc/62", params={"format": "image"}), 400, "bad_request")
    pretty = client.get("/cards/afc/62", params={"pretty": "true"})
    assert pretty.text.startswith('{\n  "object": "card",')
    assert client.get("/cards/afc/62", params={"format": "json"}).json()["id"] == UNDERDARK_RIFT_ID


def test_scryfall_order_names_are_accepted(client: TestClient) -> None:
    found = client.get("/cards/search", params={"q": "c:r", "order": "cmc"}).json()
    values = [card["cmc"] for card in found["data"]]
    assert values == sorted(values)


# -- named and autocomplete -------------------------------------------------------------------------
def test_named_exact_finds_a_card_by_any_of_its_names(client: TestClient) -> None:
    for name in ("Underdark Rift", "underdark rift", "Unterreich-Spalte"):
        card = client.get("/cards/named", params={"exact": name}).json()
        assert (card["name"], card["lang"], card["id"]) == ("Underdark Rift", "en", UNDERDARK_RIFT_ID)


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Undrdark Rift", "Underdark Rift"),  # a typo
        ("Unterreich Spalte", "Underdark Rift"),  # another language, punctuation left out
        ("faille de l outreterre", "Underdark Rift"),
        ("goldspan", "Goldspan Dragon"),  # the start of a name
        ("Goldspan Dragn", "Goldspan Dragon"),
    ],
)
def test_named_fuzzy_resolves_what_one_card_clearly_fits(client: TestClient, typed: str, name: str) -> None:
    assert client.get("/cards/named", params={"fuzzy": typed}).json()["name"] == name


def test_named_fuzzy_says_when_several_cards_fit(client: TestClient) -> None:
    body = _error(client.get("/cards/named", params={"fuzzy": "Growth"}), 404, "not_found")
    assert body["type"] == "ambiguous"
    assert "Abundant Growth" in body["details"] and "Rampant Growth" in body["details"]


def test_named_with_a_set_gives_the_printing_in_that_set(client: TestClient) -> None:
    eld = client.get("/cards/named", params={"exact": "Return to Nature", "set": "eld"}).json()
    afc = client.get("/cards/named", params={"exact": "Return to Nature", "set": "AFC"}).json()
    assert (eld["set"], eld["collector_number"]) == ("eld", "173")
    assert (afc["set"], afc["collector_number"]) == ("afc", "169")
    _error(client.get("/cards/named", params={"exact": "Return to Nature", "set": "khm"}), 404, "not_found")


def test_named_unknown_or_without_a_name_is_an_error(client: TestClient) -> None:
    _error(client.get("/cards/named", params={"exact": "Grizzly Bears"}), 404, "not_found")
    _error(client.get("/cards/named"), 400, "bad_request")
    _error(client.get("/cards/named", params={"exact": "x", "fuzzy": "y"}), 400, "bad_request")


def test_autocomplete_is_a_catalog_of_names(client: TestClient) -> None:
    found = client.get("/cards/autocomplete", params={"q": "real"}).json()
    assert found["object"] == "catalog"
    assert found["data"] == ["Realm-Cloaked Giant // Cast Off"]
    assert found["total_values"] == 1
    assert client.get("/cards/autocomplete", params={"q": "r"}).json()["data"] == []
    words = client.get("/cards/autocomplete", params={"q": "growth"}).json()["data"]
    assert words == ["Abundant Growth", "Rampant Growth"]


# -- one card -------------------------------------------------------------------------------------
def test_a_printing_by_set_number_and_language(client: TestClient) -> None:
    rift = client.get("/cards/afc/62/de").json()
    assert (rift["lang"], rift["printed_name"], rift["printed_type_line"]) == (
        "de",
        "Unterreich-Spalte",
        "Land",
    )
    assert rift["printed_text"].startswith("{T}: Erzeuge {C}.")
    assert client.get("/cards/AFC/62").json()["id"] == UNDERDARK_RIFT_ID
    assert client.get("/cards/afr/66/zhs").json()["lang"] == "zhs"


def test_an_unknown_printing_or_language_is_not_found(client: TestClient) -> None:
    _error(client.get("/cards/afc/9999"), 404, "not_found")
    _error(client.get("/cards/afc/62/xx"), 404, "not_found")
    # Korean: AFC was not printed in it
    assert "language" in _error(client.get("/cards/afc/62/ko"), 404, "not_found")["details"]


def test_a_card_by_its_scryfall_id_or_derived_id(client: TestClient) -> None:
    assert client.get(f"/cards/{UNDERDARK_RIFT_ID}").json()["collector_number"] == "62"
    german = client.get(f"/cards/{derived_id('AFC', '62', 'de')}").json()
    assert (german["lang"], german["printed_name"]) == ("de", "Unterreich-Spalte")
    _error(client.get("/cards/00000000-0000-0000-0000-000000000000"), 404, "not_found")
    _error(client.get("/cards/not-an-id"), 404, "not_found")


def test_a_card_by_a_multiverse_id_in_its_language(client: TestClient) -> None:
    assert client.get("/cards/multiverse/532017").json()["printed_name"] == "Unterreich-Spalte"
    assert client.get("/cards/multiverse/531963").json()["lang"] == "en"
    _error(client.get("/cards/multiverse/1"), 404, "not_found")
    _error(client.get("/cards/multiverse/99999999999999999999999"), 404, "not_found")


def test_rulings_are_a_list_of_ruling_objects(client: TestClient) -> None:
    found = client.get(f"/cards/{UNDERDARK_RIFT_ID}/rulings").json()
    assert found["object"] == "list" and found["has_more"] is False
    assert len(found["data"]) == 11
    assert {r["object"] for r in found["data"]} == {"ruling"}
    assert {r["published_at"] for r in found["data"]} == {"2021-07-23"}
    by_number = client.get("/cards/afc/62/rulings").json()
    assert by_number == found
    assert client.get("/cards/multiverse/532017/rulings").json() == found


# -- sets -------------------------------------------------------------------------------------------
def test_sets_are_a_list_of_set_objects(client: TestClient) -> None:
    found = client.get("/sets").json()
    assert [s["code"] for s in found["data"]] == ["afc", "afr", "khm", "eld"]
    afr = client.get("/sets/AFR").json()
    assert (afr["object"], afr["name"], afr["card_count"]) == (
        "set",
        "Adventures in the Forgotten Realms",
        15,
    )
    assert client.get(f"/sets/{afr['id']}").json()["code"] == "afr"
    _error(client.get("/sets/zzz"), 404, "not_found")


# -- what is not there -----------------------------------------------------------------------------
def test_nothing_can_be_written(client: TestClient) -> None:
    _error(client.post("/cards/search", params={"q": "c:r"}), 405, "method_not_allowed")
    _error(client.delete(f"/cards/{UNDERDARK_RIFT_ID}"), 405, "method_not_allowed")


def test_an_unknown_endpoint_is_not_found(client: TestClient) -> None:
    _error(client.get("/cards"), 404, "not_found")
    _error(client.get("/bulk-data"), 404, "not_found")


HOSTILE = [
    "\x00",
    "dragon\x00",
    "%ff%fe",
    "\ufffd\ufffd",
    "'; DROP TABLE cards; --",
    "o:/(a+)+$/",
    "o:/[/",
    "year>NaN",
    "mv>inf",
    "\u202e\u0301" * 40,
    "𝕯𝖗𝖆𝖌𝖔𝖓",
    "(" * 300,
    "c:r " * 240,
    '"' + "a" * 900,
    "lang:" + "x" * 100,
    "../../etc/passwd",
    "<script>alert(1)</script>",
]


def _answered(response: Any) -> bool:
    """An answer, not a failure: any status below 500, or the 503 of a request stopped at its
    deadline (a query the database is slow to plan: 240 ANDed terms on PostgreSQL)."""
    if response.status_code < 500:
        return True
    return response.status_code == 503 and "took longer" in response.json()["details"]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_values_never_cause_a_server_error(client: TestClient, value: str) -> None:
    for path, params in (
        ("/cards/search", {"q": value}),
        ("/cards/search", {"q": "c:r", "page": value, "order": value}),
        ("/cards/named", {"fuzzy": value}),
        ("/cards/named", {"exact": value, "set": value}),
        ("/cards/autocomplete", {"q": value}),
    ):
        response = client.get(path, params=params)
        assert _answered(response), (path, params, response.text)
        assert response.json()["object"] in ("list", "card", "catalog", "error")
        assert "Traceback" not in response.text
    segment = quote(value, safe="")
    for path in (
        f"/cards/{segment}",
        f"/cards/{segment}/{segment}",
        f"/cards/afc/62/{segment}",
        f"/sets/{segment}",
    ):
        response = client.get(path)
        assert response.status_code < 500, (path, response.text)
        assert "Traceback" not in response.text


def test_raw_invalid_encodings_in_the_url_never_cause_a_server_error(client: TestClient) -> None:
    for raw in ("/cards/search?q=%ff%fe%00", "/cards/%c3%28/%80", "/cards/named?fuzzy=%ed%a0%80", "/sets/%"):
        response = client.get(raw)
        assert response.status_code < 500, (raw, response.text)


# -- the database unavailable -----------------------------------------------------------------------
def test_a_missing_database_is_unavailable_until_it_is_imported(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'later.sqlite'}"
    with TestClient(create_app(url)) as client:
        body = _error(client.get("/cards/named", params={"exact": "Underdark Rift"}), 503, "unavailable")
        assert "no database at" in body["details"]
        assert client.get("/sets").headers["retry-after"] == "5"
        fill(url)
        assert (
            client.get("/cards/named", params={"exact": "Underdark Rift"}).json()["id"] == UNDERDARK_RIFT_ID
        )


def test_a_database_being_imported_is_unavailable(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'importing.sqlite'}"
    fill(url)
    with TestClient(create_app(url, pending_check_interval=0)) as client:
        assert client.get("/sets").status_code == 200
        with carddb.open(url) as writer, writer.engine.begin() as connection:
            index.mark_pending(connection, [1])
        assert "being imported" in _error(client.get("/sets"), 503, "unavailable")["details"]
        with carddb.open(url) as writer, writer.engine.begin() as connection:
            index.refresh(connection)  # what an import's last step does
        assert client.get("/sets").status_code == 200


def test_a_request_past_its_deadline_is_stopped_by_the_database(served_url: str) -> None:
    backend = Backend(served_url, timeout=0.3)
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"

    def run_forever(database: carddb.Database) -> object:
        with database.engine.connect() as connection:
            return connection.exec_driver_sql(endless).scalar()

    started = time.monotonic()
    with pytest.raises(ApiError) as stopped:
        anyio.run(backend.run, run_forever)
    assert time.monotonic() - started < 5
    assert stopped.value.facts.status == 503
    assert "took longer than 0.3 s" in stopped.value.facts.details
    assert anyio.run(backend.run, carddb.Database.counts)["cards"] == 33  # and it serves on
    backend.close()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_serve_command_serves_the_database_on_loopback(tmp_path: Path, workers: str) -> None:
    url = f"sqlite:///{tmp_path / 'served.sqlite'}"
    fill(url)
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "carddb.cli",
        "--db",
        url,
        "serve",
        "--port",
        str(port),
        "--workers",
        workers,
    ]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        answer = None
        while answer is None and time.monotonic() < deadline and server.poll() is None:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/cards/afc/62/de", timeout=5)
            except httpx.TransportError:
                time.sleep(0.2)
        assert answer is not None, server.stderr.read().decode() if server.poll() is not None else "no answer"
        assert answer.json()["printed_name"] == "Unterreich-Spalte"
    finally:
        server.terminate()
        server.wait(20)
    assert b"http://127.0.0.1:" in (server.stderr.read() if server.stderr else b"")
