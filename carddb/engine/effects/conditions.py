"""Conditions ("if you control…", "if you do", "unless … pays") and noun qualifiers ("in a graveyard",
"with flying", "with power 2 or less"), and "you may"."""

from __future__ import annotations

from collections.abc import Callable

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import CostError, EngineError
from carddb.engine.core.forms import is_form, named, written
from carddb.engine.core.state import GameObject
from carddb.engine.query.abilities import keyword_list, keywords_of
from carddb.engine.query.characteristics import colors_of
from carddb.engine.query.executable import and_list
from carddb.engine.query.nouns import (
    AMONG_LOOKED,
    COLOR_WORDS,
    IN_ZONE_WITHOUT_A_ZONE,
    UP_TO,
    amount_of,
    candidates_for,
    count,
    counter_kind,
    in_combat_as,
    last_controller,
    matches,
    objects,
    players,
    resolve,
    speaking_of,
    still_looked,
    value,
    zone_name,
    zone_owners,
)
from carddb.engine.query.printings import QUALIFIER as ORIGINALLY_PRINTED
from carddb.engine.query.printings import originally_printed
from carddb.engine.rules.execution import progress
from carddb.engine.rules.mana import mana_value
from carddb.oracle.model import Action, Clause, Noun, Nouns, Number, SelfRef, X
from carddb.oracle.phrases import find


def _counters_at_least(ctx: Context, condition: Action) -> bool:
    kind = counter_kind(condition.arg("counter"))
    needed = value(ctx, condition.arg("amount"))
    return any(obj.counters.get(kind, 0) >= needed for obj in objects(resolve(ctx, condition.arg("what"))))



_ = Number  # re-exported types used by handlers' annotations


