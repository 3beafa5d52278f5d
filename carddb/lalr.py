"""LALR parsers whose tables are built once, not at every start: the one place that decides where a
grammar's parser tables come from.

Building the oracle grammar's tables takes Lark about half a minute; loading them takes a fraction
of a second. :func:`parser` therefore looks, in order, for

1. the tables shipped prebuilt in the wheel (``carddb/_resources/tables/NAME.tables``, built at
   wheel build time by ``tools/build_hook.py``; absent in a checkout or an editable install);
2. the tables cached in the user cache directory (:func:`carddb.resources.cache_dir`,
   ``grammars/NAME-KEY.tables``);

and uses the first whose :attr:`Grammar.key` — a hash of the assembled grammar text, the Lark
options and Lark's version — is the current one. A missing, stale or corrupt file is passed over,
never trusted: the tables are then built (saying so on stderr first when the grammar is slow to
build) and stored in the user cache, keyed by that hash, so that the next run loads them. Nothing
is ever written to ``$TMPDIR``.

A tables file is a header (format, key, SHA-256 of the payload) and the payload: Lark's own
serialization (what :meth:`lark.Lark.save` writes, without the transformer) with its parse table
made compact, zlib-compressed. Lark writes each action of each state as ``(0, state)`` or
``(1, {"@": rule})``, and reading those back through its generic deserializer was most of a cold
start (the oracle grammar has 7,578 states and 340,000 actions); here an action is one integer, a
state to shift to (``>= 0``) or ``-1 - rule`` (a reduction), and :class:`_CompactLALR` (given to
Lark as its ``LALR_Parser`` plugin) turns each distinct integer into Lark's action once. The
payload is read back by an unpickler that refuses every class, so a tables file holds plain data
and can run no code.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import pickle
import sys
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Transformer
from lark.grammar import Rule
from lark.lexer import TerminalDef
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
from lark.parsers.lalr_parser import LALR_Parser, _Parser

from carddb.resources import cache_dir, prebuilt_tables_dir

FORMAT = 2
"""Version of the tables file layout; part of every key."""

_MAGIC = b"carddb-lalr-tables"
_EXCLUDED_OPTIONS = ("transformer", "postlex", "lexer_callbacks", "tree_class", "_plugins", "edit_terminals")
"""Options Lark would pickle as objects; none changes the tables, and the transformer is given at load."""

KEEP_CACHED = 8
"""Cached tables kept per grammar (the most recently used): one per grammar text, so that checkouts
or branches with different phrase tables do not rebuild each other's."""


class TablesError(Exception):
    """A tables file that cannot be used: stale (another grammar or Lark version) or corrupt."""


@dataclass(frozen=True, slots=True)
class Grammar:
    """A grammar and the Lark options its LALR parser is built with."""

    name: str
    """Names the tables' files and the message: ``oracle`` → ``oracle.tables``."""
    text: str
    start: tuple[str, ...] = ("start",)
    strict: bool = False
    announce: bool = False
    """Say on stderr that the tables are being built (for a grammar that takes seconds to build)."""

    def options(self) -> dict[str, Any]:
        """Lark's options for this grammar (the transformer aside)."""
        return {"parser": "lalr", "lexer": "contextual", "strict": self.strict, "start": list(self.start)}

    @property
    def key(self) -> str:
        """What the tables depend on, hashed: the file format, Lark's version, the options, the text."""
        depends = {"format": FORMAT, "lark": lark.__version__, "options": self.options()}
        head = json.dumps(depends, sort_keys=True)
        return hashlib.sha256(f"{head}\n{self.text}".encode()).hexdigest()

    @property
    def building_message(self) -> str:
        return f"building the {self.name} grammar (once)…"


def build(grammar: Grammar, transformer: Transformer[Any, Any] | None = None, **debug: Any) -> Lark:
    """Build the parser from the grammar text (slow for a large grammar); ``debug`` options
    (``debug=True``) go to Lark as they are."""
    return Lark(grammar.text, transformer=transformer, **grammar.options(), **debug)


