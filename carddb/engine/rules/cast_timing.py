"""Casting restrictions of a spell (601.3, 307.1): "Cast this spell only during combat.", "… only
during the declare attackers step and only if you've been attacked this step.", "… only during
combat after blockers are declared.", "… only during your turn.", "… only if you control two or
more Vampires." Checked as the spell is cast (``actions.play.cast``, :func:`check_cast_restrictions`),
each against the step, whose turn it is, who is attacked, or its condition."""

from __future__ import annotations

from carddb.engine.core.catalog import Restriction, Section
from carddb.engine.core.context import Context
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.errors import IllegalActionError
from carddb.engine.core.forms import written
from carddb.engine.core.state import COMBAT_STEPS, Game, GameObject, Step
from carddb.engine.rules.conditions import evaluate
from carddb.oracle.model import Action, Kind

CAST_RESTRICTIONS = ("cast_only", "cast_only_when")
_STEPS = list(Step)
_BEFORE_BLOCKERS = (Step.COMBAT, Step.DECLARE_ATTACKERS)


def _before(step: Step, than: Step) -> bool:
    return _STEPS.index(step) < _STEPS.index(than)


def _allowed(game: Game, player: str, spell: GameObject, restriction: Action) -> bool:
    text = written(restriction).removeprefix("cast ~ only ")
    step, yours = game.step, game.active == player
    attacked = game.combat is not None and player in game.combat.attackers.values()
    checks = {
        "during the declare attackers step and only if you've been attacked this step": (
            step is Step.DECLARE_ATTACKERS and attacked
        ),
        "during combat before blockers are declared": step in _BEFORE_BLOCKERS,
        "during combat after blockers are declared": step in COMBAT_STEPS and step not in _BEFORE_BLOCKERS,
        "after combat": not _before(step, Step.MAIN2),
        "during your declare attackers step": step is Step.DECLARE_ATTACKERS and yours,
        "before combat or during combat before blockers are declared": _before(step, Step.DECLARE_BLOCKERS),
        "during combat": step in COMBAT_STEPS,
        "during your turn": yours,
        "during an opponent's turn": not yours,
        "during the declare attackers step": step is Step.DECLARE_ATTACKERS,
        "during the declare blockers step": step is Step.DECLARE_BLOCKERS,
        "before the combat damage step": _before(step, Step.FIRST_STRIKE_DAMAGE),
    }
    if text.startswith("if "):
        condition = restriction.arg("cond")
        return evaluate(Context(game, ScriptedDecider(), player, spell), condition)
    if text not in checks:
        raise IllegalActionError(f"{spell.name}: the restriction {text!r} is not checked")
    return checks[text]


def _restriction(game: Game, player: str, spell: GameObject, index: int, restriction: Action) -> None:
    if not _allowed(game, player, spell, restriction):
        when = written(restriction).removeprefix("cast ~ only ")
        raise IllegalActionError(f"{spell.name}: cast it only {when}")


def check_cast_restrictions(game: Game, player: str, spell: GameObject) -> None:
    """Refuse casting ``spell`` now when one of its "Cast this spell only …" lines says so."""
    for ability in spell.card.abilities:
        if ability.kind in (Kind.SPELL, Kind.STATIC, Kind.CASTING):
            for restriction in ability.restrictions:
                if restriction.verb in CAST_RESTRICTIONS:
                    _restriction(game, player, spell, -1, restriction)


RESTRICTIONS: dict[str, Restriction] = dict.fromkeys(CAST_RESTRICTIONS, _restriction)
SECTION = Section("rules.cast_timing", restrictions=RESTRICTIONS)
"""The spells' own casting restrictions."""
