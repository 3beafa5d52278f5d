"""The wording of other eras of Oracle text, as templates, and the 2022 wording the grammar reads.

Oracle text is reworded from time to time: in 2021 "converted mana cost" became "mana value" and
"Activate this ability only any time you could cast a sorcery" became "Activate only as a sorcery";
in 2024 "enters the battlefield" became "enters" and a card's name gave way to "this creature",
"this artifact", "this Equipment"… The grammar reads one wording, the 2022 templates (the corpus it
is measured on): :func:`reword` turns a line of another era into it, template by template (never
card by card), and records each change as a :class:`Reworded`, so that a parse printed back can be
put back in the wording it came in (:func:`restore_loosely`; ``Normalized.restore``). The two
wordings parse into the same abilities.

Each :class:`Rewrite` names a ``needle``, words every match contains: a line is searched with a
rule only if it holds its needle, which keeps rewording far cheaper than one pattern of all rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

SELF_PHRASES = (
    "creature|spell|permanent|artifact|enchantment|land|planeswalker|Aura|Equipment|Vehicle|card|"
    "token|Saga|Class|battle|Fortification|Siege|Case|Room|Background|Spacecraft|Planet|Mount|"
    "Attraction|Contraption"
)
"""What follows "this" in a self reference ("this creature", "this Equipment")."""


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One template of another era's wording and the 2022 wording the grammar reads instead."""

    era: str
    """``"current"`` (the 2024–2026 Oracle templates) or ``"older"`` (before 2022)."""
    needle: str
    """Words every match contains (a line without them is not searched)."""
    pattern: str
    """A regular expression of the written words."""
    canonical: str | Callable[[re.Match[str]], str]
    """What the grammar reads: a replacement template (``\\1``) or a function of the match."""
    outside_quotes: bool = False
    """Only outside quoted text ("this creature" inside a quote is the object it is granted to)."""


@dataclass(frozen=True, slots=True)
class Reworded:
    """A place where the normalized text reads other words than the face was written in."""

    start: int
    end: int
    """``Normalized.text[start:end]`` is the canonical wording of ``written``."""
    written: str


_SIDES = {
    "four": "4",
    "six": "6",
    "eight": "8",
    "ten": "10",
    "twelve": "12",
    "twenty": "20",
    "hundred": "100",
}


def _die(match: re.Match[str]) -> str:
    return f"{match.group(1)} d{_SIDES[match.group(2).lower()]}"


def _mill(match: re.Match[str]) -> str:
    """ "puts the top two cards of their library into their graveyard" → "mills two cards"."""
    verb = {"put": "mill", "Put": "Mill", "puts": "mills"}[match.group(1)]
    amount = match.group(2)
    return f"{verb} {'a card' if amount == 'card' else amount}"


def _comes_into_play(match: re.Match[str]) -> str:
    return "enters the battlefield" if match.group(1) == "comes" else "enter the battlefield"


_NOUN_PHRASE = (
    r"(?:a|an|another|one or more) (?:[a-z][\w-]* ){0,3}?(?:creature|creatures|land|lands|artifact|artifacts|"
    r"permanent|permanents|enchantment|enchantments|token|tokens|[A-Z][a-z]+s?)"
)
"""A noun phrase that an "enters" trigger names: "another nontoken creature", "one or more Elves"."""

