"""The ASGI application of ``carddb serve`` (Starlette): the Scryfall API (:mod:`carddb.serve.api`)
and the web pages (:mod:`carddb.serve.web`) over one read-only :class:`~carddb.serve.backend.Backend`.

Every failure is answered, never raised to the server: an :class:`~carddb.serve.errors.ApiError`
as a Scryfall error object (or, on a web page, an HTML page saying the same), an unknown path or
method likewise (404, 405), and anything unexpected as a 500 error object without a traceback
(the traceback goes to the server's log). Only ``GET`` and ``HEAD`` exist: nothing writes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from carddb.scryfall_json import PAGE_SIZE, ErrorFacts, error_object
from carddb.serve import api, web
from carddb.serve.backend import Backend
from carddb.serve.errors import ApiError

__all__ = ["ENVIRONMENT_FACTORY", "app_from_environment", "create_app", "environment_for"]

log = logging.getLogger("carddb.serve")

_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 400: "bad_request"}


def _wants_html(request: Request) -> bool:
    path = request.url.path
    return path == "/" or path.startswith(("/search", "/card/", "/rules", "/static"))


def _error_response(request: Request, facts: ErrorFacts, retry_after: int | None = None) -> Response:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    if _wants_html(request):
        return web.error_page(request, facts, headers)
    return JSONResponse(error_object(facts), status_code=facts.status, headers=headers)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _error_response(request, exc.facts, exc.retry_after)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, "error")
    details = "No such endpoint." if exc.status_code == 404 else str(exc.detail)
    return _error_response(request, ErrorFacts(exc.status_code, code, details))


class _NoTraceback:
    """The outermost layer: an exception no handler answered becomes a 500 error object (when no
    response has started), logged with its traceback on the server side only."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception:
            log.exception("internal error answering %s", scope.get("path", "?"))
            if started:
                raise
            facts = ErrorFacts(
                500, "internal_error", "carddb could not answer this request (see the server log)."
            )
            await JSONResponse(error_object(facts), status_code=500)(scope, receive, send)


def create_app(
    url: str | None = None,
    *,
    timeout: float = 10.0,
    threads: int = 8,
    pending_check_interval: float = 1.0,
    page_size: int = PAGE_SIZE,
    web_page_size: int = web.PAGE_SIZE,
) -> Starlette:
    """The application serving the database at ``url`` (``None``: ``$CARDDB_URL`` or the default
    file), opened read-only when the first request needs it. ``timeout`` bounds each request's
    database work, in seconds; ``threads`` how many requests read the database at once;
    ``page_size`` how many cards a page of API search results holds (Scryfall's 175),
    ``web_page_size`` a page of the search page."""
    backend = Backend(url, timeout=timeout, threads=threads, pending_check_interval=pending_check_interval)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        backend.close()

    app = Starlette(
        routes=[*api.ROUTES, *web.ROUTES],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error},
        middleware=[Middleware(_NoTraceback)],
        lifespan=lifespan,
    )
    app.state.backend = backend
    app.state.page_size = page_size
    app.state.web_page_size = web_page_size
    return app


ENVIRONMENT_FACTORY = "carddb.serve.app:app_from_environment"
"""What uvicorn imports in each worker process of ``carddb serve --workers N``."""
_URL_VARIABLE = "CARDDB_SERVE_URL"
_TIMEOUT_VARIABLE = "CARDDB_SERVE_TIMEOUT"


def environment_for(url: str | None, timeout: float) -> dict[str, str]:
    """The environment that gives :func:`app_from_environment` these settings."""
    settings = {_TIMEOUT_VARIABLE: repr(timeout)}
    if url is not None:
        settings[_URL_VARIABLE] = url
    return settings


def app_from_environment() -> Starlette:
    """The application of one worker process, set by :func:`environment_for`."""
    return create_app(os.environ.get(_URL_VARIABLE), timeout=float(os.environ.get(_TIMEOUT_VARIABLE, "10")))
