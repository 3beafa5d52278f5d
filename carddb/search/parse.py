"""Query text → :mod:`carddb.search.ast`, by the LALR grammar ``grammars/search.lark``.

:func:`parse_query` is the only entry point; every input either gives a :data:`Query` or raises
:class:`QuerySyntaxError` (or its :class:`UnknownKeywordError`), with the offset of the fault.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from carddb import lalr
from carddb.resources import grammars_dir
from carddb.search.ast import (
    KEYWORDS,
    And,
    Choices,
    Field,
    Name,
    Not,
    Number,
    Or,
    Query,
    Regex,
    Span,
    Term,
    Text,
    Value,
)
from carddb.search.errors import QuerySyntaxError, UnknownKeywordError
from carddb.search.regex import UnsupportedPatternError, check_pattern

NUMERIC = frozenset({"mv", "power", "toughness", "loyalty", "year"})
"""Keywords whose plain numeric values become :class:`Number`."""

FIELDS = frozenset({"mv", "power", "toughness", "loyalty"})
"""Keywords compared with each other: ``pow>tou`` has the value ``Field("toughness")``."""

MAX_DEPTH = 100
"""Deepest nesting of groups and negations accepted (keeps every later tree walk shallow)."""

MAX_NUMBER = 1e15
"""Largest number accepted (beyond it a value would not fit a database integer)."""

MAX_LENGTH = 2000
"""Longest query accepted, in characters: checked before parsing, so a huge query costs nothing."""

MAX_TERMS = 100
"""Most terms (words, phrases, names, keyword terms, comma-list items) a query may hold: every
term is a condition in the statement, and databases refuse statements past some size (SQLite
"Expression tree is too large", PostgreSQL "stack depth limit exceeded")."""

_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_KEYOP = re.compile(r"(\w+?)(!=|>=|<=|[:=<>])")


def parse_query(text: str) -> Query:
    """Parse a Scryfall-style query: ``t:creature c:r mv<=3 o:haste`` → ``And((Term(…), …))``.

    A query of one item is that item (not an ``And`` of one). Raises :class:`QuerySyntaxError`
    for an empty query or anything that does not parse, :class:`UnknownKeywordError` for a
    keyword the language does not know.
    """
    if len(text) > MAX_LENGTH:
        raise QuerySyntaxError(
            text[:MAX_LENGTH],
            MAX_LENGTH,
            f"query longer than {MAX_LENGTH:,} characters ({len(text):,})",
            "split it into several searches",
        )
    bad = _NOT_TEXT.search(text)
    if bad is not None:
        char = bad.group()
        what = "a byte that is not UTF-8" if "\ud800" <= char <= "\udfff" else "a control character"
        raise QuerySyntaxError(text, bad.start(), f"{what} (U+{ord(char):04X}) in the query")
    if not text.strip():
        raise QuerySyntaxError(text, 0, "empty query")
    try:
        built = parser().parse(text)
    except _Fault as fault:
        raise fault.to_error(text) from None
    except UnexpectedInput as error:
        raise _syntax_error(text, error) from None
    query: Query = built  # type: ignore[assignment]  # ToQuery.start makes a Query, not a Tree
    _check_depth(text, query)
    _check_terms(text, query)
    return query


@cache
def parser() -> Lark:
    """The LALR parser, its tables cached in the user cache directory (:func:`carddb.lalr.parser`);
    it builds the AST while it parses."""
    text = (grammars_dir() / "search.lark").read_text(encoding="utf-8")
    return lalr.parser(lalr.Grammar("search", text, strict=True), ToQuery())


# -- errors ---------------------------------------------------------------------------------------
class _Fault(Exception):
    """Raised inside the transformer (which does not know the query text); turned into a
    :class:`QuerySyntaxError` by :func:`parse_query`."""

    def __init__(self, position: int, reason: str, keyword: str | None = None) -> None:
        super().__init__(reason)
        self.position = position
        self.reason = reason
        self.keyword = keyword

    def to_error(self, text: str) -> QuerySyntaxError:
        if self.keyword is not None:
            return UnknownKeywordError(text, self.position, self.keyword, suggest(self.keyword))
        return QuerySyntaxError(text, self.position, self.reason)


def suggest(keyword: str, limit: int = 3) -> list[str]:
    """The known keywords closest to ``keyword``: at most one spelling per canonical keyword,
    the longest of the close ones (``colr`` → ``color``)."""
    from rapidfuzz import fuzz, process  # deferred: only an unknown keyword needs it (start-up time)

    found = process.extract(keyword.lower(), list(KEYWORDS), scorer=fuzz.ratio, limit=None, score_cutoff=50)
    best: dict[str, tuple[float, str]] = {}
    for alias, score, _ in found:
        canonical = KEYWORDS[alias]
        if canonical not in best or (score, len(alias)) > (best[canonical][0], len(best[canonical][1])):
            best[canonical] = (score, alias)
    ranked = sorted(best.values(), key=lambda pair: (-pair[0], pair[1]))
    return [alias for _, alias in ranked[:limit]]


def _syntax_error(text: str, error: UnexpectedInput) -> QuerySyntaxError:
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = text[position] if position < len(text) else ""
        if char == '"':
            return QuerySyntaxError(text, position, "unterminated quoted phrase")
        if char == "/":
            return QuerySyntaxError(text, position, "unterminated regular expression")
        return QuerySyntaxError(text, position, f"unexpected {char!r}")
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            return QuerySyntaxError(text, len(text), "unexpected end of query", f"expected {_wanted(error)}")
        hint = "expected a value" if "VALUE" in error.expected else ""
        return QuerySyntaxError(text, _start(token), f"unexpected {str(token)!r}", hint)
    return QuerySyntaxError(text, error.pos_in_stream or 0, "cannot parse query")


def _wanted(error: UnexpectedToken) -> str:
    """What the parser was looking for, in words."""
    if "VALUE" in error.expected:
        return "a value"
    if "RPAR" in error.expected:
        return "')'"
    return "a search term"


def _check_depth(text: str, query: Query) -> None:
    stack: list[tuple[Query, int]] = [(query, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise QuerySyntaxError(text, node.span.start, f"query nested deeper than {MAX_DEPTH}")
        if isinstance(node, Not):
            stack.append((node.item, depth + 1))
        elif isinstance(node, And | Or):
            stack.extend((item, depth + 1) for item in node.items)


def _leaves(query: Query) -> list[Query]:
    stack: list[Query] = [query]
    leaves: list[Query] = []
    while stack:
        node = stack.pop()
        if isinstance(node, Not):
            stack.append(node.item)
        elif isinstance(node, And | Or):
            stack.extend(node.items)
        else:
            leaves.append(node)
    return leaves


def term_count(query: Query) -> int:
    """The terms of ``query`` (words, phrases, names, keyword terms, comma-list items)."""
    return sum(
        len(node.value.values) if isinstance(node, Term) and isinstance(node.value, Choices) else 1
        for node in _leaves(query)
    )


def _check_terms(text: str, query: Query) -> None:
    leaves = _leaves(query)
    count = term_count(query)
    if count > MAX_TERMS:
        starts = sorted(leaf.span.start for leaf in leaves)
        last = starts[min(MAX_TERMS, len(starts) - 1)]
        raise QuerySyntaxError(
            text,
            last,
            f"query with more than {MAX_TERMS} terms ({count:,})",
            "split it into several searches",
        )


# -- tree → AST -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Group:
    """A parenthesized query: the node inside, and the span with its parentheses."""

    node: Query
    span: Span


@dataclass(frozen=True, slots=True)
class _Value:
    """A keyword's value with the offsets of its text (the term's span ends at ``end``)."""

    value: Text | Regex | Choices
    start: int
    end: int


Item = Query | _Group


def _node(item: Item) -> Query:
    return item.node if isinstance(item, _Group) else item


def _start(token: Token) -> int:
    return token.start_pos if token.start_pos is not None else 0


def _end(token: Token) -> int:
    return token.end_pos if token.end_pos is not None else 0


def _unquote(token: Token) -> str:
    """A phrase's text without its quotes; ``\\"`` and ``\\\\`` stand for ``"`` and ``\\``."""
    return re.sub(r'\\(["\\])', r"\1", str(token)[1:-1])


