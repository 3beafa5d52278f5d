"""``carddb serve``'s web pages: plain HTML that works without JavaScript, in the reader's language
(the ``lang`` parameter, the query's ``lang:`` term, the browser's Accept-Language), and the same
pages in a real headless Chromium (Debian's ``chromium``; skipped when it is absent)."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import BACKENDS, fresh_database_url
from serve_support import fill, running_server
from starlette.testclient import TestClient

from carddb.serve.app import create_app
from carddb.serve.web import rule_links

ARTIFACTS_ENV = "CARDDB_TEST_ARTIFACTS"


class _Page(HTMLParser):
    """The text of each element with an ``id``, every link, and the ``lang`` of ``<html>``."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.by_id: dict[str, str] = {}
        self.links: dict[str, str] = {}
        self.html_lang = ""
        self.sections: list[str] = []
        self._open: list[tuple[str, str | None, list[str]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.html_lang = values.get("lang") or ""
        if tag == "section" and values.get("data-lang"):
            self.sections.append(values["data-lang"] or "")
        if tag in ("br", "meta", "input", "link"):
            return
        self._open.append((tag, values.get("id") or (values.get("href") if tag == "a" else None), []))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            name, key, parts = self._open.pop()
            text = "".join(parts).strip()
            for _, _, outer in self._open:
                outer.append(text)
            if key is not None and name == "a":
                self.links.setdefault(text, key)
            elif key is not None:
                self.by_id[key] = text
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


@pytest.fixture(scope="module", params=BACKENDS)
def served_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with fresh_database_url(request.param, tmp_path_factory.mktemp("served-web")) as url:
        fill(url)
        yield url


@pytest.fixture(scope="module")
def client(served_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(served_url, web_page_size=10)) as test_client:
        yield test_client


def test_the_front_page_is_a_search_form_that_needs_no_javascript(client: TestClient) -> None:
    front = client.get("/").text
    assert re.search(r'<form class="search" action="/search" method="get"', front)
    assert '<input type="search" name="q"' in front
    assert "<script" not in front


def test_a_japanese_search_names_the_cards_in_japanese(client: TestClient) -> None:
    response = client.get("/search", params={"q": "lang:ja 稲妻"})
    page = _Page(response.text)
    assert (response.status_code, page.html_lang, response.headers["content-language"]) == (200, "ja", "ja")
    assert page.links["悪魔の稲妻"] == "/card/khm/129/ja"
    assert page.by_id["total"] == "1 card"


def test_the_browser_language_names_the_results(client: TestClient) -> None:
    response = client.get(
        "/search", params={"q": "c:r t:instant"}, headers={"Accept-Language": "de-CH, en;q=0.5"}
    )
    page = _Page(response.text)
    assert page.html_lang == "de"
    assert page.links["Dämonischer Blitz"] == "/card/khm/129/de"
    assert page.links["Raserei des Berserkers"] == "/card/afc/29/de"


def test_the_lang_parameter_overrides_the_browser(client: TestClient) -> None:
    page = _Page(
        client.get(
            "/search", params={"q": "Unterreich", "lang": "fr"}, headers={"Accept-Language": "de"}
        ).text
    )
    assert page.html_lang == "fr"
    assert "Faille de l'Outreterre" in page.links


@pytest.mark.parametrize("header", ["de;q=abc, *;q=NaN", "zz-ZZ, x-klingon", "," * 2000, "*", "ja;q=0, fr"])
def test_any_accept_language_header_is_answered(client: TestClient, header: str) -> None:
    response = client.get("/search", params={"q": "Unterreich"}, headers={"Accept-Language": header})
    assert response.status_code == 200
    assert _Page(response.text).html_lang in ("en", "de", "fr")


def test_results_are_paged(client: TestClient) -> None:
    first = _Page(client.get("/search", params={"q": "mv>=0"}).text)
    assert first.by_id["total"].endswith("page 1 / 4")
    following = first.links["next →"]
    second = _Page(client.get(following).text)
    assert second.by_id["total"].endswith("page 2 / 4")
    assert second.links["← previous"] == "/search?q=mv%3E%3D0&page=1"
    cards_on = [
        {name for name, href in p.links.items() if href.startswith("/card/")} for p in (first, second)
    ]
    assert len(cards_on[0]) == len(cards_on[1]) == 10 and cards_on[0].isdisjoint(cards_on[1])
    assert client.get("/search", params={"q": "mv>=0", "page": "5"}).status_code == 404


def test_a_card_page_shows_every_language_side_by_side(client: TestClient) -> None:
    response = client.get("/card/afc/62/de")
    page = _Page(response.text)
    assert page.by_id["card-name"] == "Unterreich-Spalte"
    assert page.sections[:2] == ["de", "en"]
    assert set(page.sections) == {"de", "en", "es", "fr", "it", "ja", "pt-BR", "ru", "zh-Hans", "zh-Hant"}
    text = html.unescape(response.text)
    assert "アンダーダークの裂け目" in text and "Faille de l'Outreterre" in text
    assert page.links["日本語"] == "/card/afc/62/ja"


def test_ruling_dates_are_written_the_way_the_language_writes_them(client: TestClient) -> None:
    german = client.get("/card/afc/62/de").text
    assert '<time datetime="2021-07-23">23. Juli 2021</time>' in german
    assert _Page(german).by_id["rulings-language"] == "English"  # no German rulings: the English ones
    spanish = client.get("/card/afc/15/es").text
    assert '<time datetime="2021-07-23">23 de julio de 2021</time>Los dados se identifican' in spanish
    japanese = client.get("/card/afc/62/ja").text
    assert '<time datetime="2021-07-23">2021年7月23日</time>' in japanese


def test_the_printings_are_listed_with_their_languages(client: TestClient) -> None:
    page = _Page(client.get("/card/eld/26").text)
    assert page.links["Throne of Eldraine"] in ("/card/eld/26", "/card/eld/277")
    assert page.links["Forgotten Realms Commander"] == "/card/afc/70"


def test_rules_mentioned_in_text_are_links() -> None:
    note = (
        "After resolving a madness triggered ability (see rule 702.35), if the exiled card wasn’t cast "
        "and was moved to a public zone, effects referencing the discarded card can find that object."
    )
    linked = str(rule_links(note))
    assert '(see rule <a class="rule" href="/rules/702.35">702.35</a>), if the exiled card wasn’t' in linked
    assert str(rule_links("rules 601.2b and 601.2f–h <b>")).endswith("601.2f–h</a> &lt;b&gt;")


def test_a_rule_page_shows_the_rule_and_links_the_rules_it_mentions(client: TestClient) -> None:
    page = _Page(client.get("/rules/702.35").text)
    assert (page.by_id["rule-number"], page.by_id["rule-text"]) == ("702.35", "Madness")
    assert page.links["601.2f–h"] == "/rules/601.2f"
    assert page.links["400.7k"] == "/rules/400.7k"
    assert client.get("/rules/999.9").status_code == 404


def test_errors_are_pages(client: TestClient) -> None:
    malformed = client.get("/search", params={"q": "t:creature (c:r"})
    assert malformed.status_code == 400
    assert '<pre class="caret">t:creature (c:r\n               ^</pre>' in malformed.text
    assert client.get("/card/afc/9999").status_code == 404
    assert client.get("/card/afc/62/xx").status_code == 404
    missing = client.get("/card/zzz/1/de")
    assert missing.status_code == 404 and "<h1>404</h1>" in missing.text


def test_hostile_text_is_escaped(client: TestClient) -> None:
    response = client.get("/search", params={"q": "<script>alert(1)</script>"})
    assert response.status_code < 500
    assert "<script>" not in response.text and "&lt;script&gt;" in response.text
    for path in ("/card/%3Cscript%3E/1", "/card/afc/62/%00", "/rules/%3Cb%3E", "/search?q=%ff%00"):
        response = client.get(path)
        assert (
            response.status_code < 500
            and "<script>" not in response.text
            and "Traceback" not in response.text
        )


# -- in a real browser ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("no chromium on PATH (.ci/run installs Debian's chromium with apt-get)")
    return found


@pytest.fixture(scope="module")
def browsed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('browsed') / 'carddb.sqlite'}"
    fill(url)
    with running_server(create_app(url)) as base:
        yield base


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go: ``$CARDDB_TEST_ARTIFACTS``, else a folder of this test session."""
    configured = os.environ.get(ARTIFACTS_ENV)
    folder = Path(configured) if configured else tmp_path_factory.mktemp("artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _chromium(binary: str, *arguments: str) -> str:
    # --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start; a
    # profile of its own: else a Chromium already running hands the work over to itself and exits
    with tempfile.TemporaryDirectory(prefix="carddb-chromium-") as profile:
        command = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
        command += [f"--user-data-dir={profile}", *arguments]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _browse(binary: str, url: str, screenshot: Path) -> _Page:
    screenshot.unlink(missing_ok=True)  # a screenshot of an earlier run must not pass for this one
    _chromium(binary, "--window-size=1200,1400", f"--screenshot={screenshot}", url)
    assert screenshot.stat().st_size > 10_000
    print(f"screenshot: {screenshot}")
    return _Page(_chromium(binary, "--dump-dom", url))


def test_chromium_shows_a_japanese_search(chromium: str, browsed: str, artifacts: Path) -> None:
    page = _browse(chromium, f"{browsed}/search?q=lang%3Aja%20稲妻", artifacts / "search-ja.png")
    assert page.html_lang == "ja"
    assert page.links["悪魔の稲妻"] == "/card/khm/129/ja"
    assert page.by_id["total"] == "1 card"


def test_chromium_shows_underdark_rift_in_german(chromium: str, browsed: str, artifacts: Path) -> None:
    page = _browse(chromium, f"{browsed}/card/afc/62/de", artifacts / "underdark-rift-de.png")
    assert page.html_lang == "de"
    assert page.by_id["card-name"] == "Unterreich-Spalte"
    assert page.sections[:2] == ["de", "en"] and len(page.sections) == 10
    assert page.links["Deutsch"] == "/card/afc/62/de"
    assert page.by_id["rulings-language"] == "English"
