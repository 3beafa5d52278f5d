"""One compiler per search keyword (:data:`TERM_COMPILERS`), with the tables they read: colour
names, rarities, ``is:`` and ``has:`` values, mana costs.

Each returns a boolean condition on ``cards`` (built with :mod:`carddb.search.conditions`).
Matching, on SQLite and PostgreSQL alike:

* name words, oracle text, type lines and rulings are substrings of the card's search documents
  (:mod:`carddb.search.documents`), text folded at import with :func:`carddb.text.normalize`: case,
  width, accents, typographic quotes and dashes folded in every language and every field; the
  full-text indexes find them (:mod:`carddb.search.fulltext`);
* exact names (``!"…"``, ``name=``) compare the indexed ``name_norm`` columns;
* regular expressions (``name:/…/``, ``o:/…/``, ``t:/…/``, ``rul:/…/``) are case-insensitive:
  PostgreSQL ``~*``, SQLite the ``REGEXP`` function SQLAlchemy registers (Python :mod:`re`). A
  pattern must compile with Python's :mod:`re`.

Name words match names in every language (:func:`name_condition`, shared with the name nodes of
:mod:`carddb.search.compile`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Float, Integer, and_, cast, exists, false, func, literal, not_, or_, select, true
from sqlalchemy import Text as SqlText
from sqlalchemy.orm import aliased

from carddb import languages
from carddb.characteristics import DFC_LAYOUTS, SPLIT_LAYOUTS, type_bit
from carddb.db.models import (
    Card,
    CardSet,
    Face,
    Legality,
    Localization,
    Printing,
    PrintingLocalization,
    Ruling,
)
from carddb.errors import UnknownLanguageError
from carddb.search.ast import Choices, Field, Name, Number, Query, Regex, Term, Text
from carddb.search.conditions import (
    ANY_LANGUAGE,
    COMPARE,
    TRANSLATIONS,
    Condition,
    Context,
    cards_with,
    check_operator,
    contains,
    error,
    faces_where,
    localized_where,
    narrowed,
    number_of,
    numeric,
    printings_where,
    regex_match,
    rules_text,
    searched_languages,
    text_of,
    value_text,
)
from carddb.search.fulltext import cards_among, matching_any_cards, matching_cards
from carddb.search.vocabulary import color_letter
from carddb.text import normalize

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

_MANA_SYMBOL = re.compile(r"\{[^{}]+\}|[0-9]+|[WUBRGCXYZS]", re.IGNORECASE)
_ENGLISH = frozenset({"en"})


# -- names (name: and the name nodes of carddb.search.compile) ------------------------------------
def name_condition(text: str, exact: bool, context: Context) -> Condition:
    """A name word in any language (a substring of a name), or an exact name (a whole name)."""
    normalized = normalize(text)
    if not normalized:
        return true()
    if not exact:
        return matching_cards("name", normalized, None, context.dialect, lookup=context.lookup)
    return or_(
        Card.name_norm == normalized,
        faces_where(Face.name_norm == normalized, context),
        cards_with(TRANSLATIONS.where(Localization.name_norm == normalized), Face.card_id, context),
    )


# -- keyword compilers ----------------------------------------------------------------------------
def _negatable(term: Term, positive: Callable[[Term], Condition]) -> Condition:
    """``!=`` as NOT of ``:`` for keywords that match text."""
    check_operator(term, (":", "=", "!="))
    if term.operator == "!=":
        return not_(positive(replace(term, operator=":")))
    return positive(term)


def _term_name(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            pattern = term.value.pattern
            whole = regex_match(Card.name, term, pattern, context)
            return or_(
                narrowed(whole, Card.id, "name", pattern, None, context),
                _regex_on_faces(Face.name, Localization.name, "name", term, context, languages=None),
            )
        return name_condition(text_of(term), term.operator == "=", context)

    return _negatable(term, positive)


def _regex_on_faces(
    english: Any,
    translated: Any,
    field: str,
    term: Term,
    context: Context,
    *,
    languages: frozenset[str] | None = _ENGLISH,
) -> Condition:
    """Cards whose face column ``english``, or the ``translated`` column of a translation in a
    language the query searches, matches the term's regular expression; each narrowed through the
    documents' ``field`` (``languages``: those of the English column's documents)."""
    assert isinstance(term.value, Regex)
    pattern = term.value.pattern
    on_faces = regex_match(english, term, pattern, context)
    on_translations = regex_match(translated, term, pattern, context)
    return or_(
        faces_where(narrowed(on_faces, Face.card_id, field, pattern, languages, context), context),
        localized_where(
            narrowed(on_translations, Face.card_id, field, pattern, searched_languages(context), context),
            context,
        ),
    )


TEXT_FIELDS = {"oracle": "text", "ruling": "rulings"}
"""The document field a text keyword's words and phrases are found in (``name:`` and bare words:
``name``, in every language)."""


@dataclass(frozen=True, slots=True)
class TextSearch:
    """A query node that is a plain substring test of one document field: ``field`` contains
    ``folded``, in the documents of ``languages`` (None: every language)."""

    field: str
    languages: frozenset[str] | None
    folded: str


def text_search(node: Query, context: Context) -> TextSearch | None:
    """``node`` as a :class:`TextSearch` (a name word, ``name:``, ``o:`` or ``rul:`` with a word or
    phrase), None when it is anything else (an exact name, a regular expression, ``~``, ``!=``)."""
    if isinstance(node, Name) and not node.exact:
        field, languages, text = "name", None, node.text
    elif (
        isinstance(node, Term)
        and node.operator == ":"
        and isinstance(node.value, Text)
        and (node.keyword == "name" or node.keyword in TEXT_FIELDS)
    ):
        field = TEXT_FIELDS.get(node.keyword, "name")
        languages = None if field == "name" else context.document_languages
        text = node.value.text
    else:
        return None
    folded = normalize(text)
    if not folded or (field == "text" and "~" in folded):
        return None
    return TextSearch(field, languages, folded)


def _text_cards(field: str, term: Term, context: Context) -> Condition:
    """Cards whose ``field`` contains the term's value, in the languages the query searches."""
    return matching_cards(
        field,
        normalize(text_of(term)),
        context.document_languages,
        context.dialect,
        self_name=field == "text",
        lookup=context.lookup,
    )


