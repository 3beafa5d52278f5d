"""Typed errors of ``carddb download``: each names the URL and what went wrong."""

from __future__ import annotations

from carddb.errors import CarddbError


class DownloadError(CarddbError):
    """A file that could not be fetched, or a source that does not publish what carddb expects."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"{url}: {reason}")


class IncompleteDownloadError(DownloadError):
    """The connection broke off before the whole file came; what came is kept for the next run."""


class VerificationError(DownloadError):
    """A whole file that is not what its source publishes (checksum, size or content): deleted,
    nothing replaced, nothing imported."""


__all__ = ["DownloadError", "IncompleteDownloadError", "VerificationError"]
