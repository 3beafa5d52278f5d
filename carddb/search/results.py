"""What a search returns (frozen values), and the error for a value the search language does not know."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from carddb.errors import CarddbError, _Rebuilt
from carddb.search.ast import Span
from carddb.search.errors import QuerySyntaxError

ORDERS = ("name", "mv", "set", "released", "rarity", "color", "power", "toughness", "artist", "cmc")
"""The orders a search can sort its cards in: Scryfall's names (``cmc`` is ``mv``; see
:mod:`carddb.search.options`)."""


class SearchValueError(QuerySyntaxError):
    """A well-formed query with a value the search cannot use: an unknown colour, rarity, ``is:``
    value, language or date, an invalid regular expression, an operator a keyword does not take.
    Names the value and where it is (``span``; ``position`` is its start)."""

    _fields = ("reason", "value", "span", "choices", "query")

    def __init__(
        self,
        reason: str,
        value: str,
        span: Span | None = None,
        choices: Sequence[str] = (),
        query: str = "",
    ) -> None:
        self.value = value
        self.span = span
        self.choices = tuple(choices)
        hint = f"choose one of: {', '.join(self.choices)}" if self.choices else ""
        start = span.start if span is not None else 0
        super().__init__(query, start, reason, hint)
        if span is None or not query:
            self.position = start
            where = f" at {start}" if span is not None else ""
            self.args = (reason + where + (f"; {hint}" if hint else ""),)

    def with_query(self, query: str) -> SearchValueError:
        """The same error, placed in the query text it came from: at the value itself when it can
        be found inside its term (``c:purple`` points at ``purple``)."""
        span = self.span
        if span is not None and self.value:
            found = query.rfind(self.value, span.start, span.end)
            if found > span.start:
                span = Span(found, found + len(self.value))
        return SearchValueError(self.reason, self.value, span, self.choices, query)


class SearchTimeoutError(QuerySyntaxError):
    """A search that ran past the statement time limit (PostgreSQL; see
    :data:`carddb.search.run.STATEMENT_SECONDS`)."""

    _fields = ("query", "seconds")

    def __init__(self, query: str, seconds: int) -> None:
        super().__init__(
            query[:200], 0, f"the search took longer than {seconds} s and was stopped", "simplify the query"
        )
        self.seconds = seconds


class SearchDatabaseError(_Rebuilt, CarddbError):
    """The database failed to run a search (locked, gone, out of resources): its own reason in
    one line, never the SQL statement."""

    _fields = ("query", "reason")

    def __init__(self, query: str, reason: str) -> None:
        self.query = query
        self.reason = reason
        super().__init__(f"the database could not run the search: {reason}")


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One card found, shown in the result's language where the data has it."""

    oracle_id: str
    name: str
    """The name in :attr:`language` (faces joined with ``//``), the English name where it has none."""
    english_name: str
    language: str
    """The language :attr:`name` and :attr:`type_line` are in (``en`` when no translation exists)."""
    layout: str
    mana_cost: str | None
    """Every face's cost joined with ``//`` (faces without a cost left out)."""
    mana_value: float | None
    type_line: str
    set_code: str | None = None
    """With ``unique:prints``: the printing's set, collector number, rarity and release date
    (ISO); None otherwise."""
    collector_number: str | None = None
    rarity: str | None = None
    released_at: str | None = None


@dataclass(frozen=True, slots=True)
class SearchResult:
    """One page of the cards a query finds (one entry per card, or with ``unique="prints"`` per
    printing) and how many in all."""

    query: str
    language: str
    total: int
    page: int
    limit: int
    order: str
    cards: tuple[SearchHit, ...]
    direction: str = "auto"
    unique: str = "cards"

    @property
    def names(self) -> list[str]:
        """The English names of the cards on this page, in order."""
        return [hit.english_name for hit in self.cards]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return asdict(self)
