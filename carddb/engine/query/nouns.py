"""Noun phrases resolved to the objects and players they name as an ability resolves ("target
creature", "each opponent", "it", "the top three cards of your library"), whether an object is
what a phrase describes (:func:`matches`), and the numbers phrases carry (:func:`value`: "two
cards", "X", "the number of creatures you control").

Numbers live here because the two need each other: "X cards" is resolved by counting, and "the
number of creatures you control" is counted by resolving. The vocabulary of descriptions
(:func:`known_description`, :func:`attached_reference`) is here too, so that what is matched and
what :mod:`carddb.engine.query.executable` accepts are read from the same words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from carddb.engine.core import forms
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import is_form
from carddb.engine.core.layers import NONCREATURE_SUBTYPES
from carddb.engine.core.state import COMBAT_STEPS, Game, GameObject, Step
from carddb.engine.query.characteristics import colors_of
from carddb.oracle.model import (
    Action,
    Count,
    Noun,
    Nouns,
    Number,
    Pronoun,
    SelfRef,
    Var,
    X,
    walk,
)

COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_TYPE_WORDS = {
    "artifact": "Artifact", "creature": "Creature", "enchantment": "Enchantment", "land": "Land",
    "planeswalker": "Planeswalker", "instant": "Instant", "sorcery": "Sorcery", "battle": "Battle",
}  # fmt: skip
_ANY_OBJECT = {"permanent", "card", "spell", "token", "source", "object"}
_PLAYERS = {"player", "opponent"}
_STATES = {"tapped", "untapped", "other", "another", "nontoken", "exiled"}
_STATES |= {"attacking", "blocking", "blocked", "unblocked"}  # carddb.engine.query.nouns.in_combat_as
_SUPERTYPE_WORDS = {
    "basic": "Basic",
    "legendary": "Legendary",
    "snow": "Snow",
    "nonbasic": "",
    "nonlegendary": "",
}
ATTACHED_WORDS = {"enchanted", "equipped"}
"""``enchanted creature``, ``equipped creature``: the object the source is attached to."""


def attached_reference(noun: Noun) -> bool | None:
    """Whether ``noun`` is "enchanted creature", "equipped creature", "enchanted land"…: one object,
    the one the source is attached to (True); None if it says nothing of attachments; False for the
    forms the engine does not know ("target enchanted permanent", "equipped creatures you control",
    "enchanted player")."""
    words = noun.description.lower().split()
    if not set(words) & ATTACHED_WORDS:
        return None
    return (
        words[0] in ATTACHED_WORDS
        and len(words) == 2
        and not noun.determiners
        and not noun.qualifiers
        and not words[1].endswith(("s", "'s"))
        and words[1] not in _PLAYERS
    )


ROLES = ("'s controller", "'s owner")
"""A description that names a player by an object: "that creature's controller", "its owner"."""


def known_description(description: str) -> bool:
    for role in ROLES:
        if description.endswith(role) and " " not in description.removesuffix(role):
            return known_description(description.removesuffix(role))  # "creature's controller"
    for alternative in Noun((), description).alternatives:
        for word in alternative.split():
            lowered = word.lower().rstrip("s") if word.lower() not in ("sorceries",) else "sorcery"
            if (
                lowered in _SUPERTYPE_WORDS
                or lowered in _TYPE_WORDS
                or lowered in _ANY_OBJECT
                or lowered in _PLAYERS
                or lowered in COLOR_WORDS
                or lowered in _STATES
                or (_negated(word) is not None and known_description(_negated(word) or ""))
                or lowered in ATTACHED_WORDS
                or word[:1].isupper()
            ):
                continue
            return False
    return True


def value(ctx: Context, quantity: object) -> int:
    """A number: digits, X (bound by the spell's X, a roll or a where-clause), a count."""
    if isinstance(quantity, Number):
        return quantity.value
    if isinstance(quantity, X):
        if "X" in ctx.bindings:
            return ctx.bindings["X"]
        if "result" in ctx.bindings:
            return ctx.bindings["result"]
        raise EngineError("X has no value here")
    if isinstance(quantity, Var):
        return ctx.bindings[quantity.name]
    if isinstance(quantity, Count) and quantity.what == "cards in your hand":
        return len(ctx.game.players[ctx.controller].zones["hand"])
    if isinstance(quantity, Action) and quantity.verb in ("the_result", "total_of_results"):
        return ctx.bindings["result"]  # several dice: the total (roll_dice)
    if isinstance(quantity, Action) and quantity.verb == "number_of":
        what = quantity.arg("what")
        kinds = kind_among(what)
        return count_kinds(ctx, *kinds) if kinds is not None else len(resolve(ctx, what))
    if isinstance(quantity, Action) and quantity.verb == "number_of_counters":
        # "the number of arrow counters on ~": counted, not named ("it" and the mentions stay)
        it, mentions = ctx.it, list(ctx.mentions)
        on = list(objects(resolve(ctx, quantity.arg("what"))))
        ctx.it, ctx.mentions = it, mentions
        kind = counter_kind(quantity.arg("counter"))
        return sum(obj.counters.get(kind, 0) for obj in on)
    if isinstance(quantity, Action) and quantity.verb == "number_of_player_counters":
        # "the number of experience counters you have" (122.1)
        return player_counters(ctx, quantity.arg("counter"), quantity.arg("who"))
    raise EngineError(f"cannot count {quantity!r}")


def player_counters(ctx: Context, counter: object, who: object) -> int:
    """How many counters of a kind the players ``who`` names have (122.1; poison: 122.1f)."""
    kind = counter_kind(counter)
    total = 0
    for player in players(ctx, resolve(ctx, who)):
        state = ctx.game.players[player]
        total += state.poison if kind == "poison" else state.counters.get(kind, 0)
    return total


KINDS = frozenset({"card type", "basic land type", "color"})
"""What "… among …" counts the different kinds of: card types (delirium), basic land types
(domain), colours."""
BASIC_LAND_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest"})


def kind_among(noun: object) -> tuple[str, Noun] | None:
    """ "card types among cards in your graveyard", "basic land types among lands you control",
    "colors among permanents you control": the kind counted and the noun of the objects that have
    them (None: not such a phrase)."""
    if not isinstance(noun, Noun) or noun.determiners or len(noun.qualifiers) != 1:
        return None
    among = noun.qualifiers[0]
    what = among.arg("what")
    kind = noun.description.lower().removesuffix("s")
    if among.verb != "among" or kind not in KINDS or not isinstance(what, Noun):
        return None
    if {"that", "those"} & set(what.determiners):  # "among those creatures": named by a later step
        return None
    return kind, what


def count_kinds(ctx: Context, kind: str, what: Noun) -> int:
    """How many different ``kind``s the objects ``what`` describes have between them, now: card
    types (300.1), basic land types (205.3i), colours (105.1)."""
    found: set[str] = set()
    for obj in candidates_for(ctx, what):
        if not matches(ctx, obj, what):
            continue
        if kind == "card type":
            found.update(obj.types)
        elif kind == "basic land type":
            found.update(BASIC_LAND_TYPES & set(obj.subtypes))
        else:
            found.update(colors_of(obj))
    return len(found)


def count(ctx: Context, noun: Noun) -> int:
    """How many objects a plural noun phrase without a number describes ("creature cards in your
    graveyard", "lands on the battlefield"), or how many kinds of them (:func:`kind_among`)."""
    kinds = kind_among(noun)
    if kinds is not None:
        return count_kinds(ctx, *kinds)
    return sum(1 for obj in candidates_for(ctx, noun) if matches(ctx, obj, noun))


DISCARDED = "the discarded card's"
"""The possessive of a ``stat_of`` value ("where X is the discarded card's mana value",
:mod:`carddb.engine.rules.discards`)."""
SELF_POSSESSIVE = "~'s"
"""The possessive of a ``stat_of`` value about the ability's source ("where X is ~'s power"): read
while the source is on the battlefield (no last known information is kept, 608.2h)."""
STAT_OWNERS = frozenset({DISCARDED, SELF_POSSESSIVE})
"""The possessives whose power, toughness or mana value "where X is …" reads."""
THAT_MANY = "that many"
"""The binding of "that many" / "up to that many": the amount of the event that triggered the
ability (damage dealt, life gained or lost)."""
MOVED = "moved"
"""The binding of "that many" after a step that moved cards ("Discard any number of cards, then draw
that many cards"): how many objects the step before moved (``rules.execution``)."""
AMOUNT_EVENTS = frozenset({"damage", "gain_life", "lose_life"})
"""The events whose amount "that many" means."""


UP_TO = "up to"
"""The determiner of "up to two cards": a number from 0 to that many, chosen (:func:`up_to`)."""


def up_to(ctx: Context, noun: object) -> int | None:
    """The most "up to two cards" ("up to X cards", "up to that many cards") lets a player choose;
    None when the phrase does not say "up to"."""
    if not (isinstance(noun, Noun) and noun.determiners[:1] == (UP_TO,) and len(noun.determiners) > 1):
        return None
    return amount_of(ctx, Noun(noun.determiners[1:], noun.description))


def choose_up_to(
    ctx: Context, player: str, what: str, candidates: list[GameObject], most: int | None
) -> list[GameObject]:
    """ "Discard up to two cards", "untap up to two lands": ``player`` chooses them one by one, until
    they have ``most`` (None: any number), answer "done" or none is left."""
    chosen: list[GameObject] = []
    left = list(candidates)
    while left and (most is None or len(chosen) < most):
        more = "any number" if most is None else f"up to {most - len(chosen)} more"
        name = ctx.decider.choose(f"{player} chooses {what} ({more})", [DONE, *_names(left)])
        if name == DONE:
            break
        picked = next(obj for obj in left if obj.name == name)
        left.remove(picked)
        chosen.append(picked)
    return chosen


def amount_of(ctx: Context, noun: object) -> int:
    """How many a noun phrase asks for: "a card" 1, "two cards" 2, "X cards" X, "that many" (the
    triggering event's amount). Not "up to two cards": a number chosen, which the caller asks for
    (:func:`up_to`); an :class:`EngineError` here, never one card."""
    if isinstance(noun, Noun) and noun.determiners[:1] == (UP_TO,):
        raise EngineError(f"'up to' not chosen here ({' '.join(noun.determiners)} {noun.description})")
    if isinstance(noun, Noun) and {THAT_MANY, "twice that many"} & set(noun.determiners):
        many = ctx.bindings.get(THAT_MANY, ctx.bindings.get(MOVED))
        if many is None:
            raise EngineError("'that many' counts nothing here")
        return many * (2 if "twice that many" in noun.determiners else 1)
    if isinstance(noun, Noun):
        amount = noun.amount
        if amount is not None:
            return value(ctx, amount)
    return 1


def resolve(ctx: Context, phrase: object) -> list[Ref]:
    """The objects or players a noun phrase names, as the ability resolves."""
    if isinstance(phrase, SelfRef):  # of a quoted ability another object gave: that object
        found: list[Ref] = [ctx.itself]
    elif isinstance(phrase, Pronoun) and id(phrase) in ctx.slots:  # "any target"
        found = list(ctx.slots[id(phrase)])
    elif isinstance(phrase, Pronoun):
        found = _pronoun(ctx, phrase.word)
    elif isinstance(phrase, Noun) and phrase.determiners == ("this",):  # in a granted ability
        found = [ctx.source]
    elif isinstance(phrase, Noun) and id(phrase) in ctx.slots:
        found = list(ctx.slots[id(phrase)])
    elif isinstance(phrase, Noun):
        found = _described(ctx, phrase)
    elif isinstance(phrase, Action) and phrase.verb == "top_cards":
        found = list(_top_cards(ctx, phrase))
    elif isinstance(phrase, Action) and phrase.verb == "part_of":  # "one of them"
        found = _part_of(ctx, phrase)
    elif isinstance(phrase, Nouns) and not phrase.qualifiers:  # "target creature and target land"
        found = [ref for item in phrase.items for ref in resolve(ctx, item)]
    else:
        raise EngineError(f"cannot resolve {phrase!r}")
    if not (isinstance(phrase, Pronoun) and phrase.word == "you"):
        if not (isinstance(phrase, Pronoun) and phrase.word in OBJECTS_PLAYERS):
            ctx.it = found  # "Its owner shuffles it into their library": "it" is still the object
        ctx.mentions.append(found)
        if isinstance(phrase, Noun):
            _mention_controllers(ctx, phrase, found)
    return found


OBJECTS_PLAYERS = frozenset({
    "its controller", "its owner", "their controller", "their controllers", "their owner", "their owners",
})  # fmt: skip
"""Pronouns that name a player by what "it" names: they leave "it" naming the object."""


def _mention_controllers(ctx: Context, noun: Noun, found: list[Ref]) -> None:
    """ "Target creature an opponent controls …, that player": a phrase naming objects by the player
    who controls them names that player too, as a mention after the objects' (so that "that player"
    finds them and "that creature" still finds the objects)."""
    named: list[Ref] = []
    for qualifier in noun.qualifiers:
        if qualifier.verb != "player_controls" or qualifier.form_name not in NAMING_FORMS:
            continue
        if qualifier.form_name in TARGET_FORMS:
            named.extend(ctx.slots.get(id(qualifier), []))
        else:
            named.extend(obj.controller for obj in objects(found))
    if named:
        ctx.mentions.append(list(dict.fromkeys(named)))


_PLURAL_ZONES = {"graveyards": "graveyard", "hands": "hand", "libraries": "library"}


def zone_name(zone: Action) -> str:
    """The zone a ``zone`` phrase names: "graveyard" for "your graveyard" and "all graveyards"."""
    name = str(zone.arg("zone"))
    return _PLURAL_ZONES.get(name, name)


def zone_owners(ctx: Context, zone: object) -> list[str]:
    """Whose zone a ``zone`` action names: "your library" → the controller; "its owner's" → the
    owner of "it"; "their"/"that player's" → the players named last; no owner → everyone."""
    owner = zone.arg("owner") if isinstance(zone, Action) else None
    if owner == "your":
        return [ctx.controller]
    if owner in ("target player's", "target opponent's"):  # the player chosen for its slot
        chosen = [ref for ref in ctx.slots.get(id(zone), []) if isinstance(ref, str)]
        ctx.mentions.append(list(chosen))  # "… target opponent's library … Then that player shuffles."
        return chosen
    if owner in ("its owner's", "their owner's", "their owners'"):
        return list(dict.fromkeys(obj.owner for obj in objects(ctx.it)))
    if owner == "its controller's":
        return list(dict.fromkeys(obj.controller for obj in objects(ctx.it)))
    if owner in ("their", "that player's", "his or her"):
        named = list(dict.fromkeys(players(ctx, ctx.it)))
        if not named:  # "At the beginning of each player's upkeep, … where X is the number of cards
            # in their hand": read before its clause names anyone, "their" is the event's player
            named = [ref for ref in ctx.event_refs if isinstance(ref, str)][:1]
        return named
    if owner in ("an opponent's", "each opponent's"):
        return ctx.game.opponents(ctx.controller)
    if owner is None or owner in ("a player's", "each player's", "all"):
        return list(ctx.game.players)
    raise EngineError(f"cannot tell whose zone {owner!r} is")


OWNER_NAMING = frozenset({"its owner's", "their owner's", "their owners'", "its controller's"})
"""Whose zone a ``zone`` phrase names by the objects it speaks of: a player "that player" may refer
to afterwards ("Return target permanent to its owner's hand. Then that player discards a card.")."""


def mention_zone_owners(ctx: Context, action: Action) -> None:
    """After ``action`` put what "it" names into its owner's (or controller's) zone, those players
    are named."""
    for _, arg in action.args:
        if isinstance(arg, Action) and arg.verb == "zone" and arg.arg("owner") in OWNER_NAMING:
            owners = zone_owners(ctx, arg)
            if owners:
                ctx.mentions.append(list(owners))


def _top_cards(ctx: Context, action: Action) -> Iterator[GameObject]:
    count = value(ctx, action.arg("amount"))
    for player in zone_owners(ctx, action.arg("zone")):
        yield from ctx.game.in_zone("library", player)[:count]


PRONOUNS = frozenset({
    "you", "it", "them", "they", "itself", "each of them", "its controller", "its owner",
    "their controller", "their controllers", "their owner", "their owners", "defending player",
    "your opponents", "any target", "the rest",
})  # fmt: skip
"""The pronouns the engine resolves (``any target`` is a target slot; "the rest": the cards looked
at that are still where they were); the grammar's others ("he or she", "they and you", "its
controller and you") are not executable."""


def _part_of(ctx: Context, phrase: Action) -> list[Ref]:
    """ "Put one of them into your hand": the controller chooses that many of what is named."""
    pool = list(resolve(ctx, phrase.arg("of")))
    chosen: list[Ref] = []
    for _ in range(min(value(ctx, phrase.arg("amount")), len(pool))):
        names = [ref if isinstance(ref, str) else ref.name for ref in pool]
        name = ctx.decider.choose(f"{ctx.controller} chooses which?", names)
        picked = pool[names.index(name)]
        pool.remove(picked)
        chosen.append(picked)
    return chosen


def _pronoun(ctx: Context, word: str) -> list[Ref]:
    if word == "you":
        return [ctx.controller]
    if word in ("it", "them", "they", "itself", "each of them"):
        return list(ctx.it)
    if word in ("its controller", "its owner"):  # a permanent that left: who controlled it last (608.2h)
        first = list(objects(ctx.it))[:1]
        return [last_controller(ctx.game, obj) if word == "its controller" else obj.owner for obj in first]
    if word in ("their controller", "their controllers", "their owner", "their owners"):
        owners = "owner" in word
        return list(dict.fromkeys(obj.owner if owners else obj.controller for obj in objects(ctx.it)))
    if word == "defending player":
        return list(defending_players(ctx))
    if word == "your opponents":
        return list(ctx.game.opponents(ctx.controller))
    if word == "the rest":
        return list(still_looked(ctx))
    raise EngineError(f"cannot resolve the pronoun {word!r}")


AMONG_LOOKED = frozenset({"from_among_them", "from_among_those", "from_it"})
"""The ``in_zone`` forms that name the cards looked at ("a creature card from among them"; "a nonland
card from it" after "… reveals their hand")."""


def still_looked(ctx: Context) -> list[GameObject]:
    """The cards the ability looked at that are still where they were looked at."""
    return [obj for obj in ctx.looked if obj.zone == ctx.looked_zone]


def defending_players(ctx: Context) -> list[str]:
    """ "Defending player" (506.2, 508.5): the player the attacking creature the ability speaks of
    attacks (the creature the triggering event was about, "Whenever a Dragon you control attacks";
    the source; the creature the source is attached to); else the one player creatures attack; in
    a two-player game, during combat, the nonactive player. Outside the combat phase there is none
    (an empty list); when several players are attacked and nothing says which one is meant, the
    ability cannot be executed."""
    game = ctx.game
    if game.step not in COMBAT_STEPS:
        return []
    attacking = game.combat.attackers if game.combat is not None else {}
    meant: list[GameObject] = [*objects(ctx.event_refs), ctx.source]
    if ctx.source.attached_to is not None and ctx.source.attached_to in game.objects:
        meant.append(game.objects[ctx.source.attached_to])
    for obj in meant:
        if obj.id in attacking:
            return [attacking[obj.id]]
    attacked = list(dict.fromkeys(attacking.values()))
    if len(attacked) == 1:
        return attacked
    opponents = game.opponents(game.active)
    if len(opponents) == 1:
        return opponents
    if not attacked:
        return []
    raise EngineError(f"which defending player is meant is not known ({', '.join(attacked)} are attacked)")


def named_players(ctx: Context) -> list[str]:
    """ "That player", "they" in "… they control": the players named last (the most recent mention
    that holds players, :attr:`Context.mentions`), else the player the triggering event was about
    ("At the beginning of each player's upkeep, … that player"). Never everyone: with no player
    to refer to, the ability cannot be executed."""
    for named in reversed(ctx.mentions):
        found = [ref for ref in named if isinstance(ref, str)]
        if found:
            return found
    found = [ref for ref in ctx.event_refs if isinstance(ref, str)]
    if found:
        return found[:1]
    raise EngineError("'that player' / 'they' names no player here")


@contextmanager
def speaking_of(ctx: Context, ref: Ref) -> Iterator[None]:
    """While a handler deals with one player of several ("each player … they control", "each
    opponent … that player controls"), "they" and "that player" name that player."""
    marker = [ref]
    ctx.mentions.append(marker)
    try:
        yield
    finally:  # what was named meanwhile stays named
        ctx.mentions[:] = [named for named in ctx.mentions if named is not marker]


def last_controller(game: Game, obj: GameObject) -> str:
    """Who controls ``obj``, or controlled it last on the battlefield (a creature that died, 608.2h)."""
    if obj.zone != "battlefield":
        for departure in reversed(game.left_this_turn):
            if departure.object_id == obj.id:
                return departure.controller
    return obj.controller


def _described(ctx: Context, noun: Noun) -> list[Ref]:
    for role in ROLES:  # "that creature's controller": the player controlling what was named
        if noun.description.endswith(role) and not noun.targeted:
            determiners = ("that",) if noun.determiners in (("that",), ("the",)) else noun.determiners
            named = resolve(ctx, Noun(determiners, noun.description.removesuffix(role), noun.qualifiers))
            owners = [
                obj.owner if role == "'s owner" else last_controller(ctx.game, obj) for obj in objects(named)
            ]
            return list(dict.fromkeys(owners))
    words = {w.lower().rstrip("s") for w in noun.description.split()}
    if {"that", "those"} & set(noun.determiners):
        return _antecedent(ctx, noun)
    if words & _PLAYERS:  # "each player": they choose and act in APNAP order (101.4)
        players = ctx.game.turn_order
        if "opponent" in words:
            players = ctx.game.opponents(ctx.controller)
        if OTHER_DETERMINERS & set(noun.determiners):  # "each other player": other than you
            players = [p for p in players if p != ctx.controller]
        return [p for p in players if all(_qualifies(ctx, p, q) for q in noun.qualifiers)]
    candidates = [obj for obj in candidates_for(ctx, noun) if matches(ctx, obj, noun)]
    return choose_some(ctx, noun, candidates)


def _antecedent(ctx: Context, noun: Noun) -> list[Ref]:
    """ "That creature", "those creatures", "that player": what the ability named last that the
    phrase describes ("Tap target creature. That creature doesn't untap …"); before anything was
    named, what the triggering event was about ("Whenever ~ blocks a creature, that creature …");
    otherwise nothing."""
    for named in reversed(ctx.mentions):  # not the source itself, which the text calls by its name:
        # "Destroy target creature with defender. Grotag Siege-Runner deals 2 damage to that
        # creature's controller" is the destroyed creature's
        found = [ref for ref in named if ref is not ctx.source and matches(ctx, ref, noun)]
        if found:
            return found if "those" in noun.determiners or len(found) == 1 else found[:1]
    found = [ref for ref in ctx.event_refs if ref is not ctx.source and matches(ctx, ref, noun)][:1]
    if not found and _names_players(noun):  # an object may be gone; a player is never just missing
        raise EngineError(f"'that {noun.description}' names no player here")
    return found


def _names_players(noun: Noun) -> bool:
    return bool({w.lower().rstrip("s") for w in noun.description.split()} & _PLAYERS)


IN_ZONE_WITHOUT_A_ZONE = {
    "from_a_graveyard": "graveyard", "in_a_graveyard": "graveyard", "in_any_graveyard": "graveyard",
    "from_any_graveyard": "graveyard", "in_graveyards": "graveyard", "from_graveyards": "graveyard",
    "in_exile": "exile",
}  # fmt: skip
"""The ``in_zone`` forms that name a kind of zone without a ``zone`` phrase ("in a graveyard")."""


def noun_zone(noun: Noun) -> str:
    """Where the objects a noun names are: the zone of its ``in``/``from`` qualifier, the stack for
    spells, else the battlefield."""
    if noun.description.startswith("exiled ") or any(q.verb == "linked_exile" for q in noun.qualifiers):
        return "exile"  # "the exiled card", "cards exiled with ~" (607.2a)
    for qualifier in noun.qualifiers:
        if qualifier.verb == "in_zone":
            zone = qualifier.arg("zone")
            if isinstance(zone, Action):
                return zone_name(zone)
            return IN_ZONE_WITHOUT_A_ZONE.get(qualifier.form_name or "", "battlefield")
    if noun.description.endswith(("spell", "spells")):
        return "stack"
    return "battlefield"


def candidates_for(ctx: Context, noun: Noun) -> list[GameObject]:
    if any(q.verb == "in_zone" and q.form_name in AMONG_LOOKED for q in noun.qualifiers):
        return still_looked(ctx)  # "a creature card from among them"
    done = [q for q in noun.qualifiers if q.verb == "this_way"]
    if done:  # "creatures destroyed this way": what this ability did it to, wherever it is now
        return list(ctx.done.get(this_way(done[0]), []))
    zone = noun_zone(noun)
    if zone == "battlefield":
        return ctx.game.permanents()
    if zone == "stack":
        return [ctx.game.objects[item.source] for item in ctx.game.stack if item.is_spell]
    return [obj for player in ctx.game.players for obj in ctx.game.in_zone(zone, player)]


def choose_some(ctx: Context, noun: Noun, candidates: list[GameObject]) -> list[Ref]:
    """ "a card", "two creatures": the controller chooses that many (all, when fewer); "each",
    "all" and plural descriptions without a number name every one."""
    limit = total_limit(noun)
    if limit is not None:
        return _within_total(ctx, noun, candidates, value(ctx, limit.arg("amount") or X()))
    if ANY_NUMBER in noun.determiners:  # "any number of lands": as many as the player wants
        return list(choose_any_number(ctx, ctx.controller, noun.description, candidates))
    most = up_to(ctx, noun)
    if most is not None:  # "untap up to two lands": no more than that many, as the player wants
        return list(choose_up_to(ctx, ctx.controller, noun.description, candidates, most))
    amount = noun.amount
    if amount is None or not noun.determiners or "each" in noun.determiners or "all" in noun.determiners:
        return list(candidates)
    count = value(ctx, amount)
    if count >= len(candidates):
        return list(candidates)
    chosen: list[Ref] = []
    left = list(candidates)
    for _ in range(count):
        name = ctx.decider.choose(f"{ctx.controller} chooses {noun.description}", _names(left))
        picked = next(obj for obj in left if obj.name == name)
        left.remove(picked)
        chosen.append(picked)
    return chosen


TOTAL_LIMIT = "with_total"
"""The qualifier limiting the chosen set as a whole: "any number of cards with total mana value X
or less" (each card fits alone; together they must too)."""
DONE = "done"
"""The answer that ends choosing cards one by one."""


ANY_NUMBER = "any number of"


def choose_any_number(ctx: Context, player: str, what: str, candidates: list[GameObject]) -> list[GameObject]:
    """ "Discard any number of cards", "Sacrifice any number of lands": ``player`` chooses them one
    by one, until they answer "done" or none is left."""
    return choose_up_to(ctx, player, what, candidates, None)


def total_limit(noun: Noun) -> Action | None:
    return next((q for q in noun.qualifiers if q.verb == TOTAL_LIMIT), None)


def _within_total(ctx: Context, noun: Noun, candidates: list[GameObject], limit: int) -> list[Ref]:
    """ "Return any number of cards with total mana value X or less …" (Pair o' Dice Lost): chosen
    as the ability resolves, one by one, each among the cards that fit what is left of the total
    (a card of mana value 0 always fits), until the controller answers "done" or nothing fits."""
    chosen: list[Ref] = []
    left = list(candidates)
    while True:
        fits = [obj for obj in left if obj.card.mana_value <= limit]
        if not fits:
            return chosen
        question = f"{ctx.controller} chooses {noun.description} (total mana value {limit} or less left)"
        name = ctx.decider.choose(question, [DONE, *_names(fits)])
        if name == DONE:
            return chosen
        picked = next(obj for obj in fits if obj.name == name)
        left.remove(picked)
        chosen.append(picked)
        limit -= picked.card.mana_value


def _names(found: list[GameObject]) -> list[str]:
    return list(dict.fromkeys(obj.name for obj in found))


OTHER_DETERMINERS = frozenset({"another", "each other", "all other", "other"})
"""Determiners that leave the source out: "another creature", "each other creature you control"."""


def _other_than(ctx: Context, obj: GameObject) -> bool:
    """What "other" leaves out: the source of a permanent's ability; for an instant or sorcery, its
    targets ("Target creature you control gets +2/+1 … Each other creature you control gets
    +1/+1": ``query.executable`` refuses a spell's "other" when it has no target)."""
    if obj is ctx.source:
        return True
    spell = ctx.source.zone == "stack" and not ctx.source.card.is_permanent
    return spell and any(obj is ref for refs in ctx.slots.values() for ref in refs)


def matches(ctx: Context, ref: Ref, noun: Noun) -> bool:
    """Whether ``ref`` is what ``noun`` describes (its types, colours, states and qualifiers)."""
    if isinstance(ref, str):
        words = {w.lower().rstrip("s") for w in noun.description.split()}
        if "opponent" in words:
            return ref != ctx.controller
        if OTHER_DETERMINERS & set(noun.determiners) and ref == ctx.controller:  # "each other player"
            return False
        return bool(words & _PLAYERS)
    if OTHER_DETERMINERS & set(noun.determiners) and _other_than(ctx, ref):
        return False
    return any(
        _is(ctx, ref, alternative) and all(_qualifies(ctx, ref, q) for q in qualifiers_of(noun, alternative))
        for alternative in _alternatives(noun)
    )


NARROWING_QUALIFIERS = frozenset({"with_keywords", "without_keywords"})
"""The qualifiers a narrowed noun gives its one alternative only (``Noun.narrowed``)."""


def qualifiers_of(noun: Noun, alternative: str) -> tuple[Action, ...]:
    """The qualifiers that describe ``alternative`` of ``noun``: all of them, except that a keyword
    qualifier of a narrowed noun describes only the alternative it narrows ("Destroy target
    artifact, enchantment, or creature with flying": any artifact, any enchantment, or a creature
    with flying; 115.1 and 608.2b check each alternative as written)."""
    if noun.narrowed is None or alternative == noun.narrowed:
        return noun.qualifiers
    return tuple(q for q in noun.qualifiers if q.verb not in NARROWING_QUALIFIERS)


def _alternatives(noun: Noun) -> tuple[str, ...]:
    """What a description may be: its alternatives ("artifact, creature, or land"), except that
    negations listed with commas modify the noun together ("noncreature, nonland card" is a card
    that is neither a creature nor a land, 205.4b)."""
    parts = noun.alternatives
    joined = re.search(r" (?:or|and|and/or) ", noun.description) is not None
    if len(parts) > 1 and not joined and all(" " not in p and _negated(p) for p in parts[:-1]):
        return (" ".join(parts),)
    return parts


def this_way(qualifier: Action) -> str:
    """ "destroyed this way" → "destroyed"."""
    return forms.written(qualifier).removesuffix(" this way")


def did(ctx: Context, word: str, obj: GameObject) -> None:
    """The resolving ability ``word`` (destroyed, exiled, sacrificed, discarded, revealed) ``obj``.
    A card it exiled is linked to its source (607.2a: :func:`exiled_with`)."""
    ctx.done.setdefault(word, []).append(obj)
    if word == "exiled" and obj.zone == "exile":
        obj.exiled_by = (ctx.source.id, ctx.source.timestamp)


def exiled_with(obj: GameObject, source: GameObject) -> bool:
    """Whether ``obj`` is in exile, put there by an ability of ``source`` as the object it is now
    (607.2a: "the exiled card", "cards exiled with ~"; a source that left and came back is a new
    object, 400.7, with nothing exiled yet)."""
    return obj.zone == "exile" and obj.exiled_by == (source.id, source.timestamp)


def _linked_exile(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "exiled with ~", "exiled with this permanent" (607.2a)."""
    return isinstance(ref, GameObject) and exiled_with(ref, ctx.source)


def _linked_exile_check(qualifier: Action, catalog: Catalog) -> str | None:
    return None if isinstance(qualifier.arg("what"), SelfRef) else "cards exiled with another object"


def _on_the_battlefield(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    return isinstance(ref, GameObject) and ref.zone == "battlefield"


def _this_way(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    return isinstance(ref, GameObject) and ref in ctx.done.get(this_way(qualifier), [])


def _negated(word: str) -> str | None:
    """ "nonsnow" → "snow", "non-Human" → "Human", "nontoken" → "token" (None: not a negation)."""
    if word.lower().startswith("non") and len(word) > 4 and word.lower() != "none":
        return word[3:].lstrip("-")
    return None


def _is(ctx: Context, obj: GameObject, alternative: str) -> bool:
    for word in alternative.split():
        negated = _negated(word)
        if negated is not None:  # "nonsnow land": each word of the description must hold (205.4b)
            if _is(ctx, obj, negated):
                return False
            continue
        lowered = word.lower()
        singular = "sorcery" if lowered == "sorceries" else lowered.rstrip("s")
        if singular in _PLAYERS:  # "that player", "target player or planeswalker": not an object
            return False
        if singular in _TYPE_WORDS:
            if _TYPE_WORDS[singular] not in obj.types:
                return False
        elif singular in _SUPERTYPE_WORDS:
            wanted = _SUPERTYPE_WORDS[singular] or _SUPERTYPE_WORDS[singular[3:]]
            if (wanted in obj.supertypes) == singular.startswith("non"):
                return False
        elif singular.startswith("non") and singular[3:].lstrip("-") in _TYPE_WORDS:
            if _TYPE_WORDS[singular[3:].lstrip("-")] in obj.types:
                return False
        elif (
            (singular == "tapped" and not obj.tapped)
            or (singular == "untapped" and obj.tapped)
            or (singular in ("other", "another") and _other_than(ctx, obj))
            or (singular == "token" and not obj.token)
        ):
            return False
        elif singular == "exiled":  # "the exiled card" (607.2a)
            if not exiled_with(obj, ctx.source):
                return False
        elif singular in ATTACHED_WORDS:
            if obj.id != ctx.source.attached_to:
                return False
        elif singular in ("attacking", "blocking", "blocked", "unblocked"):
            if not in_combat_as(ctx.game, obj, singular):
                return False
        elif singular in COLOR_WORDS:
            if COLOR_WORDS[singular] not in colors_of(obj):
                return False
        elif word[:1].isupper():
            forms = subtype_forms(word)
            if not forms & set(obj.subtypes) and not (
                obj.now.every_creature_type and not forms & NONCREATURE_SUBTYPES
            ):
                return False
    return True


def subtype_forms(word: str) -> set[str]:
    """The subtypes a capitalised word of a description may name, singular or plural (205.3):
    "Vampires" → Vampire, "Octopuses" → Octopus, "Elves" → Elf, "Allies" → Ally. Only the
    object's own subtypes are compared with them, so a spare form names nothing."""
    forms = {word, word.rstrip("s")}
    if word.endswith("es"):
        forms.add(word[:-2])  # Octopuses, Foxes, Sphinxes
    if word.endswith("ves"):
        forms.add(word[:-3] + "f")  # Elves, Dwarves, Wolves, Werewolves
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")  # Allies
    return forms


def _qualifies(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    check = ctx.game.catalog.qualifiers.get(qualifier.verb)
    if check is None:
        raise EngineError(f"cannot check the qualifier {qualifier.verb!r}")
    return check(ctx, ref, qualifier)


def _controller(ref: Ref) -> str:
    return ref.controller if isinstance(ref, GameObject) else ref


def _you_control(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "you control", "you don't control", "you own", "you both own and control"."""
    controlled = _controller(ref) == ctx.controller
    if is_form(qualifier, "you_own", "you_own_and_control"):
        owned = isinstance(ref, GameObject) and ref.owner == ctx.controller
        return owned and (controlled or is_form(qualifier, "you_own"))
    return controlled == is_form(qualifier, "you_control")


TARGET_FORMS = forms.named("player_controls", "target_player", "target_opponent")
""" ``player_controls`` forms whose player is a target: "target player controls", "target
opponent controls" (:func:`carddb.engine.rules.targets.target_nouns` lists them as targets)."""
NAMED_FORMS = forms.named("player_controls", "that_player", "they", "that_opponent")
""" ``player_controls`` forms naming the players named last (:func:`named_players`): "that
player controls", "they control", "that opponent controls"."""
NAMING_FORMS = forms.named(
    "player_controls", "an_opponent", "target_player", "target_opponent", "that_opponent"
)
""" ``player_controls`` forms that name a player "that player" may refer to afterwards ("an
opponent controls", "target player controls", "target opponent controls", "that opponent
controls")."""
CONTEXT_FORMS = TARGET_FORMS | NAMED_FORMS | forms.named("player_controls", "its_controller")
""" ``player_controls`` forms that need what an ability resolving knows (its targets, what it named,
"it"): not executable in static abilities and trigger conditions."""


def controlling_players(ctx: Context, qualifier: Action) -> list[str] | None:
    """The players a ``player_controls`` qualifier lets control what it describes (None: any
    player, "each player controls"): the controller's opponents, the target player, the players
    named last, the controller of "it", the defending player."""
    form = qualifier.form_name
    if is_form(qualifier, "an_opponent", "your_opponents"):
        return ctx.game.opponents(ctx.controller)
    if form in TARGET_FORMS:
        if id(qualifier) not in ctx.slots:
            raise EngineError("the target player of 'target player controls' was not chosen")
        return [ref for ref in ctx.slots[id(qualifier)] if isinstance(ref, str)]
    if form in NAMED_FORMS:
        return named_players(ctx)
    if is_form(qualifier, "its_controller"):
        controllers = list(dict.fromkeys(obj.controller for obj in objects(ctx.it)))
        if not controllers:
            raise EngineError("'its controller' names no object's controller here")
        return controllers
    if is_form(qualifier, "defending_player"):
        return defending_players(ctx)
    if is_form(qualifier, "each_player"):
        return None
    raise EngineError(f"cannot tell who controls 'player_controls' form {form}")


def _player_controls(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """Who controls what the noun describes: "an opponent controls", "target player controls",
    "that player controls", "its controller controls", "defending player controls", "they
    control" (the players named last: "Each player loses 1 life for each creature they control",
    each player counts theirs), "each player controls"."""
    allowed = controlling_players(ctx, qualifier)
    return allowed is None or _controller(ref) in allowed


def refers_to_named_players(node: object) -> bool:
    """Whether a phrase speaks of the players named last ("the number of lands they control",
    "Islands that player controls"): a handler that deals with several players evaluates it for
    each of them (:func:`speaking_of`)."""
    return any(
        isinstance(n, Action) and n.verb == "player_controls" and n.form_name in NAMED_FORMS
        for n in walk(node)
    )


def counter_kind(text: object) -> str:
    """The kind of counter a phrase names: "+1/+1 counters" → "+1/+1", "a charge counter" → "charge"."""
    return str(text).removesuffix("s").removesuffix(" counter")


def objects(refs: list[Ref]) -> Iterator[GameObject]:
    return (ref for ref in refs if isinstance(ref, GameObject))


def players(ctx: Context, refs: list[Ref]) -> Iterator[str]:
    for ref in refs:
        yield ref if isinstance(ref, str) else ref.controller


def in_combat_as(game: Game, obj: GameObject, word: str) -> bool:
    """ "attacking", "blocking", "blocked" or "unblocked" (an attacking creature no creature
    blocked, once blockers are declared): whether ``obj`` is that now."""
    combat = game.combat
    if combat is None:
        return False
    if word == "attacking":
        return obj.id in combat.attackers
    if word == "blocking":
        return bool(combat.blockers.get(obj.id))
    if word == "blocked":
        return obj.id in combat.attackers and obj.id in combat.blocked
    blockers_declared = game.step not in (Step.COMBAT, Step.DECLARE_ATTACKERS)
    return obj.id in combat.attackers and obj.id not in combat.blocked and blockers_declared


SECTION = Section(
    "query.nouns",
    qualifiers={
        "you_control": _you_control,
        "player_controls": _player_controls,
        "this_way": _this_way,
        "on_the_battlefield": _on_the_battlefield,
        "linked_exile": _linked_exile,
    },
    checks={"linked_exile": _linked_exile_check},
)
