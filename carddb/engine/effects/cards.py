"""Libraries, hands and graveyards: drawing, milling, discarding, scrying, looking, searching, revealing,
shuffling."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import is_form, named
from carddb.engine.core.state import GameObject
from carddb.engine.effects.common import (
    target_objects,
)
from carddb.engine.query.nouns import (
    amount_of,
    matches,
    objects,
    players,
    resolve,
    value,
    zone_name,
    zone_owners,
)
from carddb.engine.rules import draws
from carddb.engine.rules.zones import put
from carddb.oracle.model import Action, Noun


def draw(ctx: Context, subject: list[Ref], action: Action) -> None:
    count = amount_of(ctx, action.arg("what"))
    for player in players(ctx, subject):
        draws.draw(ctx.game, player, count, ctx.decider)


def mill(ctx: Context, subject: list[Ref], action: Action) -> None:
    _from_top(ctx, subject, action, "graveyard")


def _from_top(ctx: Context, subject: list[Ref], action: Action, zone: str) -> None:
    """Each player moves the top N cards of their library to ``zone``, as many as there are."""
    count = amount_of(ctx, action.arg("what"))
    for player in players(ctx, subject):
        library = ctx.game.players[player].zones["library"]
        for object_id in library[:count]:
            put(ctx.game, ctx.game.objects[object_id], zone, cause="mill", decider=ctx.decider)


def discard(ctx: Context, subject: list[Ref], action: Action) -> None:
    count = amount_of(ctx, action.arg("what"))
    for player in players(ctx, subject):
        for _ in range(count):
            hand = ctx.game.in_zone("hand", player)
            if not hand:
                break
            name = ctx.decider.choose(f"{player} discards which card?", [obj.name for obj in hand])
            chosen = next(obj for obj in hand if obj.name == name)
            put(ctx.game, chosen, "graveyard", cause="discard", decider=ctx.decider)
            ctx.discarded.append(chosen.id)  # "the discarded card" (wherever it went: madness)


def scry(ctx: Context, subject: list[Ref], action: Action) -> None:
    away = "bottom" if action.verb == "scry" else "graveyard"
    for player in players(ctx, subject):
        library = ctx.game.players[player].zones["library"]
        looked = [ctx.game.objects[i] for i in library[: value(ctx, action.arg("amount"))]]
        for obj in looked:
            answer = ctx.decider.choose(f"{action.verb} {obj.name}: top or {away}?", ["top", away])
            if answer != "top":
                put(ctx.game, obj, "graveyard" if away == "graveyard" else "library", decider=ctx.decider)




def look_at(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Looking changes nothing the engine models (there is no hidden information yet); "it" and
    "them" name the cards looked at afterwards."""
    seen = list(objects(resolve(ctx, action.arg("what"))))
    ctx.game.log.append(f"{ctx.controller} looks at {', '.join(o.name for o in seen) or 'nothing'}")
    ctx.it = list(seen)
    ctx.mentions.append(list(seen))




def put_into_library(ctx: Context, subject: list[Ref], action: Action) -> None:
    """On top, on the bottom, or just beneath the top N cards: fewer than N cards puts it on the
    bottom."""
    for obj in target_objects(ctx, action):
        if is_form(action, "beneath_top"):
            position: int | None = value(ctx, action.arg("position"))
        elif is_form(action, "top", "top_any_order", "puts_top"):
            position = 0
        else:
            position = None
        put(ctx.game, obj, "library", position, decider=ctx.decider)


def shuffle(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        zones = ctx.game.players[player].zones
        zones["library"] = ctx.decider.shuffle(zones["library"])




def put_on_top(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "… then shuffle and put that card on top": on top of its owner's library."""
    for obj in target_objects(ctx, action):
        put(ctx.game, obj, "library", 0, decider=ctx.decider)




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


def search(ctx: Context, subject: list[Ref], action: Action) -> None:
    _search(ctx, action)


def search_library(ctx: Context, subject: list[Ref], action: Action) -> None:
    _search(ctx, action)
    for role in ("reveal", "then"):
        step = action.arg(role)
        if isinstance(step, Action):
            ctx.game.catalog.verbs[step.verb](ctx, subject, step)


def reveal(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Revealed cards are shown to every player (the log), and "it" names them afterwards."""
    shown = list(objects(resolve(ctx, action.arg("what"))))
    ctx.game.log.append(f"{ctx.controller} reveals {', '.join(obj.name for obj in shown) or 'nothing'}")
    ctx.it = list(shown)




def put_onto_battlefield(ctx: Context, subject: list[Ref], action: Action) -> None:
    chooser = next(players(ctx, subject), ctx.controller)
    for obj in target_objects(ctx, action):
        if obj.zone == "battlefield" or not obj.card.is_permanent:
            continue
        put(ctx.game, obj, "battlefield", decider=ctx.decider)
        obj.controller = ctx.controller if is_form(action, "under_your_control") else chooser
        obj.tapped = is_form(action, "tapped")


def exile_zone(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Exile target player's graveyard": every card in the zone(s), one by one (each move proposed)."""
    zone = action.arg("whose")
    if not isinstance(zone, Action) or zone_name(zone) not in ("graveyard", "hand", "library"):
        raise EngineError("cannot tell which zone is exiled")
    for owner in zone_owners(ctx, zone):
        for obj in ctx.game.in_zone(zone_name(zone), owner):
            put(ctx.game, obj, "exile", decider=ctx.decider)


SECTION = Section(
    "effects.cards",
    verbs={
        "exile_zone": exile_zone,
        "draw": draw,
        "mill": mill,
        "discard": discard,
        "scry": scry,
        "surveil": scry,
        "look_at": look_at,
        "put_into_library": put_into_library,
        "shuffle": shuffle,
        "put_on_top": put_on_top,
        "search": search,
        "search_library": search_library,
        "reveal": reveal,
        "put_onto_battlefield": put_onto_battlefield,
    },
    forms={
        "put_onto_battlefield": named("put_onto_battlefield", "put", "tapped", "under_your_control", "puts"),
    },
)
