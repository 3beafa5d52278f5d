"""A faster scanner for Lark's contextual lexer that finds the very tokens Lark's own finds.

Lark's contextual lexer gives each LALR state a scanner: one regular expression, the alternation of
every terminal the state accepts, in Lark's terminal order (priority, then longest first), compiled
the first time the state is reached. A match is the first terminal, in that order, that matches at
the position. For the oracle grammar that is hundreds of states, each compiling an alternation of
hundreds of literal words (a new process spent seconds compiling them), and every token tried
against those words one after another (a third of the parse time).

:func:`install` replaces those scanners with ones that decide the same way but share their work:

* every literal terminal ("draw", "until end of turn", "{T}") of the parser is in one trie,
  compiled once, that finds the longest literal at a position; the literals that also match there
  are that literal's prefixes among the literals (known in advance), and the one a state takes is
  the longest of them it accepts (literals of one priority are ordered longest first);
* the other terminals (regular expressions) are matched in runs, as Lark matches them, each run
  compiled once per process however many states share it, a large pattern alone;
* the terminal a state takes is the first in Lark's order among the matching runs and its literal.

Lark's "unless" rule (a literal that a pattern also matches, such as ``{T}`` and ``MANA``, is
taken from the pattern's tokens) is kept as Lark decides it, once per pair of terminals.
"""

from __future__ import annotations

import re
import re._constants as sre  # type: ignore[import-not-found]  # (typeshed knows only sre_constants)
import re._parser as sre_parse  # type: ignore[import-not-found]  # (sre_parse is deprecated)
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from lark import Lark
from lark.lexer import BasicLexer, CallChain, PatternRE, PatternStr, TerminalDef, UnlessCallback

LARGE_PATTERN = 1000
"""A pattern longer than this (the oracle grammar's description, keyword and possessive word lists)
is a run of its own, so that it is compiled once, not once per combination of terminals."""
RUN_LIMIT = 50
"""Terminals per compiled alternation (Lark halves its alternations past Python's group limit)."""


CharTest = Callable[[str], bool]
_CATEGORIES: dict[object, CharTest] = {
    sre.CATEGORY_DIGIT: str.isdecimal,
    sre.CATEGORY_NOT_DIGIT: lambda c: not c.isdecimal(),
    sre.CATEGORY_WORD: lambda c: c.isalnum() or c == "_",
    sre.CATEGORY_NOT_WORD: lambda c: not (c.isalnum() or c == "_"),
    sre.CATEGORY_SPACE: str.isspace,
    sre.CATEGORY_NOT_SPACE: lambda c: not c.isspace(),
}


class _AnyFirst(Exception):
    """The pattern may start with characters this analysis does not tell apart."""


def first_characters(regexp: str, flags: int = 0) -> CharTest | None:
    """A test that every character a match of ``regexp`` can start with passes (others may pass
    too), or None when any character may start one: a scanner skips a pattern whose test fails."""
    try:
        parsed = sre_parse.parse(regexp, flags)
        if parsed.state.flags & (re.IGNORECASE | re.LOCALE):
            return None
        tests, _empty = _firsts(list(parsed))
    except (_AnyFirst, re.error, RecursionError):
        return None
    chars = frozenset(t for t in tests if isinstance(t, str))
    others = tuple(t for t in tests if not isinstance(t, str))
    if not others:
        return chars.__contains__
    return lambda c: c in chars or any(test(c) for test in others)


def _firsts(items: list[tuple[Any, Any]]) -> tuple[list[str | CharTest], bool]:
    """What the sequence ``items`` can start with, and whether it can match the empty string."""
    found: list[str | CharTest] = []
    for op, value in items:
        tests, empty = _first(op, value)
        found += tests
        if not empty:
            return found, False
    return found, True


def _first(op: Any, value: Any) -> tuple[list[str | CharTest], bool]:
    if op is sre.LITERAL:
        return [chr(value)], False
    if op is sre.IN:
        return [_class(value)], False
    if op is sre.BRANCH:
        found: list[str | CharTest] = []
        empty = False
        for branch in value[1]:
            tests, nothing = _firsts(list(branch))
            found += tests
            empty = empty or nothing
        return found, empty
    if op is sre.SUBPATTERN:
        if value[1] & (re.IGNORECASE | re.LOCALE):
            raise _AnyFirst
        return _firsts(list(value[3]))
    if op is sre.ATOMIC_GROUP:
        return _firsts(list(value))
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        tests, empty = _firsts(list(value[2]))
        return tests, empty or value[0] == 0
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):  # zero width: what follows starts the match
        return [], True
    raise _AnyFirst


