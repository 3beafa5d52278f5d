"""The errors a request can end in, each answered with a Scryfall error object
(:func:`carddb.scryfall_json.error_object`): never a traceback."""

from __future__ import annotations

from collections.abc import Sequence

from carddb.scryfall_json import ErrorFacts

__all__ = ["ApiError", "bad_request", "not_found", "unavailable"]


class ApiError(Exception):
    """An answer that is an error: its HTTP status, Scryfall's code word and the explanation."""

    def __init__(
        self,
        status: int,
        code: str,
        details: str,
        *,
        type: str | None = None,
        warnings: Sequence[str] = (),
        retry_after: int | None = None,
    ) -> None:
        super().__init__(details)
        self.facts = ErrorFacts(status, code, details, type, tuple(warnings))
        self.retry_after = retry_after


def bad_request(details: str) -> ApiError:
    return ApiError(400, "bad_request", details)


def not_found(details: str, *, type: str | None = None) -> ApiError:
    return ApiError(404, "not_found", details, type=type)


def unavailable(details: str, retry_after: int = 5) -> ApiError:
    return ApiError(503, "unavailable", details, retry_after=retry_after)
