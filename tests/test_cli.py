"""The ``carddb`` command line, driven through :func:`carddb.cli.main` as a user would type it.

Every command gets ``--db URL`` (a fresh SQLite file, and a PostgreSQL schema when
``CARDDB_TEST_PG_URL`` is set), so nothing touches the user's default database.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
from samples import card_record, sample_set, write_json

import carddb
from carddb.cli import main
from carddb.database import Database
from carddb.db import migrate
from carddb.resources import sample_dir

SUMMARY = re.compile(
    r"^imported 6 file\(s\) in [\d.]+ s: 5 set\(s\) with 36 printings, \d+ localized entries "
    r"and 193 ruling rows read, \d+ card records written; 138 rules and glossary entries"
)


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


Carddb = Callable[..., Result]


@pytest.fixture
def carddb_cli(capsys: pytest.CaptureFixture[str]) -> Carddb:
    """``carddb_cli(url, "card", "Xorn")`` runs ``carddb --db URL card Xorn`` and returns its exit
    code, stdout and stderr."""

    def invoke(url: str, *args: str) -> Result:
        capsys.readouterr()
        code = main(["--db", url, *args])
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


# -- import --------------------------------------------------------------------------------------
def test_import_sample_quietly_prints_the_summary_and_no_progress_bar(
    db_url: str, carddb_cli: Carddb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # as on a terminal, where a bar would show

    run = carddb_cli(db_url, "import", "--sample", "--quiet")

    assert run.code == 0
    assert run.err == ""
    lines = run.out.splitlines()
    assert SUMMARY.match(lines[0]), lines[0]
    with carddb.open(db_url) as db:
        counts = db.counts()
    assert f"now holds {counts['cards']} cards, {counts['printings']} printings" in lines[1]
    assert counts["printings"] == 36


def test_import_on_a_terminal_shows_a_progress_bar_on_stderr(
    db_url: str, carddb_cli: Carddb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)

    run = carddb_cli(db_url, "import", "--sample")

    assert run.code == 0
    assert "AFC.json.xz" in run.err
    assert SUMMARY.match(run.out)


def test_each_import_warning_is_printed_once(db_url: str, carddb_cli: Carddb, tmp_path: Path) -> None:
    document = sample_set("AFC")
    card_record(document, "Underdark Rift")["foreignData"][0]["language"] = "Klingon"
    path = write_json(tmp_path / "AFC.json", document)

    run = carddb_cli(db_url, "import", "--quiet", str(path))

    assert run.code == 0
    assert run.err.count("unknown language 'Klingon'") == 1


def test_a_failed_multi_file_import_says_which_files_are_in(
    db_url: str, carddb_cli: Carddb, tmp_path: Path
) -> None:
    good, broken = tmp_path / "AFC.json", tmp_path / "ZZZ.json"
    write_json(good, sample_set("AFC"))
    broken.write_text('{"meta": {}, "data": {"code": "ZZZ", "cards": [', encoding="utf-8")

    run = carddb_cli(db_url, "import", "--quiet", str(good), str(broken))

    assert run.code != 0
    assert "1 of 2 file(s) were imported before this one (AFC.json)" in run.err
    assert "Traceback" not in run.err


def test_import_without_paths_is_a_usage_error(db_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(db_url, "import")

    assert run.code == 2
    assert run.out == ""
    assert "Usage:" in run.err
    assert "give one or more PATHs, or --sample" in run.err


def test_import_of_a_missing_path_is_a_one_line_error(
    db_url: str, carddb_cli: Carddb, tmp_path: Path
) -> None:
    missing = tmp_path / "AllPrintings.json.xz"

    run = carddb_cli(db_url, "import", str(missing))

    assert run.code == 1
    assert run.out == ""
    assert run.err.splitlines() == [f"carddb: {missing}: no such file or folder"]


def test_import_of_a_cut_xz_file_is_a_one_line_error_naming_it(
    db_url: str, carddb_cli: Carddb, tmp_path: Path
) -> None:
    compressed = (sample_dir() / "AFC.json.xz").read_bytes()
    cut = tmp_path / "AFC.json.xz"
    cut.write_bytes(compressed[: len(compressed) // 2])

    run = carddb_cli(db_url, "import", str(cut))

    assert run.code == 1
    assert run.err.startswith(f"carddb: {cut}")
    assert len(run.err.splitlines()) == 1


def test_an_interrupted_import_says_the_file_was_rolled_back(
    db_url: str, carddb_cli: Carddb, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Database, "import_path", interrupted)

    run = carddb_cli(db_url, "import", "--sample", "--quiet")

    assert run.code == 130
    assert "interrupted: the file being imported was rolled back" in run.err


# -- card ----------------------------------------------------------------------------------------
def test_card_by_its_german_name_shown_in_japanese(sample_db: Database, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_db.url, "card", "Unterreich-Spalte", "--lang", "ja")

    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0] == "アンダーダークの裂け目"
    assert "{T}：{C}を加える。" in lines
    assert "[日本語 (ja); English name: Underdark Rift]" in lines
    assert any(line.split()[:2] == ["AFC", "#62"] for line in lines)
    rulings = lines[lines.index("Rulings (in English):") + 1 :]
    assert len(rulings) == 11
    assert all(line.startswith("  2021年7月23日: ") for line in rulings)


def test_card_in_german_dates_its_english_rulings_the_german_way(
    sample_db: Database, carddb_cli: Carddb
) -> None:
    run = carddb_cli(sample_db.url, "card", "Diviner's Portent", "--lang", "de")

    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0] == "Omen des Sehers  {X}{U}{U}{U}"
    assert "Rulings (in English):" in lines
    rulings = lines[lines.index("Rulings (in English):") + 1 :]
    assert rulings
    assert all(line.startswith("  23. Juli 2021: ") for line in rulings)


def test_card_as_json_holds_the_faces_printings_and_dated_rulings(
    sample_db: Database, carddb_cli: Carddb
) -> None:
    run = carddb_cli(sample_db.url, "card", "Underdark Rift", "--lang", "de", "--json")

    assert run.code == 0
    card = json.loads(run.out)
    assert (card["name"], card["english_name"], card["language"]) == (
        "Unterreich-Spalte",
        "Underdark Rift",
        "de",
    )
    assert [face["name"] for face in card["faces"]] == ["Unterreich-Spalte"]
    assert [(p["set_code"], p["collector_number"], p["release_date"]) for p in card["printings"]] == [
        ("AFC", "62", "2021-07-23")
    ]
    assert card["rulings_language"] == "en"
    assert len(card["rulings"]) == 11
    assert {(r["published"], r["date_text"]) for r in card["rulings"]} == {("2021-07-23", "23. Juli 2021")}


def test_an_unknown_card_name_fails_and_suggests_close_names(sample_db: Database, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_db.url, "card", "Unterreich Spalt")

    assert run.code != 0
    assert run.out == ""
    assert run.err.startswith("carddb: no card named 'Unterreich Spalt'")
    assert "did you mean: Unterreich-Spalte" in run.err
    assert "Traceback" not in run.err


def test_an_unknown_language_fails_listing_the_choices(sample_db: Database, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_db.url, "card", "Underdark Rift", "--lang", "xx")

    assert run.code != 0
    assert run.err.startswith("carddb: unknown language 'xx'; choose one of: en, de")


# -- languages -------------------------------------------------------------------------------------
def test_languages_lists_native_names_and_counts(sample_db: Database, carddb_cli: Carddb) -> None:
    expected = {count.tag: count for count in sample_db.languages()}

    run = carddb_cli(sample_db.url, "languages")

    assert run.code == 0
    rows = {line.split()[0]: line.split() for line in run.out.splitlines()[1:]}
    for tag, native in (("de", "Deutsch"), ("ja", "日本語")):
        count = expected[tag]
        assert rows[tag][2] == native
        assert rows[tag][-3:] == [str(count.localizations), str(count.printings), str(count.rulings)]
        assert count.localizations > 0 and count.printings > 0


def test_languages_as_json(sample_db: Database, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_db.url, "languages", "--json")

    assert run.code == 0
    listed = json.loads(run.out)
    assert listed == [asdict(count) for count in sample_db.languages()]
    by_tag = {entry["tag"]: entry for entry in listed}
    assert by_tag["de"]["native_name"] == "Deutsch"
    assert by_tag["ja"]["native_name"] == "日本語"


# -- db --------------------------------------------------------------------------------------------
def test_db_current_on_a_fresh_database_is_base(db_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(db_url, "db", "current")

    assert run.code == 0
    assert run.out.rstrip().endswith(f": revision base (newest is {migrate.head_revision()})")


def test_db_upgrade_brings_a_fresh_database_to_the_newest_revision(db_url: str, carddb_cli: Carddb) -> None:
    head = migrate.head_revision()

    upgraded = carddb_cli(db_url, "db", "upgrade")
    current = carddb_cli(db_url, "db", "current")

    assert upgraded.code == 0
    assert upgraded.out.rstrip().endswith(f" at revision {head}")
    assert current.out.rstrip().endswith(f": revision {head} (up to date)")


def test_db_downgrade_to_base_and_upgrade_again(db_url: str, carddb_cli: Carddb) -> None:
    assert carddb_cli(db_url, "db", "upgrade").code == 0

    downgraded = carddb_cli(db_url, "db", "downgrade", "base")
    at_base = carddb_cli(db_url, "db", "current")
    upgraded = carddb_cli(db_url, "db", "upgrade")

    assert downgraded.code == 0
    assert downgraded.out.rstrip().endswith(" at revision base")
    assert ": revision base (newest is " in at_base.out
    assert upgraded.code == 0
    assert carddb_cli(db_url, "db", "current").out.rstrip().endswith("(up to date)")
    with carddb.open(db_url) as db:
        assert db.counts() == {"cards": 0, "printings": 0, "localizations": 0, "rulings": 0}


def test_db_downgrade_to_an_unknown_revision_is_a_one_line_error(db_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(db_url, "db", "downgrade", "no-such-revision")

    assert run.code == 1
    assert len(run.err.splitlines()) == 1
    assert run.err.startswith("carddb: ") and "no-such-revision" in run.err


# -- the installed console script ------------------------------------------------------------------
def test_the_console_script_imports_the_sample_and_shows_a_card_in_japanese(db_url: str) -> None:
    script = Path(sys.executable).with_name("carddb")
    if not script.exists():
        pytest.skip("the carddb console script is not installed beside this Python")
    env = {name: value for name, value in os.environ.items() if name != "CARDDB_URL"}

    def carddb_script(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(script), "--db", db_url, *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            timeout=300,
        )

    imported = carddb_script("import", "--sample", "--quiet")
    shown = carddb_script("card", "Unterreich-Spalte", "--lang", "ja")

    assert imported.returncode == 0, imported.stderr
    assert imported.stderr == ""
    assert SUMMARY.match(imported.stdout)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[0] == "アンダーダークの裂け目"
    assert "2021年7月23日" in shown.stdout


def test_parse_prints_json_with_completeness_and_ability_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "{T}: Add {C}.", "--name", "Underdark Rift", "--type", "Land", "--json"]) == 0
    parsed = json.loads(capsys.readouterr().out)
    assert parsed["complete"] is True
    assert [ability["kind"] for ability in parsed["abilities"]] == ["mana"]


def test_parse_reads_a_card_from_the_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'cards.sqlite'}"
    assert main(["--db", url, "import", "--sample", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["--db", url, "parse", "--card", "Unterreich-Spalte"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("complete")
    assert "activated: {5}, {T}, Exile ~: Roll a d10." in out