def _range(low: int, high: int) -> CharTest:
    return lambda c: low <= ord(c) <= high


def _class(items: list[tuple[Any, Any]]) -> CharTest:
    """The test of a character class ``[…]``."""
    negate = bool(items) and items[0][0] is sre.NEGATE
    tests: list[CharTest] = []
    chars: set[str] = set()
    for op, value in items[1:] if negate else items:
        if op is sre.LITERAL:
            chars.add(chr(value))
        elif op is sre.RANGE:
            tests.append(_range(*value))
        elif op is sre.CATEGORY and value in _CATEGORIES:
            tests.append(_CATEGORIES[value])
        else:
            raise _AnyFirst

    def test(c: str) -> bool:
        return (c in chars or any(t(c) for t in tests)) != negate

    return test


def _union(tests: list[CharTest]) -> CharTest:
    if len(tests) == 1:
        return tests[0]
    return lambda c: any(test(c) for test in tests)


def _literal(terminal: TerminalDef) -> bool:
    return isinstance(terminal.pattern, PatternStr) and not terminal.pattern.flags


def trie_pattern(words: Iterable[str]) -> str:
    """A regular expression that matches, at a position, the longest of ``words`` there (its
    alternatives nest by common prefix: one comparison per character, not one per word)."""
    root: dict[str, Any] = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if "" in node:  # a word ends here: longer words first, then this one
            branches.append("")
        if len(branches) == 1:
            return branches[0]
        return "(?:" + "|".join(branches) + ")"

    return emit(root)


@dataclass(slots=True)
class Shared:
    """What every state's scanner of one parser shares."""

    flags: int
    re_module: Any
    literal: re.Pattern[str] | None
    """The trie of every literal terminal."""
    prefixes: dict[str, tuple[str, ...]]
    """Each literal's prefixes among the literals, itself first, longest first."""
    runs: dict[tuple[str, ...], tuple[re.Pattern[str], CharTest | None]] = field(default_factory=dict)
    firsts: dict[str, CharTest | None] = field(default_factory=dict)
    embedded: dict[tuple[str, str], bool] = field(default_factory=dict)

    @classmethod
    def of(cls, terminals: Iterable[TerminalDef], flags: int, re_module: Any) -> Shared:
        literals = {str(t.pattern.value) for t in terminals if _literal(t)}
        prefixes = {
            word: tuple(word[:size] for size in range(len(word), 0, -1) if word[:size] in literals)
            for word in literals
        }
        pattern = re_module.compile(trie_pattern(literals), flags) if literals else None
        return cls(flags, re_module, pattern, prefixes)

    def run(self, terminals: list[TerminalDef]) -> tuple[re.Pattern[str], CharTest | None]:
        """The alternation of ``terminals`` (named groups, in order), compiled once, and the test
        of the characters a match can start with (None: any)."""
        key = tuple(t.name for t in terminals)
        found = self.runs.get(key)
        if found is None:
            alternation = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
            tests = [self.first(t) for t in terminals]
            test = None if None in tests else _union([t for t in tests if t is not None])
            found = self.runs[key] = (self.re_module.compile(alternation, self.flags), test)
        return found

    def first(self, terminal: TerminalDef) -> CharTest | None:
        if terminal.name not in self.firsts:
            self.firsts[terminal.name] = first_characters(terminal.pattern.to_regexp(), self.flags)
        return self.firsts[terminal.name]

    def embeds(self, pattern: TerminalDef, literal: TerminalDef) -> bool:
        """Lark's test whether a pattern's token may be the literal (``lark.lexer._create_unless``)."""
        key = (pattern.name, literal.name)
        found = self.embedded.get(key)
        if found is None:
            value = str(literal.pattern.value)
            match = self.re_module.match(pattern.pattern.to_regexp(), value, self.flags)
            found = self.embedded[key] = bool(match) and match.group(0) == value
        return found


class _Literals:
    """The scanner an "unless" callback asks which literal a pattern's token is."""

    def __init__(self, terminals: list[TerminalDef], shared: Shared) -> None:
        self.terminals = terminals
        self.shared = shared
        plain = all(map(_literal, terminals))
        self.plain = {str(t.pattern.value): t.name for t in terminals} if plain else None

    def fullmatch(self, text: str) -> str | None:
        if self.plain is not None:
            return self.plain.get(text)
        for terminal in self.terminals:  # in order, as Lark's alternation
            if self.shared.re_module.fullmatch(terminal.pattern.to_regexp(), text, self.shared.flags):
                return terminal.name
        return None


