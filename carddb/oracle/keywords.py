"""Keyword abilities (Comprehensive Rules 702): the table, and keyword lines parsed and printed back.

A keyword line is a whole line of oracle text made of keyword abilities only: ``Flying``,
``Flying, first strike, lifelink``, ``Madness {1}{R}``, ``Ward—Pay 3 life.``. The parser is strict
and exact: a line is accepted only if :func:`render_keyword_line` prints its keywords back as the
very same text, so ``render_keyword_line(parse_keyword_line(s)) == s`` for every accepted ``s``.

How a :class:`~carddb.oracle.model.Keyword` is filled in:

* ``name`` is the keyword as the table names it, capitalized: ``"Flying"``, ``"Double strike"``.
  A keyword that is a family or that carries a quality before its cost names the variant it is:
  ``"Islandwalk"``, ``"Basic landcycling"``, ``"Goblin offering"``, ``"Equip Knight"``,
  ``"Splice onto Arcane"``, ``"Devour artifact"``; :func:`lookup` finds their entry.
* ``parameter`` is what follows the name, without the fixed word before a quality:
  ``"{1}{R}"`` (Madness), ``"6"`` (Dredge), ``"4—{1}{U}"`` (Suspend), ``"creature"`` (Enchant),
  ``"red"`` (Protection from red), ``"artifacts"`` (Affinity for artifacts), ``"a Faerie"``
  (Champion), ``"Blaring Captain"`` (Partner with).
* ``long_cost`` marks a parameter written after an em dash, kept with its period:
  ``Keyword("Ward", "Pay 3 life.", long_cost=True)``. Such a keyword comes last on its line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import islice

from carddb.oracle.model import Keyword

__all__ = [
    "UN_KEYWORDS",
    "KeywordSpec",
    "Qualifier",
    "Shape",
    "keyword_names",
    "lookup",
    "parse_keyword_line",
    "render_keyword_line",
]


class Shape(StrEnum):
    """What follows a keyword's name."""

    NONE = "none"
    """Nothing: ``Flying``."""
    COST = "cost"
    """A mana cost, ``Madness {1}{R}``, or a long cost after an em dash, ``Ward—Pay 3 life.``."""
    NUMBER = "number"
    """A number or X: ``Dredge 6``, ``Bloodthirst X``."""
    NUMBER_COST = "number—cost"
    """A number, an em dash and a mana cost: ``Suspend 4—{1}{U}``."""
    QUALITY = "quality"
    """Free text naming what the ability is about: ``Enchant creature``, ``Protection from red``."""
    LONG = "long"
    """Only a long text after an em dash: ``Companion—Each nonland card … has a different name.``"""
    LABEL = "label"
    """A label in front of another ability (``Boast—{1}{R}: …``): never a keyword line by itself."""


class Qualifier(StrEnum):
    """Whether a quality may stand between the name and the cost or number (``Equip Knight {1}``)."""

    NO = "no"
    OPTIONAL = "optional"
    REQUIRED = "required"


@dataclass(frozen=True, slots=True)
class KeywordSpec:
    """One keyword ability of Comprehensive Rules 702 and how its parameter is written."""

    name: str
    """Canonical name, capitalized as the first item of a keyword line: ``"Double strike"``."""
    rule: str
    """The rule that defines it: ``"702.4"``, ``"702.29e"``."""
    shape: Shape = Shape.NONE
    optional: bool = False
    """The parameter may be left out: ``Hexproof`` and ``Hexproof from white``; ``Hideaway``."""
    prefix: str = ""
    """Fixed word before the quality (``from``, ``for``) or before the qualifier (``onto``, ``with``)."""
    qualifier: Qualifier = Qualifier.NO
    syntax: str | None = None
    """Regular expression for the parameter where the shape's default does not fit."""
    dash: str | None = None
    """Regular expression for the text after an em dash where the shape's default does not fit."""
    proper: bool = False
    """Keeps its capital letter after the first item of a line (``For Mirrodin!``)."""
    pattern: str | None = None
    """For a family written as one word-pattern (``islandwalk``, ``swampcycling``): its regex, lowercase."""
    target: str | None = None
    """What the ability the keyword stands for targets, as a target's description (one target):
    ``"{quality} you control"`` for Equip (702.6a: "Attach this permanent to target creature you
    control"; ``{quality}`` the keyword's quality, "creature" when it has none, 702.6c), ``"{parameter}"``
    for Enchant (702.5a: what an Aura spell can target), ``"{parameter}"`` also standing for a number
    (Soulshift 3: "target Spirit card with mana value 3 or less …")."""

    @property
    def long_form(self) -> str | None:
        """Regular expression for the em-dash form of the parameter, if the keyword has one."""
        if self.dash is not None:
            return self.dash
        return _LONG_COST if self.shape in (Shape.COST, Shape.LONG) else None


