"""The one place that finds carddb's resource folders: ``migrations/``, ``grammars/`` and ``data/``;
the prebuilt parser tables a wheel carries; and the user cache directory.

In a checkout (or an editable install) the folders sit beside the ``carddb`` package; a built wheel
carries them inside the package as ``carddb/_resources/<name>`` (see ``pyproject.toml``).
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from platformdirs import user_cache_dir

_PACKAGE_DIR = Path(__file__).resolve().parent

CACHE_DIR_ENV = "CARDDB_CACHE_DIR"


@cache
def resource_dir(name: str) -> Path:
    """Return the folder holding resource ``name`` (``migrations``, ``grammars`` or ``data``)."""
    for candidate in (_PACKAGE_DIR / "_resources" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"carddb resource folder {name!r} not found beside or inside {_PACKAGE_DIR}")


def migrations_dir() -> Path:
    return resource_dir("migrations")


def grammars_dir() -> Path:
    return resource_dir("grammars")


def data_dir() -> Path:
    return resource_dir("data")


def sample_dir() -> Path:
    """The small real MTGJSON sample shipped with carddb."""
    return data_dir() / "sample"


def prebuilt_tables_dir() -> Path:
    """Where a built wheel carries the LALR tables built at wheel build time (``tools/build_hook.py``);
    a checkout has no such folder."""
    return _PACKAGE_DIR / "_resources" / "tables"


def cache_dir() -> Path:
    """carddb's user cache directory: ``$CARDDB_CACHE_DIR``, else the platform's (``$XDG_CACHE_HOME/carddb``,
    ``~/.cache/carddb`` on Linux). Never the temporary directory, which is cleaned behind our back."""
    return Path(os.environ.get(CACHE_DIR_ENV) or user_cache_dir("carddb", appauthor=False))
