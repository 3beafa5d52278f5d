"""The engine's catalog, built here and only here: every module that implements part of the rules
declares its ``SECTION`` (:class:`~carddb.engine.core.catalog.Section`), and :data:`CATALOG` joins
them, refusing an entry declared twice. Adding a verb, a keyword or a replacement is adding it to
one module's section (and, for a new module, one line below).

:func:`face_missing` and :func:`missing` say, from this catalog alone, what the engine cannot
execute (``carddb coverage --engine``); :func:`new_game` starts a game that uses it."""

from __future__ import annotations

from carddb.engine.actions import free_cast, play
from carddb.engine.actions import madness as madness_ability
from carddb.engine.actions import rebound as rebound_cast
from carddb.engine.actions import suspend as suspend_cast
from carddb.engine.core.catalog import Catalog
from carddb.engine.core.state import Game, Player, Step
from carddb.engine.effects import cards, coins, conditions, copies, damage, life, mana, permanents, tokens
from carddb.engine.effects import characteristics as characteristic_effects
from carddb.engine.effects import choices as choice_effects
from carddb.engine.query import characteristics, executable, nouns
from carddb.engine.query.faces import unreachable
from carddb.engine.rules import (
    attachments,
    buyback,
    cant_cast,
    cast_timing,
    casting,
    choices,
    combat,
    continuous,
    convoke,
    costs,
    crew,
    cumulative_upkeep,
    cycling,
    dash,
    destruction,
    doubling,
    dredge,
    echo,
    evoke,
    execution,
    face_down,
    flashback,
    foretell,
    generic_payers,
    instead,
    kicker,
    lasting,
    layers,
    leveling,
    life_gain,
    madness,
    modified_damage,
    planechase,
    prevention,
    protection,
    rebound,
    sagas,
    suspend,
    targeted,
    timing,
    triggers,
    ward,
)
from carddb.oracle.faces import Face
from carddb.oracle.model import Ability, ParsedFace

CATALOG = Catalog.of(
    characteristics.SECTION,
    nouns.SECTION,
    attachments.SECTION,
    buyback.SECTION,
    cant_cast.SECTION,
    cast_timing.SECTION,
    casting.SECTION,
    choices.SECTION,
    combat.SECTION,
    continuous.SECTION,
    convoke.SECTION,
    costs.SECTION,
    cycling.SECTION,
    dash.SECTION,
    crew.SECTION,
    destruction.SECTION,
    execution.SECTION,
    flashback.SECTION,
    foretell.SECTION,
    generic_payers.SECTION,
    instead.SECTION,
    kicker.SECTION,
    lasting.SECTION,
    layers.SECTION,
    leveling.SECTION,
    life_gain.SECTION,
    prevention.SECTION,
    protection.SECTION,
    targeted.SECTION,
    timing.SECTION,
    triggers.SECTION,
    ward.SECTION,
    dredge.SECTION,
    echo.SECTION,
    evoke.SECTION,
    cumulative_upkeep.SECTION,
    doubling.SECTION,
    face_down.SECTION,
    madness.SECTION,
    modified_damage.SECTION,
    planechase.SECTION,
    cards.SECTION,
    coins.SECTION,
    copies.SECTION,
    choice_effects.SECTION,
    characteristic_effects.SECTION,
    conditions.SECTION,
    damage.SECTION,
    life.SECTION,
    mana.SECTION,
    permanents.SECTION,
    tokens.SECTION,
    play.SECTION,
    free_cast.SECTION,
    madness_ability.SECTION,
    suspend.SECTION,
    suspend_cast.SECTION,
    rebound.SECTION,
    rebound_cast.SECTION,
    sagas.SECTION,
)
"""Everything the engine executes."""


def missing(ability: Ability) -> list[str]:
    """What of ``ability`` the engine cannot execute (empty: all of it)."""
    return executable.missing(ability, CATALOG)


def face_missing(face: ParsedFace, type_line: str | None = None) -> list[str]:
    """What of a whole face (of that type line) the engine cannot execute (empty: all of it)."""
    return executable.face_missing(face, CATALOG, type_line)


def card_face_missing(face: Face, parsed: ParsedFace) -> list[str]:
    """What keeps a face of a card from executing: the face itself, if the engine cannot bring it
    into a game (:func:`carddb.engine.query.faces.unreachable`), then its text (``parsed``)."""
    cannot = unreachable(face.layout, face.side)
    return [cannot] if cannot is not None else face_missing(parsed, face.type_line)


def new_game(players: dict[str, Player], active: str, step: Step = Step.MAIN1) -> Game:
    """A game (no objects yet) that executes with :data:`CATALOG`."""
    return Game(players, active, step, catalog=CATALOG)
