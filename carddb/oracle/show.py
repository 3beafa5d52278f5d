"""Showing parsed faces to people (a readable tree) and machines (JSON)."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from carddb.oracle.model import Ability, ParsedFace, TargetSlot
from carddb.oracle.render import render_ability


def _plain(value: Any) -> Any:
    """Model values as JSON-ready data, each node tagged with its type."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        data = {"node": type(value).__name__}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if field.name == "slot" and item is None and not isinstance(value, TargetSlot):
                continue  # only the nodes that name a target say which
            if field.metadata.get("omit_default") and item == field.default:
                continue  # a rarely used field, said only where it is used
            data[field.name] = _plain(item)
        return data
    if isinstance(value, tuple | list):
        if value and all(
            isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) for item in value
        ):
            return {key: _plain(item) for key, item in value}
        return [_plain(item) for item in value]
    return value


def face_to_dict(face: ParsedFace) -> dict[str, Any]:
    """The face as JSON-ready data; ``as_written`` and ``rendered_as_written`` only for text the
    grammar reads in other words (another era's wording than the 2022 templates, "this spell" for
    ``~``: :mod:`carddb.oracle.wording`)."""
    written = (
        {"as_written": face.as_written, "rendered_as_written": face.rendered_as_written}
        if _other_wording(face)
        else {}
    )
    return {
        "complete": face.complete,
        "normalized": face.normalized,
        "rendered": face.rendered,
        **written,
        "reminders": list(face.reminders),
        "unimplemented": [node.text for node in face.unimplemented],
        "abilities": [_plain(ability) for ability in face.abilities],
    }


def _other_wording(face: ParsedFace) -> bool:
    return bool(face.as_written) and face.as_written != face.normalized


def _tree(value: Any, indent: int) -> list[str]:
    pad = "  " * indent
    lines: list[str] = []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        lines.append(f"{pad}{type(value).__name__}")
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if item in ((), None, "", False) or field.name == "span":
                continue
            if field.metadata.get("omit_default") and item == field.default:
                continue
            if isinstance(item, tuple | list) or dataclasses.is_dataclass(item):
                lines.append(f"{pad}  {field.name}:")
                lines.extend(_tree(item, indent + 2))
            else:
                lines.append(f"{pad}  {field.name}: {_plain(item)}")
    elif isinstance(value, tuple | list):
        for item in value:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
                if dataclasses.is_dataclass(item[1]):
                    lines.append(f"{pad}{item[0]}:")
                    lines.extend(_tree(item[1], indent + 1))
                else:
                    lines.append(f"{pad}{item[0]}: {_plain(item[1])}")
            else:
                lines.extend(_tree(item, indent))
    else:
        lines.append(f"{pad}{value}")
    return lines


def format_ability(ability: Ability) -> str:
    header = f"{ability.kind.value}: {render_ability(ability).splitlines()[0]}"
    return "\n".join([header, *_tree(ability, 1)])


def format_face(face: ParsedFace) -> str:
    status = "complete" if face.complete else f"incomplete ({len(face.unimplemented)} unimplemented)"
    written = [f"as written: {face.rendered_as_written}"] if _other_wording(face) else []
    parts = [status, *written, *(format_ability(ability) for ability in face.abilities)]
    return "\n".join(parts)
