"""Combat (rules 506–511): the combat phase's steps, declaring attackers and blockers, combat
damage, the combat keywords and the attack and block triggers.

The combat phase is the steps ``combat`` (beginning of combat), ``declare_attackers``,
``declare_blockers``, ``first_strike_damage``, ``combat_damage`` and ``end_of_combat``
(:class:`~carddb.engine.core.state.Step`). :func:`step_begins` does each step's turn-based action as the
game moves into it; :func:`skipped` tells which steps do not happen (no attackers: no blockers and
no damage, rule 508.8; no first or double strike: one damage step, rule 510.4). The scenario actions
``attack`` and ``block`` are :func:`attack` and :func:`block`: they say who attacks and who blocks,
and move the game into the step where that is declared. Declarations are checked there, so an
illegal one refuses the whole action.
"""

from __future__ import annotations

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import EngineError, IllegalActionError
from carddb.engine.core.forms import is_form, named, written
from carddb.engine.core.proposed import Proposed
from carddb.engine.core.state import COMBAT_STEPS, Combat, Event, Game, GameObject, Step
from carddb.engine.query.abilities import keywords_of, summoning_sick
from carddb.engine.query.characteristics import colors_of
from carddb.engine.query.nouns import resolve, value
from carddb.engine.rules.continuous import NO_DECISIONS, static_clauses
from carddb.engine.rules.life import gain_life, lose_life
from carddb.engine.rules.protection import protected_from
from carddb.engine.rules.replacement import replace
from carddb.engine.rules.triggers import deals_damage, is_named
from carddb.oracle.model import Action, Noun, Pronoun

COMBAT_KEYWORDS = frozenset({
    "flying", "reach", "haste", "vigilance", "defender", "menace", "first strike", "double strike",
    "trample", "deathtouch", "lifelink",
})  # fmt: skip
"""The keyword abilities whose rules this module applies."""
EVASION_KEYWORDS = frozenset({"fear", "intimidate", "shadow", "horsemanship"})
"""Evasion abilities (702.13, 702.28, 702.31, 702.36) checked by :func:`_evasion`."""
LANDWALK = {
    "plainswalk": "Plains", "islandwalk": "Island", "swampwalk": "Swamp", "mountainwalk": "Mountain",
    "forestwalk": "Forest",
}  # fmt: skip
"""Landwalk (702.14) with a basic land type: the type the defending player's lands are checked for."""
RESTRICTIONS = frozenset({"cant_attack", "cant_block", "cant_be_blocked", "cant_be_blocked_except_by_many"})
"""Static abilities about attacking and blocking, read when creatures attack or block."""
REQUIREMENTS = frozenset({"attacks_each_combat", "blocks_each_combat", "attacks_or_blocks_each_combat"})
"""Static requirements (508.1d, 509.1c): "~ attacks each combat if able", "blocks each combat if
able", "attacks or blocks each combat if able"."""
_FORMS = {
    "cant_attack": named("cant_attack", "attack", "attack_or_block"),
    "cant_block": named("cant_block", "block"),
    "cant_be_blocked": named("cant_be_blocked", "unblockable", "by", "except_by"),
}


# -- what a creature may do ---------------------------------------------------------------------
def restrictions(game: Game, obj: GameObject, verb: str) -> list[Action]:
    """The ``verb`` predicates of the static abilities on the battlefield that apply to ``obj``
    ("~ can't block.", "Creatures your opponents control can't block."), and those that resolved
    this turn ("Target creature can't block this turn.")."""
    found = [Action(verb) for kept in obj.restrictions_until_end_of_turn if kept == verb]
    for _source, ctx, clause in static_clauses(game):
        wanted = [p for p in clause.predicates if isinstance(p, Action) and p.verb == verb]
        subject = clause.subject
        if wanted and subject is not None and any(ref is obj for ref in resolve(ctx, subject)):
            found.extend(wanted)
    return found