# -- parameter syntax ---------------------------------------------------------------------------
_SYMBOL = r"\{(?:\d+|[WUBRGCSXYZ]|[WUBRGC2](?:/[WUBRGP])+|H[WUBRG]|½|∞)\}"
_MANA = rf"(?:{_SYMBOL})+"
_COST = rf"{_MANA}(?: (?:or|and/or) {_MANA})?"
"""``{1}{R}``; ``{G} or {W}`` (cumulative upkeep); ``{1}{B} and/or {G}`` (kicker)."""
_NUMBER = r"\d+|X"
_WORDS = r"[^\s,.:;—{}()\"]+(?: [^\s,.:;—{}()\"]+)*"
"""Plain words separated by single spaces: no punctuation that ends or splits an ability."""
_LIST = rf"{_WORDS}(?:(?:, {_WORDS})*, (?:and|or) {_WORDS})?"
"""``creature``; ``artifact, creature, or planeswalker``."""
_FROM_LIST = rf"{_WORDS}(?:, (?:and )?from {_WORDS})*"
"""``red``; ``red and from white``; ``Vampires, from Werewolves, and from Zombies``."""
_ARTICLE = rf"an? {_WORDS}"
_NAME = rf"{_WORDS}(?:, {_WORDS})?"
"""A card name: ``Brallin, Skyshark Rider``."""
_LONG_COST = r"[A-Z{][^:;—]*\."
"""A cost in words after an em dash, ending with its period: ``Pay 3 life.``."""

_Q = Qualifier
_S = Shape

