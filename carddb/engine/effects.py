"""Executing parsed abilities: one handler per phrase verb, and the noun phrases resolved to the
objects and players they name. :func:`missing` tells, before anything happens, which parts of an
ability have no handler: an ability is executed entirely or refused."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from carddb.engine.decisions import Decider
from carddb.engine.errors import EngineError
from carddb.engine.state import Delayed, Event, Game, GameObject
from carddb.oracle.model import (
    Ability,
    Action,
    Clause,
    Conditional,
    Count,
    Keyword,
    Kind,
    ManaCost,
    Noun,
    Number,
    ParsedFace,
    Pronoun,
    RollDie,
    SelfRef,
    Sequence,
    Unimplemented,
    Var,
    X,
    walk,
)
from carddb.oracle.phrases import find

Ref = GameObject | str
"""An object, or a player by name."""

COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_TYPE_WORDS = {
    "artifact": "Artifact", "creature": "Creature", "enchantment": "Enchantment", "land": "Land",
    "planeswalker": "Planeswalker", "instant": "Instant", "sorcery": "Sorcery", "battle": "Battle",
}  # fmt: skip
_ANY_OBJECT = {"permanent", "card", "spell", "token", "source", "object"}
_PLAYERS = {"player", "opponent"}
_STATES = {"tapped", "untapped", "other", "another", "nontoken"}
_STATES |= {"attacking", "blocking", "blocked", "unblocked"}  # carddb.engine.combat.in_combat_as
_SUPERTYPE_WORDS = {
    "basic": "Basic",
    "legendary": "Legendary",
    "snow": "Snow",
    "nonbasic": "",
    "nonlegendary": "",
}
KNOWN_KEYWORDS = {"indestructible", "hexproof", "shroud", "flash"}
GRANTED_KEYWORDS: list[Callable[[str], bool]] = []
"""Checks for keywords with a quality given in running text ("gains protection from red") that the
engine applies (carddb.engine.protection adds its own)."""
"""Keyword abilities whose rules the engine applies (destroying, targeting, casting timing)."""
KEYWORD_CHECKS: dict[str, Callable[[Keyword], list[str]]] = {}
"""Keywords with a parameter the engine executes for some parameters only (Enchant, Equip: filled in
by :mod:`carddb.engine.attachments`), by the keyword's first word: what keeps one from executing."""
ATTACHED_WORDS = {"enchanted", "equipped"}
"""``enchanted creature``, ``equipped creature``: the object the source is attached to."""


@dataclass
class Context:
    """What executing one ability knows: the game, who controls the ability, its source, its
    chosen targets (by the noun that named them), values bound so far (X, the die result) and the
    objects "it" and "them" refer to."""

    game: Game
    decider: Decider
    controller: str
    source: GameObject
    slots: dict[int, list[Ref]] = field(default_factory=dict)
    bindings: dict[str, int] = field(default_factory=dict)
    it: list[Ref] = field(default_factory=list)
    event_refs: list[Ref] = field(default_factory=list)
    duration: object = None
    """The duration of the clause being executed ("until end of turn"), for its handlers."""
    """What the event that triggered the ability was about ("that player", "that creature")."""
    rng: random.Random = field(default_factory=lambda: random.Random(0))


