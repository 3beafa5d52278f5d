"""Game state: players in turn order, zones, game objects, the stack and the turn's step.

Every card in a game is one :class:`GameObject` with an id; each zone is an ordered list of ids
(a library's first id is its top card). An object's ``zone`` always names the list that holds it:
:meth:`Game.move` is the only place that moves objects, so no card is ever lost or duplicated
(:meth:`Game.check` proves it).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from enum import StrEnum

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog
from carddb.engine.core.errors import EngineError, IllegalActionError
from carddb.engine.core.layers import Characteristics, LayerEffect, characteristics
from carddb.oracle.model import Ability, Action

PLAYER_ZONES = ("library", "hand", "graveyard", "exile", "command")
SHARED_ZONES = ("battlefield", "stack")
ZONES = PLAYER_ZONES + SHARED_ZONES
CEASED = "ceased"
"""The "zone" of a token that ceased to exist (704.5d) while an ability of it is still on the stack."""


class Step(StrEnum):
    UNTAP = "untap"
    UPKEEP = "upkeep"
    DRAW = "draw"
    MAIN1 = "main1"
    COMBAT = "combat"
    """The beginning of combat step; the combat phase's other steps follow (rule 506.1)."""
    DECLARE_ATTACKERS = "declare_attackers"
    DECLARE_BLOCKERS = "declare_blockers"
    FIRST_STRIKE_DAMAGE = "first_strike_damage"
    COMBAT_DAMAGE = "combat_damage"
    END_OF_COMBAT = "end_of_combat"
    MAIN2 = "main2"
    END = "end"
    CLEANUP = "cleanup"

    @property
    def is_main(self) -> bool:
        return self in (Step.MAIN1, Step.MAIN2)


STEPS = tuple(Step)
COMBAT_STEPS = (
    Step.COMBAT,
    Step.DECLARE_ATTACKERS,
    Step.DECLARE_BLOCKERS,
    Step.FIRST_STRIKE_DAMAGE,
    Step.COMBAT_DAMAGE,
    Step.END_OF_COMBAT,
)
"""The steps of the combat phase (506.1)."""


@dataclass(frozen=True)
class ControlEffect:
    """ "Gain control of target creature [until end of turn]": a layer-2 effect with its timestamp
    (613.7); ``until_end_of_turn`` ones end at cleanup (514.2)."""

    timestamp: int
    player: str
    until_end_of_turn: bool = False


