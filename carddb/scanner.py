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

import functools
import re
import re._constants as sre  # type: ignore[import-not-found]  # (typeshed knows only sre_constants)
import re._parser as sre_parse  # type: ignore[import-not-found]  # (sre_parse is deprecated)
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import (
    BasicLexer,
    CallChain,
    ContextualLexer,
    LexerState,
    PatternRE,
    PatternStr,
    TerminalDef,
    UnlessCallback,
)
from lark.parse_tree_builder import ChildFilterLALR_NoPlaceholders, ExpandSingleChild
from lark.parsers.lalr_analysis import Shift
from lark.utils import TextSlice
from lark.visitors import _vargs_inline, _VArgsWrapper

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
    if isinstance(lexer, ContextualLexer) and all(type(b) is FastLexer for b in lexer.lexers.values()):
        callbacks = built.parser.parser.parser.callbacks
        _installed[built] = {key: _flattened(callback) for key, callback in callbacks.items()}
    return built


_installed: weakref.WeakKeyDictionary[Lark, dict[Any, Any]] = weakref.WeakKeyDictionary()
"""The parsers whose every state's lexer is a :class:`FastLexer` (:func:`_run` parses with them),
each with its callbacks (:func:`_flattened`)."""


def _flattened(callback: Any) -> Any:
    """A rule's callback as Lark builds it (a child filter around "expand a single child" around a
    ``v_args(inline=True)`` transformer method, or the transformer's ``__default__``), as one
    function that does the same: four calls fewer at each reduction. A callback of another shape is
    kept as it is."""
    include = None
    inner = callback
    if type(inner) is ChildFilterLALR_NoPlaceholders:
        include, inner = tuple(inner.to_include), inner.node_builder
    expand = type(inner) is ExpandSingleChild
    if expand:
        inner = inner.node_builder
    wrapped = getattr(inner, "__wrapped__", None)
    if isinstance(wrapped, _VArgsWrapper) and wrapped.visit_wrapper is _vargs_inline:
        method = wrapped.base_func
        return _one_call(include, expand, lambda children: method(*children))
    if (
        isinstance(inner, functools.partial)
        and getattr(inner.func, "__name__", None) == "default_callback"
        and len(inner.args) == 1
        and not inner.keywords
    ):
        handler, name = _default_of(inner.func), inner.args[0]
        if handler is not None:
            return _one_call(include, expand, lambda children: handler(name, children, None))
    return callback


def _default_of(function: Any) -> Any:
    """The transformer's ``__default__`` that Lark's ``default_callback`` closes over, if any."""
    cells = getattr(function, "__closure__", None) or ()
    names = getattr(getattr(function, "__code__", None), "co_freevars", ())
    for name, cell in zip(names, cells, strict=False):
        if name == "default_handler":
            return cell.cell_contents
    return None


def _one_call(include: tuple[tuple[int, bool], ...] | None, expand: bool, call: Any) -> Any:
    """``ChildFilterLALR_NoPlaceholders(include, ExpandSingleChild(call))`` as one function."""
    if include is None and not expand:
        return call

    def callback(children: list[Any]) -> Any:
        if include is not None:
            filtered: list[Any] = []
            for index, spliced in include:
                if spliced:
                    if filtered:
                        filtered += children[index].children
                    else:  # as Lark: the spliced child's own list (left recursion)
                        filtered = children[index].children
                else:
                    filtered.append(children[index])
            children = filtered
        if expand and len(children) == 1:
            return children[0]
        return call(children)

    return callback


def parse(built: Lark, text: str, start: str) -> Any:
    """What ``built.parse(text, start=start)`` returns or raises, for a parser given
    :class:`FastScanner` lexers by :func:`install`: Lark's contextual lexer and LALR loop
    (``ContextualLexer.lex``, ``BasicLexer.next_token``, ``ParserState.feed_token``) as one loop over
    one line of text, the same tokens (with their positions), reductions and callbacks. Text with a
    line break, or a parser not installed, is parsed by Lark itself."""
    if not _runs(built, text, start):
        return built.parse(text, start=start)
    return _run(built, text, start, None)


Boundary = Callable[[Token], bool]


def parse_prefix(built: Lark, text: str, start: str, boundary: Boundary) -> tuple[Any, int] | None:
    """The shortest start of ``text`` that ends just before a token ``boundary`` accepts and that
    the grammar accepts whole: its value and where that token starts (None when there is none
    before the text ends). Raises what Lark's parser raises on the text before it.

    As Lark's interactive parser asked at each such token whether the text so far could end there
    (on a copy of itself); here the tables say whether it could, and only then is the value built,
    by the parser itself. Should building it fail (a callback rejecting what the tables accept),
    the text is read again by Lark's interactive parser, copied at each such token."""
    if _runs(built, text, start):
        try:
            return _run(built, text, start, boundary)  # type: ignore[no-any-return]
        except _EndFailed:
            pass
    interactive = built.parse_interactive(text, start=start)
    for token in interactive.iter_parse():
        if not boundary(token):
            continue
        try:
            value = interactive.copy().feed_eof()  # type: ignore[no-untyped-call]
        except UnexpectedInput:
            continue
        return value, token.start_pos or 0
    return None


class _EndFailed(Exception):
    """Building a prefix's value failed where the tables accept its end."""