Handler = Callable[[Context, list[Ref], Action], None]
Condition = Callable[[Context, Action], bool]
HANDLERS: dict[str, Handler] = {}
CONDITIONS: dict[str, Condition] = {}
QUALIFIERS: dict[str, Callable[[Context, Ref, Action], bool]] = {}
FORMS: dict[str, frozenset[int]] = {}
ZONE_OWNERS = {
    "your", "its owner's", "their owner's", "their owners'", "its controller's", "their", "that player's",
    "an opponent's", "each opponent's", "a player's", "each player's", None,
}  # fmt: skip
"""Verbs of which the engine executes only some written forms (by form index)."""
SUPPORTED_CONDITIONALS = {"if", "unless", "where X is", "then", "at"}
DELAYED = {("beginning", 12), ("beginning", 13), ("beginning", 14), ("beginning", 15), ("end_of_combat", 0)}
"""The moments a delayed triggered ability may wait for: the next end step, the next turn's upkeep,
your next upkeep, the end of combat."""
POSSESSORS = {"its", "~'s", "enchanted creature's", "equipped creature's"}
"""Whose power, toughness or mana value a phrase may read (``{whose:poss}`` of a stat phrase)."""
ADDITIVE = {
    "gets", "gain_life", "lose_life", "draw", "deal_damage", "create_creature_token", "put_counters",
    "mill", "add_mana", "scry", "surveil", "discard",
}  # fmt: skip
"""Verbs that "for each X" may repeat: doing them N times is doing them once N-fold."""
SUPPORTED_DURATIONS: frozenset[object] = frozenset({"until end of turn", "this turn"})
UNTIL_END_OF_TURN = {
    "gets", "gains", "cant_block", "cant_attack", "cant_be_blocked", "gain_control", "prevent_next_damage",
    "prevent_all_damage", "has_ability",
}  # fmt: skip
"""The verbs whose handlers last until end of turn: the only ones a duration may go with."""


