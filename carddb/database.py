"""The Python API: :func:`carddb.open` returns a :class:`Database`.

A Database owns one engine and a session factory. Every method opens its own short session, so
one Database may be shared by several threads (SQLite runs in WAL mode: readers are not blocked by
an import in progress).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from carddb.db import schema
from carddb.db.engine import default_url, make_engine, make_sessionmaker, parse_url, writer
from carddb.db.models import Card, Localization, Printing, Ruling
from carddb.db.printings import first_printed
from carddb.errors import CardNotFoundError, DatabaseUnavailableError, ReadOnlyDatabaseError

if TYPE_CHECKING:
    from carddb.ingest.base import ImportSummary, Progress
    from carddb.notes import KeywordView
    from carddb.rules.lookup import RuleView
    from carddb.search.ast import Query
    from carddb.search.results import SearchResult
    from carddb.views import CardView, LanguageCount


class Database:
    """An open carddb database."""

    def __init__(self, engine: Engine, url: str, *, read_only: bool = False) -> None:
        self.engine = engine
        self.url = url
        self.read_only = read_only
        self._sessions = make_sessionmaker(engine)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A short-lived session for custom queries over the models in :mod:`carddb.db.models`."""
        with self._sessions() as session:
            yield session

    def import_path(
        self,
        *paths: str | PathLike[str],
        progress: Progress | None = None,
        parallel: bool | None = None,
        card: str | None = None,
        force: bool = False,
    ) -> ImportSummary:
        """Import files or folders of them, each file in one transaction, its kind read from its
        content: MTGJSON (set files, AllPrintings), Scryfall (bulk cards or rulings, API list pages),
        the Comprehensive Rules, card pages and rulings pages.

        ``progress`` is told how the import goes (see :class:`~carddb.ingest.base.Progress`).
        ``parallel`` reads MTGJSON in a second process (default: for big inputs only). ``card``
        names the card a card page is about, for a page that does not name it. ``force`` writes
        sets again even when the database holds them from the very same source text.
        """
        if self.read_only:
            raise ReadOnlyDatabaseError(safe_url(self.url))
        from carddb.ingest.importer import import_paths  # deferred: commands that only read skip it

        # writer(): each file's transaction takes SQLite's write lock as it begins, so a second
        # writer waits for this one instead of failing on a stale snapshot
        paths_ = [Path(p) for p in paths]
        return import_paths(writer(self.engine), self.url, paths_, progress, parallel, card, force)

    def card(self, name: str, lang: str | None = None, *, fuzzy: bool = False) -> CardView:
        """Find a card by its name in any language and show it in ``lang``.

        ``fuzzy``: when no name is exactly ``name`` (folded for case, width and accents), resolve
        it as Scryfall's ``/cards/named?fuzzy=`` does: punctuation and spaces ignored, a prefix
        (``goldspan``) or a small typo (``Goldspan Dragn``) of one card's name, in any language.

        Raises :class:`~carddb.errors.CardNotFoundError` (with the closest names) when no card has
        that name, :class:`~carddb.errors.AmbiguousCardError` (with the candidates) when several
        match equally well, and :class:`~carddb.errors.UnknownLanguageError` for an unknown ``lang``.
        """
        from carddb.db import lookup  # deferred, as for the other queries: a search needs none of it

        with self.session() as session:
            try:
                return lookup.card_by_name(session, name, lang)
            except CardNotFoundError:
                # deferred: only a name no card has needs the fuzzy matcher (and RapidFuzz)
                from carddb.db import fuzzy as fuzzy_names

                return fuzzy_names.card_by_fuzzy_name(session, name, lang, resolve=fuzzy)

    def named(self, name: str, lang: str | None = None, *, fuzzy: bool = True) -> CardView:
        """Scryfall's ``/cards/named``: :meth:`card` with ``fuzzy`` on by default."""
        return self.card(name, lang, fuzzy=fuzzy)

    def search(
        self,
        query: str | Query,
        lang: str | None = None,
        limit: int = 50,
        page: int = 1,
        order: str | None = None,
        direction: str | None = None,
        unique: str | None = None,
    ) -> SearchResult:
        """Cards matching a Scryfall-style ``query`` (text or a parsed :mod:`carddb.search.ast`
        query): one page of ``limit`` cards (one entry per card, not per printing), sorted by
        ``order`` (Scryfall's names: ``name`` by default, ``mv``/``cmc``, ``set``, ``released``,
        ``rarity``, ``color``, ``power``, ``toughness``, ``artist``) in ``direction`` (``auto``,
        ``asc``, ``desc``), shown in ``lang`` where translated, with the total count. The query's
        own ``order:``, ``direction:`` and ``unique:`` terms win over these arguments.

        Raises :class:`~carddb.search.errors.QuerySyntaxError` for a query that does not parse or
        holds a value the search does not know, :class:`~carddb.errors.UnknownLanguageError` for
        an unknown ``lang``.
        """
        from carddb.search.parse import parse_query
        from carddb.search.run import search

        text = query if isinstance(query, str) else ""
        parsed = parse_query(query) if isinstance(query, str) else query
        with self.session() as session:
            return search(
                session,
                parsed,
                text,
                lang=lang,
                limit=limit,
                page=page,
                order=order,
                direction=direction,
                unique=unique,
            )

    def rule(self, query: str) -> RuleView:
        """A rule of the Comprehensive Rules by number (``702.35``, ``702.35a``) or by a glossary
        term (``madness``), with its subrules, examples and the rules it mentions.

        Raises :class:`~carddb.rules.lookup.RuleNotFoundError` (with suggestions) when nothing
        matches, or when no rules are imported.
        """
        from carddb.rules.lookup import rule_view

        with self.session() as session:
            return rule_view(session, query)

    def rules(self, query: str) -> tuple[RuleView, ...]:
        """Like :meth:`rule`, for a query that may name several rules: a list or a range written
        the way rules and rulings write them (``601.2f–h``, ``603.6 and 603.10``)."""
        from carddb.rules.lookup import rule_views

        with self.session() as session:
            return rule_views(session, query)

    def keyword(self, name: str) -> KeywordView:
        """What the imported rulings and keyword pages say about a keyword or game topic
        (``madness``, ``dice``), paragraph by paragraph, with their sources."""
        from carddb.notes import keyword_view

        with self.session() as session:
            return keyword_view(session, name)

    def languages(self) -> list[LanguageCount]:
        """The languages present, with their counts."""
        from carddb.db import lookup  # deferred: see card()

        with self.session() as session:
            return lookup.language_counts(session)

    def first_printed(self, *set_names: str) -> dict[str, frozenset[str]]:
        """Set name → the card names first printed in it (the earliest-released set among a
        card's printings), for a game's ``first_printed`` ("a name originally printed in the
        Antiquities expansion"); a set the database lacks is left out (the engine refuses it)."""
        with self.session() as session:
            return first_printed(session, set_names)

    def counts(self) -> dict[str, int]:
        """Row counts of the main tables."""
        with self.session() as session:
            return {
                name: int(session.scalar(select(func.count()).select_from(model)) or 0)
                for name, model in (
                    ("cards", Card),
                    ("printings", Printing),
                    ("localizations", Localization),
                    ("rulings", Ruling),
                )
            }

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def safe_url(url: str) -> str:
    """The URL with any password hidden, for messages."""
    try:
        return parse_url(url).render_as_string(hide_password=True)
    except DatabaseUnavailableError:
        return url


