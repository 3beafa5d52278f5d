"""What the engine can execute: :func:`missing` tells, before anything happens, which parts of an
ability have no handler (an ability is executed entirely or refused); :func:`face_missing` the same
for a whole face (``carddb coverage --engine``). Some verbs are supported for some of their forms
only, durations only with verbs whose effect lasts until end of turn.

Its own module because it reads every table the engine fills in (:mod:`carddb.engine.core.catalog`) and
the vocabulary of noun phrases (:mod:`carddb.engine.query.nouns`) but executes nothing: it is asked before
anything happens, and by the coverage count without a game at all."""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog
from carddb.engine.core.errors import NotExecutableError
from carddb.engine.core.forms import is_form, written
from carddb.engine.core.layers import level_range
from carddb.engine.core.state import GameObject
from carddb.engine.query.abilities import itself_in_graveyard, keyword_list
from carddb.engine.query.choices import color_choices, entering_choice, protection_from_chosen_color
from carddb.engine.query.faces import unreachable
from carddb.engine.query.keyword_abilities import stands_for
from carddb.engine.query.nouns import (
    AMONG_LOOKED,
    CONTEXT_FORMS,
    NAMED_FORMS,
    OTHER_DETERMINERS,
    OWNER_NAMING,
    PRONOUNS,
    SELF_POSSESSIVE,
    STAT_OWNERS,
    TARGET_FORMS,
    attached_reference,
    kind_among,
    known_description,
    total_limit,
)
from carddb.engine.query.replacing import (
    chosen_source,
    counters_instead_of_damage,
    dies_this_turn_instead,
    doubles_tokens,
    gains_more_instead,
    modified_damage,
    next_time_prevention,
    put_instead,
    redirected_damage,
    would_condition,
)
from carddb.engine.query.tree import children, instead_of
from carddb.oracle.model import (
    ENTERING,
    Ability,
    Action,
    Casting,
    Clause,
    Conditional,
    Count,
    Keyword,
    Kind,
    ManaCost,
    Noun,
    Nouns,
    Number,
    ParsedFace,
    Pronoun,
    RollDie,
    SameSubject,
    SelfRef,
    Sequence,
    TargetKind,
    Unimplemented,
    Var,
    X,
    walk,
)
from carddb.oracle.phrases import find
from carddb.oracle.targets import number_targets

EXECUTABLE_KINDS = {Kind.SPELL, Kind.ACTIVATED, Kind.MANA, Kind.TRIGGERED, Kind.LOYALTY}
ZONE_OWNERS = {
    "your", "its owner's", "their owner's", "their owners'", "its controller's", "their", "that player's",
    "an opponent's", "each opponent's", "a player's", "each player's", None, "target player's",
    "target opponent's", "all",
}  # fmt: skip
"""Whose zones a ``zone`` phrase may name (:func:`carddb.engine.query.nouns.zone_owners` knows them)."""
SUPPORTED_CONDITIONALS = {
    "if", "unless", "where X is", "then", "at", "may", "until end of turn", "otherwise", "for each",
}  # fmt: skip
DELAYED = {
    ("beginning", "next_end_step"), ("beginning", "next_turns_upkeep"), ("beginning", "your_next_upkeep"),
    ("beginning", "end_of_combat"), ("end_of_combat", "end_of_combat"),
}  # fmt: skip
"""The moments a delayed triggered ability may wait for: the next end step, the next turn's upkeep,
your next upkeep, the end of combat."""
POSSESSORS = {"its", "~'s", "enchanted creature's", "equipped creature's", "the discarded card's"}
"""Whose power, toughness or mana value a phrase may read (``{whose:poss}`` of a stat phrase)."""
TARGET_POSSESSING = frozenset({"switch_pt", "deal_damage_equal", "gain_life_equal", "lose_life_equal"})
"""Verbs that also read a target's ("target creature's power"): the target chosen for the
possessive's slot (``effects.common.possessor``)."""
ADDITIVE = {
    "gets", "gain_life", "lose_life", "draw", "deal_damage", "create_creature_token", "put_counters",
    "mill", "add_mana", "scry", "surveil", "discard", "sacrifice", "return_from", "create_token",
    "remove_counters",
}  # fmt: skip
"""Verbs that "for each X" may repeat: doing them N times is doing them once N-fold."""
SUPPORTED_DURATIONS: frozenset[object] = frozenset({"until end of turn", "this turn"})
UNTIL_END_OF_TURN = {
    "gets", "gains", "cant_block", "cant_attack", "cant_be_blocked", "gain_control", "prevent_next_damage",
    "prevent_all_damage", "has_ability", "cant_be_regenerated", "gets_each", "loses", "has_base_pt",
    "is_a_creature", "becomes", "switch_pt", "attacks", "block", "assigns_no_combat_damage",
}  # fmt: skip
"""The verbs whose handlers last until end of turn: the only ones a duration may go with (those
that change characteristics are layer effects that end at cleanup, :mod:`carddb.engine.rules.layers`)."""

INSTANTANEOUS = frozenset({"untap", "tap", "put_counters", "create_creature_token"})
"""Verbs of one-shot effects, which no duration changes: beside a verb whose effect lasts, the
clause's duration is that one's ("Untap target creature and gain control of it until end of
turn", "put a +1/+1 counter on ~ and prevent all damage that would be dealt to it this turn")."""


def lasts_until_end_of_turn(clause: Clause) -> bool:
    """Whether a clause with a duration says what the engine makes last until end of turn: every
    predicate is a verb whose handler lasts until end of turn — a player's "you may …", "you may
    have target creature get +2/+0 …" read by the verb it wraps; a clause of its own joined to it
    ("… get +1/+1 and creatures your opponents control get -1/-1") by its verbs — or a one-shot
    beside one."""
    verbs = _duration_verbs(clause)
    lasting = verbs & UNTIL_END_OF_TURN if verbs is not None else set()
    return verbs is not None and bool(lasting) and verbs - lasting <= INSTANTANEOUS


def _duration_verbs(clause: Clause) -> set[str] | None:
    """The verbs a clause's duration applies to (None: a predicate that is no verb, or a joined
    clause with a duration of its own)."""
    verbs: set[str] = set()
    for predicate in clause.predicates:
        if isinstance(predicate, Clause):
            inner_verbs = _duration_verbs(predicate) if predicate.duration is None else None
            if inner_verbs is None:
                return None
            verbs |= inner_verbs
            continue
        if not isinstance(predicate, Action):
            return None
        inner = predicate.arg("action") if predicate.verb in ("may", "may_have") else predicate
        if not isinstance(inner, Action):
            return None
        verbs.add(inner.verb)
    return verbs


UNBOUND_COUNTS = frozenset({"that many", "twice that many"})
"""Determiners whose number comes from an earlier step ("that many"), which is not carried over."""


def joined_spell(abilities: tuple[Ability, ...]) -> Ability | None:
    """An instant's or sorcery's spell ability: its spell lines joined, in order, as it resolves
    (608.2c: "Morbid — ~ deals 5 damage instead if …" is read with the line before it); the
    target slots numbered again in text order when several lines have some (None: no spell line)."""
    spells = [a for a in abilities if a.kind is Kind.SPELL and additional_cost(a) is None]
    if len(spells) <= 1:
        return spells[0] if spells else None
    effects = tuple(step for ability in spells for step in ability.effects)
    restrictions = tuple(r for ability in spells for r in ability.restrictions)  # "Cast this spell only …"
    targeting = [ability for ability in spells if ability.targets]
    if len(targeting) <= 1:  # its slots stay as they are
        targets = targeting[0].targets if targeting else ()
    else:
        effects, targets = number_targets(effects, spell=True)
    return Ability(Kind.SPELL, spells[0].span, effects=effects, targets=targets, restrictions=restrictions)


def functions_from_graveyard(ability: Ability) -> bool:
    """A triggered ability that works while its card is in a graveyard, not on the battlefield:
    its effect moves the card out of the graveyard ("return ~ from your graveyard to your hand",
    113.6m) or its "if" says the card is there ("if ~ is in your graveyard", 113.6b)."""
    if ability.kind is not Kind.TRIGGERED:
        return False
    parts = [*ability.effects, *([ability.intervening_if] if ability.intervening_if is not None else [])]
    return any(itself_in_graveyard(part) for part in parts)


COMMAND_ZONE_TYPES = frozenset({"Vanguard"})
"""Card types whose abilities work from the command zone (113.6p; 902: a vanguard's abilities, its
hand and life modifiers), which the engine does not play: a face of one is refused whole."""