def _can_attack(game: Game, obj: GameObject, player: str) -> str | None:
    """Why ``obj`` cannot attack for ``player`` (None: it can)."""
    if obj.zone != "battlefield" or obj.controller != player:
        return f"{player} controls no {obj.name} on the battlefield"
    if not obj.is_a("Creature"):
        return f"{obj.name} is not a creature"
    if obj.tapped:
        return f"{obj.name} is tapped"
    if summoning_sick(game, obj):
        return f"{obj.name} has not been under {player}'s control since the turn began (summoning sickness)"
    if "defender" in keywords_of(obj):
        return f"{obj.name} has defender"
    if restrictions(game, obj, "cant_attack"):
        return f"{obj.name} can't attack"
    return None


def _can_block(game: Game, blocker: GameObject, attacker: GameObject, combat: Combat) -> str | None:
    """Why ``blocker`` cannot block ``attacker`` (None: it can)."""
    defending = combat.attackers.get(attacker.id)
    if defending is None:
        return f"{attacker.name} is not attacking"
    if blocker.zone != "battlefield" or blocker.controller != defending:
        return f"{defending} controls no {blocker.name} on the battlefield"
    if not blocker.is_a("Creature"):
        return f"{blocker.name} is not a creature"
    if protected_from(attacker, blocker):
        return f"{attacker.name} has protection from {blocker.name}: it can't block it"
    if blocker.tapped:
        return f"{blocker.name} is tapped"
    if restrictions(game, blocker, "cant_block") or any(
        is_form(r, "attack_or_block") for r in restrictions(game, blocker, "cant_attack")
    ):
        return f"{blocker.name} can't block"
    keywords = keywords_of(blocker)
    if "flying" in keywords_of(attacker) and not keywords & {"flying", "reach"}:
        return f"{attacker.name} has flying: only a creature with flying or reach blocks it"
    evasion = _evasion(game, blocker, attacker, defending)
    if evasion is not None:
        return evasion
    for rule in restrictions(game, attacker, "cant_be_blocked"):
        ctx = Context(game, NO_DECISIONS, attacker.controller, attacker)
        by = rule.arg("by")
        if is_form(rule, "unblockable"):
            return f"{attacker.name} can't be blocked"
        if is_form(rule, "by") and isinstance(by, Noun) and is_named(ctx, by, blocker):
            return f"{attacker.name} can't be blocked by {by.description}"
        if is_form(rule, "except_by") and isinstance(by, Noun) and not is_named(ctx, by, blocker):
            return f"{attacker.name} can't be blocked except by {by.description}"
    return None


def _evasion(game: Game, blocker: GameObject, attacker: GameObject, defending: str) -> str | None:
    """Why the evasion abilities of ``attacker`` (and shadow of ``blocker``) forbid this block."""
    theirs, mine = keywords_of(attacker), keywords_of(blocker)
    if "fear" in theirs and not (blocker.is_a("Artifact") or "B" in colors_of(blocker)):
        return f"{attacker.name} has fear: only artifact and/or black creatures block it"  # 702.36b
    if "intimidate" in theirs and not (blocker.is_a("Artifact") or colors_of(attacker) & colors_of(blocker)):
        return (  # 702.13b
            f"{attacker.name} has intimidate: only artifact creatures and creatures that share a colour "
            "with it block it"
        )
    if ("shadow" in theirs) != ("shadow" in mine):  # 702.28b: shadow blocks and is blocked by shadow only
        return f"{blocker.name} can't block {attacker.name}: only one of them has shadow"
    if "horsemanship" in theirs and "horsemanship" not in mine:
        return f"{attacker.name} has horsemanship: only a creature with horsemanship blocks it"  # 702.31b
    for keyword, land_type in LANDWALK.items():  # 702.14c
        lands = [obj for obj in game.permanents(defending) if obj.is_a("Land") and obj.is_a(land_type)]
        if keyword in theirs and lands:
            return (
                f"{attacker.name} has {keyword} and {defending} controls a {land_type}: it can't be blocked"
            )
    return None


def _minimum_blockers(game: Game, attacker: GameObject) -> int:
    """Menace: "can't be blocked except by two or more creatures"."""
    least = 2 if "menace" in keywords_of(attacker) else 1
    for rule in restrictions(game, attacker, "cant_be_blocked_except_by_many"):
        ctx = Context(game, NO_DECISIONS, attacker.controller, attacker)
        least = max(least, value(ctx, rule.arg("amount")))
    return least