def open_database(url: str | None = None, *, upgrade: bool = True, read_only: bool = False) -> Database:
    """Open the database at ``url``; ``None`` means ``$CARDDB_URL`` or the embedded SQLite file in
    the user's data directory.

    By default the database is created if needed and its schema upgraded to the newest revision
    (``upgrade=False``: left as it is, for the schema commands). With ``read_only``, nothing is
    written: an SQLite file is opened read-only and must exist (else
    :class:`~carddb.errors.DatabaseMissingError`), and its schema must already be the newest (else
    :class:`~carddb.errors.SchemaRevisionError`; ``upgrade=False`` skips that check).
    """
    url = url or default_url()
    engine = make_engine(url, read_only=read_only)
    try:
        with engine.connect() as connection:
            stored = schema.stored_revision(connection)  # the first query: checks the connection too
        if upgrade and read_only:
            schema.require_head(safe_url(url), stored)
        elif upgrade and schema.needs_upgrade(safe_url(url), stored):
            from carddb.db import migrate  # deferred: Alembic is loaded only when there is a migration to run

            migrate.ensure_head(engine)
    except DBAPIError as exc:
        engine.dispose()
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig is not None else str(exc)
        raise DatabaseUnavailableError(safe_url(url), reason) from None
    except BaseException:
        engine.dispose()
        raise
    return Database(engine, url, read_only=read_only)
