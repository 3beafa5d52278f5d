"""``carddb download``: the published files served by a local HTTP server (never the real sites),
fetched, checked, put in place whole, and imported.

The server (``http.server`` in a thread, on 127.0.0.1) serves files from a dict, answers ``Range``
requests with 206, and can break a response off after some bytes, as a dropped connection does.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from samples import all_printings

import carddb
from carddb.cli import main
from carddb.download import fetch as fetching
from carddb.resources import sample_dir

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLE_SETS = ("AFC", "AFR", "ELD", "M11", "THB")


@dataclass
class Site:
    """What the server serves: files by path, how many times a path's answer breaks off (and after
    how many bytes), and every request it had (path, Range header)."""

    files: dict[str, bytes] = field(default_factory=dict)
    breaks: dict[str, tuple[int, int]] = field(default_factory=dict)
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    url: str = ""


@pytest.fixture
def site() -> Iterator[Site]:
    served = Site()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: object) -> None:  # quiet
            pass

        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            served.requests.append((path, self.headers.get("Range")))
            body = served.files.get(path)
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            start = 0
            requested = self.headers.get("Range")
            if requested and requested.startswith("bytes="):
                start = int(requested[6:].split("-")[0])
                if start >= len(body):
                    self.send_response(416)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
            else:
                self.send_response(200)
            rest = body[start:]
            self.send_header("Content-Length", str(len(rest)))
            self.end_headers()
            times, after = served.breaks.get(path, (0, 0))
            if times > 0:  # send part of the body, then drop the connection
                served.breaks[path] = (times - 1, after)
                self.wfile.write(rest[:after])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(rest)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    served.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield served
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def all_printings_xz() -> bytes:
    """An AllPrintings.json.xz made of the sample's five real set files."""
    return lzma.compress(json.dumps(all_printings(*SAMPLE_SETS), ensure_ascii=False).encode("utf-8"))


