"""Where the LALR parser tables come from (``carddb.lalr``): prebuilt in the wheel, else built once
into the user cache — never into ``$TMPDIR`` — saying so on stderr; a stale or damaged tables file
is passed over and rebuilt, never trusted; and a parser loaded from tables parses exactly as the one
built from the grammar text."""

from __future__ import annotations

import hashlib
import itertools
import os
import pickle
import subprocess
import sys
import tomllib
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from lark import Lark

import carddb
from carddb import lalr, resources
from carddb.oracle import parse as oracle_parse
from carddb.oracle import parse_oracle
from carddb.oracle.faces import read_faces
from carddb.oracle.grammar import BuiltFromText, ToModel, oracle_grammar, parser

TINY = lalr.Grammar("tiny", 'start: WORD+\n%import common.WORD\n%ignore " "\n', announce=True)
"""A grammar that builds in milliseconds, for the cache's behaviour."""

GOLDEN = Path(__file__).parent / "golden" / "oracle"
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "oracle-faces-20220425.jsonl.xz"
CORPUS_FACES = 1000


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user cache directory, and an empty folder of prebuilt tables."""
    directory = tmp_path / "cache"
    monkeypatch.setenv(resources.CACHE_DIR_ENV, str(directory))
    monkeypatch.setattr(lalr, "prebuilt_tables_dir", lambda: tmp_path / "prebuilt")
    return directory


def words(parsed: Lark) -> list[str]:
    return [str(token) for token in parsed.parse("draw a card").children]


# -- the user cache --------------------------------------------------------------------------------
def test_a_first_use_says_it_builds_and_caches_the_tables_keyed_by_the_grammar(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert words(lalr.parser(TINY)) == ["draw", "a", "card"]
    assert capsys.readouterr().err == "building the tiny grammar (once)…\n"
    assert [p.relative_to(cache).as_posix() for p in cache.rglob("*")] == [
        "grammars",
        f"grammars/tiny-{TINY.key[:16]}.tables",
    ]

    assert words(lalr.parser(TINY)) == ["draw", "a", "card"]
    assert capsys.readouterr().err == ""


def test_the_cache_is_under_xdg_cache_home_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("XDG_CACHE_HOME is the Linux convention")
    monkeypatch.delenv(resources.CACHE_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert lalr.cache_path(TINY).parent == tmp_path / "xdg" / "carddb" / "grammars"


def _with_payload(payload: bytes) -> bytes:
    """A tables file of TINY's key whose payload is ``payload`` (its digest right)."""
    digest = hashlib.sha256(payload).hexdigest()
    return f"carddb-lalr-tables {lalr.FORMAT}\n{TINY.key}\n{digest}\n".encode() + payload


class _Evil:
    def __reduce__(self) -> tuple[Callable[..., object], tuple[str]]:
        return (print, ("a tables file ran code",))


DAMAGED: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda good: b"",
    "garbage": lambda good: os.urandom(4096),
    "truncated": lambda good: good[: len(good) // 2],
    "a flipped byte": lambda good: good[:-10] + bytes([good[-10] ^ 0xFF]) + good[-9:],
    "not zlib": lambda good: _with_payload(b"not compressed"),
    "not Lark's": lambda good: _with_payload(zlib.compress(pickle.dumps({"data": 1}))),
    "an object": lambda good: _with_payload(zlib.compress(pickle.dumps(_Evil()))),
}