@dataclass
class GameObject:
    id: int
    card: CardDef
    owner: str
    base_controller: str
    """Who controls it before control-changing effects (layer 2): who put it onto the battlefield
    or cast it (:attr:`controller` is computed)."""
    zone: str
    tapped: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    token: bool = False
    face_down: bool = False
    cast_face_down: bool = False
    """Cast face down with morph (702.37c): it is turned face up for its morph cost only."""
    face_down_card: CardDef | None = None
    """A face-down permanent's own card (708.2): ``card`` is then its face-down characteristics (a
    2/2 creature with no name, subtypes or mana cost; with ward {2} if cloaked) until it is turned
    face up (:mod:`carddb.engine.rules.face_down`)."""
    whole_card: CardDef | None = None
    """A card of several faces while it shows one of them (:mod:`carddb.engine.rules.card_faces`):
    ``card`` is then the face — a split card's half or an Adventure cast (709.3, 715.3), a modal
    double-faced card's back face cast or played (712.11b, 712.12) — and this the card, which it is again as
    it leaves the stack for another zone than the battlefield, or leaves the battlefield."""
    on_adventure: bool = False
    """Exiled as its Adventure resolved (715.3d): its owner may cast it as its creature from exile."""
    damage: int = 0
    effects: list[LayerEffect] = field(default_factory=list)
    """Continuous effects of resolved spells and abilities on it (613): "gets +2/+2 until end of
    turn", "becomes a 0/1", "loses all abilities"; those until end of turn end at cleanup."""
    static_effects: list[LayerEffect] = field(default_factory=list)
    """Continuous effects of static abilities on it, recomputed after every step and action
    (:mod:`carddb.engine.rules.layers`)."""
    timestamp: int = 0
    """When it came onto the battlefield (613.7d): the timestamp of its static abilities' effects."""
    keywords_until_end_of_turn: list[str] = field(default_factory=list)
    """Regeneration shields (they last until cleanup and leave with the permanent)."""
    restrictions_until_end_of_turn: list[str] = field(default_factory=list)
    """"Can't block", "can't attack", "can't be blocked" this turn: the phrase verbs."""
    skip_untaps: int = 0
    """Untap steps this permanent does not untap in ("doesn't untap during its controller's next
    untap step")."""
    loyalty_turn: int = 0
    """The turn a loyalty ability of this permanent was last activated (once each turn, 606.3)."""
    control_effects: list[ControlEffect] = field(default_factory=list)
    """Control-changing effects on it (layer 2, 613.1b), in timestamp order."""
    attached_to: int | None = None
    """The permanent an Aura enchants or an Equipment equips (:mod:`carddb.engine.rules.attachments`)."""
    since_turn: int = 0
    """The turn since which its controller has controlled it continuously (summoning sickness)."""
    kicked: bool = False
    """Cast with its kicker cost paid (702.33d: the permanent it becomes was kicked too)."""
    cast_x: int | None = None
    """The value of X chosen as it was cast, kept as the spell becomes a permanent (107.3m: its
    enters-the-battlefield replacement effect's X, "enters with X +1/+1 counters")."""
    exiled_by: tuple[int, int] | None = None
    """In exile: the object whose ability exiled it and that object's timestamp then (607.2a:
    "the exiled card", "cards exiled with ~" of that object's other abilities); reset as it leaves."""
    foretold: int = 0
    """The turn it was foretold (702.143a: exiled face down from a hand), as long as it stays in
    exile; 0: not a foretold card."""
    cast_from_hand: bool = False
    """A spell cast from its owner's hand (rebound, 702.88a)."""
    rebound: tuple[str, int] | None = None
    """Exiled by its rebound: who cast it and the turn (702.88a); reset as it leaves exile."""
    dashed: int = 0
    """The turn it was cast for its dash cost (702.109a), as a spell and as the permanent it
    became; 0: not dashed."""
    evoked: bool = False
    """Cast for its evoke cost, and the permanent it became (702.74a): sacrificed as it enters."""
    bought_back: bool = False
    """Cast with its buyback cost paid: put into its owner's hand as it resolves (702.27a)."""
    flashback: bool = False
    """Cast with its flashback cost: exiled instead of leaving the stack any other way (702.34a)."""
    deathtouched: bool = False
    """Dealt damage by a source with deathtouch since state-based actions were last checked."""
    exiled_until: tuple[int, str] | None = None
    """Exiled "until ~ leaves the battlefield" (610.3): that object's id and the zone this one
    returns to when it does."""
    chosen: tuple[tuple[str, str], ...] = ()
    """What it chose as it entered the battlefield ("As ~ enters, choose a creature type": 607.2d),
    as (what, answer) pairs; a new object remembers nothing (400.7)."""
    suspend_haste: LayerEffect | None = None
    """The haste a creature spell cast with suspend gained (702.62a), until its controller changes."""
    last_known: tuple[int, int | None, int | None] | None = None
    """Its power and toughness as it last existed on the battlefield, with the timestamp of its
    leaving (608.2h: an ability that speaks of it after it left reads them)."""
    entered_turn: int = 0
    attacked_turn: int = 0
    damaged_turn: int = 0
    """The turns it last entered the battlefield, attacked and was dealt damage ("creature that
    attacked this turn", "that entered the battlefield this turn", "dealt damage this turn")."""
    _now: tuple[tuple[object, ...], Characteristics] | None = field(default=None, compare=False, repr=False)

    @property
    def now(self) -> Characteristics:
        """Its characteristics now: the card's with every continuous effect on it applied, layer by
        layer (:func:`carddb.engine.core.layers.characteristics`)."""
        key = (
            id(self.card),  # a face shown, a face turned (transformed): other characteristics
            tuple(self.static_effects),
            tuple(self.effects),
            tuple(self.counters.items()),
            self.face_down,
            self.timestamp,
        )
        if self._now is None or self._now[0] != key:
            effects = [*self.static_effects, *self.effects]
            found = characteristics(
                self.card, effects, self.counters, face_down=self.face_down, timestamp=self.timestamp
            )
            self._now = (key, found)
        return self._now[1]

    @property
    def controller(self) -> str:
        """Its controller now: the player of the latest control-changing effect (613.7,
        timestamp order), else its base controller."""
        return self.control_effects[-1].player if self.control_effects else self.base_controller

    @controller.setter
    def controller(self, player: str) -> None:
        """It is put onto the battlefield, or cast, under ``player``'s control (its base)."""
        self.base_controller = player

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def power(self) -> int | None:
        return self.now.power

    @property
    def toughness(self) -> int | None:
        return self.now.toughness

    @property
    def types(self) -> tuple[str, ...]:
        return self.now.types

    @property
    def subtypes(self) -> tuple[str, ...]:
        return self.now.subtypes

    @property
    def supertypes(self) -> tuple[str, ...]:
        return self.now.supertypes

    def is_a(self, card_type: str) -> bool:
        now = self.now
        return card_type in now.types or card_type in now.subtypes

    def end_of_turn(self) -> None:
        """Cleanup (514.2): its "until end of turn" and "this turn" effects end."""
        self.effects = [effect for effect in self.effects if not effect.until_end_of_turn]
        self.keywords_until_end_of_turn.clear()
        self.restrictions_until_end_of_turn.clear()
        if self.control_effects:
            self.control_effects = [e for e in self.control_effects if not e.until_end_of_turn]