PLAYED_TYPES = frozenset({
    "Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker", "Sorcery",
    "Tribal", "Plane", "Phenomenon",
})  # fmt: skip
"""The card types of the cards the engine plays: 205.2a's (Tribal as the 2022 cards write Kindred)
and Planechase's planar cards (901). A face with none of them (a Theros "Hero", a Conspiracy, a
Dungeon) is refused whole: no rule of the engine's says how it is played."""


def type_problems(type_line: str | None) -> list[str]:
    """What a face's type line alone keeps from executing (empty: nothing)."""
    types = set((type_line or "").partition("—")[0].split())
    problems = [
        f"{kind.lower()} card (abilities in the command zone, 113.6p)"
        for kind in sorted(types & COMMAND_ZONE_TYPES)
    ]
    if type_line is not None and not types & (PLAYED_TYPES | COMMAND_ZONE_TYPES):
        problems.append(f"a card of no type the engine plays ({type_line})")
    return problems


def face_missing(face: ParsedFace, catalog: Catalog, type_line: str | None = None) -> list[str]:
    """What keeps a whole face from executing: every ability must (empty: it does); an instant's
    or sorcery's spell lines are one spell ability, as they are cast (:func:`joined_spell`); a
    face of a type the engine does not play (:func:`type_problems`) does not."""
    problems: list[str] = type_problems(type_line)
    spell = joined_spell(face.abilities)
    lines = [a for a in face.abilities if a.kind is Kind.SPELL and additional_cost(a) is None]
    abilities = [a for a in face.abilities if not any(a is line for line in lines)]
    for ability in [*([spell] if spell is not None else []), *abilities]:
        for problem in missing(ability, catalog):
            if problem not in problems:
                problems.append(problem)
    return problems


USED_KINDS = frozenset({Kind.SPELL, Kind.ACTIVATED, Kind.MANA, Kind.LOYALTY, Kind.CASTING})
"""Abilities that do something only when a player uses them: refused then (casting, activating),
like every ability, when :func:`missing` names a part of them."""


USED_KEYWORDS = frozenset({
    "flashback", "cycling", "equip", "kicker", "multikicker", "buyback", "entwine", "escape", "unearth",
    "embalm", "eternalize", "ninjutsu", "foretell", "overload", "spectacle", "surge", "emerge", "evoke",
    "dash", "blitz", "prowl", "transmute", "scavenge", "outlast", "level up", "reinforce", "channel",
    "bloodrush", "forecast", "retrace", "jump-start", "awaken", "disturb", "encore", "replicate",
    "splice", "fortify", "reconfigure", "boast", "plainscycling", "islandcycling", "swampcycling",
    "mountaincycling", "forestcycling", "landcycling", "basic landcycling", "typecycling", "morph",
    "megamorph", "craft", "bargain", "offspring", "squad", "mobilize", "specialize",
})  # fmt: skip
"""Keywords that give a player a choice when they cast or activate something (an alternative or
additional cost, an ability activated from a hand or graveyard): they change nothing until used,
and using them is refused as long as :func:`missing` names them (702.34 flashback, 702.33 kicker…)."""


def _used_only(ability: Ability) -> bool:
    if ability.kind in USED_KINDS:
        return True
    return ability.kind is Kind.KEYWORD and all(
        keyword.name.lower().split(" {")[0] in USED_KEYWORDS for keyword in ability.keywords
    )


def card_missing(card: CardDef, catalog: Catalog) -> list[str]:
    """What keeps a card from being in a game honestly: every ability on it that the rules apply
    by themselves, whether or not anybody asks (static, triggered, replacement, keyword: ward,
    madness, dredge…), must be in the catalog. A Class has the abilities before its first level
    line (leveling up is an activated ability, refused when used). A card of several faces has
    those of each face it can show (:func:`carddb.engine.query.faces.unreachable`): a modal
    card's back face, a transforming card's. Empty: nothing is missing."""
    problems: list[str] = type_problems(card.type_line)
    for ability in card.abilities:
        if ability.kind is Kind.LEVEL and "Class" in card.subtypes:
            break
        if _used_only(ability):
            continue
        for problem in missing(ability, catalog):
            if problem not in problems:
                problems.append(problem)
    for index, face in enumerate(card.faces):
        if unreachable(card.layout, index) is None:
            problems.extend(p for p in card_missing(face, catalog) if p not in problems)
    return problems


def check_object(obj: GameObject, catalog: Catalog) -> None:
    """Refuse an object with an ability nobody executes (:class:`NotExecutableError`), when a game
    is set up and whenever an object comes into it."""
    problems = card_missing(obj.card, catalog)
    if problems:
        raise NotExecutableError(obj.name, problems)


def additional_cost(ability: Ability) -> Action | None:
    """The cost of "As an additional cost to cast this spell, sacrifice a creature." (601.2b): a
    line that declares a cost of the spell it is on, not an effect (None: not such a line)."""
    if ability.kind not in (Kind.CASTING, Kind.SPELL, Kind.STATIC) or len(ability.effects) != 1:
        return None
    step = ability.effects[0]
    if not isinstance(step, Clause) or len(step.predicates) != 1:
        return None
    predicate = step.predicates[0]
    if not isinstance(predicate, Action) or predicate.verb != "additional_cost":
        return None
    cost = predicate.arg("cost")
    if not is_form(predicate, "cost"):  # "you may …", "… or …": a choice the engine does not offer
        return None
    return cost if isinstance(predicate.arg("what"), SelfRef) and isinstance(cost, Action) else None