# -- the table ----------------------------------------------------------------------------------
KEYWORDS: tuple[KeywordSpec, ...] = (
    KeywordSpec("Deathtouch", "702.2"),
    KeywordSpec("Defender", "702.3"),
    KeywordSpec("Double strike", "702.4"),
    KeywordSpec("Enchant", "702.5", _S.QUALITY, syntax=_LIST, target="{parameter}"),
    KeywordSpec("Equip", "702.6", _S.COST, qualifier=_Q.OPTIONAL, target="{quality} you control"),
    KeywordSpec("First strike", "702.7"),
    KeywordSpec("Flash", "702.8"),
    KeywordSpec("Flying", "702.9"),
    KeywordSpec("Haste", "702.10"),
    KeywordSpec("Hexproof", "702.11", _S.QUALITY, optional=True, prefix="from", syntax=_FROM_LIST),
    KeywordSpec("Indestructible", "702.12"),
    KeywordSpec("Intimidate", "702.13"),
    KeywordSpec(
        "Landwalk",
        "702.14",
        pattern=r"(?:(?:nonbasic|legendary|snow|snow-covered|artifact|basic) )?[a-z]+walk",
    ),
    KeywordSpec("Lifelink", "702.15"),
    KeywordSpec("Protection", "702.16", _S.QUALITY, prefix="from", syntax=_FROM_LIST),
    KeywordSpec("Reach", "702.17"),
    KeywordSpec("Shroud", "702.18"),
    KeywordSpec("Trample", "702.19"),
    KeywordSpec("Trample over planeswalkers", "702.19c"),
    KeywordSpec("Vigilance", "702.20"),
    KeywordSpec("Ward", "702.21", _S.COST),
    KeywordSpec("Banding", "702.22"),
    KeywordSpec("Bands with other", "702.22b", _S.QUALITY, syntax=_LIST),
    KeywordSpec("Rampage", "702.23", _S.NUMBER),
    KeywordSpec("Cumulative upkeep", "702.24", _S.COST),
    KeywordSpec("Flanking", "702.25"),
    KeywordSpec("Phasing", "702.26"),
    KeywordSpec("Buyback", "702.27", _S.COST),
    KeywordSpec("Shadow", "702.28"),
    KeywordSpec("Cycling", "702.29", _S.COST),
    KeywordSpec(
        "Typecycling",
        "702.29e",
        _S.COST,
        pattern=r"(?:(?:basic|nonbasic|snow|artifact|legendary) )?[a-z]+cycling",
    ),
    KeywordSpec("Echo", "702.30", _S.COST),
    KeywordSpec("Horsemanship", "702.31"),
    KeywordSpec("Fading", "702.32", _S.NUMBER),
    KeywordSpec("Kicker", "702.33", _S.COST),
    KeywordSpec("Multikicker", "702.33c", _S.COST),
    KeywordSpec("Sticker kicker", "702.33h", _S.COST),
    KeywordSpec("Flashback", "702.34", _S.COST),
    KeywordSpec("Madness", "702.35", _S.COST),
    KeywordSpec("Fear", "702.36"),
    KeywordSpec("Morph", "702.37", _S.COST),
    KeywordSpec("Megamorph", "702.37b", _S.COST),
    KeywordSpec("Amplify", "702.38", _S.NUMBER),
    KeywordSpec("Provoke", "702.39", target="creature defending player controls"),
    KeywordSpec("Storm", "702.40"),
    KeywordSpec("Affinity", "702.41", _S.QUALITY, prefix="for", syntax=_WORDS),
    KeywordSpec("Entwine", "702.42", _S.COST),
    KeywordSpec("Modular", "702.43", _S.NUMBER, dash="Sunburst", target="artifact creature"),
    KeywordSpec("Sunburst", "702.44"),
    KeywordSpec("Bushido", "702.45", _S.NUMBER),
    KeywordSpec(
        "Soulshift",
        "702.46",
        _S.NUMBER,
        target="Spirit card with mana value {parameter} or less from your graveyard",
    ),
    KeywordSpec("Splice", "702.47", _S.COST, prefix="onto", qualifier=_Q.REQUIRED),
    KeywordSpec("Offering", "702.48", proper=True, pattern=r"[a-z][a-z'-]* offering"),
    KeywordSpec("Ninjutsu", "702.49", _S.COST),
    KeywordSpec("Commander ninjutsu", "702.49d", _S.COST),
    KeywordSpec("Epic", "702.50"),
    KeywordSpec("Convoke", "702.51"),
    KeywordSpec("Dredge", "702.52", _S.NUMBER),
    KeywordSpec("Transmute", "702.53", _S.COST),
    KeywordSpec("Bloodthirst", "702.54", _S.NUMBER),
    KeywordSpec("Haunt", "702.55", target="creature"),
    KeywordSpec("Replicate", "702.56", _S.COST),
    KeywordSpec("Forecast", "702.57", _S.LABEL),
    KeywordSpec("Graft", "702.58", _S.NUMBER),
    KeywordSpec("Recover", "702.59", _S.COST),
    KeywordSpec("Ripple", "702.60", _S.NUMBER),
    KeywordSpec("Split second", "702.61"),
    KeywordSpec("Suspend", "702.62", _S.NUMBER_COST),
    KeywordSpec("Vanishing", "702.63", _S.NUMBER, optional=True),
    KeywordSpec("Absorb", "702.64", _S.NUMBER),
    KeywordSpec("Aura swap", "702.65", _S.COST),
    KeywordSpec("Delve", "702.66"),
    KeywordSpec("Fortify", "702.67", _S.COST, target="land you control"),
    KeywordSpec("Frenzy", "702.68", _S.NUMBER),
    KeywordSpec("Gravestorm", "702.69"),
    KeywordSpec("Poisonous", "702.70", _S.NUMBER),
    KeywordSpec("Transfigure", "702.71", _S.COST),
    KeywordSpec("Champion", "702.72", _S.QUALITY, syntax=_ARTICLE),
    KeywordSpec("Changeling", "702.73"),
    KeywordSpec("Evoke", "702.74", _S.COST),
    KeywordSpec("Hideaway", "702.75", _S.NUMBER, optional=True),
    KeywordSpec("Prowl", "702.76", _S.COST),
    KeywordSpec("Reinforce", "702.77", _S.NUMBER_COST, target="creature"),
    KeywordSpec("Conspire", "702.78"),
    KeywordSpec("Persist", "702.79"),
    KeywordSpec("Wither", "702.80"),
    KeywordSpec("Retrace", "702.81"),
    KeywordSpec("Devour", "702.82", _S.NUMBER, qualifier=_Q.OPTIONAL),
    KeywordSpec("Exalted", "702.83"),
    KeywordSpec("Unearth", "702.84", _S.COST),
    KeywordSpec("Cascade", "702.85"),
    KeywordSpec("Annihilator", "702.86", _S.NUMBER),
    KeywordSpec("Level up", "702.87", _S.COST),
    KeywordSpec("Rebound", "702.88"),
    KeywordSpec("Umbra armor", "702.89"),
    KeywordSpec("Totem armor", "702.89"),
    KeywordSpec("Infect", "702.90"),
    KeywordSpec("Battle cry", "702.91"),
    KeywordSpec("Living weapon", "702.92"),
    KeywordSpec("Undying", "702.93"),
    KeywordSpec("Miracle", "702.94", _S.COST),
    KeywordSpec("Soulbond", "702.95"),
    KeywordSpec("Overload", "702.96", _S.COST),
    KeywordSpec("Scavenge", "702.97", _S.COST, target="creature"),
    KeywordSpec("Unleash", "702.98"),
    KeywordSpec("Cipher", "702.99"),
    KeywordSpec("Evolve", "702.100"),
    KeywordSpec("Extort", "702.101"),
    KeywordSpec("Fuse", "702.102"),
    KeywordSpec("Bestow", "702.103", _S.COST, target="creature"),
    KeywordSpec("Tribute", "702.104", _S.NUMBER),
    KeywordSpec("Dethrone", "702.105"),
    KeywordSpec("Hidden agenda", "702.106"),
    KeywordSpec("Double agenda", "702.106f"),
    KeywordSpec("Outlast", "702.107", _S.COST),
    KeywordSpec("Prowess", "702.108"),
    KeywordSpec("Dash", "702.109", _S.COST),
    KeywordSpec("Exploit", "702.110"),
    KeywordSpec("Menace", "702.111"),
    KeywordSpec("Renown", "702.112", _S.NUMBER),
    KeywordSpec("Awaken", "702.113", _S.NUMBER_COST, target="land you control"),
    KeywordSpec("Devoid", "702.114"),
    KeywordSpec("Ingest", "702.115"),
    KeywordSpec("Myriad", "702.116"),
    KeywordSpec("Surge", "702.117", _S.COST),
    KeywordSpec("Skulk", "702.118"),
    KeywordSpec("Emerge", "702.119", _S.COST, prefix="from", qualifier=_Q.OPTIONAL),
    KeywordSpec("Escalate", "702.120", _S.COST),
    KeywordSpec("Melee", "702.121"),
    KeywordSpec("Crew", "702.122", _S.NUMBER),
    KeywordSpec("Fabricate", "702.123", _S.NUMBER),
    KeywordSpec("Partner", "702.124h"),
    KeywordSpec("Partner with", "702.124i", _S.QUALITY, syntax=_NAME, target="player"),
    KeywordSpec("Friends forever", "702.124j"),
    KeywordSpec("Choose a Background", "702.124k"),
    KeywordSpec("Doctor's companion", "702.124m"),
    KeywordSpec("Undaunted", "702.125"),
    KeywordSpec("Improvise", "702.126"),
    KeywordSpec("Aftermath", "702.127"),
    KeywordSpec("Embalm", "702.128", _S.COST),
    KeywordSpec("Eternalize", "702.129", _S.COST),
    KeywordSpec("Afflict", "702.130", _S.NUMBER),
    KeywordSpec("Ascend", "702.131"),
    KeywordSpec("Assist", "702.132"),
    KeywordSpec("Jump-start", "702.133"),
    KeywordSpec("Mentor", "702.134", target="attacking creature with power less than ~'s power"),
    KeywordSpec("Afterlife", "702.135", _S.NUMBER),
    KeywordSpec("Riot", "702.136"),
    KeywordSpec("Spectacle", "702.137", _S.COST),
    KeywordSpec("Escape", "702.138", _S.COST),
    KeywordSpec("Companion", "702.139", _S.LONG),
    KeywordSpec("Mutate", "702.140", _S.COST, target="non-Human creature you own"),
    KeywordSpec("Encore", "702.141", _S.COST),
    KeywordSpec("Boast", "702.142", _S.LABEL),
    KeywordSpec("Foretell", "702.143", _S.COST),
    KeywordSpec("Demonstrate", "702.144"),
    KeywordSpec("Daybound", "702.145b"),
    KeywordSpec("Nightbound", "702.145e"),
    KeywordSpec("Disturb", "702.146", _S.COST),
    KeywordSpec("Decayed", "702.147"),
    KeywordSpec("Cleave", "702.148", _S.COST),
    KeywordSpec("Training", "702.149"),
    KeywordSpec("Compleated", "702.150"),
    KeywordSpec("Reconfigure", "702.151", _S.COST, target="another creature you control"),
    KeywordSpec("Blitz", "702.152", _S.COST),
    KeywordSpec("Casualty", "702.153", _S.NUMBER),
    KeywordSpec("Enlist", "702.154"),
    KeywordSpec("Read ahead", "702.155"),
    KeywordSpec("Ravenous", "702.156"),
    KeywordSpec("Squad", "702.157", _S.COST),
    KeywordSpec("Space sculptor", "702.158"),
    KeywordSpec("Visit", "702.159", _S.LABEL),
    KeywordSpec("Prototype", "702.160", _S.COST, syntax=rf"{_MANA} ?— ?\d+/\d+"),
    KeywordSpec("Living metal", "702.161"),
    KeywordSpec("More Than Meets the Eye", "702.162", _S.COST, proper=True),
    KeywordSpec("For Mirrodin!", "702.163", proper=True),
    KeywordSpec("Toxic", "702.164", _S.NUMBER),
    KeywordSpec("Backup", "702.165", _S.NUMBER, target="creature"),
    KeywordSpec("Bargain", "702.166"),
    KeywordSpec("Craft", "702.167", _S.COST, prefix="with", qualifier=_Q.REQUIRED),
    KeywordSpec("Disguise", "702.168", _S.COST),
    KeywordSpec("Solved", "702.169", _S.LABEL),
    KeywordSpec("Plot", "702.170", _S.COST),
    KeywordSpec("Saddle", "702.171", _S.NUMBER),
    KeywordSpec("Spree", "702.172"),
    KeywordSpec("Freerunning", "702.173", _S.COST),
    KeywordSpec("Gift", "702.174", _S.QUALITY, syntax=_ARTICLE),
    KeywordSpec("Offspring", "702.175", _S.COST),
    KeywordSpec("Impending", "702.176", _S.NUMBER_COST),
    KeywordSpec("Exhaust", "702.177", _S.LABEL),
    KeywordSpec("Max speed", "702.178", _S.LABEL),
    KeywordSpec("Start your engines!", "702.179"),
)
"""Every keyword ability of Comprehensive Rules 702.2–702.179 (2025-02-07), with its variants."""

