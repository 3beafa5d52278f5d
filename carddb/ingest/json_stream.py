"""Streaming JSON in bounded memory: the structure walked here, each value parsed by the C decoder.

A source file is a tree whose upper levels (MTGJSON's ``data`` map of sets, a set's ``cards``
array, a Scryfall bulk array) are walked one member or element at a time by :class:`JSONStream`,
while each leaf that carddb keeps (a card object, a set's name) is parsed whole by the standard
library's C decoder (``json.JSONDecoder.raw_decode``), several times faster than an event parser
building the same objects. What carddb does not keep (a set's booster sheets, its tokens) is
skipped by a scanner that builds nothing.

Memory is bounded whatever the input: a parsed value may be at most ``limit`` characters (a value
over it is refused before it is parsed), values nest at most :data:`MAX_DEPTH` deep (the C decoder
refuses deep nesting with a ``RecursionError``, caught here; the scanner counts), and the text
already walked is dropped as the stream advances. Every refusal is a
:class:`~carddb.errors.MalformedJSONError` naming the file and the line, column and byte.

The input must be UTF-8 (a byte-order mark is skipped); UTF-16 and UTF-32 are recognised and
refused with a message saying so, and invalid UTF-8 names its byte.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol

from carddb.errors import MalformedJSONError, SourceError
from carddb.ingest.sources import Position

__all__ = ["MAX_DEPTH", "JSONStream", "ReadableBytes", "check_encoding"]

MAX_DEPTH = 512
"""How deep values may nest: real sources nest less than ten levels."""
CHUNK = 1 << 20
"""Bytes read at a time."""
KEY_LIMIT = 4096
"""The longest object key accepted, in characters."""
_KEEP_BEHIND = 1 << 20
"""Walked text kept before the current place before it is dropped (characters)."""

_TOO_DEEP = "values nested too deeply (real card data nests less than ten levels)"
_WS = re.compile(r"[ \t\n\r]*")
# Everything up to the next bracket, strings included: what skipping a value crosses at C speed.
_FLAT = re.compile(r'(?:[^"\[\]{}]+|"[^"\\]*(?:\\.[^"\\]*)*")*', re.DOTALL)
_STRING_BODY = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SCALAR = re.compile(r"[^,\]}\s]+")
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)


def check_encoding(path: Path, head: bytes) -> int:
    """Refuse a file whose first bytes say UTF-16 or UTF-32 (a byte-order mark, or the zero bytes of
    ASCII text in those encodings) with a :class:`SourceError` saying so; return the length of a
    UTF-8 byte-order mark to skip (0 without one)."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            raise SourceError(
                path, f"the file is {name} text: carddb reads UTF-8 (convert it, e.g. with iconv)"
            )
    if b"\x00" in head[:4] and any(head[:4]):
        raise SourceError(
            path, "the file is UTF-16 or UTF-32 text: carddb reads UTF-8 (convert it, e.g. with iconv)"
        )
    return len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0


