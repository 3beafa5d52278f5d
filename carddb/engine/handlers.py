"""Handlers for the phrase verbs of the oracle grammar (``grammars/oracle/phrases/*.toml``): each
receives the execution context, the clause's subject (objects or players) and the action."""

from __future__ import annotations

from collections.abc import Callable

from carddb.engine import combat, mana
from carddb.engine.abilities import CANT_BE_REGENERATED, REGENERATION, destroy, keyword_list, keywords_of
from carddb.engine.cards import CardDef
from carddb.engine.context import Context, Ref
from carddb.engine.errors import CostError, EngineError
from carddb.engine.execution import count_each
from carddb.engine.mana import COLORS, mana_symbols, mana_value
from carddb.engine.nouns import (
    amount_of,
    candidates_for,
    counter_kind,
    matches,
    objects,
    players,
    refers_to_named_players,
    resolve,
    speaking_of,
    value,
    zone_owners,
)
from carddb.engine.registry import CONDITIONS, FORMS, HANDLERS, QUALIFIERS, STATIC_VERBS, handles
from carddb.engine.state import GameObject, Shield
from carddb.oracle.model import Ability, Action, Noun, Number, Pronoun, SelfRef, X
from carddb.oracle.phrases import find


def _target_objects(ctx: Context, action: Action, role: str = "what") -> list[GameObject]:
    return list(objects(resolve(ctx, action.arg(role))))


def _zone(action: Action, role: str) -> str | None:
    zone = action.arg(role)
    if isinstance(zone, Action) and zone.verb == "zone":
        return {"hand": "hand", "graveyard": "graveyard", "library": "library"}.get(str(zone.arg("zone")))
    return None


