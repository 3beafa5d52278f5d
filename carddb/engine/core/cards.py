"""Card definitions for the engine: a card's characteristics and its parsed abilities, built from a
face in the database or from a scenario's own ``[cards."Name"]`` table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import TYPE_CHECKING

from carddb.engine.core.errors import UnknownCardError
from carddb.errors import AmbiguousCardError, CardNotFoundError
from carddb.oracle import parse_oracle
from carddb.oracle.model import Ability, Keyword, Kind, ParsedFace, Span, Unimplemented

if TYPE_CHECKING:
    from carddb.database import Database

CARD_TYPES = (
    "Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker",
    "Sorcery", "Tribal",
)  # fmt: skip
SUPERTYPES = ("Basic", "Legendary", "Snow", "World", "Ongoing")
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
"""Rule 305.6: a land with a basic land type has "{T}: Add {the type's color}."."""
_SYMBOL = re.compile(r"\{[^{}]+\}")
_REMINDER = re.compile(r"\([^()]*\)")


@dataclass(frozen=True)
class CardDef:
    """What the engine knows of a card: its (front) face's characteristics and abilities."""

    name: str
    type_line: str
    text: str = ""
    mana_cost: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    colors: tuple[str, ...] | None = None
    """A colour indicator, or the colours a token's text gives it ("white Knight"); None: the
    colours come from the mana cost (:func:`carddb.engine.query.characteristics.card_colors`)."""
    layout: str = "normal"
    """The card's layout as MTGJSON and Scryfall name it: ``normal``, ``split``, ``adventure``,
    ``modal_dfc``, ``transform``…"""
    faces: tuple[CardDef, ...] = ()
    """A card of several faces: each face, in the card's order, as a card of one face (a split
    card's halves, an Adventurer card's creature then its Adventure, a double-faced card's front
    then back). The card itself has its first face's characteristics (a split card: both halves'
    combined, 709.4); :mod:`carddb.engine.rules.card_faces` shows another face."""
    parsed: ParsedFace = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        text = self.text
        printed = _REMINDER.sub("", text)  # a basic land's text is only reminder text
        for subtype, color in BASIC_LAND_MANA.items():
            if subtype in self.subtypes and f"{{T}}: Add {{{color}}}." not in printed:
                text = f"{{T}}: Add {{{color}}}.\n{text}" if text else f"{{T}}: Add {{{color}}}."
        object.__setattr__(self, "parsed", parse_oracle(text, self.name, self.type_line))

    def __deepcopy__(self, memo: dict[int, object]) -> CardDef:
        return self  # immutable: a game's snapshot shares its card definitions

    @property
    def abilities(self) -> tuple[Ability, ...]:
        return self.parsed.abilities

    @cached_property
    def _types(self) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        left, _, right = self.type_line.partition("—")
        words = left.split()
        return (
            tuple(w for w in words if w in SUPERTYPES),
            tuple(w for w in words if w not in SUPERTYPES),
            tuple(right.split()),
        )

    @property
    def supertypes(self) -> tuple[str, ...]:
        return self._types[0]

    @property
    def types(self) -> tuple[str, ...]:
        return self._types[1]

    @property
    def subtypes(self) -> tuple[str, ...]:
        return self._types[2]

    @property
    def mana_symbols(self) -> tuple[str, ...]:
        return tuple(_SYMBOL.findall(self.mana_cost))

    @property
    def mana_value(self) -> int:
        """The total of its mana cost's symbols (202.3): X is 0, a hybrid {2/W} counts 2."""
        total = 0
        for symbol in self.mana_symbols:
            inner = symbol.strip("{}")
            if inner.isdigit():
                total += int(inner)
            elif inner not in ("X", "Y", "Z"):
                total += 2 if inner.startswith("2/") else 1
        return total

    @property
    def is_permanent(self) -> bool:
        return not ({"Instant", "Sorcery"} & set(self.types))


def indicated_colors(mana_cost: str | None, colors: str) -> tuple[str, ...] | None:
    """A face's colour indicator (204): the colours a face without a mana cost has all the same
    (a transforming card's back face, Insectile Aberration: blue); None: its mana cost says."""
    return tuple(colors) if not mana_cost and colors else None


