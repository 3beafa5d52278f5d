"""The phrase tables: what predicates, conditions, noun qualifiers and restrictions oracle text says.

Each entry of ``grammars/oracle/phrases/*.toml`` is one phrase with one or more written forms::

    [pred]
    draw = ["draw {what:np}", "draws {what:np}"]

A form is words and typed slots (``{role:type}``, or ``{type}`` whose role is its type). The one
entry is used three ways, so that parsing and printing cannot drift apart:

* :func:`grammar_rules` turns each form into an LALR rule (``pred__draw__1: "draws" np``) and each
  family into an alternation (``?pred: pred__draw__0 | …``) that the frame grammar uses;
* the grammar's transformer turns a matched rule into ``Action("draw", (("what", …),), form=1)``;
* :func:`template` gives the renderer the form to fill back in.

Families: ``pred`` (what a subject does, or what the ability's controller is told to do, costs
included), ``cond`` (trigger events and conditions after *if*, *unless*, *as long as*),
``qualifier`` (what follows a noun: ``you control``, ``with flying``) and ``restriction``
(``Activate only as a sorcery``).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from carddb.errors import CarddbError
from carddb.resources import grammars_dir

FAMILIES = {
    "pred": "pred",
    "cond": "cond",
    "qualifier": "qualifier",
    "restriction": "restriction",
}
"""Family in the tables → the frame grammar's rule that alternates its phrases."""

SLOT_TYPES = frozenset(
    {
        "np",
        "n",
        "nw",
        "counters",
        "counter",
        "pt",
        "both",
        "mana",
        "keywords",
        "quoted",
        "color",
        "zone",
        "poss",
        "pred",
        "cond",
        "condition",
    }
)
"""Slot types: rules of the frame grammar (``np`` noun phrase, ``n`` a number in digits or X,
``nw`` one in words, ``both`` two noun phrases joined by "and each"…) or a family (``pred``, ``cond``)."""

_TOKEN = re.compile(r"\{[^}]*\}|,|[^\s,{]+")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class PhraseTableError(CarddbError):
    """A phrase table is malformed (names the file and entry)."""


@dataclass(frozen=True, slots=True)
class Slot:
    role: str
    type: str


@dataclass(frozen=True, slots=True)
class Template:
    """One written form of a phrase table entry."""

    family: str
    verb: str
    form: int
    text: str
    parts: tuple[str | Slot, ...]
    """Literal words (and commas) and slots, in order."""

    @property
    def rule(self) -> str:
        return f"{self.family}__{self.verb}__{self.form}"

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(part for part in self.parts if isinstance(part, Slot))


def _parse_form(family: str, verb: str, form: int, text: str, where: str) -> Template:
    parts: list[str | Slot] = []
    roles: set[str] = set()
    for token in _TOKEN.findall(text):
        if not token.startswith("{"):
            parts.append(token)
            continue
        role, _, kind = token[1:-1].partition(":")
        kind = kind or role.rstrip("0123456789")
        if kind not in SLOT_TYPES:
            raise PhraseTableError(f"{where}: unknown slot type {kind!r} in {text!r}")
        if role in roles:
            raise PhraseTableError(f"{where}: slot {role!r} appears twice in {text!r}")
        roles.add(role)
        parts.append(Slot(role, kind))
    if family in ("pred", "cond") and parts[:1] == ["you"]:
        # the literal would be lexed where a noun phrase "you" is expected too, and win
        raise PhraseTableError(f"{where}: write {{who:np}} for 'you' at the start of {text!r}")
    if " ".join(_TOKEN.findall(text)).replace(" ,", ",") != text:
        raise PhraseTableError(f"{where}: form {text!r} is not in canonical spacing")
    return Template(family, verb, form, text, tuple(parts))


def load_tables(directory: Path) -> tuple[Template, ...]:
    """Every form of every entry of the ``*.toml`` tables in ``directory``, in file order."""
    templates: list[Template] = []
    seen: dict[str, str] = {}
    shapes: dict[tuple[str, ...], str] = {}
    for path in sorted(directory.glob("*.toml")):
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as error:
            raise PhraseTableError(f"{path}: {error}") from error
        for family, entries in table.items():
            if family not in FAMILIES or not isinstance(entries, dict):
                raise PhraseTableError(f"{path}: unknown family [{family}] (known: {', '.join(FAMILIES)})")
            for verb, forms in entries.items():
                where = f"{path.name} [{family}] {verb}"
                if not _NAME.match(verb):
                    raise PhraseTableError(f"{where}: names are lowercase words joined by _")
                if verb in seen:
                    raise PhraseTableError(f"{where}: {verb!r} is already defined in {seen[verb]}")
                seen[verb] = path.name
                written = [forms] if isinstance(forms, str) else forms
                if not isinstance(written, list) or not all(isinstance(f, str) for f in written):
                    raise PhraseTableError(f"{where}: a form is a string or a list of strings")
                for index, text in enumerate(written):
                    form = _parse_form(family, verb, index, text, where)
                    shape = (family, *(p.type if isinstance(p, Slot) else p for p in form.parts))
                    if shape in shapes:
                        raise PhraseTableError(f"{where}: {text!r} is the same phrase as {shapes[shape]}")
                    shapes[shape] = f"{path.name} [{family}] {verb} {text!r}"
                    templates.append(form)
    return tuple(templates)


def _literal(word: str) -> str:
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _symbols(parts: tuple[str | Slot, ...], phrases: frozenset[str]) -> list[str]:
    """A form's grammar symbols. Runs of words that the frame lexes as one token ("this turn",
    "as long as", ", then") become that token, or the frame's token would win and the form would
    never match."""
    longest = max((len(phrase.split()) for phrase in phrases), default=1)
    symbols: list[str] = []
    index = 0
    while index < len(parts):
        part = parts[index]
        if isinstance(part, Slot):
            symbols.append(part.type)
            index += 1
            continue
        for size in range(longest, 0, -1):
            words = parts[index : index + size]
            if all(isinstance(w, str) for w in words):
                phrase = " ".join(str(w) for w in words).replace(" ,", ",")
                if size == 1 or phrase in phrases:
                    symbols.append(_literal(phrase))
                    index += size
                    break
    return symbols


def grammar_rules(templates: tuple[Template, ...], phrases: frozenset[str] = frozenset()) -> str:
    """Lark rules for the templates, and one alternation per family; ``phrases`` are the frame's
    tokens of several words."""
    lines: list[str] = []
    for family, rule in FAMILIES.items():
        members = [t.rule for t in templates if t.family == family]
        if not members:
            raise PhraseTableError(f"the phrase tables define no [{family}] entries")
        lines.append(f"?{rule}: " + "\n    | ".join(members))
    for template in templates:
        symbols = _symbols(template.parts, phrases)
        lines.append(f"{template.rule}: {' '.join(symbols)}")
    return "\n".join(lines) + "\n"


@cache
def templates() -> tuple[Template, ...]:
    return load_tables(grammars_dir() / "oracle" / "phrases")


@cache
def by_rule() -> dict[str, Template]:
    return {template.rule: template for template in templates()}


@cache
def _by_verb() -> dict[tuple[str, int], Template]:
    return {(template.verb, template.form): template for template in templates()}


def template(verb: str, form: int) -> Template:
    """The written form ``form`` of the entry ``verb``."""
    return _by_verb()[(verb, form)]


def find(verb: str, form: int) -> Template | None:
    """The written form, or None for an action of the frame grammar itself (``zone``, ``counters``)."""
    return _by_verb().get((verb, form))