_R = Rewrite
WORDING: tuple[Rewrite, ...] = (
    # 2024: self references by type ("this creature", "this Equipment"; older: "this spell")
    _R("current", "his ", rf"\b[Tt]his (?:{SELF_PHRASES})\b", "~", outside_quotes=True),
    # 2024: "enters" for "enters the battlefield" ("~ enters tapped.", "When ~ enters, …", "As ~
    # enters, …", "enters with", "enter as a copy"); not "enters or leaves the battlefield",
    # "enter the first room"
    # 2024: "another creature you control enters" for "another creature enters the battlefield under
    # your control" (and "an opponent controls" for "under an opponent's control"); not before "or
    # dies": "another creature you control enters or dies" was "… you control enters the battlefield
    # or dies", while "… you control enters or another …" was "… enters the battlefield under your
    # control or another …"
    _R(
        "current",
        "you control enter",
        rf"\b({_NOUN_PHRASE}) you control (enters?)\b(?! the | or (?!an? |another |one or more ))",
        r"\1 \2 the battlefield under your control",
    ),
    _R(
        "current",
        "opponent controls enter",
        rf"\b({_NOUN_PHRASE}) an opponent controls (enters?)\b(?! the | or (?!an? |another |one or more ))",
        r"\1 \2 the battlefield under an opponent's control",
    ),
    _R(
        "current",
        "enter",
        r"\b(enters?|entering)\b(?! the | or leaves| or leave| a room| rooms| into| your | an? )",
        r"\1 the battlefield",
    ),
    _R("current", "entered", r"\bentered(?= this turn| since your)", "entered the battlefield"),
    # 2021: "converted mana cost" became "mana value"
    _R("older", "converted mana cost", r"\bconverted mana costs\b", "mana values"),
    _R("older", "converted mana cost", r"\bconverted mana cost\b", "mana value"),
    # 2021: "Activate this ability only …", "… any time you could cast a sorcery"
    _R("older", "this ability only", r"\b(?:Activate|Play) this ability only\b", "Activate only"),
    _R("older", "any time you could", r"\bany time you could (?:cast|play) a sorcery\b", "as a sorcery"),
    # 2021: "then shuffle your library", "If you search your library this way, shuffle it."
    _R(
        "older",
        "on top of it",
        r"(?<=shuffle your library and put )(that card|them|it) on top of it\b",
        r"\1 on top",
    ),
    _R(
        "older",
        "shuffle ",
        r"\b([Tt]hen|[Ii]f you do,|this way,) shuffle (?:your library\b|their library\b|it(?=\.))",
        r"\1 shuffle",
    ),
    _R(
        "older",
        "shuffles ",
        r"\b([Tt]hen|[Ii]f they do,|this way,) (that player |they )?shuffles (?:their|his or her) library\b",
        r"\1 \2shuffles",
    ),
    # 2020 (Core Set 2021): "mill" became a keyword action; before it, "Target player puts the top two
    # cards of their library into their graveyard", "Put the top card of your library into your
    # graveyard"
    _R(
        "older",
        "library into ",
        r"\b(puts|put|Put) the top (card|(?:[a-z]+|X|\d+) cards) of (?:their|your|his or her) library "
        r"into (?:their|your|his or her) graveyard\b",
        _mill,
    ),
    # Ixalan's Treasure, before tokens were predefined: "create a colorless Treasure artifact token
    # with "{T}, Sacrifice this artifact: Add one mana of any color.""
    _R(
        "older",
        "Treasure artifact token",
        r'\bcolorless Treasure artifact (tokens?) with "\{T\}, Sacrifice this artifact: Add one mana of '
        r'any color(?: to your mana pool)?\."',
        r"Treasure \1.",
    ),
    # un-sets and older cards: "roll a six-sided die", "roll two six-sided dice"
    _R(
        "older",
        "-sided",
        r"\b(a|an|one|two|three|four|five|six|\d+) "
        r"(four|six|eight|ten|twelve|twenty|hundred)-sided (?:die|dice)\b",
        _die,
    ),
    # current: "roll two d20s" (2022: "roll two d20", as Berserker's Frenzy)
    _R("current", " d", r"\b(two|three|four|five|six|X|\d+) d(\d+)s\b", r"\1 d\2"),
    # before 2019: "can block an additional creature" (each combat)
    _R(
        "older",
        "can block an additional creature",
        r"\bcan block an additional creature\b(?! each combat| this turn)",
        "can block an additional creature each combat",
    ),
    # before 2017: "his or her", "to your mana pool"; before 2009: "play" for the battlefield
    _R("older", "his or her", r"\bhis or her\b", "their"),
    _R("older", "him or her", r"\bhim or her\b", "them"),
    _R("older", "mana pool", r" to (?:your|its controller's|their) mana pool\b", ""),
    _R("older", "into play", r"\b(comes?) into play\b", _comes_into_play),
    _R("older", "from play", r"\bfrom play\b", "from the battlefield"),
    _R("older", "into play", r"\binto play\b", "onto the battlefield"),
    _R("older", "in play", r"\bin play\b", "on the battlefield"),
)
"""The wording of other eras and the 2022 wording the grammar reads instead. Where two rules
match at one place, the earlier wins; matches do not overlap."""

_COMPILED = tuple(re.compile(rule.pattern) for rule in WORDING)
_NEEDLES = tuple(dict.fromkeys(rule.needle for rule in WORDING))
_BY_NEEDLE = {
    needle: tuple(i for i, rule in enumerate(WORDING) if rule.needle == needle) for needle in _NEEDLES
}


def reword(line: str, offset: int, reworded: list[Reworded]) -> str:
    """``line`` in the canonical wording; each change is appended to ``reworded`` at its place in
    the normalized text, whose line starts at ``offset``."""
    found: list[tuple[int, int, int, re.Match[str]]] = []
    for needle in _NEEDLES:
        if needle in line:
            for index in _BY_NEEDLE[needle]:
                found += [(m.start(), index, m.end(), m) for m in _COMPILED[index].finditer(line)]
    if not found:
        return line
    found.sort(key=lambda item: (item[0], item[1]))
    parts: list[str] = []
    position = length = 0
    for start, index, end, match in found:
        rule = WORDING[index]
        if start < position or (rule.outside_quotes and line.count('"', 0, start) % 2):
            continue
        canonical = rule.canonical(match) if callable(rule.canonical) else match.expand(rule.canonical)
        kept = line[position:start]
        parts += [kept, canonical]
        begin = offset + length + len(kept)
        reworded.append(Reworded(begin, begin + len(canonical), match.group(0)))
        length += len(kept) + len(canonical)
        position = end
    parts.append(line[position:])
    return "".join(parts)


def restore_loosely(canonical: str, reworded: tuple[Reworded, ...], text: str) -> str:
    """``text``, which differs from the ``canonical`` text it was reworded into (a parse printed
    back differently), with each rewording back at the same occurrence of its canonical words."""
    for place in reversed(reworded):
        words = canonical[place.start : place.end]
        if not words:
            continue
        index = -1
        for _ in range(canonical.count(words, 0, place.start) + 1):
            index = text.find(words, index + 1)
            if index == -1:
                break
        if index != -1:
            text = text[:index] + place.written + text[index + len(words) :]
    return text
