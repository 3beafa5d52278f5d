"""A command line that starts fast: what each path imports, checked in fresh interpreters.

``carddb`` is a lazy façade and the command line imports a command's module only when it runs, so
``carddb --version`` loads click alone, and looking a card up loads neither Alembic (nor Mako),
nor a grammar, nor RapidFuzz until a suggestion is needed. No timings here: which modules a path
loads is what decides how fast it starts, and that is exact.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import click
import pytest
from alembic.script import ScriptDirectory

import carddb
from carddb import cli as cli_module
from carddb.cli import COMMANDS, cli, main
from carddb.database import Database
from carddb.db import migrate, schema
from carddb.resources import sample_dir

HEAVY = ("alembic", "mako", "lark", "rapidfuzz", "carddb.oracle.grammar", "carddb.ingest", "carddb.db.lookup")


def loaded_after(code: str) -> set[str]:
    """The modules of :data:`HEAVY` (and SQLAlchemy, Babel) a fresh interpreter holds after ``code``."""
    probe = textwrap.dedent(code) + textwrap.dedent(
        """
        import json, sys
        print(json.dumps(sorted(m for m in sys.modules)))
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, encoding="utf-8", timeout=120
    )
    assert run.returncode == 0, run.stderr
    modules = set(json.loads(run.stdout.splitlines()[-1]))
    return {name for name in (*HEAVY, "sqlalchemy", "babel") if name in modules}


@pytest.fixture(scope="module")
def sample_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('startup') / 'sample.sqlite'}"
    with carddb.open(url) as db:
        db.import_path(sample_dir())
    return url


def run_cli(url: str, *args: str) -> str:
    return f"""
        import contextlib, io
        from carddb.cli import main
        with contextlib.redirect_stdout(io.StringIO()) as out:
            code = main(["--db", {url!r}, *{list(args)!r}])
        assert code == 0, (code, out.getvalue())
        """


def test_version_loads_no_database_code() -> None:
    assert loaded_after(run_cli("sqlite://", "--version")) == set()


def test_importing_carddb_loads_nothing_heavy() -> None:
    assert loaded_after("import carddb") == set()


def test_text_and_the_oracle_package_load_no_sqlalchemy() -> None:
    assert loaded_after("import carddb.text") == set()
    assert loaded_after("import carddb.oracle") == set()
    assert loaded_after("import carddb.oracle.keywords") == set()
    assert loaded_after("from carddb.oracle import parse_oracle; parse_oracle('Flying')") == {
        "lark",
        "carddb.oracle.grammar",
    }


def test_card_loads_neither_alembic_nor_a_grammar_nor_rapidfuzz(sample_url: str) -> None:
    loaded = loaded_after(run_cli(sample_url, "card", "Underdark Rift"))

    assert loaded == {"sqlalchemy", "babel", "carddb.db.lookup"}  # Babel: the language's name, dates


def test_a_card_name_not_found_loads_rapidfuzz_for_the_suggestions(sample_url: str) -> None:
    code = run_cli(sample_url, "card", "Unterreich Spalt", "--exact")
    code = code.replace("assert code == 0", "assert code == 1")

    assert loaded_after(code) == {"sqlalchemy", "rapidfuzz", "carddb.db.lookup"}


def test_search_loads_neither_alembic_nor_the_oracle_grammar(sample_url: str) -> None:
    loaded = loaded_after(run_cli(sample_url, "search", "t:creature c:r mv<=3 o:haste"))

    # Lark is the search language's own parser (grammars/search.lark); the oracle grammar, the
    # migrations, the fuzzy matcher and the card lookup stay out.
    assert loaded == {"sqlalchemy", "lark"}


@pytest.mark.parametrize("command", ["languages", "rule", "keyword"])
def test_other_read_commands_load_no_alembic(sample_url: str, command: str) -> None:
    args = {"languages": ("languages",), "rule": ("rule", "702.35"), "keyword": ("keyword", "madness")}[
        command
    ]
    code = run_cli(sample_url, *args).replace("assert code == 0", "assert code in (0, 1)")

    assert not loaded_after(code) & {"alembic", "mako", "lark", "carddb.oracle.grammar"}


def test_opening_a_database_at_head_does_not_import_alembic(sample_url: str) -> None:
    assert "alembic" not in loaded_after(f"import carddb; carddb.open({sample_url!r}).counts()")


def test_opening_a_new_database_migrates_it_with_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.sqlite'}"

    assert "alembic" in loaded_after(f"import carddb; carddb.open({url!r}).counts()")


# -- the lazy command table ---------------------------------------------------------------------
def test_the_table_names_every_command_with_the_first_sentence_of_its_help() -> None:
    for name, entry in COMMANDS.items():
        command = entry.load()
        assert command.name == name
        for limit in (30, 45, 63, 100, 400):
            assert entry.stand_in().get_short_help_str(limit) == command.get_short_help_str(limit), name


def test_help_lists_every_command_as_click_would_without_importing_them() -> None:
    def help_of(group: click.Group) -> str:
        with group.make_context("carddb", [], resilient_parsing=True) as ctx:
            return group.get_help(ctx)

    eager = click.Group(
        "carddb",
        commands={name: entry.load() for name, entry in COMMANDS.items()},
        params=cli.params,
        help=cli.help,
        context_settings=cli.context_settings,
    )

    assert help_of(cli) == help_of(eager)
    assert all(f"  {name} " in help_of(cli) for name in COMMANDS)


def test_help_imports_no_command_module() -> None:
    code = """
        import contextlib, io, sys
        from carddb.cli import main
        with contextlib.redirect_stdout(io.StringIO()) as out:
            main(["--help"])
        assert "search" in out.getvalue()
        commands = {m for m in sys.modules if m.startswith("carddb.commands.")}
        assert commands == {"carddb.commands.context"}, commands
        """
    assert loaded_after(code) == set()


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crad"]) == 2
    assert "No such command 'crad'" in capsys.readouterr().err


def test_the_cli_module_keeps_its_entry_points() -> None:
    assert cli_module.main is main
    assert isinstance(cli, click.Group)


# -- the façade ----------------------------------------------------------------------------------
def test_the_facade_gives_the_documented_names() -> None:
    assert carddb.open is carddb.database.open_database
    assert carddb.Database is Database
    assert issubclass(carddb.CarddbError, Exception)
    assert carddb.resources.sample_dir() == sample_dir()
    assert set(carddb.__all__) <= set(dir(carddb))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = carddb.nope  # type: ignore[attr-defined]


# -- the schema revision, read without Alembic ---------------------------------------------------
def test_the_head_read_from_the_migration_files_is_alembics() -> None:
    assert schema.head_revision() == migrate.head_revision()
    scripts = ScriptDirectory.from_config(migrate.alembic_config())
    assert schema.revisions().known == {script.revision for script in scripts.walk_revisions()}
