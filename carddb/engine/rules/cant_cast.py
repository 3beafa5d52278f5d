"""Static abilities that stop players from casting spells (101.2, 601.2): "You can't cast creature
spells.", "Your opponents can't cast spells during your turn.", "Players can't cast spells during
combat.", "Each player can't cast more than one spell each turn.", "Your opponents can't cast spells
with the same name as the exiled card."

:func:`check_cast` runs as a spell is about to be cast (from anywhere, for any cost, an effect's
cast included): each "can't cast" clause of a static ability on the battlefield that applies now
(its "as long as" holds) and names the player refuses a spell its noun describes, read from the
ability's point of view (its controller is "you"). "… this turn" effects of resolving spells are
refused by the catalog."""

from __future__ import annotations

from carddb.engine.core.catalog import Section
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.forms import written
from carddb.engine.core.state import COMBAT_STEPS, Game, GameObject
from carddb.engine.query.nouns import matches, resolve
from carddb.engine.rules.continuous import static_clauses
from carddb.oracle.model import Action, Noun

CANT_CAST = "cant_cast"


def check_cast(game: Game, player: str, spell: GameObject) -> None:
    """Refuse casting ``spell`` when a static ability says ``player`` can't cast it."""
    for source, ctx, clause in static_clauses(game):
        for predicate in clause.predicates:
            if not isinstance(predicate, Action) or predicate.verb != CANT_CAST:
                continue
            subject = clause.subject
            named = resolve(ctx, subject) if subject is not None else [ctx.controller]
            if player not in named:
                continue
            text = written(predicate)
            if text == "can't cast more than one spell each turn":
                if game.players[player].spells_cast_this_turn < 1:
                    continue
            else:
                what = predicate.arg("what")
                if not isinstance(what, Noun) or not matches(ctx, spell, what):
                    continue
                if text.endswith("during your turn") and game.active != ctx.controller:
                    continue
                if text.endswith("during combat") and game.step not in COMBAT_STEPS:
                    continue
            raise IllegalActionError(f"{player} can't cast {spell.name} ({source.name})")


SECTION = Section("rules.cant_cast", static_verbs=frozenset({CANT_CAST}))
"""Static "can't cast" abilities, checked as spells are cast."""
