"""Planechase (901): the game starts on the starting player's top planar card (901.5), the planar
die (901.3a: six faces, one {CHAOS}, one planeswalker symbol, four blank), the planeswalking
ability (901.8: "Whenever you roll the Planeswalker symbol on the planar die, planeswalk", 701.24)
and the abilities of the face-up plane: "Whenever you roll {CHAOS}, …" triggers
(``rolls_planar_symbol`` "roll {CHAOS}", the planar controller's rolls), and statics that let the
planar controller play the top card of libraries ("You may play lands and cast spells from the top
of any player's library.").

Rolling the planar die is rolling a die: "whenever you roll one or more dice" triggers on it, but it
has no numerical result, so nothing that reads a result sees it (seeds 000, 002, 004).

The engine keeps no hidden information (every card is known to it, as in :func:`look_at`): "Players
play with the top card of their libraries revealed." is applied by changing nothing, and the next
card of a library is as public as the one played before it."""

from __future__ import annotations

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.decisions import Decider
from carddb.engine.core.errors import NotExecutableError
from carddb.engine.core.state import Event, Game, GameObject, StackItem
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.nouns import players
from carddb.engine.query.planar import (
    is_planar,
    is_planechase,
    planar_controller,
    planar_deck,
    planar_objects,
)
from carddb.engine.rules.planeswalk import planeswalk, to_bottom
from carddb.engine.rules.triggers import is_named
from carddb.oracle.model import Ability, Action, Clause, Conditional, Kind, Noun, Pronoun, walk

CHAOS, PLANESWALKER, BLANK = "{CHAOS}", "planeswalker symbol", "blank"
PLANAR_FACES = {1: CHAOS, 6: PLANESWALKER}
"""A scripted roll of the planar die: 1 is {CHAOS}, 6 the planeswalker symbol, 2–5 blank."""


def planar_face(roll: int) -> str:
    return PLANAR_FACES.get(roll, BLANK)


def start(game: Game) -> None:
    """The starting player turns the top card of their planar deck face up (901.5), unless the
    game already has a face-up planar card. Every planar card's abilities are checked first: a
    static ability of a plane works from the command zone, where the engine applies only those it
    recognizes (:data:`SECTION`'s), so any other one is refused, never left unapplied."""
    for player in game.players:
        for obj in game.in_zone("command", player):
            unapplied = [
                ability
                for ability in obj.card.abilities
                if ability.kind is Kind.STATIC and not (plays_from_top(ability) or plays_revealed(ability))
            ]
            if is_planar(obj) and unapplied:
                raise NotExecutableError(obj.name, ["static ability of a plane"])
    if not is_planechase(game) or planar_objects(game):
        return
    deck = planar_deck(game, game.active)
    for card in deck:  # a phenomenon goes to the bottom, until a plane is turned face up
        if "Plane" in card.card.types:
            card.face_down = False  # no ability of a card turned face up this way triggers
            return
        to_bottom(game, card)


def roll_planar_die(game: Game, decider: Decider, player: str) -> str:
    """``player`` rolls the planar die: a die roll without a numerical result ("whenever you roll
    one or more dice", 901.9d); {CHAOS} triggers the face-up plane's chaos abilities (901.9b), the
    planeswalker symbol the planeswalking ability, which goes on the stack (901.9c, 901.8).
    Returns the face rolled."""
    face = planar_face(decider.roll(6, "the planar die"))
    game.log.append(f"{player} rolls the planar die: {face}")
    game.events.append(Event("roll", None, player=player, amount=1))
    if face == CHAOS:
        game.events.append(Event("chaos", None, player=player))
    elif face == PLANESWALKER:  # it has no source (901.8): the stack shows the plane it leaves
        shown = (planar_objects(game) or planar_deck(game, player))[:1]
        if shown:
            game.pending.append(StackItem(shown[0].id, player, None, [], rule="planeswalk"))
    return face