def missing(ability: Ability, catalog: Catalog) -> list[str]:
    """The parts of ``ability`` the engine cannot execute (empty: it executes entirely)."""
    ability = stands_for(ability)  # "Prowess": the triggered ability the keyword stands for
    cost = additional_cost(ability)
    if cost is not None:  # paid as the spell is cast (the cost phrase itself is checked as a cost)
        return [] if cost.verb in catalog.costs else [f"cost {cost.verb!r}"]
    problems: list[str] = []
    if ability.kind is Kind.KEYWORD:
        return [p for k in ability.keywords for p in _keyword_problems(k, catalog)] + _keyword_sentences(
            ability, catalog
        )
    if ability.kind is Kind.STATIC and any(applies(ability) for applies in catalog.static_abilities):
        return []  # a static ability a part of the engine applies as a whole (play from the top)
    entering = _says_how_it_enters(ability)
    if ability.kind is Kind.STATIC or entering:
        problems.extend(_static_problems(ability, catalog))
    elif ability.kind is Kind.REPLACEMENT:
        exiled = exiled_instead(ability)
        if exiled is not None:  # rules.instead applies it, to what its noun phrase describes
            return _described_problems(exiled[1], catalog)
        if gains_more_instead(ability) is not None:
            return []  # rules.life_gain applies it
        if redirected_damage(ability) is not None or counters_instead_of_damage(ability) is not None:
            return []  # rules.modified_damage applies it
        if doubles_tokens(ability):
            return []  # rules.doubling applies it
        damage = modified_damage(ability)
        if damage is not None:  # rules.modified_damage applies it, to what its phrases describe
            condition = damage[0]
            return _described_problems((condition.arg("what"), condition.arg("to")), catalog)
        if entering_choice(ability) is not None:
            return []  # rules.choices makes the choice as the permanent enters
        verbs = {n.verb for step in ability.effects for n in walk(step) if isinstance(n, Action)}
        if not verbs & catalog.replacements:
            return ["replacement effect"]
        return []  # applied as a whole where its event happens (the catalog's replacements)
    elif ability.kind is Kind.LEVEL:
        level = level_symbol_problem(ability)
        if level is not None:
            problems.append(level)
    elif ability.kind is Kind.CASTING:
        casting = casting_problem(ability, catalog)
        if casting is not None:
            problems.append(casting)
    elif ability.kind not in EXECUTABLE_KINDS and ability.kind.value not in catalog.ability_kinds:
        problems.append(f"{ability.kind.value} ability")
    if ability.choose and not ability.modes:
        problems.append("modes")
    if ability.choose and not ability.choose.lower().startswith("choose"):  # "An opponent chooses one —"
        problems.append(f"modes chosen by another player ({ability.choose!r})")
    instead = {  # "…, it deals 10 damage divided … instead": its targets are not the spell's own then
        id(inner)
        for n in nodes_of(ability)
        if isinstance(n, Action) and n.verb == "instead"
        for inner in walk(n)
    }
    divided_damage = {  # 601.2d: the damage divided as it is put on the stack (rules.targets.divide)
        n.slot
        for n in nodes_of(ability)
        if isinstance(n, Action) and n.verb == "deal_damage_divided" and id(n) not in instead
    }
    for slot in ability.targets:  # the grammar's target slots (115, 601.2c-d)
        if slot.divided and slot.slot in divided_damage and not slot.variable and not slot.reflexive:
            continue
        if slot.divided or slot.variable:  # a reflexive or delayed one's: chosen as it triggers
            kind = "divided" if slot.divided else "X"
            problems.append(f"{kind} target {slot.description!r}")
        elif slot.reflexive and (slot.min, slot.max) != (1, 1):  # chosen as it triggers: one each
            problems.append(f"reflexive target {slot.description!r} of {slot.min}–{slot.max or 'any'}")
    if ability.kind is Kind.TRIGGERED:
        trigger = ability.trigger
        if not (isinstance(trigger, Action) and trigger.verb in catalog.triggers):
            verb = trigger.verb if isinstance(trigger, Action) else "?"
            problems.append(f"trigger {verb!r}")
        else:
            forms = catalog.triggers[trigger.verb][1]
            check = catalog.checks.get(trigger.verb)
            found = check(trigger, catalog) if check is not None else None
            if forms is not None and trigger.form_name not in forms:
                problems.append(f"trigger {trigger.verb!r} form {trigger.form_name or trigger.form}")
            elif found is not None:
                problems.append(found)
    for item in ability.cost:
        if isinstance(item, Action) and item.verb not in catalog.costs:
            problems.append(f"cost {item.verb!r}")
        elif isinstance(item, Action) and any(_names_spells(n) for n in walk(item)):
            # "Exile an instant or sorcery spell you control:": costs are paid from the battlefield,
            # a hand or a graveyard, never from the stack
            problems.append(f"cost {item.verb!r} of a spell on the stack")
    roots: list[object] = [*ability.unparsed, *ability.effects, *ability.cost, *ability.restrictions]
    if isinstance(ability.trigger, Action):
        roots.extend(v for _, v in ability.trigger.args)
    if ability.intervening_if is not None:  # 603.4: evaluated as the event happens and on resolution
        roots.append(ability.intervening_if)
    roots.extend(mode.effects for mode in ability.modes)
    static = ability.kind is Kind.STATIC or entering
    nodes = [node for root in roots for node in walk(root)]
    in_trigger = (
        {id(node) for _, v in ability.trigger.args for node in walk(v)}
        if isinstance(ability.trigger, Action)
        else set()
    )
    in_trigger |= {id(node) for node in walk(ability.intervening_if)}  # read before targets are chosen
    if any(isinstance(n, Action) and n.verb in ("this_way", "done_this_way") for n in nodes) and any(
        isinstance(item, Action) for item in ability.cost
    ):  # "cards exiled this way" after a cost that exiled: what the cost did is not carried over
        problems.append("'this way' of a cost")
    exiled_by_cost = any(isinstance(item, Action) and item.verb == "exile" for item in ability.cost)
    if exiled_by_cost and any(isinstance(n, Noun) and n.description.startswith("exiled ") for n in nodes):
        problems.append("'the exiled card' of a cost")  # the cost's exile is not linked (607.2a)
    looks = any(
        isinstance(n, Action)
        and (
            # "… reveals their hand. … from it.", "… until you reveal a creature card. … the rest …"
            n.verb in ("look_at", "reveal_hand", "look_at_hand", "reveal_until")
            or (n.verb == "reveal" and isinstance(n.arg("what"), Action))
        )
        for n in nodes
    )
    for node in nodes:  # "the rest", "from among them": the cards an earlier step looked at
        among = isinstance(node, Action) and node.verb == "in_zone" and node.form_name in AMONG_LOOKED
        if not looks and (among or (isinstance(node, Pronoun) and node.word == "the rest")):
            problems.append("pronoun 'the rest'" if not among else "'from among them' with nothing looked at")
    asks = any(
        (isinstance(n, Conditional) and n.word == "may")
        or (isinstance(n, Action) and n.verb in ("may", "may_have"))
        for n in nodes
    )
    if not asks and any(isinstance(n, Action) and n.verb in ("player_did", "player_did_not") for n in nodes):
        problems.append("'if … does' with no choice before it")
    problems.extend(p for p in _flip_problems(ability, nodes) if p not in problems)
    if not _otherwise_follows_if(ability):
        problems.append("'otherwise' clause")
    if _after_for_each(list(ability.effects)) or any(_after_for_each(list(m.effects)) for m in ability.modes):
        problems.append("'those' after a 'for each' clause")
    problems.extend(p for p in _choice_problems(nodes) if p not in problems)
    if not static:
        problems.extend(p for p in _where_x_problems(ability, nodes) if p not in problems)
    slots = [*ability.targets, *(slot for mode in ability.modes for slot in mode.targets)]
    untargeted = all(slot.kind is TargetKind.PLAYER for slot in slots)
    if ability.kind is Kind.SPELL and untargeted and any(_other_than_named(node) for node in nodes):
        problems.append("'other' in a spell without a target (other than what it named before)")
    read_with = _instead_sentences(ability)
    for node in nodes:
        if isinstance(node, Conditional) and would_condition(node.condition):
            if dies_this_turn_instead(node) is None:  # what a created replacement effect watches for
                assert isinstance(node.condition, Action)
                refused = f"cond {node.condition.verb!r}"
                if node.condition.verb in catalog.conditions and refused not in problems:
                    problems.append(refused)
            else:  # rules.lasting creates the effect ("If that creature would die this turn, …")
                assert isinstance(node.body, Clause)
                read_with.add(id(node.body.predicates[0]))
        if isinstance(node, Action) and node.verb == "deal_that_much_damage" and not _counts_event(ability):
            problems.append("'that much' with no event amount")
        if isinstance(node, Action) and node.verb == "instead" and id(node) not in read_with:
            problems.append("pred 'instead'")  # one the engine does not read with its step
        problem = _controller_problem(node, static, id(node) in in_trigger)
        if problem and problem not in problems:
            problems.append(problem)
    if not static:
        for problem in _antecedent_problems(ability, catalog):
            if problem not in problems:
                problems.append(problem)
    # a delayed ability's moment is checked as such (DELAYED), not as a condition to evaluate
    moments = {id(n.condition) for n in nodes if isinstance(n, Conditional) and n.word == "at"}
    read_by_verb = _read_by_their_verb(nodes)
    moments |= _target_of(ability)  # "becomes the target of a spell or ability": the trigger reads it
    that_spell = any(
        isinstance(n, Noun) and "that" in n.determiners and "spell" in n.description for n in nodes
    )
    if that_spell and _trigger_verb(ability) == "becomes_target":  # not told apart from what it targets
        problems.append("'that spell' of the spell or ability that targets")
    leaving = ability.trigger if _trigger_verb(ability) == "leaves" else None
    to = leaving.arg("to") if isinstance(leaving, Action) and is_form(leaving, "to_zone") else None
    if isinstance(to, Action) and to.arg("owner") not in LEAVING_ZONE_OWNERS:
        problems.append(f"a trigger on a card put into {to.arg('owner')} {to.arg('zone')}")
    moments |= _paid_totals(ability)  # "with total power N or greater" of a tap cost: the cost reads it
    moments |= revealed_from_top(nodes)  # "reveals cards from the top of their library until …"
    if any(isinstance(n, Action) and n.verb == "reveal_until" for n in nodes) and any(
        isinstance(n, Noun)
        and (
            "other" in n.description.lower().split()
            or n.determiners == ("the",)
            or (
                bool({"that", "those"} & set(n.determiners))
                and not {"card", "cards", "player", "opponent"} & set(n.description.split())
            )
        )
        for n in nodes
    ):  # "… and all other cards revealed this way into your graveyard" (other than that card), "the
        # creature card", "that creature": the revealed cards would be named, not what is meant
        problems.append("'other cards revealed this way' or 'that …' after a reveal")
    moments |= same_subjects(nodes)  # "~ gets +2/+0 until end of turn and deals 1 damage to you"
    moments |= _listed_costs(ability)  # "Sacrifice a creature and a Swamp": paid item by item
    moments |= color_choices(nodes)  # "becomes the color of your choice": chosen as it resolves
    moments |= counted_kinds(nodes)  # "for each basic land type among lands you control": counted
    rolled = any(isinstance(n, RollDie) or (isinstance(n, Action) and "roll" in n.verb) for n in nodes)
    unbound = [n for n in nodes if isinstance(n, Action) and n.verb == "counters"]
    unbound = [n for n in unbound if isinstance(n, Action) and n.arg("determiner") in UNBOUND_COUNTS]
    if unbound and not rolled and not _counts_event(ability):  # "Put that many +1/+1 counters on ~"
        problems.append("'that many' counters with no amount before them")
    random = _random_discards(nodes)  # "discards a card at random": the discard reads it
    counted_before = _moved_before(ability, nodes)  # "Discard any number of cards, then draw that many …"
    for node in nodes:  # nothing else chooses at random
        if isinstance(node, Action) and node.verb == "at_random" and id(node) not in random:
            problems.extend(p for p in ["'at random'"] if p not in problems)
        what = node.arg("what") if isinstance(node, Action) and node.verb == "discard" else None
        if isinstance(what, Noun) and any(q.verb != "at_random" for q in what.qualifiers):
            problems.extend(p for p in ["discard with a qualifier"] if p not in problems)
    for root in roots:
        for node in walk(root):
            if static and isinstance(node, Conditional) and node.word == "as long as":
                continue
            if id(node) in moments or id(node) in read_by_verb:
                continue
            problem = _problem(node, catalog, static)
            if problem == "'that many'" and (_counts_event(ability) or id(node) in counted_before):
                continue  # the amount of the event that triggered it, or the cards the step before moved
            if problem and problem not in problems:
                problems.append(problem)
    return problems


