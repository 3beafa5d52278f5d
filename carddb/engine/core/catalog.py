"""The catalog: everything the engine knows how to do, in one place.

Each module of the engine that implements part of the rules declares what it contributes as a
:class:`Section` (a plain value: its verbs, conditions, qualifiers, trigger events, static verbs,
keywords, replacements, costs…). :mod:`carddb.engine.catalog` imports those modules explicitly and
joins their sections into one :class:`Catalog`; an entry declared twice is refused
(:class:`DuplicateEntryError`). Nothing is registered as a side effect of importing a module.

The parts that read the catalog (executing steps, resolving noun qualifiers, saying what is
missing) get it from the game (``Game.catalog``) or as an argument, so they never import the
modules that implement the entries."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from carddb.engine.core.errors import EngineError
from carddb.oracle.model import Ability, Action, Keyword

if TYPE_CHECKING:  # the types only: the context and the state do not depend on the catalog
    from carddb.engine.core.context import Context, Ref
    from carddb.engine.core.decisions import Decider
    from carddb.engine.core.proposed import Provider
    from carddb.engine.core.state import Event, Game, GameObject, StackItem

Handler = Callable[["Context", list["Ref"], Action], None]
"""Executes a predicate ("destroy", "draw") for the objects or players of its clause's subject."""
Condition = Callable[["Context", Action], bool]
"""Evaluates a condition phrase ("if you control an artifact")."""
Qualifier = Callable[["Context", "Ref", Action], bool]
"""Whether an object or player satisfies a noun's qualifier ("you control", "in a graveyard")."""
Matcher = Callable[["Context", Action, "Event"], bool]
"""Whether an event matches a trigger condition."""
KeywordCheck = Callable[[Keyword, "Catalog"], list[str]]
"""What keeps a keyword with a parameter (Enchant, Equip, Cycling, Protection) from executing."""
Restriction = Callable[["Game", str, "GameObject", int, Action], None]
"""Checks an activation restriction ("Activate only as a sorcery."): raises when it is not met."""
PhraseCheck = Callable[[Action, "Catalog"], str | None]
"""What keeps a phrase the catalog knows from executing in the way it is written (None: nothing)."""
RuleAbility = Callable[["Game", "Decider", "StackItem"], None]
"""Resolves a triggered ability a keyword's rule defines (``StackItem.rule``: madness's trigger)."""
RuleTrigger = Callable[["Game", "Event"], list["StackItem"]]
"""The triggered abilities a keyword's rule defines that an event triggers ("At the beginning of
your upkeep, …" of echo, cumulative upkeep, suspend): each a ``StackItem`` with its ``rule``."""


class DuplicateEntryError(EngineError):
    """Two sections of the catalog declare the same entry."""

    def __init__(self, kind: str, name: str, first: str, second: str) -> None:
        self.kind, self.name, self.first, self.second = kind, name, first, second
        super().__init__(f"{kind} {name!r} is declared by both {first} and {second}")


