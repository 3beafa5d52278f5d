"""Executing the steps of an ability as it resolves: clauses (with their subject, "for each" and
duration), sequences, conditionals ("if", "unless", "where X is", "then"; "at" makes a delayed
triggered ability), and die rolls with their result tables and the extra dice of replacement
effects. A clause's predicates go to their handlers in the game's catalog (``Game.catalog.verbs``).

Die rolls are here and not in a module of their own because a result table's rows are steps again:
rolling and executing call each other."""

from __future__ import annotations

import dataclasses

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import CostError, EngineError, NotExecutableError
from carddb.engine.core.proposed import Proposed, Replacement
from carddb.engine.core.state import Delayed, Event, Game, GameObject, StackItem
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.executable import may_covers_all
from carddb.engine.query.nouns import (
    MOVED,
    count,
    counter_kind,
    mention_zone_owners,
    objects,
    players,
    refers_to_named_players,
    resolve,
    speaking_of,
    value,
)
from carddb.engine.query.replacing import dies_this_turn_instead
from carddb.engine.query.tree import instead_of
from carddb.engine.rules.conditions import evaluate
from carddb.engine.rules.costs import pay_action
from carddb.engine.rules.discards import stat_of
from carddb.engine.rules.lasting import dies_instead
from carddb.engine.rules.layers import refresh
from carddb.engine.rules.replacement import replace
from carddb.engine.rules.triggers import is_named
from carddb.oracle.model import (
    Ability,
    Action,
    Clause,
    Conditional,
    Kind,
    Noun,
    Nouns,
    Number,
    Pronoun,
    RollDie,
    SameSubject,
    SelfRef,
    Sequence,
    walk,
)

REFLEXIVE = "reflexive"
"""``Conditional.trigger`` of a triggered ability its effect's own action triggers (603.12)."""
OTHERWISE = "otherwise"
"""Whether the last "if" (or "unless") clause did not do its step: "Otherwise, …" then does."""
DURATIONS = frozenset({"until end of turn"})
"""Durations written before the clause they apply to, as a clause of their own."""


def execute(ctx: Context, step: object) -> None:
    """Execute one step (a sentence) of an ability."""
    _execute(ctx, step)
    refresh(ctx.game)


def execute_steps(ctx: Context, steps: tuple[object, ...] | list[object]) -> None:
    """Execute an ability's steps in order, reading each with the sentence after it where later
    text modifies earlier text (608.2c): a step followed by "It can't be regenerated." destroys
    without regeneration; one followed by "If …, [it does something] instead." does that instead
    when the condition holds (:func:`instead_of`)."""
    replaced = False
    for index, step in enumerate(steps):
        if replaced:  # the "… instead" sentence was read with the step before it
            replaced = False
            continue
        following = steps[index + 1] if index + 1 < len(steps) else None
        alternative = instead_of(step, following)
        if alternative is not None:
            replaced = True
            step = _instead(ctx, step, following, alternative)
            # "…, instead destroy that creature. It can't be regenerated.": the sentence after both
            following = steps[index + 2] if index + 2 < len(steps) else None
        ctx.no_regeneration = _forbids_regeneration(following)
        mark = len(ctx.game.events)
        try:
            execute(ctx, step)
        finally:
            ctx.no_regeneration = False
        _count_moved(ctx, mark)


def _count_moved(ctx: Context, mark: int) -> None:
    """ "… then draw that many cards": how many objects the step just done moved (``nouns.MOVED``)."""
    ctx.bindings[MOVED] = sum(1 for event in ctx.game.events[mark:] if event.kind == "move")