COUNTING = frozenset({
    "number_of", "there_are_count", "gets_for_each", "gain_life_for_each", "lose_life_for_each",
    "costs_for_each",
})  # fmt: skip
"""The phrases whose ``what`` is counted (:func:`carddb.engine.query.nouns.count`)."""


WHERE_X_VALUES = frozenset({"the_result", "total_of_results", "number_of", "number_of_player_counters"})
"""The values "where X is …" of a resolving ability reads (``rules.execution``, ``nouns.value``),
besides numbers, "cards in your hand" and the possessives of :data:`STAT_OWNERS`."""
SOURCE_GONE_TRIGGERS = ("dies", "leaves", "graveyard")
"""Words of the trigger verbs whose ability resolves with its source gone ("When ~ dies")."""


def _names_spells(node: object) -> bool:
    return isinstance(node, Noun) and any(w in ("spell", "spells") for w in node.description.split())


def _other_than_named(node: object) -> bool:
    """ "Zombies you control get +2/+1 until end of turn. Other creatures you control get +1/+1":
    in a spell, "other" means other than what it named before; the engine reads other than the
    spell's targets (``nouns._other_than``), so a spell without one is refused; not "another
    target" (a different target), "each other player" (other than you) nor "all other … with the
    same name as that …" (which names what it is other than too)."""
    if not isinstance(node, Noun) or node.targeted or _names_players(node):
        return False
    other = bool(OTHER_DETERMINERS & set(node.determiners)) or "other" in node.description.lower().split()
    return other and not any(q.verb == "with_name" for q in node.qualifiers)


def _names_players(noun: Noun) -> bool:
    return all(a.split()[-1].rstrip("s") in ("player", "opponent") for a in noun.alternatives if a)


def _where_x_problems(ability: Ability, nodes: list[object]) -> list[str]:
    """The "where X is …" of a spell, activated or triggered ability whose value the engine cannot
    read as it resolves: "where X is the toughness of the card returned this way", "its power"
    (608.2h); "~'s power" only while ~ is on the battlefield (none is kept when it has left)."""
    problems: list[str] = []
    for node in nodes:
        if not (isinstance(node, Conditional) and node.word == "where X is"):
            continue
        value = node.condition
        if _where_x_read(ability, value):
            continue
        problems.append(f"where X is {_shown(value)!r}")
    return problems


def _where_x_read(ability: Ability, value: object) -> bool:
    if isinstance(value, Number | X | Var):
        return True
    if isinstance(value, Count):
        return value.what == "cards in your hand"
    if not isinstance(value, Action):
        return False
    if value.verb == "stat_of":
        owner = value.arg("owner")
        return owner in STAT_OWNERS and (owner != SELF_POSSESSIVE or not _source_gone(ability))
    if value.verb == "number_of_counters":  # "the number of charge counters on ~" (nouns.value)
        return not (isinstance(value.arg("what"), SelfRef) and _source_gone(ability))
    return value.verb in WHERE_X_VALUES


def _shown(value: object) -> str:
    if isinstance(value, Action) and value.verb == "stat_of":
        return f"{value.arg('owner')} {value.arg('stat')}"
    if isinstance(value, Action):
        return written(value) or value.verb
    return str(value)


def _source_gone(ability: Ability) -> bool:
    """Whether ``ability`` resolves after its source has left the battlefield: it triggers on its
    leaving, or its cost moves it ("Sacrifice ~: …")."""
    trigger = ability.trigger
    if isinstance(trigger, Action) and any(word in trigger.verb for word in SOURCE_GONE_TRIGGERS):
        return True
    moved = [item for item in ability.cost if isinstance(item, Action)]
    return any(isinstance(arg, SelfRef) for item in moved for _, arg in item.args)


def counted_kinds(nodes: list[object]) -> set[int]:
    """The "card types among cards in your graveyard" of a count ("for each …", "the number of …",
    "there are four or more …", :data:`COUNTING`): the phrase and its "among" are read by the count
    (:func:`carddb.engine.query.nouns.kind_among`); the noun after "among" is checked as any noun.
    Anywhere else such a phrase is refused."""
    found: set[int] = set()
    for node in nodes:
        counted: object = None
        if isinstance(node, Clause):
            counted = node.for_each
        elif isinstance(node, Action) and node.verb in COUNTING:
            counted = node.arg("what")
        if kind_among(counted) is not None:
            assert isinstance(counted, Noun)
            found |= {id(counted), id(counted.qualifiers[0])}
    return found


_LEVEL_PT = re.compile(r"\d+/\d+")


def level_symbol_problem(ability: Ability) -> str | None:
    """A leveler's level line ("LEVEL 2-3") or its P/T box ("2/2"): read by the layers (None), or
    refused (a Class's level, "{2}{W}: Level 2", is an activated ability the engine does not apply)."""
    if ability.level is None or level_range(ability.level) is None or ability.effects or ability.cost:
        return "level ability"
    if ability.pt is not None and not _LEVEL_PT.fullmatch(ability.pt):
        return "level ability"
    return None


def nodes_of(ability: Ability) -> list[object]:
    """Every node of an ability's effects and modes."""
    return [node for root in (*ability.effects, *(m.effects for m in ability.modes)) for node in walk(root)]


def _read_by_their_verb(nodes: list[object]) -> set[int]:
    """Phrases a verb's handler reads itself, not through the catalog: the condition, the
    prevention and the "of your choice" of "The next time a red source of your choice would deal
    damage to you this turn, prevent that damage." (``effects.damage.next_time``)."""
    found: set[int] = set()
    for node in nodes:
        condition = next_time_prevention(node)
        if condition is not None and isinstance(node, Action):
            found |= {id(condition), id(node.arg("action")), id(chosen_source(condition.arg("what")))}
    return found


def _flip_problems(ability: Ability, nodes: list[object]) -> list[str]:
    """ "If you win the flip" is read as a sentence after the ability's "Flip a coin." (705,
    ``effects.coins``): anywhere else — no flip before it, a flip at a later moment ("Flip a coin at
    the beginning of the next end step. If you lose the flip, …"), a coin flip in a trigger — it
    would read no flip."""
    read: set[int] = set()
    for steps in (ability.effects, *(mode.effects for mode in ability.modes)):
        flipped = False
        for step in steps:
            if isinstance(step, Clause) and any(_flips(p) for p in step.predicates):
                flipped = True
            elif flipped and isinstance(step, Conditional) and step.word == "if":
                read.add(id(step.condition))
    flips = [n for n in nodes if isinstance(n, Action) and n.verb == "coin_flip"]
    return ["a coin flip's result with no flip before it"] if any(id(n) not in read for n in flips) else []


def _flips(predicate: object) -> bool:
    if isinstance(predicate, Action) and predicate.verb == "may":
        predicate = predicate.arg("action")
    return isinstance(predicate, Action) and predicate.verb == "flip_coin"


def _trigger_verb(ability: Ability) -> str | None:
    return ability.trigger.verb if isinstance(ability.trigger, Action) else None


def _target_of(ability: Ability) -> set[int]:
    """The "a spell or ability" of "Whenever ~ becomes the target of a spell or ability": the trigger
    reads it (``rules.targeted``: of an ability, only who controls it; its qualifiers are walked)."""
    trigger = ability.trigger
    by = trigger.arg("by") if isinstance(trigger, Action) and trigger.verb == "becomes_target" else None
    return {id(by)} if isinstance(by, Noun) and by.description == "spell or ability" else set()


LEAVING_ZONE_OWNERS = frozenset({
    "your", "an opponent's", "each opponent's", None, "a player's", "each player's", "all", "its owner's",
    "their owner's", "their owners'",
})  # fmt: skip
"""Whose zone "Whenever a creature is put into [whose] graveyard from the battlefield" may name: the
trigger checks the card's owner (``rules.triggers``: a card goes to its owner's zone, 400.3)."""

