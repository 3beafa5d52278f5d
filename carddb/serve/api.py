"""The Scryfall REST API's card and set endpoints (https://scryfall.com/docs/api), answered from
carddb with Scryfall's JSON objects.

Every handler reads its parameters through :func:`text_param` / :func:`int_param` (bounded length,
no control characters: a 400 otherwise), runs its database work in :meth:`Backend.run`, and ends
in a JSON object or an :class:`~carddb.serve.errors.ApiError`. Differences from Scryfall, each
refused loudly rather than ignored: ``order`` takes the orders carddb's search sorts by,
``unique`` takes ``cards`` and ``dir`` takes ``auto`` (the search gives one entry per card in its
own direction); carddb matches text in every language it holds whatever ``include_multilingual``
says (Scryfall matches printed text only with it or a ``lang:`` term), and a search's card objects
are printings in the language of the query's ``lang:`` term, else English ones.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlencode

from sqlalchemy.exc import DatabaseError, OperationalError
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from carddb import languages
from carddb.database import Database
from carddb.db import lookup
from carddb.errors import UnknownLanguageError
from carddb.scryfall_json import (
    card_object,
    catalog_object,
    language_of_code,
    list_object,
    ruling_object,
    set_id,
    set_object,
)
from carddb.search import ast
from carddb.search.errors import QuerySyntaxError
from carddb.search.parse import parse_query
from carddb.search.results import SearchResult
from carddb.serve import facts
from carddb.serve.backend import Backend
from carddb.serve.errors import ApiError, bad_request, not_found
from carddb.text import normalize

__all__ = [
    "MAX_QUERY",
    "ROUTES",
    "SEARCH_FAILURES",
    "int_param",
    "query_failure",
    "query_language",
    "safe_search",
    "text_param",
]

log = logging.getLogger("carddb.serve")

MAX_QUERY = 1000
"""The longest query a search takes, in characters (Scryfall's own limit)."""
MAX_PARAM = 200
"""The longest value of any other parameter (names, codes, numbers)."""
MAX_PAGE = 10**9
"""Pages beyond this are past the end of any card pool (and keep the offset in 64 bits)."""

ORDERS = {"name": "name", "cmc": "mv", "mv": "mv", "set": "set", "released": "released"}
"""Scryfall's ``order`` values carddb's search sorts by, and its own names for them."""

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_NO_CARD = "No card found with the given ID or set code and collector number."


# -- parameters -------------------------------------------------------------------------------------
def _clean(name: str, value: str, limit: int) -> str:
    if len(value) > limit:
        raise bad_request(f"the {name} parameter is {len(value):,} characters long; the limit is {limit:,}")
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") and ch not in "\t\n\r" for ch in value):
        raise bad_request(f"the {name} parameter holds a control or unassigned character")
    return value


def text_param(request: Request, name: str, limit: int = MAX_PARAM) -> str | None:
    """A query-string parameter, checked: at most ``limit`` characters, no control characters."""
    value = request.query_params.get(name)
    return None if value is None else _clean(name, value, limit)


def path_param(request: Request, name: str) -> str:
    return _clean(name, str(request.path_params[name]), MAX_PARAM)


def int_param(request: Request, name: str, default: int, maximum: int) -> int:
    value = text_param(request, name)
    if value is None or value == "":
        return default
    if not value.isascii() or not value.isdigit():
        raise bad_request(f"the {name} parameter must be a whole number, not {value!r}")
    number = int(value)
    if number < 1:
        raise bad_request(f"the {name} parameter must be at least 1")
    return min(number, maximum)


def bool_param(request: Request, name: str) -> bool:
    value = text_param(request, name)
    if value is None or value.lower() in ("", "false", "0", "no"):
        return False
    if value.lower() in ("true", "1", "yes"):
        return True
    raise bad_request(f"the {name} parameter must be true or false, not {value!r}")


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


class _Pretty(JSONResponse):
    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, indent=2).encode("utf-8")


