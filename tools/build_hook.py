"""Hatchling build hook: a wheel of carddb carries the oracle grammar's LALR tables, prebuilt.

Building the tables takes Lark 20–30 s; a wheel that carries them lets the first ``carddb parse``
after ``pip install .`` start in about a second (``carddb/lalr.py`` loads them; docs/architecture.md,
"Where the parser tables come from", says why they are built here). They are built from the very
grammar files the wheel ships, by the Lark of the build environment (``[build-system] requires`` in
pyproject.toml), and land in the wheel as ``carddb/_resources/tables/oracle.tables``. At run time
they are used only if their key (grammar text, Lark options and Lark's version) is the current
one; otherwise carddb builds them once into the user cache.

Editable installs get no prebuilt tables: carddb runs from the checkout, whose grammar changes.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PrebuiltTables(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        root = Path(self.root)
        lalr, grammar = _carddb_modules(root, "carddb.lalr", "carddb.oracle.grammar")
        spec = grammar.oracle_grammar()
        self.app.display_info(f"building the {spec.name} grammar's LALR tables (about half a minute)")
        self._output = tempfile.TemporaryDirectory(prefix="carddb-tables-")
        written = Path(self._output.name) / lalr.prebuilt_path(spec).name
        lalr.store(spec, lalr.build(spec), written)
        inside = lalr.prebuilt_path(spec).relative_to(root.resolve())
        build_data["force_include"][str(written)] = inside.as_posix()

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        output = getattr(self, "_output", None)
        if output is not None:
            output.cleanup()


def _carddb_modules(root: Path, *names: str) -> list[types.ModuleType]:
    """Import carddb modules from the tree being built. ``carddb/__init__.py`` is not run: it opens
    databases (SQLAlchemy, Alembic), which the grammar does not need and the build environment does
    not have; ``carddb`` is given as a bare package of the tree's ``carddb/`` folder instead."""
    saved = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "carddb"}
    for name in saved:
        del sys.modules[name]
    package = types.ModuleType("carddb")
    package.__path__ = [str(root / "carddb")]
    sys.modules["carddb"] = package
    try:
        return [importlib.import_module(name) for name in names]
    finally:
        for name in [name for name in sys.modules if name.split(".")[0] == "carddb"]:
            del sys.modules[name]
        sys.modules.update(saved)
