"""The engine's catalog (issue 13, item 1): one explicit catalog built by explicit imports, entries
refused when declared twice, every verb and form it names present in the phrase tables, and a
one-way house of modules (no import cycle, no import inside a function)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from carddb.engine.actions import play
from carddb.engine.catalog import CATALOG
from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, DuplicateEntryError, Section
from carddb.engine.core.decisions import ScriptedDecider
from carddb.engine.core.errors import NotExecutableError
from carddb.engine.core.forms import is_form, named
from carddb.engine.core.state import Game, Player, Step
from carddb.engine.query.executable import check_object
from carddb.oracle.model import Action
from carddb.oracle.phrases import PhraseTableError, templates

ENGINE = Path(__file__).resolve().parent.parent / "carddb" / "engine"


def _noop(ctx: object, subject: object, action: object) -> None:
    return None


def test_a_verb_declared_by_two_sections_is_refused() -> None:
    first, second = Section("one", verbs={"draw": _noop}), Section("two", verbs={"draw": _noop})
    with pytest.raises(DuplicateEntryError, match="verbs 'draw' is declared by both one and two"):
        Catalog.of(first, second)


def test_a_keyword_declared_by_two_sections_is_refused() -> None:
    with pytest.raises(DuplicateEntryError, match="keywords 'flying'"):
        Catalog.of(Section("a", keywords=frozenset({"flying"})), Section("b", keywords=frozenset({"flying"})))


def test_importing_the_state_alone_registers_nothing() -> None:
    """No table is filled by importing a module: the lower layers have no catalog of their own, and
    the catalog is what ``carddb.engine.catalog`` builds when it is imported explicitly."""
    code = (
        "import carddb.engine.core.state, carddb.engine.query.executable, carddb.engine.rules.execution\n"
        "import sys\n"
        "assert 'carddb.engine.catalog' not in sys.modules\n"
        "assert 'carddb.engine.effects.cards' not in sys.modules\n"
        "from carddb.engine.catalog import CATALOG\n"
        "print(len(CATALOG.verbs))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(result.stdout) == len(CATALOG.verbs) > 50


def test_every_name_the_catalog_uses_is_in_the_phrase_tables() -> None:
    known = {t.verb for t in templates()}
    forms = {(t.verb, t.name) for t in templates()}
    for kind in ("verbs", "conditions", "qualifiers", "forms", "triggers", "static_verbs", "restrictions"):
        assert [name for name in getattr(CATALOG, kind) if name not in known] == [], kind
    assert [(v, f) for v, fs in CATALOG.forms.items() for f in fs if (v, f) not in forms] == []
    assert [(v, f) for v, (_, fs) in CATALOG.triggers.items() for f in fs or () if (v, f) not in forms] == []


def test_a_form_the_tables_do_not_name_is_an_error() -> None:
    with pytest.raises(PhraseTableError, match="no form 'tapped' of 'return_from'"):
        named("return_from", "tapped")
    assert is_form(Action("return_from", (), 2), "to_battlefield_tapped")


def test_the_engine_has_no_import_cycle() -> None:
    graph = grimp.build_graph("carddb", exclude_type_checking_imports=True)
    modules = sorted(m for m in graph.modules if m.startswith("carddb.engine."))
    for module in modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith("carddb.engine.") and imported != module:
                assert not graph.chain_exists(imported, module), f"{module} <-> {imported}"


def test_no_engine_module_imports_inside_a_function() -> None:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found += [
                    f"{path.name}:{inner.lineno}"
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.Import | ast.ImportFrom)
                ]
    assert found == []


def test_the_python_api_raises_for_an_object_with_an_unsupported_ability() -> None:
    game = Game({"Alice": Player("Alice"), "Bob": Player("Bob")}, "Alice", Step.MAIN1, catalog=CATALOG)
    breezekeeper = CardDef("Breezekeeper", "Creature — Djinn", "Flying\nPhasing", "{3}{U}", "4", "4")
    with pytest.raises(NotExecutableError, match="Breezekeeper: cannot execute keyword phasing"):
        check_object(game.create(breezekeeper, "Bob", "hand"), CATALOG)
    call = CardDef("Banding Call", "Sorcery", "Create a 1/1 white Soldier creature token with banding.")
    spell = game.create(call, "Alice", "hand")
    game.create(CardDef("Plains", "Basic Land — Plains"), "Alice", "battlefield")
    before = game.fingerprint()
    # the token's keywords are the creating effect's (111.4): the spell is refused as it is cast
    with pytest.raises(NotExecutableError, match="Banding Call: cannot execute token with keyword banding"):
        play.cast(game, ScriptedDecider(), "Alice", spell)
    assert game.fingerprint() == before  # refused: nothing happened