def _json(request: Request, obj: dict[str, Any]) -> JSONResponse:
    """``obj`` as the answer: JSON, the only ``format`` carddb gives (Scryfall's ``csv``, ``text``
    and ``image`` are refused), indented with ``pretty=true``."""
    if bool_param(request, "pretty"):
        return _Pretty(obj)
    return JSONResponse(obj)


def check_format(request: Request) -> None:
    """400 for a ``format`` other than JSON (Scryfall's ``csv``, ``text`` and ``image`` are not made here)."""
    value = (text_param(request, "format") or "json").lower()
    if value != "json":
        raise bad_request(f"format={value} is not supported: carddb answers in JSON only")


def backend(request: Request) -> Backend:
    found: Backend = request.app.state.backend
    return found


# -- search -----------------------------------------------------------------------------------------
def query_language(query: ast.Query) -> str | None:
    """The language a query's ``lang:`` term asks for, when one applies to every card it finds (a
    term of the query, or of its top-level AND): its printings are shown in that language."""
    items = query.items if isinstance(query, ast.And) else (query,)
    for item in items:
        if (
            isinstance(item, ast.Term)
            and item.keyword == "lang"
            and item.operator in (":", "=")
            and isinstance(item.value, ast.Text)
        ):
            try:
                return languages.resolve(item.value.text).tag
            except UnknownLanguageError:
                return None  # the search says why
    return None


def _syntax_error(exc: QuerySyntaxError) -> ApiError:
    return bad_request(f"{exc}\n{exc.caret}")


async def search(request: Request) -> Response:
    q = text_param(request, "q", MAX_QUERY)
    if q is None or not q.strip():
        raise bad_request("a search needs a query: the q parameter")
    page = int_param(request, "page", 1, MAX_PAGE + 1)
    order_value = (text_param(request, "order") or "name").lower()
    direction = (text_param(request, "dir") or "auto").lower()
    unique = (text_param(request, "unique") or "cards").lower()
    bool_param(request, "include_multilingual")  # checked; see the module's docstring
    bool_param(request, "include_extras")
    bool_param(request, "include_variations")
    if order_value not in ORDERS:
        raise bad_request(
            f"order {order_value!r} is not one carddb sorts by; choose one of: {', '.join(ORDERS)}"
        )
    if direction not in ("auto", "asc", "desc"):
        raise bad_request(f"dir must be auto, asc or desc, not {direction!r}")
    if direction != "auto":
        raise bad_request(
            f"dir={direction} is not supported: carddb's search sorts in its own direction (auto)"
        )
    if unique != "cards":
        choices = "cards" if unique in ("prints", "art") else "cards (prints and art are not supported)"
        raise bad_request(f"unique={unique} is not supported; choose {choices}")
    try:
        parsed = parse_query(q)
    except QuerySyntaxError as exc:
        raise _syntax_error(exc) from None
    language = query_language(parsed) or "en"
    order = ORDERS[order_value]
    page_size: int = request.app.state.page_size

    def run(db: Database) -> dict[str, Any]:
        if page > MAX_PAGE:
            total = db.search(q, limit=1, order=order).total
            raise _past_the_end(page, total, page_size)
        result = safe_search(db, q, lang=language, limit=page_size, page=page, order=order)
        if result.total == 0:
            raise not_found("Your query didn’t match any cards. Adjust your search terms.")
        if not result.cards:
            raise _past_the_end(page, result.total, page_size)
        with db.session() as session:
            ids = facts.card_ids_by_oracle(session, [hit.oracle_id for hit in result.cards])
            card_ids = [ids[hit.oracle_id] for hit in result.cards if hit.oracle_id in ids]
            chosen = facts.chosen_printings(session, card_ids, language)
            keys = [chosen[card_id] for card_id in card_ids if card_id in chosen]
            objects = [card_object(f, _base(request)) for f in facts.card_facts(session, keys)]
        has_more = page * page_size < result.total
        next_page = None
        if has_more:
            params = {k: v for k, v in request.query_params.items() if k != "page"}
            next_page = f"{_base(request)}/cards/search?{urlencode({**params, 'page': page + 1})}"
        return list_object(objects, total_cards=result.total, next_page=next_page)

    return _json(request, await backend(request).run(run))


