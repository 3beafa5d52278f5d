"""A real Scryfall client, scrython from PyPI, against ``carddb serve``: its Search, Named (exact
and fuzzy), Autocomplete and ByCodeNumber (with a language), unchanged but for the host it
connects to.

scrython builds every URL as ``"https://api.scryfall.com/" + endpoint + "?" + params`` in
``ScrythonRequestHandler._fetch`` (``scrython/base.py``) and opens it with the ``Request`` class it
imports from urllib there: the test gives that module a ``Request`` that swaps that one prefix for
the local server's address. Nothing else of the client changes (its rate limiter included)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.request import Request

import pytest
from serve_support import fill, running_server

from carddb.serve.app import create_app

SCRYFALL = "https://api.scryfall.com/"


@pytest.fixture(scope="module")
def scrython(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """scrython, installed from PyPI into a folder of this test session (never into the project's
    environment); the tests are skipped, saying why, when pip cannot install it."""
    target = tmp_path_factory.mktemp("scrython")
    try:
        installed = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--target", str(target), "scrython>=2"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"pip could not install scrython from PyPI: {exc}")
    if installed.returncode != 0:
        reason = (installed.stderr.strip().splitlines() or ["no output"])[-1]
        pytest.skip(f"pip could not install scrython from PyPI: {reason}")
    sys.path.insert(0, str(target))
    try:
        yield importlib.import_module("scrython")
    finally:
        sys.path.remove(str(target))
        for name in [n for n in sys.modules if n == "scrython" or n.startswith("scrython.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('scrython-db') / 'carddb.sqlite'}"
    fill(url)
    with running_server(create_app(url)) as base:
        yield base


@pytest.fixture
def local_scrython(scrython: ModuleType, server: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    base = importlib.import_module("scrython.base")
    assert f'f"{SCRYFALL}{{self.endpoint}}' in Path(str(base.__file__)).read_text(), (
        "scrython no longer builds its URLs from this prefix: see how it does now"
    )

    def local(url: str, *args: Any, **kwargs: Any) -> Request:
        if url.startswith(SCRYFALL):
            url = server + "/" + url[len(SCRYFALL) :]
        return Request(url, *args, **kwargs)

    monkeypatch.setattr(base, "Request", local)
    return scrython


def test_search(local_scrython: ModuleType) -> None:
    found = local_scrython.cards.Search(q="lang:ja 稲妻")
    assert found.total_cards == 1 and found.has_more is False
    (bolt,) = found.data
    assert (bolt.name, bolt.lang, bolt.printed_name, bolt.set) == ("Demon Bolt", "ja", "悪魔の稲妻", "khm")


def test_search_errors_are_scryfall_errors(local_scrython: ModuleType) -> None:
    with pytest.raises(local_scrython.base.ScryfallError) as error:
        local_scrython.cards.Search(q="t:creature (c:r")
    assert (error.value.status, error.value.code) == (400, "bad_request")


def test_named_exact(local_scrython: ModuleType) -> None:
    card = local_scrython.cards.Named(exact="Underdark Rift")
    assert (card.name, card.set, card.collector_number) == ("Underdark Rift", "afc", "62")
    assert card.type_line == "Land"


def test_named_fuzzy(local_scrython: ModuleType) -> None:
    assert local_scrython.cards.Named(fuzzy="Undrdark Rift").name == "Underdark Rift"


def test_autocomplete(local_scrython: ModuleType) -> None:
    assert local_scrython.cards.Autocomplete(q="growth").data == ["Abundant Growth", "Rampant Growth"]


def test_by_code_number_in_a_language(local_scrython: ModuleType) -> None:
    card = local_scrython.cards.ByCodeNumber(code="afc", number="62", lang="de")
    assert (card.lang, card.printed_name, card.printed_type_line) == ("de", "Unterreich-Spalte", "Land")
    assert card.printed_text.startswith("{T}: Erzeuge {C}.")
