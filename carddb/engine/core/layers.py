"""Rule 613: an object's characteristics computed, never stored, from its card and the continuous
effects on it, applied layer by layer (613.1) and within a layer in timestamp order (613.7).

A :class:`LayerEffect` is one change to one object's characteristics: from a resolved spell or
ability ("Target creature becomes a 0/1 until end of turn", kept on the object it affects, whose
set is fixed as the effect begins, 611.2c) or from a static ability (recomputed by
:mod:`carddb.engine.rules.layers`, which decides which static abilities exist and what they apply
to, the dependency rule 613.8 included). :func:`characteristics` applies them to the card's
copiable values: types (layer 4), colours (5), abilities (6), then power and toughness —
characteristic-defining (7a), set (7b), modified (7c, counters included) and switched (7d).

Control (layer 2) is :class:`~carddb.engine.core.state.ControlEffect`; copy (1) and text-changing
(3) effects are not applied: the catalog refuses the abilities that would create them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import IntEnum, StrEnum

from carddb.engine.core.cards import CardDef
from carddb.oracle.keywords import render_keyword_line
from carddb.oracle.model import Ability, Keyword, Kind

COLORS = ("W", "U", "B", "R", "G")
"""The five colours in the usual order (WUBRG)."""
_ALL_COLORS = re.compile(r"^(?:~|this \w+) is all colors\.$", re.IGNORECASE)


class Layer(IntEnum):
    """The layers and sublayers of 613.1 and 613.4, in the order they apply."""

    COPY = 1
    CONTROL = 2
    TEXT = 3
    TYPE = 4
    COLOR = 5
    ABILITY = 6
    PT_DEFINING = 7
    """7a: characteristic-defining abilities that define power and toughness."""
    PT_SETTING = 8
    """7b: effects that set power and/or toughness ("becomes a 0/1", "base power and toughness")."""
    PT_CHANGING = 9
    """7c: effects that modify power and/or toughness (+N/+N), and counters (613.4c)."""
    PT_SWITCHING = 10
    """7d: effects that switch power and toughness."""


class Op(StrEnum):
    """What a layer effect does."""

    ADD_TYPES = "add types"
    """"… becomes an artifact in addition to its other types" (205.1b)."""
    SET_TYPES = "set types"
    """"… is a Frog creature": the card types it names replace the old ones, and its subtypes the
    old subtypes; supertypes stay (205.1a)."""
    SET_SUBTYPES = "set subtypes"
    """"… becomes a Frog": the subtypes replace the old ones, the card types stay (205.1a)."""
    SET_COLORS = "set colors"
    """"… becomes blue", "… is a blue Frog": the colours replace the old ones (105.3)."""
    ADD_COLORS = "add colors"
    """"… in addition to its other colors and types"."""
    GAIN_KEYWORDS = "gain keywords"
    LOSE_KEYWORDS = "lose keywords"
    LOSE_ALL = "lose all abilities"
    GRANT = "grant"
    """It has a (quoted) ability."""
    SET_PT = "set pt"
    MODIFY_PT = "modify pt"
    SWITCH_PT = "switch pt"


@dataclass(frozen=True)
class LayerEffect:
    """One continuous effect on one object: its layer, timestamp (613.7) and change.

    ``values`` holds the types (``SET_TYPES``, ``ADD_TYPES``: card types, supertypes and subtypes
    as written), the subtypes (``SET_SUBTYPES``), the colour letters (``SET_COLORS``) or the keyword
    texts (``GAIN_KEYWORDS``: "flying and first strike"; ``LOSE_KEYWORDS``: "flying").
    ``power``/``toughness`` are the values set (``SET_PT``: None leaves that one alone) or the
    change (``MODIFY_PT``). ``source`` and ``ability`` name the static ability that generates the
    effect (None: a resolved spell or ability)."""

    layer: Layer
    timestamp: int
    op: Op
    values: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    granted: Ability | None = None
    until_end_of_turn: bool = False
    source: int | None = None
    ability: int | None = None
    granter: int | None = None
    """``GRANT``: the object whose text holds the quoted ability (what ``~`` in it names)."""


@dataclass(frozen=True)
class Characteristics:
    """An object's characteristics now (after every layer)."""

    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: frozenset[str]
    abilities: tuple[tuple[int, Ability], ...]
    """Its abilities with their indexes: the card's (0…), then those granted, in the order they
    were granted; what it lost is not here."""
    granted_keywords: tuple[str, ...]
    """Keyword texts effects give it ("flying and first strike", "protection from red") and no
    later effect took away ("loses flying" takes away only what was given before it, 613.7)."""
    power: int | None
    toughness: int | None
    every_creature_type: bool = False
    """Changeling (702.73a), a characteristic-defining ability of layer 4 (613.3): it is every
    creature type, until an effect later in layer 4 sets its subtypes."""
    granters: tuple[tuple[int, int], ...] = ()
    """The index of each granted ability with the object whose text holds it (its quoted ``~``)."""