@dataclass(frozen=True)
class Section:
    """What one module of the engine contributes to the catalog (its ``SECTION``)."""

    name: str
    verbs: Mapping[str, Handler] = field(default_factory=dict)
    """Phrase verbs executed as steps, by verb."""
    conditions: Mapping[str, Condition] = field(default_factory=dict)
    qualifiers: Mapping[str, Qualifier] = field(default_factory=dict)
    forms: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Verbs of which only some written forms are supported, by form name."""
    triggers: Mapping[str, tuple[Matcher, frozenset[str] | None]] = field(default_factory=dict)
    """Trigger events watched for: their matcher and the names of the forms known (None: all)."""
    static_verbs: frozenset[str] = frozenset()
    """Predicates of static abilities applied continuously."""
    keywords: frozenset[str] = frozenset()
    """Keyword abilities whose rules are applied."""
    keyword_checks: Mapping[str, KeywordCheck] = field(default_factory=dict)
    """Keywords with a parameter, by their first word."""
    granted_keywords: tuple[Callable[[str], bool], ...] = ()
    """Checks for keywords given with a quality in running text ("protection from red")."""
    replacements: frozenset[str] = frozenset()
    """Verbs of replacement abilities ("If you would roll a die, instead …") that are applied."""
    restrictions: Mapping[str, Restriction] = field(default_factory=dict)
    costs: frozenset[str] = frozenset()
    """Verbs of cost phrases that can be paid ("sacrifice", "discard", "pay_life")."""
    ability_kinds: frozenset[str] = frozenset()
    """Ability kinds a rule of the section puts to work beyond those every engine executes (a
    Saga's chapter abilities, 714.2: ``chapter``)."""
    replacement_effects: tuple[Provider, ...] = ()
    """The replacement and prevention effects this part applies (``rules.replacement``)."""
    rule_abilities: Mapping[str, RuleAbility] = field(default_factory=dict)
    """Triggered abilities of keywords' rules, by ``StackItem.rule`` (madness's cast-or-graveyard)."""
    rule_triggers: tuple[RuleTrigger, ...] = ()
    """What makes those abilities trigger on an event (echo's upkeep trigger), for each event."""
    checks: Mapping[str, PhraseCheck] = field(default_factory=dict)
    """For verbs that execute only some of what their phrase may say, by verb: what keeps one
    phrase from executing (of the planar die's symbols, only "you roll {CHAOS}")."""
    static_abilities: tuple[Callable[[Ability], bool], ...] = ()
    """Recognizers of static abilities a part applies as a whole ("You may play lands and cast
    spells from the top of any player's library.")."""


_MAPPINGS: tuple[str, ...] = ("verbs", "conditions", "qualifiers", "forms", "triggers", "keyword_checks")
_MAPPINGS += ("restrictions", "checks", "rule_abilities")
_SETS = ("static_verbs", "keywords", "replacements", "costs", "ability_kinds")


@dataclass(frozen=True)
class Catalog:
    """Every entry of every section, joined (:meth:`of`); read-only."""

    sections: tuple[str, ...] = ()
    verbs: Mapping[str, Handler] = field(default_factory=dict)
    conditions: Mapping[str, Condition] = field(default_factory=dict)
    qualifiers: Mapping[str, Qualifier] = field(default_factory=dict)
    forms: Mapping[str, frozenset[str]] = field(default_factory=dict)
    triggers: Mapping[str, tuple[Matcher, frozenset[str] | None]] = field(default_factory=dict)
    static_verbs: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    keyword_checks: Mapping[str, KeywordCheck] = field(default_factory=dict)
    granted_keywords: tuple[Callable[[str], bool], ...] = ()
    replacements: frozenset[str] = frozenset()
    restrictions: Mapping[str, Restriction] = field(default_factory=dict)
    costs: frozenset[str] = frozenset()
    ability_kinds: frozenset[str] = frozenset()
    replacement_effects: tuple[Provider, ...] = ()
    rule_abilities: Mapping[str, RuleAbility] = field(default_factory=dict)
    rule_triggers: tuple[RuleTrigger, ...] = ()
    checks: Mapping[str, PhraseCheck] = field(default_factory=dict)
    static_abilities: tuple[Callable[[Ability], bool], ...] = ()

    @classmethod
    def of(cls, *sections: Section) -> Catalog:
        """Join ``sections``; an entry (of one kind) declared by two of them is refused."""
        joined: dict[str, Any] = {name: {} for name in (*_MAPPINGS, *_SETS)}
        granted: list[Callable[[str], bool]] = []
        statics: list[Callable[[Ability], bool]] = []
        effects: list[Provider] = []
        rule_triggers: list[RuleTrigger] = []
        names: list[str] = []
        for section in sections:
            if section.name in names:
                raise DuplicateEntryError("section", section.name, section.name, section.name)
            names.append(section.name)
            for kind in (*_MAPPINGS, *_SETS):
                entries = getattr(section, kind)
                table: dict[str, tuple[object, str]] = joined[kind]
                for key in entries:
                    if key in table:
                        raise DuplicateEntryError(kind, key, table[key][1], section.name)
                    table[key] = (entries[key] if kind in _MAPPINGS else key, section.name)
            granted.extend(section.granted_keywords)
            statics.extend(section.static_abilities)
            effects.extend(section.replacement_effects)
            rule_triggers.extend(section.rule_triggers)
        values: dict[str, Any] = {}
        for kind in _MAPPINGS:
            values[kind] = {key: entry for key, (entry, _) in joined[kind].items()}
        for kind in _SETS:
            values[kind] = frozenset(joined[kind])
        return cls(
            sections=tuple(names),
            granted_keywords=tuple(granted),
            static_abilities=tuple(statics),
            replacement_effects=tuple(effects),
            rule_triggers=tuple(rule_triggers),
            **values,
        )
