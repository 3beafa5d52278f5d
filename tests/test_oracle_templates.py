"""Phrase-table templates on real oracle text, one card each (``tests/fixtures/oracle/templates.toml``:
2022 Oracle wording, with the table phrase each line needs): each line parses completely and prints
back as it was written."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from carddb.oracle import parse_oracle

LINES = tomllib.loads((Path(__file__).parent / "fixtures" / "oracle" / "templates.toml").read_text("utf-8"))[
    "line"
]


@pytest.mark.parametrize("line", LINES, ids=[f"{line['card']} ({line['phrase']})" for line in LINES])
def test_a_real_line_parses_and_prints_back(line: dict[str, str]) -> None:
    parsed = parse_oracle(line["text"], line["card"])

    assert parsed.unimplemented == ()
    assert parsed.rendered == parsed.normalized
