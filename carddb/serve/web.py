"""The web pages of ``carddb serve``."""

from __future__ import annotations

from collections.abc import Mapping

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from carddb.scryfall_json import ErrorFacts

__all__ = ["ROUTES", "error_page"]


def error_page(request: Request, facts: ErrorFacts, headers: Mapping[str, str] | None = None) -> Response:
    return HTMLResponse(f"<p>{facts.details}</p>", status_code=facts.status, headers=headers)


ROUTES: list[Route] = []
