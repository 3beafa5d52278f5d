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
    assert run.err.split("\n")[1:] == [  # first, the line click ends "^C" with
        "carddb: interrupted",
        "carddb: the file being imported was rolled back; the files before it are in",
        "",
    ]


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


def test_card_as_json_is_a_scryfall_card_object_with_its_rulings(
    sample_db: Database, carddb_cli: Carddb
) -> None:
    run = carddb_cli(sample_db.url, "card", "Underdark Rift", "--lang", "de", "--json")

    assert run.code == 0
    card = json.loads(run.out)
    assert (card["object"], card["name"], card["lang"]) == ("card", "Underdark Rift", "de")
    assert (card["printed_name"], card["printed_type_line"]) == ("Unterreich-Spalte", "Land")
    assert card["printed_text"].startswith("{T}: Erzeuge {C}.")
    assert card["oracle_text"].startswith("{T}: Add {C}.")
    assert (card["set"], card["set_name"], card["collector_number"], card["rarity"], card["released_at"]) == (
        "afc",
        "Forgotten Realms Commander",
        "62",
        "uncommon",
        "2021-07-23",
    )
    assert (card["mana_cost"], card["cmc"], card["colors"], card["color_identity"]) == ("", 0.0, [], [])
    assert card["oracle_id"] == "199c7604-6b4b-4cec-b6c2-b6b2918b11c8"
    rulings = card["rulings"]
    assert (rulings["object"], rulings["has_more"], len(rulings["data"])) == ("list", False, 11)
    assert {(r["object"], r["published_at"], r["source"]) for r in rulings["data"]} == {
        ("ruling", "2021-07-23", "wotc")
    }


def test_a_card_of_two_faces_as_json_has_card_faces(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "card", "Realm-Cloaked Giant", "--lang", "ja", "--json")

    card = json.loads(run.out)
    assert (card["name"], card["layout"], card["mana_cost"]) == (
        "Realm-Cloaked Giant // Cast Off",
        "adventure",
        "{5}{W}{W} // {3}{W}{W}",
    )
    assert [face["name"] for face in card["card_faces"]] == ["Realm-Cloaked Giant", "Cast Off"]
    assert [face["object"] for face in card["card_faces"]] == ["card_face", "card_face"]
    assert card["set"] == "afc"  # the newest printing in Japanese, whose names carry reading hints
    assert card["card_faces"][1]["printed_name"] == "脱（ぬ）ぎ捨（す）て"


def test_search_as_json_is_a_scryfall_list_of_card_objects(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "t:creature c:r", "--lang", "de", "--limit", "2", "--json")

    assert run.code == 0
    found = json.loads(run.out)
    assert (found["object"], found["total_cards"], found["has_more"]) == ("list", 4, True)
    assert [(card["object"], card["name"], card["lang"]) for card in found["data"]] == [
        ("card", "Farideh, Devil's Chosen", "de"),  # in the order of their German names
        ("card", "Brazen Dwarf", "de"),
    ]
    assert found["data"][1]["printed_name"] == "Messingzwerg"


def test_a_printing_named_by_its_set_and_number_is_that_printing_in_its_language(sample_url: str) -> None:
    from carddb.commands.scryfall import printing_objects

    portent = "Diviner's Portent"
    with carddb.open(sample_url, read_only=True) as db:
        oracle_id = db.card(portent).oracle_id
        found = printing_objects(db, [(oracle_id, "AFC", "284"), (oracle_id, "AFC", "999")], "ja")
        korean = printing_objects(db, [(oracle_id, "AFC", "284")], "ko")

    assert [(c["name"], c["set"], c["collector_number"], c["lang"]) for c in found] == [
        (portent, "afc", "284", "ja")  # AFC 999 does not exist: left out
    ]
    assert korean[0]["lang"] == "en"  # AFC 284 was not printed in Korean


@pytest.mark.parametrize("order", ["cmc", "mv"])
def test_order_takes_the_names_the_query_takes(sample_url: str, carddb_cli: Carddb, order: str) -> None:
    by_option = carddb_cli(sample_url, "search", "t:creature c:r", "--order", order)
    by_query = carddb_cli(sample_url, "search", f"t:creature c:r order:{order}")

    assert by_option.code == 0, by_option.err
    assert by_option.out == by_query.out
    assert names_found(by_option.out) == ["Brazen Dwarf", "Phoenix of Ash", "Xorn", "Farideh, Devil's Chosen"]


