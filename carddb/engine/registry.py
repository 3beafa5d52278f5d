"""The tables the parts of the engine fill in as they are imported: a handler per phrase verb
(:func:`handles`), conditions, qualifiers, the forms of a verb that are supported, trigger events,
predicates of static abilities and keywords.

Its own module because the parts that read them (:mod:`~carddb.engine.execution` runs handlers
and conditions, :mod:`~carddb.engine.nouns` checks qualifiers, :mod:`~carddb.engine.executable`
says what has no handler) must not import the parts that fill them in
(:mod:`~carddb.engine.handlers`, :mod:`~carddb.engine.triggers`, :mod:`~carddb.engine.continuous`,
:mod:`~carddb.engine.combat`, :mod:`~carddb.engine.protection`, :mod:`~carddb.engine.attachments`,
:mod:`~carddb.engine.cycling`): those import the readers, and would make a cycle."""

from __future__ import annotations

from collections.abc import Callable

from carddb.engine.context import Context, Ref
from carddb.oracle.model import Action, Keyword

Handler = Callable[[Context, list[Ref], Action], None]
Condition = Callable[[Context, Action], bool]
HANDLERS: dict[str, Handler] = {}
CONDITIONS: dict[str, Condition] = {}
QUALIFIERS: dict[str, Callable[[Context, Ref, Action], bool]] = {}
FORMS: dict[str, frozenset[int]] = {}
"""Verbs of which the engine executes only some written forms (by form index)."""
TRIGGERS: dict[str, frozenset[int] | None] = {}
"""Trigger events the engine watches for, with the forms it knows (None: all); filled in by
:mod:`carddb.engine.triggers`."""
STATIC_VERBS: set[str] = set()
"""Predicates of static abilities the engine applies (:mod:`carddb.engine.continuous`)."""
KNOWN_KEYWORDS = {"indestructible", "hexproof", "shroud", "flash"}
"""Keyword abilities whose rules the engine applies (destroying, targeting, casting timing)."""
GRANTED_KEYWORDS: list[Callable[[str], bool]] = []
"""Checks for keywords with a quality given in running text ("gains protection from red") that the
engine applies (carddb.engine.protection adds its own)."""
KEYWORD_CHECKS: dict[str, Callable[[Keyword], list[str]]] = {}
"""Keywords with a parameter the engine executes for some parameters only (Enchant, Equip: filled in
by :mod:`carddb.engine.attachments`), by the keyword's first word: what keeps one from executing."""


def handles(*verbs: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        for verb in verbs:
            HANDLERS[verb] = function
        return function

    return register