UN_KEYWORDS: tuple[KeywordSpec, ...] = (KeywordSpec("Augment", "Unstable", _S.COST),)
"""Keyword abilities of the Un-sets' own mechanics, which the Comprehensive Rules do not define (their
``rule`` names the set that does): ``Augment {2}{G}`` (Unstable, on the halves of host creatures)."""


# -- compiled lookups ---------------------------------------------------------------------------
def _parameter_pattern(spec: KeywordSpec) -> re.Pattern[str]:
    """The text after the head of a keyword: named groups ``q`` (qualifier), ``p`` and ``d``."""
    qualifier = ""
    if spec.qualifier is not Qualifier.NO:
        lead = f" {spec.prefix}" if spec.prefix else ""
        qualifier = rf"{lead} (?P<q>{_WORDS})"
        if spec.qualifier is Qualifier.OPTIONAL:
            qualifier = f"(?:{qualifier})?"
    default = {
        Shape.COST: _COST,
        Shape.NUMBER: _NUMBER,
        Shape.NUMBER_COST: rf"(?:{_NUMBER})—{_MANA}",
        Shape.QUALITY: _WORDS,
    }.get(spec.shape)
    alternatives = []
    if default is not None:
        lead = f" {spec.prefix}" if spec.prefix and spec.shape is Shape.QUALITY else ""
        alternatives.append(rf"{lead} (?P<p>{spec.syntax or default})")
    if spec.long_form is not None:
        alternatives.append(rf"—(?P<d>{spec.long_form})")
    if spec.shape is Shape.NONE or spec.optional:
        alternatives.append("")
    return re.compile(qualifier + "(?:" + "|".join(alternatives) + ")")


