"""The oracle-text grammar: rules text into typed abilities, and back.

>>> from carddb.oracle import parse_oracle
>>> face = parse_oracle("{T}: Add {C}.", name="Underdark Rift", type_line="Land")
>>> face.abilities[0].kind.value, face.complete
('mana', True)

The package's names are imported on first use, so that its light modules
(``carddb.oracle.keywords``, which the importer and the rules notes, and so every ``carddb``
command, import; ``carddb.oracle.model``) do not load the parser, its grammar and Lark.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carddb.oracle.model import ParsedFace
    from carddb.oracle.parse import parse_oracle
    from carddb.oracle.render import render

__all__ = ["ParsedFace", "parse_oracle", "render"]

_HOMES = {
    "ParsedFace": "carddb.oracle.model",
    "parse_oracle": "carddb.oracle.parse",
    "render": "carddb.oracle.render",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value
