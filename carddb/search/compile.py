"""Compile a query AST (:mod:`carddb.search.ast`) to one SQLAlchemy select of card ids, and run it.

One compile function per node type (:data:`NODE_COMPILERS`) and one per keyword
(:data:`TERM_COMPILERS`); each returns a boolean condition on ``cards``, mostly
``cards.id IN (select card_id from faces / printings / localizations / rulings where …)``, so
``-`` (NOT), AND and OR combine them freely and a card is found once whatever number of its
printings or faces match. Every user value is a bound parameter.

Matching, on SQLite and PostgreSQL alike:

* names compare :func:`carddb.text.normalize` forms (``name_norm`` columns): case, width,
  accents and punctuation folded, in every language;
* oracle text, type lines, localized text and rulings compare ``lower(column)`` with the
  lowercased value (``LIKE``, escaped): case-insensitive in every script (SQLite gets a Unicode
  ``lower()`` from carddb.db.engine), but not accent-insensitive. Full-text indexes with folded
  columns are a later step;
* regular expressions (``name:/…/``, ``o:/…/``, ``t:/…/``, ``rul:/…/``) are case-insensitive:
  PostgreSQL ``~*``, SQLite the ``REGEXP`` function SQLAlchemy registers (Python :mod:`re`). A
  pattern must compile with Python's :mod:`re`.

Text keywords (``o:``, ``t:``) search the English oracle text, and also the localized text of the
languages the query names with ``lang:`` (``lang:any``: every language) and of the language the
results are shown in.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import (
    Float,
    Integer,
    Select,
    and_,
    case,
    cast,
    exists,
    false,
    func,
    not_,
    or_,
    select,
    true,
)
from sqlalchemy import Text as SqlText
from sqlalchemy.exc import DataError
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from carddb import languages
from carddb.db.lookup import _localizations
from carddb.db.models import Card, CardSet, Face, Localization, Printing, PrintingLocalization, Ruling
from carddb.errors import UnknownLanguageError
from carddb.search.ast import And, Choices, Field, Name, Not, Number, Or, Query, Regex, Span, Term, Text
from carddb.search.results import ORDERS, SearchHit, SearchResult, SearchValueError
from carddb.text import normalize

Condition = ColumnElement[bool]

ANY_LANGUAGE = "any"

# -- colours ------------------------------------------------------------------------------------
WUBRG = "WUBRG"
COLOR_NAMES: dict[str, str] = {
    "white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "colorless": "", "colourless": "",
    # guilds
    "azorius": "WU", "dimir": "UB", "rakdos": "BR", "gruul": "RG", "selesnya": "GW",
    "orzhov": "WB", "izzet": "UR", "golgari": "BG", "boros": "RW", "simic": "GU",
    # shards and wedges
    "bant": "GWU", "esper": "WUB", "grixis": "UBR", "jund": "BRG", "naya": "RGW",
    "abzan": "WBG", "jeskai": "URW", "sultai": "BGU", "mardu": "RWB", "temur": "GUR",
    # Strixhaven colleges
    "silverquill": "WB", "prismari": "UR", "witherbloom": "BG", "lorehold": "RW", "quandrix": "GU",
    # four colours (Nephilim names and Commander 2016 names)
    "glint": "UBRG", "glint-eye": "UBRG", "dune": "WBRG", "dune-brood": "WBRG", "ink": "WURG",
    "ink-treader": "WURG", "witch": "WUBG", "witch-maw": "WUBG", "yore": "WUBR", "yore-tiller": "WUBR",
    "chaos": "UBRG", "aggression": "WBRG", "altruism": "WURG", "growth": "WUBG", "artifice": "WUBR",
}  # fmt: skip
MULTICOLOR = ("m", "multi", "multicolor", "multicolour", "multicolored", "multicoloured")

# -- rarities, layouts ----------------------------------------------------------------------------
RARITIES = ("common", "uncommon", "rare", "mythic", "special", "bonus")
RARITY_ALIASES = {"c": "common", "u": "uncommon", "r": "rare", "m": "mythic", "s": "special", "b": "bonus"}
SPLIT_LAYOUTS = ("split", "aftermath")
"""Layouts whose mana value is the sum of their halves'."""
DFC_LAYOUTS = ("transform", "modal_dfc", "meld", "reversible_card")

