"""Fetching one published file: resumed where a broken download stopped, checked, then put in place.

The bytes go to ``<name>.part`` beside the file's place. A connection that breaks off leaves that
part, and the next try (in the same run, up to :data:`ATTEMPTS` times, or in the next run) asks
only for the rest (an HTTP ``Range`` request; a server that answers with the whole file again
starts it over). A whole file is checked (its published SHA-256, its published size, the start of
its content) before :func:`os.replace` moves it into place: a file that fails is deleted and
nothing is replaced, so the file in place is always a whole, checked one, or none.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import httpx

import carddb
from carddb.download.errors import DownloadError, IncompleteDownloadError, VerificationError

#: Tries per file in one run when the connection breaks off (each asks for the rest only).
ATTEMPTS = 3
USER_AGENT = f"carddb/{carddb.__version__}"


@dataclass(frozen=True, slots=True)
class Remote:
    """A published file: where it is, the name it is kept under, and what it must be."""

    url: str
    name: str
    sha256: str | None = None
    """The published SHA-256 (hex), checked when given."""
    size: int | None = None
    """The published size in bytes, checked when given."""
    check: Callable[[Path], str | None] | None = None
    """A check of the whole file's content: None when it is right, else what is wrong."""

    @property
    def part_name(self) -> str:
        """The name of the file being fetched; tied to the published checksum when there is one,
        so that a part of an older edition is never completed with the bytes of a newer one."""
        tag = f".{self.sha256[:12]}" if self.sha256 else ""
        return f"{self.name}{tag}.part"


class Progress(Protocol):
    """What :func:`fetch` reports: a file's size once known, and each chunk as it comes."""

    def begin(self, name: str, total: int | None, done: int) -> None: ...

    def advance(self, amount: int) -> None: ...

    def end(self) -> None: ...


def client() -> httpx.Client:
    """The HTTP client of a download: redirects followed, carddb's user agent, bounded waits."""
    return httpx.Client(
        follow_redirects=True,
        headers={"User-Agent": USER_AGENT, "Accept": "*/*"},
        timeout=httpx.Timeout(30.0, read=120.0),
    )


def get_text(http: httpx.Client, url: str) -> str:
    """A small published document (an index, a checksum, a page) as text."""
    try:
        response = http.get(url)
        response.raise_for_status()
    except httpx.HTTPStatusError as error:
        raise DownloadError(url, f"HTTP {error.response.status_code}") from None
    except httpx.HTTPError as error:
        raise DownloadError(url, f"cannot fetch it ({type(error).__name__}: {error})") from None
    return response.text


def fetch(http: httpx.Client, remote: Remote, folder: Path, progress: Progress | None = None) -> Path:
    """``remote`` fetched into ``folder``, checked, and in place; returns its path. A file already
    in place that has the published checksum (or size, when no checksum is published) is kept."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / remote.name
    if target.is_file() and _is_current(target, remote):
        return target
    part = folder / remote.part_name
    broken: Exception | None = None
    for _ in range(ATTEMPTS):
        try:
            _transfer(http, remote, part, progress)
        except (httpx.TransportError, IncompleteDownloadError) as error:
            broken = error
            continue
        broken = None
        break
    if broken is not None:
        done = part.stat().st_size if part.exists() else 0
        raise IncompleteDownloadError(
            remote.url,
            f"the download broke off after {done:,} bytes ({broken}); {part} is kept: run again to resume",
        )
    problem = _problem(part, remote)
    if problem is not None:
        part.unlink()
        raise VerificationError(remote.url, f"{problem}; the file was deleted and nothing was replaced")
    os.replace(part, target)
    return target


def _transfer(http: httpx.Client, remote: Remote, part: Path, progress: Progress | None) -> None:
    """One try: the rest of the file (all of it when nothing came before) appended to ``part``."""
    offset = part.stat().st_size if part.exists() else 0
    headers = {"Accept-Encoding": "identity"}  # the very bytes published: sizes and ranges are the file's
    if offset:
        headers["Range"] = f"bytes={offset}-"
    with http.stream("GET", remote.url, headers=headers) as response:
        if response.status_code == 416:  # the part is not a beginning of the file: start over
            part.unlink()
            raise IncompleteDownloadError(remote.url, "the kept part does not fit the published file")
        if response.status_code >= 400:
            raise DownloadError(remote.url, f"HTTP {response.status_code}")
        if response.status_code != 206:
            offset = 0  # the whole file again: whatever was kept is replaced
        length = response.headers.get("Content-Length")
        total = offset + int(length) if length is not None and length.isdigit() else remote.size
        if progress is not None:
            progress.begin(remote.name, total, offset)
        try:
            with part.open("ab" if offset else "wb") as out:
                for chunk in response.iter_raw():  # as the bytes come: none is lost when the line drops
                    out.write(chunk)
                    if progress is not None:
                        progress.advance(len(chunk))
        finally:
            if progress is not None:
                progress.end()
    if total is not None and part.stat().st_size < total:
        raise IncompleteDownloadError(remote.url, f"{part.stat().st_size:,} of {total:,} bytes came")


def _is_current(path: Path, remote: Remote) -> bool:
    if remote.sha256 is not None:
        return sha256(path) == remote.sha256.lower()
    return remote.size is not None and path.stat().st_size == remote.size


def _problem(path: Path, remote: Remote) -> str | None:
    """What is wrong with a whole fetched file, or None."""
    size = path.stat().st_size
    if remote.size is not None and size != remote.size:
        return f"{size:,} bytes came where {remote.size:,} are published"
    if remote.sha256 is not None:
        digest = sha256(path)
        if digest != remote.sha256.lower():
            return f"its SHA-256 is {digest}, the published one {remote.sha256.lower()} (checksum mismatch)"
    return remote.check(path) if remote.check is not None else None


def sha256(path: Path) -> str:
    """The SHA-256 of a file, hex."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


__all__ = ["ATTEMPTS", "Progress", "Remote", "client", "fetch", "get_text", "sha256"]
