"""Which kind of source a file is, read from its first bytes (never from its name alone), so that
``carddb import`` takes any mix of files and folders.

* ``mtgjson``: a JSON object with ``meta`` and ``data`` (a set file or AllPrintings);
* ``scryfall``: a JSON array (bulk ``default-cards``/``all-cards``/``rulings``) or an API list page
  (``{"object": "list", "data": [...]}``);
* ``rules``: the Comprehensive Rules as published (a text file that says so in its first lines);
* ``page``: any other text: a card page or a rulings/keyword page (:mod:`carddb.ingest.pages`
  decides which, or refuses a page of an unknown shape).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from carddb.errors import MalformedJSONError, NotMTGJSONError, SourceError
from carddb.ingest.json_stream import check_encoding
from carddb.ingest.sources import open_tracked

__all__ = ["Format", "detect_format"]

Format = Literal["mtgjson", "scryfall", "rules", "page"]

_SNIFF_BYTES = 64 * 1024
_RULES_TITLE = re.compile(r"Comprehensive Rules", re.IGNORECASE)
_JSON_SCALAR = re.compile(r'(?:null|true|false|-?\d|")')


def detect_format(path: Path) -> Format:
    """The kind of source ``path`` holds; :class:`SourceError` for an empty or binary file."""
    with open_tracked(path) as reader:
        head = reader.read(_SNIFF_BYTES)
    if not head.strip():
        if ".json" in path.name.lower():  # an empty download of a JSON source is broken JSON
            raise MalformedJSONError(path, "the file is empty", "line 1, column 1 (byte 0)")
        raise SourceError(path, "the file is empty")
    check_encoding(path, head)
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if "\x00" in text:
        raise SourceError(path, "not a text or JSON file (binary data)")
    if _JSON_SCALAR.match(text) and len(head) < _SNIFF_BYTES:
        try:
            value = json.loads(text)
        except ValueError:
            value = ...
        if value is not ...:
            shown = json.dumps(value)[:40]
            raise NotMTGJSONError(
                path, f"the file holds one JSON value ({shown}), not a card source (MTGJSON or Scryfall)"
            )
    if text.startswith("["):
        return "scryfall"
    if text.startswith("{"):
        # MTGJSON starts with "meta" or "data"; a Scryfall list page with "object": "list"
        if re.match(r'\{\s*"object"\s*:\s*"list"', text) or '"object": "list"' in text[:200]:
            return "scryfall"
        return "mtgjson"
    first_lines = "\n".join(text.splitlines()[:3])
    if _RULES_TITLE.search(first_lines):
        return "rules"
    return "page"