_COMPARE: dict[str, Callable[[Any, Any], Condition]] = {
    ":": lambda a, b: a == b,
    "=": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
}
_NUMBER_PATTERN = r"^-?[0-9]+(\.[0-9]+)?$"
_MANA_SYMBOL = re.compile(r"\{[^{}]+\}|[0-9]+|[WUBRGCXYZS]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Context:
    """What compiling needs besides the node: the dialect, and the languages text keywords search
    besides English (empty: English only; containing ``"any"``: every language)."""

    dialect: str
    text_languages: frozenset[str] = frozenset()

    @property
    def any_language(self) -> bool:
        return ANY_LANGUAGE in self.text_languages


# -- helpers ------------------------------------------------------------------------------------
def _error(message: str, value: str, span: Span | None, choices: tuple[str, ...] = ()) -> SearchValueError:
    return SearchValueError(message, value, span, choices)


def _value_text(value: object) -> str:
    if isinstance(value, Text):
        return value.text
    if isinstance(value, Regex):
        return f"/{value.pattern}/"
    if isinstance(value, Number):
        return f"{value.value:g}"
    if isinstance(value, Field):
        return value.name
    if isinstance(value, Choices):
        return ",".join(v.text for v in value.values)
    return str(value)


def _text(term: Term) -> str:
    if isinstance(term.value, Text):
        return term.value.text
    if isinstance(term.value, Number):
        return f"{term.value.value:g}"
    raise _error(
        f"{term.keyword}: expects a word, not {_value_text(term.value)!r}", _value_text(term.value), term.span
    )


def _operator(term: Term, allowed: tuple[str, ...]) -> None:
    if term.operator not in allowed:
        raise _error(
            f"{term.keyword} does not take the operator {term.operator!r}", term.operator, term.span, allowed
        )


def _contains(column: Any, value: str) -> Condition:
    """Case-insensitive substring match, ``LIKE`` with the value escaped and bound."""
    result: Condition = func.lower(column).contains(value.lower(), autoescape=True)
    return result


def _regex(column: Any, term: Term, pattern: str, context: Context) -> Condition:
    """Case-insensitive regular expression match (SQLite: Python's re, PostgreSQL: ``~*``)."""
    try:
        re.compile("(?i)" + pattern)
    except re.error as exc:
        raise _error(f"invalid regular expression /{pattern}/: {exc}", pattern, term.span) from None
    result: Condition
    if context.dialect == "sqlite":
        result = column.regexp_match("(?i)" + pattern)
    else:
        result = column.regexp_match(pattern, flags="i")
    return result


def _numeric(column: Any) -> Any:
    """A text column (power, collector number) as a number where it is one, else NULL."""
    return case((column.regexp_match(_NUMBER_PATTERN), cast(column, Float)), else_=None)


def _faces(condition: Condition) -> Condition:
    return Card.id.in_(select(Face.card_id).where(condition))


def _printings(condition: Condition) -> Condition:
    return Card.id.in_(
        select(Printing.card_id).join(CardSet, CardSet.code == Printing.set_code).where(condition)
    )


def _localized(condition: Condition, context: Context) -> Condition:
    """Cards with a translation, in a language the query searches, that meets ``condition``."""
    if not context.text_languages:
        return false()
    query = select(Face.card_id).join(Localization, Localization.face_id == Face.id).where(condition)
    if not context.any_language:
        query = query.where(Localization.language.in_(sorted(context.text_languages)))
    return Card.id.in_(query)


def _mana_values() -> Any:
    """Per card, its mana value: the front face's, or the sum of both halves of a split card."""
    return (
        select(Face.card_id.label("card_id"), func.sum(Face.mana_value).label("mv"))
        .join(Card, Card.id == Face.card_id)
        .where(or_(Face.position == 0, Card.layout.in_(SPLIT_LAYOUTS)))
        .group_by(Face.card_id)
        .subquery()
    )


# -- node compilers -------------------------------------------------------------------------------
def compile_node(node: Query, context: Context) -> Condition:
    """The condition on ``cards`` that ``node`` stands for."""
    compiler = NODE_COMPILERS.get(type(node))
    if compiler is None:
        raise TypeError(f"not a query node: {node!r}")
    return compiler(node, context)


def _compile_name(node: Query, context: Context) -> Condition:
    assert isinstance(node, Name)
    return _name_condition(node.text, node.exact)


def _name_condition(text: str, exact: bool) -> Condition:
    normalized = normalize(text)
    if not normalized:
        return true()

    def match(column: Any) -> Condition:
        if exact:
            result: Condition = column == normalized
            return result
        return column.contains(normalized, autoescape=True)  # type: ignore[no-any-return]

    return or_(
        match(Card.name_norm),
        _faces(match(Face.name_norm)),
        Card.id.in_(
            select(Face.card_id)
            .join(Localization, Localization.face_id == Face.id)
            .where(match(Localization.name_norm))
        ),
    )


def _compile_not(node: Query, context: Context) -> Condition:
    assert isinstance(node, Not)
    return not_(compile_node(node.item, context))


def _compile_and(node: Query, context: Context) -> Condition:
    assert isinstance(node, And)
    return and_(true(), *(compile_node(item, context) for item in node.items))


def _compile_or(node: Query, context: Context) -> Condition:
    assert isinstance(node, Or)
    return or_(false(), *(compile_node(item, context) for item in node.items))


def _compile_term(node: Query, context: Context) -> Condition:
    assert isinstance(node, Term)
    if isinstance(node.value, Choices):
        parts = [compile_node(replace(node, value=choice), context) for choice in node.value.values]
        if node.operator == "!=":  # "r!=rare,mythic": none of them
            return and_(true(), *parts)
        return or_(false(), *parts)
    compiler = TERM_COMPILERS.get(node.keyword)
    if compiler is None:
        raise _error(
            f"unknown keyword {node.keyword!r}", node.keyword, node.span, tuple(sorted(TERM_COMPILERS))
        )
    return compiler(node, context)


NODE_COMPILERS: dict[type, Callable[[Query, Context], Condition]] = {
    Name: _compile_name,
    Not: _compile_not,
    And: _compile_and,
    Or: _compile_or,
    Term: _compile_term,
}


# -- keyword compilers ----------------------------------------------------------------------------
def _negatable(term: Term, positive: Callable[[Term], Condition]) -> Condition:
    """``!=`` as NOT of ``:`` for keywords that match text."""
    _operator(term, (":", "=", "!="))
    if term.operator == "!=":
        return not_(positive(replace(term, operator=":")))
    return positive(term)


def _term_name(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            pattern = term.value.pattern
            return or_(
                _regex(Card.name, term, pattern, context),
                _faces(_regex(Face.name, term, pattern, context)),
                _localized(_regex(Localization.name, term, pattern, context), context),
            )
        return _name_condition(_text(term), exact=term.operator == "=")

    return _negatable(term, positive)


def _with_self(column: Any, name_column: Any, value: str) -> Any:
    """``column`` with the card's own name replaced by ``~`` when the value uses ``~``."""
    return func.replace(column, name_column, "~") if "~" in value else column


def _term_oracle(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            pattern = term.value.pattern
            english = _faces(_regex(Face.oracle_text, term, pattern, context))
            return or_(english, _localized(_regex(Localization.text, term, pattern, context), context))
        value = _text(term)
        return or_(
            _faces(_contains(_with_self(Face.oracle_text, Face.name, value), value)),
            _localized(_contains(_with_self(Localization.text, Localization.name, value), value), context),
        )

    return _negatable(term, positive)


def _term_type(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            pattern = term.value.pattern
            return or_(
                _faces(_regex(Face.type_line, term, pattern, context)),
                _localized(_regex(Localization.type_line, term, pattern, context), context),
            )
        value = _text(term)
        return or_(
            _faces(_contains(Face.type_line, value)),
            _localized(_contains(Localization.type_line, value), context),
        )

    return _negatable(term, positive)


def _term_ruling(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            condition = _regex(Ruling.text, term, term.value.pattern, context)
        else:
            condition = _contains(Ruling.text, _text(term))
        return Card.id.in_(select(Ruling.card_id).where(condition))

    return _negatable(term, positive)


def parse_colors(term: Term) -> str | None:
    """The colour letters a colour value names (``""``: colourless), None for "multicolour"."""
    value = _text(term).strip().lower()
    if value in MULTICOLOR:
        return None
    if value in COLOR_NAMES:
        return COLOR_NAMES[value]
    if value and all(letter in "wubrgc" for letter in value):
        if "c" in value and len(value) > 1:
            raise _error(f"colorless cannot be combined with colors: {value!r}", value, term.span)
        return "".join(letter for letter in WUBRG if letter.lower() in value)
    choices = (
        *("w", "u", "b", "r", "g", "c", "m", "white", "blue", "black", "red", "green", "colorless"),
        *("multicolor", "a guild, shard, wedge, college or four-colour name (azorius, esper, …)"),
    )
    raise _error(f"unknown color {_text(term)!r}", _text(term), term.span, choices)


def _color_count(term: Term) -> int | None:
    """The number of colours ``c=2`` asks for, None when the value is not a number."""
    if isinstance(term.value, Number):
        return max(-1, min(int(term.value.value), 6))
    if isinstance(term.value, Text) and term.value.text.strip().isdecimal():
        return min(int(term.value.text.strip()), 6)
    return None


def _color_condition(column: Any, term: Term, default: str) -> Condition:
    count = _color_count(term)
    if count is not None:
        return _COMPARE[term.operator](func.length(column), count)
    letters = parse_colors(term)
    if letters is None:  # multicolour
        _operator(term, (":", "=", "!="))
        multi: Condition = func.length(column) >= 2
        return not_(multi) if term.operator == "!=" else multi
    has = {letter: column.contains(letter) for letter in WUBRG}
    superset = and_(true(), *(has[letter] for letter in letters))
    subset = and_(true(), *(not_(has[letter]) for letter in WUBRG if letter not in letters))
    operator = default if term.operator == ":" else term.operator
    if operator == "=":
        return and_(superset, subset)
    if operator == "!=":
        return not_(and_(superset, subset))
    if operator == ">=":
        return superset
    if operator == "<=":
        return subset
    if operator == ">":
        return and_(superset, not_(subset))
    return and_(subset, not_(superset))  # "<"


def _term_color(term: Term, context: Context) -> Condition:
    # c:rg means at least red and green (>=); c:c means colourless (exactly no colour).
    letters = None if _color_count(term) is not None else parse_colors(term)
    default = "=" if letters == "" else ">="
    return _faces(_color_condition(Face.colors, term, default))


def _term_identity(term: Term, context: Context) -> Condition:
    # id:esper means playable in an Esper deck: identity within the colours (<=).
    return _faces(_color_condition(Face.color_identity, term, "<="))


def parse_mana(term: Term) -> dict[str, int]:
    """``2rr`` or ``{2}{R}{R}`` → symbol counts ``{"{2}": 1, "{R}": 2}``."""
    value = _text(term).strip()
    position = 0
    counts: dict[str, int] = {}
    for match in _MANA_SYMBOL.finditer(value):
        if match.start() != position:
            break
        symbol = match.group().upper()
        symbol = symbol if symbol.startswith("{") else "{" + symbol + "}"
        counts[symbol] = counts.get(symbol, 0) + 1
        position = match.end()
    if position != len(value) or not counts:
        raise _error(f"not a mana cost: {value!r}", value, term.span)
    return counts


def _term_mana(term: Term, context: Context) -> Condition:
    _operator(term, (":", "=", "!=", ">="))
    counts = parse_mana(term)
    cost = Face.mana_cost

    def count(symbol: str) -> Any:
        return (func.length(cost) - func.length(func.replace(cost, symbol, ""))) / len(symbol)

    if term.operator in (":", ">="):
        return _faces(and_(cost.is_not(None), *(count(s) >= n for s, n in counts.items())))
    exact = and_(
        cost.is_not(None),
        count("{") == sum(counts.values()),
        *(count(s) == n for s, n in counts.items()),
    )
    return not_(_faces(exact)) if term.operator == "!=" else _faces(exact)


def _number(term: Term) -> float:
    if isinstance(term.value, Number):
        return term.value.value
    text = _text(term)
    try:
        return float(text)
    except ValueError:
        raise _error(f"{term.keyword}: expects a number, not {text!r}", text, term.span) from None


def _term_mv(term: Term, context: Context) -> Condition:
    values = _mana_values()
    mv = values.c.mv
    if isinstance(term.value, Text) and term.value.text.lower() in ("even", "odd"):
        _operator(term, (":", "="))
        whole = cast(cast(mv, Integer), Float) == mv
        parity = cast(mv, Integer) % 2 == (0 if term.value.text.lower() == "even" else 1)
        condition = and_(whole, parity)
    else:
        if isinstance(term.value, Field):
            raise _error(
                f"mv compares with numbers, even or odd, not {term.value.name!r}", term.value.name, term.span
            )
        condition = _COMPARE[term.operator](mv, _number(term))
    return Card.id.in_(select(values.c.card_id).where(condition))


_STAT_COLUMNS = {"power": Face.power, "toughness": Face.toughness, "loyalty": Face.loyalty}


def _term_stat(term: Term, context: Context) -> Condition:
    left = _numeric(_STAT_COLUMNS[term.keyword])
    if isinstance(term.value, Field):
        column = _STAT_COLUMNS.get(term.value.name)
        if column is None:
            raise _error(
                f"{term.keyword} compares with power, toughness or loyalty, not {term.value.name!r}",
                term.value.name,
                term.span,
                tuple(_STAT_COLUMNS),
            )
        right: Any = _numeric(column)
    else:
        right = _number(term)
    return _faces(_COMPARE[term.operator](left, right))


def _rarity(term: Term, text: str) -> str:
    value = text.strip().lower()
    value = RARITY_ALIASES.get(value, value)
    if value not in RARITIES:
        raise _error(f"unknown rarity {text!r}", text, term.span, RARITIES)
    return value


def _term_rarity(term: Term, context: Context) -> Condition:
    rank = RARITIES.index(_rarity(term, _text(term)))
    compare = _COMPARE[term.operator]
    wanted = [name for index, name in enumerate(RARITIES) if compare(index, rank)]
    return _printings(Printing.rarity.in_(wanted))


def _term_set(term: Term, context: Context) -> Condition:
    _operator(term, (":", "=", "!="))
    condition = _printings(Printing.set_code == _text(term).strip().upper())
    return not_(condition) if term.operator == "!=" else condition


def _term_cn(term: Term, context: Context) -> Condition:
    if term.operator in (":", "=", "!="):
        number = _text(term).strip()
        condition = _printings(func.lower(Printing.collector_number) == number.lower())
        return not_(condition) if term.operator == "!=" else condition
    return _printings(_COMPARE[term.operator](_numeric(Printing.collector_number), _number(term)))


def _term_keyword(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        quoted = '"' + _text(term).strip().lower() + '"'
        return _faces(func.lower(cast(Face.keywords, SqlText)).contains(quoted, autoescape=True))

    return _negatable(term, positive)


def _type_contains(word: str) -> Condition:
    return _contains(Face.type_line, word)


def _is_land() -> Condition:
    kind = func.lower(Face.type_line)
    return or_(kind.like("land%"), kind.like("% land%"))


def _is_vanilla() -> Condition:
    with_text = select(Face.card_id).where(Face.oracle_text.is_not(None), Face.oracle_text != "")
    return and_(_faces(_type_contains("creature")), Card.id.not_in(with_text))


def _is_reprint() -> Condition:
    return Card.id.in_(
        select(Printing.card_id)
        .group_by(Printing.card_id)
        .having(func.count(func.distinct(Printing.set_code)) > 1)
    )


IS_VALUES: dict[str, Callable[[], Condition]] = {
    "split": lambda: Card.layout.in_(SPLIT_LAYOUTS),
    "flip": lambda: Card.layout == "flip",
    "transform": lambda: Card.layout == "transform",
    "mdfc": lambda: Card.layout == "modal_dfc",
    "dfc": lambda: Card.layout.in_(DFC_LAYOUTS),
    "meld": lambda: Card.layout == "meld",
    "adventure": lambda: Card.layout == "adventure",
    "saga": lambda: Card.layout == "saga",
    "spell": lambda: _faces(not_(_is_land())),
    "permanent": lambda: _faces(
        or_(
            _is_land(),
            *(_type_contains(t) for t in ("artifact", "creature", "enchantment", "planeswalker", "battle")),
        )
    ),
    "vanilla": _is_vanilla,
    "reprint": _is_reprint,
}
"""``is:`` values (``not:`` negates them)."""


def _term_is(term: Term, context: Context) -> Condition:
    _operator(term, (":", "=", "!="))
    value = _text(term).strip().lower()
    make = IS_VALUES.get(value)
    if make is None:
        raise _error(
            f"unknown {term.keyword}: value {_text(term)!r}", _text(term), term.span, tuple(IS_VALUES)
        )
    condition = make()
    negate = (term.keyword == "not") != (term.operator == "!=")
    return not_(condition) if negate else condition


HAS_VALUES: dict[str, Callable[[], Condition]] = {
    "ruling": lambda: exists(select(Ruling.id).where(Ruling.card_id == Card.id)),
    "rulings": lambda: exists(select(Ruling.id).where(Ruling.card_id == Card.id)),
}


def _term_has(term: Term, context: Context) -> Condition:
    _operator(term, (":", "=", "!="))
    value = _text(term).strip().lower()
    make = HAS_VALUES.get(value)
    if make is None:
        raise _error(f"unknown has: value {_text(term)!r}", _text(term), term.span, tuple(HAS_VALUES))
    return not_(make()) if term.operator == "!=" else make()


def _year_range(term: Term) -> tuple[dt.date, dt.date]:
    number = _number(term)
    if number != int(number) or not 1 <= number <= 9998:
        raise _error(f"not a year: {_value_text(term.value)!r}", _value_text(term.value), term.span)
    year = int(number)
    return dt.date(year, 1, 1), dt.date(year + 1, 1, 1)


def _range_condition(column: Any, operator: str, start: Any, end: Any) -> Condition:
    """``column`` compared with the period ``[start, end)``."""
    conditions: dict[str, Condition] = {
        ":": and_(column >= start, column < end),
        "=": and_(column >= start, column < end),
        "!=": or_(column < start, column >= end),
        ">": column >= end,
        ">=": column >= start,
        "<": column < start,
        "<=": column < end,
    }
    return conditions[operator]


def _term_year(term: Term, context: Context) -> Condition:
    start, end = _year_range(term)
    return _printings(_range_condition(CardSet.release_date, term.operator, start, end))


def _term_date(term: Term, context: Context) -> Condition:
    text = _value_text(term.value).strip()
    day: Any
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        if not re.fullmatch(r"[A-Za-z0-9]{2,8}", text) or text.isdigit():
            raise _error(f"not a date (YYYY-MM-DD) or set code: {text!r}", text, term.span) from None
        released = select(CardSet.release_date).where(CardSet.code == text.upper()).scalar_subquery()
        return _printings(_COMPARE[term.operator](CardSet.release_date, released))
    return _printings(_COMPARE[term.operator](CardSet.release_date, day))


def _language(term: Term) -> str:
    text = _text(term)
    try:
        return languages.resolve(text).tag
    except UnknownLanguageError as exc:
        raise _error(f"unknown language {text!r}", text, term.span, exc.choices) from None


def _term_lang(term: Term, context: Context) -> Condition:
    _operator(term, (":", "="))
    if _text(term).strip().lower() == ANY_LANGUAGE:
        return true()
    tag = _language(term)
    return Card.id.in_(
        select(Face.card_id)
        .join(Localization, Localization.face_id == Face.id)
        .where(Localization.language == tag)
    )


def _term_in(term: Term, context: Context) -> Condition:
    _operator(term, (":", "=", "!="))
    tag = _language(term)
    condition = Card.id.in_(
        select(Printing.card_id)
        .join(PrintingLocalization, PrintingLocalization.printing_id == Printing.id)
        .join(Localization, Localization.id == PrintingLocalization.localization_id)
        .where(Localization.language == tag)
    )
    return not_(condition) if term.operator == "!=" else condition


TERM_COMPILERS: dict[str, Callable[[Term, Context], Condition]] = {
    "name": _term_name,
    "oracle": _term_oracle,
    "type": _term_type,
    "color": _term_color,
    "identity": _term_identity,
    "mana": _term_mana,
    "mv": _term_mv,
    "power": _term_stat,
    "toughness": _term_stat,
    "loyalty": _term_stat,
    "rarity": _term_rarity,
    "set": _term_set,
    "cn": _term_cn,
    "keyword": _term_keyword,
    "is": _term_is,
    "not": _term_is,
    "year": _term_year,
    "date": _term_date,
    "lang": _term_lang,
    "in": _term_in,
    "ruling": _term_ruling,
    "has": _term_has,
}
"""Canonical keyword (:data:`carddb.search.ast.KEYWORDS`) → its compiler."""


# -- the whole query ------------------------------------------------------------------------------
def _terms(node: Query, *, negated: bool = True) -> Iterator[Term]:
    """The query's terms (``negated=False``: not those under a ``-``)."""
    if isinstance(node, Term):
        yield node
    elif isinstance(node, Not):
        if negated:
            yield from _terms(node.item)
    elif isinstance(node, And | Or):
        for item in node.items:
            yield from _terms(item, negated=negated)


def text_languages(query: Query, lang: str | None = None) -> frozenset[str]:
    """The languages besides English that the query's text keywords search: those it names with
    ``lang:`` (not ``-lang:``, which excludes a language) and the language results are shown in."""
    found: set[str] = set()
    for term in _terms(query, negated=False):
        if term.keyword == "lang" and term.operator != "!=":
            values = term.value.values if isinstance(term.value, Choices) else (term.value,)
            for value in values:
                one = replace(term, value=value)
                found.add(ANY_LANGUAGE if _text(one).strip().lower() == ANY_LANGUAGE else _language(one))
    if lang is not None and lang != "en":
        found.add(lang)
    found.discard("en")
    return frozenset(found)


def compile_condition(query: Query, dialect: str = "sqlite", lang: str | None = None) -> Condition:
    """The condition on ``cards`` that ``query`` stands for (``lang``: the results' language tag)."""
    return compile_node(query, Context(dialect, text_languages(query, lang)))


def compile_query(query: Query, dialect: str = "sqlite", lang: str | None = None) -> Select[Any]:
    """A select of the ids of the cards ``query`` finds."""
    return select(Card.id).where(compile_condition(query, dialect, lang))


# -- running ----------------------------------------------------------------------------------------
def _order_by(order: str, lang: str) -> list[Any]:
    name_key: Any = Card.name_norm
    if lang != "en":
        localized = (
            select(func.min(Localization.name_norm))
            .join(Face, Face.id == Localization.face_id)
            .where(Face.card_id == Card.id, Face.position == 0, Localization.language == lang)
            .scalar_subquery()
        )
        name_key = func.coalesce(localized, Card.name_norm)
    if order == "name":
        return [name_key, Card.id]
    if order == "mv":
        values = _mana_values()
        mv = select(values.c.mv).where(values.c.card_id == Card.id).scalar_subquery()
        return [mv, name_key, Card.id]
    if order == "set":
        first_set = select(func.min(Printing.set_code)).where(Printing.card_id == Card.id).scalar_subquery()
        return [first_set, name_key, Card.id]
    newest = (
        select(func.max(CardSet.release_date))
        .join(Printing, Printing.set_code == CardSet.code)
        .where(Printing.card_id == Card.id)
        .scalar_subquery()
    )
    return [newest.desc(), name_key, Card.id]


def _hits(session: Session, card_ids: list[int], lang: str) -> list[SearchHit]:
    if not card_ids:
        return []
    cards = {card.id: card for card in session.scalars(select(Card).where(Card.id.in_(card_ids)))}
    faces: dict[int, list[Face]] = {}
    for face in session.scalars(select(Face).where(Face.card_id.in_(card_ids)).order_by(Face.position)):
        faces.setdefault(face.card_id, []).append(face)
    shown = (
        _localizations(session, [f.id for fs in faces.values() for f in fs], {lang}, "").get(lang, {})
        if lang != "en"
        else {}
    )
    hits = []
    for card_id in card_ids:
        card, card_faces = cards[card_id], faces.get(card_id, [])
        names, types, localized = [], [], False
        for face in card_faces:
            loc = shown.get(face.id)
            localized = localized or loc is not None
            names.append(loc.name if loc is not None else face.name)
            types.append(loc.type_line or face.type_line if loc is not None else face.type_line)
        costs = [f.mana_cost for f in card_faces if f.mana_cost]
        front = card_faces[0] if card_faces else None
        mana_value: float | None
        if card.layout in SPLIT_LAYOUTS:
            mana_value = sum(f.mana_value or 0.0 for f in card_faces)
        else:
            mana_value = front.mana_value if front is not None else None
        hits.append(
            SearchHit(
                oracle_id=card.oracle_id,
                name=" // ".join(names) if localized else card.name,
                english_name=card.name,
                language=lang if localized else "en",
                layout=card.layout,
                mana_cost=" // ".join(costs) if costs else None,
                mana_value=mana_value,
                type_line=" // ".join(types),
            )
        )
    return hits


def search(
    session: Session,
    query: Query,
    text: str = "",
    lang: str | None = None,
    limit: int = 50,
    page: int = 1,
    order: str = "name",
) -> SearchResult:
    """Run ``query``: one page of the cards it finds, shown in ``lang`` (default English)."""
    if order not in ORDERS:
        raise SearchValueError(f"unknown order {order!r}", order, None, ORDERS)
    if limit < 1:
        raise SearchValueError(f"limit must be at least 1, not {limit}", str(limit))
    if page < 1:
        raise SearchValueError(f"page must be at least 1, not {page}", str(page))
    tag = languages.resolve(lang).tag if lang else "en"
    dialect = session.get_bind().dialect.name
    try:
        condition = compile_condition(query, dialect, tag)
    except SearchValueError as exc:
        raise exc.with_query(text) from None
    ordered = select(Card.id).where(condition).order_by(*_order_by(order, tag))
    try:
        total = int(session.scalar(select(func.count()).select_from(Card).where(condition)) or 0)
        ids = list(session.scalars(ordered.limit(limit).offset((page - 1) * limit)))
    except DataError as exc:  # PostgreSQL rejects a pattern Python's re accepts
        session.rollback()
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
        raise SearchValueError(f"the database rejects the query: {reason}", text, None, (), text) from None
    return SearchResult(
        query=text,
        language=tag,
        total=total,
        page=page,
        limit=limit,
        order=order,
        cards=tuple(_hits(session, ids, tag)),
    )


__all__ = [
    "IS_VALUES",
    "NODE_COMPILERS",
    "TERM_COMPILERS",
    "Context",
    "compile_condition",
    "compile_node",
    "compile_query",
    "search",
    "text_languages",
]
