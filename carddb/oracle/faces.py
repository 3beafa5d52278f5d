"""Reading card faces (name and English oracle text) from the files carddb knows, for the parser.

Three formats, told apart by :func:`detect_format` from the first bytes of the (decompressed) file:

* ``jsonl``: one face per line, as in the shared corpus ``oracle-faces-*.jsonl.xz``
  (``name``, ``face_name``, ``text``; a null text is an empty one);
* ``mtgjson``: an MTGJSON v5 set file or AllPrintings (``card["name"]``, ``faceName``, ``text``);
* ``scryfall``: a Scryfall API list page (``{"object": "list", "data": [...]}``) or a bulk data
  array of card objects (``name``, ``oracle_text``; ``card_faces`` for multi-face cards).

Each format's type line (``type``, ``type_line``) is kept for the parser, and the card's
``layout`` for the engine. Files may be plain or
``.xz``/``.gz``/``.bz2``. :func:`read_faces` yields each distinct ``(name, face_name, text)`` once:
AllPrintings and Scryfall files repeat a card for every printing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import ijson

from carddb.errors import MalformedJSONError, SourceError
from carddb.ingest.mtgjson import MTGJSONReader
from carddb.ingest.sources import TrackingReader, locate_json_error, open_tracked

Format = Literal["jsonl", "mtgjson", "scryfall"]

_CHUNK = 1 << 16
_FIRST_LINE_LIMIT = 1 << 20
"""A JSONL face is a few hundred bytes: a longer first line belongs to a one-line JSON document."""
_DOCUMENT_KEYS = frozenset({"data", "meta", "object"})
"""Keys of an MTGJSON file or a Scryfall object: a first line with one of them is not a JSONL face."""
_EXPECTED = (
    "expected JSON Lines of faces (objects with 'name' and 'text'), an MTGJSON set or AllPrintings "
    "file (an object with 'meta' and 'data'), or a Scryfall list page or bulk array of cards"
)


@dataclass(frozen=True, slots=True)
class Face:
    """One card face: the card's ``name``, its oracle ``text``, the face's own name on a multi-face
    card, its type line when the file has one (the parser tells spells from permanents by it) and
    the card's layout as MTGJSON and Scryfall name it (``normal``, ``split``, ``adventure``,
    ``transform``, ``modal_dfc``…: the engine tells which faces it can reach by it)."""

    name: str
    text: str
    face_name: str | None = None
    type_line: str | None = None
    layout: str = "normal"

    @property
    def parser_name(self) -> str:
        """The name the parser is given for the face's self references: ``face_name or name``."""
        return self.face_name or self.name

    @property
    def side(self) -> int:
        """Which face of its card this is, in the card's name ("Fire // Ice": 0 is Fire, 1 is Ice);
        0 for a card of one face, and for a face whose name the card's name does not list."""
        if self.face_name is None:
            return 0
        names = self.name.split(" // ")
        return names.index(self.face_name) if self.face_name in names else 0


def read_faces(path: Path) -> Iterator[Face]:
    """The distinct faces of the file at ``path``, in file order, whatever its format."""
    readers = {"jsonl": read_jsonl_faces, "mtgjson": read_mtgjson_faces, "scryfall": read_scryfall_faces}
    return readers[detect_format(path)](path)


def detect_format(path: Path) -> Format:
    """Which reader fits ``path``, from its first bytes; :class:`SourceError` when none does."""
    if not path.is_file():
        raise SourceError(path, "no such file" if not path.exists() else "not a file")
    with open_tracked(path) as reader:
        head = _read_first_line(reader)
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text:
        raise SourceError(path, f"file is empty; {_EXPECTED}")
    if text.startswith(b"["):
        return "scryfall"
    if not text.startswith(b"{"):
        raise SourceError(
            path, f"not JSON (starts with {text[:20].decode('utf-8', 'replace')!r}); {_EXPECTED}"
        )
    first = _json_object(text.split(b"\n", 1)[0])
    if first is not None and first.keys() & {"name", "text"} and not first.keys() & _DOCUMENT_KEYS:
        return "jsonl"
    return _detect_document(path)


def _read_first_line(reader: TrackingReader) -> bytes:
    head = b""
    while b"\n" not in head.lstrip() and len(head) < _FIRST_LINE_LIMIT:
        chunk = reader.read(_CHUNK)
        if not chunk:
            break
        head += chunk
    return head