NONCREATURE_SUBTYPES = frozenset({
    "Plains", "Island", "Swamp", "Mountain", "Forest", "Desert", "Gate", "Lair", "Locus", "Mine",
    "Power-Plant", "Tower", "Urza's", "Cave", "Sphere",
    "Attraction", "Blood", "Clue", "Contraption", "Equipment", "Food", "Fortification", "Gold", "Incubator",
    "Map", "Powerstone", "Treasure", "Vehicle",
    "Aura", "Background", "Cartouche", "Case", "Class", "Curse", "Role", "Room", "Rune", "Saga", "Shard",
    "Shrine", "Adventure", "Arcane", "Lesson", "Trap",
})  # fmt: skip
"""Land, artifact, enchantment and spell types (205.3i–k): the subtypes that are not creature
types (a changeling is none of them)."""


CARD_TYPES = frozenset({
    "Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker",
    "Sorcery", "Tribal",
})  # fmt: skip
SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing"})


def card_colors(card: CardDef) -> tuple[str, ...]:
    """A card's own colours, in WUBRG order: its mana cost (each coloured half of a hybrid symbol,
    a Phyrexian symbol's colour, 202.2, 105.2), a colour indicator or a token's text, and the
    characteristic-defining abilities "Devoid" (702.114) and "~ is all colors." (604.3)."""
    keywords = {k.name.lower() for a in card.abilities if a.kind is Kind.KEYWORD for k in a.keywords}
    if "devoid" in keywords:
        return ()
    if any(_ALL_COLORS.match(line.replace(card.name, "~").strip()) for line in card.text.splitlines()):
        return COLORS
    if card.colors is not None:
        return tuple(c for c in COLORS if c in card.colors)
    found = {
        letter
        for symbol in card.mana_symbols
        for letter in symbol.strip("{}").split("/")
        if letter in COLORS
    }
    return tuple(c for c in COLORS if c in found)


def split_keywords(text: str) -> list[str]:
    """``"flying and first strike"`` → ``["flying", "first strike"]``."""
    return [part.strip().lower() for part in re.split(r",? and |, ", text) if part.strip()]


def _number(printed: str | None) -> int | None:
    if printed is None or not printed.lstrip("-").isdigit():
        return None
    return int(printed)


def _lost(keyword: Keyword, names: set[str]) -> bool:
    """Whether "loses …" names the keyword: by its name ("loses flying", "loses protection"), or
    with its parameter ("loses protection from black" is that protection only)."""
    return keyword.name.lower() in names or render_keyword_line([keyword]).lower() in names


def _lose_keywords(abilities: list[tuple[int, Ability]], names: set[str]) -> list[tuple[int, Ability]]:
    kept: list[tuple[int, Ability]] = []
    for index, ability in abilities:
        if ability.kind is Kind.KEYWORD and any(_lost(k, names) for k in ability.keywords):
            remaining = tuple(k for k in ability.keywords if not _lost(k, names))
            if not remaining:
                continue
            ability = replace(ability, keywords=remaining)
        kept.append((index, ability))
    return kept


LEVEL_SOURCE = -1
"""The ``source`` of a leveler's own level P/T effect (711.2b)."""
LEVEL_COUNTER = "level"
"""The counters level up puts (702.87a) and a leveler's level symbols count (711.2)."""


def is_leveler(card: CardDef) -> bool:
    """A leveler card (711.1): a "Level up" keyword and level symbols (a Class's levels are others)."""
    return "Class" not in card.subtypes and any(
        a.kind is Kind.KEYWORD and any(k.name == "Level up" for k in a.keywords) for a in card.abilities
    )


def level_range(level: str) -> tuple[int, int | None] | None:
    """ "2-3" → (2, 3), "4+" → (4, None) (None: not a level symbol the engine reads)."""
    low, dash, high = level.partition("-")
    if dash and low.isdigit() and high.isdigit():
        return int(low), int(high)
    if not dash and level.endswith("+") and level[:-1].isdigit():
        return int(level[:-1]), None
    return None


def at_level(level: str | None, counters: Mapping[str, int]) -> bool:
    """711.2b: a level symbol's abilities and P/T apply while the permanent has at least N1 and no
    more than N2 level counters (N1+: at least N1). Abilities of no level always apply."""
    if level is None:
        return True
    found = level_range(level)
    count = counters.get(LEVEL_COUNTER, 0)
    return found is not None and count >= found[0] and (found[1] is None or count <= found[1])


def level_pt(card: CardDef, counters: Mapping[str, int]) -> tuple[int, int, int] | None:
    """The base power and toughness a leveler's level symbol gives it now (711.2b, layer 7b), with the
    index of the level ability that says it (None: no level applies)."""
    if not is_leveler(card):
        return None
    for index, ability in enumerate(card.abilities):
        if ability.kind is Kind.LEVEL and ability.pt and at_level(ability.level, counters):
            power, _, toughness = ability.pt.partition("/")
            if power.isdigit() and toughness.isdigit():
                return index, int(power), int(toughness)
    return None


