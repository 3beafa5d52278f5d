"""Libraries, hands and graveyards: drawing, milling, discarding, scrying, looking, searching, revealing,
shuffling."""

from __future__ import annotations

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import is_form, named, written
from carddb.engine.core.state import GameObject
from carddb.engine.effects.common import (
    target_objects,
    zone_of,
)
from carddb.engine.query.nouns import (
    ANY_NUMBER,
    THAT_MANY,
    amount_of,
    choose_any_number,
    choose_up_to,
    did,
    matches,
    objects,
    players,
    resolve,
    speaking_of,
    total_limit,
    up_to,
    value,
    zone_name,
    zone_owners,
)
from carddb.engine.rules import draws
from carddb.engine.rules.zones import put
from carddb.oracle.model import Action, Noun, Pronoun, X


def draw(ctx: Context, subject: list[Ref], action: Action) -> None:
    most = up_to(ctx, action.arg("what"))
    count = amount_of(ctx, action.arg("what")) if most is None else 0
    for player in players(ctx, subject):
        if most is not None:  # "draw up to two cards": the player says how many
            count = int(
                ctx.decider.choose(f"{player} draws how many cards?", [str(n) for n in range(most + 1)])
            )
        draws.draw(ctx.game, player, count, ctx.decider)


def mill(ctx: Context, subject: list[Ref], action: Action) -> None:
    _from_top(ctx, subject, action, "graveyard")


def _from_top(ctx: Context, subject: list[Ref], action: Action, zone: str) -> None:
    """Each player moves the top N cards of their library to ``zone``, as many as there are."""
    count = amount_of(ctx, action.arg("what"))
    for player in players(ctx, subject):
        library = ctx.game.players[player].zones["library"]
        for object_id in library[:count]:
            obj = ctx.game.objects[object_id]
            put(ctx.game, obj, zone, cause="mill", decider=ctx.decider)
            if zone == "graveyard" and obj.zone == "graveyard":
                did(ctx, "milled", obj)


