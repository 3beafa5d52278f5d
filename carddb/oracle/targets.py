"""Targets as a grammatical role (rule 115, 601.2c): every phrase of an ability that makes its
controller choose a target becomes a numbered :class:`~carddb.oracle.model.TargetSlot`, in the
order the text names them, and the node that names it refers to its slot.

What names a target:

* a noun phrase with the determiner "target" ("up to two target creatures you don't control",
  "another target creature"), its count read from the determiners before "target";
* "any target";
* a possessive of a targeted noun ("target player's graveyard", "target creature's power"): the
  phrase holding it (the zone, the stat) refers to the slot;
* a targeted noun's role ("target spell's controller"): the *spell* is the target, the noun
  naming its controller refers to the slot;
* the qualifiers "target player controls" / "target opponent controls" ("Destroy all lands target
  player controls": the player is the target);
* an amount "divided as you choose among one, two, or three targets" (601.2d);
* a keyword action whose meaning targets though its words do not say so ("Support 2": up to two
  other target creatures, 701.35a; :data:`KEYWORD_ACTION_TARGETS`).

Quoted abilities ("… has \\"{T}: Tap target creature.\\"") keep their own targets.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import cast

from carddb.oracle.keywords import lookup
from carddb.oracle.model import (
    NUMBER_WORDS,
    Ability,
    Action,
    Clause,
    Conditional,
    Keyword,
    Kind,
    Noun,
    Nouns,
    Number,
    Pronoun,
    RollDie,
    SelfRef,
    Step,
    TableRow,
    TargetKind,
    TargetSlot,
    Unimplemented,
    walk,
)
from carddb.oracle.model import Sequence as Steps
from carddb.oracle.phrases import find
from carddb.oracle.render import noun_phrase

_PLAYERS = frozenset({"player", "players", "opponent", "opponents"})
_COUNT_WORDS = frozenset({"up to", "X", "that many", "any number of", "target", "a", "an", "the", "each of"})
_EACH_OF_TARGETS = re.compile(r"^each of (up to )?(\w+) targets$")
"""The pronoun "each of two targets", "each of up to X targets" (the grammar's EACH_OF_TARGETS)."""
_MANNER = frozenset({"without_paying"})
"""Qualifiers of a targeted noun that say how it is used, not what may be targeted: "cast target
instant card from your graveyard without paying its mana cost" targets an instant card there."""
_ROLES = ("'s controller", "'s owner", "'s controllers", "'s owners", "s' controller", "s' owner")
DIVIDED = frozenset({"deal_damage_divided", "distribute_counters", "prevent_next_damage_divided"})
"""The phrases of 601.2d: an amount divided among targets as the ability is put on the stack."""


def keyword_targets(keywords: Sequence[Keyword]) -> tuple[TargetSlot, ...]:
    """The targets of the abilities a line's keywords stand for, one each, numbered from 1 in the
    line's order (:attr:`carddb.oracle.keywords.KeywordSpec.target`): "Equip {2}" targets a
    creature you control (702.6a), "Enchant creature" what its Aura spell targets (702.5a),
    "Soulshift 3" a Spirit card with mana value 3 or less from your graveyard (702.46a)."""
    slots: list[TargetSlot] = []
    for keyword in keywords:
        spec = lookup(keyword.name)
        if spec is None or spec.target is None:
            continue
        quality = keyword.name[len(spec.name) :].strip() or "creature"
        description = spec.target.format(quality=quality, parameter=keyword.parameter or "")
        count, _, rest = description.partition(" ")
        number = _number(count) if rest else None  # "Enchant two creatures"
        description = rest if number is not None else description
        many = 1 if number is None else number
        kind = _kind(Noun((), description))
        slots.append(TargetSlot(len(slots) + 1, description, many, many, kind))
    return tuple(slots)


KEYWORD_ACTION_TARGETS = {"support": ("other creatures", "creatures")}
"""Keyword actions (701) that choose targets though their words do not say "target", and what
they target on a permanent and on an instant or sorcery spell: "Support N" means "Put a +1/+1
counter on each of up to N other target creatures" on a permanent, "… up to N target creatures"
on an instant or sorcery (701.35a). Their number is the phrase's ``amount``: a slot of 0 to N."""


def number_targets(
    steps: Sequence[Step], first: int = 1, *, spell: bool = False, named: object = None
) -> tuple[tuple[Step, ...], tuple[TargetSlot, ...]]:
    """``steps`` with each target-naming node given its slot (numbered from ``first``, in text
    order), and the slots; ``spell`` when the steps are an instant's or sorcery's spell ability
    (what a keyword action targets can depend on it, :data:`KEYWORD_ACTION_TARGETS`); ``named``
    what the ability names before its steps (its trigger, its cost), whose nouns a later "that …"
    may name instead of the target (:class:`_TargetAnaphora`)."""
    finder = _Finder(first, spell)
    numbered = tuple(cast(Step, finder.visit(step)) for step in steps)
    if finder.slots and _linkable(finder.slots[0]):
        linker = _TargetAnaphora(finder.slots[0], _heads_in(named))
        numbered = tuple(cast(Step, linker.visit(step)) for step in numbered)
    return numbered, tuple(finder.slots)


_ROLE_PRONOUNS = frozenset({"its controller", "its owner"})
"""The pronouns naming an object's controller or owner by role ("Counter target spell unless its
controller pays {3}", "Destroy target creature. Its controller loses 2 life.")."""


_ROLE_OF = re.compile(r"^(\w+)'s (?:controller|owner)$")
""" "that creature's controller", "that spell's owner": the controller or owner of "that …"."""


def _linkable(slot: TargetSlot) -> bool:
    """Objects or players chosen as the ability is put on the stack: one ("target creature", "up to
    one target creature") or several of one description ("up to two target creatures")."""
    if slot.kind is TargetKind.ANY or slot.reflexive:
        return False
    return slot.max != 1 or not (slot.variable or slot.divided)


def _head(words: str) -> str:
    """ "nonland permanent" → "permanent", "creature cards" → "card", "opponent" → "player"."""
    last = words.rsplit(" ", 1)[-1]
    last = last[:-1] if last.endswith("s") and not last.endswith("ss") else last
    return "player" if last == "opponent" else last


_INDEFINITE = frozenset({"a", "an", "another", "one"})


def _introduces(noun: Noun) -> bool:
    """A noun that names one object not named before ("a card named …", "another creature")."""
    indefinite = bool(_INDEFINITE & set(noun.determiners))
    return indefinite and not noun.plural and _head(noun.description) != "player"


_LEAVES = frozenset({"exile", "exile_until", "return_from", "put_into_library", "put_into_zone", "destroy"})
"""Instructions after which a target permanent is a card ("Exile target creature. Return that card
to the battlefield …", 400.7)."""
_NEW_CARDS = frozenset({"top_cards", "bottom_cards"})
"""Phrases that name cards not named before ("the top card of your library")."""


def _heads_of(noun: Noun) -> frozenset[str]:
    return frozenset(_head(part) for part in noun.alternatives)


def _heads_in(node: object) -> frozenset[str]:
    """The kinds of thing the nouns in ``node`` name ("Whenever a creature attacks": creature)."""
    heads: set[str] = set()
    for item in walk(node):
        if isinstance(item, Noun):
            heads.update(_head(part) for part in item.alternatives)
        elif isinstance(item, str) and re.search(r"\b(?:player|opponent)", item):
            heads.add("player")  # "each opponent's upkeep"
    return frozenset(heads)


class _TargetAnaphora:
    """An ability whose first target is one object or one player (or several objects: "those
    creatures", "them", "they" then name them): after that target in the text (its instructions'
    order, the body of "… unless …" first) and before any other target,

    * "its controller" / "its owner" is that object's controller or owner, and so is "that
      creature's controller" (of a target creature);
    * "that creature" (a target creature), "that card" (a target creature card), "that player" (a
      target player or opponent) is the target itself, unless what the ability names before its
      steps (its trigger, its cost) has a noun of that kind too ("Whenever a creature attacks, tap
      target creature. That creature …" would be ambiguous);
    * "it", when the target is the object named last (not after "a card named …", a token the
      ability creates or ~) and the trigger and cost name no object ("Untap target creature. It
      gets +2/+4 until end of turn.");

    the target noun is then the antecedent. Not in the body of "for each …" (there, "its" and
    "that …" are each of those), nor in the target's own description."""

    def __init__(self, slot: TargetSlot, named: frozenset[str]) -> None:
        self.slot = slot.slot
        self.player = slot.kind is TargetKind.PLAYER
        self.many = slot.max != 1
        self.named = named
        self.target: Noun | None = None
        self.heads: frozenset[str] = frozenset()
        """The kinds the target is ("creature"; "card" too once it has left the battlefield)."""
        self.latest: object = None
        """The object named last: "it" names the target only while that is the target."""
        self.closed = False
        """Once a second target is named, "it", "that creature" … could name either: none is linked."""

    def _names_target(self, node: Noun | Pronoun) -> bool:
        if self.target is None or self.closed or node.antecedents:
            return False
        if self.many:
            return self._names_targets(node)
        if isinstance(node, Pronoun):
            if node.word in _ROLE_PRONOUNS:
                return not self.player
            if node.word == "it":  # the object named last, if that is the target
                return not self.player and self.latest is self.target and self.named <= {"player"}
            return node.word == "that player" and "player" in self.heads and "player" not in self.named
        if node.determiners != ("that",) or node.qualifiers or node.plural:
            return False
        role = _ROLE_OF.match(node.description)
        if role is not None:  # "that creature's controller" is that creature's, as "its controller"
            kind = _head(role.group(1))
            return not self.player and kind in self.heads and kind not in self.named
        if " " in node.description:
            return False
        head = _head(node.description)
        if head == "card" and "card" not in _heads_of(self.target):  # the target since it left
            return "card" in self.heads and self.latest is self.target and "card" not in self.named
        return head in self.heads and head not in self.named

    def _names_targets(self, node: Noun | Pronoun) -> bool:
        """ "Tap up to two target creatures. Those creatures don't untap …", "… They gain haste …"."""
        if self.player:
            return False
        if isinstance(node, Pronoun):
            return node.word in ("them", "they") and self.latest is self.target and self.named <= {"player"}
        if node.determiners != ("those",) or node.qualifiers or not node.plural or " " in node.description:
            return False
        head = _head(node.description)
        return head in self.heads and head not in self.named

    def _is_target(self, node: object) -> bool:
        named = node.antecedents if isinstance(node, Noun | Pronoun) else ()
        return node is self.target or (len(named) == 1 and named[0] is self.target)

    def visit(self, node: object) -> object:
        if isinstance(node, Noun | Pronoun | Action) and node.slot not in (None, self.slot):
            self.closed = True  # "… fights target creature an opponent controls. Its controller …"
        if isinstance(node, Unimplemented):
            self.closed = True  # what a sentence the grammar rejects names is not known
        if isinstance(node, Pronoun):
            return dataclasses.replace(node, antecedents=(self.target,)) if self._names_target(node) else node
        if isinstance(node, Noun):
            if self._names_target(node):
                return dataclasses.replace(node, antecedents=(self.target,))
            qualifiers = tuple(self.visit(q) for q in node.qualifiers)
            if all(a is b for a, b in zip(qualifiers, node.qualifiers, strict=True)):
                qualifiers = node.qualifiers
            result = cast(Noun, _same_or(node, qualifiers=qualifiers))
            role = node.description.endswith(_ROLES)  # "target spell's controller": not the target
            if node.slot == self.slot and node.targeted and self.target is None and not role:
                self.target = self.latest = result
                self.heads = _heads_of(node)
            elif _introduces(node):  # "… search your library for a card named …, reveal it"
                self.latest = result
            return result
        if isinstance(node, SelfRef) and self.target is not None:
            self.latest = node  # "If this spell was kicked, it deals X damage to …": ~ named since
            return node
        if isinstance(node, Action) and (node.verb.startswith("create") or node.verb in _NEW_CARDS):
            self.latest = node  # "create a token that's a copy of …, except it has haste. Sacrifice it …"
        if isinstance(node, Action):
            args = tuple((role, self.visit(value)) for role, value in node.args)
            if node.verb in _LEAVES and self._is_target(dict(args).get("what")):
                self.heads |= {"card"}  # "Exile target creature. Return that card to the battlefield …"
            changed = any(a[1] is not b[1] for a, b in zip(args, node.args, strict=True))
            return dataclasses.replace(node, args=args) if changed else node
        if isinstance(node, Clause):
            subject = self.visit(node.subject)
            predicates = tuple(self.visit(p) for p in node.predicates)
            return _same_or(node, subject=subject, predicates=predicates)
        if isinstance(node, Conditional):
            if node.word == "for each":  # its body names each of those, and what it creates for each
                condition = self.visit(node.condition)
                self.latest = node
                return _same_or(node, condition=condition)
            if node.after:
                body = self.visit(node.body)
                condition = self.visit(node.condition)
            else:
                condition = self.visit(node.condition)
                body = self.visit(node.body)
            return _same_or(node, condition=condition, body=body)
        rebuilt = _containers(node, self.visit)
        if rebuilt is not _NOT_A_CONTAINER:
            return rebuilt
        if isinstance(node, Nouns):
            return _same_or(node, items=tuple(self.visit(item) for item in node.items))
        return node


class _Finder:
    def __init__(self, first: int, spell: bool = False) -> None:
        self.next = first
        self.spell = spell
        self.slots: list[TargetSlot] = []
        self.reflexive = 0
        self.each: list[str] = []
        """Inside "For each opponent, …": what its targets are chosen once for each of."""
        """Inside a reflexive trigger ("When you do, …"): its targets are its own (603.12)."""

    def add(
        self, description: str, kind: TargetKind, low: int = 1, high: int | None = 1, **flags: bool
    ) -> int:
        slot = self.next
        self.next += 1
        each = self.each[-1] if self.each else None
        self.slots.append(
            TargetSlot(slot, description, low, high, kind, reflexive=self.reflexive > 0, each=each, **flags)
        )
        return slot

    def visit(self, node: object) -> object:
        if isinstance(node, Noun):
            return self.noun(node)
        if isinstance(node, Pronoun):
            if node.word in ("any target", "another target"):
                return dataclasses.replace(node, slot=self.add(node.word, TargetKind.ANY))
            each = _EACH_OF_TARGETS.match(node.word)
            if each is not None:  # "each of up to two targets": one slot of any targets
                high = _number(each.group(2))
                low = 0 if each.group(1) else (high if high is not None else 1)
                slot = self.add("any target", TargetKind.ANY, low, high, variable=high is None)
                return dataclasses.replace(node, slot=slot)
            return node
        if isinstance(node, Action):
            return self.action(node)
        if isinstance(node, Clause):
            subject = self.visit(node.subject)
            before = len(self.slots)
            predicates = tuple(self.visit(p) for p in node.predicates)
            if isinstance(subject, SelfRef) and before == 0:  # "~ deals 1 damage to target … blocking it"
                predicates = tuple(_self_in_targets(p) for p in predicates)
            duration = self.visit(node.duration)
            for_each = self.visit(node.for_each)
            return _same_or(
                node, subject=subject, predicates=predicates, duration=duration, for_each=for_each
            )
        if isinstance(node, Conditional) and node.word in ("when", "whenever") and node.trigger is not None:
            # "When you do, ~ deals 1 damage to any target", "Whenever you cast a spell this turn, put a
            # +1/+1 counter on target creature you control": that ability's own targets (603.12, 603.7);
            # not "Destroy target blocking creature at end of combat", chosen as it is activated
            condition = self.visit(node.condition)
            self.reflexive += 1
            try:
                body = self.visit(node.body)
            finally:
                self.reflexive -= 1
            return _same_or(node, condition=condition, body=body)
        if isinstance(node, Conditional):
            if node.after:  # "Counter target spell unless its controller pays {3}": the body first
                body = self.visit(node.body)
                condition = self.visit(node.condition)
            else:
                condition = self.visit(node.condition)
                scoped = node.word == "for each" and isinstance(node.condition, Noun)
                if scoped:  # "For each opponent, destroy up to one target creature that player controls"
                    self.each.append(noun_phrase(cast(Noun, node.condition)))
                try:
                    body = self.visit(node.body)
                finally:
                    if scoped:
                        self.each.pop()
            return _same_or(node, condition=condition, body=body)
        rebuilt = _containers(node, self.visit)
        if rebuilt is not _NOT_A_CONTAINER:
            return rebuilt
        if isinstance(node, SelfRef):
            return _same_or(node, qualifiers=tuple(self.visit(q) for q in node.qualifiers))
        if isinstance(node, Nouns):  # each item's slot describes it with the shared qualifiers
            listed: list[object] = []
            for item in node.items:
                if isinstance(item, Noun) and node.qualifiers:
                    own = len(item.qualifiers)
                    shared = (*item.qualifiers, *node.qualifiers)
                    found = self.noun(dataclasses.replace(item, qualifiers=shared))
                    listed.append(dataclasses.replace(found, qualifiers=found.qualifiers[:own]))
                else:
                    listed.append(self.visit(item))
            return _same_or(node, items=_linked_to_earlier_targets(listed))
        return node  # words, numbers, mana, a quoted Ability (its targets are its own)

    def noun(self, node: Noun) -> Noun:  # a copy when it names a slot
        slot = node.slot
        if node.targeted:
            low, high, variable = _count(node.determiners)
            description = node.description
            role = next((r for r in _ROLES if description.endswith(r)), None)
            if role is not None:  # "target spell's controller": the spell is the target
                description = description[: -len(role)] + ("s" if role.startswith("s'") else "")
            kept = tuple(
                word for word in node.determiners if word not in _COUNT_WORDS and not _counting(word)
            )
            described = tuple(q for q in node.qualifiers if q.verb not in _MANNER)
            text = noun_phrase(Noun(kept, description, () if role else described))
            slot = self.add(text, _kind(Noun((), description)), low, high, variable=variable)
        qualifiers = tuple(self.visit(q) for q in node.qualifiers)
        if slot == node.slot and all(a is b for a, b in zip(qualifiers, node.qualifiers, strict=True)):
            return node
        return dataclasses.replace(node, qualifiers=qualifiers, slot=slot)  # type: ignore[arg-type]

    def action(self, node: Action) -> Action:
        slot = node.slot
        if node.verb == "player_controls":
            form = find(node.verb, node.form)
            if form is not None and form.text.startswith("target "):
                who = form.text.split()[1]
                return dataclasses.replace(node, slot=self.add(who, TargetKind.PLAYER))
            return node
        if node.verb in DIVIDED:
            return self.divided(node)
        if node.verb in KEYWORD_ACTION_TARGETS and slot is None:
            return self.keyword_action(node)
        args: list[tuple[str, object]] = []
        for role, value in node.args:
            if role in _REFERS or role.endswith("zones"):
                args.append((role, value))  # what another argument names: numbered there
                continue
            if isinstance(value, str) and slot is None and _targeted_possessive(value):
                owner = value.rsplit(" ", 1)[-1]
                description = owner[:-2] if owner.endswith("'s") else owner[:-1]
                slot = self.add(description, _kind(Noun((), description)))
                args.append((role, value))
            else:
                args.append((role, self.visit(value)))
        args = [(role, _zones_of(role, value, args)) for role, value in args]
        changed = slot != node.slot or any(a[1] is not b[1] for a, b in zip(args, node.args, strict=True))
        return dataclasses.replace(node, args=tuple(args), slot=slot) if changed else node

    def keyword_action(self, node: Action) -> Action:
        """ "Support 2": one slot of up to that many targets (:data:`KEYWORD_ACTION_TARGETS`)."""
        on_permanent, on_spell = KEYWORD_ACTION_TARGETS[node.verb]
        amount = node.arg("amount")
        high = amount.value if isinstance(amount, Number) else None
        description = on_spell if self.spell else on_permanent
        slot = self.add(description, TargetKind.OBJECT, 0, high, variable=high is None)
        return dataclasses.replace(node, slot=slot)

    def divided(self, node: Action) -> Action:
        """ "deals 5 damage divided as you choose among any number of targets", "distribute two
        +1/+1 counters among one or two target creatures": one slot, its count from the phrase,
        each chosen target getting at least one (601.2d)."""
        form = find(node.verb, node.form)
        counts = [node.arg(name) for name in ("a", "b", "c") if node.arg(name) is not None]
        what = node.arg("what")
        if form is not None and "any number of" in form.text:
            low, high = 1, None
        elif counts:
            low = counts[0].value if isinstance(counts[0], Number) else 1
            high = counts[-1].value if isinstance(counts[-1], Number) else None
        elif isinstance(what, Noun) and what.targeted:  # "among any number of target creatures"
            low, high, _x = _count(what.determiners)
            low = max(low, 1)
        else:
            return node
        if isinstance(what, Noun) and what.targeted:
            slotted = self.noun(what)
            index = next(i for i, s in enumerate(self.slots) if s.slot == slotted.slot)
            self.slots[index] = dataclasses.replace(self.slots[index], min=low, max=high, divided=True)
            args = tuple((role, slotted if role == "what" else value) for role, value in node.args)
            return dataclasses.replace(node, args=args)
        if isinstance(what, Noun | Pronoun):
            return node  # among creatures named before, not targets
        return dataclasses.replace(node, slot=self.add("any target", TargetKind.ANY, low, high, divided=True))


def _linked_to_earlier_targets(items: list[object]) -> tuple[object, ...]:
    """ "Exchange control of target nonland permanent you control and target permanent an opponent
    controls that shares a card type with it": "it" in a later target's description names the
    target before it in the list (the nearest one that is a single object), which the pronoun then
    has as its antecedent."""
    linked: list[object] = []
    for item in items:
        earlier = next((n for n in reversed(linked) if _single_target(n)), None)
        if isinstance(item, Noun) and item.targeted and earlier is not None:
            qualifiers = tuple(_refer(q, earlier) for q in item.qualifiers)
            if any(a is not b for a, b in zip(qualifiers, item.qualifiers, strict=True)):
                item = dataclasses.replace(item, qualifiers=cast(tuple[Action, ...], qualifiers))
        linked.append(item)
    return tuple(linked)


def _self_in_targets(predicate: object) -> object:
    """ "~ deals 1 damage to target creature blocking it": with ~ the subject and no target named
    before, "it" in a target's description is ~."""
    if not isinstance(predicate, Action):
        return predicate
    args: list[tuple[str, object]] = []
    for role, value in predicate.args:
        if isinstance(value, Noun) and value.slot is not None and value.targeted:
            qualifiers = tuple(_refer(q, SelfRef()) for q in value.qualifiers)
            if any(a is not b for a, b in zip(qualifiers, value.qualifiers, strict=True)):
                value = dataclasses.replace(value, qualifiers=cast(tuple[Action, ...], qualifiers))
        args.append((role, value))
    changed = any(a[1] is not b[1] for a, b in zip(args, predicate.args, strict=True))
    return dataclasses.replace(predicate, args=tuple(args)) if changed else predicate


def _single_target(node: object) -> bool:
    return isinstance(node, Noun) and node.slot is not None and not node.plural


_ANAPHORS = frozenset({"it"})
"""The pronouns that a target's description uses for one object named before it."""


def _refer(node: object, antecedent: object) -> object:
    """``node`` with each anaphor in it that names nothing yet given ``antecedent``."""
    if isinstance(node, Pronoun):
        if node.word in _ANAPHORS and not node.antecedents:
            return dataclasses.replace(node, antecedents=(antecedent,))
        return node
    if isinstance(node, Action):
        args = tuple((role, _refer(value, antecedent)) for role, value in node.args)
        changed = any(a[1] is not b[1] for a, b in zip(args, node.args, strict=True))
        return dataclasses.replace(node, args=args) if changed else node
    return node  # a noun of its own ("that shares a color with target creature") names its own


_REFERS = frozenset({"it"})
"""Arguments that repeat what an earlier phrase named ("from it": the zone revealed before)."""


def _zones_of(role: str, value: object, args: list[tuple[str, object]]) -> object:
    """ "Search target player's graveyard, hand, and library": the listed zones (``zones``) have
    the first zone's owner, and so its target slot."""
    if not role.endswith("zones") or not isinstance(value, tuple) or not value:
        return value
    base = "zone" if role == "zones" else role.removesuffix("_zones")
    first = dict(args).get(base)
    if not isinstance(first, Action) or first.slot is None:
        return value
    return (first, *(dataclasses.replace(zone, slot=first.slot) for zone in value[1:]))


_NOT_A_CONTAINER = object()
"""What :func:`_containers` answers for a node that holds more than steps."""


def _containers(node: object, visit: Callable[[object], object]) -> object:
    """``node`` with ``visit`` applied to what it holds, when it only holds steps or rows (a tuple,
    a sequence, a die roll's table, a row); itself when nothing changed, else a copy. Any other
    node: :data:`_NOT_A_CONTAINER` (each visitor reads those itself)."""
    if isinstance(node, tuple):
        items = tuple(visit(item) for item in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if isinstance(node, Steps):
        return _same_or(node, steps=_containers(node.steps, visit))
    if isinstance(node, RollDie):
        return _same_or(node, table=_containers(node.table, visit))
    if isinstance(node, TableRow):
        return _same_or(node, effects=_containers(node.effects, visit))
    return _NOT_A_CONTAINER


def _same_or(node: object, **fields: object) -> object:
    """``node`` itself when no field changed (most nodes name no target), else a copy."""
    if all(getattr(node, name) is value for name, value in fields.items()):
        return node
    return dataclasses.replace(node, **fields)  # type: ignore[type-var]


def _number(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    if word in NUMBER_WORDS:
        return NUMBER_WORDS.index(word)
    return None


def _counting(determiner: str) -> bool:
    """ "two", "one or two", "up to two": a count, not part of what is described."""
    return any(_number(word) is not None for word in determiner.split())


def _count(determiners: tuple[str, ...]) -> tuple[int, int | None, bool]:
    """How many targets a noun's determiners let one choose: (min, max, X)."""
    before = determiners[: determiners.index("target")]
    if "X" in before or "that many" in before:  # "up to that many target permanents": as many as named before
        return 0, None, True
    if "any number of" in before:
        return 0, None, False
    words = [word for determiner in before for word in determiner.split()]
    numbers = [n for n in (_number(word) for word in words) if n is not None]
    if "up" in words:  # "up to two"
        return 0, (numbers[-1] if numbers else 1), False
    if "or" in words and len(numbers) >= 2:  # "one or two target creatures"
        return numbers[0], numbers[-1], False
    if numbers:
        return numbers[0], numbers[0], False
    return 1, 1, False


def _kind(noun: Noun) -> TargetKind:
    players = [part in _PLAYERS for part in noun.alternatives]
    if players and all(players):
        return TargetKind.PLAYER
    return TargetKind.ANY if any(players) else TargetKind.OBJECT


def _targeted_possessive(value: str) -> bool:
    """ "target player's", "up to one target creature's": a targeted noun's possessive."""
    words = value.split()
    return len(words) >= 2 and "target" in words[:-1] and value.endswith(("'s", "s'"))


def trigger_player(ability: Ability) -> Ability:
    """A triggered ability whose trigger names one player ("Whenever an opponent casts a spell,
    that player loses 2 life", Dragonlord Kolaghan): "that player" in its steps is that player (the
    trigger's noun is its antecedent), when the ability targets no player (then "that player" could
    be the target, :class:`_TargetAnaphora`) and names no other player before it."""
    if ability.kind is not Kind.TRIGGERED or any(slot.kind is TargetKind.PLAYER for slot in ability.targets):
        return ability
    players = [n for n in walk(ability.trigger) if isinstance(n, Noun) and _names_a_player(n)]
    if len(players) != 1:
        return ability
    linker = _ThatPlayer(players[0])
    effects = tuple(cast(Step, linker.visit(step)) for step in ability.effects)
    changed = any(a is not b for a, b in zip(effects, ability.effects, strict=True))
    return dataclasses.replace(ability, effects=effects) if changed else ability


def _names_a_player(noun: Noun) -> bool:
    return not noun.targeted and not noun.plural and _head(noun.description) == "player"


class _ThatPlayer:
    """Gives each unlinked "that player" the trigger's player as antecedent, until another player
    is named (then it could be either); not inside "for each …" (there it is each of those)."""

    def __init__(self, antecedent: Noun) -> None:
        self.antecedent = antecedent
        self.closed = False

    def visit(self, node: object) -> object:
        if self.closed:
            return node
        if isinstance(node, Noun):
            if node.determiners == ("that",) and node.description == "player" and not node.qualifiers:
                return node if node.antecedents else dataclasses.replace(node, antecedents=(self.antecedent,))
            if _names_a_player(node) or node.targeted:
                self.closed = True  # "… an opponent …, then that player": which one is not known
                return node
            return _same_or(node, qualifiers=tuple(self.visit(q) for q in node.qualifiers))
        if isinstance(node, Pronoun):
            if node.word == "that player" and not node.antecedents:
                return dataclasses.replace(node, antecedents=(self.antecedent,))
            return node
        rebuilt = _containers(node, self.visit)
        if rebuilt is not _NOT_A_CONTAINER:
            return rebuilt
        if isinstance(node, Action):
            values = tuple(self.visit(value) for _, value in node.args)
            if all(a is b for a, (_, b) in zip(values, node.args, strict=True)):
                return node
            return dataclasses.replace(
                node, args=tuple((k, v) for (k, _), v in zip(node.args, values, strict=True))
            )
        if isinstance(node, Clause):
            subject = self.visit(node.subject)
            return _same_or(node, subject=subject, predicates=self.visit(node.predicates))
        if isinstance(node, Conditional):
            if node.word == "for each":
                return node
            return _same_or(node, condition=self.visit(node.condition), body=self.visit(node.body))
        return node