# -- the steps ----------------------------------------------------------------------------------
def skipped(game: Game) -> bool:
    """Whether the step the game is moving into does not happen."""
    combat = game.combat
    if game.step in (Step.DECLARE_BLOCKERS, Step.COMBAT_DAMAGE):
        return combat is None or not combat.declared  # rule 508.8
    if game.step is Step.FIRST_STRIKE_DAMAGE:
        return (
            combat is None
            or not combat.declared
            or not any(
                keywords_of(game.objects[i]) & {"first strike", "double strike"} for i in _in_combat(combat)
            )
        )
    return False


def step_begins(game: Game, decider: Decider) -> None:
    """The turn-based action of the step the game has just moved into."""
    if game.step is Step.COMBAT:
        game.combat = Combat()
    elif game.step is Step.DECLARE_ATTACKERS:
        _declare_attackers(game)
    elif game.step is Step.DECLARE_BLOCKERS:
        _declare_blockers(game, decider)
    elif game.step is Step.FIRST_STRIKE_DAMAGE:
        _combat_damage(game, decider, first=True)
    elif game.step is Step.COMBAT_DAMAGE:
        _combat_damage(game, decider, first=False)
    elif game.step not in COMBAT_STEPS:
        game.combat = None  # creatures leave combat as the end of combat step ends (rule 511.3)


def _in_combat(combat: Combat) -> list[int]:
    return [*combat.attackers, *(b for b in combat.blockers if combat.blockers[b])]


def _required(game: Game, obj: GameObject, word: str) -> bool:
    """Whether a requirement says ``obj`` attacks (``word`` "attack") or blocks each combat if able
    (a static ability), or this turn ("Target creature attacks this turn if able.")."""
    if f"must {word}" in obj.restrictions_until_end_of_turn:
        return True
    own = "attacks_each_combat" if word == "attack" else "blocks_each_combat"
    verbs = (own, "attacks_or_blocks_each_combat")
    return any(restrictions(game, obj, verb) for verb in verbs)