def _json_object(line: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _detect_document(path: Path) -> Format:
    """Look at the top-level keys of a JSON object, as they stream, until one decides the format."""
    with open_tracked(path) as reader:
        events = ijson.parse(reader)
        try:
            for prefix, event, value in events:
                if prefix != "" or event != "map_key":
                    continue
                if value == "meta":
                    return "mtgjson"
                if value == "object":
                    _, _, kind = next(events)
                    if kind == "list":
                        return "scryfall"
                elif value == "data":
                    _, opened, _ = next(events)
                    if opened == "start_map":
                        return "mtgjson"
                    if opened == "start_array":
                        return "scryfall"
        except ijson.JSONError as exc:
            raise _syntax_error(path, reader, exc) from None
    raise SourceError(path, f"unknown JSON document; {_EXPECTED}")


# -- readers --------------------------------------------------------------------------------------
def read_jsonl_faces(path: Path) -> Iterator[Face]:
    """Faces of a JSON Lines file: one object per line with ``name``, ``face_name`` and ``text``."""

    def faces() -> Iterator[Face]:
        with open_tracked(path) as reader:
            for number, line in enumerate(_lines(reader), start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError as exc:
                    raise MalformedJSONError(path, f"not a JSON object ({exc})", f"line {number}") from None
                if not isinstance(record, dict) or not isinstance(record.get("name"), str):
                    raise SourceError(path, "not a face: expected an object with a 'name'", f"line {number}")
                yield Face(
                    record["name"],
                    _text(record.get("text")),
                    _opt_name(record.get("face_name")),
                    _opt_name(record.get("type")),
                    _layout(record.get("layout")),
                )

    return _distinct(faces())


def read_mtgjson_faces(path: Path) -> Iterator[Face]:
    """Faces of an MTGJSON set file or AllPrintings: one per card record (a face of a multi-face
    card has its own record, with ``faceName``)."""

    def faces() -> Iterator[Face]:
        reader = MTGJSONReader(path)
        for card_set in reader.raw_sets():
            for index, card in enumerate(card_set.cards):
                if not isinstance(card.get("name"), str):
                    raise SourceError(path, "not an MTGJSON card", f"{card_set.where}.cards[{index}]")
                yield Face(
                    card["name"],
                    _text(card.get("text")),
                    _opt_name(card.get("faceName")),
                    _opt_name(card.get("type")),
                    _layout(card.get("layout")),
                )

    return _distinct(faces())


def read_scryfall_faces(path: Path) -> Iterator[Face]:
    """Faces of a Scryfall list page or bulk array: a card's ``card_faces`` each, else the card."""

    def faces() -> Iterator[Face]:
        with open_tracked(path) as reader:
            bulk = _starts_with_array(path)
            try:
                for index, card in enumerate(ijson.items(reader, "item" if bulk else "data.item")):
                    yield from _scryfall_card(path, card, f"[{index}]" if bulk else f"data[{index}]")
            except ijson.JSONError as exc:
                raise _syntax_error(path, reader, exc) from None

    return _distinct(faces())


def _scryfall_card(path: Path, card: object, where: str) -> Iterator[Face]:
    if not isinstance(card, dict) or not isinstance(card.get("name"), str):
        raise SourceError(path, "not a Scryfall card object", where)
    card_faces = card.get("card_faces")
    if isinstance(card_faces, list) and card_faces:
        for face in card_faces:
            if isinstance(face, dict):
                yield Face(
                    card["name"],
                    _text(face.get("oracle_text")),
                    _opt_name(face.get("name")),
                    _opt_name(face.get("type_line")),
                    _layout(card.get("layout")),
                )
    else:
        type_line = _opt_name(card.get("type_line"))
        yield Face(card["name"], _text(card.get("oracle_text")), None, type_line, _layout(card.get("layout")))


def _starts_with_array(path: Path) -> bool:
    with open_tracked(path) as reader:
        return _read_first_line(reader).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"[")


# -- helpers --------------------------------------------------------------------------------------
def _lines(reader: TrackingReader) -> Iterator[bytes]:
    pending = b""
    while chunk := reader.read(_CHUNK):
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        yield from lines
    if pending:
        yield pending


def _distinct(faces: Iterable[Face]) -> Iterator[Face]:
    """Each ``(name, face_name, text)`` once, with the type line it first came with."""
    seen: set[tuple[str, str | None, str]] = set()
    for face in faces:
        key = (face.name, face.face_name, face.text)
        if key not in seen:
            seen.add(key)
            yield face


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _layout(value: object) -> str:
    return value if isinstance(value, str) and value else "normal"


def _opt_name(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _syntax_error(path: Path, reader: TrackingReader, exc: Exception) -> MalformedJSONError:
    raw = exc.args[0] if exc.args else ""
    message = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    position = locate_json_error(reader, raw if isinstance(raw, bytes) else message)
    if "premature EOF" in message or "Incomplete" in message:
        reason = "truncated JSON (unexpected end of file)"
    else:
        reason = (message.strip().splitlines() or ["malformed JSON"])[0].removeprefix("parse error: ")
    return MalformedJSONError(path, reason, str(position))