_ALL = KEYWORDS + UN_KEYWORDS
_LINE_SPECS = tuple(spec for spec in _ALL if spec.shape is not Shape.LABEL)
_PARAMETER = {spec.name: _parameter_pattern(spec) for spec in _LINE_SPECS}
_BY_NAME = {spec.name.lower(): spec for spec in _ALL}
_HEADS = {spec.name.lower(): spec for spec in _LINE_SPECS if spec.pattern is None}
_FAMILIES = tuple((re.compile(spec.pattern), spec) for spec in _LINE_SPECS if spec.pattern)
_FAMILY_ENDINGS = ("walk", "cycling", " offering")
_MAX_HEAD_WORDS = max(len(spec.name.split()) for spec in _LINE_SPECS)
_WORD = re.compile(r"[^ —]+")
_WORDS_RE = re.compile(_WORDS)
_SEPARATORS = (", ", "; ")


_NAMES = frozenset(spec.name for spec in _ALL)


def keyword_names() -> frozenset[str]:
    """The canonical name of every keyword in the table (families by their rules name: ``Landwalk``)."""
    return _NAMES


@lru_cache(maxsize=4096)
def lookup(name: str) -> KeywordSpec | None:
    """The table entry for a keyword name, case-insensitive.

    Accepts canonical names (``"double strike"``), family members (``"Islandwalk"``,
    ``"Basic landcycling"``, ``"Goblin offering"``) and qualified names (``"Equip Knight"``,
    ``"Splice onto Arcane"``) as :func:`parse_keyword_line` puts them in ``Keyword.name``.
    """
    key = name.lower()
    spec = _BY_NAME.get(key)
    if spec is not None:
        return spec
    family = _family(key)
    if family is not None:
        return family
    words = name.split(" ")
    for count in range(min(len(words) - 1, _MAX_HEAD_WORDS), 0, -1):
        head = _HEADS.get(" ".join(words[:count]).lower())
        if head is None or head.qualifier is Qualifier.NO:
            continue
        rest = words[count:]
        if head.prefix:
            if rest[0] != head.prefix or len(rest) < 2:
                continue
            rest = rest[1:]
        if _WORDS_RE.fullmatch(" ".join(rest)):
            return head
    return None


