"""The ability model: frozen, typed values that the oracle grammar produces and the renderer prints.

Everything carries the :class:`Span` of normalized text it came from. What the grammar does not
understand is an :class:`Unimplemented` node holding its text: never silently dropped, and counted
by the coverage harness.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from carddb.oracle import phrases

OMIT_DEFAULT = {"omit_default": True}
"""Field metadata: the field is left out of a node's JSON (``carddb parse --json``, the golden
files) while it has its default value."""


@dataclass(frozen=True, slots=True)
class Span:
    """Offsets into the normalized text of a face: ``text[start:end]``."""

    start: int
    end: int


# -- quantities ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Number:
    value: int
    word: str | None = field(default=None, compare=False)
    """How the text wrote it when not in digits ("a", "two"): kept for printing, not compared."""


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
    """The object whose text this is ("~", "this creature", the card's name), perhaps with
    qualifiers ("~ from your graveyard").

    In a quoted ability the card's name is ``~`` too and still names the object whose text holds
    the quote — the Equipment of "Equipped creature has \"Sacrifice ~: ~ deals 2 damage …\"",
    which is not the object that has the ability; "this creature" there stays a noun
    (``Noun(("this",), "creature")``) naming the one that has it."""

    qualifiers: tuple[Action, ...] = ()


@dataclass(frozen=True, slots=True)
class Pronoun:
    """``it``, ``them``, ``you``, ``its controller``…: an object or player named earlier or by role."""

    word: str
    slot: int | None = None
    """For "any target": the :class:`TargetSlot` it names."""
    antecedents: tuple[object, ...] = field(default=(), compare=False, metadata=OMIT_DEFAULT)
    """What it names when the sentence says so: "both creatures" after "as long as ~ is paired
    with another creature" names ~ and the creature it is paired with (702.95); "it" in a later
    target's description ("… and target permanent an opponent controls that shares a card type
    with it") the target before it. For a role ("its controller", "its owner"), the object whose
    controller or owner it is: the target of "Counter target spell unless its controller pays {3}"
    (:mod:`carddb.oracle.targets`). An annotation, not compared: ``Pronoun("it")`` equals every "it"."""


@dataclass(frozen=True, slots=True)
class Noun:
    """A noun phrase naming objects or players: ``target artifact, creature, or planeswalker``,
    ``two cards``, ``each opponent``, ``creatures you control``, ``a creature card with mana value 3
    or less from your graveyard``.

    ``determiners`` are the words before the description (``("up to", "two", "target")``);
    ``description`` is the description token itself, adjectives and types with their list words
    (``"nonblack creature"``, ``"artifact or enchantment"``); ``qualifiers`` are the phrases after
    it (``you control``, ``with flying``), each a :class:`Action` of the qualifier table.
    ``slot`` is the :class:`TargetSlot` of the ability that a targeted noun names ("target
    creature"; "target spell's controller", the controller of the spell chosen for that slot).
    """

    determiners: tuple[str, ...]
    description: str
    qualifiers: tuple[Action, ...] = ()
    slot: int | None = None
    narrowed: str | None = None
    """The one alternative of the description that its keyword qualifiers describe, when the others
    cannot have them: "creature" in "artifact, enchantment, or creature with flying" (the other
    qualifiers, "you control", describe every alternative)."""
    antecedents: tuple[object, ...] = field(default=(), compare=False, metadata=OMIT_DEFAULT)
    """What an anaphoric noun names when the sentence says so: "each of those creatures" after "as
    long as ~ is paired with another creature" names ~ and the creature it is paired with; "that
    creature" after "Untap target creature." that target. An annotation, not compared."""
    zone_shared: bool = field(default=False, metadata=OMIT_DEFAULT)
    """Its last qualifier, a zone, is written once, after the noun of the phrase joined after it:
    "lands" of "play lands and cast spells from your graveyard" are lands from your graveyard too
    (it holds that qualifier; the renderer prints it only after the last noun)."""

    @property
    def targeted(self) -> bool:
        return "target" in self.determiners

    @property
    def alternatives(self) -> tuple[str, ...]:
        """The description's alternatives: ``("artifact", "creature", "planeswalker")``."""
        return tuple(
            part
            for part in re.split(r", (?:or |and |and/or )?| (?:or|and|and/or) ", self.description)
            if part
        )

    @property
    def amount(self) -> Quantity | None:
        """How many: ``two cards`` → 2, ``a card`` → 1, ``X target creatures`` → X."""
        for word in self.determiners:
            if word in ("a", "an", "another", "target", "that", "the"):
                continue
            if word == "X":
                return X()
            if word.isdigit():
                return Number(int(word))
            if word in NUMBER_WORDS:
                return Number(NUMBER_WORDS.index(word))
            return None
        return Number(1) if self.determiners and not self.plural else None

    @property
    def plural(self) -> bool:
        last = self.alternatives[-1] if self.alternatives else ""
        return last.endswith("s") and not last.endswith("ss")


@dataclass(frozen=True, slots=True)
class SameSubject:
    """The subject of the clause before, not written again: the second clause of "~ gets +1/+1 until
    end of turn and can't be blocked this turn" (each clause with its own duration)."""


@dataclass(frozen=True, slots=True)
class Nouns:
    """Noun phrases joined by "and" that receive the same action: ``target creature and target
    land``, ``~ and up to one other target creature``, ``up to one target artifact, up to one
    target enchantment, and up to one target land``; or by "or", of which one does (``Sacrifice
    another creature or an enchantment``, ``targets you or a creature you control``). Each item
    keeps its own determiners (and its target slot). ``joins`` are the words between them:
    ``" and "``, ``", "``, ``", and "``, ``" and/or "``, ``" or "``."""

    items: tuple[SelfRef | Pronoun | Noun | Action, ...]
    joins: tuple[str, ...]
    qualifiers: tuple[Action, ...] = ()
    """Qualifiers written once after the last item that describe every item: "up to one target
    artifact card and up to one target enchantment card *from your graveyard*"."""


NounPhrase = SelfRef | Pronoun | Noun | Nouns | SameSubject

NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)  # fmt: skip


class TargetKind(StrEnum):
    """What a target may be (rule 115.1): a player, an object, or either ("any target", 115.4;
    "target creature or player")."""

    PLAYER = "player"
    OBJECT = "object"
    ANY = "any"


ROMAN_NUMERALS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
"""A Saga's chapter numbers as its text writes them (714.2b)."""


@dataclass(frozen=True, slots=True)
class TargetSlot:
    """A target chosen when the spell or ability is put on the stack (rules 115, 601.2c), in the
    order the text names them.

    ``min``/``max`` is how many objects or players this one phrase lets the player choose: "target
    creature" 1–1, "up to two target creatures" 0–2, "any number of target creatures" 0–None (no
    upper limit), "one or two target creatures" 1–2; ``variable`` when the number is the X chosen
    on casting ("X target creatures", min and max then hold 0 and None) or an amount named before
    ("return up to that many target permanents" after "deals combat damage to a player").
    ``divided`` when an amount is divided among them as it is put on the stack (601.2d: "3 damage
    divided as you choose among one, two, or three targets"), each chosen target getting at least
    one.
    """

    slot: int
    description: str
    """What may be targeted, as the text says it, with its qualifiers but without its count and
    the word "target": "artifact, creature, or planeswalker", "creature you don't control"."""
    min: int = 1
    max: int | None = 1
    kind: TargetKind = TargetKind.OBJECT
    variable: bool = False
    divided: bool = False
    reflexive: bool = False
    """The target of a triggered ability the effect creates, reflexive ("When you do, ~ deals 1
    damage to any target", 603.12) or delayed ("When that creature dies this turn, …", 603.7):
    chosen when that ability is put on the stack, not this one."""
    each: str | None = field(default=None, metadata=OMIT_DEFAULT)
    """What the slot is chosen once for each of ("opponent" in "For each opponent, destroy up to one
    target creature that player controls"): ``min``/``max`` count for each one."""


# -- costs --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ManaCost:
    symbols: tuple[str, ...]
    """Mana symbols in order, braces included: ("{5}",), ("{1}", "{R}")."""


@dataclass(frozen=True, slots=True)
class Energy:
    """Energy counters (107.14), written as that many {E} symbols: "Pay {E}{E}", "you get {E}{E}{E}".
    Not mana: no mana ability makes it and no mana pays it."""

    count: int


@dataclass(frozen=True, slots=True)
class TapCost:
    pass


@dataclass(frozen=True, slots=True)
class UntapCost:
    pass


# -- phrases and effects ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Action:
    """One phrase of a phrase table (``grammars/oracle/phrases/*.toml``): its ``verb`` (the
    table entry), its arguments by role, and which of the entry's written ``form`` it was, e.g.
    ``Action("draw", (("what", Noun(("two",), "cards")),))``.

    Verbs are a closed vocabulary, the tables' entries; the renderer prints an action with its
    template and the engine has one handler per verb.
    """

    verb: str
    args: tuple[tuple[str, object], ...] = ()
    form: int = 0
    slot: int | None = None
    """The :class:`TargetSlot` a phrase itself names: "target player controls", "target player's
    graveyard", "3 damage divided as you choose among any number of targets"."""

    def arg(self, name: str) -> object:
        return dict(self.args).get(name)

    @property
    def form_name(self) -> str | None:
        """The name of the written form in its entry's table (None: an unnamed form)."""
        return phrases.form_name(self.verb, self.form)


CostItem = ManaCost | TapCost | UntapCost | Action
"""A cost: mana, {T}, {Q}, or a phrase of the cost table (``Action("exile", object=SelfRef())``)."""


@dataclass(frozen=True, slots=True)
class Clause:
    """A subject (or none: an instruction to the ability's controller) with one or more
    predicates joined by "and": ``target creature gets +2/+0 and gains menace until end of turn``.
    ``duration`` applies to every predicate."""

    subject: NounPhrase | None
    predicates: tuple[Action | Clause, ...]
    """Each predicate has the clause's subject, except a clause joined with its own subject
    ("target player loses 2 life and you gain 2 life")."""
    joins: tuple[str, ...] = ()
    """The words between predicates: ``" and "``, ``", and "``, ``", "``."""
    duration: str | Action | None = None
    for_each: NounPhrase | None = None
    """"… until end of turn for each creature blocking it": the predicates count once per object."""
    duration_after: int | None = field(default=None, metadata=OMIT_DEFAULT)
    """Where the duration is written when not at the end: after that many predicates. It still
    covers every predicate: "You may cast that card for as long as it remains exiled, and you may
    spend mana as though it were mana of any color to cast that spell" is one permission with one
    duration (``duration_after`` 1)."""
    duration_in_phrase: bool = field(default=False, metadata=OMIT_DEFAULT)
    """The duration is written inside the predicate's phrase ("Prevent all damage that would be
    dealt this turn by a source of your choice", "~ can't be blocked this turn except by …"): it
    covers the clause as a duration at the end does, and the phrase prints it."""


@dataclass(frozen=True, slots=True)
class Sequence:
    """Steps of one sentence, one after the other: joined by ``, then`` (``scry 2, then draw two
    cards``), or the clauses before a delayed "at …" and the one it delays (``you gain 2 life, and
    you return ~ … at the beginning of the next end step``)."""

    steps: tuple[Step, ...]
    joins: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Conditional:
    """A step that happens only under a condition: ``If you do, draw a card``, ``Sacrifice ~
    unless you pay {1}``, ``You may draw a card`` (``word`` "may", ``condition`` the player)."""

    word: str
    condition: object
    body: Step
    after: bool = False
    """The condition is written after the body (``… unless you pay {1}``)."""
    trigger: str | None = field(default=None, metadata=OMIT_DEFAULT)
    """For a triggered ability the effect creates (``word`` "when", "whenever", "at"): ``reflexive``
    (603.12), triggered by the effect's own action ("When you do, …", "When you discard a card this
    way, …"), or ``delayed`` (603.7), triggered by a later event ("When that creature dies this turn,
    …", "When you lose control of the artifact, …", "… at the beginning of the next end step")."""

    @property
    def payer(self) -> object:
        """For ``… unless [a player] pays/sacrifices/…``, the player who may (rule 118.12): "its
        controller" in "Counter target spell unless its controller pays {3}", "you" in "sacrifice ~
        unless you sacrifice a Mountain" (the condition a clause: that player and what they do)."""
        if self.word != "unless":
            return None
        if isinstance(self.condition, Clause):
            return self.condition.subject
        return self.condition.arg("who") if isinstance(self.condition, Action) else None

    @property
    def cost(self) -> object:
        """For ``… unless [a player] pays/sacrifices/…``, what that player may pay (rule 118.12):
        the mana of "pays {3}", the action of "sacrifices a creature", "discards two cards", "pays 2
        life", "returns a land they control to its owner's hand", "has ~ deal 5 damage to them"; None
        for another condition."""
        if self.word != "unless":
            return None
        if isinstance(self.condition, Clause) and len(self.condition.predicates) == 1:
            return self.condition.predicates[0]
        if isinstance(self.condition, Action) and self.condition.verb == "pays":
            return self.condition.arg("mana")
        if isinstance(self.condition, Action) and self.condition.verb == "has_do":
            return self.condition  # "unless that player has ~ deal 5 damage to them": letting it happen
        return None


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


Step = Clause | Sequence | Conditional | Action | RollDie | Unimplemented


def walk(step: object) -> list[object]:
    """Every node below ``step`` (itself included), depth first."""
    found: list[object] = []
    stack = [step]
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif isinstance(node, Clause):
            stack.extend((node.subject, *node.predicates, node.for_each))
        elif isinstance(node, SelfRef | Noun):
            stack.extend(node.qualifiers)
        elif isinstance(node, Nouns):
            stack.extend((*node.items, *node.qualifiers))
        elif isinstance(node, Sequence):
            stack.extend(node.steps)
        elif isinstance(node, Conditional):
            stack.extend((node.condition, node.body))
        elif isinstance(node, RollDie):
            stack.extend(row for row in node.table)
        elif isinstance(node, TableRow):
            stack.extend(node.effects)
        elif isinstance(node, Action):
            stack.extend(value for _, value in node.args)
    return found


# -- abilities ----------------------------------------------------------------------------------
ENTERING = frozenset(
    {
        "enters_tapped",
        "enters_with_counters",
        "enters_tapped_with_counters",
        "enters_with_counters_equal",
        "enter_as_copy",
    }
)
"""The phrases that say how a permanent enters the battlefield ("~ enters the battlefield tapped",
"… with two +1/+1 counters on it", "… as a copy of …"): replacement effects (614.1c–d), not
continuous effects of a static ability."""


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
    CASTING = "casting"
    """A line that applies while the card is cast, not when it resolves (rule 601.2b–f): an
    additional or alternative cost, a cost change, "can't be countered", when it may be cast."""
    UNKNOWN = "unknown"


class Casting(StrEnum):
    """What a :attr:`Kind.CASTING` line says about casting the card."""

    ADDITIONAL_COST = "additional cost"
    ALTERNATIVE_COST = "alternative cost"
    COST_CHANGE = "cost change"
    UNCOUNTERABLE = "can't be countered"
    TIMING = "timing"
    MANA_SPENT = "mana spent"
    """Which mana may pay for the spell (601.2h): "Spend only mana produced by basic lands to cast
    this spell"."""


class Limit(StrEnum):
    """A limit on activating an ability that the rules give its keyword, not its text (the text
    says it only in reminder text): Boast (702.142a), Forecast (702.57a)."""

    ATTACKED_THIS_TURN = "only if it attacked this turn"
    ONCE_EACH_TURN = "only once each turn"
    YOUR_UPKEEP = "only during your upkeep"


@dataclass(frozen=True, slots=True)
class Keyword:
    """A keyword ability from the keyword table, with its parameter in canonical text form:
    ``Keyword("Madness", "{1}{R}")``, ``Keyword("Dredge", "6")``, ``Keyword("Ward", "Pay 3 life.",
    long_cost=True)`` for ``Ward—Pay 3 life.``."""

    name: str
    parameter: str | None = None
    long_cost: bool = False
    cost: tuple[CostItem, ...] = field(default=(), metadata=OMIT_DEFAULT)
    """A ``long_cost`` parameter read as cost items, as an activated ability's cost is
    ("Escape—{2}{U}, Exile five other cards from your graveyard.": the mana, then the exile);
    empty when the cost grammar does not read it (the parameter keeps the text)."""
    where_x: object = field(default=None, metadata=OMIT_DEFAULT)
    """What the X of the parameter is, said after it: ``Ward {X}, where X is the number of
    experience counters you have.`` (the value phrase, as after "where X is" in a sentence)."""


@dataclass(frozen=True, slots=True)
class Mode:
    effects: tuple[Step, ...]
    targets: tuple[TargetSlot, ...] = ()


@dataclass(frozen=True, slots=True)
class Ability:
    kind: Kind
    span: Span
    cost: tuple[CostItem, ...] = ()
    trigger: Step | None = None
    """For triggered abilities, the trigger condition: a phrase of the condition table."""
    trigger_word: str | None = None
    """``When``, ``Whenever`` or ``At``."""
    intervening_if: object = field(default=None, metadata=OMIT_DEFAULT)
    """An intervening "if" clause (603.4), part of the trigger: "When an opponent casts a creature
    spell, if ~ is an enchantment, …" triggers only if the condition holds when the event happens,
    and does nothing unless it still holds as the ability resolves. The sentence's effect is the
    first of ``effects``; the renderer prints the condition back in front of it."""
    targets: tuple[TargetSlot, ...] = ()
    effects: tuple[Step, ...] = ()
    """One step per sentence."""
    restrictions: tuple[Action, ...] = ()
    """Sentences that limit when the ability may be used (``Activate only as a sorcery.``)."""
    keywords: tuple[Keyword, ...] = ()
    keyword_separator: str = field(default=", ", metadata=OMIT_DEFAULT)
    """What separates the keywords of a keyword line: ", ", or "; " on a few old cards ("Flying;
    banding")."""
    keyword_period: bool = field(default=False, metadata=OMIT_DEFAULT)
    """The keyword line ends with a period, as a sentence: quoted (``gains "Cumulative upkeep
    {2}."``), or before sentences about its keyword's ability, kept in ``effects`` and
    ``restrictions`` (``Equip {0}. Activate only once each turn.``, ``Suspend X—{X}{3}{U}. X can't
    be 0.``)."""
    keyword_lowercase: bool = field(default=False, metadata=OMIT_DEFAULT)
    """The keyword line starts in lowercase, as a quoted one in running text may (``have "bands
    with other legendary creatures."``)."""
    ability_word: str | None = None
    loyalty: str | None = None
    level: str | None = None
    """A class level (``{1}{R}: Level 2`` → "2") or a level-up bracket (``LEVEL 1-4`` → "1-4"); on
    the abilities after such a line, the level they belong to (716.2a, 711.2)."""
    pt: str | None = None
    """The power and toughness line of a level-up bracket: "2/3"."""
    modes: tuple[Mode, ...] = ()
    choose: str | None = None
    """The modal header: "Choose one", "Choose one or both"…"""
    chapters: tuple[int, ...] = ()
    """A Saga's chapter ability (714.2): the chapter numbers of ``I, II — …``."""
    limits: tuple[Limit, ...] = ()
    zone: str | None = None
    """Where an activated ability can be activated when it is not the battlefield (113.6m: a cost
    that discards or exiles the card from a zone): "hand" for Channel, Forecast; "graveyard"."""
    casting: Casting | None = None
    """What a :attr:`Kind.CASTING` line is; its costs are in ``cost``."""
    linked: tuple[int, ...] = ()
    """The face's other abilities (their positions, from 0) this one is linked to (rule 607): "the
    exiled card", "cards exiled with ~" name what a partner exiled; "the chosen color/type…" what a
    partner chose ("As ~ enters the battlefield, choose a creature type")."""
    unparsed: tuple[Unimplemented, ...] = field(default=())
    """Parts of the ability's frame the grammar did not understand (e.g. an unknown trigger)."""

    def unimplemented(self) -> tuple[Unimplemented, ...]:
        """Every Unimplemented node in this ability, and in the abilities it quotes ("Enchanted
        creature has \"{T}: …\""): a face is parsed only if every sentence is, inside quotes too."""
        roots: list[object] = [*self.unparsed, *self.cost, *self.effects, *(m.effects for m in self.modes)]
        found: list[Unimplemented] = []
        for root in roots:
            for node in walk(root):
                if isinstance(node, Unimplemented):
                    found.append(node)
                elif isinstance(node, Ability):
                    found.extend(node.unimplemented())
        return tuple(found)


@dataclass(frozen=True, slots=True)
class ParsedFace:
    """A face's oracle text, normalized and parsed."""

    source: str
    normalized: str
    abilities: tuple[Ability, ...]
    reminders: tuple[str, ...] = ()
    rendered: str = ""
    as_written: str = ""
    """The normalized text in the wording it was written in ("When this creature enters, …"):
    ``normalized`` reads each era's wording as the 2022 templates ("When ~ enters the battlefield")."""
    rendered_as_written: str = ""
    """``rendered`` put back in that wording."""

    @property
    def unimplemented(self) -> tuple[Unimplemented, ...]:
        return tuple(node for ability in self.abilities for node in ability.unimplemented())

    @property
    def complete(self) -> bool:
        """Parsed: no Unimplemented node, and the abilities print back as the normalized text."""
        return not self.unimplemented and self.rendered == self.normalized