@pytest.mark.parametrize("damage", DAMAGED.values(), ids=DAMAGED.keys())
def test_a_damaged_cache_file_is_rebuilt_never_trusted(
    damage: Callable[[bytes], bytes], cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = lalr.cache_path(TINY)
    lalr.parser(TINY)
    path.write_bytes(damage(path.read_bytes()))
    capsys.readouterr()

    assert words(lalr.parser(TINY)) == ["draw", "a", "card"]
    captured = capsys.readouterr()
    assert captured.err == "building the tiny grammar (once)…\n"
    assert captured.out == ""
    assert words(lalr.loads(TINY, path.read_bytes())) == ["draw", "a", "card"]


def test_tables_of_another_grammar_or_lark_version_are_stale(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    other = lalr.Grammar("tiny", TINY.text.replace("WORD+", "WORD*"), announce=True)
    assert other.key != TINY.key
    lalr.store(other, lalr.build(other), lalr.cache_path(TINY))
    with pytest.raises(lalr.TablesError, match="another grammar"):
        lalr.loads(TINY, lalr.cache_path(TINY).read_bytes())

    assert words(lalr.parser(TINY)) == ["draw", "a", "card"]
    assert capsys.readouterr().err == "building the tiny grammar (once)…\n"

    key = TINY.key
    monkeypatch.setattr(lalr.lark, "__version__", "0.0.1")
    assert TINY.key != key


def test_prebuilt_tables_come_first_and_a_damaged_one_falls_back(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prebuilt = lalr.prebuilt_path(TINY)
    lalr.store(TINY, lalr.build(TINY), prebuilt)
    assert words(lalr.parser(TINY)) == ["draw", "a", "card"]
    assert capsys.readouterr().err == ""
    assert not cache.exists()

    prebuilt.write_bytes(b"carddb-lalr-tables 1\n")
    assert words(lalr.parser(TINY)) == ["draw", "a", "card"]
    assert capsys.readouterr().err == "building the tiny grammar (once)…\n"
    assert lalr.cache_path(TINY).is_file()


def test_a_grammar_that_builds_quickly_builds_in_silence(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet = lalr.Grammar("quiet", TINY.text)
    lalr.parser(quiet)
    assert capsys.readouterr().err == ""
    assert lalr.cache_path(quiet).is_file()


def test_a_cache_that_cannot_be_written_still_parses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setenv(resources.CACHE_DIR_ENV, str(tmp_path / "a-file"))
    monkeypatch.setattr(lalr, "prebuilt_tables_dir", lambda: tmp_path / "prebuilt")

    assert words(lalr.parser(TINY)) == ["draw", "a", "card"]
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "building the tiny grammar (once)…"
    assert err[1].startswith("carddb: cannot cache the tiny grammar's tables: ")
    assert len(err) == 2


def test_only_the_most_recently_used_tables_of_a_grammar_are_kept(cache: Path) -> None:
    folder = lalr.cache_path(TINY).parent
    folder.mkdir(parents=True)
    for number in range(lalr.KEEP_CACHED + 3):
        old = folder / f"tiny-{number:016x}.tables"
        old.write_bytes(b"old")
        os.utime(old, (1_000_000 + number, 1_000_000 + number))
    (folder / "quiet-0000000000000000.tables").write_bytes(b"another grammar's")

    lalr.parser(TINY)

    kept = sorted(p.name for p in folder.glob("tiny-*.tables"))
    assert len(kept) == lalr.KEEP_CACHED
    assert lalr.cache_path(TINY).name in kept
    assert f"tiny-{lalr.KEEP_CACHED + 2:016x}.tables" in kept
    assert (folder / "quiet-0000000000000000.tables").exists()


# -- the oracle grammar's tables -------------------------------------------------------------------
def test_the_oracle_grammar_says_it_builds() -> None:
    assert oracle_grammar().announce
    assert oracle_grammar().building_message == "building the oracle grammar (once)…"


def _oracle_inputs() -> Iterator[tuple[str, str | None, str | None]]:
    for face in tomllib.loads((GOLDEN / "inputs.toml").read_text(encoding="utf-8"))["face"]:
        yield face["text"], face.get("name"), face.get("type")
    if CORPUS.is_file():
        for found in itertools.islice(read_faces(CORPUS), CORPUS_FACES):
            yield found.text, found.parser_name, found.type_line


def test_tables_loaded_from_their_file_parse_as_the_parser_built_from_the_grammar(
    oracle_built_from_text: BuiltFromText, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The golden inputs (and the first faces of the shared corpus, when it is there) parse the same
    with the parser built from the grammar text and with one loaded from its tables file, as a
    wheel's prebuilt tables or the user cache give it, with a transformer of its own."""
    grammar = oracle_grammar()
    loaded = lalr.loads(grammar, lalr.dumps(grammar, oracle_built_from_text.parser), ToModel())
    inputs = list(_oracle_inputs())

    def parse_all(with_parser: Lark) -> list[object]:
        monkeypatch.setattr(oracle_parse, "parser", lambda: with_parser)
        return [parse_oracle(text, name, type_line) for text, name, type_line in inputs]

    built = parse_all(oracle_built_from_text.parser)
    assert parse_all(loaded) == built
    assert sum(face.complete for face in built) > len(inputs) // 2  # type: ignore[attr-defined]


def test_an_installed_wheel_carries_the_tables_of_its_own_grammar() -> None:
    """A wheel's prebuilt tables (``tools/build_hook.py``) are those of the grammar it ships, for the
    Lark installed beside it: they are used, not rebuilt."""
    path = lalr.prebuilt_path(oracle_grammar())
    if not path.is_file():
        pytest.skip("carddb runs from a checkout or an editable install: no prebuilt tables")
    lalr.loads(oracle_grammar(), path.read_bytes(), ToModel())


# -- whole commands --------------------------------------------------------------------------------
def _carddb(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from carddb.cli import main; sys.exit(main(sys.argv[1:]))",
            *args,
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=300,
    )


def test_commands_leave_nothing_in_tmpdir_and_cache_under_xdg_cache_home(tmp_path: Path) -> None:
    """``carddb parse`` and ``carddb search`` with ``TMPDIR`` an empty folder: it stays empty; the
    search grammar's tables go to ``$XDG_CACHE_HOME/carddb``. (The oracle grammar's tables are put
    there first, from this session's parser, so that the test does not wait for a build.)"""
    temporary, xdg = tmp_path / "tmp", tmp_path / "xdg"
    temporary.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in (resources.CACHE_DIR_ENV, "CARDDB_URL")}
    env.update(TMPDIR=str(temporary), XDG_CACHE_HOME=str(xdg))
    env["CARDDB_URL"] = f"sqlite:///{tmp_path / 'db.sqlite'}"
    seeded = xdg / "carddb" / lalr.cache_path(oracle_grammar()).relative_to(resources.cache_dir())
    lalr.store(oracle_grammar(), parser(), seeded)

    carddb.open(env["CARDDB_URL"]).close()  # search reads an existing database
    parsed = _carddb("parse", "Draw a card.", "--json", env=env)
    searched = _carddb("search", "t:creature", env=env)

    assert parsed.returncode == 0, parsed.stderr
    assert parsed.stderr == ""
    assert '"complete": true' in parsed.stdout
    assert searched.returncode == 0, searched.stderr
    assert list(temporary.iterdir()) == []
    cached = sorted(p.name.split("-")[0] for p in (xdg / "carddb" / "grammars").iterdir())
    assert cached == ["oracle", "search"]


def _modules_after(code: str) -> set[str]:
    """The top-level packages that ``code``, run in a fresh interpreter, has imported."""
    shown = "import sys; print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    run = subprocess.run([sys.executable, "-c", f"{code}\n{shown}"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


def test_the_oracle_package_needs_no_sqlalchemy() -> None:
    """``carddb.oracle`` (its parser too) and ``carddb.text`` import no SQLAlchemy of their own:
    ``carddb`` is given as a bare package of its folder, so that ``carddb/__init__.py`` is left out."""
    folder = str(Path(resources.__file__).resolve().parent)
    bare = "import sys, types\nsys.modules['carddb'] = p = types.ModuleType('carddb')\n"
    bare += f"p.__path__ = [{folder!r}]"
    loaded = _modules_after(f"{bare}\nimport carddb.oracle, carddb.text, carddb.oracle.parse")
    assert "lark" in loaded
    assert "sqlalchemy" not in loaded


def test_importing_the_oracle_package_loads_no_sqlalchemy() -> None:
    """The plain ``import carddb.oracle``, ``carddb/__init__.py`` included."""
    if "sqlalchemy" in _modules_after("import carddb"):
        pytest.xfail("carddb/__init__.py imports SQLAlchemy itself (carddb.database): not the oracle's doing")
    assert "sqlalchemy" not in _modules_after("import carddb.oracle, carddb.text")
    assert "sqlalchemy" not in _modules_after("from carddb.oracle import parse_oracle")