def dumps(grammar: Grammar, parser: Lark) -> bytes:
    """The tables file of ``parser``, built (or loaded) for ``grammar``."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])  # what Lark.save pickles
    data["options"] = {n: v for n, v in data["options"].items() if n not in _EXCLUDED_OPTIONS}
    table = data["parser"]["parser"]
    table["states"] = {
        state: {token: arg if action == 0 else -1 - arg["@"] for token, (action, arg) in actions.items()}
        for state, actions in table["states"].items()
    }
    payload = zlib.compress(pickle.dumps({"data": data, "memo": memo}, protocol=pickle.HIGHEST_PROTOCOL))
    header = f"{_MAGIC.decode()} {FORMAT}\n{grammar.key}\n{hashlib.sha256(payload).hexdigest()}\n"
    return header.encode("ascii") + payload


def loads(grammar: Grammar, data: bytes, transformer: Transformer[Any, Any] | None = None) -> Lark:
    """The parser from a tables file, with ``transformer`` applied while parsing; raises
    :class:`TablesError` when the file is not ``grammar``'s current tables or is damaged."""
    lines = data.split(b"\n", 3)
    if len(lines) != 4 or lines[0] != f"{_MAGIC.decode()} {FORMAT}".encode():
        raise TablesError("not a carddb tables file of this format")
    if lines[1] != grammar.key.encode():
        raise TablesError("the tables were built from another grammar or Lark version")
    payload = lines[3]
    if hashlib.sha256(payload).hexdigest().encode() != lines[2]:
        raise TablesError("the tables file is damaged")
    try:
        saved = _PlainData(io.BytesIO(zlib.decompress(payload))).load()
        # Lark's own cache (cache=…) loads this way too: the saved tables, the transformer given anew
        plugins = {"LALR_Parser": _CompactLALR}
        return Lark.__new__(Lark)._load(saved, transformer=transformer, _plugins=plugins)
    except Exception as error:  # anything Lark cannot read back is a damaged file, never a crash
        raise TablesError(f"the tables cannot be read: {error}") from error


class _CompactLALR(LALR_Parser):
    """Lark's LALR parser, read from the compact parse table :func:`dumps` writes."""

    @classmethod
    def deserialize(  # type: ignore[override]  # the signature of LALR_Parser.deserialize
        cls, data: Any, memo: Any, callbacks: Any, debug: bool = False
    ) -> _CompactLALR:
        tokens, rows = data["tokens"], data["states"]
        actions: dict[int, tuple[Any, Any]] = {state: (Shift, state) for state in rows}
        actions.update((-1 - ref, (Reduce, rule)) for ref, rule in memo.items() if isinstance(rule, Rule))
        states = {state: {tokens[t]: actions[code] for t, code in row.items()} for state, row in rows.items()}
        table: Any = IntParseTable(states, data["start_states"], data["end_states"])  # type: ignore[no-untyped-call]
        inst = cls.__new__(cls)
        inst._parse_table = table
        inst.parser = _Parser(table, callbacks, debug)
        return inst


class _PlainData(pickle.Unpickler):
    """Unpickles lists, dicts, strings and numbers only: a tables file can create no object."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"tables hold plain data, not {module}.{name}")


def prebuilt_path(grammar: Grammar) -> Path:
    """Where a wheel carries ``grammar``'s tables."""
    return prebuilt_tables_dir() / f"{grammar.name}.tables"


def cache_path(grammar: Grammar) -> Path:
    """Where the user cache keeps ``grammar``'s tables for its current key."""
    return cache_dir() / "grammars" / f"{grammar.name}-{grammar.key[:16]}.tables"


def parser(grammar: Grammar, transformer: Transformer[Any, Any] | None = None) -> Lark:
    """``grammar``'s parser, from prebuilt or cached tables, else built and cached (see the module)."""
    cached = cache_path(grammar)
    for path in (prebuilt_path(grammar), cached):
        try:
            loaded = loads(grammar, path.read_bytes(), transformer)
        except (OSError, TablesError):
            continue
        if path == cached:
            _touch(path)
        return loaded
    if grammar.announce:
        print(grammar.building_message, file=sys.stderr, flush=True)
    built = build(grammar, transformer)
    try:
        store(grammar, built, cached)
    except OSError as error:
        print(f"carddb: cannot cache the {grammar.name} grammar's tables: {error}", file=sys.stderr)
    else:
        _prune(grammar, cached)
    return built


def store(grammar: Grammar, parser: Lark, path: Path) -> None:
    """Write ``parser``'s tables to ``path`` atomically (a reader sees the old file or the new)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(dumps(grammar, parser))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _touch(path: Path) -> None:
    with contextlib.suppress(OSError):  # a read-only cache is still read
        os.utime(path)


def _prune(grammar: Grammar, kept: Path) -> None:
    """Drop all but the :data:`KEEP_CACHED` most recently used tables of ``grammar``."""
    try:
        others = [p for p in kept.parent.glob(f"{grammar.name}-*.tables") if p != kept]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEEP_CACHED - 1 :]:
            old.unlink(missing_ok=True)
    except OSError:
        pass  # another process pruned at the same time