def _starting_loyalty(obj: GameObject) -> None:
    """A planeswalker enters the battlefield with its printed loyalty in loyalty counters (306.5b)."""
    loyalty = obj.card.loyalty
    if obj.is_a("Planeswalker") and loyalty is not None and loyalty.isdigit():
        obj.counters["loyalty"] = int(loyalty)


@dataclass
class Player:
    name: str
    life: int = 20
    zones: dict[str, list[int]] = field(default_factory=lambda: {zone: [] for zone in PLAYER_ZONES})
    mana_pool: list[str] = field(default_factory=list)
    """Mana symbols without braces: "C", "G"."""
    lands_played: int = 0
    lost: bool = False
    """Lost the game (0 or less life, rule 704.5a; drew from an empty library, 704.5b)."""
    poison: int = 0
    """Poison counters (122.1f; ten or more: the player loses, 704.5c)."""
    spells_cast_this_turn: int = 0
    """Spells this player cast this turn ("can't cast more than one spell each turn")."""
    draws_this_turn: int = 0
    """Cards drawn this turn ("whenever you draw your second card each turn")."""
    life_gained_this_turn: int = 0
    life_lost_this_turn: int = 0
    """Life gained and lost this turn ("if you gained life this turn", "if an opponent lost life
    this turn")."""
    attacked_this_turn: bool = False
    """Attacked with a creature this turn ("Raid — … if you attacked this turn")."""
    dealt_damage_this_turn: bool = False
    """Was dealt damage this turn (bloodthirst: "if an opponent was dealt damage this turn")."""
    energy: int = 0
    """Energy counters ({E}, 122.1e: "you get {E}{E}", "Pay {E}")."""
    counters: dict[str, int] = field(default_factory=dict)
    """The player's other counters, by kind (122.1: "you get an experience counter", 122.1d)."""
    drew_from_empty: bool = False
    """Attempted to draw from an empty library since state-based actions were last checked."""
    planar_rolls: int = 0
    """Times this player rolled the planar die this turn (901.9: each roll costs {1} more)."""


@dataclass(frozen=True)
class Departure:
    """A permanent that left the battlefield this turn ("if a creature died this turn", "if a
    permanent you controlled left the battlefield this turn"): who controlled it, whether it was a
    creature and whether it went to a graveyard (died, 700.4)."""

    object_id: int
    controller: str
    creature: bool
    died: bool


