"""Handlers for the phrase verbs of the oracle grammar (``grammars/oracle/phrases/*.toml``): each
receives the execution context, the clause's subject (objects or players) and the action."""

from __future__ import annotations

from carddb.engine.cards import CardDef
from carddb.engine.effects import (
    CONDITIONS,
    Context,
    Ref,
    amount_of,
    handles,
    mana_symbols,
    matches,
    objects,
    players,
    resolve,
    value,
)
from carddb.engine.errors import EngineError
from carddb.engine.mana import COLORS
from carddb.engine.state import GameObject
from carddb.oracle.model import Action, Noun, Number, Pronoun, SelfRef


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
    count = amount_of(ctx, action.arg("what"))
    for player in players(ctx, subject):
        for _ in range(count):
            library = ctx.game.players[player].zones["library"]
            if library:
                ctx.game.move(ctx.game.objects[library[0]], "hand")


@handles("mill")
def mill(ctx: Context, subject: list[Ref], action: Action) -> None:
    count = amount_of(ctx, action.arg("what"))
    for player in players(ctx, subject):
        for _ in range(count):  # as many as possible
            library = ctx.game.players[player].zones["library"]
            if library:
                ctx.game.move(ctx.game.objects[library[0]], "graveyard")


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


@handles("deal_damage")
def deal_damage(ctx: Context, subject: list[Ref], action: Action) -> None:
    amount = value(ctx, action.arg("amount"))
    for ref in resolve(ctx, action.arg("to")):
        if isinstance(ref, str):
            ctx.game.players[ref].life -= amount
        elif ref.zone == "battlefield":
            if ref.is_a("Planeswalker") and not ref.is_a("Creature"):
                ref.counters["loyalty"] = ref.counters.get("loyalty", 0) - amount
            else:
                ref.damage += amount


def _move_all(zone: str) -> object:
    def handler(ctx: Context, subject: list[Ref], action: Action) -> None:
        for obj in _target_objects(ctx, action):
            ctx.game.move(obj, zone)

    return handler


handles("destroy")(_move_all("graveyard"))  # type: ignore[arg-type]
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
    kind = str(spec.arg("kind")).removesuffix("s").removesuffix(" counter")
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


@handles("create_creature_token")
def create_token(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    assert isinstance(what, Noun)
    power, toughness = str(action.arg("pt")).split("/")
    words = what.description.split()
    subtypes = [w for w in words if w[:1].isupper()]
    card = CardDef(
        name=" ".join(subtypes) + " Token" if subtypes else "Token",
        type_line="Token Creature — " + " ".join(subtypes),
        power=power,
        toughness=toughness,
    )
    count = value(ctx, action.arg("amount"))
    for player in players(ctx, subject):
        for _ in range(count):
            ctx.game.create(card, player, "battlefield", token=True)


@handles("win_the_game")
def win(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        ctx.game.log.append(f"{player} wins the game")


def _counters_at_least(ctx: Context, condition: Action) -> bool:
    kind = str(condition.arg("counter")).removesuffix("s").removesuffix(" counter")
    needed = value(ctx, condition.arg("amount"))
    return any(obj.counters.get(kind, 0) >= needed for obj in objects(resolve(ctx, condition.arg("what"))))


CONDITIONS["counters_at_least"] = _counters_at_least
CONDITIONS["roll_dice"] = lambda ctx, condition: True
"""Checked where dice are rolled (a trigger event, not a state)."""

_ = Number  # re-exported types used by handlers' annotations