# -- optional actions and their conditions ---------------------------------------------------------
def may(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "You may draw a card": the player answers yes or no; "if you do" asks afterwards."""
    inner = action.arg("action")
    assert isinstance(inner, Action)
    handler = ctx.game.catalog.verbs[inner.verb]
    did = False
    for ref in subject:  # "Each player may scry 1": each one answers for themselves (101.4)
        player = next(players(ctx, [ref]))
        if player == ctx.controller and _cannot_do_all(ctx, inner):  # 118.12, 118.3: not offered
            ctx.game.log.append(f"{player} cannot {inner.verb.replace('_', ' ')} all it says")
            continue
        answer = ctx.decider.choose(f"{player}: {inner.verb.replace('_', ' ')}?", ["yes", "no"])
        if answer == "yes":
            before = progress(ctx)
            it = list(ctx.it)
            try:
                if len(subject) == 1:
                    handler(ctx, subject, inner)
                else:
                    ctx.it = [ref]
                    with speaking_of(ctx, ref):
                        handler(ctx, [ref], inner)
            except CostError as error:  # a payment that cannot be made: not done
                ctx.game.log.append(f"{player} cannot: {error}")
                continue
            finally:
                if len(subject) > 1:
                    ctx.it = it
            # 609.3: "You may put a creature card with mana value X from your hand onto the
            # battlefield. If you do, …" with no such card does nothing, so it was not done
            did = did or progress(ctx) != before
    ctx.bindings["did"] = int(did)


CHOSEN_COSTS = frozenset({"exile", "sacrifice", "discard", "return_from", "tap"})
"""The verbs of a "may" whose objects the player chooses ("you may exile two creature cards from your
graveyard", "you may sacrifice a creature"): :func:`_cannot_do_all` counts what they could choose."""


def _cannot_do_all(ctx: Context, inner: Action) -> bool:
    """ "You may exile two creature cards from your graveyard. If you do, draw a card": the action is
    a cost (118.12), and a player without what it needs can't pay it (118.3) — not even in part.
    Only a number of objects the player chooses (not targets, not "all", not "up to")."""
    what = inner.arg("what")
    if inner.verb not in CHOSEN_COSTS or not isinstance(what, Noun) or what.targeted or id(what) in ctx.slots:
        return False
    counted = what.amount is not None or what.determiners in (("a",), ("an",), ("another",))
    if not counted or what.determiners[:1] == (UP_TO,):
        return False
    return count(ctx, what) < amount_of(ctx, what)


def may_have(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "You may have ~ deal 2 damage to target creature": the player answers yes or no; if yes,
    what the phrase names does it ("if you do" asks afterwards) — all of it: "you may have target
    creature get +2/+0 and gain haste until end of turn" (a clause of predicates, its duration)."""
    inner = action.arg("action")
    done = inner.predicates if isinstance(inner, Clause) else (inner,)
    assert all(isinstance(a, Action) for a in done)
    first = done[0]
    assert isinstance(first, Action)
    did = False
    for player in players(ctx, subject):
        answer = ctx.decider.choose(f"{player}: have it {first.verb.replace('_', ' ')}?", ["yes", "no"])
        if answer == "yes":
            before = ctx.duration
            if isinstance(inner, Clause) and inner.duration is not None:
                ctx.duration = inner.duration
            for each in done:
                assert isinstance(each, Action)
                ctx.game.catalog.verbs[each.verb](ctx, resolve(ctx, action.arg("what")), each)
            ctx.duration = before
            did = True
    ctx.bindings["did"] = int(did)


_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "twenty": 20,
}  # fmt: skip


def _at_least(noun: Noun) -> int | None:
    """ "seven or more cards" → 7 (None: not such a count)."""
    for determiner in noun.determiners:
        word, _, rest = determiner.partition(" ")
        if rest == "or more":
            return int(word) if word.isdigit() else _NUMBER_WORDS.get(word)
    return None


def _at_most(noun: Noun) -> int | None:
    """ "two or fewer other lands" → 2 (None: not such a count)."""
    for determiner in noun.determiners:
        word, _, rest = determiner.partition(" ")
        if rest == "or fewer":
            return int(word) if word.isdigit() else _NUMBER_WORDS.get(word)
    return None


def _is_in_zone(ctx: Context, condition: Action) -> bool:
    """ "as long as seven or more cards are in your graveyard" (threshold), "if a creature card is
    in your graveyard": how many objects of the description the named zones hold."""
    zone = condition.arg("zone")
    what = condition.arg("what")
    if not isinstance(zone, Action) or not isinstance(what, Noun):
        raise EngineError("cannot tell what 'is in' a zone")
    kind = zone_name(zone)
    plain = Noun((), what.description, what.qualifiers, narrowed=what.narrowed)
    found = [
        obj
        for owner in zone_owners(ctx, zone)
        for obj in (ctx.game.permanents() if kind == "battlefield" else ctx.game.in_zone(kind, owner))
        if matches(ctx, obj, plain)
    ]
    return len(found) >= (_at_least(what) or amount_of(ctx, what))


def _did(ctx: Context, condition: Action) -> bool:
    if "did" not in ctx.bindings:
        raise EngineError("nothing optional was done before 'if you do'")
    return bool(ctx.bindings["did"]) == is_form(condition, "do", "no_one_does")






# -- conditions about the game -----------------------------------------------------------------------
def _existing(ctx: Context, phrase: object) -> list[Ref]:
    """What a condition's noun phrase names, without choosing among them ("a creature" is any)."""
    if isinstance(phrase, Noun) and not phrase.targeted and phrase.alternatives and all(
        a.rstrip("s") in ("player", "opponent") for a in phrase.alternatives
    ) and not {"that", "those"} & set(phrase.determiners):  # "if an opponent controls …": any of them
        saved = ctx.it
        each = Noun(("each",), phrase.description, phrase.qualifiers, narrowed=phrase.narrowed)
        players_named = resolve(ctx, each)
        ctx.it = saved
        return players_named
    anaphoric = isinstance(phrase, Noun) and bool({"that", "those"} & set(phrase.determiners))
    if isinstance(phrase, Noun) and not phrase.targeted and id(phrase) not in ctx.slots and not anaphoric:
        return [obj for obj in candidates_for(ctx, phrase) if matches(ctx, obj, phrase)]
    saved = ctx.it
    found = resolve(ctx, phrase)
    ctx.it = saved
    return found


def _controls(ctx: Context, condition: Action) -> bool:
    who = list(players(ctx, _existing(ctx, condition.arg("who"))))
    what = condition.arg("what")
    if isinstance(what, Nouns):  # "if you control an artifact and an enchantment" (one may be both)
        permanents = [obj for player in who for obj in ctx.game.permanents(player)]
        items = [item for item in what.items if isinstance(item, Noun)]  # _controls_check: all are
        return all(any(matches(ctx, obj, item) for obj in permanents) for item in items)
    assert isinstance(what, Noun)
    wanted = [what]
    other = condition.arg("other")
    if isinstance(other, Noun):
        wanted.append(other)
    least, most = _at_least(what), _at_most(what)
    if least is not None or most is not None:  # "three or more artifacts", "two or fewer other lands"
        plain = Noun((), what.description, what.qualifiers, narrowed=what.narrowed)
        count = sum(1 for player in who for obj in ctx.game.permanents(player) if matches(ctx, obj, plain))
        found = count >= least if least is not None else most is not None and count <= most
    else:
        found = any(
            matches(ctx, obj, noun)
            for noun in wanted
            for player in who
            for obj in ctx.game.permanents(player)
        )
    return not found if is_form(condition, "controls_no", "control_no") else found




def _counter_kind(spec: object) -> tuple[str, int]:
    assert isinstance(spec, Action)
    kind = counter_kind(spec.arg("kind"))
    amount = spec.arg("amount")
    return kind, amount.value if isinstance(amount, Number) else 1


def _is_state(ctx: Context, condition: Action) -> bool:
    form = condition.form_name or ""
    if form == "your_turn":
        return ctx.game.active == ctx.controller
    if form == "not_your_turn":
        return ctx.game.active != ctx.controller
    if form == "creature_died_this_turn":
        return any(departure.died and departure.creature for departure in ctx.game.left_this_turn)
    if form == "dealt_damage_this_turn":  # "if an opponent was dealt damage this turn" (bloodthirst)
        refs = _existing(ctx, condition.arg("what"))
        turn = ctx.game.turn
        players_hit = [ctx.game.players[ref].dealt_damage_this_turn for ref in refs if isinstance(ref, str)]
        return any(players_hit) or any(obj.damaged_turn == turn for obj in objects(refs))
    if form == "attacked_this_turn":  # "if you attacked this turn" (raid)
        raiders = players(ctx, _existing(ctx, condition.arg("who")))
        return any(ctx.game.players[p].attacked_this_turn for p in raiders)
    if form in ("have_no_cards_in_hand", "has_no_cards_in_hand", "life_or_more", "life_or_less"):
        who = list(players(ctx, _existing(ctx, condition.arg("who"))))
        if form in ("have_no_cards_in_hand", "has_no_cards_in_hand"):
            return all(not ctx.game.players[p].zones["hand"] for p in who)
        amount = value(ctx, condition.arg("amount"))
        lives = [ctx.game.players[p].life for p in who]
        return any(life >= amount if form == "life_or_more" else life <= amount for life in lives)
    things = list(objects(_existing(ctx, condition.arg("what"))))
    checks: dict[str, Callable[[GameObject], bool]] = {
        "tapped": lambda obj: obj.tapped,
        "untapped": lambda obj: not obj.tapped,
        "creature": lambda obj: obj.is_a("Creature"),
        "on_battlefield": lambda obj: obj.zone == "battlefield",
        "in_your_graveyard": lambda obj: obj.zone == "graveyard" and obj.owner == ctx.controller,
        "of_type": lambda obj: _is_type(ctx, obj, condition.arg("type")),
        "has_keywords": lambda obj: set(keyword_list(str(condition.arg("keywords")))) <= keywords_of(obj),
        "has_counters": lambda obj: (
            obj.counters.get(_counter_kind(condition.arg("counters"))[0], 0)
            >= _counter_kind(condition.arg("counters"))[1]
        ),
    }
    checks["counters_on"] = checks["has_counters"]
    checks["kicked"] = lambda obj: obj.kicked  # "if ~ was kicked" (702.33d)
    return any(checks[form](obj) for obj in things)


def _left_this_turn(ctx: Context, condition: Action) -> bool:
    """ "if a creature died this turn" (morbid), "if a permanent you controlled left the battlefield
    this turn" (revolt): what left the battlefield this turn, as it last was there."""
    what = condition.arg("what")
    assert isinstance(what, Noun)
    creature = what.description.rstrip("s") == "creature"
    yours = any(q.verb == "you_controlled" for q in what.qualifiers)
    died = condition.verb == "dies_this_turn"
    count = sum(
        1
        for departure in ctx.game.left_this_turn
        if (departure.died or not died)
        and (departure.creature or not creature)
        and (departure.controller == ctx.controller or not yours)
    )
    return count >= (_at_least(what) or 1)  # "if three or more creatures died this turn"


def _left_check(condition: Action, catalog: Catalog) -> str | None:
    """Only the past tense ("died this turn", "left the battlefield this turn") is a condition of
    the game's state; "a creature" or "a permanent", perhaps "you controlled"."""
    what = condition.arg("what")
    text = written(condition)
    if not text.endswith(("died this turn", "left the battlefield this turn")):
        return f"{text!r} as a condition"
    if not isinstance(what, Noun) or what.description.rstrip("s") not in ("creature", "permanent"):
        return f"{text!r} of {getattr(what, 'description', 'it')!r}"
    if any(q.verb != "you_controlled" for q in what.qualifiers):
        return f"{text!r} of {what.description!r} with a qualifier"
    if [d for d in what.determiners if d not in ("a", "an") and not d.endswith(" or more")]:
        return f"{text!r} of {' '.join(what.determiners)} {what.description}"
    return None


def _that_attacked(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "creature that attacked this turn", "that's attacking", "attacking you" (``that_attacked``),
    and the other states a qualifier names by its words (:data:`STATE_QUALIFIERS`): "that's
    blocking", "that was dealt damage this turn", "that entered the battlefield this turn", "that
    isn't enchanted"… (the forms with a noun of their own are refused,
    :func:`_that_attacked_check`)."""
    if isinstance(ref, str):
        return False
    game, text = ctx.game, written(qualifier)
    checks: dict[str, Callable[[GameObject], bool]] = {
        "that attacked this turn": lambda obj: obj.attacked_turn == game.turn,
        "that's attacking": lambda obj: in_combat_as(game, obj, "attacking"),
        "that's blocking": lambda obj: in_combat_as(game, obj, "blocking"),
        "that isn't attacking": lambda obj: not in_combat_as(game, obj, "attacking"),
        "attacking you": lambda obj: game.combat is not None
        and game.combat.attackers.get(obj.id) == ctx.controller,
        "that was dealt damage this turn": lambda obj: obj.damaged_turn == game.turn,
        "dealt damage this turn": lambda obj: obj.damaged_turn == game.turn,
        "that's tapped": lambda obj: obj.tapped,
        "that entered the battlefield this turn": lambda obj: obj.entered_turn == game.turn,
        "that isn't enchanted": lambda obj: not any(
            other.attached_to == obj.id and other.is_a("Aura") for other in game.permanents()
        ),
    }
    return checks[text](ref)


THAT_ATTACKED = frozenset({
    "that attacked this turn", "that's attacking", "that's blocking", "that isn't attacking", "attacking you",
    "that was dealt damage this turn", "dealt damage this turn", "that's tapped",
    "that entered the battlefield this turn", "that isn't enchanted",
})  # fmt: skip


STATE_QUALIFIERS = frozenset({
    "that_attacked", "that_isnt_attacking", "that_is_blocking", "blocked_by", "blocking_or_blocked_by",
    "dealt_damage_this_turn", "that_is_tapped", "that_entered_this_turn", "that_isnt_enchanted",
})  # fmt: skip
"""The qualifier entries :func:`_that_attacked` reads by their words."""


def _other_than(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "another target creature other than ~" (the other forms are refused, :func:`_other_than_check`)."""
    return ref is not ctx.source


def _other_than_check(qualifier: Action, catalog: Catalog) -> str | None:
    return None if isinstance(qualifier.arg("what"), SelfRef) else f"qualifier {written(qualifier)!r}"


def _that_attacked_check(qualifier: Action, catalog: Catalog) -> str | None:
    text = written(qualifier)
    return None if text in THAT_ATTACKED else f"qualifier {text!r}"


DONE_WORDS = {
    "destroyed": "destroyed", "exiled": "exiled", "put into exile": "exiled", "discarded": "discarded",
    "discard": "discarded", "discards": "discarded", "revealed": "revealed", "milled": "milled",
    "sacrificed": "sacrificed", "sacrifice": "sacrificed",
}  # fmt: skip
"""The words of "if a creature is destroyed this way", "if you discard a land card this way"…, and
what the resolving ability recorded it did (``Context.done``)."""


def _done_word(condition: Action) -> str | None:
    text = written(condition).removesuffix(" this way")
    for words, done in DONE_WORDS.items():
        if text.endswith(f" {words}") or f" {words} " in text:
            return done
    return None


def _done_this_way(ctx: Context, condition: Action) -> bool:
    """ "If a creature card is discarded this way", "if ~ is destroyed this way": what the ability
    did it to (``Context.done``) includes such an object."""
    word = _done_word(condition)
    what = condition.arg("what")
    done = ctx.done.get(word or "", [])
    who = condition.arg("who")
    if who is not None:  # "if you sacrificed a permanent this way": the player's own
        named = set(players(ctx, _existing(ctx, who)))
        done = [obj for obj in done if last_controller(ctx.game, obj) in named]
    if isinstance(what, SelfRef):
        return ctx.itself in done
    if isinstance(what, Noun):
        plain = Noun((), what.description, what.qualifiers, narrowed=what.narrowed)
        return any(matches(ctx, obj, plain) for obj in done)
    return bool(done)


def _done_check(condition: Action, catalog: Catalog) -> str | None:
    if _done_word(condition) is None or "prevented" in written(condition):
        return f"{written(condition)!r} as a condition"
    return None


def _with_name(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "with the same name as that creature": the name of what the phrase names (201.2)."""
    if isinstance(ref, str):
        return False
    saved, mentions = list(ctx.it), list(ctx.mentions)
    named = {obj.name for obj in objects(resolve(ctx, qualifier.arg("what")))}
    ctx.it, ctx.mentions = saved, mentions
    return ref.name in named


def _with_name_check(qualifier: Action, catalog: Catalog) -> str | None:
    text = written(qualifier)
    return None if text.startswith("with the same name as") else f"qualifier {text!r}"


def _was_type(ctx: Context, condition: Action) -> bool:
    """ "If it was a creature card", "if that creature was a Human", "if that land was nonbasic",
    "as long as equipped creature is legendary": what the phrase names, as it is now (a card that
    changed zones keeps its printed types, 400.7)."""
    text = written(condition)
    refs = list(objects(_existing(ctx, condition.arg("what"))))
    if "legendary" in text:
        return any("Legendary" in obj.supertypes for obj in refs)
    if "nonbasic" in text:
        return any("Basic" not in obj.supertypes for obj in refs)
    if "{b:color}" in text:
        wanted = {COLOR_WORDS.get(str(condition.arg(k)), "") for k in ("a", "b")}
        return any(colors_of(obj) & wanted for obj in refs)
    kind = condition.arg("type")
    return isinstance(kind, Noun) and any(matches(ctx, obj, kind) for obj in refs)


def _player_did(ctx: Context, condition: Action) -> bool:
    """ "If the player does": whether the player who was asked ("that player may discard a card")
    did it (the answer of the "may" before)."""
    if "did" not in ctx.bindings:
        raise EngineError("'if the player does' follows no choice")
    return bool(ctx.bindings["did"])


def _player_did_not(ctx: Context, condition: Action) -> bool:
    """ "If they don't": the player who was asked did not do it."""
    return not _player_did(ctx, condition)


def _it_is(ctx: Context, condition: Action) -> bool:
    """ "as long as it's attacking", "as long as it's attacking alone" (``it_is_in_combat``), "if
    it's tapped" (``it_is_state``): "it" is what was named last (a static ability's own object when
    nothing was)."""
    text = written(condition)
    things = list(objects(ctx.it)) or [ctx.source]
    combat = ctx.game.combat
    checks: dict[str, Callable[[GameObject], bool]] = {
        "it's attacking": lambda obj: in_combat_as(ctx.game, obj, "attacking"),
        "it's blocking": lambda obj: in_combat_as(ctx.game, obj, "blocking"),
        "it's attacking alone": lambda obj: combat is not None and list(combat.attackers) == [obj.id],
        "it's tapped": lambda obj: obj.tapped,
        "it's untapped": lambda obj: not obj.tapped,
        "it's enchanted": lambda obj: any(
            o.attached_to == obj.id and o.is_a("Aura") for o in ctx.game.permanents()
        ),
        "it's equipped": lambda obj: any(
            o.attached_to == obj.id and o.is_a("Equipment") for o in ctx.game.permanents()
        ),
    }
    return any(checks[text](obj) for obj in things)


def _you_controlled(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    raise EngineError("'you controlled' is read from what left the battlefield, not from an object")


def _life_this_turn(ctx: Context, condition: Action) -> bool:
    """ "if you gained life this turn", "if you gained 4 or more life this turn", "if an opponent
    lost life this turn"."""
    text = written(condition)
    least = value(ctx, condition.arg("amount")) if condition.arg("amount") is not None else 1
    who = condition.arg("who")
    if isinstance(who, Noun):  # "an opponent": any of them
        saved = ctx.it
        named = resolve(ctx, Noun(("each",), who.description, who.qualifiers, narrowed=who.narrowed))
        ctx.it = saved
    else:
        named = _existing(ctx, who)
    for player in players(ctx, named):
        record = ctx.game.players[player]
        amount = record.life_lost_this_turn if "lost" in text else record.life_gained_this_turn
        if amount >= least:
            return True
    return False


def _life_check(condition: Action, catalog: Catalog) -> str | None:
    text = written(condition)
    return None if "this turn" in text and "first time" not in text else f"{text!r} as a condition"


def _is_type(ctx: Context, obj: GameObject, noun: object) -> bool:
    return isinstance(noun, Noun) and matches(ctx, obj, noun)




def _it_is_a(ctx: Context, condition: Action) -> bool:
    """ "If it's a land card": the object named last is what the noun describes."""
    what = condition.arg("what")
    assert isinstance(what, Noun)
    return any(matches(ctx, obj, what) for obj in objects(ctx.it))


def _is_of_type(ctx: Context, condition: Action) -> bool:
    """ "If that enchantment is an Aura": what the phrase names is of the type."""
    kind = condition.arg("type")
    assert isinstance(kind, Noun)
    return any(matches(ctx, obj, kind) for obj in objects(_existing(ctx, condition.arg("what"))))


def _is_not_of_type(ctx: Context, condition: Action) -> bool:
    """ "If ~ isn't a Warrior": what the phrase names is not of the type."""
    return not _is_of_type(ctx, condition)


def _controls_count(ctx: Context, condition: Action) -> bool:
    who = list(players(ctx, _existing(ctx, condition.arg("who"))))
    what = condition.arg("what")
    assert isinstance(what, Noun)
    amount = value(ctx, condition.arg("amount"))
    for player in who:
        count = sum(1 for obj in ctx.game.permanents(player) if matches(ctx, obj, what))
        at_least = is_form(condition, "control_or_more", "controls_or_more")
        if (count >= amount) if at_least else (count <= amount):
            return True
    return False




def _there_are_count(ctx: Context, condition: Action) -> bool:
    """ "If there are two or more instant and/or sorcery cards in your graveyard" (spell mastery),
    "as long as there are four or more card types among cards in your graveyard" (delirium): the
    objects, or the kinds among them (:func:`carddb.engine.query.nouns.count`), counted now."""
    what = condition.arg("what")
    assert isinstance(what, Noun)
    return count(ctx, what) >= value(ctx, condition.arg("amount"))


# -- noun qualifiers ---------------------------------------------------------------------------------
def _in_zone(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    if isinstance(ref, str):
        return False
    if qualifier.form_name in AMONG_LOOKED:  # "from among them": the cards looked at
        return ref in still_looked(ctx)
    zone = qualifier.arg("zone")
    if isinstance(zone, Action):
        return ref.zone == zone_name(zone) and ref.owner in zone_owners(ctx, zone)
    wanted = IN_ZONE_WITHOUT_A_ZONE[qualifier.form_name or ""]
    return ref.zone == wanted


def _with_counters(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "creature with a +1/+1 counter on it", "with three or more charge counters on it"."""
    spec = qualifier.arg("counters")
    if isinstance(ref, str) or not isinstance(spec, Action):
        return False
    amount = spec.arg("amount")
    needed = value(ctx, amount) if amount is not None else 1
    return ref.counters.get(counter_kind(spec.arg("kind")), 0) >= needed


def _that_targets(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "a spell that targets ~" (heroic), "… that targets only ~", "spells that target creatures
    you control": the spell's chosen targets include (only: are all) what the phrase names."""
    if isinstance(ref, str):
        return False
    item = next((i for i in ctx.game.stack if i.source == ref.id and i.is_spell), None)
    # a spell being cast: the targets announced before its total cost is determined (601.2c, 601.2f)
    targets = item.targets if item is not None else ctx.game.announced.get(ref.id)
    if targets is None:
        return False
    what = qualifier.arg("what")
    chosen = [target for slot in targets for target in slot]

    def named(target: Ref) -> bool:
        if isinstance(what, SelfRef):
            return target is ctx.itself
        if not isinstance(what, Noun):
            return False
        return matches(ctx, target, Noun((), what.description, what.qualifiers, narrowed=what.narrowed))

    written = find(qualifier.verb, qualifier.form)
    if written is not None and " only " in f" {written.text} ":
        return bool(chosen) and all(named(target) for target in chosen)
    return any(named(target) for target in chosen)


def _named(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "a card named Relentless Rats", "a card named Festering Newt or Bubbling Cauldron"; "each
    creature you control named Pack Mastiff" is its own name (201.5: the text names the object
    itself, ``~``)."""
    name = qualifier.arg("cardname")
    names = name.arg("names") if isinstance(name, Action) else (name,)  # "named A or B"
    assert isinstance(names, tuple)  # (_named_check refuses "named A and B")
    written = {_written_name(ctx, each).casefold() for each in names}
    return isinstance(ref, GameObject) and ref.name.casefold() in written


def _written_name(ctx: Context, name: object) -> str:
    if isinstance(name, SelfRef):
        return ctx.itself.name
    return name.description if isinstance(name, Noun) else str(name)


def _controls_check(condition: Action, catalog: Catalog) -> str | None:
    """ "you control an artifact and an enchantment": each item a permanent of its own kind, one
    permanent perhaps both (the rulings of Kami of Terrible Secrets); not "or", nor a count in a list."""
    what = condition.arg("what")
    if not isinstance(what, Nouns):
        return None
    plain = all(isinstance(item, Noun) and item.determiners in (("a",), ("an",)) for item in what.items)
    joined = and_list(what.joins)
    if not plain or not joined or what.qualifiers or not is_form(condition, "control", "controls"):
        return "list of noun phrases"
    return None


def _named_check(qualifier: Action, catalog: Catalog) -> str | None:
    """ "artifacts named Crown of Empires and Scepter of Empires" asks for one of each, not one object
    with both names: no qualifier of a single object says that."""
    name = qualifier.arg("cardname")
    if isinstance(name, Action) and name.arg("join") == "and":
        return f"qualifier {written(qualifier)!r}"
    return None


def _with_keywords(ctx: Context, ref: Ref, q: Action) -> bool:
    """ "creatures with flying": it has every keyword named."""
    return isinstance(ref, GameObject) and set(keyword_list(str(q.arg("keywords")))) <= keywords_of(ref)


def _that_is_colored(ctx: Context, ref: Ref, q: Action) -> bool:
    """ "a permanent that's one or more colors": it is colored (105.2c)."""
    return isinstance(ref, GameObject) and bool(colors_of(ref))


def _without_keywords(ctx: Context, ref: Ref, q: Action) -> bool:
    """ "creatures without flying": it lacks one of the keywords named."""
    return isinstance(ref, GameObject) and not _with_keywords(ctx, ref, q)

WITH_STAT = {
    "power_or_less": ("power", True), "power_or_greater": ("power", False),
    "toughness_or_less": ("toughness", True), "toughness_or_greater": ("toughness", False),
    "mana_value_or_less": ("mana value", True), "mana_value_or_greater": ("mana value", False),
    "cmc_or_less": ("mana value", True), "cmc_or_greater": ("mana value", False),
}  # fmt: skip
"""``with_power``, ``with_toughness`` and ``with_mana_value`` forms comparing a stat: which stat,
and whether it is "or less"."""


def _with_power(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    if isinstance(ref, str):
        return False
    form = qualifier.form_name or ""
    if form == "mana_value_x_or_less":
        have: int | None = mana_value(ref)
        return have is not None and have <= value(ctx, X())
    if form == "mana_value_greater_than":  # "… greater than the number of experience counters you have"
        greater = mana_value(ref)
        return greater is not None and greater > value(ctx, qualifier.arg("amount"))
    if form == "mana_value_exactly":  # "with mana value 3"
        exact = mana_value(ref)
        return exact is not None and exact == value(ctx, qualifier.arg("amount"))
    if form == "greatest_power":  # "with the greatest power among creatures you control"
        among = list(objects(resolve(ctx, qualifier.arg("what"))))
        powers = [obj.power or 0 for obj in among]
        return ref in among and ref.power is not None and ref.power == max(powers, default=0)
    stat, at_most = WITH_STAT[form]
    have = ref.power if stat == "power" else ref.toughness if stat == "toughness" else mana_value(ref)
    if have is None:
        return False
    amount = value(ctx, qualifier.arg("amount"))
    return have <= amount if at_most else have >= amount


def _with_total(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "cards with total mana value X or less": each card fits alone (the total over the chosen
    set is :func:`carddb.engine.query.nouns.choose_some`'s)."""
    if isinstance(ref, str):
        return False
    return mana_value(ref) <= value(ctx, qualifier.arg("amount") or X())


SECTION = Section(
    "effects.conditions",
    verbs={
        "may": may,
        "may_have": may_have,
    },
    conditions={
        "counters_at_least": _counters_at_least,
        "did": _did,
        "controls": _controls,
        "is_state": _is_state,
        "it_is_a": _it_is_a,
        "is_of_type": _is_of_type,
        "is_not_of_type": _is_not_of_type,
        "controls_count": _controls_count,
        "there_are_count": _there_are_count,
        "is_in_zone": _is_in_zone,
        "dies_this_turn": _left_this_turn,
        "left_this_turn": _left_this_turn,
        "done_this_way": _done_this_way,
        "was_type": _was_type,
        "player_did": _player_did,
        "player_did_not": _player_did_not,
        "it_is_in_combat": _it_is,
        "it_is_state": _it_is,
        "life_this_turn": _life_this_turn,
    },
    checks={
        "dies_this_turn": _left_check, "left_this_turn": _left_check, "life_this_turn": _life_check,
        **dict.fromkeys(STATE_QUALIFIERS, _that_attacked_check),
        "done_this_way": _done_check,
        "with_name": _with_name_check,
        "named": _named_check,
        "controls": _controls_check,
        "other_than": _other_than_check,
    },
    qualifiers={
        "you_controlled": _you_controlled,
        **dict.fromkeys(STATE_QUALIFIERS, _that_attacked),
        "with_name": _with_name,
        "in_zone": _in_zone,
        "with_keywords": _with_keywords,
        "without_keywords": _without_keywords,
        "that_is_colored": _that_is_colored,
        "with_power": _with_power,
        "with_toughness": _with_power,
        "with_mana_value": _with_power,
        "with_total": _with_total,
        "with_counters": _with_counters,
        "named": _named,
        "other_than": _other_than,
        ORIGINALLY_PRINTED: originally_printed,
        "that_targets": _that_targets,
    },
    forms={
        "did": named("did", "do", "dont", "no_one_does"),
        "is_state": named(
            "is_state", "tapped", "untapped", "creature", "on_battlefield", "in_your_graveyard",
            "your_turn", "not_your_turn", "of_type", "has_keywords", "has_counters", "counters_on",
            "have_no_cards_in_hand", "has_no_cards_in_hand", "life_or_more", "life_or_less",
            "creature_died_this_turn", "attacked_this_turn", "kicked", "dealt_damage_this_turn",
        ),
        "controls_count": named(
            "controls_count", "control_or_more", "controls_or_more", "control_or_fewer", "controls_or_fewer"
        ),
        "in_zone": named(
            "in_zone", "in_zone", "from_zone", "from_a_graveyard", "in_a_graveyard", "in_any_graveyard",
            "from_any_graveyard", "in_exile", "from_among_them", "from_among_those", "from_it",
            "in_graveyards", "from_graveyards",
        ),
        "with_power": named("with_power", "power_or_less", "power_or_greater", "greatest_power"),
        "with_toughness": named("with_toughness", "toughness_or_less", "toughness_or_greater"),
        "with_mana_value": named(
            "with_mana_value", "mana_value_or_less", "mana_value_or_greater", "cmc_or_less", "cmc_or_greater",
            "mana_value_x_or_less", "mana_value_exactly", "mana_value_greater_than",
        ),
        "with_total": named("with_total", "mana_value_or_less", "mana_value_x_or_less"),
    },
)