@dataclass
class Event:
    """Something that happened, for triggered abilities (:mod:`carddb.engine.rules.triggers`): an object
    moved ("move"), a spell was cast ("cast"), a step began ("step"), damage was dealt ("damage"),
    an object or player became the target of a spell or ability ("target")."""

    kind: str
    obj: GameObject | None = None
    from_zone: str = ""
    to_zone: str = ""
    player: str = ""
    """The object's controller before the event (a move, a cast), or the active player (a step)."""
    other: GameObject | str | None = None
    """What was dealt damage."""
    amount: int = 0
    combat: bool = False
    """Combat damage (:mod:`carddb.engine.rules.combat`)."""
    sides: int = 0
    """A roll's die: its faces."""
    naturals: tuple[int, ...] = ()
    """A roll's natural results, of the dice that count (706.2)."""
    by: StackItem | None = None
    """What made ``obj`` (or the player ``other``) a target ("target"): the spell or ability."""
    before: int = 0
    """Counters put on ``obj`` ("lore"): how many it had before (``amount``: how many now)."""


@dataclass
class Shield:
    """A prevention effect until end of turn (615): damage dealt to ``to`` (an object id or a
    player, None: anything) by ``by`` (an object id, None: any source), combat damage only or all;
    ``amount`` None prevents all of it, a number the next that much; ``once``: the next time only."""

    to: int | str | None = None
    by: int | None = None
    combat_only: bool = False
    amount: int | None = None
    once: bool = False
    """ "The next time … would deal damage …, prevent that damage" (615.7): it prevents the damage
    of one event and is gone."""
    by_timestamp: int | None = None
    """The timestamp the source ``by`` had when it was chosen (400.7: the same object; a
    permanent that left and came back is a new object the shield does not prevent damage from)."""


@dataclass(frozen=True)
class Lasting:
    """A replacement effect a resolving spell or ability created (614.1: "If that creature would
    die this turn, exile it instead."), until the cleanup step (514.2). It applies to the objects
    it names, each as the object it was then (400.7: its id and the timestamp it had), or, with
    none named, to whatever its noun phrase ``what`` describes when the event would happen
    ("If a creature would die this turn, …")."""

    timestamp: int
    """When it was created: its identity (each applies to one event once, 616.1f)."""
    event: str
    """What it replaces: "dies" (put into a graveyard from the battlefield, 700.4)."""
    controller: str
    source: int
    objects: tuple[tuple[int, int], ...] | None = None
    """(id, timestamp) of each object it applies to; None: what ``what`` describes."""
    what: object = None


@dataclass
class Delayed:
    """A delayed triggered ability ("Exile it at the beginning of the next end step."): created by
    a resolving ability, it triggers once, the next time ``condition`` happens."""

    condition: object
    """The condition phrase (an Action of the condition table)."""
    body: object
    """The step to run."""
    controller: str
    source: GameObject
    it: list[GameObject | str]
    """What "it" named when the delayed ability was created."""
    granter: GameObject | None = None
    """The object ``~`` named in the ability that created it (one another object's text gave its
    source: :attr:`Context.granter`)."""


@dataclass(frozen=True)
class Ward:
    """A ward triggered ability (702.21) waiting to counter the spell or ability it names: that
    item's source, ability index (None: a spell) and controller, and the cost ("{2}", "3 life",
    "Discard a card.")."""

    source: int
    ability: int | None
    controller: str
    cost: str
    phrase: Action | None = None
    """A cost written as a phrase ("Ward—Discard a card."), paid by that controller (118.3)."""
    x: object = None
    """What X of the cost is ("Ward {X}, where X is …"), read as the ward ability resolves."""


