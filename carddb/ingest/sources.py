"""Opening source files: plain or ``.xz``/``.gz``/``.bz2``, streamed, with byte positions tracked
so that a JSON syntax error can name its line and column, and a progress bar can follow the file.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from carddb.errors import MalformedJSONError, SourceError

_OPENERS: dict[str, Callable[[IO[bytes]], io.BufferedIOBase]] = {
    ".xz": lambda raw: lzma.LZMAFile(raw, "rb"),  # noqa: SIM115 - closed with the raw file
    ".gz": lambda raw: gzip.GzipFile(fileobj=raw, mode="rb"),
    ".bz2": lambda raw: bz2.BZ2File(raw, "rb"),
}
_COMPRESSED = ("", ".xz", ".gz", ".bz2")
INPUT_SUFFIXES = tuple(f"{kind}{packed}" for kind in (".json", ".txt") for packed in _COMPRESSED)
"""What a folder's files must end with to be imported: JSON sources, text pages and rules."""


def expand_inputs(path: Path) -> list[Path]:
    """A file stands for itself; a folder for the JSON and text files directly in it, in name order."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and p.name.lower().endswith(INPUT_SUFFIXES))
        if not files:
            raise SourceError(path, "folder holds no .json or .txt files (plain, .xz, .gz or .bz2)")
        return files
    if not path.exists():
        raise SourceError(path, "no such file or folder")
    return [path]


@dataclass(frozen=True, slots=True)
class Position:
    """A place in a (decompressed) text stream; lines and columns count from 1."""

    offset: int
    line: int
    column: int

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column} (byte {self.offset})"


class TrackingReader:
    """A binary reader that remembers where each chunk handed to the parser began.

    ``raw_progress`` reports bytes consumed from the file on disk (compressed or not) for a
    progress bar. ``position_of`` turns an offset inside the last chunk into a line and column.
    """

    def __init__(
        self,
        path: Path,
        stream: IO[bytes] | io.BufferedIOBase,
        raw: IO[bytes],
        on_progress: Callable[[int], None] | None,
    ) -> None:
        self.path = path
        self._stream = stream
        self._raw = raw
        self._on_progress = on_progress
        self._raw_seen = 0
        self.chunk = b""
        self.chunk_start = 0
        self._lines_before_chunk = 0
        self._last_newline_before_chunk = -1

    def read(self, size: int = -1) -> bytes:
        previous = self.chunk
        if previous:
            newlines = previous.count(b"\n")
            if newlines:
                self._lines_before_chunk += newlines
                self._last_newline_before_chunk = self.chunk_start + previous.rindex(b"\n")
        self.chunk_start += len(previous)
        try:
            self.chunk = self._stream.read(size)
        except (EOFError, lzma.LZMAError, zlib.error, OSError) as exc:
            # A cut download or a file whose name says .xz/.gz/.bz2 but whose bytes do not.
            self.chunk = b""
            raise MalformedJSONError(
                self.path,
                f"truncated or corrupt compressed data ({exc or type(exc).__name__})",
                str(self.position_of(0)),
            ) from None
        if self._on_progress is not None:
            raw_now = self._raw.tell()
            if raw_now != self._raw_seen:
                self._on_progress(raw_now - self._raw_seen)
                self._raw_seen = raw_now
        return self.chunk

    @property
    def end(self) -> int:
        return self.chunk_start + len(self.chunk)

    def position_of(self, offset_in_chunk: int) -> Position:
        offset_in_chunk = max(0, min(offset_in_chunk, len(self.chunk)))
        head = self.chunk[:offset_in_chunk]
        line = self._lines_before_chunk + head.count(b"\n") + 1
        last_newline = (
            self.chunk_start + head.rindex(b"\n") if b"\n" in head else self._last_newline_before_chunk
        )
        offset = self.chunk_start + offset_in_chunk
        line_start = last_newline + 1 - self.chunk_start
        if line_start >= 0:  # count characters, not bytes, when the line starts in this chunk
            column = len(self.chunk[line_start:offset_in_chunk].decode("utf-8", "replace")) + 1
        else:
            column = offset - last_newline
        return Position(offset=offset, line=line, column=column)


@contextmanager
def open_tracked(path: Path, on_progress: Callable[[int], None] | None = None) -> Iterator[TrackingReader]:
    """Open ``path`` for streaming, decompressing by its suffix."""
    try:
        raw: IO[bytes] = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise SourceError(path, exc.strerror or str(exc)) from None
    try:
        opener = _OPENERS.get(path.suffix.lower())
        stream: IO[bytes] | io.BufferedIOBase = opener(raw) if opener else raw
        yield TrackingReader(path, stream, raw, on_progress)
    finally:
        raw.close()


_YAJL_CONTEXT = re.compile(rb"\n(?P<text>[^\n]*)\n(?P<arrow>[^\n]*\^)")


def locate_json_error(reader: TrackingReader, message: str | bytes) -> Position:
    """Find where a yajl (ijson) syntax error happened in the stream ``reader`` was feeding.

    yajl reports the chunk it was parsing around the error, in bytes: up to 30 of them either
    side, and an arrow just past the offending byte. A premature end is the end of the stream.
    """
    raw = message if isinstance(message, bytes) else message.encode("utf-8", "replace")
    if b"premature EOF" in raw or not reader.chunk:
        return reader.position_of(len(reader.chunk))
    match = _YAJL_CONTEXT.search(raw)
    if match is None:
        return reader.position_of(len(reader.chunk))
    text, arrow = match["text"], match["arrow"]
    indent = len(text) - len(text.lstrip(b" "))
    before = arrow.index(b"^") - indent
    window = text[indent:]
    chunk = reader.chunk.replace(b"\n", b" ").replace(b"\r", b" ").replace(b"\t", b" ")
    found = chunk.find(window)
    if found < 0 and before > 0:
        found = chunk.find(window[:before])
    if found < 0:
        return reader.position_of(len(reader.chunk))
    return reader.position_of(found + max(before - 1, 0))