TAP_TOTAL_POWER = "with_total_power"


def _paid_totals(ability: Ability) -> set[int]:
    """The "with total power N or greater" qualifiers of "Tap any number of untapped creatures you
    control with total power N or greater" costs (crew): the tap cost pays them itself
    (``rules.costs``); anywhere else the qualifier is refused."""
    found: set[int] = set()
    for item in ability.cost:
        what = item.arg("what") if isinstance(item, Action) and item.verb == "tap" else None
        if isinstance(what, Noun) and what.determiners == ("any number of",):
            found.update(id(q) for q in what.qualifiers if q.verb == TAP_TOTAL_POWER)
    return found


LISTED_COSTS = frozenset({"sacrifice"})
"""Cost phrases whose payer takes a list, one object for each item (``rules.costs``)."""


def revealed_from_top(nodes: list[object]) -> set[int]:
    """The "from the top of their library" of "reveals cards from the top of their library until
    they reveal a land card": the reveal reads it (``effects.cards.reveal_until``)."""
    found: set[int] = set()
    for node in nodes:
        what = node.arg("what") if isinstance(node, Action) and node.verb == "reveal_until" else None
        if isinstance(what, Noun) and what.description == "cards" and len(what.qualifiers) == 1:
            found.add(id(what.qualifiers[0]))
    return found


def same_subjects(nodes: list[object]) -> set[int]:
    """The subjects not written again ("… gains haste until end of turn and can't be blocked this
    turn") that follow a clause with a subject in their sequence: ``rules.execution`` reads that
    subject for them."""
    found: set[int] = set()
    for node in nodes:
        if not isinstance(node, Sequence):
            continue
        named = False
        for step in node.steps:
            if isinstance(step, Clause) and isinstance(step.subject, SameSubject) and named:
                found.add(id(step.subject))
            named = named or (isinstance(step, Clause) and step.subject is not None)
    return found


def and_list(joins: tuple[str, ...]) -> bool:
    """ "A and B", "A, B, and C": a list every item of which counts (not "or", "and/or")."""
    return bool(joins) and joins[-1].strip(" ,") == "and" and all(j.strip(" ,") in ("", "and") for j in joins)


def _listed_costs(ability: Ability) -> set[int]:
    """ "Sacrifice a green creature, a white creature, and a blue creature" as a cost: a list of
    single objects joined by "and", each paid by a different object (the items are checked as
    any noun)."""
    found: set[int] = set()
    for item in ability.cost:
        what = item.arg("what") if isinstance(item, Action) and item.verb in LISTED_COSTS else None
        if not isinstance(what, Nouns) or what.qualifiers:
            continue
        single = all(isinstance(n, Noun) and n.determiners in (("a",), ("an",)) for n in what.items)
        if single and and_list(what.joins):
            found.add(id(item))
    return found


MOVING = frozenset({"discard", "put_into_library", "sacrifice", "exile"})
"""Verbs whose step moves cards, which a "that many" in the step after counts (``nouns.MOVED``)."""


def _moved_before(ability: Ability, nodes: list[object]) -> set[int]:
    """The "that many" nouns of a step right after one that moves cards, done by one player ("you",
    "target player", "that player"; not "each player", whose counts are not kept apart): "Discard any
    number of cards, then draw that many cards", "Sacrifice any number of lands. Search your library
    for up to that many land cards …"."""
    found: set[int] = set()
    sequences = [list(ability.effects), *(list(m.effects) for m in ability.modes)]
    sequences += [list(n.steps) for n in nodes if isinstance(n, Sequence)]
    for steps in sequences:
        for before, step in pairwise(steps):
            if not _moves_for_one(before):
                continue
            found.update(id(n) for n in walk(step) if isinstance(n, Noun) and "that many" in n.determiners)
    return found


def _moves_for_one(step: object) -> bool:
    if isinstance(step, Conditional) and step.word == "may":
        step = step.body
    if not isinstance(step, Clause) or not step.predicates:
        return False
    subject = step.subject
    several = isinstance(subject, Noun) and (
        bool({"each", "all"} & set(subject.determiners)) or subject.description.endswith("s")
    )
    if several or isinstance(subject, Nouns | SameSubject):
        return False
    verbs = set()
    for predicate in step.predicates:
        may = isinstance(predicate, Action) and predicate.verb == "may"
        inner = predicate.arg("action") if may and isinstance(predicate, Action) else predicate
        if not isinstance(inner, Action):
            return False
        verbs.add(inner.verb)
    return verbs <= MOVING


def _random_discards(nodes: list[object]) -> set[int]:
    """The "at random" of "discards two cards at random" (an effect or a cost): the discard reads it."""
    found: set[int] = set()
    for node in nodes:
        what = node.arg("what") if isinstance(node, Action) and node.verb == "discard" else None
        if isinstance(what, Noun):
            found.update(id(q) for q in what.qualifiers if q.verb == "at_random")
    return found


def _choice_problems(nodes: list[object]) -> list[str]:
    """Who chooses ("Target opponent chooses a creature they control") must be one player the
    engine knows — you or a target player; not "an opponent" (which one?) nor "each opponent"
    (what "those cards" names then is not kept per player) —, and "other" after a choice
    means other than the chosen one ("Choose a creature, then destroy all other creatures"), which
    the engine does not read."""
    clauses = [
        n for n in nodes
        if isinstance(n, Clause) and any(isinstance(p, Action) and p.verb == "choose" for p in n.predicates)
    ]  # fmt: skip
    if not clauses:
        return []
    problems: list[str] = []
    for clause in clauses:
        subject = clause.subject
        single = subject is None or (isinstance(subject, Pronoun) and subject.word == "you")
        single = single or (isinstance(subject, Noun) and subject.determiners == ("target",))
        if not single:
            problems.append("who chooses")
    if any(isinstance(n, Noun) and "other" in n.description.lower().split() for n in nodes):
        problems.append("'other' after a choice")
    return problems


def _instead_sentences(ability: Ability) -> set[int]:
    """The "If …, … instead." sentences read with the step before them (``query.tree.instead_of``)."""
    found: set[int] = set()
    sequences = [list(ability.effects), *([*ability.effects, *mode.effects] for mode in ability.modes)]
    for steps in sequences:
        for step, following in pairwise(steps):
            if instead_of(step, following) is not None:
                assert isinstance(following, Conditional) and isinstance(following.body, Clause)
                found.add(id(following.body.predicates[0]))
    return found


COST_CHANGES = frozenset({"costs_less", "costs_more", "costs_for_each"})
"""The phrases of a spell's own cost change ("This spell costs {1} less to cast …")."""
AMOUNT_TRIGGERS = frozenset({"deals_damage", "is_dealt_damage", "gains_life_trigger", "loses_life_trigger"})
"""Trigger events with an amount ("deals damage", "gain life", "lose life") that "that many" reads."""


def _counts_event(ability: Ability) -> bool:
    trigger = ability.trigger
    return ability.kind is Kind.TRIGGERED and isinstance(trigger, Action) and trigger.verb in AMOUNT_TRIGGERS


def _otherwise_follows_if(ability: Ability) -> bool:
    """Every "Otherwise, …" sentence comes right after an "If …, …" one (whose result it reads)."""
    for steps in [list(ability.effects), *([*ability.effects, *m.effects] for m in ability.modes)]:
        for index, step in enumerate(steps):
            if isinstance(step, Conditional) and step.word == "otherwise":
                before = steps[index - 1] if index else None
                if not (isinstance(before, Conditional) and before.word in ("if", "unless")):
                    return False
    return True


def exiled_instead(ability: Ability) -> tuple[str, SelfRef | Noun, tuple[str, int | None]] | None:
    """A replacement ability that puts an object elsewhere instead of into a graveyard (614.1a):
    "If ~ would be put into a graveyard from anywhere, exile it instead." (``"anywhere"``: every
    move of it to a graveyard), "If ~ would die, exile it instead." and "If a creature an opponent
    controls would die, exile it instead." (``"dies"``: a move of what it describes from the
    battlefield to a graveyard, 700.4), "If a card or token would be put into a graveyard from
    anywhere, exile it instead." (``"anywhere"``, what a permanent's ability describes), "If ~
    would die, put ~ on top of (on the bottom of) its owner's library instead."
    (``query.replacing.put_instead``: the zone and the position).
    None: not such a line."""
    if ability.kind is not Kind.REPLACEMENT or len(ability.effects) != 1:
        return None
    step = ability.effects[0]
    if not (isinstance(step, Conditional) and step.word == "if" and isinstance(step.condition, Action)):
        return None
    where = put_instead(step.body)
    if where is None:
        return None
    condition = step.condition
    what = condition.arg("what")
    if where[0] != "exile" and not isinstance(what, SelfRef):
        return None  # "its owner's library": the object's own only
    described = isinstance(what, Noun) and not what.targeted and not what.qualifiers  # "a card or token"
    if condition.verb == "would_be_put" and (isinstance(what, SelfRef) or described):
        anywhere = written(condition) == "{what:np} would be put into a graveyard from anywhere"
        return ("anywhere", what, where) if anywhere and isinstance(what, SelfRef | Noun) else None
    dies = condition.verb == "is_state" and is_form(condition, "would_die")
    if dies and (isinstance(what, SelfRef) or (isinstance(what, Noun) and not what.targeted)):
        return ("dies", what, where)
    return None