@dataclass
class StackItem:
    """A spell (``ability`` None) or an activated or triggered ability on the stack."""

    source: int
    controller: str
    ability: int | None
    targets: list[list[GameObject | str]]
    """One list per target slot: objects or player names."""
    x: int | None = None
    modes: list[int] = field(default_factory=list)
    event: Event | None = None
    """What triggered a triggered ability ("it" in its text names the event's object)."""
    delayed: Delayed | None = None
    """A delayed triggered ability (its steps are not one of the source's abilities)."""
    ward: Ward | None = None
    """A ward trigger (:mod:`carddb.engine.rules.ward`): its source is the warded permanent."""
    discarded: tuple[int, ...] = ()
    """The cards discarded to pay its cost ("the discarded card", 400.7k)."""
    divided: dict[int | str, int] = field(default_factory=dict)
    """601.2d: how the amount "divided as you choose among … targets" was divided, by target (an
    object's id, a player's name)."""
    since: int | None = None
    """The timestamp an activated ability was activated at, before its costs were paid: what left
    the battlefield since (its source, sacrificed for it) is read as it last existed (608.2h)."""
    own: Ability | None = None
    """The ability itself, which the object may no longer have once it is on the stack (113.7a: one
    an effect gave it, "Sacrifice this permanent: Add {B}{B}." of Basal Sliver's Slivers, or a
    granted "When this creature dies, …"); None: the source's ability at ``ability``."""
    rule: str = ""
    """A triggered ability a keyword's rule defines, resolved by the catalog's ``rule_abilities``
    entry of that name ("madness": 702.35a's "When this card is exiled this way, …")."""
    granter: int | None = None
    """A quoted ability another object's text gave the source (an Equipment's): that object, which
    ``~`` in the ability names (:attr:`Context.granter`)."""

    @property
    def is_spell(self) -> bool:
        return self.ability is None and self.delayed is None and self.ward is None and not self.rule


@dataclass
class Combat:
    """This turn's combat (:mod:`carddb.engine.rules.combat`): who attacks whom and who blocks what."""

    attackers: dict[int, str] = field(default_factory=dict)
    """Attacking creature → the player it attacks."""
    blockers: dict[int, list[int]] = field(default_factory=dict)
    """Blocking creature → the attackers it blocks."""
    order: dict[int, list[int]] = field(default_factory=dict)
    """Attacker → its blockers in damage assignment order."""
    blocked: set[int] = field(default_factory=set)
    """Attackers that became blocked (they stay blocked when their blockers leave, rule 506.4)."""
    dealt_first: set[int] = field(default_factory=set)
    """Creatures that dealt first-strike combat damage."""
    declared: bool = False

    def copy(self) -> Combat:
        return Combat(
            dict(self.attackers),
            {k: list(v) for k, v in self.blockers.items()},
            {k: list(v) for k, v in self.order.items()},
            set(self.blocked),
            set(self.dealt_first),
            self.declared,
        )

    def remove(self, object_id: int) -> None:
        """An object leaves combat (rule 506.4)."""
        self.attackers.pop(object_id, None)
        self.blockers.pop(object_id, None)
        for blockers in self.order.values():
            if object_id in blockers:
                blockers.remove(object_id)
        self.order.pop(object_id, None)
        for attackers in self.blockers.values():
            if object_id in attackers:
                attackers.remove(object_id)


