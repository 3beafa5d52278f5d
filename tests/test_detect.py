"""`carddb import` reads what a file is from its content, not from its name."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from carddb.errors import SourceError
from carddb.ingest.detect import detect_format

FIXTURES = Path(__file__).parent / "fixtures"


def test_an_mtgjson_set_file_is_mtgjson() -> None:
    assert detect_format(FIXTURES / "search" / "KHM.json.xz") == "mtgjson"
    assert detect_format(FIXTURES / "limdul.json") == "mtgjson"


def test_a_json_array_is_a_scryfall_bulk_file(tmp_path: Path) -> None:
    path = tmp_path / "rulings.json"
    path.write_text('[{"object": "ruling", "oracle_id": "x", "source": "wotc"}]', encoding="utf-8")
    assert detect_format(path) == "scryfall"


def test_a_scryfall_list_page_is_scryfall_even_compressed(tmp_path: Path) -> None:
    path = tmp_path / "page.json.xz"
    with lzma.open(path, "wt", encoding="utf-8") as out:
        out.write('{"object":"list","total_cards":1,"has_more":false,"data":[]}')
    assert detect_format(path) == "scryfall"


def test_the_comprehensive_rules_are_rules_with_their_bom_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "MagicCompRules.txt"
    path.write_bytes("\ufeffMagic: The Gathering Comprehensive Rules\r\n\r\nThese rules are".encode())
    assert detect_format(path) == "rules"


def test_any_other_text_is_a_page(tmp_path: Path) -> None:
    path = tmp_path / "page.txt"
    path.write_text("Descripción\n\nTira un d20 y suma la cantidad de cartas en tu mano.\n", encoding="utf-8")
    assert detect_format(path) == "page"


@pytest.mark.parametrize(("content", "reason"), [(b"  \n", "empty"), (b"\x00\x01\x02abc", "binary")])
def test_an_empty_or_binary_file_is_refused_naming_it(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(SourceError, match=reason) as caught:
        detect_format(path)
    assert caught.value.path == path