@handles("add_mana")
def add_mana(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        pool = ctx.game.players[player].mana_pool
        symbols = [s.strip("{}") for s in mana_symbols(action)]
        if action.form == 0:
            pool.extend(symbols)
        elif action.form in (1, 2):
            pool.append(ctx.decider.choose("add which mana?", symbols))
        elif action.form == 3:
            for _ in range(value(ctx, action.arg("amount"))):
                pool.append(ctx.decider.choose("add mana of which color?", list(COLORS)))
        else:
            raise EngineError(f"cannot add mana as {action!r}")


@handles("draw")
def draw(ctx: Context, subject: list[Ref], action: Action) -> None:
    _from_top(ctx, subject, action, "hand")


@handles("mill")
def mill(ctx: Context, subject: list[Ref], action: Action) -> None:
    _from_top(ctx, subject, action, "graveyard")


def _from_top(ctx: Context, subject: list[Ref], action: Action, zone: str) -> None:
    """Each player moves the top N cards of their library to ``zone``, as many as there are."""
    count = amount_of(ctx, action.arg("what"))
    for player in players(ctx, subject):
        library = ctx.game.players[player].zones["library"]
        for object_id in library[:count]:
            ctx.game.move(ctx.game.objects[object_id], zone)


@handles("discard")
def discard(ctx: Context, subject: list[Ref], action: Action) -> None:
    count = amount_of(ctx, action.arg("what"))
    for player in players(ctx, subject):
        for _ in range(count):
            hand = ctx.game.in_zone("hand", player)
            if not hand:
                break
            name = ctx.decider.choose(f"{player} discards which card?", [obj.name for obj in hand])
            ctx.game.move(next(obj for obj in hand if obj.name == name), "graveyard")


@handles("scry", "surveil")
def scry(ctx: Context, subject: list[Ref], action: Action) -> None:
    away = "bottom" if action.verb == "scry" else "graveyard"
    for player in players(ctx, subject):
        library = ctx.game.players[player].zones["library"]
        looked = [ctx.game.objects[i] for i in library[: value(ctx, action.arg("amount"))]]
        for obj in looked:
            answer = ctx.decider.choose(f"{action.verb} {obj.name}: top or {away}?", ["top", away])
            if answer != "top":
                ctx.game.move(obj, "graveyard" if away == "graveyard" else "library")


@handles("gain_life", "lose_life")
def life(ctx: Context, subject: list[Ref], action: Action) -> None:
    sign = 1 if action.verb == "gain_life" else -1
    for player in players(ctx, subject):
        ctx.game.players[player].life += sign * value(ctx, action.arg("amount"))


@handles("cant_block", "cant_attack", "cant_be_blocked")
def cant_this_turn(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Target creature can't block this turn.": until end of turn (the clause's duration; the
    forms with an object, "can't block creatures with flying", are not executable)."""
    for obj in objects(subject):
        obj.restrictions_until_end_of_turn.append(action.verb)


FORMS["doesnt_untap"] = frozenset({0, 1, 2, 3})
STATIC_VERBS.add("doesnt_untap")  # forms 0 and 1: read in each untap step (game._next_step)


FORMS["doesnt_untap_their_controller"] = frozenset({0, 1, 2})  # "… next untap step(s)"


@handles("doesnt_untap", "doesnt_untap_their_controller")
def doesnt_untap(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "It doesn't untap during its controller's next untap step.": the next untap step of
    whoever controls it then (502.3) skips it."""
    for obj in objects(subject):
        if obj.zone == "battlefield":
            obj.skip_untaps += 1


@handles("gain_control")
def gain_control(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Gain control of objects; with "until end of turn" (the clause's duration) it goes back at
    cleanup."""
    for player in players(ctx, subject):
        for obj in _target_objects(ctx, action):
            if obj.zone != "battlefield" or obj.controller == player:
                continue
            if ctx.duration is not None and obj.controller_after_turn is None:
                obj.controller_after_turn = obj.controller
            obj.controller = player
            obj.since_turn = ctx.game.turn  # a creature whose control changed is summoning sick


def _keys(refs: list[Ref]) -> list[int | str]:
    return [ref if isinstance(ref, str) else ref.id for ref in refs]


@handles("prevent_next_damage")
def prevent_next_damage(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Prevent the next 3 damage that would be dealt to any target this turn." (615.7)"""
    amount = value(ctx, action.arg("amount"))
    for key in _keys(resolve(ctx, action.arg("to"))):
        ctx.game.shields.append(Shield(to=key, amount=amount))


@handles("prevent_all_damage")
def prevent_all_damage(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Prevent all combat damage that would be dealt this turn." and the forms that name what is
    dealt damage or what deals it (the clause's "this turn": shields end at cleanup)."""
    text = template_text(action)
    combat_only = "combat damage" in text
    to = _keys(resolve(ctx, action.arg("to"))) if action.arg("to") is not None else [None]
    by_refs = action.arg("by") if action.arg("by") is not None else action.arg("what")
    by = [k for k in _keys(resolve(ctx, by_refs)) if isinstance(k, int)] if by_refs is not None else [None]
    both = action.arg("what") is not None  # "dealt to and dealt by ~": two shields
    for key in to if not both else [None]:
        for source in by:
            ctx.game.shields.append(Shield(to=key, by=source, combat_only=combat_only))
    if both:
        for key in _keys(resolve(ctx, action.arg("what"))):
            ctx.game.shields.append(Shield(to=key, combat_only=combat_only))


FORMS["prevent_all_damage"] = frozenset(range(10))


FORMS["has_ability"] = frozenset({0, 1, 2, 3})


@handles("has_ability")
def gains_ability(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "It gains "{T}: …" until end of turn.": the quoted ability is its own until cleanup (the
    static "has" forms are continuous effects, carddb.engine.continuous)."""
    ability = action.arg("ability")
    if not isinstance(ability, Ability):
        raise EngineError("the granted ability was not understood")
    for obj in objects(subject):
        obj.granted_until_end_of_turn.append(ability)


@handles("pay_life")
def pay_life(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Paying life as an effect ("unless that player pays 3 life" is a condition, not this): a
    player can pay life only if their life total is at least that much (rule 119.4)."""
    amount = value(ctx, action.arg("amount"))
    for player in players(ctx, subject):
        state = ctx.game.players[player]
        if state.life < amount:
            raise EngineError(f"{player} has only {state.life} life, not {amount}")
        state.life -= amount


@handles("deal_damage")
def deal_damage(ctx: Context, subject: list[Ref], action: Action) -> None:
    amount = value(ctx, action.arg("amount"))
    for ref in resolve(ctx, action.arg("to")):
        source = next(objects(subject), ctx.source)
        combat.deal_damage(ctx.game, source, ref, amount)  # deathtouch and lifelink apply


def template_text(action: Action) -> str:
    form = find(action.verb, action.form)
    return form.text if form is not None else ""


_STAT_WORDS = ("power", "toughness", "mana value")


def _stat_amount(ctx: Context, subject: list[Ref], action: Action) -> int:
    """The number a "… equal to {whose} power/toughness/mana value" or "… equal to the number of
    {what}" phrase means."""
    what = action.arg("what")
    if what is not None:
        return len(resolve(ctx, what))
    text = template_text(action)
    stat = next(word for word in _STAT_WORDS if f" {word}" in text)
    owner = _possessor(ctx, subject, str(action.arg("whose")))
    if owner is None:
        return 0
    if stat == "mana value":
        return mana.need(owner.card.mana_symbols, 0).total
    number = owner.power if stat == "power" else owner.toughness
    return max(0, number or 0)


def _possessor(ctx: Context, subject: list[Ref], whose: str) -> GameObject | None:
    if whose == "~'s":
        return ctx.source
    if whose == "its":
        return next(objects(subject), None) or next(objects(ctx.it), None) or ctx.source
    attached = ctx.source.attached_to
    return ctx.game.objects.get(attached) if attached is not None else None


@handles("deal_damage_equal")
def deal_damage_equal(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "~ deals damage to target creature equal to its power"; when the number speaks of the
    player dealt damage ("to each player equal to the number of lands they control", "to each
    opponent equal to the number of Islands that player controls"), it is counted for each one."""
    source = next(objects(subject), ctx.source)
    to = action.arg("to")
    if refers_to_named_players(action.arg("what")) and not (isinstance(to, Pronoun) and to.word == "you"):
        for ref in resolve(ctx, to):
            if isinstance(ref, str):
                with speaking_of(ctx, ref):
                    amount = _stat_amount(ctx, subject, action)
            else:
                amount = _stat_amount(ctx, subject, action)
            combat.deal_damage(ctx.game, source, ref, amount)
        return
    amount = _stat_amount(ctx, subject, action)
    for ref in resolve(ctx, action.arg("to")):
        combat.deal_damage(ctx.game, source, ref, amount)


@handles("gain_life_equal", "lose_life_equal")
def life_equal(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Each player gains or loses life equal to a number. (With several players and a number that
    speaks of them, "Each player loses life equal to the number of creatures they control", the
    clause is executed for each player, :mod:`carddb.engine.execution`.)"""
    sign = 1 if action.verb == "gain_life_equal" else -1
    amount = _stat_amount(ctx, subject, action)
    for player in players(ctx, subject):
        ctx.game.players[player].life += sign * amount


@handles("gain_life_for_each", "lose_life_for_each")
def life_for_each(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "You gain 2 life for each creature you control", "Each player loses 1 life for each creature
    they control": each player counts with "they" and "their" naming themselves (the clause is
    executed for each player, :mod:`carddb.engine.execution`)."""
    sign = 1 if action.verb == "gain_life_for_each" else -1
    amount = value(ctx, action.arg("amount"))
    for player in list(players(ctx, subject)):
        ctx.it = [player]
        count = count_each(ctx, action.arg("what"), [player])
        ctx.game.players[player].life += sign * amount * count


FORMS["gain_life_equal"] = frozenset({0, 1, 2, 3, 4, 5, 9})
FORMS["lose_life_equal"] = frozenset(range(8))


@handles("look_at")
def look_at(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Looking changes nothing the engine models (there is no hidden information yet); "it" and
    "them" name the cards looked at afterwards."""
    seen = list(objects(resolve(ctx, action.arg("what"))))
    ctx.game.log.append(f"{ctx.controller} looks at {', '.join(o.name for o in seen) or 'nothing'}")
    ctx.it = list(seen)
    ctx.mentions.append(list(seen))


def _move_all(zone: str) -> object:
    def handler(ctx: Context, subject: list[Ref], action: Action) -> None:
        for obj in _target_objects(ctx, action):
            ctx.game.move(obj, zone)

    return handler


@handles("destroy")
def destroy_handler(ctx: Context, subject: list[Ref], action: Action) -> None:
    for obj in _target_objects(ctx, action):
        destroy(ctx.game, obj, regenerate=not ctx.no_regeneration)


@handles("cant_be_regenerated")
def cant_be_regenerated(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "It can't be regenerated this turn.": its regeneration shields are not applied until
    cleanup (701.15c). Without a duration ("Destroy target creature. It can't be regenerated.") the
    sentence modifies the destruction before it, which :func:`carddb.engine.execution.execute_steps`
    ran without regeneration (608.2c): nothing is left to do."""
    if ctx.duration is None:
        return
    for obj in objects(subject):
        if obj.zone == "battlefield":
            obj.restrictions_until_end_of_turn.append(CANT_BE_REGENERATED)


@handles("regenerate")
def regenerate(ctx: Context, subject: list[Ref], action: Action) -> None:
    """The next time it would be destroyed this turn, it is tapped and its damage removed instead."""
    for obj in _target_objects(ctx, action):
        if obj.zone == "battlefield":
            obj.keywords_until_end_of_turn.append(REGENERATION)


handles("exile")(_move_all("exile"))  # type: ignore[arg-type]
handles("return_to_hand")(_move_all("hand"))  # type: ignore[arg-type]


@handles("return_from", "put_into_zone")
def return_to(ctx: Context, subject: list[Ref], action: Action) -> None:
    zone = _zone(action, "to") or ("battlefield" if action.verb == "return_from" else None)
    if zone is None:
        raise EngineError(f"cannot tell where {action.verb} puts the card")
    for obj in _target_objects(ctx, action):
        ctx.game.move(obj, zone)
        if zone == "battlefield":
            obj.tapped = action.form in (2, 3) and "tapped" in str(action.form)
            obj.controller = ctx.controller if action.form == 3 else obj.owner


@handles("put_into_library")
def put_into_library(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Top (form 0), bottom (1–3), or just beneath the top N cards (5): fewer than N cards puts it
    on the bottom."""
    for obj in _target_objects(ctx, action):
        if action.form == 5:
            position: int | None = value(ctx, action.arg("position"))
        elif action.form in (0, 4, 8):
            position = 0
        else:
            position = None
        ctx.game.move(obj, "library", position)


@handles("shuffle")
def shuffle(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        zones = ctx.game.players[player].zones
        zones["library"] = ctx.decider.shuffle(zones["library"])


@handles("counter")
def counter(ctx: Context, subject: list[Ref], action: Action) -> None:
    for obj in _target_objects(ctx, action):
        ctx.game.stack = [item for item in ctx.game.stack if item.source != obj.id or not item.is_spell]
        obj.zone = "stack"
        ctx.game.move(obj, "graveyard")


@handles("tap", "untap")
def tap(ctx: Context, subject: list[Ref], action: Action) -> None:
    for obj in _target_objects(ctx, action):
        obj.tapped = action.verb == "tap"


@handles("put_counters", "remove_counters")
def counters(ctx: Context, subject: list[Ref], action: Action) -> None:
    spec = action.arg("counters")
    assert isinstance(spec, Action)
    kind = counter_kind(spec.arg("kind"))
    count = value(ctx, spec.arg("amount")) if spec.arg("amount") is not None else ctx.bindings["result"]
    sign = 1 if action.verb == "put_counters" else -1
    for obj in _target_objects(ctx, action):
        obj.counters[kind] = max(0, obj.counters.get(kind, 0) + sign * count)
        if obj.counters[kind] == 0:
            del obj.counters[kind]


def _pt(text: str) -> tuple[int, int]:
    power, toughness = text.split("/")
    return int(power), int(toughness)


@handles("gets")
def gets(ctx: Context, subject: list[Ref], action: Action) -> None:
    change = _pt(str(action.arg("pt")))
    for obj in objects(subject):
        obj.until_end_of_turn.append(change)


@handles("gains")
def gains(ctx: Context, subject: list[Ref], action: Action) -> None:
    for obj in objects(subject):
        obj.keywords_until_end_of_turn.append(str(action.arg("keywords")))


@handles("tap_or_untap")
def tap_or_untap(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Tap or untap target permanent.": the ability's controller chooses, for each object."""
    for obj in _target_objects(ctx, action):
        if obj.zone == "battlefield":
            answer = ctx.decider.choose(f"{ctx.controller}: tap or untap {obj.name}?", ["tap", "untap"])
            obj.tapped = answer == "tap"


@handles("fight")
def fight(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "~ fights target creature", "Target creature you control fights target creature you don't
    control", "… fight each other" (701.12): each deals damage equal to its power to the other, at
    the same time; if one of them has left the battlefield, is no longer a creature, or was an
    illegal target (its slot is empty), neither deals damage. A creature fighting itself deals
    itself twice its power (701.12c). The damage is not combat damage."""
    if action.form == 2:  # "fight each other": the subject names both
        fighters = list(objects(subject))
    else:
        fighters = [*list(objects(subject))[:1], *_target_objects(ctx, action)[:1]]
    if len(fighters) != 2 or any(obj.zone != "battlefield" or not obj.is_a("Creature") for obj in fighters):
        ctx.game.log.append("no fight: a creature is missing")
        return
    first, second = fighters
    powers = (max(0, first.power or 0), max(0, second.power or 0))
    combat.deal_damage(ctx.game, first, second, powers[0])
    combat.deal_damage(ctx.game, second, first, powers[1])


@handles("put_on_top")
def put_on_top(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "… then shuffle and put that card on top": on top of its owner's library."""
    for obj in _target_objects(ctx, action):
        ctx.game.move(obj, "library", 0)


@handles("sacrifice")
def sacrifice(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    for player in players(ctx, subject):
        if isinstance(what, SelfRef | Pronoun):
            for obj in objects(resolve(ctx, what)):
                if obj.zone == "battlefield" and obj.controller == player:
                    ctx.game.move(obj, "graveyard")
            continue
        assert isinstance(what, Noun)
        choices = [obj for obj in ctx.game.permanents(player) if matches(ctx, obj, what)]
        for _ in range(min(amount_of(ctx, what), len(choices))):
            name = ctx.decider.choose(f"{player} sacrifices which?", [obj.name for obj in choices])
            chosen = next(obj for obj in choices if obj.name == name)
            choices.remove(chosen)
            ctx.game.move(chosen, "graveyard")


def _keyword_line(keywords: str) -> str:
    """ "flying and trample" as a keyword line: "Flying, trample"."""
    line = keywords.replace(", and ", ", ").replace(" and ", ", ")
    return line[:1].upper() + line[1:]


@handles("create_creature_token")
def create_token(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    assert isinstance(what, Noun)
    power, toughness = str(action.arg("pt")).split("/")
    words = what.description.split()
    subtypes = [w for w in words if w[:1].isupper()]
    granted = [
        str(q.arg("keywords")) for q in what.qualifiers if q.verb == "with_keywords" and q.form == 0
    ]  # "… creature token with flying": the token's own keyword abilities
    card = CardDef(
        name=" ".join(subtypes) + " Token" if subtypes else "Token",
        type_line="Token Creature — " + " ".join(subtypes),
        text="\n".join(_keyword_line(keywords) for keywords in granted),
        power=power,
        toughness=toughness,
    )
    count = value(ctx, action.arg("amount"))
    created: list[Ref] = []
    for player in players(ctx, subject):
        for _ in range(count):
            created.append(ctx.game.create(card, player, "battlefield", token=True))
    ctx.it = created  # "Exile it at the beginning of the next end step."
    ctx.mentions.append(list(created))  # "that token"


@handles("win_the_game")
def win(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        ctx.game.log.append(f"{player} wins the game")


def _counters_at_least(ctx: Context, condition: Action) -> bool:
    kind = counter_kind(condition.arg("counter"))
    needed = value(ctx, condition.arg("amount"))
    return any(obj.counters.get(kind, 0) >= needed for obj in objects(resolve(ctx, condition.arg("what"))))


CONDITIONS["counters_at_least"] = _counters_at_least

_ = Number  # re-exported types used by handlers' annotations


# -- optional actions and their conditions ---------------------------------------------------------
@handles("may")
def may(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "You may draw a card": the player answers yes or no; "if you do" asks afterwards."""
    inner = action.arg("action")
    assert isinstance(inner, Action)
    handler = HANDLERS[inner.verb]
    did = False
    for player in players(ctx, subject):
        answer = ctx.decider.choose(f"{player}: {inner.verb.replace('_', ' ')}?", ["yes", "no"])
        if answer == "yes":
            try:
                handler(ctx, subject, inner)
            except CostError as error:  # a payment that cannot be made: not done
                ctx.game.log.append(f"{player} cannot: {error}")
                continue
            did = True
    ctx.bindings["did"] = int(did)


def _did(ctx: Context, condition: Action) -> bool:
    if "did" not in ctx.bindings:
        raise EngineError("nothing optional was done before 'if you do'")
    return bool(ctx.bindings["did"]) == (condition.form in (0, 2))


CONDITIONS["did"] = _did
FORMS["did"] = frozenset({0, 1, 2, 3})


@handles("pay_mana")
def pay_mana(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        mana.pay(ctx.game, player, mana_symbols(action), x=ctx.bindings.get("X"))


def _pays(ctx: Context, condition: Action) -> bool:
    """ "… unless its controller pays {3}": that player chooses whether to pay, and pays if able."""
    paid = False
    for player in players(ctx, resolve(ctx, condition.arg("who"))):
        symbols = mana_symbols(condition)
        if ctx.decider.choose(f"{player}: pay {''.join(symbols)}?", ["yes", "no"]) == "yes":
            try:
                mana.pay(ctx.game, player, symbols)
                paid = True
            except CostError as error:
                ctx.game.log.append(f"{player} cannot pay: {error}")
    return paid


CONDITIONS["pays"] = _pays
FORMS["pays"] = frozenset({0, 1})


# -- conditions about the game -----------------------------------------------------------------------
def _existing(ctx: Context, phrase: object) -> list[Ref]:
    """What a condition's noun phrase names, without choosing among them ("a creature" is any)."""
    if isinstance(phrase, Noun) and not phrase.targeted and id(phrase) not in ctx.slots:
        return [obj for obj in candidates_for(ctx, phrase) if matches(ctx, obj, phrase)]
    saved = ctx.it
    found = resolve(ctx, phrase)
    ctx.it = saved
    return found


def _controls(ctx: Context, condition: Action) -> bool:
    who = list(players(ctx, _existing(ctx, condition.arg("who"))))
    what = condition.arg("what")
    assert isinstance(what, Noun)
    wanted = [what]
    other = condition.arg("other")
    if isinstance(other, Noun):
        wanted.append(other)
    found = any(
        matches(ctx, obj, noun) for noun in wanted for player in who for obj in ctx.game.permanents(player)
    )
    return not found if condition.form in (2, 3) else found


CONDITIONS["controls"] = _controls


def _counter_kind(spec: object) -> tuple[str, int]:
    assert isinstance(spec, Action)
    kind = counter_kind(spec.arg("kind"))
    amount = spec.arg("amount")
    return kind, amount.value if isinstance(amount, Number) else 1


def _is_state(ctx: Context, condition: Action) -> bool:
    form = condition.form
    if form == 8:
        return ctx.game.active == ctx.controller
    if form == 9:
        return ctx.game.active != ctx.controller
    if form in (20, 21, 23, 24):
        who = list(players(ctx, _existing(ctx, condition.arg("who"))))
        if form in (20, 21):
            return all(not ctx.game.players[p].zones["hand"] for p in who)
        amount = value(ctx, condition.arg("amount"))
        lives = [ctx.game.players[p].life for p in who]
        return any(life >= amount if form == 23 else life <= amount for life in lives)
    things = list(objects(_existing(ctx, condition.arg("what"))))
    checks: dict[int, Callable[[GameObject], bool]] = {
        0: lambda obj: obj.tapped,
        1: lambda obj: not obj.tapped,
        4: lambda obj: obj.is_a("Creature"),
        5: lambda obj: obj.zone == "battlefield",
        6: lambda obj: obj.zone == "graveyard" and obj.owner == ctx.controller,
        13: lambda obj: _is_type(ctx, obj, condition.arg("type")),
        15: lambda obj: set(keyword_list(str(condition.arg("keywords")))) <= keywords_of(obj),
        16: lambda obj: (
            obj.counters.get(_counter_kind(condition.arg("counters"))[0], 0)
            >= _counter_kind(condition.arg("counters"))[1]
        ),
    }
    checks[17] = checks[16]
    return any(checks[form](obj) for obj in things)


def _is_type(ctx: Context, obj: GameObject, noun: object) -> bool:
    return isinstance(noun, Noun) and matches(ctx, obj, noun)


CONDITIONS["is_state"] = _is_state
FORMS["is_state"] = frozenset({0, 1, 4, 5, 8, 9, 13, 15, 16, 17, 20, 21, 23, 24})


def _is_more(ctx: Context, condition: Action) -> bool:
    """ "If it's a land card": the object named last is what the noun describes."""
    what = condition.arg("what")
    assert isinstance(what, Noun)
    return any(matches(ctx, obj, what) for obj in objects(ctx.it))


CONDITIONS["is_more"] = _is_more
FORMS["is_more"] = frozenset({0})


def _controls_count(ctx: Context, condition: Action) -> bool:
    who = list(players(ctx, _existing(ctx, condition.arg("who"))))
    what = condition.arg("what")
    assert isinstance(what, Noun)
    amount = value(ctx, condition.arg("amount"))
    for player in who:
        count = sum(1 for obj in ctx.game.permanents(player) if matches(ctx, obj, what))
        if (count >= amount) if condition.form in (0, 1) else (count <= amount):
            return True
    return False


CONDITIONS["controls_count"] = _controls_count
FORMS["controls_count"] = frozenset({0, 1, 2, 3})


# -- noun qualifiers ---------------------------------------------------------------------------------
def _in_zone(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    if isinstance(ref, str):
        return False
    zone = qualifier.arg("zone")
    if isinstance(zone, Action):
        return ref.zone == zone.arg("zone") and ref.owner in zone_owners(ctx, zone)
    wanted = {2: "graveyard", 3: "graveyard", 5: "graveyard", 6: "graveyard", 7: "exile"}[qualifier.form]
    return ref.zone == wanted


QUALIFIERS["in_zone"] = _in_zone
FORMS["in_zone"] = frozenset({0, 1, 2, 3, 5, 6, 7})
QUALIFIERS["with_keywords"] = lambda ctx, ref, q: (
    isinstance(ref, GameObject)
    and (set(keyword_list(str(q.arg("keywords")))) <= keywords_of(ref)) == (q.form == 0)
)


def _with_power(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    if isinstance(ref, str):
        return False
    form = qualifier.form
    if form == 10:
        have: int | None = mana_value(ref)
        return have is not None and have <= value(ctx, X())
    if form == 9:
        mine = [obj.power or 0 for obj in ctx.game.permanents(ctx.controller) if obj.is_a("Creature")]
        return (
            ref.controller == ctx.controller and ref.power is not None and ref.power == max(mine, default=0)
        )
    have = ref.power if form < 2 else ref.toughness if form < 4 else mana_value(ref)
    if have is None:
        return False
    amount = value(ctx, qualifier.arg("amount"))
    return have <= amount if form % 2 == 0 else have >= amount


QUALIFIERS["with_power"] = _with_power
FORMS["with_power"] = frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9, 10})


# -- libraries, revealing, putting onto the battlefield -----------------------------------------------
def _search(ctx: Context, action: Action) -> list[GameObject]:
    """Search a library for cards matching a description: the searcher may find fewer (a search
    for a card with a stated quality can fail), never more than asked."""
    what = action.arg("what")
    assert isinstance(what, Noun)
    found: list[GameObject] = []
    for player in zone_owners(ctx, action.arg("zone")):
        candidates = [obj for obj in ctx.game.in_zone("library", player) if matches(ctx, obj, what)]
        wanted = value(ctx, what.amount) if what.amount is not None else len(candidates)
        for _ in range(wanted):
            options = [obj.name for obj in candidates]
            if not options:
                break
            name = ctx.decider.choose(
                f"{ctx.controller} searches for {what.description}", [*dict.fromkeys(options), "nothing"]
            )
            if name == "nothing":
                break
            picked = next(obj for obj in candidates if obj.name == name)
            candidates.remove(picked)
            found.append(picked)
    ctx.it = list(found)
    ctx.mentions.append(list(found))  # "… then shuffle and put that card on top"
    return found


@handles("search")
def search(ctx: Context, subject: list[Ref], action: Action) -> None:
    _search(ctx, action)


@handles("search_library")
def search_library(ctx: Context, subject: list[Ref], action: Action) -> None:
    _search(ctx, action)
    for role in ("reveal", "then"):
        step = action.arg(role)
        if isinstance(step, Action):
            HANDLERS[step.verb](ctx, subject, step)


@handles("reveal")
def reveal(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Revealed cards are shown to every player (the log), and "it" names them afterwards."""
    shown = list(objects(resolve(ctx, action.arg("what"))))
    ctx.game.log.append(f"{ctx.controller} reveals {', '.join(obj.name for obj in shown) or 'nothing'}")
    ctx.it = list(shown)


FORMS["put_onto_battlefield"] = frozenset({0, 1, 2, 3})


@handles("put_onto_battlefield")
def put_onto_battlefield(ctx: Context, subject: list[Ref], action: Action) -> None:
    chooser = next(players(ctx, subject), ctx.controller)
    for obj in _target_objects(ctx, action):
        if obj.zone == "battlefield" or not obj.card.is_permanent:
            continue
        ctx.game.move(obj, "battlefield")
        obj.controller = ctx.controller if action.form == 2 else chooser
        obj.tapped = action.form == 1


TOKENS = {
    "Treasure": ("Token Artifact — Treasure", "{T}, Sacrifice this artifact: Add one mana of any color."),
    "Food": ("Token Artifact — Food", "{2}, {T}, Sacrifice this artifact: You gain 3 life."),
    "Clue": ("Token Artifact — Clue", "{2}, Sacrifice this artifact: Draw a card."),
    "Gold": ("Token Artifact — Gold", "Sacrifice this artifact: Add one mana of any color."),
}
"""Predefined tokens (rule 111.10) by subtype: type line and text."""


@handles("create_token")
def create_named_token(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    assert isinstance(what, Noun)
    kind = what.description.removesuffix(" tokens").removesuffix(" token")
    if kind not in TOKENS or what.qualifiers:
        raise EngineError(f"cannot create {what.description!r}")
    type_line, text = TOKENS[kind]
    card = CardDef(name=kind, type_line=type_line, text=text)
    count = value(ctx, what.amount) if what.amount is not None else 1
    for player in players(ctx, subject):
        for _ in range(count):
            ctx.game.create(card, player, "battlefield", token=True)