def _term_oracle(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):  # without reminder text, as the words and phrases
            return _regex_on_faces(
                rules_text(Face.oracle_text, context),
                rules_text(Localization.text, context),
                "text",
                term,
                context,
            )
        return _text_cards(TEXT_FIELDS["oracle"], term, context)

    return _negatable(term, positive)


def _english_types(words: Iterable[str], context: Context) -> list[Condition]:
    """Cards whose English type line contains one of ``words`` (folded): a bit test for each card
    type or supertype (:data:`carddb.characteristics.TYPE_FLAGS`), one search of the English
    documents for the others."""
    conditions: list[Condition] = []
    texts = []
    for word in words:
        bit = type_bit(word)
        if bit is None:
            texts.append(word)
        else:
            conditions.append(Card.type_bits.op("&")(bit) != 0)
    if texts:
        conditions.append(
            matching_any_cards("type_line", texts, _ENGLISH, context.dialect, lookup=context.lookup)
        )
    return conditions


def _term_type(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            return _regex_on_faces(Face.type_line, Localization.type_line, "type_line", term, context)
        value = normalize(text_of(term))
        # English type lines: the value itself and the English words it translates (Kreatur → creature)
        conditions = _english_types(sorted({value, *context.type_words.get(value, ())}), context)
        if context.text_languages:  # and the type lines of the other languages the query searches
            others = None if context.any_language else context.text_languages
            conditions.append(
                matching_cards("type_line", value, others, context.dialect, lookup=context.lookup)
            )
        return or_(*conditions)

    return _negatable(term, positive)


def _term_ruling(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            pattern = term.value.pattern
            condition = narrowed(
                regex_match(Ruling.text, term, pattern, context),
                Ruling.card_id,
                "rulings",
                pattern,
                None,
                context,
            )
            return cards_with(select(Ruling.id).where(condition), Ruling.card_id, context)
        return _text_cards(TEXT_FIELDS["ruling"], term, context)

    return _negatable(term, positive)


def parse_colors(term: Term) -> str | None:
    """The colour letters a colour value names (``""``: colourless), None for "multicolour"."""
    value = text_of(term).strip().lower()
    if value in MULTICOLOR:
        return None
    if value in COLOR_NAMES:
        return COLOR_NAMES[value]
    if value and all(letter in "wubrgc" for letter in value):
        if "c" in value and len(value) > 1:
            raise error(f"colorless cannot be combined with colors: {value!r}", value, term.span)
        return "".join(letter for letter in WUBRG if letter.lower() in value)
    localized = color_letter(value)
    if localized is not None:
        return localized
    choices = (
        *("w", "u", "b", "r", "g", "c", "m", "white", "blue", "black", "red", "green", "colorless"),
        *("multicolor", "a guild, shard, wedge, college or four-colour name (azorius, esper, …)"),
        "a colour word in another language (rot, rouge, 赤, …)",
    )
    raise error(f"unknown color {text_of(term)!r}", text_of(term), term.span, choices)


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
        return COMPARE[term.operator](func.length(column), count)
    letters = parse_colors(term)
    if letters is None:  # multicolour
        check_operator(term, (":", "=", "!="))
        multi: Condition = func.length(column) >= 2
        return not_(multi) if term.operator == "!=" else multi

    def superset() -> Condition:
        return and_(true(), *(column.contains(letter) for letter in letters))

    def subset() -> Condition:
        return and_(true(), *(not_(column.contains(letter)) for letter in WUBRG if letter not in letters))

    operator = default if term.operator == ":" else term.operator
    if operator == "=":
        return and_(superset(), subset())
    if operator == "!=":
        return not_(and_(superset(), subset()))
    if operator == ">=":
        return superset()
    if operator == "<=":
        return subset()
    if operator == ">":
        return and_(superset(), not_(subset()))
    return and_(subset(), not_(superset()))  # "<"


_COLORED = aliased(Card, name="colored")
"""Cards listed by their colours: read from the covering index of (colours, id), not the table."""


def _card_colors(column: str, term: Term, default: str, context: Context) -> Condition:
    """A colour test of the card row: tested on each candidate when another term drives, else
    the cards listed from the narrow index over the colours (a scan of the wide cards table costs
    three times as much)."""
    if context.correlated:
        return _color_condition(getattr(Card, column), term, default)
    listed = select(_COLORED.id).where(_color_condition(getattr(_COLORED, column), term, default))
    return cards_among(listed, context.dialect, context.lookup)


def _term_color(term: Term, context: Context) -> Condition:
    # c:rg means at least red and green (>=); c:c means colourless (exactly no colour).
    letters = None if _color_count(term) is not None else parse_colors(term)
    default = "=" if letters == "" else ">="
    # the colours of all the faces (Scryfall's card colours: Heaven // Earth is red and green)
    return _card_colors("colors", term, default, context)


def _term_identity(term: Term, context: Context) -> Condition:
    # id:esper means playable in an Esper deck: identity within the colours (<=).
    return _card_colors("color_identity", term, "<=", context)


def parse_mana(term: Term) -> dict[str, int]:
    """``2rr`` or ``{2}{R}{R}`` → symbol counts ``{"{2}": 1, "{R}": 2}``."""
    value = text_of(term).strip()
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
        raise error(f"not a mana cost: {value!r}", value, term.span)
    return counts


def _term_mana(term: Term, context: Context) -> Condition:
    check_operator(term, (":", "=", "!=", ">="))
    counts = parse_mana(term)
    cost = Face.mana_cost

    def count(symbol: str) -> Any:
        return (func.length(cost) - func.length(func.replace(cost, symbol, ""))) / len(symbol)

    if term.operator in (":", ">="):
        return faces_where(and_(cost.is_not(None), *(count(s) >= n for s, n in counts.items())), context)
    exact = and_(
        cost.is_not(None),
        count("{") == sum(counts.values()),
        *(count(s) == n for s, n in counts.items()),
    )
    return not_(faces_where(exact, context)) if term.operator == "!=" else faces_where(exact, context)


def _term_mv(term: Term, context: Context) -> Condition:
    mv = Card.mana_value
    if isinstance(term.value, Text) and term.value.text.lower() in ("even", "odd"):
        check_operator(term, (":", "="))
        whole = cast(cast(mv, Integer), Float) == mv
        parity = cast(mv, Integer) % 2 == (0 if term.value.text.lower() == "even" else 1)
        condition = and_(whole, parity)
    else:
        if isinstance(term.value, Field):
            raise error(
                f"mv compares with numbers, even or odd, not {term.value.name!r}", term.value.name, term.span
            )
        condition = COMPARE[term.operator](mv, number_of(term))
    return condition


_STAT_COLUMNS = {"power": Face.power_value, "toughness": Face.toughness_value, "loyalty": Face.loyalty_value}


def _term_stat(term: Term, context: Context) -> Condition:
    left = _STAT_COLUMNS[term.keyword]
    if isinstance(term.value, Field):
        column = _STAT_COLUMNS.get(term.value.name)
        if column is None:
            raise error(
                f"{term.keyword} compares with power, toughness or loyalty, not {term.value.name!r}",
                term.value.name,
                term.span,
                tuple(_STAT_COLUMNS),
            )
        right: Any = column
    else:
        right = number_of(term)
    return faces_where(COMPARE[term.operator](left, right), context)


def _rarity(term: Term, text: str) -> str:
    value = text.strip().lower()
    value = RARITY_ALIASES.get(value, value)
    if value not in RARITIES:
        raise error(f"unknown rarity {text!r}", text, term.span, RARITIES)
    return value


def _printing_rarity(term: Term, context: Context) -> Condition:
    rank = RARITIES.index(_rarity(term, text_of(term)))
    compare = COMPARE[term.operator]
    wanted = [name for index, name in enumerate(RARITIES) if compare(index, rank)]
    return Printing.rarity.in_(wanted)


def _printing_set(term: Term, context: Context) -> Condition:
    check_operator(term, (":", "=", "!="))
    condition = Printing.set_code == text_of(term).strip().upper()
    return not_(condition) if term.operator == "!=" else condition


def _printing_cn(term: Term, context: Context) -> Condition:
    if term.operator in (":", "=", "!="):
        number = text_of(term).strip()
        condition = func.lower(Printing.collector_number) == number.lower()
        return not_(condition) if term.operator == "!=" else condition
    return func.coalesce(COMPARE[term.operator](numeric(Printing.collector_number), number_of(term)), false())


def _term_keyword(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        quoted = '"' + text_of(term).strip().lower() + '"'
        return faces_where(
            func.lower(cast(Face.keywords, SqlText)).contains(quoted, autoescape=True), context
        )

    return _negatable(term, positive)


def _type_contains(word: str) -> Condition:
    return contains(Face.type_line, word)


def _is_land() -> Condition:
    kind = func.lower(Face.type_line)
    return or_(kind.like("land%"), kind.like("% land%"))


def _is_vanilla(context: Context) -> Condition:
    with_text = faces_where(and_(Face.oracle_text.is_not(None), Face.oracle_text != ""), context)
    return and_(Card.type_bits.op("&")(type_bit("creature")) != 0, not_(with_text))


_EARLIER = aliased(Printing, name="earlier")
_EARLIER_SET = aliased(CardSet, name="earlier_set")


def _printing_reprint() -> Condition:
    """This printing was printed before: as its source says (MTGJSON ``isReprint``, Scryfall
    ``reprint``), else (printings stored before carddb kept it) an imported printing of the card in
    a set released earlier."""
    earlier = exists(
        select(_EARLIER.id)
        .join(_EARLIER_SET, _EARLIER_SET.code == _EARLIER.set_code)
        .where(_EARLIER.card_id == Printing.card_id, _EARLIER_SET.release_date < CardSet.release_date)
    )
    return or_(Printing.reprint.is_(True), and_(Printing.reprint.is_(None), earlier))


def _has_word(column: Any, word: str) -> Condition:
    """A space-separated list column holds ``word`` (False where the list is unknown)."""
    padded = literal(" ") + func.coalesce(column, "") + literal(" ")
    result: Condition = padded.contains(f" {word} ", autoescape=True)
    return result


def _is_commander(context: Context) -> Condition:
    """Scryfall's ``is:commander``: a legendary creature, or a card that says it can be your
    commander (planeswalkers, Backgrounds' partners)."""
    legendary_creature = and_(
        Card.type_bits.op("&")(type_bit("legendary")) != 0, Card.type_bits.op("&")(type_bit("creature")) != 0
    )
    says_so = faces_where(contains(Face.oracle_text, "can be your commander"), context)
    return or_(legendary_creature, says_so)


PRINTING_IS_VALUES: dict[str, Callable[[], Condition]] = {
    "reprint": _printing_reprint,
    "foil": lambda: _has_word(Printing.finishes, "foil"),
    "nonfoil": lambda: _has_word(Printing.finishes, "nonfoil"),
    "etched": lambda: _has_word(Printing.finishes, "etched"),
    "promo": lambda: Printing.promo.is_(True),
    "digital": lambda: Printing.digital.is_(True),
}
"""``is:`` values that are facts of a printing: matched on one printing with the other printing
terms of the query (``s:khm -is:reprint``)."""


IS_VALUES: dict[str, Callable[[Context], Condition]] = {
    "split": lambda context: Card.layout.in_(SPLIT_LAYOUTS),
    "flip": lambda context: Card.layout == "flip",
    "transform": lambda context: Card.layout == "transform",
    "mdfc": lambda context: Card.layout == "modal_dfc",
    "dfc": lambda context: Card.layout.in_(DFC_LAYOUTS),
    "meld": lambda context: Card.layout == "meld",
    "adventure": lambda context: Card.layout == "adventure",
    "saga": lambda context: Card.layout == "saga",
    "spell": lambda context: faces_where(not_(_is_land()), context),
    "permanent": lambda context: faces_where(
        or_(
            _is_land(),
            *(_type_contains(t) for t in ("artifact", "creature", "enchantment", "planeswalker", "battle")),
        ),
        context,
    ),
    "vanilla": _is_vanilla,
    "commander": _is_commander,
}
"""``is:`` values of the card (``not:`` negates them); see also :data:`PRINTING_IS_VALUES`."""


def is_value(term: Term) -> str:
    """The ``is:``/``not:`` value of ``term``, checked (lowercase)."""
    check_operator(term, (":", "=", "!="))
    value = text_of(term).strip().lower()
    if value not in IS_VALUES and value not in PRINTING_IS_VALUES:
        choices = (*IS_VALUES, *PRINTING_IS_VALUES)
        raise error(f"unknown {term.keyword}: value {text_of(term)!r}", text_of(term), term.span, choices)
    return value


def _term_is(term: Term, context: Context) -> Condition:
    value = is_value(term)
    if value in PRINTING_IS_VALUES:
        return printings_where(printing_condition(term, context), context)
    condition = IS_VALUES[value](context)
    negate = (term.keyword == "not") != (term.operator == "!=")
    return not_(condition) if negate else condition


def _printing_is(term: Term, context: Context) -> Condition:
    condition = PRINTING_IS_VALUES[is_value(term)]()
    negate = (term.keyword == "not") != (term.operator == "!=")
    return not_(condition) if negate else condition


HAS_VALUES: dict[str, Callable[[], Condition]] = {
    "ruling": lambda: exists(select(Ruling.id).where(Ruling.card_id == Card.id)),
    "rulings": lambda: exists(select(Ruling.id).where(Ruling.card_id == Card.id)),
}


def _term_has(term: Term, context: Context) -> Condition:
    check_operator(term, (":", "=", "!="))
    value = text_of(term).strip().lower()
    make = HAS_VALUES.get(value)
    if make is None:
        raise error(f"unknown has: value {text_of(term)!r}", text_of(term), term.span, tuple(HAS_VALUES))
    return not_(make()) if term.operator == "!=" else make()


def _year_range(term: Term) -> tuple[dt.date, dt.date]:
    number = number_of(term)
    if number != int(number) or not 1 <= number <= 9998:
        raise error(f"not a year: {value_text(term.value)!r}", value_text(term.value), term.span)
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


def _printing_year(term: Term, context: Context) -> Condition:
    start, end = _year_range(term)
    return _range_condition(CardSet.release_date, term.operator, start, end)


def _printing_date(term: Term, context: Context) -> Condition:
    text = value_text(term.value).strip()
    day: Any
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        if not re.fullmatch(r"[A-Za-z0-9]{2,8}", text) or text.isdigit():
            raise error(f"not a date (YYYY-MM-DD) or set code: {text!r}", text, term.span) from None
        released = select(CardSet.release_date).where(CardSet.code == text.upper()).scalar_subquery()
        return func.coalesce(COMPARE[term.operator](CardSet.release_date, released), false())
    return COMPARE[term.operator](CardSet.release_date, day)


def _printing_artist(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            return regex_match(Printing.artist, term, term.value.pattern, context)
        return contains(Printing.artist, text_of(term).strip())

    return func.coalesce(_negatable(term, positive), term.operator == "!=")


_ENGLISH_FLAVOR = (
    select(PrintingLocalization.printing_id)
    .join(Localization, Localization.id == PrintingLocalization.localization_id)
    .where(PrintingLocalization.printing_id == Printing.id, Localization.language == "en")
)


def _printing_flavor(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            matched = regex_match(Localization.flavor, term, term.value.pattern, context)
        else:
            matched = contains(Localization.flavor, text_of(term).strip())
        return exists(_ENGLISH_FLAVOR.where(matched))

    return _negatable(term, positive)


BORDERS = ("black", "white", "borderless", "silver", "gold")
FRAMES = ("1993", "1997", "2003", "2015", "future")
GAMES = ("paper", "mtgo", "arena")


def _choice(term: Term, choices: tuple[str, ...], what: str) -> str:
    check_operator(term, (":", "=", "!="))
    value = text_of(term).strip().lower()
    if value not in choices:
        raise error(f"unknown {what} {text_of(term)!r}", text_of(term), term.span, choices)
    return value


def _printing_border(term: Term, context: Context) -> Condition:
    condition = func.coalesce(Printing.border, "") == _choice(term, BORDERS, "border")
    return not_(condition) if term.operator == "!=" else condition


def _printing_frame(term: Term, context: Context) -> Condition:
    check_operator(term, (":", "=", "!="))
    value = text_of(term).strip().lower()
    if not re.fullmatch(r"[a-z0-9]{1,32}", value):
        choices = (*FRAMES, "a frame effect (showcase, extendedart, legendary, …)")
        raise error(f"unknown frame {text_of(term)!r}", text_of(term), term.span, choices)
    condition = (
        func.coalesce(Printing.frame, "") == value
        if value in FRAMES
        else _has_word(Printing.frame_effects, value)
    )
    return not_(condition) if term.operator == "!=" else condition


def _printing_game(term: Term, context: Context) -> Condition:
    condition = _has_word(Printing.games, _choice(term, GAMES, "game"))
    return not_(condition) if term.operator == "!=" else condition


PRINTING_TERMS: dict[str, Callable[[Term, Context], Condition]] = {
    "rarity": _printing_rarity,
    "set": _printing_set,
    "cn": _printing_cn,
    "year": _printing_year,
    "date": _printing_date,
    "artist": _printing_artist,
    "flavor": _printing_flavor,
    "border": _printing_border,
    "frame": _printing_frame,
    "game": _printing_game,
    "is": _printing_is,
    "not": _printing_is,
}
"""Keywords that are facts of one printing (``is:``/``not:`` only for
:data:`PRINTING_IS_VALUES`): each gives a condition on a printing row (with its set), so that the
printing terms of an AND are matched on one printing, as Scryfall does (``s:atq -is:reprint``)."""


def is_printing_term(term: Term) -> bool:
    """Whether ``term`` is matched on one printing (see :data:`PRINTING_TERMS`)."""
    if term.keyword not in PRINTING_TERMS:
        return False
    if term.keyword in ("is", "not"):
        values = term.value.values if isinstance(term.value, Choices) else (term.value,)
        return all(isinstance(v, Text) and v.text.strip().lower() in PRINTING_IS_VALUES for v in values)
    return True


def printing_condition(term: Term, context: Context) -> Condition:
    """The condition on one printing row (joined with its set) that ``term`` stands for."""
    if isinstance(term.value, Choices):
        parts = [printing_condition(replace(term, value=choice), context) for choice in term.value.values]
        return and_(true(), *parts) if term.operator == "!=" else or_(false(), *parts)
    return PRINTING_TERMS[term.keyword](term, context)


def _printing_term(term: Term, context: Context) -> Condition:
    """A printing term on its own: the cards with a printing that meets it."""
    return printings_where(printing_condition(term, context), context)


# -- legalities -----------------------------------------------------------------------------------
FORMATS = (
    *("standard", "future", "historic", "gladiator", "pioneer", "explorer", "modern", "legacy"),
    *("pauper", "vintage", "penny", "commander", "brawl", "historicbrawl", "alchemy"),
    *("paupercommander", "duel", "oldschool", "premodern", "predh", "oathbreaker", "timeless"),
    "standardbrawl",
    "frontier",
)
"""The formats MTGJSON and Scryfall give legalities for (``f:`` refuses others)."""
_LEGALITY_STATUSES = {"legal": ("legal", "restricted"), "banned": ("banned",), "restricted": ("restricted",)}


def _term_legality(term: Term, context: Context) -> Condition:
    check_operator(term, (":", "=", "!="))
    value = text_of(term).strip().lower()
    if value not in FORMATS:
        raise error(f"unknown format {text_of(term)!r}", text_of(term), term.span, FORMATS)
    rows = select(Legality.card_id).where(
        Legality.format == value, Legality.status.in_(_LEGALITY_STATUSES[term.keyword])
    )
    condition = cards_with(rows, Legality.card_id, context)
    return not_(condition) if term.operator == "!=" else condition


def _term_full_oracle(term: Term, context: Context) -> Condition:
    def positive(term: Term) -> Condition:
        if isinstance(term.value, Regex):
            return _regex_on_faces(Face.oracle_text, Localization.text, "full_text", term, context)
        return _text_cards("full_text", term, context)

    return _negatable(term, positive)


def _display_term(term: Term, context: Context) -> Condition:
    raise error(
        f"{term.keyword}: applies to the whole query and cannot be negated",
        term.keyword,
        term.span,
    )


def language_tag(term: Term) -> str:
    text = text_of(term)
    try:
        return languages.resolve(text).tag
    except UnknownLanguageError as exc:
        raise error(f"unknown language {text!r}", text, term.span, exc.choices) from None


def _term_lang(term: Term, context: Context) -> Condition:
    check_operator(term, (":", "="))
    if text_of(term).strip().lower() == ANY_LANGUAGE:
        return true()
    tag = language_tag(term)
    return cards_with(TRANSLATIONS.where(Localization.language == tag), Face.card_id, context)


_PRINTED_TRANSLATIONS = (
    select(Printing.id)
    .join(PrintingLocalization, PrintingLocalization.printing_id == Printing.id)
    .join(Localization, Localization.id == PrintingLocalization.localization_id)
)
"""Printings with the translations they carry (built once)."""


def _term_in(term: Term, context: Context) -> Condition:
    check_operator(term, (":", "=", "!="))
    tag = language_tag(term)
    condition = cards_with(
        _PRINTED_TRANSLATIONS.where(Localization.language == tag), Printing.card_id, context
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
    "rarity": _printing_term,
    "set": _printing_term,
    "cn": _printing_term,
    "keyword": _term_keyword,
    "is": _term_is,
    "not": _term_is,
    "year": _printing_term,
    "date": _printing_term,
    "lang": _term_lang,
    "in": _term_in,
    "ruling": _term_ruling,
    "has": _term_has,
    "fulloracle": _term_full_oracle,
    "artist": _printing_term,
    "flavor": _printing_term,
    "border": _printing_term,
    "frame": _printing_term,
    "game": _printing_term,
    "legal": _term_legality,
    "banned": _term_legality,
    "restricted": _term_legality,
    "unique": _display_term,
    "order": _display_term,
    "direction": _display_term,
    "include": _display_term,
}
"""Canonical keyword (:data:`carddb.search.ast.KEYWORDS`) → its compiler."""


__all__ = [
    "BORDERS",
    "COLOR_NAMES",
    "FORMATS",
    "FRAMES",
    "GAMES",
    "HAS_VALUES",
    "IS_VALUES",
    "MULTICOLOR",
    "PRINTING_IS_VALUES",
    "PRINTING_TERMS",
    "RARITIES",
    "RARITY_ALIASES",
    "TERM_COMPILERS",
    "TEXT_FIELDS",
    "WUBRG",
    "TextSearch",
    "is_printing_term",
    "is_value",
    "language_tag",
    "name_condition",
    "parse_colors",
    "parse_mana",
    "printing_condition",
    "text_search",
]