def _family(key: str) -> KeywordSpec | None:
    if key.endswith(_FAMILY_ENDINGS):
        for pattern, spec in _FAMILIES:
            if pattern.fullmatch(key):
                return spec
    return None


# -- parsing ------------------------------------------------------------------------------------
def parse_keyword_line(line: str, *, separator: str = ", ") -> tuple[Keyword, ...] | None:
    """The keywords of a line made of keyword abilities only, or None if it is anything else.

    Items are separated by ``separator`` (``", "``; a few old cards use ``"; "``); the first is
    capitalized and the others are not, unless their name is a proper noun. Never raises.
    """
    if not line or not line[0].isalpha() or separator not in _SEPARATORS:
        return None
    bounds = [match.start() for match in re.finditer(re.escape(separator), line)]
    bounds.append(len(line))
    keywords = _parse_items(line, bounds, len(separator))
    if keywords is None or render_keyword_line(keywords, separator=separator) != line:
        return None
    return keywords


_MAX_ITEM_SEPARATORS = 8
"""The most separators one item spans ("Protection from white, from blue, from black, from red,
and from green" spans four): a longer item is not looked for, which keeps a line linear."""


def _parse_items(line: str, bounds: list[int], gap: int) -> tuple[Keyword, ...] | None:
    """The keywords of ``line``, items ending at one of ``bounds`` (the separators' positions and
    the end), the longest item first. Iterative, from the last item back: for each place an item
    may start, the item it is and where the next one starts (None: no keyword line from there)."""
    starts = [0, *(bound + gap for bound in bounds[:-1])]
    found: dict[int, tuple[Keyword, int] | None] = {len(line) + gap: None}
    for position in range(len(starts) - 1, -1, -1):
        start = starts[position]
        found[start] = _item_at(
            line, start, bounds[position : position + _MAX_ITEM_SEPARATORS + 1], gap, found
        )
    items: list[Keyword] = []
    start = 0
    while start < len(line):
        step = found.get(start)
        if step is None:
            return None
        items.append(step[0])
        start = step[1]
    return tuple(items) or None


