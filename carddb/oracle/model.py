"""The ability model: frozen, typed values that the oracle grammar produces and the renderer prints.

Everything carries the :class:`Span` of normalized text it came from. What the grammar does not
understand is an :class:`Unimplemented` node holding its text: never silently dropped, and counted
by the coverage harness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class Span:
    """Offsets into the normalized text of a face: ``text[start:end]``."""

    start: int
    end: int


# -- quantities ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Number:
    value: int


@dataclass(frozen=True, slots=True)
class X:
    """The X of a cost or of a "where X is …" clause."""


@dataclass(frozen=True, slots=True)
class Var:
    """A value bound earlier in the same ability, e.g. ``Var("result")`` of a die roll."""

    name: str


@dataclass(frozen=True, slots=True)
class Count:
    """The number of objects matching a description, e.g. cards in your hand."""

    what: str


Quantity = Number | X | Var | Count


# -- objects and players ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SelfRef:
    """The object whose text this is ("~", "this creature", the card's name)."""


@dataclass(frozen=True, slots=True)
class TargetRef:
    slot: int


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """``you``, ``each opponent``, ``target player`` (with its slot), ``that player``…"""

    who: str
    slot: int | None = None


@dataclass(frozen=True, slots=True)
class ObjectPhrase:
    """Objects a step acts on, as the text names them.

    ``kind`` is one of ``target`` (a :class:`TargetSlot` of the ability; description ``any`` for
    "any target"), ``it``, ``that``, ``enchanted``, ``equipped``, ``all``, ``each``, ``yours``
    ("creatures you control"); ``description`` is the noun phrase: "artifact, creature, or
    planeswalker".
    """

    kind: str
    description: str = ""


ObjRef = SelfRef | TargetRef | ObjectPhrase


@dataclass(frozen=True, slots=True)
class TargetSlot:
    """A target chosen when the spell or ability is put on the stack."""

    slot: int
    description: str
    """What may be targeted, as the text says it: "artifact, creature, or planeswalker"."""
    min: int = 1
    max: int = 1


# -- costs --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ManaCost:
    symbols: tuple[str, ...]
    """Mana symbols in order, braces included: ("{5}",), ("{1}", "{R}")."""


@dataclass(frozen=True, slots=True)
class TapCost:
    pass


@dataclass(frozen=True, slots=True)
class UntapCost:
    pass


@dataclass(frozen=True, slots=True)
class ExileSelfCost:
    pass


@dataclass(frozen=True, slots=True)
class SacrificeSelfCost:
    pass


@dataclass(frozen=True, slots=True)
class SacrificeCost:
    what: str


@dataclass(frozen=True, slots=True)
class DiscardCost:
    what: str


@dataclass(frozen=True, slots=True)
class PayLifeCost:
    amount: Quantity


CostItem = (
    ManaCost
    | TapCost
    | UntapCost
    | ExileSelfCost
    | SacrificeSelfCost
    | SacrificeCost
    | DiscardCost
    | PayLifeCost
)


# -- effects ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Action:
    """One instruction: ``verb`` with its arguments, e.g. ``Action("draw", (("amount", Number(2)),))``.

    Verbs are a closed vocabulary (see :data:`carddb.oracle.render.VERBS`); the engine has one
    handler per verb.
    """

    verb: str
    args: tuple[tuple[str, object], ...] = ()

    def arg(self, name: str) -> object:
        return dict(self.args).get(name)


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line of a die-result table: ``low—high | effects`` (``high`` None: ``low+``)."""

    low: int
    high: int | None
    effects: tuple[Step, ...]
    open_ended: bool = False


@dataclass(frozen=True, slots=True)
class RollDie:
    """Roll ``count`` dN (keeping the highest ``keep`` when more are rolled), add ``modifier``,
    bind the result to ``bind`` and look it up in ``table`` if there is one."""

    sides: int
    count: int = 1
    modifier: Quantity | None = None
    bind: str = "result"
    ignore_lower: bool = False
    table: tuple[TableRow, ...] = ()


@dataclass(frozen=True, slots=True)
class Unimplemented:
    """Text the grammar does not understand (yet): kept whole, counted by coverage."""

    text: str
    span: Span
    reason: str = ""


Step = Action | RollDie | Unimplemented


# -- abilities ----------------------------------------------------------------------------------
class Kind(StrEnum):
    SPELL = "spell"
    ACTIVATED = "activated"
    MANA = "mana"
    LOYALTY = "loyalty"
    TRIGGERED = "triggered"
    STATIC = "static"
    REPLACEMENT = "replacement"
    KEYWORD = "keyword"
    CHAPTER = "chapter"
    LEVEL = "level"
    UNKNOWN = "unknown"


class Timing(StrEnum):
    SORCERY = "sorcery"
    ONCE_EACH_TURN = "once each turn"


@dataclass(frozen=True, slots=True)
class Keyword:
    """A keyword ability from the keyword table, with its parameter in canonical text form:
    ``Keyword("Madness", "{1}{R}")``, ``Keyword("Dredge", "6")``, ``Keyword("Ward", "Pay 3 life.",
    long_cost=True)`` for ``Ward—Pay 3 life.``."""

    name: str
    parameter: str | None = None
    long_cost: bool = False


@dataclass(frozen=True, slots=True)
class Mode:
    effects: tuple[Step, ...]
    targets: tuple[TargetSlot, ...] = ()


@dataclass(frozen=True, slots=True)
class Ability:
    kind: Kind
    span: Span
    cost: tuple[CostItem, ...] = ()
    trigger: str | None = None
    """For triggered abilities, the trigger condition as canonical text ("you roll one or more dice")."""
    trigger_word: str | None = None
    """``When``, ``Whenever`` or ``At``."""
    targets: tuple[TargetSlot, ...] = ()
    effects: tuple[Step, ...] = ()
    restrictions: tuple[Timing, ...] = ()
    keywords: tuple[Keyword, ...] = ()
    ability_word: str | None = None
    loyalty: str | None = None
    modes: tuple[Mode, ...] = ()
    choose: str | None = None
    """The modal header: "Choose one", "Choose one or both"…"""
    unparsed: tuple[Unimplemented, ...] = field(default=())
    """Parts of the ability's frame the grammar did not understand (e.g. an unknown trigger)."""

    def unimplemented(self) -> tuple[Unimplemented, ...]:
        """Every Unimplemented node in this ability."""
        found = list(self.unparsed)
        steps: list[Step] = list(self.effects)
        for mode in self.modes:
            steps.extend(mode.effects)
        while steps:
            step = steps.pop()
            if isinstance(step, Unimplemented):
                found.append(step)
            elif isinstance(step, RollDie):
                for row in step.table:
                    steps.extend(row.effects)
        return tuple(found)


@dataclass(frozen=True, slots=True)
class ParsedFace:
    """A face's oracle text, normalized and parsed."""

    source: str
    normalized: str
    abilities: tuple[Ability, ...]
    reminders: tuple[str, ...] = ()
    rendered: str = ""

    @property
    def unimplemented(self) -> tuple[Unimplemented, ...]:
        return tuple(node for ability in self.abilities for node in ability.unimplemented())

    @property
    def complete(self) -> bool:
        """Parsed: no Unimplemented node, and the abilities print back as the normalized text."""
        return not self.unimplemented and self.rendered == self.normalized