_QUERY_FAULTS = ("too large", "too many", "stack depth", "too complex", "too deep")


def safe_search(
    db: Database, q: str, *, lang: str, limit: int, page: int, order: str = "name"
) -> SearchResult:
    """``db.search``, every failure a 400 error: a malformed query with its caret, and a query the
    search failed on without saying why in its own terms (a value, a size the database refuses),
    which is the query's fault all the same; a busy or unavailable database is left to the backend
    (503)."""
    try:
        return db.search(q, lang=lang, limit=limit, page=page, order=order)
    except QuerySyntaxError as exc:
        raise _syntax_error(exc) from None
    except SEARCH_FAILURES as exc:
        raise query_failure(q, exc) from None


SEARCH_FAILURES = (ValueError, ArithmeticError, RecursionError, DatabaseError)
"""What a search may fail with on a query, besides its own :class:`QuerySyntaxError`."""


def query_failure(q: str, exc: Exception) -> ApiError:
    """The 400 for a search that failed on ``q`` with one of :data:`SEARCH_FAILURES`; ``exc`` is
    raised again when it is a database's own trouble (busy, gone: the backend answers 503)."""
    if isinstance(exc, OperationalError) and not _query_fault(exc):
        raise exc
    log.warning("search %r failed: %s: %s", q, type(exc).__name__, exc)
    return bad_request(f"carddb cannot run this query: {_reason(exc)}")


def _query_fault(exc: OperationalError) -> bool:
    """Whether the database refused the statement for its size or shape (not for being busy)."""
    reason = _reason(exc).lower()
    return any(words in reason for words in _QUERY_FAULTS)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, DatabaseError) and exc.orig is not None:
        exc = exc.orig
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:300]