def _instead(ctx: Context, step: object, following: object, action: Action) -> object:
    """The step to execute: ``step``, or what the sentence after it says it does instead. The
    condition is read first, with the targets of ``step`` named ("If that creature has a +1/+1
    counter on it, … instead"). The same verb keeps what the step said and changes what the
    sentence says ("it deals 4 damage instead"); another verb is a step of its own."""
    assert isinstance(step, Clause) and isinstance(following, Conditional)
    named: list[Ref] = list(ctx.it)
    for node in walk(step):
        if isinstance(node, Noun | Pronoun) and id(node) in ctx.slots:
            named = resolve(ctx, node)  # "that creature" in the condition names the target
    holds = evaluate(ctx, following.condition) == (following.word == "if")
    ctx.it = named  # "… deals 5 damage to it instead": the step's target
    if not holds:
        return step
    before = step.predicates[0]
    assert isinstance(before, Action)
    targeted = [v for _, v in before.args if isinstance(v, Noun | Pronoun) and id(v) in ctx.slots]
    if len(targeted) == 1:  # "… to it instead": "it" is what the step targets
        args = tuple((k, targeted[0] if _names_the_target(v) else v) for k, v in action.args)
        action = Action(action.verb, args, action.form, action.slot)
    body = following.body
    assert isinstance(body, Clause)
    it = isinstance(body.subject, Pronoun) and body.subject.word == "it"  # "it" is who did the step
    if action.verb == before.verb:
        # a phrase that says all the step said is itself ("sacrifices all lands they control
        # instead"); one that says part of it changes that part ("deals 5 damage instead")
        whole = set(dict(action.args)) >= set(dict(before.args))
        args = tuple({**dict(before.args), **dict(action.args)}.items())
        merged = action if whole else Action(before.verb, args, before.form, before.slot)
        # "Target player sacrifices a land. … Each player sacrifices all lands they control
        # instead …": the sentence's own subject does it
        subject = step.subject if body.subject is None or it else body.subject
        return dataclasses.replace(step, subject=subject, predicates=(merged,))
    return Clause(step.subject if it else body.subject, (action,))


def _names_the_target(phrase: object) -> bool:
    """ "it", "the creature", "that creature" in "… instead": what the step before targets."""
    if isinstance(phrase, Pronoun):
        return phrase.word == "it"
    return (
        isinstance(phrase, Noun)
        and phrase.determiners in (("the",), ("that",))
        and not phrase.qualifiers
        and not phrase.plural
    )


def _forbids_regeneration(step: object) -> bool:
    """ "It can't be regenerated." / "They can't be regenerated." (no duration: it is about the
    destruction just before it)."""
    return (
        isinstance(step, Clause)
        and step.duration is None
        and bool(step.predicates)
        and all(isinstance(p, Action) and p.verb == "cant_be_regenerated" for p in step.predicates)
    )


def _execute(ctx: Context, step: object) -> None:
    if isinstance(step, Clause):
        _clause(ctx, step)
    elif isinstance(step, Sequence):
        previous: SelfRef | Pronoun | Noun | Nouns | None = None
        for item in step.steps:
            if isinstance(item, Clause) and isinstance(item.subject, SameSubject) and previous is not None:
                # "~ gets +2/+0 until end of turn and deals 1 damage to you", "Target player draws a
                # card, then discards a card": the clause before's subject
                item = dataclasses.replace(item, subject=previous)
            if isinstance(item, Clause) and not isinstance(item.subject, SameSubject | None):
                previous = item.subject
            mark = len(ctx.game.events)
            _execute(ctx, item)
            _count_moved(ctx, mark)
    elif isinstance(step, Conditional):
        _conditional(ctx, step)
    elif isinstance(step, RollDie):
        _roll(ctx, step)
    elif isinstance(step, Action):
        raise EngineError(f"{step.verb!r} is not a step")
    else:
        raise EngineError(f"cannot execute {step!r}")


def _clause(ctx: Context, clause: Clause) -> None:
    doer = ctx.actor or ctx.controller
    subject: list[Ref] = [doer] if clause.subject is None else resolve(ctx, clause.subject)
    if sum(isinstance(ref, str) for ref in subject) > 1 and refers_to_named_players(clause):
        # "Each player creates a token for each untapped Forest they control", "Each opponent
        # exiles a creature they control": each player does it, "they" naming that player
        for ref in subject:
            ctx.it = [ref]
            with speaking_of(ctx, ref):
                _clause_for(ctx, clause, [ref])
        return
    _clause_for(ctx, clause, subject)


def _clause_for(ctx: Context, clause: Clause, subject: list[Ref]) -> None:
    ctx.duration = clause.duration
    times = 1 if clause.for_each is None else count_each(ctx, clause.for_each, subject)
    covering = may_covers_all(clause)
    for index, predicate in enumerate([p for _ in range(times) for p in clause.predicates]):
        if covering and index > 0 and not ctx.bindings.get("did"):
            break  # "You may reveal a creature card … and put it into your hand": declined, none of it
        if isinstance(predicate, Clause):  # "… get +1/+1 and creatures your opponents control get
            if predicate.duration is None:  # -1/-1 until end of turn": the duration is the whole's
                predicate = dataclasses.replace(predicate, duration=clause.duration)
            _clause(ctx, predicate)
            ctx.duration = clause.duration
            continue
        handler = ctx.game.catalog.verbs.get(predicate.verb)
        if handler is None:
            raise EngineError(f"no handler for {predicate.verb!r}")
        handler(ctx, subject, predicate)
        mention_zone_owners(ctx, predicate)  # "… to its owner's hand. Then that player …"