SPLIT_LAYOUTS = frozenset({"split", "aftermath"})
"""Layouts whose card has both halves' characteristics combined outside the stack (709.4)."""


def whole_card(name: str, layout: str, faces: tuple[CardDef, ...]) -> CardDef:
    """The card of ``faces`` (one or more, in the card's order), as it is in a library, a hand or
    a graveyard: its first face's characteristics, a split card both halves' (709.4: the names,
    mana costs and card types joined, no rules text of its own: each half's is cast with it)."""
    first = faces[0]
    if len(faces) == 1:
        same = first.name == name and first.layout == layout
        return first if same else replace(first, name=name, layout=layout)
    if layout in SPLIT_LAYOUTS:
        types = " ".join(dict.fromkeys(word for face in faces for word in face.type_line.split()))
        cost = "".join(face.mana_cost for face in faces)
        return CardDef(name, types, "", cost, layout=layout, faces=faces)
    return replace(first, layout=layout, faces=faces)


@cache
def keyword_mana_cost(card: CardDef, name: str, mana: re.Pattern[str]) -> tuple[str, ...] | None:
    """The mana symbols of the cost of the card's keyword ``name`` ("Kicker {1}{G}", "Flashback
    {2}{R}"), when ``mana`` accepts it as a cost the engine pays (None: no such keyword)."""
    for ability in card.abilities:
        if ability.kind is not Kind.KEYWORD:
            continue
        for keyword in ability.keywords:
            parameter = keyword.parameter or ""
            if keyword.name.lower() == name and mana.match(parameter.strip()):
                return tuple(_SYMBOL.findall(parameter))
    return None


def parse_ability(text: str, type_line: str) -> Ability | None:
    """The one ability ``text`` parses to (None: the grammar does not parse it entirely). Keyword
    abilities that stand for an ability (Equip, Cycling) are read this way."""
    parsed = parse_oracle(text, None, type_line)
    if not parsed.complete or len(parsed.abilities) != 1:
        return None
    return parsed.abilities[0]


def refused_ability(kind: Kind, text: str, reason: str) -> Ability:
    """An ability the engine refuses (``executable.missing`` names ``text``)."""
    return Ability(kind, Span(0, 0), unparsed=(Unimplemented(text, Span(0, 0), reason),))


def sole_keyword(ability: Ability) -> Keyword | None:
    """The keyword of a line that is one keyword with a parameter ("Equip {2}", "Cycling {1}")."""
    if ability.kind is Kind.KEYWORD and len(ability.keywords) == 1 and ability.keywords[0].parameter:
        return ability.keywords[0]
    return None


class CardPool:
    """Card definitions by name: a scenario's own cards first, then the database's (English text)."""

    def __init__(self, database: Database | None = None, extra: Mapping[str, CardDef] | None = None) -> None:
        self.database = database
        self.extra = {name.casefold(): card for name, card in (extra or {}).items()}
        self._cache: dict[str, CardDef] = {}

    def with_cards(self, extra: Mapping[str, CardDef]) -> CardPool:
        """This pool with more cards of its own (a scenario's), sharing the database's cache."""
        pool = CardPool(self.database, {**self.extra, **{n.casefold(): c for n, c in extra.items()}})
        pool._cache = self._cache
        return pool

    def get(self, name: str) -> CardDef:
        key = name.casefold()
        if key in self.extra:
            return self.extra[key]
        if key in self._cache:
            return self._cache[key]
        if self.database is None:
            raise UnknownCardError(name, tuple(card.name for card in self.extra.values())[:3])
        try:
            view = self.database.card(name, lang="en")
        except CardNotFoundError as error:
            raise UnknownCardError(name, error.suggestions) from error
        except AmbiguousCardError as error:
            raise UnknownCardError(name, error.candidates) from error
        faces = tuple(
            CardDef(
                name=face.english_name,
                type_line=face.type_line,
                text=face.text or "",
                mana_cost=face.mana_cost or "",
                power=face.power,
                toughness=face.toughness,
                loyalty=face.loyalty,
                colors=indicated_colors(face.mana_cost, face.colors),
            )
            for face in view.faces
        )
        card = whole_card(view.english_name, view.layout, faces)
        self._cache[key] = card
        return card
