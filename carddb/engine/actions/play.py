"""Playing: casting spells, activating abilities, playing lands, passing priority, resolving the
stack and moving through the steps of a turn. Every action either happens entirely or raises an
:class:`~carddb.engine.core.errors.EngineError` and leaves the game exactly as it was."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.engine.actions.turn import next_step
from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import (
    CostError,
    IllegalActionError,
    NotExecutableError,
)
from carddb.engine.core.state import Event, Game, GameObject, StackItem, atomic
from carddb.engine.query.abilities import abilities_of, ability_at, activation_zone, granter_of, keywords_of
from carddb.engine.query.executable import check_object, joined_spell, missing
from carddb.engine.query.printings import unknown_sets
from carddb.engine.rules import attachments, crew, cycling, leveling, mana
from carddb.engine.rules.buyback import buyback_cost, buyback_phrases
from carddb.engine.rules.cant_cast import check_cast
from carddb.engine.rules.card_faces import chosen_face, is_adventure, may_cast_from_adventure, show_face
from carddb.engine.rules.cast_timing import check_cast_restrictions
from carddb.engine.rules.casting import own_alternative_cost, total_cost
from carddb.engine.rules.convoke import convoke
from carddb.engine.rules.costs import pay_additional_costs, pay_costs, pay_loyalty
from carddb.engine.rules.dash import dash_cost, dashed
from carddb.engine.rules.discards import discarded_since
from carddb.engine.rules.evoke import evoke_cost
from carddb.engine.rules.execution import execute, execute_steps
from carddb.engine.rules.face_down import MORPH_CAST, manifested, morph_cost, turn_face_down
from carddb.engine.rules.flashback import flashback_cost
from carddb.engine.rules.foretell import foretold_cost
from carddb.engine.rules.generic_payers import pay_generic
from carddb.engine.rules.kicker import kicker_cost
from carddb.engine.rules.planechase import may_play_from_top
from carddb.engine.rules.rebound import rebounds
from carddb.engine.rules.suspend import no_mana_cost
from carddb.engine.rules.targets import (
    choose_targets,
    chosen_steps,
    divide,
    record_target,
    step_nouns,
    still_legal,
    target_events,
    target_nouns,
)
from carddb.engine.rules.timing import check_limits, once_each_turn, sorcery_speed, split_second
from carddb.engine.rules.triggers import about_event, intervening_holds, settle
from carddb.engine.rules.ward import resolve_ward, ward_triggers
from carddb.engine.rules.zones import put
from carddb.oracle.model import (
    Ability,
    Action,
    Kind,
    Limit,
)

__all__ = ["activate", "cast", "pass_priority", "play_land", "resolve_all"]


def _activated(ability: Ability) -> Ability:
    """The activated ability a keyword stands for (Equip, Cycling, Crew), or the ability itself."""
    return leveling.as_activated(crew.as_activated(cycling.as_activated(attachments.as_activated(ability))))


# -- actions ------------------------------------------------------------------------------------
def _executable(game: Game, obj: GameObject, ability: Ability) -> None:
    problems = missing(ability, game.catalog) + unknown_sets(game, (ability.cost, ability.effects))
    if problems:
        raise NotExecutableError(obj.name, problems)


def activate(
    game: Game,
    decider: Decider,
    player: str,
    obj: GameObject,
    index: int,
    targets: Sequence[Sequence[Ref]] = (),
    *,
    x: int | None = None,
    pay_with: Sequence[GameObject] | None = None,
    modes: Sequence[int] = (),
) -> None:
    """Activate the ``index``-th (1-based) ability of ``obj``, listed as the card's text lists them
    (``modes``: the chosen modes of a modal ability, 1-based)."""
    with atomic(game):
        abilities = dict(abilities_of(obj))
        has = index - 1 in abilities
        from_hand = has and cycling.cycling_keyword(abilities[index - 1]) is not None
        zone = "hand" if from_hand else activation_zone(abilities[index - 1]) if has else "battlefield"
        if zone != "battlefield" and (obj.zone != zone or obj.owner != player):  # 113.6m
            what = "cycling is" if from_hand else f"ability {index} is"
            raise IllegalActionError(f"{obj.name} is not in {player}'s {zone} ({what} activated from there)")
        if zone == "battlefield" and (obj.zone != "battlefield" or obj.controller != player):
            raise IllegalActionError(f"{player} controls no {obj.name} on the battlefield")
        if not has:
            raise IllegalActionError(f"{obj.name} has no ability {index} (it has {len(abilities)})")
        ability = _activated(abilities[index - 1])  # Equip {N}, Cycling {N}: the abilities they stand for
        if ability.kind not in (Kind.ACTIVATED, Kind.MANA, Kind.LOYALTY):
            raise IllegalActionError(f"ability {index} of {obj.name} is not an activated ability")
        if ability.kind is not Kind.MANA:
            split_second(game, "ability activated")
        _executable(game, obj, ability)
        if ability.kind is Kind.LOYALTY:
            pay_loyalty(game, player, obj, ability, x)
        for restriction in ability.restrictions:
            game.catalog.restrictions[restriction.verb](game, player, obj, index - 1, restriction)
        check_limits(game, player, obj, index - 1, ability.limits)  # Boast, Forecast
        granter = granter_of(game, obj, index - 1)  # "~" of a quoted ability an Equipment gives
        ctx = Context(game, decider, player, obj, granter=granter)
        if x is not None:  # X is announced before targets are chosen (602.2b, 601.2b–c)
            ctx.bindings["X"] = x
        chosen = choose_targets(game, ctx, ability, targets, modes)
        division = divide(ctx, ability, chosen, modes)  # 601.2d, as for a spell
        mark, since = len(game.events), game.next_timestamp
        pay_costs(game, decider, player, obj, ability.cost, x=x, pay_with=pay_with, granter=granter)
        discarded = discarded_since(game.events, mark)
        if from_hand:  # cycling it (702.29): "whenever you cycle a card"
            game.events.append(Event("cycle", obj, "hand", obj.zone, player))
        if Limit.ONCE_EACH_TURN in ability.limits or any(once_each_turn(r) for r in ability.restrictions):
            game.once_each_turn[(obj.id, index - 1)] = game.turn
        item = StackItem(
            obj.id,
            player,
            index - 1,
            chosen,
            x,
            list(modes),
            discarded=discarded,
            divided=division,
            since=since,
            own=abilities[index - 1],
            granter=granter.id if granter is not None else None,
        )
        if ability.kind is Kind.MANA:
            _resolve_item(game, decider, item)
            settle(game, decider)
        else:
            game.stack.append(item)
            game.pending.extend(ward_triggers(game, item))  # becoming a target (702.21)
            game.events.extend(target_events(item))
            game.log.append(f"{player} activates {obj.name}")
            settle(game, decider)  # abilities triggered by paying the cost go on the stack above it


def cast(
    game: Game,
    decider: Decider,
    player: str,
    obj: GameObject,
    targets: Sequence[Sequence[Ref]] = (),
    *,
    x: int | None = None,
    pay_with: Sequence[GameObject] | None = None,
    modes: Sequence[int] = (),
    kicked: bool = False,
    buyback: bool = False,
    alternative_cost: bool = False,
    evoke: bool = False,
    dash: bool = False,
    alternative: tuple[str, ...] | None = None,
    face_down: bool = False,
    face: str | None = None,
    convoking: Sequence[GameObject] = (),
    delving: Sequence[GameObject] = (),
    improvising: Sequence[GameObject] = (),
) -> None:
    """Cast ``obj`` from its owner's hand, or from their graveyard for its flashback cost (an
    alternative cost, 601.2b: no X), or foretold from exile for its foretell cost (702.143a)
    (``modes``: the chosen modes of a modal spell, 1-based;
    ``kicked``: its kicker cost paid too, 702.33; ``buyback``: its buyback cost paid too, 702.27a).
    ``alternative_cost``: paid with the alternative cost its own line offers ("You may sacrifice a
    Mountain rather than pay this spell's mana cost.", 118.9), from the hand.
    ``evoke``, ``dash``: cast for its evoke cost (702.74a) or its dash cost (702.109a), from the hand.
    ``alternative``: an alternative cost a resolving ability offers for the card where it is,
    timing rules ignored (madness: from exile, 702.35b).
    ``face_down``: cast with morph as a face-down 2/2 creature spell for {3} (702.37c), from the hand.
    ``face``: the face of a card of several faces to cast (a split card's half, 709.3; an Adventure,
    715.3; a modal double-faced card's back face, 712.11b); a card exiled on an adventure is cast
    from exile as its creature (715.3d).
    ``convoking``: the creatures tapped to pay part of its total cost (convoke, 702.51);
    ``delving``, ``improvising``: the graveyard cards exiled and the artifacts tapped to pay generic
    mana of it (delve, 702.66a; improvise, 702.126a)."""
    with atomic(game):
        shown = chosen_face(obj, face)
        adventurer = may_cast_from_adventure(obj, player, shown)
        if shown is not None:
            if face_down:
                raise IllegalActionError(f"{obj.name}: a face of it is not cast face down")
            show_face(obj, shown)
            check_object(obj, game.catalog)  # the face's own abilities, never ignored
        morph = None
        if face_down:
            if morph_cost(obj.card) is None or obj.zone != "hand" or alternative is not None:
                raise IllegalActionError(f"{obj.name} cannot be cast face down (it needs morph, from a hand)")
            turn_face_down(obj, manifested())
            obj.cast_face_down = True
            morph = MORPH_CAST
        card = obj.card
        flashback = flashback_cost(card) if obj.zone == "graveyard" and alternative is None else None
        foretold = foretold_cost(game, obj) if alternative is None else None  # 702.143a: from exile
        cost = alternative if alternative is not None else flashback if flashback is not None else morph
        cost = foretold if foretold is not None else cost
        from_top = cost is None and may_play_from_top(game, player, obj)  # Windriddle Palaces
        from_hand = obj.zone == "hand" or adventurer
        if not from_top and (obj.owner != player or (not from_hand and cost is None)):
            raise IllegalActionError(f"{obj.name} is not in {player}'s hand")
        if cost is not None and x is not None and "{X}" not in cost:
            raise CostError(f"{obj.name}: X is 0 when the alternative cost has no X (601.2f, 107.3)")
        if "Land" in card.types:
            raise IllegalActionError(f"{obj.name} is a land: play it, don't cast it")
        if cost is None and no_mana_cost(card):  # 118.6: no mana cost is an unpayable cost
            raise CostError(f"{obj.name} has no mana cost: it is cast only for an alternative cost")
        split_second(game, "spell cast")
        check_cast(game, player, obj)  # "You can't cast creature spells."
        check_cast_restrictions(game, player, obj)  # "Cast this spell only during combat."
        if alternative is None and "Instant" not in card.types and "flash" not in keywords_of(obj):
            sorcery_speed(game, player, obj)
        spell = spell_ability(obj)
        if spell is not None:
            _executable(game, obj, spell)
        ctx = Context(game, decider, player, obj)
        if x is not None:  # X is announced before targets are chosen (601.2b, 601.2c)
            ctx.bindings["X"] = x
        chosen = choose_targets(game, ctx, spell, targets, modes) if spell is not None else []
        division = divide(ctx, spell, chosen, modes) if spell is not None else {}  # 601.2d
        symbols = card.mana_symbols if cost is None else cost
        paid: tuple[Action, ...] = ()  # the cost phrases of its own alternative cost
        if alternative_cost:
            if cost is not None or from_top:  # 118.9a: one alternative cost, from the hand
                raise IllegalActionError(f"{obj.name}: its own alternative cost is paid from a hand")
            symbols, paid = own_alternative_cost(ctx)
        if evoke:
            evoked = evoke_cost(card)
            if evoked is None or cost is not None or from_top or alternative_cost:  # 118.9a: one alternative
                raise IllegalActionError(f"{obj.name} cannot be cast for an evoke cost from a hand")
            symbols = evoked
        if dash:
            dashing = dash_cost(card)
            if dashing is None or cost is not None or from_top or alternative_cost or evoke:  # 118.9a
                raise IllegalActionError(f"{obj.name} cannot be cast for a dash cost from a hand")
            symbols = dashing
            if x is not None:
                raise CostError(f"{obj.name}: X is 0 when the alternative cost has no X (601.2f, 107.3)")
        kicker = kicker_cost(card) if kicked else ()
        if kicker is None:
            raise IllegalActionError(f"{obj.name} has no kicker cost to pay")
        bought = buyback_cost(card) if buyback else ()
        if bought is None:  # "Buyback—Sacrifice a land.": cost phrases, paid with the others
            phrases = buyback_phrases(card)
            if phrases is None:
                raise NotExecutableError(obj.name, ["a buyback cost the engine does not pay"])
            bought, paid = (), (*paid, *phrases)
        total = total_cost(ctx, (*symbols, *kicker, *bought))  # 601.2f: the total cost, changes applied
        total = convoke(game, player, obj, total, convoking, x)  # 702.51b: after the total cost
        total = pay_generic(game, player, obj, total, delving=delving, improvising=improvising, x=x)
        mana.pay(game, player, total, x=x if "{X}" in total else None, named=pay_with)
        mark = len(game.events)
        pay_additional_costs(game, decider, player, obj, paid)  # 601.2h: every cost, in full
        discarded = discarded_since(game.events, mark)
        from_zone = obj.zone
        game.move(obj, "stack")
        obj.flashback = flashback is not None
        obj.kicked = kicked
        obj.bought_back = buyback
        obj.evoked = evoke
        obj.cast_from_hand = from_zone == "hand"
        if dash:
            dashed(game, obj)
        item = StackItem(obj.id, player, None, chosen, x, list(modes), discarded=discarded, divided=division)
        game.stack.append(item)
        game.pending.extend(ward_triggers(game, item))  # becoming a target (702.21)
        game.events.extend(target_events(item))  # 601.2c: they trigger, waiting until it is cast
        game.log.append(f"{player} casts {obj.name}")
        game.events.append(Event("cast", obj, from_zone, "stack", player))
        game.players[player].spells_cast_this_turn += 1
        settle(game, decider)


def spell_ability(obj: GameObject) -> Ability | None:
    """An instant's or sorcery's text as one ability (its lines joined)."""
    if obj.card.is_permanent:
        return attachments.aura_spell(obj.card)  # an Aura spell targets what it will enchant
    return joined_spell(obj.card.abilities)


def play_land(
    game: Game, player: str, obj: GameObject, decider: Decider | None = None, *, face: str | None = None
) -> None:
    """Play a land (305.1); ``face``: the face to play of a card of several (a modal double-faced
    card's back face, 712.12)."""
    with atomic(game):
        shown = chosen_face(obj, face)
        if shown is not None:
            show_face(obj, shown)
            check_object(obj, game.catalog)
        in_hand = obj.zone == "hand" and obj.owner == player
        if "Land" not in obj.card.types or not (in_hand or may_play_from_top(game, player, obj)):
            raise IllegalActionError(f"{obj.name} is not a land in {player}'s hand")
        sorcery_speed(game, player, obj)
        if game.players[player].lands_played:
            raise IllegalActionError(f"{player} has already played a land this turn")
        game.players[player].lands_played += 1
        put(game, obj, "battlefield", cause="play", decider=decider)
        settle(game, decider)


def resolve_top(game: Game, decider: Decider) -> None:
    """All players passed: the top of the stack resolves."""
    if not game.stack:
        raise IllegalActionError("the stack is empty")
    item = game.stack.pop()
    _resolve_item(game, decider, item)
    settle(game, decider)


def _resolve_item(game: Game, decider: Decider, item: StackItem) -> None:
    if item.ward is not None:
        resolve_ward(game, decider, item)
        return
    if item.rule:  # a keyword's triggered ability (madness), resolved by its rule
        game.catalog.rule_abilities[item.rule](game, decider, item)
        return
    if item.delayed is not None:
        waiting = item.delayed
        source = game.objects.get(waiting.source.id, waiting.source)
        granter = waiting.granter and game.objects.get(waiting.granter.id, waiting.granter)
        ctx = Context(game, decider, waiting.controller, source, granter=granter)
        # the objects "it" named, as they are now (gone ones are not affected)
        ctx.it = [
            ref if isinstance(ref, str) else game.objects[ref.id]
            for ref in waiting.it
            if isinstance(ref, str) or ref.id in game.objects
        ]
        nouns = step_nouns(waiting.body)
        if nouns:  # its own targets, chosen as it triggered (603.12, 603.7); 608.2b as it resolves
            it = list(ctx.it)
            legal = not any(item.targets)  # none chosen ("up to one"): it resolves (608.2b)
            for noun, refs in zip(nouns, item.targets, strict=False):
                still = [ref for ref in refs if still_legal(game, ctx, noun, ref)]
                record_target(ctx, noun, still)
                legal = legal or bool(still)
            ctx.it = it
            if not legal:
                game.log.append(f"{source.name}: every target is illegal, nothing happens")
                return
        execute(ctx, waiting.body)
        return
    source = game.objects[item.source]
    # an Equip or Cycling keyword stands for its activated ability
    own = item.own or (None if item.is_spell else ability_at(source, item.ability or 0))
    ability = spell_ability(source) if own is None else _activated(own)  # Equip, Cycling: what they stand for
    since = item.since if item.since is not None else game.next_timestamp
    granter = game.objects.get(item.granter) if item.granter is not None else None
    ctx = Context(game, decider, item.controller, source, granter=granter, known_since=since)
    ctx.discarded = list(item.discarded)
    ctx.divided = dict(item.divided)
    if item.event is not None:  # "it", "that player", "that creature": what the event was about
        about_event(ctx, item.event, ability.trigger if ability is not None else None)
    if item.x is not None:
        ctx.bindings["X"] = item.x
    if ability is not None and not intervening_holds(ctx, ability, resolving=True):  # 603.4: does nothing
        game.log.append(f"{source.name}: its 'if' no longer holds, the ability does nothing (603.4)")
        return
    if ability is not None:
        nouns = target_nouns(ability, item.modes)
        legal_any = not any(item.targets)  # 608.2b: only when it has targets and all are illegal
        it, mentions = list(ctx.it), list(ctx.mentions)
        for noun, refs in zip(nouns, item.targets, strict=False):
            still = [ref for ref in refs if still_legal(game, ctx, noun, ref)]
            record_target(ctx, noun, still)
            legal_any = legal_any or bool(still)
        ctx.it, ctx.mentions = it, mentions  # the steps name things afresh, in their order
        if legal_any:
            execute_steps(ctx, chosen_steps(ability, item.modes) if ability.modes else ability.effects)
        else:
            game.log.append(f"{source.name}: every target is illegal, nothing happens")
    if item.is_spell and source.zone == "stack":  # not when it put itself elsewhere ("return ~ to hand")
        fizzled = ability is not None and not legal_any  # an Aura spell with an illegal target (608.3b)
        zone = "battlefield" if source.card.is_permanent and not fizzled else "graveyard"
        if source.bought_back and not fizzled:  # 702.27a: into its owner's hand as it resolves
            zone = "hand"
        elif rebounds(source) and not fizzled:  # 702.88a: exiled, cast again at the next upkeep
            zone = "exile"
        adventure = is_adventure(source) and not fizzled and zone == "graveyard"
        if adventure:  # 715.3d: exiled, to be cast later as its creature
            zone = "exile"
        put(game, source, zone, cause="resolve", decider=decider)
        if zone == "exile" and source.zone == "exile":
            source.on_adventure = adventure
            source.rebound = None if adventure else (item.controller, game.turn)
        if source.card.is_permanent:
            source.controller = item.controller


def resolve_all(game: Game, decider: Decider) -> None:
    with atomic(game):
        while game.stack:
            resolve_top(game, decider)


def pass_priority(game: Game, decider: Decider) -> None:
    """Every player passes once: the top of the stack resolves, or the game goes to the next step."""
    with atomic(game):
        if game.stack:
            resolve_top(game, decider)
        else:
            next_step(game, decider)


SECTION = Section("actions.play", keywords=frozenset({"flash"}))
"""Flash (702.8) is read when a spell is cast."""