def count_each(ctx: Context, each: object, subject: list[Ref]) -> int:
    """How many times "… for each X" repeats the clause: the objects or players X names, or the
    counters of a kind on an object ("for each +1/+1 counter on ~"). "it" keeps naming the
    subject."""
    before = list(ctx.it)
    if isinstance(each, Action) and each.verb == "counters_on":
        kind = counter_kind(each.arg("kind"))
        number = sum(obj.counters.get(kind, 0) for obj in objects(resolve(ctx, each.arg("what"))))
    elif isinstance(each, Noun) and not each.determiners:
        number = count(ctx, each)
    else:
        number = len(resolve(ctx, each))
    ctx.it = before or list(subject)
    return number


def _conditional(ctx: Context, node: Conditional) -> None:
    if node.word == "when" and node.trigger == REFLEXIVE:  # "When you do, …" (603.12)
        # it triggers on the action just done: an optional one if it was done, another one always
        if "did" not in ctx.bindings or evaluate(ctx, node.condition):
            waiting = Delayed(
                node.condition, node.body, ctx.controller, ctx.source, list(ctx.it), ctx.granter
            )
            ctx.game.pending.append(StackItem(ctx.source.id, ctx.controller, None, [], delayed=waiting))
        return
    if node.word == "at":  # a delayed triggered ability: it waits for its moment
        ctx.game.delayed.append(
            Delayed(node.condition, node.body, ctx.controller, ctx.source, list(ctx.it), ctx.granter)
        )
        return
    if node.word == "where X is":
        condition = node.condition
        if isinstance(condition, Action) and condition.verb == "stat_of":  # "the discarded card's …"
            ctx.bindings["X"] = stat_of(ctx, condition)
        else:
            ctx.bindings["X"] = value(ctx, condition)
        _execute(ctx, node.body)
    elif node.word == "then":
        _execute(ctx, node.body)
    elif node.word == "for each":  # "For each creature destroyed this way, its controller creates …"
        _for_each(ctx, node)
    elif node.word in DURATIONS:  # "Until end of turn, ~ becomes a 3/3 …": the body's duration
        body = node.body
        _execute(ctx, dataclasses.replace(body, duration=node.word) if isinstance(body, Clause) else body)
    elif node.word == "may":  # "you may search …, then shuffle": all of it, or none of it
        _optional(ctx, node)
    elif node.word == "if" and dies_this_turn_instead(node) is not None:  # a replacement effect (614.1)
        dies_instead(ctx, dies_this_turn_instead(node))
    elif node.word == "unless" and isinstance(node.condition, Clause):
        _unless_paid(ctx, node)
    elif node.word in ("if", "unless"):
        if node.after and isinstance(node.body, Clause):
            _antecedent(ctx, node.body)
        holds = evaluate(ctx, node.condition)
        ctx.bindings[OTHERWISE] = int(holds != (node.word == "if"))  # "Otherwise, …" reads it
        if holds == (node.word == "if"):
            _execute(ctx, node.body)
    elif node.word == "otherwise":  # "If …, A. Otherwise, B.": B when the "if" before did not hold
        if ctx.bindings.get(OTHERWISE):
            _execute(ctx, node.body)
    else:
        raise EngineError(f"cannot execute a {node.word!r} clause")


def _for_each(ctx: Context, node: Conditional) -> None:
    """ "For each X, …": the body once for each object or player X names now, in turn, "it",
    "its controller" and "that player" naming that one (``query.executable.for_each_problem``
    says which bodies)."""
    before = list(ctx.it)
    for ref in resolve(ctx, node.condition):
        ctx.it = [ref]
        with speaking_of(ctx, ref):
            _execute(ctx, node.body)
    ctx.it = before


def progress(ctx: Context) -> tuple[str, int]:
    """What an optional instruction may change: the game, and what the ability has done so far.
    The same before and after it, the instruction was not done (609.3: "if you do" then fails)."""
    return ctx.game.state_key(), sum(map(len, ctx.done.values()))


def _optional(ctx: Context, node: Conditional) -> None:
    """ "You may [do all of this]": the player the condition names answers yes or no; the whole
    optional part runs only on yes ("if you do" reads the answer afterwards)."""
    did = False
    chooser = list(players(ctx, resolve(ctx, node.condition)))
    for player in chooser:
        if ctx.decider.choose(f"{player}: {_describe(node.body)}?", ["yes", "no"]) != "yes":
            continue
        before = progress(ctx)
        try:
            if chooser == [ctx.controller]:  # "you may …"
                _execute(ctx, node.body)
            else:  # "Each player may search their library …": each one who says yes does it
                _as_player(ctx, player, node.body)
        except CostError as error:  # "you may pay {1}" with no way to pay: not done
            ctx.game.log.append(f"{player} cannot: {error}")
            continue
        # 609.3: an optional instruction that could change nothing was not done ("if you do")
        did = did or progress(ctx) != before
    ctx.bindings["did"] = int(did)