def _runs(built: Lark, text: str, start: str) -> bool:
    """Whether :func:`_run` can parse ``text`` with ``built``."""
    return "\n" not in text and built in _installed and start in built.parser.parser_conf.start


def _run(built: Lark, text: str, start: str, boundary: Boundary | None) -> Any:
    frontend = built.parser
    lexer = frontend.lexer
    inner = frontend.parser.parser
    table = inner.parse_table
    states = table.states
    callbacks = _installed[built]
    end_state = table.end_states[start]
    state_stack = [table.start_states[start]]
    value_stack: list[Any] = []
    lexers = lexer.lexers
    whole = TextSlice(text, 0, len(text))
    position, end = 0, len(text)
    token: Token | None = None
    while True:
        found: Token | None = None
        basic = lexers[state_stack[-1]]
        scanner = basic.scanner
        while position < end:  # BasicLexer.next_token, on a line: line 1, column = position + 1
            matched = scanner.match(whole, position)
            if matched is None:
                raise _lexing_error(lexer, basic, text, position, token)
            value, kind = matched
            ignored = kind in basic.ignore_types
            if ignored and kind not in basic.callback:
                position += len(value)
                continue
            after = position + len(value)
            found = Token(kind, value, position, 1, position + 1, 1, after + 1, after)
            position = after
            if kind in basic.callback:
                found = basic.callback[kind](found)
            if not ignored:
                break
            found = None
        if found is None:
            break
        token = found
        if boundary is not None and boundary(token) and _accepts_end(states, state_stack, end_state):
            eof = Token("$END", "", 0, 1, 1)  # as InteractiveParser.feed_eof makes it
            try:
                value = _finish(eof, states, state_stack, value_stack, callbacks, end_state)
            except UnexpectedInput as error:
                raise _EndFailed from error
            return value, token.start_pos
        while True:  # ParserState.feed_token
            action = states[state_stack[-1]].get(token.type)
            if action is None:
                expected = {s for s in states[state_stack[-1]] if s.isupper()}
                raise UnexpectedToken(token, expected, state=None)  # type: ignore[no-untyped-call]
            if action[0] is Shift:
                state_stack.append(action[1])
                value_stack.append(token if token.type not in callbacks else callbacks[token.type](token))
                break
            _reduce(action[1], states, state_stack, value_stack, callbacks)
    if boundary is not None:
        return None
    last = Token.new_borrow_pos("$END", "", token) if token is not None else Token("$END", "", 0, 1, 1)
    return _finish(last, states, state_stack, value_stack, callbacks, end_state)


def _finish(
    last: Token, states: Any, state_stack: list[Any], value_stack: list[Any], callbacks: Any, end_state: Any
) -> Any:
    """Feed the end of the text: the reductions up to the end state, and the value there."""
    while True:
        action = states[state_stack[-1]].get("$END")
        if action is None:
            expected = {s for s in states[state_stack[-1]] if s.isupper()}
            raise UnexpectedToken(last, expected, state=None)  # type: ignore[no-untyped-call]
        if action[0] is Shift:
            raise AssertionError("LALR tables never shift the end of the text")
        _reduce(action[1], states, state_stack, value_stack, callbacks)
        if state_stack[-1] == end_state:
            return value_stack[-1]


def _accepts_end(states: Any, state_stack: list[Any], end_state: Any) -> bool:
    """Whether the parser accepts the end of the text here: the reductions the end makes, followed
    in the tables on a copy of the state stack only (``feed_token`` without building values)."""
    stack = list(state_stack)
    while True:
        action = states[stack[-1]].get("$END")
        if action is None or action[0] is Shift:  # the end is never shifted
            return False
        rule = action[1]
        if rule.expansion:
            del stack[-len(rule.expansion) :]
        stack.append(states[stack[-1]][rule.origin.name][1])
        if stack[-1] == end_state:
            return True


def _reduce(rule: Any, states: Any, state_stack: list[Any], value_stack: list[Any], callbacks: Any) -> None:
    size = len(rule.expansion)
    if size:
        children = value_stack[-size:]
        del state_stack[-size:]
        del value_stack[-size:]
    else:
        children = []
    value = callbacks[rule](children) if callbacks else children
    state_stack.append(states[state_stack[-1]][rule.origin.name][1])
    value_stack.append(value)


def _lexing_error(
    lexer: ContextualLexer, basic: BasicLexer, text: str, position: int, last: Token | None
) -> Exception:
    """The error Lark's contextual lexer raises where no terminal of the state matches: a token
    of another state there is an unexpected token, else an unexpected character."""
    allowed = basic.scanner.allowed_types - basic.ignore_types or {"<END-OF-FILE>"}
    history = [last] if last is not None else None
    error = UnexpectedCharacters(  # type: ignore[no-untyped-call]
        text, position, 1, position + 1, allowed=allowed, token_history=history
    )
    state = LexerState(TextSlice(text, 0, len(text)))
    state.line_ctr.char_pos, state.line_ctr.column = position, position + 1
    try:
        token = lexer.root_lexer.next_token(state, None)
    except (UnexpectedCharacters, EOFError):
        return error
    return UnexpectedToken(token, error.allowed, token_history=[last])  # type: ignore[no-untyped-call]
