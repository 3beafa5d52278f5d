"""The web pages of ``carddb serve``: server-rendered HTML (Jinja2 templates in
``carddb/serve/templates``, shipped in the package), plain links and forms, no JavaScript.

* ``/``: a search box;
* ``/search?q=…[&lang=…][&page=…]``: the cards found, 50 a page, named in the reader's language;
* ``/card/SET/NUMBER[/LANG]``: a printing with its name, type line and text in every language
  carddb holds side by side, its printings, its rulings with their dates written the way the
  reader's language writes them (Babel), and links to the rules they mention;
* ``/rules/NUMBER``: a rule of the Comprehensive Rules, its subrules and examples.

**The reader's language** is the ``lang`` parameter (or the card page's ``LANG``) when given, else
the language of the query's ``lang:`` term, else the first of the browser's ``Accept-Language``
that the database holds (:func:`carddb.languages.negotiate`, on Babel's locale data), else English.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from carddb import languages
from carddb.database import Database
from carddb.db import lookup
from carddb.errors import UnknownLanguageError
from carddb.languages import Language
from carddb.rules.errors import RuleNotFoundError
from carddb.rules.lookup import RuleView
from carddb.rules.mentions import mentions
from carddb.scryfall_json import CardFacts, ErrorFacts, language_of_code, scryfall_code
from carddb.search.errors import QuerySyntaxError
from carddb.search.parse import parse_query
from carddb.search.results import SearchResult
from carddb.serve import facts
from carddb.serve.api import (
    MAX_QUERY,
    SEARCH_FAILURES,
    backend,
    int_param,
    query_failure,
    query_language,
    text_param,
)
from carddb.serve.errors import not_found
from carddb.views import CardView

__all__ = ["ROUTES", "error_page"]

PAGE_SIZE = 50
"""Cards per page of the search page (by default)."""

_SYMBOL = re.compile(r"\{[^{}]{1,8}\}")


def rule_links(text: str) -> Markup:
    """``text`` escaped, each rule it mentions (``see rule 702.35``, ``rules 601.2f–h``) a link to
    the first rule of the mention."""
    parts: list[str] = []
    position = 0
    for mention in mentions(text):
        parts.append(escape(text[position : mention.start]))
        target = mention.numbers[0].rstrip(".")
        parts.append(Markup('<a class="rule" href="/rules/{}">{}</a>').format(target, mention.text))
        position = mention.end
    parts.append(escape(text[position:]))
    return Markup("").join(parts)


def card_text(text: str | None) -> Markup:
    """Rules text as HTML: lines as lines, mana symbols marked."""
    if not text:
        return Markup("")
    lines = []
    for line in text.split("\n"):
        escaped = str(escape(line))
        lines.append(_SYMBOL.sub(lambda m: f'<abbr class="sym">{m.group(0)}</abbr>', escaped))
    return Markup("<br>".join(lines))


_ENVIRONMENT = Environment(
    loader=PackageLoader("carddb.serve", "templates"),
    autoescape=select_autoescape(("html",)),
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENVIRONMENT.filters["rule_links"] = rule_links
_ENVIRONMENT.filters["card_text"] = card_text
_ENVIRONMENT.filters["scryfall_code"] = scryfall_code
_ENVIRONMENT.filters["native_name"] = lambda tag: languages.by_tag(tag).native_name


def _render(
    name: str,
    status: int = 200,
    language: Language = languages.ENGLISH,
    headers: Mapping[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    html = _ENVIRONMENT.get_template(name).render(language=language, **context)
    all_headers = {"Content-Language": language.tag, "Vary": "Accept-Language", **(headers or {})}
    return HTMLResponse(html, status_code=status, headers=all_headers)


def error_page(request: Request, error: ErrorFacts, headers: Mapping[str, str] | None = None) -> Response:
    """An error answered as a page: its status, and what went wrong in words."""
    return _render(
        "error.html", error.status, headers=headers, error=error, query=request.query_params.get("q", "")
    )


# -- the reader's language --------------------------------------------------------------------------
def _available(request: Request, db: Database) -> list[str]:
    found: list[str] = backend(request).memo(db, "languages", lambda d: [c.tag for c in d.languages()])
    return found


def reader_language(request: Request, db: Database, asked: str | None, query_lang: str | None) -> Language:
    """The language to show a page in (see the module's docstring); 404 for an unknown ``asked``."""
    if asked:
        try:
            return languages.resolve(asked)
        except UnknownLanguageError:
            raise not_found(f"No language {asked!r}") from None
    if query_lang:
        return languages.by_tag(query_lang)
    header = request.headers.get("accept-language", "")[:500]
    negotiated = languages.negotiate([header], _available(request, db)) if header else None
    return negotiated or languages.ENGLISH


# -- pages ------------------------------------------------------------------------------------------
async def index(request: Request) -> Response:
    def run(db: Database) -> HTMLResponse:
        language = reader_language(request, db, text_param(request, "lang"), None)
        return _render("index.html", language=language, query="", choices=_choices(request, db))

    return await backend(request).run(run)


def _choices(request: Request, db: Database) -> list[Language]:
    return [languages.by_tag(tag) for tag in _available(request, db)]


@dataclass(frozen=True, slots=True)
class _Hit:
    name: str
    english_name: str
    type_line: str
    mana_cost: str | None
    href: str | None


async def search_page(request: Request) -> Response:
    q = text_param(request, "q", MAX_QUERY) or ""
    asked = text_param(request, "lang")
    page = int_param(request, "page", 1, 10**6)
    page_size: int = request.app.state.web_page_size
    if not q.strip():
        return await index(request)

    def run(db: Database) -> HTMLResponse:
        try:
            parsed = parse_query(q)
        except QuerySyntaxError as exc:
            language = reader_language(request, db, asked, None)
            return _render("search.html", 400, language, query=q, error=exc, choices=_choices(request, db))
        language = reader_language(request, db, asked, query_language(parsed))
        try:
            result = db.search(q, lang=language.tag, limit=page_size, page=page)
        except QuerySyntaxError as exc:
            return _render("search.html", 400, language, query=q, error=exc, choices=_choices(request, db))
        except SEARCH_FAILURES as exc:
            raise query_failure(q, exc) from None
        hits = _hits(db, result, language.tag)
        pages = max(1, -(-result.total // page_size))
        if page > pages:
            raise not_found(f"page {page:,} is past the end: {result.total:,} cards on {pages:,} pages")

        def page_href(number: int) -> str:
            params = {"q": q, "page": str(number), **({"lang": asked} if asked else {})}
            return "/search?" + urlencode(params)

        return _render(
            "search.html",
            language=language,
            query=q,
            result=result,
            hits=hits,
            page=page,
            pages=pages,
            previous=page_href(page - 1) if page > 1 else None,
            next=page_href(page + 1) if page < pages else None,
            choices=_choices(request, db),
            asked=asked or "",
        )

    return await backend(request).run(run)


def _card_href(card: CardFacts) -> str:
    path = f"/card/{card.printing.set_code.lower()}/{card.printing.collector_number}"
    return path + (f"/{scryfall_code(card.language)}" if card.language != "en" else "")


def _hits(db: Database, result: SearchResult, language: str) -> list[_Hit]:
    with db.session() as session:
        ids = facts.card_ids_by_oracle(session, [hit.oracle_id for hit in result.cards])
        chosen = facts.chosen_printings(session, list(ids.values()), language)
        shown = {f.oracle_id: f for f in facts.card_facts(session, list(chosen.values()))}
    return [
        _Hit(
            hit.name,
            hit.english_name,
            hit.type_line,
            hit.mana_cost,
            _card_href(shown[hit.oracle_id]) if hit.oracle_id in shown else None,
        )
        for hit in result.cards
    ]


@dataclass(frozen=True, slots=True)
class _Column:
    """One language of the card, for the side-by-side table."""

    language: Language
    card: CardFacts
    href: str


def _columns(session: Any, card_id: int, printing_id: int, first: str) -> list[_Column]:
    """The card in every language the database holds it in: this printing where it is printed in
    that language, else the newest printing that is; the reader's language first, then English."""
    printings = facts.printing_ids_of_card(session, card_id)
    by_printing = facts.printing_languages(session, printings)
    held = {language for langs in by_printing.values() for language in langs} | {"en"}
    keys = []
    for language in _ordered(held, first):
        if language in by_printing.get(printing_id, set()) or (language == "en" and not by_printing):
            keys.append(facts.PrintingKey(printing_id, language))
        else:
            chosen = facts.chosen_printings(session, [card_id], language).get(card_id)
            if chosen is not None and chosen.language == language:
                keys.append(chosen)
    return [
        _Column(languages.by_tag(card.language), card, _card_href(card))
        for card in facts.card_facts(session, keys)
    ]


def _ordered(tags: set[str], first: str) -> list[str]:
    order = [language.tag for language in languages.KNOWN]
    rest = sorted(tags - {first, "en"}, key=lambda t: (order.index(t) if t in order else len(order), t))
    return [tag for tag in (first, "en") if tag in tags] + rest


async def card_page(request: Request) -> Response:
    code = str(request.path_params["code"])
    number = str(request.path_params["number"])
    lang_code = request.path_params.get("lang")
    for value in (code, number, lang_code or ""):
        if len(value) > 64 or not value.isprintable():
            raise not_found("No such card page")
    asked = None
    if lang_code is not None:
        try:
            asked = language_of_code(lang_code)
        except UnknownLanguageError:
            raise not_found(
                f"No language {lang_code!r}: use a Scryfall language code (en, de, ja, zhs…)"
            ) from None

    def run(db: Database) -> HTMLResponse:
        language = reader_language(request, db, asked or text_param(request, "lang"), None)
        with db.session() as session:
            printing_id = facts.printing_by_number(session, code, number)
            card_id = facts.card_id_of_printing(session, printing_id) if printing_id is not None else None
            if printing_id is None or card_id is None:
                raise not_found(f"No card numbered {number!r} in set {code!r}")
            view: CardView = lookup.build_view(session, card_id, language.tag)
            columns = _columns(session, card_id, printing_id, language.tag)
        this = next((c for c in columns if c.card.printing.collector_number == number), columns[0])
        return _render(
            "card.html",
            language=language,
            view=view,
            columns=columns,
            printing=this.card.printing,
            choices=_choices(request, db),
            query="",
        )

    return await backend(request).run(run)


async def rule_page(request: Request) -> Response:
    number = str(request.path_params["number"])
    if len(number) > 32 or not number.isprintable():
        raise not_found("No such rule")

    def run(db: Database) -> HTMLResponse:
        language = reader_language(request, db, text_param(request, "lang"), None)
        try:
            rule: RuleView = db.rule(number)
        except RuleNotFoundError as exc:
            raise not_found(str(exc)) from None
        return _render("rule.html", language=language, rule=rule, query="", choices=_choices(request, db))

    return await backend(request).run(run)


ROUTES = [
    Route("/", index, methods=["GET", "HEAD"]),
    Route("/search", search_page, methods=["GET", "HEAD"]),
    Route("/card/{code}/{number}/{lang}", card_page, methods=["GET", "HEAD"]),
    Route("/card/{code}/{number}", card_page, methods=["GET", "HEAD"]),
    Route("/rules/{number}", rule_page, methods=["GET", "HEAD"]),
]