def _as_player(ctx: Context, player: str, step: object) -> None:
    """``step`` done by ``player``: its clauses without a subject are theirs, and "they", "their"
    and "that player" name them."""
    actor, it = ctx.actor, list(ctx.it)
    ctx.actor, ctx.it = player, [player]  # as for "Each player creates …" (_clause)
    try:
        with speaking_of(ctx, player):
            _execute(ctx, step)
    finally:
        ctx.actor, ctx.it = actor, it


def _unless_paid(ctx: Context, node: Conditional) -> None:
    """ "Sacrifice ~ unless you sacrifice a Mountain" (118.12): the player the condition names may
    carry out its instruction as a payment, in full or not at all (118.3: a Mountain they cannot
    sacrifice is not paid); the body happens only if nobody paid."""
    cost = node.cost
    if node.after and isinstance(node.body, Clause):
        _antecedent(ctx, node.body)
    payer = node.payer
    if isinstance(payer, Noun | Pronoun) and payer.antecedents:  # "… target opponent unless that player …"
        payer = payer.antecedents[0]
    paid = False
    for player in players(ctx, resolve(ctx, payer)):
        if paid or not isinstance(cost, Action):
            break
        question = f"{player}: {_describe(cost)} rather than let it happen?"
        if ctx.decider.choose(question, ["yes", "no"]) != "yes":
            continue
        try:
            pay_action(ctx.game, ctx.decider, player, ctx.source, cost)
            paid = True
        except CostError as error:
            ctx.game.log.append(f"{player} cannot pay: {error}")
    ctx.bindings[OTHERWISE] = int(paid)
    if not paid:
        _execute(ctx, node.body)


def _describe(step: object) -> str:
    verbs = [n.verb.replace("_", " ") for n in walk(step) if isinstance(n, Action)]
    return verbs[0] if verbs else "do it"


def _antecedent(ctx: Context, body: Clause) -> None:
    """ "Counter target spell unless its controller pays {3}": the condition, written after the
    body, speaks of the body's object ("its"), so "it" names that object while it is evaluated."""
    for predicate in body.predicates:
        what = predicate.arg("what") if isinstance(predicate, Action) else None
        if isinstance(what, SelfRef) or (isinstance(what, Noun) and id(what) in ctx.slots):
            ctx.it = resolve(ctx, what)
            return


# -- dice ---------------------------------------------------------------------------------------
MAX_REROLLS = 100
"""Rerolls of one die before the engine stops offering another (a scripted "yes" forever)."""


def roll_dice(ctx: Context, sides: int, count: int, *, keep_lower: bool = False) -> int:
    """Roll ``count`` dN for the controller: extra dice from replacement effects (Pixie Guide,
    Barbarian Class) are rolled and the lowest ignored, as if never rolled. Returns the natural
    result of the die that counts, or the total of the results of several dice ("Roll two
    six-sided dice. … where X is the total of those results", Pair o' Dice Lost)."""
    proposed = replace(ctx.game, Proposed("roll", ctx.controller, amount=count, sides=sides), ctx.decider)
    count, extra = proposed.amount, proposed.extra
    rolls = [ctx.decider.roll(sides, f"d{sides} for {ctx.source.name}") for _ in range(count + extra)]
    rolls = [_rerolled(ctx, sides, roll) for roll in rolls]
    kept = sorted(rolls, reverse=True)[:count]
    ctx.game.log.append(f"{ctx.controller} rolls {rolls} (keeps {kept})")
    # "whenever you roll one or more dice" sees only the dice that count
    roll = Event("roll", ctx.source, player=ctx.controller, amount=len(kept))
    roll.sides, roll.naturals = sides, tuple(kept)
    ctx.game.events.append(roll)
    return sum(kept) if not keep_lower else min(kept)


