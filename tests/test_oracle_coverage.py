"""Parser coverage: reading faces from JSONL, MTGJSON and Scryfall files, grouping what the parser
leaves unimplemented into shapes, and the ``carddb coverage`` report and exit status.

Most tests use a fake parser that understands only "Flying" (and empty text), so that they
describe the harness, not the grammar.
"""

from __future__ import annotations

import gzip
import json
import lzma
from collections.abc import Callable
from pathlib import Path

import pytest

from carddb.errors import CarddbError, MalformedJSONError, SourceError
from carddb.oracle import coverage
from carddb.oracle.coverage import (
    RENDER_MISMATCH,
    CoverageReport,
    coverage_command,
    format_report,
    measure,
    shape,
)
from carddb.oracle.faces import Face, detect_format, read_faces
from carddb.oracle.model import Ability, Kind, ParsedFace, Span, Unimplemented
from carddb.resources import sample_dir

FIXTURES = Path(__file__).parent / "fixtures" / "oracle"
FACES_JSONL = FIXTURES / "faces.jsonl"
SCRYFALL_PAGE = FIXTURES / "scryfall-page.json"
MTGJSON_SET = sample_dir() / "AFC.json.xz"


def only_flying(text: str, name: str | None = None, type_line: str | None = None) -> ParsedFace:
    """A fake parser: a line "Flying" is understood, any other line is one Unimplemented node."""
    abilities = []
    offset = 0
    for line in text.split("\n") if text else []:
        span = Span(offset, offset + len(line))
        if line == "Flying":
            abilities.append(Ability(Kind.KEYWORD, span))
        else:
            abilities.append(Ability(Kind.UNKNOWN, span, effects=(Unimplemented(line, span, "fake"),)))
        offset += len(line) + 1
    return ParsedFace(source=text, normalized=text, abilities=tuple(abilities), rendered=text)


def faces_of(*texts: str) -> list[Face]:
    return [Face(f"Card {index}", text) for index, text in enumerate(texts, start=1)]


# -- faces ----------------------------------------------------------------------------------------
def test_a_face_of_a_multi_face_card_is_parsed_under_its_own_name() -> None:
    assert Face("Bonecrusher Giant // Stomp", "…", "Stomp").parser_name == "Stomp"


def test_a_single_face_card_is_parsed_under_the_card_name() -> None:
    assert Face("Air Elemental", "Flying").parser_name == "Air Elemental"


@pytest.mark.parametrize(
    "path, name, type_line",
    [
        (FACES_JSONL, "Stomp", "Instant — Adventure"),
        (SCRYFALL_PAGE, "Stomp", "Instant — Adventure"),
        (MTGJSON_SET, "Cast Off", "Sorcery — Adventure"),
    ],
    ids=["jsonl", "scryfall", "mtgjson"],
)
def test_a_face_keeps_its_type_line(path: Path, name: str, type_line: str) -> None:
    face = next(face for face in read_faces(path) if face.parser_name == name)

    assert face.type_line == type_line


@pytest.mark.parametrize(
    "path, name",
    [(FACES_JSONL, "Stomp"), (SCRYFALL_PAGE, "Stomp"), (MTGJSON_SET, "Cast Off")],
    ids=["jsonl", "scryfall", "mtgjson"],
)
def test_a_face_keeps_its_card_s_layout_and_its_side(path: Path, name: str) -> None:
    face = next(face for face in read_faces(path) if face.parser_name == name)

    assert (face.layout, face.side) == ("adventure", 1)


def test_a_card_of_one_face_is_side_0_of_a_normal_layout() -> None:
    face = Face("Air Elemental", "Flying")

    assert (face.layout, face.side) == ("normal", 0)


def test_a_jsonl_file_of_faces_is_detected() -> None:
    assert detect_format(FACES_JSONL) == "jsonl"


def test_jsonl_faces_carry_name_face_name_and_text() -> None:
    faces = list(read_faces(FACES_JSONL))

    assert [face.parser_name for face in faces] == [
        "Underdark Rift",
        "Diviner's Portent",
        "Aegis Turtle",
        "Air Elemental",
        "Bonecrusher Giant",
        "Stomp",
    ]
    assert (faces[5].name, faces[5].face_name, faces[5].text) == (
        "Bonecrusher Giant // Stomp",
        "Stomp",
        "Damage can't be prevented this turn. Stomp deals 2 damage to any target.",
    )


def test_a_null_text_is_an_empty_text() -> None:
    turtle = next(face for face in read_faces(FACES_JSONL) if face.name == "Aegis Turtle")

    assert turtle.text == ""