@v_args(inline=True)
class ToQuery(Transformer[Token, Any]):
    """Grammar rules → AST nodes, while the LALR parser reduces."""

    def start(self, item: Item) -> Query:
        return _node(item)

    def disjunction(self, *items: Item) -> Item:
        if len(items) == 1:
            return items[0]
        return Or(tuple(_node(i) for i in items), Span(items[0].span.start, items[-1].span.end))

    def conjunction(self, *items: Item) -> Item:
        if len(items) == 1:
            return items[0]
        return And(tuple(_node(i) for i in items), Span(items[0].span.start, items[-1].span.end))

    def group(self, lpar: Token, item: Item, rpar: Token) -> _Group:
        return _Group(_node(item), Span(_start(lpar), _end(rpar)))

    def negation(self, minus: Token, item: Item) -> Not:
        return Not(_node(item), Span(_start(minus), item.span.end))

    def word(self, token: Token) -> Name:
        return Name(str(token), Span(_start(token), _end(token)))

    def phrase(self, token: Token) -> Name:
        return Name(self._phrase_text(token), Span(_start(token), _end(token)))

    def exact_word(self, bang: Token, token: Token) -> Name:
        return Name(str(token), Span(_start(bang), _end(token)), exact=True)

    def exact_phrase(self, bang: Token, token: Token) -> Name:
        return Name(self._phrase_text(token), Span(_start(bang), _end(token)), exact=True)

    @staticmethod
    def _phrase_text(token: Token) -> str:
        text = _unquote(token)
        if not text.strip():
            raise _Fault(_start(token), "empty quoted phrase")
        return text

    def term(self, keyop: Token, value: _Value) -> Term | Not:
        match = _KEYOP.fullmatch(str(keyop))
        assert match is not None  # the grammar's KEYOP is letters then an operator
        typed, operator = match.group(1), match.group(2)
        keyword = KEYWORDS.get(unicodedata.normalize("NFKC", typed).lower())
        if keyword is None:
            raise _Fault(_start(keyop), "unknown keyword", keyword=typed)
        span = Span(_start(keyop), value.end)
        if keyword == "not":  # not:x is -is:x
            return Not(Term("is", operator, value.value, span), span)
        return Term(keyword, operator, _interpret(keyword, value), span)

    def bare_value(self, token: Token) -> _Value:
        return _Value(Text(str(token)), _start(token), _end(token))

    def quoted_value(self, token: Token) -> _Value:
        return _Value(Text(_unquote(token), quoted=True), _start(token), _end(token))

    def regex(self, token: Token) -> _Value:
        pattern = str(token)[1:-1].replace("\\/", "/")
        if not pattern:
            raise _Fault(_start(token), "empty regular expression")
        try:
            re.compile(pattern)
        except (re.error, RecursionError, OverflowError, ValueError) as error:
            offset = getattr(error, "pos", None)
            position = _start(token) + 1 + offset if isinstance(offset, int) else _start(token)
            reason = getattr(error, "msg", None) or str(error) or type(error).__name__
            raise _Fault(position, f"invalid regular expression ({reason})") from None
        try:
            check_pattern(pattern)
        except UnsupportedPatternError as error:
            raise _Fault(_start(token), f"unsupported regular expression ({error.reason})") from None
        return _Value(Regex(pattern), _start(token), _end(token))

    def choices(self, *parts: _Value | Token) -> _Value:
        values = [part for part in parts if isinstance(part, _Value)]
        texts = tuple(v.value for v in values if isinstance(v.value, Text))
        return _Value(Choices(texts), values[0].start, values[-1].end)


def _interpret(keyword: str, located: _Value) -> Value:
    """Plain numbers for numeric keywords become :class:`Number`, another numeric keyword a
    :class:`Field`; everything else stays as typed."""
    value = located.value
    if not isinstance(value, Text) or value.quoted:
        return value
    if keyword in NUMERIC and _NUMBER.fullmatch(value.text):
        number = float(value.text)
        if not abs(number) <= MAX_NUMBER:
            raise _Fault(located.start, "number out of range")
        return Number(int(number) if number.is_integer() and "." not in value.text else number)
    if keyword in FIELDS:
        other = KEYWORDS.get(value.text.lower())
        if other in FIELDS:
            return Field(other)
    return value
