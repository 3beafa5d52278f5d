"""How the commands print text: wrapped to the terminal's width with hanging indents, never inside a
word (CJK text, which has no spaces, breaks between characters); in colour on a terminal; columns
padded by the terminal cells a string takes (a CJK character takes two).

One :class:`Terminal` per run decides width and colour: wrapping when standard output is a terminal
(or ``COLUMNS`` is set), colour only on a terminal and never with ``NO_COLOR`` set (the
https://no-color.org convention) or ``TERM=dumb``; ``FORCE_COLOR`` turns it on anywhere.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TextIO

import click
import wcwidth

#: Narrower terminals than this still get lines of this width (a hanging indent needs room).
MIN_WIDTH = 20


@dataclass(frozen=True, slots=True)
class Terminal:
    """Where a command's text goes: ``width`` columns (None: lines are not wrapped) and colour or not."""

    width: int | None
    colour: bool

    @classmethod
    def detect(cls, stream: TextIO | None = None) -> Terminal:
        stream = stream if stream is not None else sys.stdout
        tty = _isatty(stream)
        wrap = tty or bool(os.environ.get("COLUMNS"))
        width = max(shutil.get_terminal_size().columns, MIN_WIDTH) if wrap else None
        if os.environ.get("NO_COLOR"):
            colour = False
        elif os.environ.get("FORCE_COLOR"):
            colour = True
        else:
            colour = tty and os.environ.get("TERM") != "dumb"
        return cls(width=width, colour=colour)

    def style(self, text: str, **styles: Any) -> str:
        """``text`` with click's ``styles`` (bold=True, fg="red", dim=True) when in colour."""
        return click.style(text, **styles) if self.colour and text else text

    def wrap(self, line: str, hang: int | None = None) -> list[str]:
        """``line`` broken into lines of at most ``width`` cells; the lines after the first are
        indented by ``hang`` cells (by default the line's own indent and two more)."""
        if self.width is None or cells(line) <= self.width:
            return [line]
        indent = len(line) - len(line.lstrip(" "))
        if hang is None:
            hang = indent + 2
        return wrap(line[indent:], self.width, indent=indent, hang=min(hang, self.width // 2))

    def echo(self, lines: Iterable[str | tuple[str, int]], *, err: bool = False) -> None:
        """Print ``lines`` (a text line, or a line with its hanging indent), each wrapped."""
        out: list[str] = []
        for item in lines:
            line, hang = item if isinstance(item, tuple) else (item, None)
            for part in line.split("\n"):
                out.extend(self.wrap(part, hang))
        click.echo("\n".join(out), err=err, color=self.colour)


#: A colour code, a run of spaces, or one character.
_PIECE = re.compile(r"\x1b\[[0-9;]*m|[ \t]+|.", re.DOTALL)
#: What never starts a line (closing brackets and punctuation, the prolonged sound mark, small kana:
#: the Japanese rule called kinsoku) and what never ends one (opening brackets).
_NO_START = frozenset(
    "。、，．・：；！？）」』】〕〉》’”ー～ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.:;!?)]}%"
)
_NO_END = frozenset("（「『【〔〈《‘“([{")


def wrap(text: str, width: int, *, indent: int = 0, hang: int = 0) -> list[str]:
    """``text`` in lines of at most ``width`` terminal cells: the first indented by ``indent``
    spaces, the others by ``hang``. Lines break at spaces (which a break drops), and between two
    wide (CJK) characters, except before closing punctuation and after an opening bracket; never
    inside a word unless the word alone is wider than a line. Colour codes take no room."""
    units = _units(text)
    lines: list[str] = []
    line, used, space = " " * indent, indent, ""
    start = indent
    for unit in units:
        if unit.isspace():
            space = unit
            continue
        size = cells(unit)
        gap = space if used > start else ""
        if used > start and used + cells(gap) + size > width:
            lines.append(line)
            line, used, start, gap = " " * hang, hang, hang, ""
        space = ""
        while used + size > width and used == start and len(unit) > 1:  # a word wider than a line
            head, rest = _split_to(unit, width - used)
            lines.append(line + head)
            line, used, start = " " * hang, hang, hang
            unit, size = rest, cells(rest)
        line += gap + unit
        used += cells(gap) + size
    lines.append(line)
    return [item.rstrip(" ") for item in lines]


def _units(text: str) -> list[str]:
    """``text`` as the pieces a line may break between: words, runs of spaces, single wide
    characters (with the punctuation that must stay beside them)."""
    units: list[str] = []
    glue = False  # the next piece joins the unit before it (after an opening bracket or a colour code)
    for match in _PIECE.finditer(text):
        piece = match.group()
        if piece.isspace():
            units.append(piece)
            glue = False
            continue
        escape = piece[0] == "\x1b"
        if not units or units[-1].isspace():
            joins = False
        elif glue or escape or piece in _NO_START:
            joins = True
        else:  # a word goes on until a wide character starts or ends
            joins = cells(piece) < 2 and cells(units[-1][-1]) < 2
        if joins:
            units[-1] += piece
        else:
            units.append(piece)
        glue = piece in _NO_END or escape
    return units


def _split_to(unit: str, room: int) -> tuple[str, str]:
    """The longest head of ``unit`` that fits ``room`` cells (at least one character), and the rest."""
    used = 0
    for index, char in enumerate(unit):
        used += cells(char)
        if used > room:
            return unit[: max(index, 1)], unit[max(index, 1) :]
    return unit, ""


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def json_text(obj: object, stream: TextIO | None = None) -> str:
    """``obj`` as indented JSON for ``stream`` (stdout): text as it is where the stream's encoding
    is a Unicode one, else every character outside ASCII escaped (``\\u7a32``), so that JSON read
    through any encoding loses nothing."""
    encoding = (getattr(stream if stream is not None else sys.stdout, "encoding", None) or "").lower()
    unicode = encoding.replace("-", "").replace("_", "").startswith(("utf", "ucs"))
    return json.dumps(obj, ensure_ascii=not unicode, indent=2)


def cells(text: str) -> int:
    """Terminal cells ``text`` takes (wide CJK characters two, combining marks none, colour codes none)."""
    bare = _COLOUR.sub("", text)
    width = wcwidth.wcswidth(bare)
    return width if width >= 0 else sum(max(wcwidth.wcwidth(char), 0) for char in bare)


def ljust(text: str, width: int) -> str:
    """``text`` padded on the right to ``width`` terminal cells."""
    return text + " " * max(0, width - cells(text))


def rjust(text: str, width: int) -> str:
    """``text`` padded on the left to ``width`` terminal cells."""
    return " " * max(0, width - cells(text)) + text


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


__all__ = ["Terminal", "cells", "json_text", "ljust", "rjust", "wrap"]