def publish_mtgjson(site: Site, body: bytes, sha256: str | None = None) -> None:
    site.files["/api/v5/AllPrintings.json.xz"] = body
    digest = sha256 or hashlib.sha256(body).hexdigest()
    site.files["/api/v5/AllPrintings.json.xz.sha256"] = f"{digest}\n".encode()


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def carddb_download(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Run:
    """``carddb --db <tmp> download ARGS --dir <tmp>/downloads``: exit code, stdout, stderr."""

    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(
            ["--db", str(tmp_path / "cards.sqlite"), "download", *args, "--dir", str(tmp_path / "dl")]
        )
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def card_count(tmp_path: Path) -> int:
    path = tmp_path / "cards.sqlite"
    if not path.exists():
        return 0
    with carddb.open(f"sqlite:///{path}", read_only=True) as db:
        return db.counts()["cards"]


# -- MTGJSON ---------------------------------------------------------------------------------------
def test_mtgjson_is_fetched_checked_against_its_sha256_and_imported(
    site: Site, all_printings_xz: bytes, carddb_download: Run, tmp_path: Path
) -> None:
    publish_mtgjson(site, all_printings_xz)

    code, out, err = carddb_download("mtgjson", "--base-url", f"{site.url}/api/v5")

    assert code == 0, err
    placed = tmp_path / "dl" / "AllPrintings.json.xz"
    assert placed.read_bytes() == all_printings_xz
    assert sorted(p.name for p in (tmp_path / "dl").iterdir()) == ["AllPrintings.json.xz"]  # no part left
    assert out.splitlines()[0] == f"downloaded {placed} ({len(all_printings_xz):,} bytes, checked)"
    assert "imported 1 file(s)" in out
    assert card_count(tmp_path) == 25
    assert [path for path, _ in site.requests] == [
        "/api/v5/AllPrintings.json.xz.sha256",
        "/api/v5/AllPrintings.json.xz",
    ]


def test_the_base_address_can_come_from_the_environment(
    site: Site, all_printings_xz: bytes, carddb_download: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    publish_mtgjson(site, all_printings_xz)
    monkeypatch.setenv("CARDDB_MTGJSON_URL", f"{site.url}/api/v5")

    code, _, err = carddb_download("mtgjson", "--no-import")

    assert code == 0, err
    assert site.requests[-1][0] == "/api/v5/AllPrintings.json.xz"


def test_a_checksum_mismatch_replaces_nothing_and_imports_nothing(
    site: Site, all_printings_xz: bytes, carddb_download: Run, tmp_path: Path
) -> None:
    good = tmp_path / "dl" / "AllPrintings.json.xz"
    good.parent.mkdir()
    good.write_bytes(b"the file a previous download placed")
    publish_mtgjson(site, all_printings_xz, sha256="0" * 64)

    code, out, err = carddb_download("mtgjson", "--base-url", f"{site.url}/api/v5")

    assert code == 1
    assert out == ""
    assert err.startswith(f"carddb: {site.url}/api/v5/AllPrintings.json.xz: its SHA-256 is ")
    assert "(checksum mismatch); the file was deleted and nothing was replaced" in err
    assert len(err.splitlines()) == 1
    assert good.read_bytes() == b"the file a previous download placed"
    assert sorted(p.name for p in good.parent.iterdir()) == ["AllPrintings.json.xz"]
    assert card_count(tmp_path) == 0


def test_a_broken_connection_is_resumed_where_it_stopped(
    site: Site, all_printings_xz: bytes, carddb_download: Run, tmp_path: Path
) -> None:
    publish_mtgjson(site, all_printings_xz)
    site.breaks["/api/v5/AllPrintings.json.xz"] = (1, 10_000)  # the first answer stops after 10,000 bytes

    code, _, err = carddb_download("mtgjson", "--base-url", f"{site.url}/api/v5")

    assert code == 0, err
    assert (tmp_path / "dl" / "AllPrintings.json.xz").read_bytes() == all_printings_xz
    assert [r for r in site.requests if r[0].endswith(".xz")] == [
        ("/api/v5/AllPrintings.json.xz", None),
        ("/api/v5/AllPrintings.json.xz", "bytes=10000-"),
    ]
    assert card_count(tmp_path) == 25


def test_a_download_that_keeps_breaking_keeps_its_part_and_the_next_run_resumes(
    site: Site, all_printings_xz: bytes, carddb_download: Run, tmp_path: Path
) -> None:
    publish_mtgjson(site, all_printings_xz)
    site.breaks["/api/v5/AllPrintings.json.xz"] = (fetching.ATTEMPTS, 4_000)  # every try of this run

    code, _, err = carddb_download("mtgjson", "--base-url", f"{site.url}/api/v5")

    assert code == 1
    assert "the download broke off after 12,000 bytes" in err and "run again to resume" in err
    assert not (tmp_path / "dl" / "AllPrintings.json.xz").exists()
    (part,) = (tmp_path / "dl").glob("*.part")
    assert part.read_bytes() == all_printings_xz[:12_000]
    assert card_count(tmp_path) == 0

    code, _, err = carddb_download("mtgjson", "--base-url", f"{site.url}/api/v5")

    assert code == 0, err
    assert site.requests[-1] == ("/api/v5/AllPrintings.json.xz", "bytes=12000-")
    assert (tmp_path / "dl" / "AllPrintings.json.xz").read_bytes() == all_printings_xz
    assert not part.exists()
    assert card_count(tmp_path) == 25


def test_a_file_already_in_place_with_the_published_checksum_is_not_fetched_again(
    site: Site, all_printings_xz: bytes, carddb_download: Run
) -> None:
    publish_mtgjson(site, all_printings_xz)
    assert carddb_download("mtgjson", "--base-url", f"{site.url}/api/v5", "--no-import")[0] == 0

    code, _, _ = carddb_download("mtgjson", "--base-url", f"{site.url}/api/v5", "--no-import")

    assert code == 0
    assert [path for path, _ in site.requests].count("/api/v5/AllPrintings.json.xz") == 1


def test_a_missing_file_is_a_one_line_error(site: Site, carddb_download: Run, tmp_path: Path) -> None:
    code, _, err = carddb_download("mtgjson", "--base-url", f"{site.url}/nothing-here")

    assert code == 1
    assert err == f"carddb: {site.url}/nothing-here/AllPrintings.json.xz.sha256: HTTP 404\n"
    assert card_count(tmp_path) == 0


# -- Scryfall --------------------------------------------------------------------------------------
def publish_scryfall(site: Site, sizes: dict[str, int] | None = None) -> dict[str, bytes]:
    bodies = {
        "default_cards": (FIXTURES / "scryfall" / "constructed-cards.json").read_bytes(),
        "rulings": (FIXTURES / "scryfall" / "rulings.json").read_bytes(),
        "all_cards": b"[]",
    }
    entries = []
    for kind, body in bodies.items():
        path = f"/file/{kind.replace('_', '-')}-20250101100000.json"
        site.files[path] = body
        entries.append(
            {
                "object": "bulk_data",
                "type": kind,
                "download_uri": f"{site.url}{path}",
                "size": (sizes or {}).get(kind, len(body)),
                "content_type": "application/json",
                "content_encoding": "gzip",
            }
        )
    site.files["/bulk-data"] = json.dumps({"object": "list", "has_more": False, "data": entries}).encode()
    return bodies


def test_scryfall_bulk_files_are_found_through_the_bulk_data_index_and_imported(
    site: Site, carddb_download: Run, tmp_path: Path
) -> None:
    publish_scryfall(site)

    code, _, err = carddb_download("scryfall", "--base-url", site.url)

    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "dl").iterdir()) == [
        "default-cards-20250101100000.json",
        "rulings-20250101100000.json",
    ]
    assert site.requests[0] == ("/bulk-data", None)
    with carddb.open(f"sqlite:///{tmp_path / 'cards.sqlite'}", read_only=True) as db:
        assert db.card("Delver of Secrets").english_name == "Delver of Secrets // Insectile Aberration"
        assert db.counts()["rulings"] > 0