class FastScanner:
    """One state's scanner: the first of its terminals, in Lark's order, that matches."""

    def __init__(self, terminals: list[TerminalDef], shared: Shared) -> None:
        self.terminals = terminals
        self.allowed_types = {t.name for t in terminals}
        self.shared = shared
        self.literals: dict[str, tuple[int, str]] = {}
        self.runs: list[tuple[int, re.Pattern[str], CharTest | None]] = []
        self.by_first: dict[str, tuple[tuple[int, re.Pattern[str]], ...]] = {}
        """The runs that may match at a character, cached as characters are met."""
        run: list[TerminalDef] = []
        first = 0
        for rank, terminal in enumerate(terminals):
            large = len(terminal.pattern.to_regexp()) > LARGE_PATTERN
            if _literal(terminal) or large or len(run) >= RUN_LIMIT:
                self._close(run, first)
                run = []
            if _literal(terminal):
                self.literals.setdefault(str(terminal.pattern.value), (rank, terminal.name))
                continue
            if not run:
                first = rank
            run.append(terminal)
            if large:
                self._close(run, first)
                run = []
        self._close(run, first)

    def _close(self, run: list[TerminalDef], first: int) -> None:
        if run:
            self.runs.append((first, *self.shared.run(run)))

    def _runs_at(self, char: str) -> tuple[tuple[int, re.Pattern[str]], ...]:
        found = self.by_first[char] = tuple(
            (first, pattern) for first, pattern, test in self.runs if test is None or test(char)
        )
        return found

    def match(self, text: Any, pos: int) -> tuple[str, str] | None:
        """The token at ``pos`` of the text slice ``text``: (its text, its terminal's name)."""
        string, end = text.text, text.end
        rank = len(self.terminals)
        literal: tuple[str, str] | None = None
        if self.literals and self.shared.literal is not None:
            found = self.shared.literal.match(string, pos, end)
            if found is not None:
                for word in self.shared.prefixes[found.group()]:
                    taken = self.literals.get(word)
                    if taken is not None:
                        rank, literal = taken[0], (word, taken[1])
                        break
        char = string[pos]
        runs = self.by_first.get(char)
        for first, pattern in self._runs_at(char) if runs is None else runs:
            if first > rank:
                break
            matched = pattern.match(string, pos, end)
            if matched is not None:
                return matched.group(0), matched.lastgroup  # type: ignore[return-value]
        return literal


class FastLexer(BasicLexer):
    """Lark's basic lexer with a :class:`FastScanner` (set by :func:`install`)."""

    shared: Shared

    def _build_scanner(self) -> Any:
        shared = self.shared
        terminals = list(self.terminals)
        patterns = [t for t in terminals if isinstance(t.pattern, PatternRE)]
        strings = [t for t in terminals if isinstance(t.pattern, PatternStr)]
        embedded: set[str] = set()
        self.callback = {}
        for pattern in patterns:  # lark.lexer._create_unless
            unless = [s for s in strings if s.priority == pattern.priority and shared.embeds(pattern, s)]
            embedded.update(s.name for s in unless if set(s.pattern.flags) <= set(pattern.pattern.flags))
            if unless:
                self.callback[pattern.name] = UnlessCallback(_Literals(unless, shared))  # type: ignore[arg-type]
        for kind, function in self.user_callbacks.items():  # as Lark chains them
            if kind in self.callback:
                chain = CallChain(self.callback[kind], function, _of_type(kind))  # type: ignore[no-untyped-call]
                self.callback[kind] = chain
            else:
                self.callback[kind] = function
        return FastScanner([t for t in terminals if t.name not in embedded], shared)


def _of_type(kind: str) -> Callable[[Any], bool]:
    return lambda token: bool(token.type == kind)


def install(built: Lark) -> Lark:
    """Give every state's lexer of ``built`` (a contextual LALR parser) a :class:`FastScanner`;
    a parser whose lexers are not Lark's plain ones, or use flags or bytes, is left as it is."""
    lexer = built.parser.lexer
    basics = [*getattr(lexer, "lexers", {}).values(), lexer, getattr(lexer, "root_lexer", None)]
    found = {id(item): item for item in basics if type(item) is BasicLexer}
    if not found or any(b.g_regex_flags or b.use_bytes or b._scanner is not None for b in found.values()):
        return built
    terminals = {t.name: t for b in found.values() for t in b.terminals}
    first = next(iter(found.values()))
    shared = Shared.of(terminals.values(), first.g_regex_flags, first.re)
    for basic in found.values():
        basic.__class__ = FastLexer
        basic.shared = shared  # type: ignore[attr-defined]
    return built