@dataclass
class Game:
    players: dict[str, Player]
    active: str
    step: Step = Step.MAIN1
    turn: int = 1
    objects: dict[int, GameObject] = field(default_factory=dict)
    battlefield: list[int] = field(default_factory=list)
    stack: list[StackItem] = field(default_factory=list)
    """Bottom first: the top of the stack is the last item."""
    log: list[str] = field(default_factory=list)
    pending: list[StackItem] = field(default_factory=list)
    """Triggered abilities waiting to be put on the stack."""
    next_id: int = 1
    next_timestamp: int = 1
    """The timestamp the next continuous effect gets (613.7)."""
    events: list[Event] = field(default_factory=list)
    """Events not yet looked at for triggered abilities."""
    delayed: list[Delayed] = field(default_factory=list)
    """Delayed triggered abilities waiting for their moment."""
    announced: dict[int, list[list[GameObject | str]]] = field(default_factory=dict)
    """The targets of a spell being cast, by its object's id, while its total cost is determined
    (601.2c before 601.2f: "Spells your opponents cast that target ~ cost {2} more to cast")."""
    shields: list[Shield] = field(default_factory=list)
    """Prevention effects that last until end of turn."""
    lasting: list[Lasting] = field(default_factory=list)
    """Replacement effects of resolved spells and abilities that last until end of turn."""
    combat: Combat | None = None
    """The combat of the current combat phase (None outside one)."""
    left_this_turn: list[Departure] = field(default_factory=list)
    """Permanents that left the battlefield this turn, in order."""
    once_each_turn: dict[tuple[int, int], int] = field(default_factory=dict)
    """(object id, ability index) → the turn an ability with "Activate only once each turn" was
    last activated (602.5b: whoever controlled it)."""
    catalog: Catalog = field(kw_only=True)
    """What the engine knows how to do (:mod:`carddb.engine.catalog` builds the full one)."""
    first_printed: Mapping[str, frozenset[str]] = field(default_factory=dict, kw_only=True)
    """Expansion name → the card names first printed in it ("with a name originally printed in the
    Antiquities expansion"), given by whoever sets the game up (a scenario's ``[game]
    first_printed``, the card database); the engine opens no database. A set not in it is refused."""

    # -- objects and zones
    def create(self, card: CardDef, owner: str, zone: str, *, token: bool = False) -> GameObject:
        if owner not in self.players:
            raise EngineError(f"no player named {owner!r}")
        obj = GameObject(self.next_id, card, owner, owner, zone, token=token)
        if token:  # made during the game: it has just come under its controller's control
            obj.since_turn = self.turn
            self.events.append(Event("move", obj, "", zone, owner))  # it enters (111.1, 603.6a)
        self.next_id += 1
        self.objects[obj.id] = obj
        self.zone_list(zone, owner).append(obj.id)
        if zone == "battlefield":
            obj.timestamp = self.timestamp()
            obj.entered_turn = self.turn if token else 0
            _starting_loyalty(obj)
        return obj

    def timestamp(self) -> int:
        """A new timestamp, later than every one before it (613.7)."""
        self.next_timestamp += 1
        return self.next_timestamp - 1

    def tap(self, obj: GameObject, tapped: bool = True) -> None:
        """Tap (or untap) a permanent: when it changes, it "becomes tapped/untapped" (an event;
        a permanent entering tapped does not become tapped)."""
        if obj.tapped != tapped:
            obj.tapped = tapped
            self.events.append(Event("tapped" if tapped else "untapped", obj, player=obj.controller))

    def zone_list(self, zone: str, player: str) -> list[int]:
        if zone == "battlefield":
            return self.battlefield
        if zone == "stack":
            return [item.source for item in self.stack if item.is_spell]
        if zone not in PLAYER_ZONES:
            raise EngineError(f"no zone named {zone!r}")
        return self.players[player].zones[zone]

    def move(self, obj: GameObject, zone: str, position: int | None = None) -> None:
        """Move ``obj`` to ``zone`` (its owner's, for player zones); ``position`` counts from the top
        of a library (0 = top; None = the end of the list: a library's bottom)."""
        self.events.append(Event("move", obj, obj.zone, zone, obj.controller))
        if obj.zone != "stack":
            self.zone_list(obj.zone, obj.owner).remove(obj.id)
        shown = obj.zone == "battlefield" or (obj.zone == "stack" and zone != "battlefield")
        if obj.whole_card is not None and shown and zone != obj.zone:  # the card again (400.7)
            obj.card, obj.whole_card = obj.whole_card, None
        if obj.zone == "battlefield" and zone != "battlefield":
            obj.last_known = (self.timestamp(), obj.power, obj.toughness)  # before its effects end
            departure = Departure(obj.id, obj.controller, obj.is_a("Creature"), zone == "graveyard")
            self.left_this_turn.append(departure)
            obj.tapped = False
            obj.counters.clear()
            obj.damage = 0
            obj.effects = []  # a new object (400.7): no effect on the old one applies to it
            obj.static_effects = []
            obj.keywords_until_end_of_turn.clear()
            obj.restrictions_until_end_of_turn.clear()
            if self.once_each_turn:  # a new object (400.7): its abilities were never activated
                self.once_each_turn = {k: t for k, t in self.once_each_turn.items() if k[0] != obj.id}
            obj.controller = obj.owner
            obj.control_effects = []  # a new object: the effects on the old one do not apply (400.7)
            obj.attacked_turn = obj.damaged_turn = 0
            obj.attached_to = None
            obj.chosen = ()
            if self.combat is not None:
                self.combat.remove(obj.id)
        if zone == "battlefield" and obj.zone != "battlefield":
            for other in self.objects.values():  # attached to the object it was (400.7, 704.5m)
                if other.attached_to == obj.id:
                    other.attached_to = None
            obj.since_turn = obj.entered_turn = self.turn
            obj.timestamp = self.timestamp()
            _starting_loyalty(obj)
        if zone not in ("stack", "battlefield"):
            obj.kicked = obj.bought_back = obj.evoked = obj.cast_from_hand = False  # a new object (400.7)
            obj.cast_x = None
            obj.dashed = 0
            obj.effects = []
            obj.suspend_haste = None
        if obj.zone == "exile" and zone != "exile":
            obj.exiled_until = None
            obj.foretold = 0
            obj.exiled_by = obj.rebound = None
            obj.on_adventure = False
            obj.counters.clear()  # a new object (400.7): a suspended card's time counters stay behind
        obj.zone = zone
        if zone == "stack":
            return
        target = self.zone_list(zone, obj.owner)
        if position is None or position >= len(target):
            target.append(obj.id)
        else:
            target.insert(position, obj.id)

    def in_zone(self, zone: str, player: str) -> list[GameObject]:
        return [self.objects[i] for i in self.zone_list(zone, player)]

    def permanents(self, controller: str | None = None) -> list[GameObject]:
        return [
            self.objects[i]
            for i in self.battlefield
            if controller is None or self.objects[i].controller == controller
        ]

    def opponents(self, player: str) -> list[str]:
        """``player``'s opponents, in APNAP order (101.4: :attr:`turn_order`)."""
        return [name for name in self.turn_order if name != player]

    @property
    def winners(self) -> list[str]:
        return [p.name for p in self.players.values() if not p.lost]

    @property
    def over(self) -> bool:
        """At most one player is still in the game (a one-player scenario never ends this way)."""
        return len(self.players) > 1 and len(self.winners) <= 1

    @property
    def turn_order(self) -> list[str]:
        """The players from the active one on, in turn order: APNAP order (101.4)."""
        names = list(self.players)
        start = names.index(self.active)
        return names[start:] + names[:start]

    def state_key(self) -> str:
        """What the game looks like now, to tell whether an instruction changed anything: its
        objects and players (zones, counters, life, mana…), the stack and the events so far. An
        optional instruction that changed nothing was not done (609.3: "if you do" then fails)."""
        return repr((self.objects, self.players, self.stack, len(self.events)))

    def snapshot(self) -> Snapshot:
        """A copy to go back to (:meth:`restore`): objects, players, zones and the stack copied;
        card definitions (immutable) and the log (only appended to) shared."""
        objects = {i: _object_copy(o) for i, o in self.objects.items()}
        players = {
            name: replace(
                p,
                zones={z: list(ids) for z, ids in p.zones.items()},
                mana_pool=list(p.mana_pool),
                counters=dict(p.counters),
            )
            for name, p in self.players.items()
        }
        stack = [
            replace(item, targets=[list(t) for t in item.targets], modes=list(item.modes))
            for item in self.stack
        ]
        copy = replace(
            self,
            players=players,
            objects=objects,
            battlefield=list(self.battlefield),
            stack=stack,
            pending=list(self.pending),
            events=list(self.events),
            delayed=list(self.delayed),
            shields=[replace(shield) for shield in self.shields],
            lasting=list(self.lasting),
            combat=self.combat.copy() if self.combat is not None else None,
            once_each_turn=dict(self.once_each_turn),
            left_this_turn=list(self.left_this_turn),
        )
        copy.log = self.log
        return Snapshot(copy, len(self.log))

    def restore(self, snapshot: Snapshot) -> None:
        """Go back to ``snapshot`` (taken by :meth:`snapshot` of this game)."""
        log = self.log
        del log[snapshot.log_length :]
        self.__dict__.update(snapshot.state.__dict__)
        self.log = log
        # Objects are found by id everywhere but in what keeps an object itself: the targets and
        # triggering events of stack items and waiting triggers, the events, delayed triggers.
        # Those must name the restored objects, not the ones the undone action changed.
        for item in (*self.stack, *self.pending):
            item.targets = [[self._restored(r) for r in t] for t in item.targets]
            item.event = self._restored_event(item.event)
            item.delayed = self._restored_delayed(item.delayed)
        self.events = [e for e in map(self._restored_event, self.events) if e is not None]
        self.delayed = [d for d in map(self._restored_delayed, self.delayed) if d is not None]

    def _restored(self, ref: GameObject | str) -> GameObject | str:
        return self.objects.get(ref.id, ref) if isinstance(ref, GameObject) else ref

    def _restored_event(self, event: Event | None) -> Event | None:
        if event is None:
            return None
        obj = self.objects.get(event.obj.id, event.obj) if event.obj is not None else None
        other = self._restored(event.other) if event.other is not None else None
        return replace(event, obj=obj, other=other)

    def _restored_delayed(self, waiting: Delayed | None) -> Delayed | None:
        if waiting is None:
            return None
        granter = waiting.granter
        return replace(
            waiting,
            source=self.objects.get(waiting.source.id, waiting.source),
            it=[self._restored(r) for r in waiting.it],
            granter=self.objects.get(granter.id, granter) if granter is not None else None,
        )

    def fingerprint(self) -> tuple[object, ...]:
        """Everything a game action can change, cheap to compare: equal fingerprints, same game."""
        objects = tuple(
            (o.id, o.zone, o.controller, o.tapped, tuple(sorted(o.counters.items())), o.damage,
             tuple(o.effects), tuple(o.keywords_until_end_of_turn),
             tuple(o.restrictions_until_end_of_turn), len(o.static_effects),
             o.face_down, o.attached_to, o.skip_untaps,
             tuple(o.control_effects))
            for o in self.objects.values()
        )  # fmt: skip
        players = tuple(
            (
                p.name,
                p.life,
                tuple(p.mana_pool),
                p.lands_played,
                p.lost,
                p.poison,
                p.drew_from_empty,
                p.life_gained_this_turn,
                p.life_lost_this_turn,
                p.attacked_this_turn,
                p.energy,
                tuple(sorted(p.counters.items())),
                p.dealt_damage_this_turn,
                tuple(tuple(z) for z in p.zones.values()),
            )
            for p in self.players.values()
        )
        stack = tuple((i.source, i.controller, i.ability, i.x, repr(i.targets)) for i in self.stack)
        fight = repr(self.combat)
        once = (tuple(sorted(self.once_each_turn.items())), tuple(self.left_this_turn), tuple(self.lasting))
        return (
            self.active,
            self.step,
            self.turn,
            tuple(self.battlefield),
            objects,
            players,
            stack,
            fight,
            once,
        )

    def check(self) -> None:
        """Every object is in exactly the zone it says, once (raises :class:`EngineError` if not)."""
        seen: dict[int, str] = {}
        places = [("battlefield", self.battlefield)]
        places += [(f"{p.name}:{z}", ids) for p in self.players.values() for z, ids in p.zones.items()]
        places += [("stack", [item.source for item in self.stack if item.is_spell])]
        for place, ids in places:
            for object_id in ids:
                if object_id in seen:
                    raise EngineError(f"object {object_id} is in {seen[object_id]} and {place}")
                seen[object_id] = place
        for obj in self.objects.values():
            if obj.id not in seen and obj.zone != CEASED:
                raise EngineError(f"{obj.name} ({obj.id}) is in no zone")


@dataclass(frozen=True)
class Snapshot:
    """A game as it was (:meth:`Game.snapshot`), and how long its shared log was then."""

    state: Game
    log_length: int


def _object_copy(obj: GameObject) -> GameObject:
    """A copy of ``obj`` for a snapshot: its mutable containers copied, the rest shared (the
    fields :meth:`Game.snapshot` promises; a shallow copy, much cheaper than ``replace``)."""
    copied = copy.copy(obj)
    copied.counters = dict(obj.counters)
    copied.effects = list(obj.effects)
    copied.static_effects = list(obj.static_effects)
    copied.keywords_until_end_of_turn = list(obj.keywords_until_end_of_turn)
    copied.restrictions_until_end_of_turn = list(obj.restrictions_until_end_of_turn)
    copied.control_effects = list(obj.control_effects)
    return copied


@contextmanager
def atomic(game: Game) -> Iterator[None]:
    """On an error, put the game back exactly as it was. A game that is over takes no action."""
    if game.over:
        raise IllegalActionError(f"the game is over: {', '.join(game.winners) or 'nobody'} won")
    saved = game.snapshot()
    try:
        yield
    except EngineError:
        game.restore(saved)
        raise
