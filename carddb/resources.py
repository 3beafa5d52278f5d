"""The one place that finds carddb's resource folders: ``migrations/``, ``grammars/`` and ``data/``.

In a checkout (or an editable install) they sit beside the ``carddb`` package; a built wheel carries
them inside the package as ``carddb/_resources/<name>`` (see ``pyproject.toml``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


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