def test_unique_prints_as_json_gives_each_printing(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(
        sample_url, "search", '!"Diviner\'s Portent"', "--unique", "prints", "--lang", "ja", "--json"
    )

    found = json.loads(run.out)
    assert found["total_cards"] == 2
    assert [(c["set"], c["collector_number"], c["lang"]) for c in found["data"]] == [
        ("afc", "15", "ja"),
        ("afc", "284", "ja"),
    ]


def test_direction_reverses_the_order(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "t:creature c:r", "--order", "cmc", "--direction", "desc")

    assert names_found(run.out) == ["Farideh, Devil's Chosen", "Phoenix of Ash", "Xorn", "Brazen Dwarf"]


def test_no_order_given_leaves_the_query_its_own(
    sample_url: str, carddb_cli: Carddb, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: dict[str, object] = {}
    search = Database.search

    def spy(self: Database, *args: object, **kwargs: object) -> object:
        asked.update(kwargs)
        return search(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Database, "search", spy)

    assert carddb_cli(sample_url, "search", "t:creature").code == 0
    assert "order" not in asked


def test_the_last_page_as_json_has_no_more(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "t:creature c:r", "--limit", "2", "--page", "2", "--json")

    found = json.loads(run.out)
    assert (found["total_cards"], found["has_more"], len(found["data"])) == (4, False, 2)


def test_a_misspelt_card_name_resolves_to_the_card_it_clearly_means(
    sample_db: Database, carddb_cli: Carddb
) -> None:
    """As Scryfall's named?fuzzy=: punctuation ignored, a letter missing."""
    run = carddb_cli(sample_db.url, "card", "Unterreich Spalt")

    assert run.code == 0, run.err
    assert run.out.splitlines()[0].startswith("Unterreich-Spalte")


def test_an_unknown_card_name_fails_and_suggests_close_names(sample_db: Database, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_db.url, "card", "Unterreich Spalt", "--exact")

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


# -- a command line that fits the query syntax -----------------------------------------------------
@pytest.fixture(scope="module")
def sample_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An SQLite file holding the shipped sample, shared by the tests that only read it."""
    url = f"sqlite:///{tmp_path_factory.mktemp('cli') / 'sample.sqlite'}"
    with carddb.open(url) as db:
        db.import_path(sample_dir())
    return url


def names_found(out: str) -> list[str]:
    """The card names of a search's text output (its rows, without the total)."""
    return [re.split(r"\s{2,}", line)[0] for line in out.splitlines()[:-1]]


@pytest.mark.parametrize("words", [["-t:land c:g"], ["-t:land", "c:g"], ["c:g", "-t:land"]])
def test_a_query_may_start_with_a_minus(sample_url: str, carddb_cli: Carddb, words: list[str]) -> None:
    run = carddb_cli(sample_url, "search", *words)

    assert run.code == 0, run.err
    assert names_found(run.out) == ["Abundant Growth", "Rampant Growth", "Return to Nature"]


def test_a_query_of_several_words_keeps_their_order(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "t:phoenix", "or", "-t:creature", "c:r")

    assert names_found(run.out) == [
        "Barbarian Class",
        "Berserker's Frenzy",
        "Lightning Bolt",
        "Phoenix of Ash",
    ]
    assert run.out == carddb_cli(sample_url, "search", "t:phoenix or -t:creature c:r").out


def test_options_may_come_anywhere(sample_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["search", "c:r", "--limit", "1", "t:creature", "--db", sample_url, "--order", "name"])

    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines() == [
        "Brazen Dwarf  {1}{R}  Creature — Dwarf Shaman",
        "4 cards (showing 1-1)",
    ]


def test_after_a_double_dash_everything_is_query(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "--", "--lang")

    assert run.code == 0
    assert run.out == "0 cards\n"


def test_db_takes_the_path_of_an_sqlite_file(sample_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = sample_url.removeprefix("sqlite:///")

    assert main(["--db", path, "card", "Lightning", "Bolt", "--lang", "ja"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "稲妻  {R}"


def test_a_path_that_holds_no_database_says_so(tmp_path: Path, carddb_cli: Carddb) -> None:
    missing = tmp_path / "mistyped.sqlite"

    run = carddb_cli(str(missing), "card", "Xorn")

    assert run.code == 1
    assert (
        run.err == f"carddb: cannot open database sqlite:///{missing}: no database at {missing} "
        "(run carddb import first)\n"
    )
    assert not missing.exists()


def test_an_empty_database_warns_before_the_lookup_fails(db_url: str, carddb_cli: Carddb) -> None:
    assert carddb_cli(db_url, "db", "upgrade").code == 0

    run = carddb_cli(db_url, "card", "Xorn")

    assert run.code == 1
    warning, error = run.err.splitlines()
    assert (
        warning.startswith("warning: the database ") and " holds no cards (carddb import --sample" in warning
    )
    assert error == "carddb: no card named 'Xorn'"


def test_order_sorts_by_mana_value(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "t:creature c:r", "--order", "mv")

    assert run.code == 0
    assert names_found(run.out) == ["Brazen Dwarf", "Phoenix of Ash", "Xorn", "Farideh, Devil's Chosen"]


def test_a_page_number_too_large_is_a_usage_error(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "t:land", "--page", "99999999999999999999")

    assert run.code == 2
    assert run.err.splitlines()[-1] == (
        "Error: Invalid value for '--page': 99999999999999999999 is not in the range 1<=x<=1000000."
    )


def test_ctrl_c_during_a_search_exits_130(
    sample_url: str, carddb_cli: Carddb, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Database, "search", interrupted)

    run = carddb_cli(sample_url, "search", "t:land")

    assert run.code == 130
    assert run.err.strip() == "carddb: interrupted"


LONG_STATEMENT = """
import signal, sys, threading, time
from sqlalchemy import create_engine, text
from carddb.commands.interrupt import run_interruptibly, watch_connections

watch_connections()
engine = create_engine("sqlite:///" + sys.argv[1])
counting = text(
    "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 2000000000) "
    "SELECT count(*) FROM r"
)

def long_statement():  # minutes of work when nothing stops it
    threading.Timer(0.3, signal.raise_signal, (signal.SIGINT,)).start()  # Ctrl-C, once it runs
    with engine.connect() as connection:
        return connection.execute(counting).scalar()

started = time.monotonic()
try:
    run_interruptibly(long_statement)
except KeyboardInterrupt:
    running = [t.name for t in threading.enumerate() if t.name == "carddb-command"]
    print(f"interrupted after {time.monotonic() - started:.1f} s; still running: {running}")
"""


def test_ctrl_c_stops_a_long_sqlite_statement_at_once(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", LONG_STATEMENT, str(tmp_path / "long.sqlite")],
        capture_output=True,
        text=True,
        timeout=120,
        start_new_session=True,  # its Ctrl-C is its own
    )

    assert run.returncode == 0, run.stderr
    seconds, running = re.fullmatch(
        r"interrupted after ([\d.]+) s; still running: (.*)\n", run.stdout
    ).groups()
    assert running == "[]"  # the statement stopped, the worker ended
    assert float(seconds) < 10


# -- errors under --json ---------------------------------------------------------------------------
def test_an_unknown_card_under_json_is_a_json_error_object(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "card", "Unterreich Spalt", "--json", "--exact")

    assert run.code == 1
    error = json.loads(run.out)
    assert (error["object"], error["code"], error["status"]) == ("error", "not_found", 404)
    assert error["details"].startswith("no card named 'Unterreich Spalt'")


def test_a_malformed_query_under_json_is_a_bad_request(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "--json", "t:creature (c:r")

    assert run.code != 0
    error = json.loads(run.out)
    assert (error["object"], error["code"], error["status"]) == ("error", "bad_request", 400)


def test_a_usage_error_under_json_is_a_bad_request(sample_url: str, carddb_cli: Carddb) -> None:
    run = carddb_cli(sample_url, "search", "t:land", "--json", "--limit", "0")

    assert run.code == 2
    error = json.loads(run.out)
    assert (error["code"], error["status"]) == ("bad_request", 400)
    assert "--limit" in error["details"]


# -- text for terminals ----------------------------------------------------------------------------
def test_text_is_wrapped_to_the_terminal_with_hanging_indents(
    sample_url: str, carddb_cli: Carddb, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = carddb_cli(sample_url, "card", "Underdark Rift")
    monkeypatch.setenv("COLUMNS", "80")

    wrapped = carddb_cli(sample_url, "card", "Underdark Rift")

    lines = wrapped.out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert wrapped.out.split() == whole.out.split()  # the same words: none was cut
    ruling = lines.index("Rulings:") + 1
    assert lines[ruling].startswith("  July 23, 2021: If that permanent's owner")
    assert lines[ruling + 1].startswith("    ")  # its continuation hangs under its text


def test_japanese_text_wraps_between_characters_never_before_a_full_stop(
    sample_url: str, carddb_cli: Carddb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "31")

    run = carddb_cli(sample_url, "card", "Underdark Rift", "--lang", "ja")

    from carddb.commands.output import cells

    lines = run.out.splitlines()
    assert all(cells(line) <= 31 for line in lines)
    text = lines[lines.index("{T}：{C}を加える。") + 1 :]
    assert text[0] == "{5}, {T}, アンダーダークの裂け"
    assert not any(line.lstrip().startswith(("。", "ー", "）")) for line in text[:8])


def test_colour_only_on_terminals_and_never_with_no_color(
    sample_url: str, carddb_cli: Carddb, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = carddb_cli(sample_url, "search", "t:phoenix")
    monkeypatch.setenv("FORCE_COLOR", "1")
    coloured = carddb_cli(sample_url, "search", "t:phoenix")
    monkeypatch.setenv("NO_COLOR", "1")
    no_color = carddb_cli(sample_url, "search", "t:phoenix")

    assert "\x1b[" not in plain.out
    assert coloured.out.startswith("\x1b[1mPhoenix of Ash\x1b[0m  {1}{R}{R}")
    assert no_color.out == plain.out


def test_languages_columns_line_up_with_cjk_names(sample_url: str, carddb_cli: Carddb) -> None:
    from carddb.commands.output import cells

    run = carddb_cli(sample_url, "languages")

    heading, *rows = run.out.splitlines()
    assert {cells(row) for row in rows} == {cells(heading)}  # the counts end where the heading does
    localizations_end = cells(heading.rsplit(maxsplit=2)[0])
    assert {cells(row.rsplit(maxsplit=2)[0]) for row in rows} == {localizations_end}
    assert any("日本語" in row and "한국어" not in row for row in rows)


# -- what a shell can send ---------------------------------------------------------------------------
def carddb_process(
    *args: str | bytes, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``carddb ARGS`` as a process (``python -m carddb.cli``), with bytes in and out."""
    environment = {
        name: value for name, value in os.environ.items() if name not in ("CARDDB_URL", "NO_COLOR")
    }
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "carddb.cli", *args], capture_output=True, env=environment, timeout=120
    )


def test_an_output_encoding_without_the_text_prints_replacement_characters(sample_url: str) -> None:
    run = carddb_process(
        "--db", sample_url, "card", "稲妻", "--lang", "ja", env={"PYTHONIOENCODING": "latin-1"}
    )

    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == b"??  {R}"
    assert run.stderr == b""


def test_json_through_an_encoding_without_the_text_escapes_it_and_loses_nothing(sample_url: str) -> None:
    run = carddb_process(
        "--db", sample_url, "card", "稲妻", "--lang", "ja", "--json", env={"PYTHONIOENCODING": "latin-1"}
    )

    assert run.returncode == 0, run.stderr
    assert b'"printed_name": "\\u7a32\\u59bb"' in run.stdout
    assert json.loads(run.stdout)["printed_name"] == "稲妻"


def test_bytes_that_are_not_utf8_on_the_command_line_are_a_one_line_error(sample_url: str) -> None:
    run = carddb_process("--db", sample_url, "search", b"\xff")

    assert run.returncode == 2
    assert run.stdout == b""
    assert run.stderr == b"carddb: argument 4 is not UTF-8 text: b'\\xff'\n"


def test_a_reader_that_goes_away_ends_the_command_quietly(sample_url: str) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # as `carddb search … | head -1` once head has exited
    try:
        run = subprocess.run(
            [sys.executable, "-m", "carddb.cli", "--db", sample_url, "search", "-c:c"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(write_end)

    assert run.returncode == 1  # as click ends a command whose output pipe broke
    assert run.stderr == b""


def test_python_dash_m_carddb_is_the_carddb_command() -> None:
    run = subprocess.run([sys.executable, "-m", "carddb", "--help"], capture_output=True, timeout=120)

    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(b"Usage: carddb")