@pytest.mark.parametrize("suffix, compress", [(".xz", lzma.compress), (".gz", gzip.compress)])
def test_a_compressed_file_reads_like_the_plain_one(
    tmp_path: Path, suffix: str, compress: Callable[[bytes], bytes]
) -> None:
    packed = tmp_path / f"faces.jsonl{suffix}"
    packed.write_bytes(compress(FACES_JSONL.read_bytes()))

    assert list(read_faces(packed)) == list(read_faces(FACES_JSONL))


def test_a_face_repeated_in_a_jsonl_file_is_read_once(tmp_path: Path) -> None:
    twice = tmp_path / "twice.jsonl"
    twice.write_bytes(FACES_JSONL.read_bytes() * 2)

    assert len(list(read_faces(twice))) == 6


def test_a_scryfall_list_page_is_detected() -> None:
    assert detect_format(SCRYFALL_PAGE) == "scryfall"


def test_a_scryfall_multi_face_card_yields_each_face() -> None:
    faces = [face for face in read_faces(SCRYFALL_PAGE) if face.name == "Bonecrusher Giant // Stomp"]

    assert [face.face_name for face in faces] == ["Bonecrusher Giant", "Stomp"]


def test_scryfall_printings_in_other_languages_are_one_face() -> None:
    faces = [face for face in read_faces(SCRYFALL_PAGE) if face.name == "Zameck Guildmage"]

    assert len(faces) == 1
    assert faces[0].text.startswith("{G}{U}: This turn, each creature you control")


def test_a_scryfall_bulk_array_is_read(tmp_path: Path) -> None:
    bulk = tmp_path / "cards.json"
    bulk.write_text(json.dumps(json.loads(SCRYFALL_PAGE.read_text("utf-8"))["data"]), "utf-8")

    assert detect_format(bulk) == "scryfall"
    assert list(read_faces(bulk)) == list(read_faces(SCRYFALL_PAGE))


def test_an_mtgjson_set_file_is_detected() -> None:
    assert detect_format(MTGJSON_SET) == "mtgjson"


def test_mtgjson_reprints_in_a_set_are_one_face() -> None:
    names = [face.parser_name for face in read_faces(MTGJSON_SET)]

    assert len(names) == 10  # 13 card records: three cards are printed twice
    assert names.count("Diviner's Portent") == 1


def test_an_mtgjson_multi_face_card_has_a_face_per_record() -> None:
    faces = [face for face in read_faces(MTGJSON_SET) if face.name == "Realm-Cloaked Giant // Cast Off"]

    assert [face.face_name for face in faces] == ["Realm-Cloaked Giant", "Cast Off"]


def test_mtgjson_allprintings_repeating_a_set_yields_its_faces_once(tmp_path: Path) -> None:
    set_file = json.loads(lzma.decompress(MTGJSON_SET.read_bytes()))
    reprint = dict(set_file["data"], code="XAF")
    all_printings = tmp_path / "AllPrintings.json"
    all_printings.write_text(
        json.dumps({"meta": set_file["meta"], "data": {"AFC": set_file["data"], "XAF": reprint}}), "utf-8"
    )

    assert detect_format(all_printings) == "mtgjson"
    assert list(read_faces(all_printings)) == list(read_faces(MTGJSON_SET))


def test_an_unknown_json_document_is_a_source_error_saying_what_was_expected(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"cards": []}', "utf-8")

    with pytest.raises(SourceError, match="expected JSON Lines of faces") as raised:
        list(read_faces(other))
    assert raised.value.path == other


def test_a_file_that_is_not_json_is_a_source_error(tmp_path: Path) -> None:
    text = tmp_path / "cards.txt"
    text.write_text("Air Elemental\nFlying\n", "utf-8")

    with pytest.raises(SourceError, match="not JSON"):
        list(read_faces(text))


def test_an_empty_file_is_a_source_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")

    with pytest.raises(SourceError, match="empty"):
        list(read_faces(empty))


def test_a_missing_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file"):
        list(read_faces(tmp_path / "absent.jsonl"))