def handles(*verbs: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        for verb in verbs:
            HANDLERS[verb] = function
        return function

    return register


# -- what can be executed ------------------------------------------------------------------------
EXECUTABLE_KINDS = {Kind.SPELL, Kind.ACTIVATED, Kind.MANA, Kind.TRIGGERED, Kind.LOYALTY}
TRIGGERS: dict[str, frozenset[int] | None] = {}
"""Trigger events the engine watches for, with the forms it knows (None: all); filled in by
:mod:`carddb.engine.triggers`."""
STATIC_VERBS: set[str] = set()
"""Predicates of static abilities the engine applies (:mod:`carddb.engine.continuous`)."""
REPLACEMENTS = {"roll_extra_die"}
"""Replacement effects the engine applies."""


def face_missing(face: ParsedFace) -> list[str]:
    """What keeps a whole face from executing: every ability must (empty: it does)."""
    problems: list[str] = []
    for ability in face.abilities:
        for problem in missing(ability):
            if problem not in problems:
                problems.append(problem)
    return problems


def missing(ability: Ability) -> list[str]:
    """The parts of ``ability`` the engine cannot execute (empty: it executes entirely)."""
    problems: list[str] = []
    if ability.kind is Kind.KEYWORD:
        return [p for k in ability.keywords for p in _keyword_problems(k)]
    if ability.kind is Kind.STATIC:
        problems.extend(_static_problems(ability))
    elif ability.kind is Kind.REPLACEMENT:
        verbs = {n.verb for step in ability.effects for n in walk(step) if isinstance(n, Action)}
        if not verbs & REPLACEMENTS:
            problems.append("replacement effect")
    elif ability.kind not in EXECUTABLE_KINDS:
        problems.append(f"{ability.kind.value} ability")
    if ability.choose and not ability.modes:
        problems.append("modes")
    if ability.kind is Kind.TRIGGERED:
        trigger = ability.trigger
        if not (isinstance(trigger, Action) and trigger.verb in TRIGGERS):
            verb = trigger.verb if isinstance(trigger, Action) else "?"
            problems.append(f"trigger {verb!r}")
        else:
            forms = TRIGGERS[trigger.verb]
            if forms is not None and trigger.form not in forms:
                problems.append(f"trigger {trigger.verb!r} form {trigger.form}")
    roots: list[object] = [*ability.unparsed, *ability.effects, *ability.cost, *ability.restrictions]
    if isinstance(ability.trigger, Action):
        roots.extend(v for _, v in ability.trigger.args)
    roots.extend(mode.effects for mode in ability.modes)
    static = ability.kind is Kind.STATIC
    nodes = [node for root in roots for node in walk(root)]
    # a delayed ability's moment is checked as such (DELAYED), not as a condition to evaluate
    moments = {id(n.condition) for n in nodes if isinstance(n, Conditional) and n.word == "at"}
    for root in roots:
        for node in walk(root):
            if static and isinstance(node, Conditional) and node.word == "as long as":
                continue
            if id(node) in moments:
                continue
            problem = _problem(node, static)
            if problem and problem not in problems:
                problems.append(problem)
    return problems


def _keyword_problems(keyword: Keyword) -> list[str]:
    check = KEYWORD_CHECKS.get(keyword.name.lower().split(" ")[0])
    if check is not None:
        return check(keyword)
    return [] if keyword.name.lower() in KNOWN_KEYWORDS else [f"keyword {keyword.name.lower()}"]


def attached_reference(noun: Noun) -> bool | None:
    """Whether ``noun`` is "enchanted creature", "equipped creature", "enchanted land"…: one object,
    the one the source is attached to (True); None if it says nothing of attachments; False for the
    forms the engine does not know ("target enchanted permanent", "equipped creatures you control",
    "enchanted player")."""
    words = noun.description.lower().split()
    if not set(words) & ATTACHED_WORDS:
        return None
    return (
        words[0] in ATTACHED_WORDS
        and len(words) == 2
        and not noun.determiners
        and not noun.qualifiers
        and not words[1].endswith(("s", "'s"))
        and words[1] not in _PLAYERS
    )


def _granted_problem(node: object) -> str | None:
    """A quoted ability given to another object executes when it itself would."""
    if isinstance(node, Ability):
        inner = missing(node)
        return f"granted {inner[0]}" if inner else None
    return None


def _problem(node: object, static: bool = False) -> str | None:
    granted = _granted_problem(node)
    if granted is not None:
        return granted
    if isinstance(node, Unimplemented):
        return f"unimplemented text {node.text!r}"
    if isinstance(node, Action) and node.verb == "zone" and node.arg("owner") not in ZONE_OWNERS:
        return f"zone of {node.arg('owner')}"
    whose = node.arg("whose") if isinstance(node, Action) else None
    if isinstance(whose, str) and whose not in POSSESSORS:
        return f"{whose} characteristics"
    if isinstance(node, Action):
        form = find(node.verb, node.form)
        if form is None:
            return None
        tables: dict[str, dict[str, Any]] = {"pred": HANDLERS, "cond": CONDITIONS, "qualifier": QUALIFIERS}
        known = tables.get(form.family)
        if form.family == "restriction":
            from carddb.engine.game import RESTRICTIONS

            known_restriction = node.verb in RESTRICTIONS
            return None if known_restriction else f"restriction {node.verb!r}"
        applied = static and node.verb in STATIC_VERBS  # continuous.py applies it
        if known is not None and node.verb not in known and not applied:
            return f"{form.family} {node.verb!r}"
        forms = FORMS.get(node.verb)
        if forms is not None and node.form not in forms:
            return f"{form.family} {node.verb!r} form {node.form}"
        keywords = node.arg("keywords")
        if node.verb in ("has", "gains", "with_keywords", "loses") and isinstance(keywords, str):
            unknown = [
                k
                for k in keyword_list(keywords)
                if k not in KNOWN_KEYWORDS and not any(check(k) for check in GRANTED_KEYWORDS)
            ]
            if unknown and node.verb != "with_keywords":
                return f"keyword {unknown[0]}"
    if isinstance(node, Conditional) and node.word not in SUPPORTED_CONDITIONALS:
        return f"{node.word!r} clause"
    if isinstance(node, Conditional) and node.word == "at":
        moment = node.condition
        if not (isinstance(moment, Action) and (moment.verb, moment.form) in DELAYED):
            return "'at' clause"
    if isinstance(node, Clause) and node.for_each is not None:
        verbs = {p.verb for p in node.predicates if isinstance(p, Action)}
        if not verbs <= ADDITIVE or len(verbs) != len(node.predicates):
            return "for each"
    if isinstance(node, Clause) and node.duration is not None:
        verbs = {p.verb for p in node.predicates if isinstance(p, Action)}
        if node.duration not in SUPPORTED_DURATIONS or not verbs <= UNTIL_END_OF_TURN:
            return f"duration {node.duration!r}"
    if isinstance(node, Noun) and (
        not _known_description(node.description) or attached_reference(node) is False
    ):
        return f"description {node.description!r}"
    return None


def _static_problems(ability: Ability) -> list[str]:
    """A static ability executes when each sentence is a clause (perhaps under "as long as") whose
    predicates the engine applies continuously."""
    problems: list[str] = []
    for step in ability.effects:
        body = step
        if isinstance(step, Conditional) and step.word == "as long as":
            body = step.body
        if not isinstance(body, Clause) or body.duration is not None or body.for_each is not None:
            problems.append("static ability")
            continue
        for predicate in body.predicates:
            if not isinstance(predicate, Action) or predicate.verb not in STATIC_VERBS:
                verb = predicate.verb if isinstance(predicate, Action) else "clause"
                problems.append(f"static {verb!r}")
    if not ability.effects:
        problems.append("static ability")
    return problems


def keyword_list(text: str) -> list[str]:
    """``"flying and first strike"`` → ``["flying", "first strike"]``."""

    return [part.strip().lower() for part in re.split(r",? and |, ", text) if part.strip()]


def keywords_of(obj: GameObject) -> set[str]:
    """The keyword abilities an object has now: printed, granted until end of turn, and by statics."""
    found = {k.name.lower() for a in obj.card.abilities if a.kind is Kind.KEYWORD for k in a.keywords}
    for text in (*obj.keywords_until_end_of_turn, *obj.static_keywords):
        if text != "regeneration shield":
            found.update(keyword_list(text))
    return found


def mana_value(obj: GameObject) -> int:
    total = 0
    for symbol in obj.card.mana_symbols:
        inner = symbol.strip("{}")
        if inner.isdigit():
            total += int(inner)
        elif inner not in ("X", "Y", "Z"):
            total += 2 if inner.startswith("2/") else 1
    return total


def _known_description(description: str) -> bool:
    for alternative in Noun((), description).alternatives:
        for word in alternative.split():
            lowered = word.lower().rstrip("s") if word.lower() not in ("sorceries",) else "sorcery"
            if (
                lowered in _SUPERTYPE_WORDS
                or lowered in _TYPE_WORDS
                or lowered in _ANY_OBJECT
                or lowered in _PLAYERS
                or lowered in COLOR_WORDS
                or lowered in _STATES
                or lowered.startswith("non")
                or lowered in ATTACHED_WORDS
                or word[:1].isupper()
            ):
                continue
            return False
    return True


# -- executing ----------------------------------------------------------------------------------
def execute(ctx: Context, step: object) -> None:
    """Execute one step (a sentence) of an ability."""
    _execute(ctx, step)
    from carddb.engine.continuous import refresh

    refresh(ctx.game)


def _execute(ctx: Context, step: object) -> None:
    if isinstance(step, Clause):
        _clause(ctx, step)
    elif isinstance(step, Sequence):
        for item in step.steps:
            _execute(ctx, item)
    elif isinstance(step, Conditional):
        _conditional(ctx, step)
    elif isinstance(step, RollDie):
        _roll(ctx, step)
    elif isinstance(step, Action):
        raise EngineError(f"{step.verb!r} is not a step")
    else:
        raise EngineError(f"cannot execute {step!r}")


def _clause(ctx: Context, clause: Clause) -> None:
    subject: list[Ref] = [ctx.controller] if clause.subject is None else resolve(ctx, clause.subject)
    ctx.duration = clause.duration
    times = 1 if clause.for_each is None else _count_each(ctx, clause.for_each, subject)
    for predicate in [p for _ in range(times) for p in clause.predicates]:
        if isinstance(predicate, Clause):
            _clause(ctx, predicate)
            continue
        handler = HANDLERS.get(predicate.verb)
        if handler is None:
            raise EngineError(f"no handler for {predicate.verb!r}")
        handler(ctx, subject, predicate)


def _count_each(ctx: Context, each: object, subject: list[Ref]) -> int:
    """How many times "… for each X" repeats the clause: the objects or players X names, or the
    counters of a kind on an object ("for each +1/+1 counter on ~"). "it" keeps naming the
    subject."""
    before = list(ctx.it)
    if isinstance(each, Action) and each.verb == "counters_on":
        kind = counter_kind(each.arg("kind"))
        count = sum(obj.counters.get(kind, 0) for obj in objects(resolve(ctx, each.arg("what"))))
    elif isinstance(each, Noun) and not each.determiners:
        count = sum(1 for obj in candidates_for(ctx, each) if matches(ctx, obj, each))
    else:
        count = len(resolve(ctx, each))
    ctx.it = before or list(subject)
    return count


def _conditional(ctx: Context, node: Conditional) -> None:
    if node.word == "at":  # a delayed triggered ability: it waits for its moment
        ctx.game.delayed.append(Delayed(node.condition, node.body, ctx.controller, ctx.source, list(ctx.it)))
        return
    if node.word == "where X is":
        ctx.bindings["X"] = value(ctx, node.condition)
        _execute(ctx, node.body)
    elif node.word == "then":
        _execute(ctx, node.body)
    elif node.word in ("if", "unless"):
        if node.after and isinstance(node.body, Clause):
            _antecedent(ctx, node.body)
        holds = evaluate(ctx, node.condition)
        if holds == (node.word == "if"):
            _execute(ctx, node.body)
    else:
        raise EngineError(f"cannot execute a {node.word!r} clause")


def _antecedent(ctx: Context, body: Clause) -> None:
    """ "Counter target spell unless its controller pays {3}": the condition, written after the
    body, speaks of the body's object ("its"), so "it" names that object while it is evaluated."""
    for predicate in body.predicates:
        what = predicate.arg("what") if isinstance(predicate, Action) else None
        if isinstance(what, SelfRef) or (isinstance(what, Noun) and id(what) in ctx.slots):
            ctx.it = resolve(ctx, what)
            return


def evaluate(ctx: Context, condition: object) -> bool:
    if not isinstance(condition, Action) or condition.verb not in CONDITIONS:
        raise EngineError(f"cannot evaluate the condition {condition!r}")
    return CONDITIONS[condition.verb](ctx, condition)


def value(ctx: Context, quantity: object) -> int:
    """A number: digits, X (bound by the spell's X, a roll or a where-clause), a count."""
    if isinstance(quantity, Number):
        return quantity.value
    if isinstance(quantity, X):
        if "X" in ctx.bindings:
            return ctx.bindings["X"]
        if "result" in ctx.bindings:
            return ctx.bindings["result"]
        raise EngineError("X has no value here")
    if isinstance(quantity, Var):
        return ctx.bindings[quantity.name]
    if isinstance(quantity, Count) and quantity.what == "cards in your hand":
        return len(ctx.game.players[ctx.controller].zones["hand"])
    if isinstance(quantity, Action) and quantity.verb == "the_result":
        return ctx.bindings["result"]
    if isinstance(quantity, Action) and quantity.verb == "number_of":
        return len(resolve(ctx, quantity.arg("what")))
    raise EngineError(f"cannot count {quantity!r}")


def amount_of(ctx: Context, noun: object) -> int:
    """How many a noun phrase asks for: "a card" 1, "two cards" 2, "X cards" X."""
    if isinstance(noun, Noun):
        amount = noun.amount
        if amount is not None:
            return value(ctx, amount)
    return 1


# -- dice ---------------------------------------------------------------------------------------
def roll_dice(ctx: Context, sides: int, count: int, *, keep_lower: bool = False) -> int:
    """Roll ``count`` dN for the controller: extra dice from replacement effects (Pixie Guide,
    Barbarian Class) are rolled and the lowest ignored, as if never rolled. Returns the natural
    result that counts (the highest when several are kept as one)."""
    extra = sum(
        1
        for obj in ctx.game.permanents(ctx.controller)
        for ability in obj.card.abilities
        if any(isinstance(n, Action) and n.verb == "roll_extra_die" for e in ability.effects for n in walk(e))
    )
    rolls = [ctx.decider.roll(sides, f"d{sides} for {ctx.source.name}") for _ in range(count + extra)]
    kept = sorted(rolls, reverse=True)[:count]
    ctx.game.log.append(f"{ctx.controller} rolls {rolls} (keeps {kept})")
    # "whenever you roll one or more dice" sees only the dice that count
    ctx.game.events.append(Event("roll", ctx.source, player=ctx.controller, amount=len(kept)))
    return max(kept) if not keep_lower else min(kept)


def _roll(ctx: Context, roll: RollDie) -> None:
    natural = roll_dice(ctx, roll.sides, roll.count)
    result = natural + (value(ctx, roll.modifier) if roll.modifier is not None else 0)
    ctx.bindings["natural"] = natural
    ctx.bindings[roll.bind] = result
    for row in roll.table:
        high = row.high if row.high is not None else (10**9 if row.open_ended else row.low)
        if row.open_ended:
            high = 10**9
        if row.low <= result <= high:
            for step in row.effects:
                _execute(ctx, step)
            break


# -- noun phrases -------------------------------------------------------------------------------
def resolve(ctx: Context, phrase: object) -> list[Ref]:
    """The objects or players a noun phrase names, as the ability resolves."""
    if isinstance(phrase, SelfRef):
        found: list[Ref] = [ctx.source]
    elif isinstance(phrase, Pronoun) and id(phrase) in ctx.slots:  # "any target"
        found = list(ctx.slots[id(phrase)])
    elif isinstance(phrase, Pronoun):
        found = _pronoun(ctx, phrase.word)
    elif isinstance(phrase, Noun) and phrase.determiners == ("this",):  # in a granted ability
        found = [ctx.source]
    elif isinstance(phrase, Noun) and id(phrase) in ctx.slots:
        found = list(ctx.slots[id(phrase)])
    elif isinstance(phrase, Noun):
        found = _described(ctx, phrase)
    elif isinstance(phrase, Action) and phrase.verb == "top_cards":
        found = list(_top_cards(ctx, phrase))
    else:
        raise EngineError(f"cannot resolve {phrase!r}")
    if not (isinstance(phrase, Pronoun) and phrase.word == "you"):
        ctx.it = found
    return found


def zone_owners(ctx: Context, zone: object) -> list[str]:
    """Whose zone a ``zone`` action names: "your library" → the controller; "its owner's" → the
    owner of "it"; "their"/"that player's" → the players named last; no owner → everyone."""
    owner = zone.arg("owner") if isinstance(zone, Action) else None
    if owner == "your":
        return [ctx.controller]
    if owner in ("its owner's", "their owner's", "their owners'"):
        return list(dict.fromkeys(obj.owner for obj in objects(ctx.it)))
    if owner == "its controller's":
        return list(dict.fromkeys(obj.controller for obj in objects(ctx.it)))
    if owner in ("their", "that player's", "his or her"):
        return list(dict.fromkeys(players(ctx, ctx.it)))
    if owner in ("an opponent's", "each opponent's"):
        return ctx.game.opponents(ctx.controller)
    if owner is None or owner in ("a player's", "each player's"):
        return list(ctx.game.players)
    raise EngineError(f"cannot tell whose zone {owner!r} is")


def _top_cards(ctx: Context, action: Action) -> Iterator[GameObject]:
    count = value(ctx, action.arg("amount"))
    for player in zone_owners(ctx, action.arg("zone")):
        yield from ctx.game.in_zone("library", player)[:count]


def _pronoun(ctx: Context, word: str) -> list[Ref]:
    if word == "you":
        return [ctx.controller]
    if word in ("it", "them", "they", "itself", "each of them"):
        return list(ctx.it)
    if word in ("its controller", "its owner"):
        objects = [ref for ref in ctx.it if isinstance(ref, GameObject)]
        return [obj.controller if word == "its controller" else obj.owner for obj in objects[:1]]
    raise EngineError(f"cannot resolve the pronoun {word!r}")


def _described(ctx: Context, noun: Noun) -> list[Ref]:
    words = {w.lower().rstrip("s") for w in noun.description.split()}
    if "that" in noun.determiners and ctx.event_refs:  # "that player": the one the event was about
        return [ref for ref in ctx.event_refs if ref is not ctx.source and matches(ctx, ref, noun)][:1]
    if words & _PLAYERS:
        players = list(ctx.game.players)
        if "opponent" in words:
            players = ctx.game.opponents(ctx.controller)
        return [p for p in players if all(_qualifies(ctx, p, q) for q in noun.qualifiers)]
    candidates = [obj for obj in candidates_for(ctx, noun) if matches(ctx, obj, noun)]
    return choose_some(ctx, noun, candidates)


def noun_zone(noun: Noun) -> str:
    """Where the objects a noun names are: the zone of its ``in``/``from`` qualifier, the stack for
    spells, else the battlefield."""
    for qualifier in noun.qualifiers:
        if qualifier.verb == "in_zone":
            zone = qualifier.arg("zone")
            if isinstance(zone, Action):
                return str(zone.arg("zone"))
            return {2: "graveyard", 3: "graveyard", 5: "graveyard", 6: "graveyard", 7: "exile"}.get(
                qualifier.form, "battlefield"
            )
    if noun.description.endswith(("spell", "spells")):
        return "stack"
    return "battlefield"


def candidates_for(ctx: Context, noun: Noun) -> list[GameObject]:
    zone = noun_zone(noun)
    if zone == "battlefield":
        return ctx.game.permanents()
    if zone == "stack":
        return [ctx.game.objects[item.source] for item in ctx.game.stack if item.is_spell]
    return [obj for player in ctx.game.players for obj in ctx.game.in_zone(zone, player)]


def choose_some(ctx: Context, noun: Noun, candidates: list[GameObject]) -> list[Ref]:
    """ "a card", "two creatures": the controller chooses that many (all, when fewer); "each",
    "all" and plural descriptions without a number name every one."""
    amount = noun.amount
    if amount is None or not noun.determiners or "each" in noun.determiners or "all" in noun.determiners:
        return list(candidates)
    count = value(ctx, amount)
    if count >= len(candidates):
        return list(candidates)
    chosen: list[Ref] = []
    left = list(candidates)
    for _ in range(count):
        name = ctx.decider.choose(f"{ctx.controller} chooses {noun.description}", _names(left))
        picked = next(obj for obj in left if obj.name == name)
        left.remove(picked)
        chosen.append(picked)
    return chosen


def _names(found: list[GameObject]) -> list[str]:
    return list(dict.fromkeys(obj.name for obj in found))


def matches(ctx: Context, ref: Ref, noun: Noun) -> bool:
    """Whether ``ref`` is what ``noun`` describes (its types, colours, states and qualifiers)."""
    if isinstance(ref, str):
        words = {w.lower().rstrip("s") for w in noun.description.split()}
        if "opponent" in words:
            return ref != ctx.controller
        return bool(words & _PLAYERS)
    if "another" in noun.determiners and ref is ctx.source:
        return False
    if not any(_is(ctx, ref, alternative) for alternative in noun.alternatives):
        return False
    return all(_qualifies(ctx, ref, qualifier) for qualifier in noun.qualifiers)


def _is(ctx: Context, obj: GameObject, alternative: str) -> bool:
    for word in alternative.split():
        lowered = word.lower()
        singular = "sorcery" if lowered == "sorceries" else lowered.rstrip("s")
        if singular in _TYPE_WORDS:
            if _TYPE_WORDS[singular] not in obj.card.types:
                return False
        elif singular in _SUPERTYPE_WORDS:
            wanted = _SUPERTYPE_WORDS[singular] or _SUPERTYPE_WORDS[singular[3:]]
            if (wanted in obj.card.supertypes) == singular.startswith("non"):
                return False
        elif singular.startswith("non") and singular[3:].lstrip("-") in _TYPE_WORDS:
            if _TYPE_WORDS[singular[3:].lstrip("-")] in obj.card.types:
                return False
        elif (
            (singular == "tapped" and not obj.tapped)
            or (singular == "untapped" and obj.tapped)
            or (singular in ("other", "another") and obj is ctx.source)
            or (singular == "token" and not obj.token)
        ):
            return False
        elif singular in ATTACHED_WORDS:
            if obj.id != ctx.source.attached_to:
                return False
        elif singular in ("attacking", "blocking", "blocked", "unblocked"):
            from carddb.engine.combat import in_combat_as

            if not in_combat_as(ctx.game, obj, singular):
                return False
        elif singular in COLOR_WORDS:
            if "{" + COLOR_WORDS[singular] not in obj.card.mana_cost:
                return False
        elif (
            word[:1].isupper() and word.rstrip("s") not in obj.card.subtypes and word not in obj.card.subtypes
        ):
            return False
    return True


def _qualifies(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    check = QUALIFIERS.get(qualifier.verb)
    if check is None:
        raise EngineError(f"cannot check the qualifier {qualifier.verb!r}")
    return check(ctx, ref, qualifier)


def _controller(ref: Ref) -> str:
    return ref.controller if isinstance(ref, GameObject) else ref


QUALIFIERS["you_control"] = lambda ctx, ref, q: (_controller(ref) == ctx.controller) == (q.form in (0, 2, 3))
QUALIFIERS["opponent_controls"] = lambda ctx, ref, q: (
    _controller(ref) != ctx.controller if q.form in (0, 1) else True
)


def counter_kind(text: object) -> str:
    """The kind of counter a phrase names: "+1/+1 counters" → "+1/+1", "a charge counter" → "charge"."""
    return str(text).removesuffix("s").removesuffix(" counter")


def objects(refs: list[Ref]) -> Iterator[GameObject]:
    return (ref for ref in refs if isinstance(ref, GameObject))


def players(ctx: Context, refs: list[Ref]) -> Iterator[str]:
    for ref in refs:
        yield ref if isinstance(ref, str) else ref.controller


def mana_symbols(action: Action) -> list[str]:
    return [symbol for _, v in action.args if isinstance(v, ManaCost) for symbol in v.symbols]


# -- destroying and targeting ------------------------------------------------------------------
REGENERATION = "regeneration shield"
"""A regeneration shield, kept with the until-end-of-turn keywords (it lasts until cleanup and
leaves with the permanent)."""


def destroy(game: Game, obj: GameObject) -> bool:
    """Destroy a permanent (rule 701.7): indestructible ones are not; a regeneration shield is
    used up instead (the permanent is tapped and its damage removed). True if it left."""
    if obj.zone != "battlefield" or "indestructible" in keywords_of(obj):
        return False
    if REGENERATION in obj.keywords_until_end_of_turn:
        obj.keywords_until_end_of_turn.remove(REGENERATION)
        obj.tapped = True
        obj.damage = 0
        game.log.append(f"{obj.name} regenerates")
        return False
    game.move(obj, "graveyard")
    return True


def abilities_of(obj: GameObject) -> list[Ability]:
    """Every ability an object has by index: its card's, then those other abilities give it."""
    return [*obj.card.abilities, *obj.granted, *obj.granted_until_end_of_turn]


def ability_at(obj: GameObject, index: int) -> Ability:
    """The ability at ``index`` (0-based) of :func:`abilities_of`."""
    abilities = abilities_of(obj)
    if not 0 <= index < len(abilities):
        raise EngineError(f"{obj.name} has no ability {index + 1}")
    return abilities[index]


def active_abilities(obj: GameObject) -> list[tuple[int, Ability]]:
    """The abilities an object has now, with their indexes: a Class has those of its first level
    only (gaining levels is not implemented, so the abilities after a level line are not yet its);
    abilities granted by others follow the card's own."""
    found: list[tuple[int, Ability]] = []
    for index, ability in enumerate(obj.card.abilities):
        if ability.kind is Kind.LEVEL and "Class" in obj.card.subtypes:
            break
        found.append((index, ability))
    start = len(obj.card.abilities)
    found.extend((start + i, a) for i, a in enumerate([*obj.granted, *obj.granted_until_end_of_turn]))
    return found