def test_a_scryfall_file_of_another_size_than_published_is_refused(
    site: Site, carddb_download: Run, tmp_path: Path
) -> None:
    bodies = publish_scryfall(site, sizes={"rulings": 12})

    code, _, err = carddb_download("scryfall", "--base-url", site.url, "--bulk", "rulings")

    assert code == 1
    assert f"{len(bodies['rulings']):,} bytes came where 12 are published" in err
    assert not list((tmp_path / "dl").iterdir())
    assert card_count(tmp_path) == 0


def test_an_unknown_bulk_type_names_the_ones_the_index_has(site: Site, carddb_download: Run) -> None:
    publish_scryfall(site)

    code, _, err = carddb_download("scryfall", "--base-url", site.url, "--bulk", "oracle_cards")

    assert code == 1
    assert err == (
        f"carddb: {site.url}/bulk-data: lists no bulk file oracle_cards; "
        "it has: all_cards, default_cards, rulings\n"
    )


# -- the Comprehensive Rules -----------------------------------------------------------------------
RULES_TEXT = lzma.decompress((sample_dir() / "MagicCompRules-20250207-excerpt.txt.xz").read_bytes())


def test_the_rules_text_the_rules_page_links_is_fetched_and_imported(
    site: Site, carddb_download: Run, tmp_path: Path
) -> None:
    site.files["/en/rules"] = (
        b'<html><body><a href="/downloads/MagicCompRules%2020250207.pdf">PDF</a>'
        b'<a href="/downloads/MagicCompRules%2020250207.txt">TXT</a></body></html>'
    )
    site.files["/downloads/MagicCompRules%2020250207.txt"] = RULES_TEXT

    code, _, err = carddb_download("rules", "--base-url", f"{site.url}/en/rules")

    assert code == 0, err
    assert (tmp_path / "dl" / "MagicCompRules 20250207.txt").read_bytes() == RULES_TEXT
    with carddb.open(f"sqlite:///{tmp_path / 'cards.sqlite'}", read_only=True) as db:
        assert db.rule("702.35").number == "702.35"


def test_a_rules_page_without_a_rules_text_link_is_a_clear_error(site: Site, carddb_download: Run) -> None:
    site.files["/en/rules"] = b"<html><body>Rules moved.</body></html>"

    code, _, err = carddb_download("rules", "--base-url", f"{site.url}/en/rules")

    assert code == 1
    assert (
        err == f"carddb: {site.url}/en/rules: links no Comprehensive Rules text file (MagicCompRules….txt)\n"
    )


def test_a_rules_file_that_is_not_the_rules_is_refused(
    site: Site, carddb_download: Run, tmp_path: Path
) -> None:
    site.files["/MagicCompRules.txt"] = b"<html>Not found</html>"

    code, _, err = carddb_download("rules", "--base-url", f"{site.url}/MagicCompRules.txt")

    assert code == 1
    assert "does not start with 'Magic: The Gathering Comprehensive Rules'" in err
    assert not list((tmp_path / "dl").iterdir())