def _roll_planar_die_effect(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Roll the planar die." as an effect (Fractured Powerstone): the same roll as the special
    action, with none of its cost and timing (901.9 counts only the special action's rolls);
    outside a Planechase game there is no planar die, which is refused, never ignored."""
    if not is_planechase(ctx.game):
        raise NotExecutableError(ctx.source.name, ["roll the planar die (not a Planechase game)"])
    for player in players(ctx, subject):
        roll_planar_die(ctx.game, ctx.decider, player)


def _planeswalking(game: Game, decider: Decider, item: StackItem) -> None:
    """The planeswalking ability resolves: its controller planeswalks (901.8)."""
    planeswalk(game)


# -- "Whenever you roll {CHAOS}" ------------------------------------------------------------------
def _chaos_symbol(trigger: Action) -> bool:
    return trigger.arg("symbol") == CHAOS


def _rolls_chaos(ctx: Context, trigger: Action, event: Event) -> bool:
    rolled = event.kind == "chaos" and _chaos_symbol(trigger)
    return rolled and is_named(ctx, trigger.arg("who"), event.player)


def _watched(trigger: Action, catalog: Catalog) -> str | None:
    """Of the planar die's symbols only the roll of {CHAOS} triggers (901.9b)."""
    return None if _chaos_symbol(trigger) else f"trigger 'roll {trigger.arg('symbol')}'"


# -- "When you planeswalk to ~", "When you encounter ~" ------------------------------------------
def _planeswalked_to(ctx: Context, trigger: Action, event: Event) -> bool:
    """The planar card turned face up by planeswalking (701.24d); not the starting plane (901.5)."""
    return (
        event.kind == "planeswalk"
        and is_named(ctx, trigger.arg("what"), event.obj)
        and is_named(ctx, trigger.arg("who"), event.player)
    )


# -- the top card of libraries -------------------------------------------------------------------
_PLAYS = {"play_card", "cast_card"}
_KINDS = {"lands": "land", "land": "land", "spells": "spell", "cards": "card", "the top card": "card"}
_OWNERS = {"any player's", "your"}


def _plays(clause: Clause) -> list[Action]:
    """The play/cast predicates of a clause, under "may" or not (None: another predicate)."""
    found: list[Action] = []
    for predicate in clause.predicates:
        may = isinstance(predicate, Action) and predicate.verb == "may"
        inner = predicate.arg("action") if may and isinstance(predicate, Action) else predicate
        if not isinstance(inner, Action) or inner.verb not in _PLAYS:
            return []
        found.append(inner)
    return found


def _from_top_owner(ability: Ability) -> str | None:
    """Whose library a "from the top of {zone}" of the ability names ("any player's", "your")."""
    for node in walk(ability.effects):
        if isinstance(node, Action) and node.verb == "from_top":
            zone = node.arg("zone")
            if isinstance(zone, Action) and zone.arg("zone") == "library":
                owner = zone.arg("owner")
                return str(owner) if owner in _OWNERS else None
    return None


def _your_permission(ability: Ability) -> Clause | None:
    """The one sentence of a static ability that lets you do something: "You may play lands and
    cast spells from …" ("may" covering both predicates) or one predicate under "may"."""
    if ability.kind is not Kind.STATIC or len(ability.effects) != 1:
        return None
    step = ability.effects[0]
    if isinstance(step, Conditional) and step.word == "may" and isinstance(step.body, Clause):
        you, clause = step.condition, step.body
    elif isinstance(step, Clause):
        you, clause = step.subject, step
    else:
        return None
    return clause if isinstance(you, Pronoun) and you.word == "you" else None


def plays_from_top(ability: Ability) -> bool:
    """ "You may play lands and cast spells from the top of any player's library." (the "from the
    top of" read for every play/cast predicate of the sentence: they are joined)."""
    clause = _your_permission(ability)
    if clause is None:
        return False
    plays = _plays(clause)
    if not plays or _from_top_owner(ability) is None:
        return False
    return all(isinstance(p.arg("what"), Noun) and _description(p) in _KINDS for p in plays)


def _description(play: Action) -> str:
    what = play.arg("what")
    return what.description if isinstance(what, Noun) else ""


def plays_revealed(ability: Ability) -> bool:
    """ "Players play with the top card of their libraries revealed." (no hidden information)."""
    if ability.kind is not Kind.STATIC or len(ability.effects) != 1:
        return False
    clause = ability.effects[0]
    return (
        isinstance(clause, Clause)
        and bool(clause.predicates)
        and all(isinstance(p, Action) and p.verb == "play_revealed" for p in clause.predicates)
    )


def may_play_from_top(game: Game, player: str, obj: GameObject) -> bool:
    """Whether ``player`` may play ``obj`` (a land) or cast it (a spell) because it is the top card
    of a library and an ability of theirs allows it: a face-up plane while they are the planar
    controller, or a permanent they control. Timing and the one land a turn still apply."""
    library = game.players[obj.owner].zones["library"]
    if obj.zone != "library" or not library or library[0] != obj.id:
        return False
    sources = [o for o in planar_objects(game) if planar_controller(game) == player]
    sources += game.permanents(player)
    for source in sources:
        for _, ability in active_abilities(source):
            if not plays_from_top(ability):
                continue
            if _from_top_owner(ability) == "your" and obj.owner != player:
                continue
            clause = _your_permission(ability)
            assert clause is not None
            land = "Land" in obj.card.types
            for play in _plays(clause):
                kind = _KINDS[_description(play)]
                if kind == "card" or (kind == "land") == land:
                    return True
    return False


SECTION = Section(
    "rules.planechase",
    verbs={"roll_planar_die": _roll_planar_die_effect},
    triggers={"rolls_planar_symbol": (_rolls_chaos, None), "encounter": (_planeswalked_to, None)},
    rule_abilities={"planeswalk": _planeswalking},
    checks={"rolls_planar_symbol": _watched},
    static_abilities=(plays_from_top, plays_revealed),
)