def _described_problems(what: object, catalog: Catalog) -> list[str]:
    """What keeps a noun phrase a static ability reads from describing what it says."""
    problems: list[str] = []
    for node in walk(what):
        problem = _controller_problem(node, True, False) or _problem(node, catalog, True)
        if problem and problem not in problems:
            problems.append(problem)
    return problems


def _keyword_sentences(ability: Ability, catalog: Catalog) -> list[str]:
    """The sentences after a keyword line ("Equip {0}. Activate only once each turn."): an Equip
    ability's activation restrictions apply to the ability it stands for (rules.attachments); any
    other sentence there is not executed."""
    equip = len(ability.keywords) == 1 and ability.keywords[0].name.split(" ")[0] == "Equip"
    problems = ["sentence after a keyword line"] if ability.effects else []
    for restriction in ability.restrictions:
        if not equip or restriction.verb not in catalog.restrictions:
            problems.append(f"restriction {restriction.verb!r} after a keyword line")
    return problems


def _keyword_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    check = catalog.keyword_checks.get(keyword.name.lower().split(" ")[0])
    if check is not None:
        return check(keyword, catalog)
    return [] if keyword.name.lower() in catalog.keywords else [f"keyword {keyword.name.lower()}"]


def _granted_problem(node: object, catalog: Catalog) -> str | None:
    """A quoted ability given to another object executes when it itself would."""
    if isinstance(node, Ability):
        inner = missing(node, catalog)
        return f"granted {inner[0]}" if inner else None
    return None


def names_players(subject: object) -> bool:
    """Whether a clause's subject names players other than you ("target player", "each opponent")."""
    if isinstance(subject, Noun):
        return bool({w.lower().rstrip("s") for w in subject.description.split()} & {"player", "opponent"})
    return False


_BACK_REFERENCES = frozenset({"it", "them", "that card", "those cards"})


def _elided_players(node: Sequence) -> bool:
    """A later step that goes on with the subject of the step before (:class:`SameSubject`) when
    that subject is several players, and that names what the step before found ("Each player
    reveals a card, then puts it …"): what each player's step found is not kept per player (one
    subject is read on)."""
    first = node.steps[0] if node.steps else None
    subject = first.subject if isinstance(first, Clause) else None
    several = (
        isinstance(subject, Noun)
        and names_players(subject)
        and (bool({"each", "all"} & set(subject.determiners)) or subject.description.endswith("s"))
    )
    if not several:
        return False
    later = [
        step for step in node.steps[1:] if isinstance(step, Clause) and isinstance(step.subject, SameSubject)
    ]
    return any(
        (isinstance(n, Pronoun) and n.word in _BACK_REFERENCES)
        or (isinstance(n, Noun) and bool({"that", "those"} & set(n.determiners)))
        for step in later
        for n in walk(step)
    )


NOUN_LIST_VERBS = frozenset({
    "destroy", "exile", "return_to_hand", "return_from", "put_into_zone", "tap", "untap", "deal_damage",
    "damage_to", "gain_control", "put_counters", "counter", "sacrifice_self",
})  # fmt: skip
"""Verbs whose handlers resolve what they act on, so a list ("target creature and target land")
names each of its items."""


NOUN_LIST_CONDITIONS = frozenset({"controls"})
"""Conditions whose handlers read a list ("if you control an artifact and an enchantment"), each
with a check of which lists (the catalog's ``checks``)."""


def _with_counters(what: object) -> bool:
    return isinstance(what, SelfRef) and any(q.verb == "with_counters" for q in what.qualifiers)


GRANTER_KNOWN = frozenset({Kind.ACTIVATED, Kind.MANA, Kind.TRIGGERED})
"""Granted abilities that remember the object whose text gave them (``Context.granter``): what
``~`` in them names when they are given to another object."""


def _names_granter_elsewhere(clause: Clause) -> bool:
    """ "Enchanted creature has \"Prevent all damage that would be dealt to ~.\"": a static or
    replacement ability given to another object, in which ``~`` names the giver — the readers of
    static abilities know only the object that has them."""
    if isinstance(clause.subject, SelfRef):
        return False
    given = [n for p in clause.predicates for n in walk(p) if isinstance(n, Ability)]
    return any(
        ability.kind not in GRANTER_KNOWN and any(isinstance(n, SelfRef) for n in walk(ability.effects))
        for ability in given
    )


def _problem(node: object, catalog: Catalog, static: bool = False) -> str | None:
    granted = _granted_problem(node, catalog)
    if granted is not None:
        return granted
    if isinstance(node, Clause) and _names_granter_elsewhere(node):
        return "~ in a static ability it gives another object"
    if isinstance(node, Unimplemented):
        return f"unimplemented text {node.text!r}"
    if isinstance(node, Sequence) and _elided_players(node):
        return "subject of the step before"
    if isinstance(node, Nouns) and node.qualifiers:  # "… and … from your graveyard": not yet
        return "list of noun phrases with qualifiers"
    if (
        isinstance(node, Action)
        and node.verb not in NOUN_LIST_VERBS | NOUN_LIST_CONDITIONS
        and any(isinstance(value, Nouns) for _, value in node.args)
    ):
        return "list of noun phrases"
    if isinstance(node, Noun) and total_limit(node) is not None and node.determiners != ("any number of",):
        return "a total limit on targets or a number of objects"  # "up to two target … with total …"
    if isinstance(node, SameSubject):  # one with no clause before it in its sequence (same_subjects)
        return "subject of the clause before"
    if isinstance(node, Action) and node.verb == "exile" and _with_counters(node.arg("what")):
        return "exile with counters"  # "Exile ~ with three time counters on it": no counters are put
    if isinstance(node, Action) and node.verb == "zone" and node.arg("owner") not in ZONE_OWNERS:
        return f"zone of {node.arg('owner')}"
    whose = node.arg("whose") if isinstance(node, Action) else None
    targeted = isinstance(node, Action) and node.slot is not None and node.verb in TARGET_POSSESSING
    if isinstance(whose, str) and whose not in POSSESSORS and not targeted:
        return f"{whose} characteristics"
    if isinstance(node, Action):
        form = find(node.verb, node.form)
        if form is None:
            return None
        tables: dict[str, Mapping[str, Any]] = {
            "pred": catalog.verbs,
            "cond": catalog.conditions,
            "qualifier": catalog.qualifiers,
        }
        known = tables.get(form.family)
        if form.family == "restriction":
            known_restriction = node.verb in catalog.restrictions
            return None if known_restriction else f"restriction {node.verb!r}"
        applied = static and node.verb in catalog.static_verbs  # continuous.py applies it
        if known is not None and node.verb not in known and not applied:
            return f"{form.family} {node.verb!r}"
        forms = catalog.forms.get(node.verb)
        if forms is not None and node.form_name not in forms:
            return f"{form.family} {node.verb!r} form {node.form_name or node.form}"
        check = catalog.checks.get(node.verb)
        found = check(node, catalog) if check is not None else None
        if found is not None:
            return found
        keywords = node.arg("keywords")
        if isinstance(keywords, Action) and not (
            node.verb in ("has", "gains") and protection_from_chosen_color(keywords)
        ):  # "protection from artifacts or from the color of your choice"
            return f"a choice of keywords ({keywords.verb})"
        granting = ("has", "gains", "with_keywords", "without_keywords", "loses")
        if node.verb in granting and isinstance(keywords, str):
            unknown = [
                k
                for k in keyword_list(keywords)
                if k not in catalog.keywords and not any(check(k) for check in catalog.granted_keywords)
            ]
            if unknown and node.verb not in ("with_keywords", "without_keywords"):
                return f"keyword {unknown[0]}"
    if isinstance(node, Action) and node.verb == "is_in_zone" and not isinstance(node.arg("what"), Noun):
        # "if ~ is in your graveyard": an ability that works from another zone than the battlefield
        # (113.6), which the engine does not watch
        return "ability of a card in another zone"
    reflexive = isinstance(node, Conditional) and node.word == "when" and node.trigger == "reflexive"
    if isinstance(node, Conditional) and node.word not in SUPPORTED_CONDITIONALS and not reflexive:
        return f"{node.word!r} clause"  # "When you do, …" (603.12) is rules.execution's
    if isinstance(node, Conditional) and node.word == "unless" and isinstance(node.condition, Clause):
        # "… unless you sacrifice a Mountain" (118.12): the payment is a cost phrase the engine pays
        cost = node.cost
        if not (isinstance(cost, Action) and cost.verb in catalog.costs and node.payer is not None):
            return "'unless' payment of an action"
    if isinstance(node, Conditional) and node.word == "for each":
        return for_each_problem(node)
    if isinstance(node, Conditional) and node.word == "until end of turn":
        body = node.body
        if not isinstance(body, Clause) or body.duration is not None:
            return "'until end of turn' clause"
        if not lasts_until_end_of_turn(body):
            return "'until end of turn' clause"
    if isinstance(node, Conditional) and node.word == "at":
        moment = node.condition
        if not (isinstance(moment, Action) and (moment.verb, moment.form_name) in DELAYED):
            return "'at' clause"
    # "you may pay {1}{R} and discard a card": the tree puts "may" on the first predicate only; the
    # engine reads it as covering all the predicates joined by "and" (may_covers_all), and refuses
    # any other place of a "may" among several predicates
    if (
        not static
        and isinstance(node, Clause)
        and len(node.predicates) > 1
        and _may_among(node)
        and not may_covers_all(node)
    ):
        return "'may' joined with another predicate"
    if isinstance(node, Clause) and node.for_each is not None:
        verbs = {p.verb for p in node.predicates if isinstance(p, Action)}
        if not verbs <= ADDITIVE | {"enters_with_counters"} or len(verbs) != len(node.predicates):
            return "for each"
        if "enters_with_counters" in verbs and not isinstance(node.for_each, Noun):
            return "for each"
    if (
        isinstance(node, Clause)
        and node.duration is not None
        and (node.duration not in SUPPORTED_DURATIONS or not lasts_until_end_of_turn(node))
    ):
        return f"duration {node.duration!r}"
    if isinstance(node, Noun) and (
        not known_description(node.description) or attached_reference(node) is False
    ):
        return f"description {node.description!r}"
    if isinstance(node, Noun) and UNBOUND_COUNTS & set(node.determiners):
        # "search for that many basic land cards": the number an earlier step counted is not
        # carried over, and a noun without its number would name every candidate
        return "'that many'"
    return None