def discard(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    if (isinstance(what, Noun) and {"that", "those"} & set(what.determiners)) or isinstance(what, Pronoun):
        # "That player discards that card": the card(s) named before (one chosen from the hand)
        for player in players(ctx, subject):
            for obj in objects(resolve(ctx, what)):
                if obj.zone == "hand" and obj.owner == player:
                    put(ctx.game, obj, "graveyard", cause="discard", decider=ctx.decider)
                    ctx.discarded.append(obj.id)
                    did(ctx, "discarded", obj)
        return
    # "discards a card", "discards two cards at random", "discards a creature card", "discards all
    # nonland cards": of the cards of their hand the description fits, chosen by the player, at
    # random (the decider's shuffle), or all of them
    at_random = isinstance(what, Noun) and any(q.verb == "at_random" for q in what.qualifiers)
    fits = (
        Noun(
            (),
            what.description,
            tuple(q for q in what.qualifiers if q.verb != "at_random"),
            narrowed=what.narrowed,
        )
        if isinstance(what, Noun)
        else None
    )
    everything = isinstance(what, Noun) and "all" in what.determiners
    most = up_to(ctx, what)
    count = amount_of(ctx, what) if not everything and most is None else 0
    for player in players(ctx, subject):
        with speaking_of(ctx, player):  # "in their hand": the player who discards
            hand = [o for o in ctx.game.in_zone("hand", player) if fits is None or matches(ctx, o, fits)]
        picked: list[GameObject] = []
        if everything:
            picked = hand
        elif isinstance(what, Noun) and ANY_NUMBER in what.determiners:  # "discard any number of cards"
            picked = choose_any_number(ctx, player, what.description, hand)
            hand = []
        elif at_random:
            picked = ctx.decider.shuffle(list(hand))[:count]
        elif most is not None and isinstance(what, Noun):  # "discard up to two cards": no more
            picked = choose_up_to(ctx, player, what.description, hand, most)
            hand = []
        for _ in range(count if not (everything or at_random) else 0):
            if not hand:
                break
            name = ctx.decider.choose(f"{player} discards which card?", [obj.name for obj in hand])
            chosen = next(obj for obj in hand if obj.name == name)
            hand.remove(chosen)
            picked.append(chosen)
        for chosen in picked:
            put(ctx.game, chosen, "graveyard", cause="discard", decider=ctx.decider)
            ctx.discarded.append(chosen.id)  # "the discarded card" (wherever it went: madness)
            did(ctx, "discarded", chosen)


def scry(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Scry N (701.18a) and surveil N (701.42a): the player looks at the top N cards of their library
    and says of each, in library order, "top" or "bottom" ("graveyard"); then the cards kept on top
    are put back in any order, and (scry) those put on the bottom too, each group ordered as
    :func:`lie_order` asks. Cards put into a graveyard are not ordered: a graveyard is a multiset here."""
    away = "bottom" if action.verb == "scry" else "graveyard"
    for player in players(ctx, subject):
        library = ctx.game.players[player].zones["library"]
        looked = [ctx.game.objects[i] for i in library[: value(ctx, action.arg("amount"))]]
        kept: list[GameObject] = []
        sent: list[GameObject] = []
        for obj in looked:
            answer = ctx.decider.choose(f"{action.verb} {obj.name}: top or {away}?", ["top", away])
            (kept if answer == "top" else sent).append(obj)
        ordered = lie_order(ctx, player, kept)
        if ordered != kept:  # one by one on top, the lowest first
            for obj in reversed(ordered):
                put(ctx.game, obj, "library", 0, decider=ctx.decider)
        if away == "graveyard":
            for obj in sent:
                put(ctx.game, obj, "graveyard", decider=ctx.decider)
        else:
            for obj in lie_order(ctx, player, sent):
                put(ctx.game, obj, "library", decider=ctx.decider)


def look_at(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Looking changes nothing the engine models (there is no hidden information yet); "it" and
    "them" name the cards looked at afterwards."""
    seen = list(objects(resolve(ctx, action.arg("what"))))
    ctx.game.log.append(f"{ctx.controller} looks at {', '.join(o.name for o in seen) or 'nothing'}")
    ctx.it = list(seen)
    ctx.mentions.append(list(seen))
    _looked(ctx, seen)


def _looked(ctx: Context, cards: list[GameObject]) -> None:
    """ "from among them" and "the rest" read what was looked at or revealed (all from one zone)."""
    zones = {obj.zone for obj in cards}
    if len(zones) == 1:
        ctx.looked, ctx.looked_zone = list(cards), zones.pop()


def reveal_until(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Target player reveals cards from the top of their library until they reveal a land card":
    each player reveals the top card, then the next, until as many cards as the phrase asks for fit
    it ("four land cards") or the library runs out. They stay in the library, revealed: "those
    cards" and "cards revealed this way" name every one, "that card" the one that stopped it."""
    until = action.arg("until")
    assert isinstance(until, Noun)
    wanted = amount_of(ctx, until)
    fits = Noun((), until.description, until.qualifiers, narrowed=until.narrowed)
    revealed: list[GameObject] = []
    found: list[GameObject] = []
    for player in players(ctx, subject):
        met = 0
        for object_id in list(ctx.game.players[player].zones["library"]):
            if met >= wanted:
                break
            obj = ctx.game.objects[object_id]
            revealed.append(obj)
            did(ctx, "revealed", obj)
            if matches(ctx, obj, fits):
                found.append(obj)
                met += 1
    ctx.game.log.append(f"{ctx.controller} reveals {', '.join(obj.name for obj in revealed) or 'nothing'}")
    _looked(ctx, revealed)  # "Put that card onto the battlefield and the rest on the bottom …"
    # one mention, what stopped it first: "Put that card onto the battlefield" names it, "then puts
    # those cards into their graveyard" every one
    ctx.mentions.append([*found, *(obj for obj in revealed if obj not in found)])
    ctx.it = list(found)


def _reveal_until_check(action: Action, catalog: Catalog) -> str | None:
    """Only "cards from the top of <a player's> library", until a noun without qualifiers."""
    what, until = action.arg("what"), action.arg("until")
    top = isinstance(what, Noun) and len(what.qualifiers) == 1 and what.qualifiers[0].verb == "from_top"
    return None if top and isinstance(until, Noun) and not until.qualifiers else f"pred {action.verb!r}"


def lie_order(ctx: Context, chooser: str, cards: list[GameObject]) -> list[GameObject]:
    """Cards put into a library "in any order" (701.18a, 701.42a, 401.4 and every such instruction), in the
    order they will lie there, from the top down: the chooser names them one at a time, the highest
    first, until the cards left are all of one name (cards of one name are told apart by nothing a
    scenario can name, so nothing is asked of them); the rest follow in the order they were."""
    left, ordered = list(cards), []
    while len({obj.name for obj in left}) > 1:
        name = ctx.decider.choose(
            f"{chooser}: which card lies highest of {', '.join(obj.name for obj in left)}?",
            list(dict.fromkeys(obj.name for obj in left)),
        )
        picked = next(obj for obj in left if obj.name == name)
        left.remove(picked)
        ordered.append(picked)
    return ordered + left


def in_order(
    ctx: Context,
    cards: list[GameObject],
    text: str,
    *,
    top: bool = False,
    chooser: str | None = None,
    arranged: bool = False,
) -> list[GameObject]:
    """The cards in the order they are put, one by one: "in a random order" shuffled; "in any order"
    (or, with ``arranged``, any cards put into one place of a library at once: 401.4) as ``chooser``
    (by default the controller) orders them (:func:`lie_order`, top first), put on the bottom highest
    first or, with ``top``, on top lowest first, so that they lie as they were named; otherwise as
    they are."""
    if len(cards) < 2:
        return cards
    if "random order" in text:
        return ctx.decider.shuffle(list(cards))
    if "any order" not in text and not arranged:
        return cards
    ordered = lie_order(ctx, chooser or ctx.controller, cards)
    return ordered[::-1] if top else ordered


def put_elided(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "… and the rest on the bottom of your library in any order": the put of the clause before,
    its verb left out; the subject is what is put (by the controller: the clause before is theirs)."""
    text = written(action)
    zone = zone_of(action, "to")
    if zone is None:
        raise EngineError("cannot tell where the rest go")
    top = zone == "library" and "top of" in text
    for obj in in_order(ctx, list(objects(subject)), text, top=top):
        put(ctx.game, obj, zone, 0 if top else None, decider=ctx.decider)


TOP_FORMS = ("top", "top_any_order", "puts_top", "puts_top_any_order")
"""The forms of ``put_into_library`` that put on top of the library."""
BOTTOM_FORMS = ("bottom", "bottom_any_order", "puts_bottom", "puts_bottom_any_order")
"""The forms of ``put_into_library`` that put on the bottom of the library."""


def put_into_library(ctx: Context, subject: list[Ref], action: Action) -> None:
    """On top, on the bottom, or just beneath the top N cards: fewer than N cards puts it on the
    bottom; several in the order the text says, chosen by the player who puts them ("Target player
    … puts them on top of their library in any order": that player). Several put on top or on the
    bottom with no order said are arranged by the player too (401.4: "the owner of those cards may
    arrange them in any order"; "Target opponent puts the cards from their hand on top of their
    library": the cards are that player's own)."""
    top = is_form(action, *TOP_FORMS)
    chooser = next(players(ctx, subject), ctx.controller)
    cards = target_objects(ctx, action)
    arranged = top or is_form(action, *BOTTOM_FORMS)
    for obj in in_order(ctx, cards, written(action), top=top, chooser=chooser, arranged=arranged):
        if is_form(action, "beneath_top"):
            position: int | None = value(ctx, action.arg("position"))
        elif top:
            position = 0
        else:
            position = None
        put(ctx.game, obj, "library", position, decider=ctx.decider)


def shuffle(ctx: Context, subject: list[Ref], action: Action) -> None:
    for player in players(ctx, subject):
        zones = ctx.game.players[player].zones
        zones["library"] = ctx.decider.shuffle(zones["library"])


def put_on_top(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "… then shuffle and put that card on top": on top of its owner's library; "put those cards on
    top in any order": as the player orders them (:func:`in_order`), not as they were found."""
    for obj in in_order(ctx, target_objects(ctx, action), written(action), top=True):
        put(ctx.game, obj, "library", 0, decider=ctx.decider)


# -- libraries, revealing, putting onto the battlefield -----------------------------------------------
def _search(ctx: Context, action: Action) -> list[GameObject]:
    """Search a library for cards matching a description: the searcher may find fewer (a search
    for a card with a stated quality can fail), never more than asked."""
    what = action.arg("what")
    assert isinstance(what, Noun)
    found: list[GameObject] = []
    limit = total_limit(what)  # "any number of creature cards with total mana value 6 or less"
    left = value(ctx, limit.arg("amount") or X()) if limit is not None else None
    for player in zone_owners(ctx, action.arg("zone")):
        candidates = [obj for obj in ctx.game.in_zone("library", player) if matches(ctx, obj, what)]
        most = up_to(ctx, what)  # "for up to two basic land cards", "for up to that many land cards"
        counted = what.amount is not None or bool({THAT_MANY, "twice that many"} & set(what.determiners))
        wanted = most if most is not None else amount_of(ctx, what) if counted else len(candidates)
        for _ in range(wanted):
            options = [obj.name for obj in candidates if left is None or obj.card.mana_value <= left]
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
            left = None if left is None else left - picked.card.mana_value
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


def _search_zone_check(action: Action, catalog: Catalog) -> str | None:
    """A search of several zones at once ("your library and/or graveyard"): only libraries are searched
    here; a search for one of several kinds of card: only one description is matched."""
    zone = action.arg("zone")
    if isinstance(zone, Action) and zone.verb == "zones":
        return f"a search of {zone.arg('owner')} {zone.arg('zones')}"
    if not isinstance(action.arg("what"), Noun):  # "a basic land card or a Gate card"
        return f"a search for {written(action)!r}"
    return None


def reveal(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Revealed cards are shown to every player (the log), and "it" names them afterwards."""
    shown = list(objects(resolve(ctx, action.arg("what"))))
    ctx.game.log.append(f"{ctx.controller} reveals {', '.join(obj.name for obj in shown) or 'nothing'}")
    for obj in shown:
        did(ctx, "revealed", obj)
    ctx.it = list(shown)
    if isinstance(action.arg("what"), Action):  # "Reveal the top four cards of your library"
        _looked(ctx, shown)


def put_onto_battlefield(ctx: Context, subject: list[Ref], action: Action) -> None:
    chooser = next(players(ctx, subject), ctx.controller)
    for obj in target_objects(ctx, action):
        if obj.zone == "battlefield" or not obj.card.is_permanent:
            continue
        put(ctx.game, obj, "battlefield", decider=ctx.decider)
        obj.controller = ctx.controller if is_form(action, "under_your_control") else chooser
        obj.tapped = is_form(action, "tapped")


def discard_hand(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Target player discards their hand": each card of it is discarded (701.8)."""
    for player in players(ctx, subject):
        for obj in ctx.game.in_zone("hand", player):
            put(ctx.game, obj, "graveyard", cause="discard", decider=ctx.decider)
            ctx.discarded.append(obj.id)
            did(ctx, "discarded", obj)


def exile_zone(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Exile target player's graveyard": every card in the zone(s), one by one (each move proposed)."""
    zone = action.arg("whose")
    if not isinstance(zone, Action) or zone_name(zone) not in ("graveyard", "hand", "library"):
        raise EngineError("cannot tell which zone is exiled")
    for owner in zone_owners(ctx, zone):
        for obj in ctx.game.in_zone(zone_name(zone), owner):
            put(ctx.game, obj, "exile", decider=ctx.decider)
            if obj.zone == "exile":
                did(ctx, "exiled", obj)


SECTION = Section(
    "effects.cards",
    verbs={
        "exile_zone": exile_zone,
        "discard_hand": discard_hand,
        "draw": draw,
        "mill": mill,
        "discard": discard,
        "scry": scry,
        "surveil": scry,
        "look_at": look_at,
        "put_into_library": put_into_library,
        "put_elided": put_elided,
        "shuffle": shuffle,
        "put_on_top": put_on_top,
        "search": search,
        "search_library": search_library,
        "reveal": reveal,
        "reveal_until": reveal_until,
        "put_onto_battlefield": put_onto_battlefield,
    },
    forms={
        "put_onto_battlefield": named("put_onto_battlefield", "put", "tapped", "under_your_control", "puts"),
    },
    checks={
        "search": _search_zone_check,
        "search_library": _search_zone_check,
        "reveal_until": _reveal_until_check,
    },
)
