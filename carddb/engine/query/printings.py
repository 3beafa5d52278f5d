"""Which names were first printed in an expansion: "each nontoken permanent with a name originally
printed in the Antiquities expansion" (Golgothian Sylex). The engine is told (``Game.first_printed``,
set name → names); it never opens the card database, and a set it was not told about is refused
(not executable), never read as "no names"."""

from __future__ import annotations

from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import NotExecutableError
from carddb.engine.core.state import Game, GameObject
from carddb.oracle.model import Action, walk

QUALIFIER = "name_originally_printed_in"
"""The qualifier's entry in grammars/oracle/phrases/qualifiers.toml."""


def _problem(set_name: str) -> str:
    return f"names first printed in {set_name} (the game was not told them)"


def unknown_sets(game: Game, node: object) -> list[str]:
    """What keeps ``node`` (steps, costs) from executing in ``game``: each expansion it asks
    about that the game holds no names for."""
    problems: list[str] = []
    for found in walk(node):
        if isinstance(found, Action) and found.verb == QUALIFIER:
            set_name = str(found.arg("set"))
            if set_name not in game.first_printed and _problem(set_name) not in problems:
                problems.append(_problem(set_name))
    return problems


def originally_printed(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """The qualifier: ``ref``'s name is among those first printed in the set (208.1: a permanent's
    name as it is now; a face-down permanent has none)."""
    set_name = str(qualifier.arg("set"))
    names = ctx.game.first_printed.get(set_name)
    if names is None:
        raise NotExecutableError(ctx.source.name, [_problem(set_name)])
    return isinstance(ref, GameObject) and bool(ref.name) and ref.name in names