class ReadableBytes(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class JSONStream:
    """Walks one JSON document from a binary stream.

    The cursor moves through the document with :meth:`members` (an object's keys, one at a time),
    :meth:`elements` (an array's elements), :meth:`value` (parse the value under the cursor) and
    :meth:`skip` (step over it); :meth:`finish` checks that nothing follows the document.
    """

    def __init__(self, path: Path, source: ReadableBytes | IO[bytes], chunk: int = CHUNK) -> None:
        self.path = path
        self._source = source
        self._chunk = chunk
        self._decoder = json.JSONDecoder()
        self._utf8 = codecs.getincrementaldecoder("utf-8")("strict")
        self._text = ""
        self._at = 0  # the cursor, an index into _text
        self._eof = False
        self._started = False
        # Where _text[0] is in the document: characters, bytes, lines before it, and the absolute
        # character index of the last newline before it (-1: none), for positions in messages.
        self._chars_before = 0
        self._bytes_before = 0
        self._lines_before = 0
        self._last_newline_before = -1
        # (index into _text, absolute byte offset) where each chunk read begins: the window is
        # only ever cut at one, so byte offsets need no re-encoding of the text.
        self._boundaries: list[tuple[int, int]] = []
        self._bytes_read = 0
        # A hash fed with the text walked since ``_recorded_from`` (see :meth:`record`).
        self._recording: Any = None
        self._recorded_from = 0
        self.flagged = False

    # -- reading ----------------------------------------------------------------------------------
    def _read_more(self, at_least: int = 0) -> bool:
        """Append at least ``at_least`` more characters (or one chunk) to the window; False at the
        end of the input."""
        wanted = len(self._text) + max(at_least, 1)
        grew = False
        while len(self._text) < wanted and not self._eof:
            raw = self._source.read(max(self._chunk, at_least))
            if not self._started:
                raw = self._first_bytes(raw)
            try:
                decoded = self._utf8.decode(raw, final=not raw)
            except UnicodeDecodeError as exc:
                offset = self._bytes_before + len(self._text.encode("utf-8")) + max(exc.start, 0)
                what = f"invalid byte 0x{raw[exc.start]:02x}" if raw else "a character cut at the end"
                raise MalformedJSONError(self.path, f"not UTF-8 text ({what})", f"byte {offset}") from None
            if not raw:
                self._eof = True
            if decoded:
                self._boundaries.append((len(self._text), self._bytes_read - self._utf8_pending()))
                self._text += decoded
                grew = True
            self._bytes_read += len(raw)
        return grew

    def _utf8_pending(self) -> int:
        """Bytes of a character cut by the previous chunk, held back by the decoder."""
        return len(self._utf8.getstate()[0])

    def _first_bytes(self, raw: bytes) -> bytes:
        self._started = True
        skip = check_encoding(self.path, raw)
        self._bytes_read = self._bytes_before = skip
        return raw[skip:]

    def _drop_walked(self) -> None:
        """Forget the chunks read well behind the cursor, keeping track of where the window starts."""
        if self._at <= _KEEP_BEHIND:
            return
        keep = self._at - _KEEP_BEHIND // 2
        kept = [b for b in self._boundaries if b[0] <= keep]
        cut, cut_bytes = kept[-1]
        if cut == 0:
            return
        self._boundaries = [(index - cut, offset) for index, offset in self._boundaries if index >= cut]
        self._bytes_before = cut_bytes
        if self._recording is not None:
            self._recording.update(self._text[self._recorded_from : cut].encode("utf-8", "surrogatepass"))
            self._recorded_from = 0
        dropped = self._text[:cut]
        newlines = dropped.count("\n")
        if newlines:
            self._lines_before += newlines
            self._last_newline_before = self._chars_before + dropped.rindex("\n")
        self._chars_before += cut
        self._text = self._text[cut:]
        self._at -= cut

    def _peek(self) -> str:
        """The next character that is not whitespace ('' at the end), the cursor moved onto it."""
        while True:
            self._at = _WS.match(self._text, self._at).end()  # type: ignore[union-attr]
            if self._at < len(self._text):
                return self._text[self._at]
            if not self._read_more():
                return ""

    def _take(self, char: str, expected: str) -> None:
        found = self._peek()
        if found != char:
            raise self._error(f"expected {expected}" + (f", found {found!r}" if found else ""), self._at)
        self._at += 1

    # -- walking ------------------------------------------------------------------------------------
    def peek(self) -> str:
        """The first character of the value under the cursor ('' at the end of the input)."""
        self._drop_walked()
        return self._peek()

    def members(self) -> Iterator[str]:
        """The keys of the object under the cursor, one at a time; after each, the caller must
        consume its value (:meth:`value`, :meth:`skip`, :meth:`members`, :meth:`elements`)."""
        self._take("{", "an object")
        if self._peek() == "}":
            self._at += 1
            return
        while True:
            self._drop_walked()
            if self._peek() != '"':
                raise self._error("expected a key in double quotes", self._at)
            key = self.value(KEY_LIMIT)
            self._take(":", "':' after a key")
            yield str(key)
            found = self._peek()
            if not found:
                raise self._truncated()
            self._at += 1
            if found == "}":
                return
            if found != ",":
                raise self._error("expected ',' or '}' after an object member", self._at - 1)

    def elements(self) -> Iterator[int]:
        """The indices of the elements of the array under the cursor; after each, the caller must
        consume the element."""
        self._take("[", "an array")
        if self._peek() == "]":
            self._at += 1
            return
        index = 0
        while True:
            self._drop_walked()
            yield index
            index += 1
            found = self._peek()
            if not found:
                raise self._truncated()
            self._at += 1
            if found == "]":
                return
            if found != ",":
                raise self._error("expected ',' or ']' after an array element", self._at - 1)

    def value(self, limit: int, flag: re.Pattern[str] | None = None) -> Any:
        """Parse the value under the cursor, at most ``limit`` characters of JSON; with ``flag``,
        :attr:`flagged` then says whether the pattern occurs in the value's text."""
        if not self._peek():
            raise self._truncated()
        start = self._at
        while True:
            try:
                parsed, end = self._decoder.raw_decode(self._text, start)
            except json.JSONDecodeError as exc:
                if not self._eof and self._may_need_more(exc):
                    self._more_for(start, limit)
                    continue
                if self._eof and self._cut_off(exc):
                    raise self._truncated() from None
                raise self._error(exc.msg, exc.pos) from None
            except RecursionError:
                raise self._error(_TOO_DEEP, start) from None
            except ValueError as exc:  # e.g. an integer of more than 4,300 digits
                raise self._error(str(exc).split(";")[0], start) from None
            # a number or literal cut by the end of the window might go on: read more
            if not self._eof and end > len(self._text) - 32 and self._more_for(start, limit):
                continue
            if end - start > limit:
                raise self._too_long(start, limit)
            if flag is not None:
                self.flagged = flag.search(self._text, start, end) is not None
            self._at = end
            return parsed

    def _may_need_more(self, exc: json.JSONDecodeError) -> bool:
        """Whether a decoding error may only mean the value goes on past the window."""
        return exc.msg.startswith("Unterminated string") or exc.pos >= len(self._text) - 8

    def _cut_off(self, exc: json.JSONDecodeError) -> bool:
        """At the end of the input: whether a decoding error is the file ending inside a value."""
        return exc.msg.startswith("Unterminated string") or exc.pos >= len(self._text.rstrip()) - 5

    def _more_for(self, start: int, limit: int) -> bool:
        """Read more of a value that began at ``start``: doubling what is held of it, so that
        parsing it again and again costs at most twice once. False at the end of the input."""
        held = len(self._text) - start
        if held > limit:
            raise self._too_long(start, limit)
        return self._read_more(max(self._chunk, held))

    def skip(self) -> None:
        """Step over the value under the cursor without building it (values nest at most
        :data:`MAX_DEPTH` deep; a string may be as long as it likes, memory permitting it is
        held only while it is crossed)."""
        first = self._peek()
        if not first:
            raise self._truncated()
        if first not in "[{":
            if first == '"':
                self._at += 1
                self._skip_string(self._at - 1)
            else:
                self.value(KEY_LIMIT)  # a number or a literal
            return
        depth = 0
        text = self._text
        while True:
            end = _FLAT.match(text, self._at).end()  # type: ignore[union-attr]
            if end == len(text) or text[end] == '"':  # the window ends, maybe inside a string
                self._at = end
                if end < len(text):
                    self._at += 1
                    self._skip_string(end)
                elif not self._read_more(len(text) - end):
                    raise self._truncated()
                self._drop_walked()
                text = self._text
                continue
            char = text[end]
            self._at = end + 1
            if char in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    raise self._error(_TOO_DEEP, end)
            else:
                depth -= 1
                if depth == 0:
                    return

    def _skip_string(self, opening: int) -> None:
        """Move the cursor past the string whose opening quote is at ``opening``."""
        while True:
            match = _STRING_BODY.match(self._text, self._at)
            if match is not None:
                self._at = match.end()
                return
            if not self._read_more(max(self._chunk, len(self._text) - opening)):
                raise self._truncated()

    def record(self, digest: Any) -> None:
        """Feed ``digest`` (a :mod:`hashlib` hash) with the text of the value under the cursor, as
        it is walked, until :meth:`stop_recording`."""
        self._peek()
        self._recording, self._recorded_from = digest, self._at

    def stop_recording(self) -> None:
        """Stop feeding the hash given to :meth:`record` (at the cursor: after the value walked)."""
        if self._recording is not None:
            self._recording.update(
                self._text[self._recorded_from : self._at].encode("utf-8", "surrogatepass")
            )
        self._recording = None

    def finish(self) -> None:
        """Check that only whitespace follows the document."""
        found = self._peek()
        if found:
            raise self._error("unexpected data after the end of the JSON document", self._at)

    # -- positions and errors -------------------------------------------------------------------------
    def position(self, index: int | None = None) -> Position:
        """Where ``index`` (an index into the window; default: the cursor) is in the document."""
        index = self._at if index is None else max(0, min(index, len(self._text)))
        head = self._text[:index]
        newlines = head.count("\n")
        line = self._lines_before + newlines + 1
        if newlines:
            column = index - head.rindex("\n")
        else:
            column = self._chars_before + index - self._last_newline_before
        offset = self._bytes_before + len(head.encode("utf-8", "surrogatepass"))
        return Position(offset=offset, line=line, column=column)

    def where(self) -> str:
        """The cursor's position, as messages write it."""
        return str(self.position())

    def _error(self, reason: str, index: int) -> MalformedJSONError:
        return MalformedJSONError(self.path, reason, str(self.position(index)))

    def _truncated(self) -> MalformedJSONError:
        return self._error("truncated JSON (unexpected end of file)", len(self._text))

    def _too_long(self, start: int, limit: int) -> MalformedJSONError:
        return self._error(f"a value longer than {limit:,} characters (not a card source's data)", start)
