"""Typed errors: every failure a user can cause names what went wrong and where.

All carddb errors derive from :class:`CarddbError`; the CLI prints ``str(error)`` (one line, or a
few for suggestions) and exits non-zero, so no traceback reaches a user.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class CarddbError(Exception):
    """Base class of every error carddb raises on purpose."""

    exit_code = 1


class _Rebuilt:
    """Errors are pickled (the importer parses in a child process): rebuild from the fields."""

    _fields: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return (type(self), tuple(getattr(self, name) for name in self._fields))


class UnknownLanguageError(_Rebuilt, CarddbError, ValueError):
    """A language that the language model cannot resolve."""

    _fields = ("value", "choices")

    def __init__(self, value: str, choices: Sequence[str]) -> None:
        self.value = value
        self.choices = tuple(choices)
        super().__init__(f"unknown language {value!r}; choose one of: {', '.join(self.choices)}")


class SourceError(_Rebuilt, CarddbError):
    """A source file that cannot be imported: names the file and, where known, the position."""

    _fields = ("path", "reason", "position")

    def __init__(self, path: Path | str, message: str, position: str | None = None) -> None:
        self.path = Path(path)
        self.position = position
        self.reason = message
        where = f"{self.path}" + (f" at {position}" if position else "")
        super().__init__(f"{where}: {message}")


class MalformedJSONError(SourceError):
    """Truncated or syntactically broken JSON."""


class NotMTGJSONError(SourceError):
    """Well-formed JSON that is not an MTGJSON set or AllPrintings file."""


class CardNotFoundError(_Rebuilt, CarddbError, LookupError):
    """No card has this name in any language; carries the closest names."""

    _fields = ("name", "suggestions")

    def __init__(self, name: str, suggestions: Sequence[str] = ()) -> None:
        self.name = name
        self.suggestions = tuple(suggestions)
        message = f"no card named {name!r}"
        if self.suggestions:
            message += "; did you mean: " + "; ".join(self.suggestions)
        super().__init__(message)


class AmbiguousCardError(_Rebuilt, CarddbError, LookupError):
    """A name that belongs to several different cards."""

    _fields = ("name", "candidates")

    def __init__(self, name: str, candidates: Sequence[str]) -> None:
        self.name = name
        self.candidates = tuple(candidates)
        super().__init__(f"{name!r} names several cards: {'; '.join(self.candidates)}")


class DatabaseUnavailableError(_Rebuilt, CarddbError):
    """The database URL cannot be reached or opened."""

    _fields: tuple[str, ...] = ("url", "reason")

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"cannot open database {url}: {reason}")


class DatabaseMissingError(DatabaseUnavailableError):
    """A command that only reads was given an SQLite file that does not exist: nothing is created
    (a mistyped path must not become an empty database)."""

    _fields = ("url", "path")

    def __init__(self, url: str, path: Path | str) -> None:
        self.path = Path(path)
        super().__init__(url, f"no database at {self.path} (run carddb import first)")


class SchemaRevisionError(DatabaseUnavailableError):
    """A database whose schema this carddb cannot use as it is: none yet, or an older revision,
    when it is opened read-only (which never migrates); or a revision this carddb does not know
    (written by a newer carddb), however it is opened."""

    _fields = ("url", "stored", "head", "known")

    def __init__(self, url: str, stored: str | None, head: str, known: bool) -> None:
        self.stored = stored
        self.head = head
        self.known = known
        if stored is None:
            reason = "it holds no carddb schema yet (run carddb import first)"
        elif known:
            reason = (
                f"its schema is at revision {stored}, this carddb reads {head} "
                "(run carddb db upgrade; a read-only opening does not upgrade it)"
            )
        else:
            reason = f"its schema revision {stored} is unknown to this carddb (written by a newer carddb?)"
        super().__init__(url, reason)


class ReadOnlyDatabaseError(_Rebuilt, CarddbError):
    """A write asked of a database opened read-only."""

    _fields = ("url",)

    def __init__(self, url: str) -> None:
        self.url = url
        super().__init__(f"database {url} was opened read-only: nothing can be written to it")


class MigrationError(CarddbError):
    """A schema migration request that cannot be carried out."""
