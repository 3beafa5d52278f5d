"""Phrase forms by name (``grammars/oracle/phrases/*.toml``): the engine tells the written forms of
an entry apart by the names the tables give them ("tapped", "under_your_control"), never by their
position. A name the entry does not have is an error the first time it is asked
(:class:`~carddb.oracle.phrases.PhraseTableError`), so a renamed form cannot be missed silently."""

from __future__ import annotations

from functools import cache

from carddb.oracle import phrases
from carddb.oracle.model import Action


@cache
def _names(verb: str) -> frozenset[str]:
    return frozenset(phrases.form_names(verb))


def named(verb: str, *names: str) -> frozenset[str]:
    """``names``, each checked to be a form of ``verb``'s entry."""
    known = _names(verb)
    for name in names:
        if name not in known:
            phrases.form_index(verb, name)  # raises, naming the forms the entry has
    return frozenset(names)


def is_form(action: Action, *names: str) -> bool:
    """Whether ``action`` is written in one of the forms ``names`` of its entry."""
    return action.form_name in named(action.verb, *names)


def written(action: Action) -> str:
    """The template of the form ``action`` is written in ("attacks each combat if able"), for
    entries whose forms have no names: what the words say, never their position."""
    form = phrases.find(action.verb, action.form)
    return form.text if form is not None else ""
