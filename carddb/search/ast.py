"""The query AST: frozen values, each with the span of query text it came from.

``t:creature c:r mv<=3 o:haste`` parses to ``And((Term("type", ":", Text("creature")),
Term("color", ":", Text("r")), Term("mv", "<=", Number(3)), Term("oracle", ":", Text("haste"))))``.
Keywords are canonical (``t`` → ``type``, ``cmc`` → ``mv``); values keep what the user typed and
are interpreted by the compiler.
"""

from __future__ import annotations

from dataclasses import dataclass

OPERATORS = (":", "=", "!=", ">=", "<=", ">", "<")

KEYWORDS = {
    "name": "name", "n": "name",
    "o": "oracle", "oracle": "oracle",
    "t": "type", "type": "type",
    "c": "color", "color": "color",
    "id": "identity", "identity": "identity", "ci": "identity",
    "m": "mana", "mana": "mana",
    "mv": "mv", "cmc": "mv", "manavalue": "mv",
    "pow": "power", "power": "power",
    "tou": "toughness", "toughness": "toughness",
    "loy": "loyalty", "loyalty": "loyalty",
    "r": "rarity", "rarity": "rarity",
    "s": "set", "e": "set", "set": "set", "edition": "set",
    "cn": "cn", "number": "cn",
    "kw": "keyword", "keyword": "keyword",
    "is": "is", "not": "not",
    "year": "year", "date": "date",
    "lang": "lang", "language": "lang",
    "in": "in",
    "rul": "ruling", "ruling": "ruling",
    "has": "has",
    "fo": "fulloracle", "fulloracle": "fulloracle",
    "a": "artist", "artist": "artist",
    "ft": "flavor", "flavor": "flavor",
    "f": "legal", "format": "legal", "legal": "legal",
    "banned": "banned", "restricted": "restricted",
    "border": "border", "frame": "frame", "game": "game",
    "unique": "unique", "order": "order", "direction": "direction", "include": "include",
}  # fmt: skip
"""Every keyword the language knows (as typed, lowercase) → its canonical name."""


@dataclass(frozen=True, slots=True)
class Span:
    """Offsets into the query text: ``query[start:end]``."""

    start: int
    end: int


# -- values -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Text:
    """A word or a quoted phrase, as typed (quotes removed)."""

    text: str
    quoted: bool = False


@dataclass(frozen=True, slots=True)
class Regex:
    """``/…/``: a regular expression (without its slashes)."""

    pattern: str


@dataclass(frozen=True, slots=True)
class Number:
    value: float


@dataclass(frozen=True, slots=True)
class Field:
    """Another numeric field to compare with: ``pow>tou`` compares power with ``Field("toughness")``."""

    name: str


@dataclass(frozen=True, slots=True)
class Choices:
    """A comma list, which means any of them: ``r:rare,mythic``."""

    values: tuple[Text, ...]


Value = Text | Regex | Number | Field | Choices


# -- nodes --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Name:
    """A bare word or quoted phrase: part of a card's name. ``exact`` for ``!"Full Name"``."""

    text: str
    span: Span
    exact: bool = False


@dataclass(frozen=True, slots=True)
class Term:
    """``keyword operator value``: ``t:creature``, ``mv<=3``, ``o:/draws? a card/``."""

    keyword: str
    """Canonical keyword (a value of :data:`KEYWORDS`)."""
    operator: str
    value: Value
    span: Span


@dataclass(frozen=True, slots=True)
class Not:
    item: Query
    span: Span


@dataclass(frozen=True, slots=True)
class And:
    items: tuple[Query, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Or:
    items: tuple[Query, ...]
    span: Span


Query = Name | Term | Not | And | Or