def reroll_on(ability: Ability) -> tuple[int, int] | None:
    """ "If you roll a 3 on a d6, you may reroll that die." (Clam-I-Am): the result and the die's
    faces, or None for any other ability."""
    if ability.kind is not Kind.STATIC or len(ability.effects) != 1:
        return None
    step = ability.effects[0]
    if not isinstance(step, Conditional) or step.word != "if" or not isinstance(step.body, Clause):
        return None
    condition, body = step.condition, step.body
    if not isinstance(condition, Action) or condition.verb != "rolls_result":
        return None
    who, result = condition.arg("who"), condition.arg("result")
    if not (isinstance(who, Pronoun) and who.word == "you" and isinstance(result, Number)):
        return None
    (predicate,) = body.predicates if len(body.predicates) == 1 else (None,)
    may = isinstance(predicate, Action) and predicate.verb == "may"
    inner = predicate.arg("action") if may and isinstance(predicate, Action) else None
    if not (isinstance(inner, Action) and inner.verb == "reroll"):
        return None
    sides = condition.arg("die")
    return (result.value, sides) if isinstance(sides, int) else None


def _rerolled(ctx: Context, sides: int, roll: int) -> int:
    """A die its roller may reroll (706.8): the first roll never happened — it is not logged as a
    roll, triggers nothing and counts for nothing; the new roll may be rerolled again."""
    for _ in range(MAX_REROLLS):
        offers = [
            obj
            for obj in ctx.game.permanents(ctx.controller)
            for _, ability in active_abilities(obj)
            if reroll_on(ability) == (roll, sides)
        ]
        question = f"{offers[0].name}: reroll the {roll} on the d{sides}?" if offers else ""
        if not offers or ctx.decider.choose(question, ["yes", "no"]) != "yes":
            return roll
        ctx.game.log.append(f"{ctx.controller} rerolls the {roll} ({offers[0].name})")
        roll = ctx.decider.roll(sides, f"d{sides} rerolled for {ctx.source.name}")
    return roll


def _rolls_highest_natural(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever you roll a die's highest natural result" (Netherese Puzzle-Ward): a die shows
    its highest face, whatever is added to the result (706.2); the planar die has no numerical
    result and never does."""
    highest = event.kind == "roll" and event.sides > 0 and event.sides in event.naturals
    return highest and is_named(ctx, trigger.arg("who"), event.player)


def _rolls_natural(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "When you roll a natural 20" (Critical Hit): a die that shows that number, whatever is
    added to the result (706.2); the planar die shows none."""
    wanted = trigger.arg("result")
    shown = event.kind == "roll" and isinstance(wanted, Number) and wanted.value in event.naturals
    return shown and is_named(ctx, trigger.arg("who"), event.player)


def _recognized_reroll(ability: Ability) -> bool:
    return reroll_on(ability) is not None


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


def extra_dice(game: Game, event: Proposed) -> list[Replacement]:
    """ "If you would roll one or more dice, instead roll that many dice plus one and ignore the
    lowest roll." (Pixie Guide, Barbarian Class): one more die each, for their controller's rolls
    (706.6)."""
    if event.kind != "roll":
        return []
    return [
        Replacement(obj.name, ("extra die", obj.id, index), _one_more)
        for obj in game.permanents(event.player)
        for index, ability in active_abilities(obj)
        if any(_adds_a_die(n, event, obj) for e in ability.effects for n in walk(e))
    ]


def _adds_a_die(node: object, event: Proposed, source: GameObject) -> bool:
    """Whether ``node`` is an extra-die phrase that applies to this roll: "that many dice plus one"
    to every roll, "If you would roll a d20, instead roll two d20s and ignore the lower roll."
    (Pixie Guide's current wording) to a roll of one die of that kind only. Several such dice
    rolled together would each be replaced by a pair of its own, which the engine does not model:
    refused, never rolled as one pool."""
    if not isinstance(node, Action) or node.verb != "roll_extra_die":
        return False
    kind = node.arg("die")
    if kind is None:
        return True
    if kind != event.sides:
        return False
    if event.amount != 1:
        raise NotExecutableError(source.name, [f"two d{kind}s for each of {event.amount} d{kind}"])
    return True


def _one_more(event: Proposed) -> Proposed:
    event.extra += 1
    return event


def _instead_handler(ctx: Context, subject: list[Ref], action: Action) -> None:
    raise EngineError("'… instead' is read with the step before it (execute_steps)")


SECTION = Section(
    "rules.execution",
    verbs={"instead": _instead_handler},
    replacements=frozenset({"roll_extra_die"}),
    replacement_effects=(extra_dice,),
    static_abilities=(_recognized_reroll,),
    triggers={
        "rolls_highest_natural": (_rolls_highest_natural, None),
        "rolls_natural": (_rolls_natural, None),
    },
)
"""Extra dice (Pixie Guide, Barbarian Class) are a replacement effect on die rolls."""
