"""Inputs built from the shipped sample (real MTGJSON set files cut down, see ``data/sample/README.md``),
shared by the tests that damage them on purpose."""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any

from carddb.resources import sample_dir


def sample_file(code: str) -> Path:
    return sample_dir() / f"{code}.json.xz"


def sample_bytes(code: str) -> bytes:
    """The decompressed bytes of a shipped set file (compact JSON, one line)."""
    with lzma.open(sample_file(code), "rb") as stream:
        return stream.read()


def sample_set(code: str) -> dict[str, Any]:
    """A shipped set file as JSON: ``{"meta": ..., "data": <set>}``."""
    data: dict[str, Any] = json.loads(sample_bytes(code))
    return data


def all_printings(*codes: str) -> dict[str, Any]:
    """An AllPrintings-shaped document holding the given sample sets, in that order."""
    return {"meta": sample_set(codes[0])["meta"], "data": {code: sample_set(code)["data"] for code in codes}}


def write_json(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def card_record(document: dict[str, Any], name: str) -> dict[str, Any]:
    record: dict[str, Any] = next(c for c in document["data"]["cards"] if c["name"] == name)
    return record