def test_a_broken_jsonl_line_is_named_by_its_number(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(FACES_JSONL.read_bytes().split(b"\n")[0] + b'\n{"name": "Cut\n')

    with pytest.raises(MalformedJSONError) as raised:
        list(read_faces(broken))
    assert raised.value.position == "line 2"


def test_a_truncated_scryfall_page_is_malformed_json(tmp_path: Path) -> None:
    truncated = tmp_path / "page.json"
    truncated.write_bytes(SCRYFALL_PAGE.read_bytes()[:1500])

    with pytest.raises(MalformedJSONError, match="truncated"):
        list(read_faces(truncated))


# -- shapes ---------------------------------------------------------------------------------------
def test_fragments_differing_only_in_numbers_share_a_shape() -> None:
    assert shape("Scry 2.") == shape("Scry 3.") == "Scry N."


@pytest.mark.parametrize(
    "fragment, expected",
    [
        ("Draw three cards.", "Draw N cards."),
        ("Twenty or more", "N or more"),
        ("Roll a d20.", "Roll a dN."),
        ("~ gets +2/+0 until end of turn.", "~ gets +N/+N until end of turn."),
    ],
)
def test_digits_and_number_words_become_n(fragment: str, expected: str) -> None:
    assert shape(fragment) == expected


def test_a_run_of_mana_symbols_becomes_one_m() -> None:
    assert shape("{2}{R}{R}, Sacrifice ~: Draw a card.") == "{M}, Sacrifice ~: Draw a card."


def test_tap_and_other_non_mana_symbols_stay() -> None:
    assert shape("{1}{U}{T}: Add {C}.") == "{M}{T}: Add {M}."


def test_x_stays() -> None:
    assert shape("Draw X cards.") == "Draw X cards."


def test_the_card_name_becomes_the_self_reference() -> None:
    assert shape("Exile Underdark Rift.", "Underdark Rift") == "Exile ~."


def test_a_legendary_short_name_becomes_the_self_reference() -> None:
    assert shape("Farideh deals 1 damage.", "Farideh, Devil's Chosen") == "~ deals N damage."


def test_whitespace_collapses() -> None:
    assert shape("  Draw a\n card.  ") == "Draw a card."


# -- measure --------------------------------------------------------------------------------------
def test_measure_counts_faces_and_complete_ones() -> None:
    report = measure(read_faces(FACES_JSONL), parse=only_flying)

    assert (report.faces, report.parsed) == (6, 2)  # Aegis Turtle (no text) and Air Elemental


def test_the_rate_is_the_share_of_complete_faces() -> None:
    report = measure(faces_of("Flying", "Scry 2."), parse=only_flying)

    assert report.rate == 0.5


def test_the_rate_is_zero_without_faces() -> None:
    assert measure([], parse=only_flying).rate == 0.0


def test_the_parser_gets_each_face_text_under_its_face_name() -> None:
    calls: list[tuple[str, str | None, str | None]] = []

    def recording(text: str, name: str | None = None, type_line: str | None = None) -> ParsedFace:
        calls.append((text, name, type_line))
        return only_flying(text, name)

    measure(read_faces(SCRYFALL_PAGE), parse=recording)

    assert [name for _, name, _ in calls] == ["Zameck Guildmage", "Bonecrusher Giant", "Stomp"]
    assert calls[2] == (
        "Damage can't be prevented this turn. Stomp deals 2 damage to any target.",
        "Stomp",
        "Instant — Adventure",
    )


def test_shapes_are_ranked_by_the_number_of_faces_they_occur_in() -> None:
    report = measure(faces_of("Draw a card.", "Scry 1.", "Scry 2.\nScry 3."), parse=only_flying)

    assert report.top_unimplemented == (("Scry N.", 2), ("Draw a card.", 1))


def test_top_limits_the_shapes_kept() -> None:
    report = measure(faces_of("Draw a card.", "Scry 1.", "Scry 2."), parse=only_flying, top=1)

    assert report.top_unimplemented == (("Scry N.", 2),)


def test_each_top_shape_has_example_faces() -> None:
    report = measure(faces_of("Scry 1.", "Flying", "Scry 2."), parse=only_flying)

    assert report.examples_of("Scry N.") == ("Card 1", "Card 3")


def test_an_incomplete_face_without_unimplemented_text_counts_as_a_render_mismatch() -> None:
    def renders_otherwise(text: str, name: str | None = None, type_line: str | None = None) -> ParsedFace:
        return ParsedFace(source=text, normalized=text, abilities=(), rendered="something else")

    report = measure(faces_of("Flying"), parse=renders_otherwise)

    assert report.top_unimplemented == ((RENDER_MISMATCH, 1),)


def test_a_parser_crash_propagates_naming_the_face() -> None:
    def crashing(text: str, name: str | None = None, type_line: str | None = None) -> ParsedFace:
        raise IndexError("list index out of range")

    with pytest.raises(RuntimeError, match=r"parser crashed on 'Stomp': IndexError") as raised:
        measure([Face("Bonecrusher Giant // Stomp", "Stomp deals 2 damage.", "Stomp")], parse=crashing)
    assert isinstance(raised.value.__cause__, IndexError)


def test_a_carddb_error_from_the_parser_propagates_unchanged() -> None:
    error = CarddbError("deliberate")

    def refusing(text: str, name: str | None = None, type_line: str | None = None) -> ParsedFace:
        raise error

    with pytest.raises(CarddbError) as raised:
        measure(faces_of("Flying"), parse=refusing)
    assert raised.value is error


def test_a_report_records_peak_memory() -> None:
    assert measure(faces_of("Flying"), parse=only_flying).peak_memory_mb > 0


# -- several processes ----------------------------------------------------------------------------
@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run even a handful of faces in worker processes, two faces per task."""
    monkeypatch.setattr(coverage, "PARALLEL_MINIMUM", 0)
    monkeypatch.setattr(coverage, "CHUNK", 2)


def _without_timings(report: CoverageReport) -> dict[str, object]:
    found = report.to_dict()
    for timing in ("seconds", "faces_per_second", "peak_memory_mb"):
        del found[timing]
    return found


@pytest.mark.usefixtures("small_chunks")
def test_parsing_in_two_processes_gives_the_report_of_one_process() -> None:
    faces = [*read_faces(FACES_JSONL), *faces_of("Flying", "Frobnicate the whizzbang.", "Scry 2.")]

    alone, shared = measure(faces, jobs=1), measure(faces, jobs=2)

    assert _without_timings(shared) == _without_timings(alone)
    assert shared.faces == len(faces)


@pytest.mark.usefixtures("small_chunks")
def test_a_parser_crash_in_a_worker_propagates_naming_the_face(monkeypatch: pytest.MonkeyPatch) -> None:
    def crashing_on_stomp(text: str, name: str | None = None, type_line: str | None = None) -> ParsedFace:
        if name == "Stomp":
            raise IndexError("list index out of range")
        return only_flying(text, name, type_line)

    monkeypatch.setattr(coverage, "parse_oracle", crashing_on_stomp)
    stomp = Face("Bonecrusher Giant // Stomp", "Stomp deals 2 damage.", "Stomp")
    faces = [*faces_of("Flying", "Flying", "Flying"), stomp]

    with pytest.raises(RuntimeError, match=r"parser crashed on 'Stomp': IndexError"):
        measure(faces, jobs=2)


# -- report ---------------------------------------------------------------------------------------
REPORT = CoverageReport(
    faces=3,
    parsed=1,
    seconds=0.5,
    peak_memory_mb=80.25,
    top_unimplemented=(("Scry N.", 2),),
    examples=(("Scry N.", ("Card 1", "Card 3")),),
)


def test_faces_per_second_divides_faces_by_parse_time() -> None:
    assert REPORT.faces_per_second == 6.0


def test_to_dict_is_json_with_the_totals_and_the_top_shapes() -> None:
    assert json.loads(json.dumps(REPORT.to_dict())) == {
        "faces": 3,
        "parsed": 1,
        "rate": 0.333333,
        "seconds": 0.5,
        "faces_per_second": 6.0,
        "peak_memory_mb": 80.2,
        "top_unimplemented": [{"shape": "Scry N.", "count": 2, "examples": ["Card 1", "Card 3"]}],
    }


def test_the_text_report_shows_the_rate_as_a_percentage_with_one_decimal() -> None:
    assert "parsed       1 (33.3%)" in format_report(REPORT)


def test_the_text_report_lists_each_shape_with_its_count_and_an_example() -> None:
    assert format_report(REPORT).splitlines()[-1] == "  2  Scry N.  [Card 1]"


# -- the coverage command -------------------------------------------------------------------------
def test_the_command_prints_the_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    status = coverage_command(FACES_JSONL, as_json=False, min_rate=None, top=5, parse=only_flying)

    assert status == 0
    assert "faces        6" in capsys.readouterr().out


def test_the_command_prints_json_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    coverage_command(FACES_JSONL, as_json=True, min_rate=None, top=3, parse=only_flying)

    report = json.loads(capsys.readouterr().out)
    assert (report["faces"], report["parsed"], len(report["top_unimplemented"])) == (6, 2, 3)


def test_a_rate_below_the_minimum_exits_1_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    status = coverage_command(FACES_JSONL, as_json=False, min_rate=0.5, top=5, parse=only_flying)

    assert status == 1
    assert capsys.readouterr().err == "coverage 0.333333 below the minimum 0.5\n"


def test_a_rate_at_the_minimum_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    status = coverage_command(FACES_JSONL, as_json=False, min_rate=2 / 6, top=5, parse=only_flying)

    assert status == 0
    assert capsys.readouterr().err == ""


def test_the_real_parser_runs_over_the_fixture_faces_without_crashing() -> None:
    oracle = pytest.importorskip("carddb.oracle")
    if not hasattr(oracle, "parse_oracle"):
        pytest.skip("carddb.oracle.parse_oracle does not exist yet")

    report = measure(read_faces(FACES_JSONL))

    assert report.faces == 6