BACK_REFERENCES = frozenset({"it", "them", "they", "each of them"})
"""Pronouns that name what an earlier step named."""


def for_each_problem(node: Conditional) -> str | None:
    """ "For each creature destroyed this way, its controller creates a 4/4 red Dragon creature
    token", "For each land you control, create a Treasure token": the body is done once for each
    object or player the phrase names, "it", "its controller" and "that player" naming that one
    (``rules.execution``). Refused: a target in the body (one chosen per item, "for each opponent,
    … target permanent that player controls"), a choice, an "unless" (who may pay is not read
    per item)."""
    if not isinstance(node.condition, Noun):
        return "'for each' clause"
    for inner in walk(node.body):
        if isinstance(inner, Noun | Pronoun) and inner.slot is not None:
            return "'for each' clause with a target"
        if isinstance(inner, Conditional) and inner.word == "unless":
            return "'for each' clause with 'unless'"
        if isinstance(inner, Action) and inner.verb == "choose":
            return "'for each' clause with a choice"
    return None


def _after_for_each(steps: list[object]) -> bool:
    """A step after a "For each …, …" sentence that names what an earlier step named ("Exile
    those tokens …"): what the repeated body made is not kept as one mention."""
    seen = False
    for step in steps:
        if seen and any(
            (isinstance(n, Pronoun) and n.word in BACK_REFERENCES)
            or (isinstance(n, Noun) and bool({"that", "those"} & set(n.determiners)))
            for n in walk(step)
        ):
            return True
        seen = seen or any(isinstance(n, Conditional) and n.word == "for each" for n in walk(step))
    return False


def _may_among(clause: Clause) -> bool:
    return any(isinstance(p, Action) and p.verb == "may" for p in clause.predicates)


def may_covers_all(clause: Clause) -> bool:
    """ "You may pay {1}{R} and discard a card": a "may" that begins predicates joined by "and"
    covers all of them (the tree puts it on the first one; rules.execution skips the rest when
    the player declines). Only there: a "may" elsewhere among several predicates is refused."""
    first = clause.predicates[0] if clause.predicates else None
    return (
        len(clause.predicates) > 1
        and isinstance(first, Action)
        and first.verb == "may"
        and clause.for_each is None
        and all(join.strip(" ,") == "and" for join in clause.joins)
        and sum(isinstance(p, Action) and p.verb == "may" for p in clause.predicates) == 1
    )


def _controller_problem(node: object, static: bool, in_trigger: bool) -> str | None:
    """Player references the engine cannot resolve: pronouns it does not know ("the rest", "he or
    she"); "target player controls" in a target's own description (its player must be chosen
    before the target it describes); and references that need what a resolving ability knows (its
    targets, what it named, "it") where there is none: in a static ability or a trigger
    condition."""
    if isinstance(node, Pronoun) and node.word not in PRONOUNS:
        return f"pronoun {node.word!r}"
    if (
        isinstance(node, Noun)
        and node.targeted
        and any(q.verb == "player_controls" and q.form_name in TARGET_FORMS for q in node.qualifiers)
    ):
        return "target player of a target"
    if isinstance(node, Action) and node.verb == "player_controls" and node.form_name in CONTEXT_FORMS:
        form = find(node.verb, node.form)
        text = form.text if form is not None else node.verb
        if static:
            return f"{text!r} in a static ability"
        if in_trigger:
            return f"{text!r} in a trigger condition"
    return None


_NAMING_PRONOUNS = {
    "its controller", "its owner", "their controller", "their controllers", "their owner", "their owners",
    "defending player", "your opponents", "any target",
}  # fmt: skip


def _antecedent_problems(ability: Ability, catalog: Catalog) -> list[str]:
    """ "That player", "they control", "that opponent controls" name the players named before them
    (:func:`carddb.engine.query.nouns.named_players`): in an ability no event triggered, a player must be
    named earlier in the text ("target player", "each opponent", "a creature an opponent controls",
    "its controller", "its owner's hand"), or in the trigger condition (:func:`_trigger_names_player`),
    or nothing says who is meant. A delayed ability ("… at the beginning of the next upkeep")
    remembers only what "it" named."""
    problems: list[str] = []

    def visit(node: object, named: bool) -> bool:
        needs, names = _player_reference(node)
        if needs and not named and not problems:
            problems.append("'that player' names no player")
        named = named or names
        if isinstance(node, Conditional) and node.word == "at":
            visit(node.body, False)
            return named
        for child in children(node):
            named = visit(child, named)
        return named

    named = visit(ability.cost, _trigger_names_player(ability.trigger, catalog))
    named = visit(ability.effects, visit(ability.intervening_if, named))
    for mode in ability.modes:  # each mode reads on from the text before the modes
        visit(mode.effects, named)
    return problems


def _trigger_names_player(trigger: object, catalog: Catalog) -> bool:
    """Whether the event of a trigger condition names a player "that player" may mean
    (:func:`carddb.engine.rules.triggers.about_event`): the player dealt damage or the controller of the
    source that dealt it to you, whose step begins, who cast a spell, who controlled (or owns the
    zone of) what moved, who rolled, who is attacked. Not when the event is about the source itself
    ("When ~ leaves the battlefield, that player …" means a player another ability chose)."""
    if not isinstance(trigger, Action):
        return False
    verb = trigger.verb
    forms = catalog.triggers[verb][1] if verb in catalog.triggers else frozenset()
    if forms is not None and trigger.form_name not in forms:
        return True  # a trigger the engine does not watch for: reported as such
    if verb == "is_dealt_damage":  # the player dealt damage
        return True
    if verb == "deals_damage":
        to = trigger.arg("to")
        if isinstance(to, Pronoun):
            return to.word in ("you", "defending player", "your opponents")
        return to is None or (isinstance(to, Noun) and _player_reference(to)[1])
    if verb in (
        "beginning", "beginning_of_step", "roll_dice", "gains_life_trigger", "loses_life_trigger",
        "draws_trigger", "discards_trigger", "cycle", "cycles_or_discards", "sacrifices_trigger",
        "becomes_target",
    ):  # fmt: skip
        return True
    if verb in ("casts", "enters", "enters_or", "dies", "leaves", "either_enters", "either_dies"):
        return not isinstance(trigger.arg("what"), SelfRef)
    return verb == "attacks_trigger" and is_form(trigger, "attacks")


