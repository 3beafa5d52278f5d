"""carddb: a multilingual Magic: The Gathering card database.

>>> import carddb
>>> db = carddb.open("sqlite://")          # in memory; carddb.open() uses the default file
>>> summary = db.import_path(carddb.resources.sample_dir())
>>> db.card("Unterreich-Spalte", lang="ja").name
'アンダーダークの裂け目'

The package is a lazy façade (PEP 562): ``import carddb`` loads nothing else, and each public name
imports its module the first time it is used, so that ``carddb --version`` or a program that only
needs :mod:`carddb.text` does not pay for SQLAlchemy, Alembic or the grammars.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from carddb import resources
    from carddb.database import Database
    from carddb.database import open_database as open
    from carddb.errors import CarddbError

__all__ = ["CarddbError", "Database", "open", "resources"]
__version__ = "0.1.0"

# public name -> (module, attribute in it; None for the module itself)
_LAZY: dict[str, tuple[str, str | None]] = {
    "CarddbError": ("carddb.errors", "CarddbError"),
    "Database": ("carddb.database", "Database"),
    "open": ("carddb.database", "open_database"),
    "resources": ("carddb.resources", None),
}


def __getattr__(name: str) -> Any:
    try:
        module_name, attribute = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'carddb' has no attribute {name!r}") from None
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value  # later look-ups do not come back here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
