"""Where each source publishes its files, and what they must be.

- **MTGJSON**: ``AllPrintings.json.xz`` and, beside it, ``AllPrintings.json.xz.sha256`` (its SHA-256
  in hex), under ``https://mtgjson.com/api/v5`` (https://mtgjson.com/downloads/all-files/).
- **Scryfall**: the bulk-data index ``https://api.scryfall.com/bulk-data``, a list object of
  ``bulk_data`` objects, each with its ``type`` (``default_cards``, ``all_cards``, ``rulings``…),
  ``download_uri`` and ``size`` (https://scryfall.com/docs/api/bulk-data). Scryfall publishes no
  checksum: the size and the start of the JSON are checked.
- **Comprehensive Rules**: the rules page ``https://magic.wizards.com/en/rules`` links the text
  file of the current edition (``MagicCompRules YYYYMMDD.txt``); its first line is checked.

Each base address can be replaced (``--base-url``, or the environment variable of
:data:`BASE_ENV`), for a mirror or a test server.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

import httpx

from carddb.download.errors import DownloadError
from carddb.download.fetch import Remote, get_text

SOURCES = ("mtgjson", "scryfall", "rules")

DEFAULT_BASE = {
    "mtgjson": "https://mtgjson.com/api/v5",
    "scryfall": "https://api.scryfall.com",
    "rules": "https://magic.wizards.com/en/rules",
}
BASE_ENV = {
    "mtgjson": "CARDDB_MTGJSON_URL",
    "scryfall": "CARDDB_SCRYFALL_URL",
    "rules": "CARDDB_RULES_URL",
}

MTGJSON_FILE = "AllPrintings.json.xz"
SCRYFALL_DEFAULT_BULK = ("default_cards", "rulings")
RULES_TITLE = "Magic: The Gathering Comprehensive Rules"

_SHA256 = re.compile(r"\b[0-9a-fA-F]{64}\b")
_RULES_LINK = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+?\.txt)["']""", re.IGNORECASE)


def base_url(source: str, given: str | None = None) -> str:
    """The base address of ``source``: ``given``, else its environment variable, else the official one."""
    return (given or os.environ.get(BASE_ENV[source]) or DEFAULT_BASE[source]).rstrip("/")


def mtgjson(http: httpx.Client, base: str) -> list[Remote]:
    """AllPrintings, with the SHA-256 MTGJSON publishes beside it."""
    url = f"{base}/{MTGJSON_FILE}"
    published = get_text(http, f"{url}.sha256")
    found = _SHA256.search(published)
    if found is None:
        raise DownloadError(f"{url}.sha256", "holds no SHA-256 (64 hexadecimal digits)")
    return [Remote(url, MTGJSON_FILE, sha256=found.group().lower(), check=_xz_start)]


def scryfall(http: httpx.Client, base: str, kinds: Sequence[str] = SCRYFALL_DEFAULT_BULK) -> list[Remote]:
    """The bulk files of ``kinds``, as the bulk-data index lists them."""
    index_url = f"{base}/bulk-data"
    try:
        index = json.loads(get_text(http, index_url))
        entries = {entry["type"]: entry for entry in index["data"] if entry.get("object") == "bulk_data"}
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise DownloadError(index_url, f"not a Scryfall bulk-data list ({error})") from None
    missing = [kind for kind in kinds if kind not in entries]
    if missing:
        raise DownloadError(
            index_url, f"lists no bulk file {', '.join(missing)}; it has: {', '.join(sorted(entries))}"
        )
    remotes = []
    for kind in kinds:
        entry = entries[kind]
        uri = entry.get("download_uri")
        if not isinstance(uri, str) or not uri:
            raise DownloadError(index_url, f"the {kind} entry has no download_uri")
        size = entry.get("size")
        remotes.append(
            Remote(
                uri,
                _file_name(uri, f"{kind}.json"),
                size=size if isinstance(size, int) and size > 0 else None,
                check=_json_array_start,
            )
        )
    return remotes


def rules(http: httpx.Client, page: str) -> list[Remote]:
    """The Comprehensive Rules text the rules page links (a ``.txt`` link; the page itself when
    the address given is a ``.txt`` file)."""
    if urlsplit(page).path.lower().endswith(".txt"):
        url = page
    else:
        links = [urljoin(page + "/", link) for link in _RULES_LINK.findall(get_text(http, page))]
        texts = [link for link in links if "comprules" in unquote(link).lower().replace(" ", "")]
        if not texts:
            raise DownloadError(page, "links no Comprehensive Rules text file (MagicCompRules….txt)")
        url = texts[0]
    return [Remote(url, _file_name(url, "MagicCompRules.txt"), check=_rules_start)]


def _file_name(url: str, fallback: str) -> str:
    name = unquote(PurePosixPath(urlsplit(url).path).name)
    return name if name and name not in (".", "..") and "/" not in name else fallback


def _head(path: Path, size: int = 512) -> bytes:
    with path.open("rb") as stream:
        return stream.read(size)


def _xz_start(path: Path) -> str | None:
    return None if _head(path, 6) == b"\xfd7zXZ\x00" else "not an xz file"


def _json_array_start(path: Path) -> str | None:
    start = _head(path).lstrip(b"\xef\xbb\xbf \t\r\n")
    return None if start[:1] in (b"[", b"{") else "not JSON"


def _rules_start(path: Path) -> str | None:
    text = _head(path).decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    return None if text.startswith(RULES_TITLE) else f"does not start with {RULES_TITLE!r}"


__all__ = [
    "BASE_ENV",
    "DEFAULT_BASE",
    "SCRYFALL_DEFAULT_BULK",
    "SOURCES",
    "base_url",
    "mtgjson",
    "rules",
    "scryfall",
]
