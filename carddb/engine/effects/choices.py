"""Choosing objects and players as an ability resolves ("Target opponent chooses a creature they
control. Destroy that creature.", "Choose a Giant creature you control. It deals damage …",
"Choose a player. That player adds {G}{G}{G}.", "Choose target artifact. Its owner shuffles it
into their library."). The player the clause names chooses (608.2d) among what the noun
describes — as many as it says; all of them, without a question, when there are no more —, and
what was chosen is what "it", "that creature" and "that player" name next. A target ("choose
target creature") was chosen as the spell or ability was put on the stack: choosing it is naming
it.

The catalog refuses the rest (:func:`choose_problem` and ``query.executable``): choices of a colour,
a creature type, a card name or a number, "at random", "one of them", choices made by "an opponent"
(which one?), and "other" after a choice ("Choose a creature, then destroy all other creatures":
other than the chosen one, which the engine does not read)."""

from __future__ import annotations

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.state import GameObject
from carddb.engine.query.nouns import (
    amount_of,
    candidates_for,
    did,
    known_description,
    matches,
    players,
    resolve,
    speaking_of,
    zone_owners,
)
from carddb.oracle.model import Action, Noun

PLAYER_WORDS = frozenset({"player", "opponent"})
CHOOSERS = frozenset({("a",), ("an",)})
"""The determiners of what a player may be asked to choose ("a creature", "an opponent")."""


NOT_COUNTED = frozenset({
    "up to", "any number of", "each", "all", "that", "those", "the", "another", "one of",
})  # fmt: skip


def _counted(noun: Noun) -> bool:
    """ "a creature", "two cards", "X cards": a number of them, chosen exactly (not "up to two")."""
    return noun.determiners in CHOOSERS or (
        len(noun.determiners) == 1 and noun.amount is not None and not set(noun.determiners) & NOT_COUNTED
    )


def _player_noun(noun: Noun) -> bool:
    return noun.description in PLAYER_WORDS


def choose(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    assert isinstance(what, Noun)
    if what.targeted:  # chosen as the spell or ability was put on the stack (601.2c)
        resolve(ctx, what)
        return
    chosen: list[Ref] = []
    for player in list(dict.fromkeys(players(ctx, subject))) or [ctx.controller]:
        with speaking_of(ctx, player):  # "a creature they control": the player who chooses
            if _player_noun(what):
                candidates: list[Ref] = list(ctx.game.players)
                if what.description == "opponent":
                    candidates = list(ctx.game.opponents(ctx.controller))
            else:
                candidates = list(candidates_for(ctx, what))
            left = [ref for ref in candidates if matches(ctx, ref, what)]
            count = amount_of(ctx, what)
            if len(left) <= count:  # no choice to make: all of them (608.2d)
                chosen.extend(left)
                continue
            for _ in range(count):
                names = list(dict.fromkeys(ref if isinstance(ref, str) else ref.name for ref in left))
                name = ctx.decider.choose(f"{player} chooses {what.description}", names)
                picked = next(ref for ref in left if (ref if isinstance(ref, str) else ref.name) == name)
                left.remove(picked)
                chosen.append(picked)
    ctx.game.log.append(
        f"chosen: {', '.join(r if isinstance(r, str) else r.name for r in chosen) or 'nothing'}"
    )
    ctx.it = chosen
    ctx.mentions.append(chosen)


def reveal_hand(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Target opponent reveals their hand", "Look at target player's hand": the cards of that hand
    are the ones looked at, which "… from it" and "from among them" then name (``Context.looked``)."""
    seen: list[GameObject] = []
    for owner in zone_owners(ctx, action.arg("whose")):
        hand = ctx.game.in_zone("hand", owner)
        seen.extend(hand)
        word = "reveals" if action.verb == "reveal_hand" else "is looked at:"
        ctx.game.log.append(f"{owner}'s hand {word} {', '.join(o.name for o in hand) or 'nothing'}")
        if action.verb == "reveal_hand":
            for obj in hand:
                did(ctx, "revealed", obj)
    ctx.looked, ctx.looked_zone = seen, "hand"


def choose_problem(action: Action, catalog: Catalog) -> str | None:
    """What keeps a "choose" phrase from executing (None: nothing)."""
    what = action.arg("what")
    if not isinstance(what, Noun):
        return "pred 'choose'"  # "one of them", "one of those cards"
    if not known_description(what.description) and not _player_noun(what):
        return f"choose a {what.description}"  # a colour, a creature type, a card name, a number
    if not what.targeted and not _counted(what):
        return "pred 'choose'"
    if any("random" in q.verb for q in what.qualifiers):
        return "choose at random"
    return None


SECTION = Section(
    "effects.choices",
    verbs={"choose": choose, "reveal_hand": reveal_hand, "look_at_hand": reveal_hand},
    checks={"choose": choose_problem},
)
