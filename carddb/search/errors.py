"""Errors of the search language: every query that cannot be understood raises a
:class:`QuerySyntaxError` that names what went wrong and where (an offset into the query)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from carddb.errors import CarddbError, _Rebuilt


class QuerySyntaxError(_Rebuilt, CarddbError, ValueError):
    """A query that does not parse: ``str(error)`` is ``"unexpected ')' at 14"`` (and a hint
    after a semicolon where one helps); :attr:`caret` shows the query with a caret under the
    spot. ``position`` is an offset into ``query`` (``len(query)`` for its end)."""

    _fields: tuple[str, ...] = ("query", "position", "reason", "hint")

    def __init__(self, query: str, position: int, reason: str, hint: str = "") -> None:
        self.query = query
        self.position = max(0, min(position, len(query)))
        self.reason = reason
        self.hint = hint
        super().__init__(f"{reason} at {self.position}" + (f"; {hint}" if hint else ""))

    @property
    def caret(self) -> str:
        """Two lines: the query (control characters shown as spaces) and a ``^`` under the
        position, aligned for wide (CJK) and combining characters."""
        line = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in self.query)
        return f"{line}\n{' ' * _width(line[: self.position])}^"


class UnknownKeywordError(QuerySyntaxError):
    """``colr:red``: a keyword the language does not know, with the closest known ones."""

    _fields = ("query", "position", "keyword", "suggestions")

    def __init__(self, query: str, position: int, keyword: str, suggestions: Sequence[str] = ()) -> None:
        self.keyword = keyword
        self.suggestions = tuple(suggestions)
        hint = f"did you mean: {', '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(query, position, f"unknown keyword {keyword!r}", hint)


def _width(text: str) -> int:
    """Terminal columns of ``text``: two for East Asian wide and full-width characters, none for
    combining marks."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width