def _past_the_end(page: int, total: int, page_size: int) -> ApiError:
    pages = max(1, -(-total // page_size))
    return not_found(f"page {page:,} is past the end: the query found {total:,} cards, on {pages:,} pages")


# -- one card ---------------------------------------------------------------------------------------
def _one_card(request: Request, db: Database, key: facts.PrintingKey | None) -> dict[str, Any]:
    if key is None:
        raise not_found(_NO_CARD)
    with db.session() as session:
        found = facts.card_facts(session, [key])
    if not found:
        raise not_found(_NO_CARD)
    return card_object(found[0], _base(request))


def _card_id_of_name(request: Request, db: Database, name: str, *, fuzzy: bool) -> int:
    """The card a name stands for, in any language: the one with exactly that name (folded); for a
    fuzzy lookup, else the one card whose names start with it (or hold it), else the one card
    closer to it than any other by edit distance (spaces and punctuation ignored). 404 otherwise
    (``type: ambiguous`` when several fit). A stand-in until the database's own fuzzy lookup."""
    normalized = normalize(name)
    with db.session() as session:
        found = lookup.find_card_ids(session, normalized)
        if found:
            return _one_card_of(session, name, found)
    if not fuzzy:
        raise not_found(f"No cards found matching “{name}”")
    index: facts.NameIndex = backend(request).memo(db, "names", _name_index)
    key = facts.NameIndex.key(normalized)
    starting = index.starting_with(key) if len(key) >= 3 else set()
    if len(starting) == 1:
        return starting.pop()
    containing = index.containing(key) if len(key) >= 4 and not starting else starting
    if len(containing) == 1:
        return containing.pop()
    closest = index.closest(key)
    if len(closest) == 1 or (len(closest) > 1 and closest[0][2] < closest[1][2]):
        return closest[0][0]
    if closest:
        raise _ambiguous(name, [found_name for _, found_name, _ in closest[:5]])
    if containing:
        with db.session() as session:
            raise _ambiguous(name, facts.card_names(session, sorted(containing))[:5])
    raise not_found(f"No cards found matching “{name}”")


def _name_index(db: Database) -> facts.NameIndex:
    with db.session() as session:
        return facts.name_index(session)


def _one_card_of(session: Session, name: str, found: dict[int, set[str]]) -> int:
    if len(found) == 1:
        return next(iter(found))
    english = [card_id for card_id, langs in found.items() if "en" in langs]
    if len(english) == 1:
        return english[0]
    raise _ambiguous(name, facts.card_names(session, sorted(found)))


def _ambiguous(name: str, candidates: list[str]) -> ApiError:
    return not_found(
        f"Too many cards match ambiguous name “{name}”: {'; '.join(candidates)}. Add more words.",
        type="ambiguous",
    )


async def named(request: Request) -> Response:
    exact = text_param(request, "exact")
    fuzzy = text_param(request, "fuzzy")
    set_code = text_param(request, "set")
    if (exact is None) == (fuzzy is None):
        raise bad_request("give one of the exact and fuzzy parameters")
    name = exact if exact is not None else fuzzy
    assert name is not None
    if not normalize(name):
        raise bad_request("the name to look up is empty")

    def run(db: Database) -> dict[str, Any]:
        card_id = _card_id_of_name(request, db, name, fuzzy=fuzzy is not None)
        with db.session() as session:
            chosen = facts.chosen_printings(session, [card_id], "en", set_code or None)
        if card_id not in chosen:
            raise not_found(f"No printing of that card in set {set_code!r}")
        return _one_card(request, db, chosen[card_id])

    return _json(request, await backend(request).run(run))


async def autocomplete(request: Request) -> Response:
    q = text_param(request, "q") or ""
    normalized = normalize(q)
    if len(normalized) < 2:
        return _json(request, catalog_object([]))

    def run(db: Database) -> dict[str, Any]:
        with db.session() as session:
            return catalog_object(facts.autocomplete(session, normalized))

    return _json(request, await backend(request).run(run))


def _language(code: str) -> str:
    try:
        return language_of_code(code)
    except UnknownLanguageError:
        raise not_found(f"No language {code!r}: use a Scryfall language code (en, de, ja, zhs…)") from None


async def by_code_number(request: Request) -> Response:
    lang = request.path_params.get("lang")
    return await _by_code_number(
        request,
        path_param(request, "code"),
        path_param(request, "number"),
        path_param(request, "lang") if lang is not None else None,
    )


async def _by_code_number(request: Request, code: str, number: str, lang: str | None) -> Response:
    if lang == "rulings":
        return await _rulings_by_code_number(request, code, number)
    language = _language(lang) if lang is not None else "en"

    def run(db: Database) -> dict[str, Any]:
        with db.session() as session:
            printing_id = facts.printing_by_number(session, code, number)
            if printing_id is None:
                raise not_found(_NO_CARD)
            printed_in = facts.printing_languages(session, [printing_id]).get(printing_id, set())
            if language != "en" and language not in printed_in:
                raise not_found(f"No printing of {code.lower()} {number} in the language {lang!r}")
        return _one_card(request, db, facts.PrintingKey(printing_id, language))

    return _json(request, await backend(request).run(run))


def _key_of_id(request: Request, db: Database, identifier: str) -> facts.PrintingKey | None:
    """The printing a Scryfall id (or carddb's derived id) stands for."""
    folded = identifier.strip().lower()
    if not _UUID.fullmatch(folded):
        return None
    with db.session() as session:
        printing_id = facts.printing_by_scryfall_id(session, folded)
        if printing_id is not None:
            return facts.PrintingKey(printing_id, "en")
    derived: dict[str, facts.PrintingKey] = backend(request).memo(db, "derived_ids", _derived_ids)
    return derived.get(folded)


def _derived_ids(db: Database) -> dict[str, facts.PrintingKey]:
    with db.session() as session:
        return facts.derived_ids(session)


async def by_id(request: Request) -> Response:
    identifier = path_param(request, "id")

    def run(db: Database) -> dict[str, Any]:
        return _one_card(request, db, _key_of_id(request, db, identifier))

    return _json(request, await backend(request).run(run))


async def by_multiverse_id(request: Request) -> Response:
    value = path_param(request, "id")

    def run(db: Database) -> dict[str, Any]:
        if not value.isascii() or not value.isdigit() or int(value) >= 2**31:
            raise not_found(_NO_CARD)
        with db.session() as session:
            key = facts.printing_by_multiverse_id(session, int(value))
        return _one_card(request, db, key)

    return _json(request, await backend(request).run(run))


def _rulings_list(db: Database, key: facts.PrintingKey | None) -> dict[str, Any]:
    if key is None:
        raise not_found(_NO_CARD)
    with db.session() as session:
        card_id = facts.card_id_of_printing(session, key.printing_id)
        if card_id is None:
            raise not_found(_NO_CARD)
        found = facts.rulings(session, card_id, "en")
    return list_object([ruling_object(r) for r in found])


async def rulings_by_id(request: Request) -> Response:
    identifier = path_param(request, "id")
    if not _UUID.fullmatch(identifier.lower()):  # /cards/:code/rulings: a collector number "rulings"
        return await _by_code_number(request, identifier, "rulings", None)

    def run(db: Database) -> dict[str, Any]:
        return _rulings_list(db, _key_of_id(request, db, identifier))

    return _json(request, await backend(request).run(run))


async def rulings_by_multiverse_id(request: Request) -> Response:
    value = path_param(request, "id")

    def run(db: Database) -> dict[str, Any]:
        if not value.isascii() or not value.isdigit() or int(value) >= 2**31:
            raise not_found(_NO_CARD)
        with db.session() as session:
            key = facts.printing_by_multiverse_id(session, int(value))
        return _rulings_list(db, key)

    return _json(request, await backend(request).run(run))


async def _rulings_by_code_number(request: Request, code: str, number: str) -> Response:
    def run(db: Database) -> dict[str, Any]:
        with db.session() as session:
            printing_id = facts.printing_by_number(session, code, number)
        return _rulings_list(db, facts.PrintingKey(printing_id, "en") if printing_id is not None else None)

    return _json(request, await backend(request).run(run))


# -- sets -------------------------------------------------------------------------------------------
async def sets(request: Request) -> Response:
    def run(db: Database) -> dict[str, Any]:
        with db.session() as session:
            found = facts.set_facts(session)
        return list_object([set_object(s, _base(request)) for s in found])

    return _json(request, await backend(request).run(run))


async def one_set(request: Request) -> Response:
    code = path_param(request, "code")

    def run(db: Database) -> dict[str, Any]:
        with db.session() as session:
            found = facts.set_facts(session, code)
            if not found and _UUID.fullmatch(code.lower()):
                found = [s for s in facts.set_facts(session) if set_id(s.code) == code.lower()]
        if not found:
            raise not_found(f"No set found with the code {code!r}")
        return set_object(found[0], _base(request))

    return _json(request, await backend(request).run(run))


def _checked(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """``handler``, after the parameters every endpoint takes are checked."""

    async def checked(request: Request) -> Response:
        check_format(request)
        return await handler(request)

    return checked


ROUTES = [
    Route("/cards/search", _checked(search), methods=["GET", "HEAD"]),
    Route("/cards/named", _checked(named), methods=["GET", "HEAD"]),
    Route("/cards/autocomplete", _checked(autocomplete), methods=["GET", "HEAD"]),
    Route("/cards/multiverse/{id}/rulings", _checked(rulings_by_multiverse_id), methods=["GET", "HEAD"]),
    Route("/cards/multiverse/{id}", _checked(by_multiverse_id), methods=["GET", "HEAD"]),
    Route("/cards/{id}/rulings", _checked(rulings_by_id), methods=["GET", "HEAD"]),
    Route("/cards/{code}/{number}/{lang}", _checked(by_code_number), methods=["GET", "HEAD"]),
    Route("/cards/{code}/{number}", _checked(by_code_number), methods=["GET", "HEAD"]),
    Route("/cards/{id}", _checked(by_id), methods=["GET", "HEAD"]),
    Route("/sets", _checked(sets), methods=["GET", "HEAD"]),
    Route("/sets/{code}", _checked(one_set), methods=["GET", "HEAD"]),
]