def characteristics(
    card: CardDef,
    effects: Iterable[LayerEffect],
    counters: Mapping[str, int],
    *,
    face_down: bool = False,
    timestamp: int = 0,
) -> Characteristics:
    """``card``'s characteristics with ``effects`` applied, layer by layer and in timestamp order
    within a layer (613.1, 613.7); ``counters`` are applied in layer 7c (613.4c). A face-down
    permanent has no colour (708.2). A leveler has the abilities of the level it is at, and its
    base power and toughness (711.2b: a static ability of its own, with its ``timestamp``, that
    applies only while it still has that ability after layer 6)."""
    supertypes, types, subtypes = list(card.supertypes), list(card.types), list(card.subtypes)
    colors = set() if face_down else set(card_colors(card))
    leveler = is_leveler(card)
    abilities = [
        (index, ability)
        for index, ability in enumerate(card.abilities)
        if not leveler or at_level(ability.level, counters)
    ]
    leveled = level_pt(card, counters)
    if leveled is not None:
        index, level_power, level_toughness = leveled
        effects = [
            *effects,
            LayerEffect(Layer.PT_SETTING, timestamp, Op.SET_PT, power=level_power, toughness=level_toughness,
                        ability=index, source=LEVEL_SOURCE),
        ]
    granted_keywords: list[str] = []
    granters: list[tuple[int, int]] = []
    power, toughness = _number(card.power), _number(card.toughness)
    next_index = len(card.abilities)
    switched = False
    every = "changeling" in {
        k.name.lower() for a in card.abilities if a.kind is Kind.KEYWORD for k in a.keywords
    }
    for effect in sorted(effects, key=lambda e: (e.layer, e.timestamp)):
        op = effect.op
        if op is Op.ADD_TYPES:
            for word in effect.values:
                kind = supertypes if word in SUPERTYPES else types if word in CARD_TYPES else subtypes
                if word not in kind:
                    kind.append(word)
        elif op is Op.SET_TYPES:
            new_types = [w for w in effect.values if w in CARD_TYPES]
            if new_types:
                types = new_types
            subtypes = [w for w in effect.values if w not in CARD_TYPES and w not in SUPERTYPES]
            every = False
        elif op is Op.SET_SUBTYPES:
            subtypes = list(effect.values)
            every = False
        elif op is Op.SET_COLORS:
            colors = set(effect.values)
        elif op is Op.ADD_COLORS:
            colors |= set(effect.values)
        elif op is Op.GAIN_KEYWORDS:
            granted_keywords.extend(effect.values)
        elif op is Op.LOSE_KEYWORDS:
            names = {k for text in effect.values for k in split_keywords(text)}
            abilities = _lose_keywords(abilities, names)
            granted_keywords = [
                ", ".join(kept)
                for text in granted_keywords
                if (kept := [k for k in split_keywords(text) if k not in names])
            ]
        elif op is Op.LOSE_ALL:
            abilities, granted_keywords = [], []
        elif op is Op.GRANT and effect.granted is not None:
            abilities.append((next_index, effect.granted))
            if effect.granter is not None:
                granters.append((next_index, effect.granter))
            next_index += 1
        elif op is Op.SET_PT:
            if effect.source == LEVEL_SOURCE and all(index != effect.ability for index, _ in abilities):
                continue  # the level ability was lost in layer 6
            power = effect.power if effect.power is not None else power
            toughness = effect.toughness if effect.toughness is not None else toughness
        elif op is Op.MODIFY_PT:
            if power is not None:
                power += effect.power or 0
            if toughness is not None:
                toughness += effect.toughness or 0
        elif op is Op.SWITCH_PT:
            if not switched:  # counters apply in 7c, before any switch
                power, toughness = _counted(power, toughness, counters)
                switched = True
            power, toughness = toughness, power
    if not switched:
        power, toughness = _counted(power, toughness, counters)
    return Characteristics(
        supertypes=tuple(supertypes),
        types=tuple(types),
        subtypes=tuple(subtypes),
        colors=frozenset(colors),
        abilities=tuple(abilities),
        granted_keywords=tuple(granted_keywords),
        power=power,
        toughness=toughness,
        every_creature_type=every and bool({"Creature", "Kindred", "Tribal"} & set(types)),
        granters=tuple((at, granter) for at, granter in granters if any(i == at for i, _ in abilities)),
    )


def _counted(
    power: int | None, toughness: int | None, counters: Mapping[str, int]
) -> tuple[int | None, int | None]:
    for kind, count in counters.items():
        if "/" in kind:
            p, t = kind.split("/")
            if power is not None:
                power += int(p) * count
            if toughness is not None:
                toughness += int(t) * count
    return power, toughness
