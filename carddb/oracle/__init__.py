"""The oracle-text grammar: rules text into typed abilities, and back.

>>> from carddb.oracle import parse_oracle
>>> face = parse_oracle("{T}: Add {C}.", name="Underdark Rift", type_line="Land")
>>> face.abilities[0].kind.value, face.complete
('mana', True)

The names below are imported when first used (PEP 562), so that a module that needs only a part
of this package (:mod:`carddb.oracle.keywords`, the keyword table; :mod:`carddb.oracle.model`)
does not load the grammar and Lark with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carddb.oracle.model import ParsedFace
    from carddb.oracle.parse import parse_oracle
    from carddb.oracle.render import render

__all__ = ["ParsedFace", "parse_oracle", "render"]

_LAZY = {
    "ParsedFace": "carddb.oracle.model",
    "parse_oracle": "carddb.oracle.parse",
    "render": "carddb.oracle.render",
}


def __getattr__(name: str) -> Any:
    try:
        module = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'carddb.oracle' has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