def _player_reference(node: object) -> tuple[bool, bool]:
    """Whether ``node`` needs a player named before it, and whether it names one."""
    if isinstance(node, Pronoun):
        return False, node.word in _NAMING_PRONOUNS
    if isinstance(node, Noun):
        words = {w.lower().rstrip("s") for w in node.description.split()}
        if node.description.endswith(("'s controller", "'s owner")):  # "that creature's controller"
            return False, True
        if not words & {"player", "opponent"}:
            return False, False
        return bool({"that", "those"} & set(node.determiners)), True
    if isinstance(node, Action) and node.verb == "player_controls":
        names = node.form_name not in NAMED_FORMS and not is_form(node, "each_player")
        return node.form_name in NAMED_FORMS, names
    if isinstance(node, Action) and node.verb == "zone":  # "its owner's hand", "target player's library"
        owner = str(node.arg("owner") or "")
        return False, owner in OWNER_NAMING or owner.endswith(("player's", "opponent's"))
    return False, False


def _says_how_it_enters(ability: Ability) -> bool:
    """614.1c–d: a replacement ability that says how a permanent enters ("~ enters the battlefield
    tapped") is checked like a static ability's clauses, as rules.continuous applies it."""
    return ability.kind is Kind.REPLACEMENT and any(
        isinstance(node, Action) and node.verb in ENTERING for step in ability.effects for node in walk(step)
    )


STATIC_CONDITIONALS = frozenset({"as long as", "if", "unless"})
"""The conditions a static ability's sentence may have: it applies while the condition holds
("as long as", "if") or does not ("… enters the battlefield tapped unless you control …")."""
STATE_CONDITIONS = frozenset({
    "controls", "controls_count", "there_are_count", "counters_at_least", "is_in_zone", "it_is_a",
    "is_of_type", "is_not_of_type", "is_state", "dies_this_turn", "left_this_turn", "it_is_in_combat",
    "it_is_state", "was_type", "life_this_turn",
})  # fmt: skip
"""Conditions about the game's state, which a static ability reads whenever it applies (not
"if you do", which speaks of a choice made while an ability resolves)."""


STATIC_ZONE_OWNERS = frozenset({
    "your", "all", None, "an opponent's", "each opponent's", "a player's", "each player's",
})  # fmt: skip
"""Whose zones a static ability's count may read without anything named before it."""


def counted_anew(condition: object) -> bool:
    """ "where X is the number of creature cards in all graveyards" in a static ability: a count
    the ability reads whenever it applies (``rules.continuous``), which names nothing by "it",
    "its controller" or "that player" (none is named there)."""
    if not (isinstance(condition, Action) and condition.verb == "number_of"):
        return False
    for node in walk(condition):
        if isinstance(node, Pronoun) and node.word != "you":
            return False
        if isinstance(node, Noun) and {"that", "those", "this"} & set(node.determiners):
            return False
        if isinstance(node, Action) and node.verb == "zone" and node.arg("owner") not in STATIC_ZONE_OWNERS:
            return False
        if isinstance(node, Action) and node.verb == "player_controls" and node.form_name in CONTEXT_FORMS:
            return False
    return True


def _if_split(step: object) -> tuple[Action | None, object] | None:
    """A casting line's step as its "If …," condition (None when it has none) and what it governs;
    None when it is conditional otherwise."""
    if not isinstance(step, Conditional):
        return None, step
    if step.word != "if" or not isinstance(step.condition, Action):
        return None
    return step.condition, step.body


def casting_line(ability: Ability) -> tuple[Action, Action | None] | None:
    """The line's one predicate and its condition (None: not a shape the engine applies)."""
    if len(ability.effects) != 1 or (split := _if_split(ability.effects[0])) is None:
        return None
    condition, step = split
    if not (isinstance(step, Clause) and isinstance(step.subject, SelfRef) and len(step.predicates) == 1):
        return None
    predicate = step.predicates[0]
    return (predicate, condition) if isinstance(predicate, Action) else None


def generic_amount(action: Action) -> int | None:
    mana = action.arg("mana")
    if not isinstance(mana, ManaCost) or not all(s.strip("{}").isdigit() for s in mana.symbols):
        return None
    return sum(int(s.strip("{}")) for s in mana.symbols)


def alternative_cost_line(ability: Ability) -> tuple[Action | None, tuple[Action, ...]] | None:
    """ "[If …,] you may [cost] rather than pay this spell's mana cost." (118.9): its condition and
    the cost phrases paid instead (None: not such a line)."""
    if ability.casting is not Casting.ALTERNATIVE_COST or len(ability.effects) != 1:
        return None
    if (split := _if_split(ability.effects[0])) is None:
        return None
    condition, step = split
    if not (isinstance(step, Clause) and isinstance(step.subject, Pronoun) and step.subject.word == "you"):
        return None
    if len(step.predicates) != 1 or step.duration is not None or step.for_each is not None:
        return None
    may = step.predicates[0]
    rather = may.arg("action") if isinstance(may, Action) and may.verb == "may" else None
    if not (isinstance(rather, Action) and rather.verb == "rather_than_mana_cost"):
        return None
    if rather.arg("poss") != "~'s":  # "rather than pay its mana cost": another spell's
        return None
    costs = tuple(item for item in ability.cost if isinstance(item, Action))
    return (condition, costs) if costs and len(costs) == len(ability.cost) else None


def _alternative_problem(ability: Ability) -> str | None:
    found = alternative_cost_line(ability)
    if found is None:
        return "casting ability"
    condition, costs = found
    if condition is not None and condition.verb not in STATE_CONDITIONS:
        return f"alternative cost if {condition.verb!r}"
    for cost in costs:
        mana = cost.arg("mana")
        if isinstance(mana, ManaCost) and any("X" in symbol for symbol in mana.symbols):
            return "alternative cost with X"
        what = cost.arg("what")
        if isinstance(what, Noun) and any(q.verb != "in_zone" for q in what.qualifiers):
            in_hand = any(q.verb == "in_zone" for q in what.qualifiers)
            if in_hand:  # a card in a hand or graveyard is matched by its description alone
                return "alternative cost of a card with a qualifier"
    return None


def casting_problem(ability: Ability, catalog: Catalog) -> str | None:
    """What keeps a casting line from being applied (None: the engine applies it)."""
    if ability.casting is Casting.ALTERNATIVE_COST:
        return _alternative_problem(ability)
    found = casting_line(ability)
    if found is None:
        return "casting ability"
    predicate, condition = found
    if condition is not None and condition.verb not in STATE_CONDITIONS:
        return f"cost change if {condition.verb!r}"
    uncounterable = predicate.verb == "cant_be_countered" and condition is None
    if ability.casting is Casting.UNCOUNTERABLE and uncounterable:
        return None
    if ability.casting is not Casting.COST_CHANGE or predicate.verb not in COST_CHANGES:
        return "casting ability"
    text = written(predicate)
    if "to cast" not in text or "beyond the first" in text:
        return f"cost change {text!r}"
    if generic_amount(predicate) is None:
        return "cost change of coloured mana"
    return None


def _static_problems(ability: Ability, catalog: Catalog) -> list[str]:
    """A static ability executes when each sentence is a clause (perhaps under "as long as") whose
    predicates the engine applies continuously."""
    problems: list[str] = []
    for step in ability.effects:
        body = step
        if isinstance(step, Conditional) and step.word == "where X is":
            if not counted_anew(step.condition):
                problems.append("static ability")
                continue
            step = step.body  # "Equipped creature gets +X/+X, where X is the number of …"
            body = step
        if isinstance(step, Conditional) and step.word in STATIC_CONDITIONALS:
            condition = step.condition
            if step.word != "as long as" and not (
                isinstance(condition, Action) and condition.verb in STATE_CONDITIONS
            ):
                problems.append("static ability")
                continue
            body = step.body
        if not isinstance(body, Clause):
            problems.append("static ability")
            continue
        counted = all(  # "… enters the battlefield with a +1/+1 counter on it for each other creature"
            isinstance(p, Action) and p.verb == "enters_with_counters" for p in body.predicates
        )
        if body.duration is not None or (body.for_each is not None and not counted):
            problems.append("static ability")
            continue
        for predicate in body.predicates:
            if not isinstance(predicate, Action) or predicate.verb not in catalog.static_verbs:
                verb = predicate.verb if isinstance(predicate, Action) else "clause"
                problems.append(f"static {verb!r}")
            elif predicate.verb == "additional_cost":
                problems.append("additional cost")  # one not of the spell itself (missing() reads those)
    if not ability.effects:
        problems.append("static ability")
    return problems