def must_this_turn(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Target creature attacks this turn if able.", "… blocks this turn if able.": a requirement
    until end of turn (508.1d, 509.1c)."""
    if ctx.duration is None:
        raise EngineError(f"{action.verb!r} without 'this turn' is not a requirement the engine knows")
    word = "attack" if action.verb == "attacks" else "block"
    for obj in subject:
        if isinstance(obj, GameObject) and obj.zone == "battlefield":
            obj.restrictions_until_end_of_turn.append(f"must {word}")


def _must_check(action: Action, catalog: Catalog) -> str | None:
    return None if action.arg("what") is None else f"{written(action)!r} (a creature to block)"


def _able(ctx: Context, condition: Action) -> bool:
    """ "… if able": the requirement itself says it applies only when it can be obeyed."""
    return True


def _declare_attackers(game: Game) -> None:
    combat = game.combat = game.combat or Combat()
    for object_id in combat.attackers:
        obj = game.objects[object_id]
        problem = _can_attack(game, obj, game.active)
        if problem:
            raise IllegalActionError(problem)
    for obj in game.permanents(game.active):  # requirements are obeyed when they can be (508.1d)
        able = obj.id not in combat.attackers and _can_attack(game, obj, game.active) is None
        if able and _required(game, obj, "attack"):
            raise IllegalActionError(f"{obj.name} attacks each combat if able")
    combat.declared = bool(combat.attackers)
    if combat.attackers:
        game.players[game.active].attacked_this_turn = True
    for object_id in combat.attackers:
        game.objects[object_id].attacked_turn = game.turn
    for object_id, defending in combat.attackers.items():
        obj = game.objects[object_id]
        if "vigilance" not in keywords_of(obj):
            game.tap(obj)
        game.events.append(Event("attacks", obj, player=game.active, other=defending))
        game.log.append(f"{obj.name} attacks {defending}")
    if combat.attackers:
        game.events.append(Event("attackers", None, player=game.active))


def _block_requirements(game: Game, combat: Combat) -> None:
    """509.1c: a creature that "blocks each combat if able" and can block an attacker does (an
    attacker with menace asks for a second blocker, so it does not make one able alone)."""
    for player in dict.fromkeys(combat.attackers.values()):
        for obj in game.permanents(player):
            if obj.id in combat.blockers or not _required(game, obj, "block"):
                continue
            able = [
                a for a in combat.attackers
                if _can_block(game, obj, game.objects[a], combat) is None
                and "menace" not in keywords_of(game.objects[a])
            ]  # fmt: skip
            if able:
                raise IllegalActionError(f"{obj.name} blocks each combat if able")


def _declare_blockers(game: Game, decider: Decider) -> None:
    combat = game.combat
    if combat is None:
        return
    counts: dict[int, list[int]] = {attacker: [] for attacker in combat.attackers}
    for blocker_id, attackers in combat.blockers.items():
        blocker = game.objects[blocker_id]
        for attacker_id in attackers:
            attacker = game.objects[attacker_id]
            problem = _can_block(game, blocker, attacker, combat)
            if problem:
                raise IllegalActionError(problem)
            counts[attacker_id].append(blocker_id)
    _block_requirements(game, combat)
    for attacker_id, blockers in counts.items():
        attacker = game.objects[attacker_id]
        least = _minimum_blockers(game, attacker)
        if blockers and len(blockers) < least:
            raise IllegalActionError(f"{attacker.name} can't be blocked except by {least} or more creatures")
        if blockers:
            combat.blocked.add(attacker_id)
            combat.order[attacker_id] = _damage_order(game, decider, attacker, blockers)
    for blocker_id, attackers in combat.blockers.items():
        blocker = game.objects[blocker_id]
        for index, attacker_id in enumerate(attackers):
            attacker = game.objects[attacker_id]
            game.events.append(
                Event("blocks", blocker, player=blocker.controller, other=attacker, amount=index)
            )
            game.log.append(f"{blocker.name} blocks {game.objects[attacker_id].name}")
    for attacker_id, blockers in counts.items():
        attacker = game.objects[attacker_id]
        if not blockers:
            game.events.append(Event("unblocked", attacker, player=attacker.controller))
        for index, blocker_id in enumerate(blockers):
            blocker = game.objects[blocker_id]
            game.events.append(
                Event("blocked", attacker, player=attacker.controller, other=blocker, amount=index)
            )


def _damage_order(game: Game, decider: Decider, attacker: GameObject, blockers: list[int]) -> list[int]:
    """The attacking player puts an attacker's blockers in damage assignment order."""
    left = list(blockers)
    order: list[int] = []
    while len(left) > 1:
        names = list(dict.fromkeys(game.objects[i].name for i in left))
        if len(names) == 1:
            break
        name = decider.choose(
            f"{attacker.controller}: which blocker of {attacker.name} is dealt damage first?", names
        )
        chosen = next(i for i in left if game.objects[i].name == name)
        left.remove(chosen)
        order.append(chosen)
    return order + left


def lethal_damage(source: GameObject, creature: GameObject) -> int:
    """The damage that is lethal to ``creature`` from ``source`` now: its toughness less the damage
    already marked on it, 1 from a source with deathtouch (702.19b, 702.2c)."""
    if "deathtouch" in keywords_of(source):
        return 1
    toughness = creature.toughness
    return max(0, toughness - creature.damage) if toughness is not None else 10**9


def _combat_damage(game: Game, decider: Decider, *, first: bool) -> None:
    """Combat damage (rule 510): every creature that deals damage in this step assigns it, then it
    is all dealt at once. In the first-strike step only first and double strikers deal damage; in the
    second, those that did not then, and double strikers again."""
    combat = game.combat
    if combat is None:
        return

    def strikes(obj: GameObject) -> bool:
        if restrictions(game, obj, "assigns_no_combat_damage"):  # "~ assigns no combat damage this
            return False  # turn" (510.1: it assigns none, blocked or not)
        keywords = keywords_of(obj)
        if first:
            return bool(keywords & {"first strike", "double strike"})
        return obj.id not in combat.dealt_first or "double strike" in keywords

    assigned: list[tuple[GameObject, Ref, int]] = []
    for attacker_id, defending in combat.attackers.items():
        attacker = game.objects[attacker_id]
        power = attacker.power or 0
        if not strikes(attacker) or power <= 0:
            continue
        if attacker_id not in combat.blocked:
            assigned.append((attacker, defending, power))
            continue
        trample = "trample" in keywords_of(attacker)
        blockers = [
            game.objects[i]
            for i in combat.order.get(attacker_id, [])
            if game.objects[i].zone == "battlefield"
        ]
        left = power
        for index, blocker in enumerate(blockers):
            last = index == len(blockers) - 1 and not trample
            amount = left if last else min(left, lethal_damage(attacker, blocker))
            if amount:
                assigned.append((attacker, blocker, amount))
            left -= amount
        if trample and left > 0:  # the rest tramples over to the player
            assigned.append((attacker, defending, left))
    for blocker_id, attackers in combat.blockers.items():
        blocker = game.objects[blocker_id]
        power = blocker.power or 0
        targets = [game.objects[i] for i in attackers if i in combat.attackers]
        if targets and blocker.zone == "battlefield" and strikes(blocker) and power > 0:
            assigned.append((blocker, targets[0], power))
    for source, target, amount in assigned:
        if first:
            combat.dealt_first.add(source.id)
        deal_damage(game, source, target, amount, combat=True, decider=decider)


def deal_damage(
    game: Game,
    source: GameObject,
    target: Ref,
    amount: int,
    *,
    combat: bool = False,
    decider: Decider | None = None,
) -> tuple[int, Ref | None]:
    """``source`` deals ``amount`` damage to ``target``: a player loses that much life, a
    planeswalker loses loyalty, a creature is marked with damage (deathtouch: destroyed by the
    next state-based actions); a source with lifelink makes its controller gain that much life.
    Returns the damage dealt (0: none, all of it prevented) and to what (another, redirected:
    614.9). ``decider``: who orders the
    replacement effects that apply (616.1)."""
    affected = target if isinstance(target, str) else target.controller
    dealt = Proposed("damage", affected, source=source, target=target, amount=amount, combat=combat)
    proposed = replace(game, dealt, decider)
    amount = proposed.amount  # what prevention effects (and protection) left of it
    if proposed.kind == "replaced" or amount <= 0 or proposed.target is None:
        return 0, None
    target = proposed.target  # a redirection (614.9) deals it to another
    game.events.append(
        Event("damage", source, player=source.controller, other=target, amount=amount, combat=combat)
    )
    keywords = keywords_of(source)
    if isinstance(target, str):
        game.players[target].dealt_damage_this_turn = True
        if "infect" in keywords:  # poison counters instead of life loss (702.90b)
            game.players[target].poison += amount
        else:
            lose_life(game, target, amount, decider)  # damage to a player is life loss (120.3a)
    elif target.zone == "battlefield":
        if target.is_a("Planeswalker") and not target.is_a("Creature"):
            target.counters["loyalty"] = target.counters.get("loyalty", 0) - amount
        elif keywords & {"wither", "infect"}:  # -1/-1 counters instead of damage (702.80a, 702.90b)
            target.counters["-1/-1"] = target.counters.get("-1/-1", 0) + amount
            if "deathtouch" in keywords:
                target.deathtouched = True
        else:
            target.damage += amount
            target.damaged_turn = game.turn
            if "deathtouch" in keywords:
                target.deathtouched = True
    if "lifelink" in keywords_of(source):
        gain_life(game, source.controller, amount, decider)
    return amount, target


# -- triggers -----------------------------------------------------------------------------------
def _attacks_trigger(ctx: Context, trigger: Action, event: Event) -> bool:
    """``attacks_trigger``: "~ attacks", "you attack" / "one or more creatures you control attack",
    "~ attacks and isn't blocked"."""
    what = trigger.arg("what")
    if event.kind == "attacks" and is_form(trigger, "attacks"):
        return is_named(ctx, what, event.obj)
    if event.kind == "attackers" and is_form(trigger, "attack"):
        if isinstance(what, Pronoun):
            return is_named(ctx, what, event.player)
        combat = ctx.game.combat
        attackers = [ctx.game.objects[i] for i in combat.attackers] if combat else []
        return any(is_named(ctx, what, obj) for obj in attackers)
    if event.kind == "unblocked" and is_form(trigger, "attacks_unblocked"):
        return is_named(ctx, what, event.obj)
    return False


def _blocks_trigger(ctx: Context, trigger: Action, event: Event) -> bool:
    """``blocks_trigger``: "~ blocks", "~ blocks a creature" (the creature it blocks)."""
    if event.kind != "blocks":
        return False
    if is_form(trigger, "blocks_whom"):
        other = event.other if isinstance(event.other, GameObject) else None
        return is_named(ctx, trigger.arg("what"), event.obj) and is_named(ctx, trigger.arg("blocked"), other)
    return event.amount == 0 and is_named(ctx, trigger.arg("what"), event.obj)


def _becomes_blocked_trigger(ctx: Context, trigger: Action, event: Event) -> bool:
    """``becomes_blocked_trigger``: "~ becomes blocked", "~ becomes blocked by a creature" (each
    creature blocking it)."""
    if event.kind != "blocked":
        return False
    if is_form(trigger, "becomes_blocked_by"):
        other = event.other if isinstance(event.other, GameObject) else None
        return is_named(ctx, trigger.arg("what"), event.obj) and is_named(ctx, trigger.arg("by"), other)
    return event.amount == 0 and is_named(ctx, trigger.arg("what"), event.obj)


def _attacks_or_blocks(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever ~ attacks or blocks": either event, once each."""
    if event.kind == "attacks":
        return is_named(ctx, trigger.arg("what"), event.obj)
    return event.kind == "blocks" and event.amount == 0 and is_named(ctx, trigger.arg("what"), event.obj)


def _blocks_or_becomes_blocked(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever ~ blocks or becomes blocked": either event, once each (the form "by a creature"
    is not watched)."""
    either = event.kind in ("blocks", "blocked") and event.amount == 0
    return either and is_named(ctx, trigger.arg("what"), event.obj)




def _attacks_alone(ctx: Context, trigger: Action, event: Event) -> bool:
    """ "Whenever a creature you control attacks alone" (exalted, 702.83a; 506.5: it is the only
    creature declared as an attacker)."""
    combat = ctx.game.combat
    alone = event.kind == "attacks" and combat is not None and len(combat.attackers) == 1
    return alone and is_named(ctx, trigger.arg("what"), event.obj)


def _attacks_alone_check(trigger: Action, catalog: Catalog) -> str | None:
    text = written(trigger)
    return None if text.endswith("alone") else f"trigger {text!r}"


def _deals_combat_damage(ctx: Context, trigger: Action, event: Event) -> bool:
    """``deals_damage`` forms 0 and 3: "~ deals combat damage to a player"."""
    if is_form(trigger, "combat_damage_to", "deal_combat_damage_to"):
        if event.kind != "damage" or not event.combat:
            return False
        return is_named(ctx, trigger.arg("what"), event.obj) and is_named(ctx, trigger.arg("to"), event.other)
    return deals_damage(ctx, trigger, event)


SECTION = Section(
    "rules.combat",
    triggers={
        "attacks_trigger": (_attacks_trigger, None),
        "blocks_trigger": (_blocks_trigger, None),
        "becomes_blocked_trigger": (_becomes_blocked_trigger, None),
        "attacks_or_blocks": (_attacks_or_blocks, None),
        "blocks_or_becomes_blocked": (
            _blocks_or_becomes_blocked, named("blocks_or_becomes_blocked", "blocks_or_becomes_blocked")
        ),
        "deals_damage": (_deals_combat_damage, None),
        "attacks_alone": (_attacks_alone, None),
    },
    verbs={"attacks": must_this_turn, "block": must_this_turn},
    conditions={"able": _able},
    checks={"attacks_alone": _attacks_alone_check, "block": _must_check},
    static_verbs=RESTRICTIONS | REQUIREMENTS,
    forms=_FORMS,
    keywords=COMBAT_KEYWORDS | EVASION_KEYWORDS | frozenset(LANDWALK) | {"wither", "infect"},
)


__all__ = ["deal_damage", "skipped", "step_begins"]
