"""Errors of the Comprehensive Rules: a rules file that cannot be imported (naming the file and
the line), and a rule or term that is not in the stored edition (with suggestions).

They live beside the rules code rather than in :mod:`carddb.errors`, as the search language's do,
but derive from its classes, so the CLI prints them as one message and an exit code.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from carddb.errors import CarddbError, SourceError, _Rebuilt

__all__ = [
    "NoRulesImportedError",
    "NotRulesError",
    "RuleNotFoundError",
    "RulesFormatError",
    "TruncatedRulesError",
]


class RulesFormatError(SourceError):
    """A rules file with a line the parser cannot place (a malformed rule number, a rule out of
    order, a missing or unreadable edition date). ``position`` is ``"line N"``."""

    def __init__(self, path: Path | str, message: str, position: str | None = None) -> None:
        super().__init__(path, message, position)


class TruncatedRulesError(RulesFormatError):
    """A rules file cut short: it ends before its Glossary or its Credits (the published file
    always ends with both), or its compressed data stops early."""


class NotRulesError(RulesFormatError):
    """A file handed to the rules importer that is not the Comprehensive Rules at all."""


class RuleNotFoundError(_Rebuilt, CarddbError, LookupError):
    """No rule has this number and no glossary term or rule title this name; carries the closest
    numbers or terms."""

    _fields: tuple[str, ...] = ("query", "suggestions")

    def __init__(self, query: str, suggestions: Sequence[str] = ()) -> None:
        self.query = query
        self.suggestions = tuple(suggestions)
        super().__init__(self._message())

    def _message(self) -> str:
        message = f"no rule or glossary term {self.query!r} in the stored Comprehensive Rules"
        if self.suggestions:
            message += "; did you mean: " + "; ".join(self.suggestions)
        return message


class NoRulesImportedError(RuleNotFoundError):
    """The database holds no edition of the Comprehensive Rules yet."""

    _fields = ("query",)

    def __init__(self, query: str) -> None:
        super().__init__(query)

    def _message(self) -> str:
        return (
            "no Comprehensive Rules in this database; import the Comprehensive Rules first: "
            "carddb import MagicCompRules-YYYYMMDD.txt (published at https://magic.wizards.com/rules)"
        )
