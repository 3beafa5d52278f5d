"""Regular expressions of search queries, matched in linear time.

A user's pattern (``o:/…/``, ``name:/…/``) runs against every candidate text. Python's :mod:`re`
backtracks: ``^(\\w+\\s?)*$`` takes exponential time on a long line, and one such query hung a
search for minutes. carddb matches with RE2 (``google-re2``), whose time is linear in the text
whatever the pattern, so every pattern is bounded. The price: RE2 has no back-references
(``(a)\\1``) and no look-around (``(?=…)``, ``(?<!…)``); such a pattern is refused with a
clear error (:class:`UnsupportedPatternError`) when the query is parsed, whatever the database.

This module is the one place that compiles user patterns: the query parser checks them
(:func:`check_pattern`), and SQLite's ``REGEXP`` function (registered by :mod:`carddb.db.engine`)
is :func:`sqlite_regexp`. PostgreSQL runs patterns with its own engine under a statement time
limit (:mod:`carddb.search.run`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

__all__ = ["MAX_PATTERN", "UnsupportedPatternError", "check_pattern", "sqlite_regexp"]

MAX_PATTERN = 1000
"""The longest pattern accepted, in characters."""
_MAX_MEMORY = 8 << 20
"""What RE2 may use for one compiled pattern (bytes): a pattern needing more is refused."""


class UnsupportedPatternError(ValueError):
    """A pattern RE2 cannot run (a back-reference, look-around, or one too big): ``reason`` says
    what, ``position`` where in the pattern when known."""

    def __init__(self, reason: str, position: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.position = position


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # RE2 would print every refused pattern on stderr
    options.case_sensitive = False
    options.max_mem = _MAX_MEMORY
    return options


_OPTIONS = _options()

_REASONS = {
    "invalid escape sequence": "back-references (\\1) are not supported",
    "invalid perl operator": "look-ahead and look-behind ((?=…), (?<=…), (?!…)) are not supported",
    "pattern too large": "the pattern is too large",
    "bad repetition operator": "a repetition must follow something to repeat",
}


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> Any:
    if len(pattern) > MAX_PATTERN:
        raise UnsupportedPatternError(f"a regular expression may hold at most {MAX_PATTERN} characters")
    try:
        return re2.compile(pattern, _OPTIONS)
    except re2.error as exc:
        message = exc.args[0] if exc.args else ""
        text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
        reason = next((why for key, why in _REASONS.items() if text.startswith(key)), text)
        raise UnsupportedPatternError(reason) from None


def check_pattern(pattern: str) -> None:
    """Raise :class:`UnsupportedPatternError` if ``pattern`` cannot be matched in linear time."""
    _compiled(pattern)


def sqlite_regexp(pattern: str | None, text: str | None) -> bool | None:
    """SQLite's ``text REGEXP pattern``: case-insensitive, RE2 (linear time). ``(?i)`` in front of
    the pattern (what carddb's compiler writes) is accepted and changes nothing."""
    if pattern is None or text is None:
        return None
    if pattern.startswith("(?i)"):
        pattern = pattern[4:]
    return _compiled(pattern).search(text) is not None
