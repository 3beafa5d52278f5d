"""The README's examples hold on exactly what ``carddb import --sample`` imports.

Every ``console`` block is a session: each ``$ carddb …`` line runs, and what it prints must be
the lines under it (a line ``…`` stands for any lines, a line ending in ``…`` for any line that
starts with the rest). Every ``carddb …`` command of an ``sh`` block must name a command, options
and arguments that exist. Every ``python`` block runs.
"""

from __future__ import annotations

import re
import shlex
from functools import cache
from pathlib import Path

import click
import pytest

import carddb
from carddb.cli import cli, main

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
ELLIPSIS = "…"


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(README.read_text(encoding="utf-8")) if lang == language]


def console_examples() -> list[tuple[str, list[str]]]:
    """Each ``$ command`` of the console blocks with the lines shown under it."""
    examples: list[tuple[str, list[str]]] = []
    for body in blocks("console"):
        for line in body.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            else:
                examples[-1][1].append(line)
    return examples


def shell_commands() -> list[list[str]]:
    """The ``carddb`` commands of the sh blocks, as argument lists (comments and ``&&`` split off)."""
    commands = []
    for body in blocks("sh"):
        for line in body.splitlines():
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            words: list[str] = []
            for token in [*lexer, "&&"]:
                if token in ("&&", "||", ";", "|"):
                    if words and words[0] == "carddb":
                        commands.append(words[1:])
                    words = []
                else:
                    words.append(token)
    return commands


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with its ``…`` lines filled in."""

    @cache
    def match(e: int, a: int) -> bool:
        if e == len(expected):
            return a == len(actual)
        line = expected[e]
        if line == ELLIPSIS:
            return any(match(e + 1, later) for later in range(a, len(actual) + 1))
        if a == len(actual):
            return False
        if line.endswith(ELLIPSIS):
            fits = actual[a].startswith(line[: -len(ELLIPSIS)])
        else:
            fits = actual[a].rstrip() == line.rstrip()
        return fits and match(e + 1, a + 1)

    return match(0, 0)


@pytest.fixture(scope="module")
def sample_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('readme') / 'sample.sqlite'}"
    assert main(["--db", url, "import", "--sample", "--quiet"]) == 0
    return url


@pytest.fixture(autouse=True)
def plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """As into a pipe: no colour, no wrapping."""
    for name in ("COLUMNS", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)


def test_the_readme_has_examples_to_check() -> None:
    assert len(console_examples()) >= 10
    assert any(words[:1] == ["download"] for words in shell_commands())


@pytest.mark.parametrize(("command", "shown"), console_examples(), ids=[c for c, _ in console_examples()])
def test_a_console_example_prints_what_the_readme_shows(
    sample_url: str, command: str, shown: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    words = shlex.split(command)
    assert words[0] == "carddb"
    capsys.readouterr()

    code = main(["--db", sample_url, *words[1:]])

    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""
    assert matches(shown, captured.out.splitlines()), captured.out


@pytest.mark.parametrize("words", shell_commands(), ids=[" ".join(w) for w in shell_commands()])
def test_a_shell_example_is_a_command_carddb_has(words: list[str]) -> None:
    command: click.Command = cli
    context = click.Context(cli, info_name="carddb")
    args = list(words)
    while isinstance(command, click.Group):
        name, found, args = command.resolve_command(context, args)
        assert found is not None and name is not None, f"carddb has no command {args[0]!r}"
        context = click.Context(found, info_name=name, parent=context)
        command = found
    command.make_context(context.info_name, args, parent=context.parent)  # refuses what it does not take


def test_the_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (example,) = blocks("python")
    monkeypatch.chdir(tmp_path)

    exec(compile(example, str(README), "exec"), {"__name__": "readme"})

    with carddb.open(f"sqlite:///{tmp_path / 'cards.sqlite'}", read_only=True) as db:
        assert db.counts()["cards"] == 25


def test_the_ellipsis_matches_any_lines_and_line_ends() -> None:
    assert matches(["a", ELLIPSIS, "d"], ["a", "b", "c", "d"])
    assert matches(["ab…"], ["abc"])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert not matches(["a"], ["a", "b"])