def _item_at(
    line: str, start: int, ends: list[int], gap: int, found: dict[int, tuple[Keyword, int] | None]
) -> tuple[Keyword, int] | None:
    """The item beginning at ``start`` whose rest of the line parses (``found`` holds the rest)."""
    if not ends:
        return None
    for spec, name, head_end in _heads(line, start, ends[0]):
        pattern = _PARAMETER[spec.name]
        for end in reversed(ends):
            if end < head_end:
                break
            match = pattern.fullmatch(line, head_end, end)
            if match is None:
                continue
            if match.groupdict().get("d") is not None and end != len(line):
                continue
            if end == len(line) or found.get(end + gap) is not None:
                return _keyword(spec, name, match), end + gap
    return None


def _heads(line: str, start: int, stop: int) -> list[tuple[KeywordSpec, str, int]]:
    """Keyword names that ``line[start:stop]`` may begin with, longest first: (spec, text, end)."""
    ends = [word.end() for word in islice(_WORD.finditer(line, start, stop), _MAX_HEAD_WORDS)]
    found = []
    for end in reversed(ends):
        text = line[start:end]
        key = text.lower()
        spec = _HEADS.get(key) or _family(key)
        if spec is not None:
            found.append((spec, text, end))
    return found


def _keyword(spec: KeywordSpec, head: str, match: re.Match[str]) -> Keyword:
    groups = match.groupdict()
    name = head[0].upper() + head[1:] if spec.pattern is not None else spec.name
    qualifier = groups.get("q")
    if qualifier is not None:
        name = " ".join(part for part in (name, spec.prefix, qualifier) if part)
    if groups.get("d") is not None:
        return Keyword(name, groups["d"], long_cost=True)
    return Keyword(name, groups.get("p"))


# -- rendering ----------------------------------------------------------------------------------
def render_keyword_line(keywords: Sequence[Keyword], *, separator: str = ", ") -> str:
    """The keyword line as oracle text writes it: ``Flying, ward {2}``; ``Ward—Pay 3 life.``."""
    return separator.join(_render(keyword, index == 0) for index, keyword in enumerate(keywords))


def _render(keyword: Keyword, first: bool) -> str:
    spec = lookup(keyword.name)
    name = keyword.name
    if name:
        if first:
            name = name[0].upper() + name[1:]
        elif spec is None or not spec.proper:
            name = name[0].lower() + name[1:]
    if keyword.parameter is None:
        return name
    if keyword.long_cost:
        return f"{name}—{keyword.parameter}"
    if spec is not None and spec.shape is Shape.QUALITY and spec.prefix:
        return f"{name} {spec.prefix} {keyword.parameter}"
    return f"{name} {keyword.parameter}"
