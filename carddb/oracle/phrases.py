"""The phrase tables: what predicates, conditions, noun qualifiers and restrictions oracle text says.

Each entry of ``grammars/oracle/phrases/*.toml`` is one phrase with one or more written forms::

    [pred]
    draw = ["draw {what:np}", "draws {what:np}"]
    put_into_library.top = "put {what:np} on top of {to:zone}"
    put_into_library.bottom = "put {what:np} on the bottom of {to:zone}"

The forms of an entry are a string, a list (unnamed forms, known by their position) or a table
of *named* forms (``name = "form"`` in order: dotted keys as above, an inline table or a
``[pred.draw]`` table). The engine refers to a form by its name (``Action.form_name``,
:func:`form_index`), never by its position. A form keeps its position as the ``form`` of the parsed
:class:`~carddb.oracle.model.Action` (and in the grammar rule's name), so a new form goes at the
end of its entry.

A form is words and typed slots (``{role:type}``, or ``{type}`` whose role is its type); words in
brackets are one token of the grammar (``"{what:np} [each get] {pt}"``): after a noun, "each" alone
would be read as the start of the qualifier "each player controls" (a conflict the grammar resolves
by shifting), while the lexer prefers the longer token "each get". The one entry is used three
ways, so that parsing and printing cannot drift apart:

* :func:`grammar_rules` turns each form into an LALR rule (``pred__draw__1: "draws" np``) and each
  family into an alternation (``?pred: pred__draw__0 | …``) that the frame grammar uses;
* the grammar's transformer turns a matched rule into ``Action("draw", (("what", …),), form=1)``;
* :func:`template` gives the renderer the form to fill back in.

Families: ``pred`` (what a subject does, or what the ability's controller is told to do, costs
included), ``cond`` (trigger events and conditions after *if*, *unless*, *as long as*),
``qualifier`` (what follows a noun: ``you control``, ``with flying``), ``restriction``
(``Activate only as a sorcery``) and ``value`` (what X is: ``the greatest power among {what:np}``,
after "where X is" and in an ``{amount:x_value}`` slot).
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
    "value": "value",
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
        "energy",
        "planar_symbol",
        "keywords",
        "quoted",
        "color",
        "zone",
        "poss",
        "pred",
        "cond",
        "condition",
        "x_value",
        "value",
        "and_quoted",
        "die",
        "set_name",
        "card_name",
        "lone_np",
        "and_life",
        "token_name",
        "that_many",
        "token_list",
        "placements",
        "counters_list",
    }
)
"""Slot types: rules of the frame grammar (``np`` noun phrase, ``n`` a number in digits or X,
``nw`` one in words, ``both`` two noun phrases joined by "and each", ``die`` a kind of die: "d20"…,
``set_name`` an expansion's name: "Antiquities", ``card_name`` another card's name, or two joined by
"and"/"or": "Nicol Bolas, the Deceiver", ``lone_np`` a noun phrase without qualifiers: "a basic land
card", ``and_life`` "and 2 life" after a mana payment, ``energy`` energy symbols "{E}{E}", 107.14) or
a family (``pred``, ``cond``)."""

_TOKEN = re.compile(r"\{[^}]*\}|\[[^\]]*\]|,|[^\s,{\[]+")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_WORDS_ONLY = re.compile(r"^[^\s{}\[\],]+(?: [^\s{}\[\],]+)+$")


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
    name: str | None = None
    """The form's name in its entry's table of named forms (None: an unnamed form of a list)."""

    @property
    def rule(self) -> str:
        return f"{self.family}__{self.verb}__{self.form}"

    @property
    def slots(self) -> tuple[Slot, ...]:
        return tuple(part for part in self.parts if isinstance(part, Slot))


def _parse_form(
    family: str, verb: str, form: int, text: str, where: str, name: str | None = None
) -> Template:
    parts: list[str | Slot] = []
    roles: set[str] = set()
    for token in _TOKEN.findall(text):
        if token.startswith("["):
            words = " ".join(token[1:-1].split())
            if not words or words != token[1:-1] or not _WORDS_ONLY.match(words):
                raise PhraseTableError(f"{where}: {token!r} in {text!r} is not words joined by single spaces")
            parts.append(words)
            continue
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
    return Template(family, verb, form, text, tuple(parts), name)


def load_tables(directory: Path) -> tuple[Template, ...]:
    """Every form of every entry of the ``*.toml`` tables in ``directory``, in file order."""
    templates: list[Template] = []
    seen: dict[str, str] = {}
    shapes: dict[tuple[str, ...], str] = {}
    for path in sorted(directory.glob("*.toml")):
        source = path.read_text(encoding="utf-8")
        try:
            table = tomllib.loads(source)
        except tomllib.TOMLDecodeError as error:
            raise PhraseTableError(_decode_error(path, source, error)) from error
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
                for index, (name, text) in enumerate(_written(forms, where)):
                    form = _parse_form(family, verb, index, text, where, name)
                    shape = (family, *(p.type if isinstance(p, Slot) else p for p in form.parts))
                    if shape in shapes:
                        raise PhraseTableError(f"{where}: {text!r} is the same phrase as {shapes[shape]}")
                    shapes[shape] = f"{path.name} [{family}] {verb} {text!r}"
                    templates.append(form)
    return tuple(templates)


def _written(forms: object, where: str) -> list[tuple[str | None, str]]:
    """An entry's forms with their names: a string, a list of strings or a table name → string."""
    if isinstance(forms, str):
        return [(None, forms)]
    if isinstance(forms, list) and all(isinstance(text, str) for text in forms):
        return [(None, text) for text in forms]
    if isinstance(forms, dict) and forms and all(isinstance(text, str) for text in forms.values()):
        for name in forms:
            if not _NAME.match(name):
                raise PhraseTableError(f"{where}: form name {name!r}: names are lowercase words joined by _")
        return list(forms.items())
    raise PhraseTableError(f"{where}: the forms are a string, a list of strings or a table of named strings")


_AT_LINE = re.compile(r"\(at line (\d+), column \d+\)")
_KEY = re.compile(r"^([A-Za-z0-9_]+)(?:\.([A-Za-z0-9_]+))?\s*=")
_HEADER = re.compile(r"^\[\s*([A-Za-z0-9_]+)(?:\.([A-Za-z0-9_]+))?\s*\]")


def _decode_error(path: Path, source: str, error: tomllib.TOMLDecodeError) -> str:
    """The TOML error with the file, line, family and entry it is in. A form name given twice in
    one entry is refused by the TOML reader itself ("Cannot overwrite a value")."""
    found = _AT_LINE.search(str(error))
    if found is None:
        return f"{path}: {error}"
    number = int(found.group(1))
    family = entry = None
    for line in reversed(source.splitlines()[:number]):
        line = line.strip()
        key = _KEY.match(line)
        if key is not None and entry is None:
            entry = key.group(1)
        header = _HEADER.match(line)
        if header is not None:
            family = header.group(1)
            entry = header.group(2) or entry  # [pred.put_into_library]: its keys are form names
            break
    where = " ".join(part for part in (f"[{family}]" if family else "", entry or "") if part)
    duplicate = " (a form name given twice in one entry?)" if "overwrite" in str(error) else ""
    return f"{path}:{number}: {where}: {error}{duplicate}"


def _literal(word: str) -> str:
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _symbols(parts: tuple[str | Slot, ...], phrases: frozenset[str]) -> list[str]:
    """A form's grammar symbols. Runs of words that the frame lexes as one token ("this turn",
    "as long as", ", then") become that token, or the frame's token would win and the form would
    never match."""
    longest = max((len(phrase.split()) for phrase in phrases), default=1)
    starts = _prefixes(phrases)
    symbols: list[str] = []
    index = 0
    while index < len(parts):
        part = parts[index]
        if isinstance(part, Slot):
            symbols.append(part.type)
            index += 1
            continue
        if part not in starts:  # no phrase starts with this word: it is a token of its own
            symbols.append(_literal(part))
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


@cache
def _prefixes(phrases: frozenset[str]) -> frozenset[str]:
    """Every beginning of every phrase: a word that is none is never the first of a phrase."""
    return frozenset(phrase[:end] for phrase in phrases for end in range(1, len(phrase) + 1))


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


@cache
def _by_name() -> dict[tuple[str, str], Template]:
    return {(t.verb, t.name): t for t in templates() if t.name is not None}


def form_name(verb: str, form: int) -> str | None:
    """The name of form ``form`` of entry ``verb`` (None: unnamed, or no such form)."""
    found = find(verb, form)
    return found.name if found is not None else None


def form_index(verb: str, name: str) -> int:
    """The position of the form named ``name`` of entry ``verb``; a name the tables do not have
    raises :class:`PhraseTableError` (so code naming a form that was renamed fails loudly)."""
    found = _by_name().get((verb, name))
    if found is None:
        known = ", ".join(t.name for t in templates() if t.verb == verb and t.name) or "none"
        raise PhraseTableError(f"the phrase tables have no form {name!r} of {verb!r} (named forms: {known})")
    return found.form


def form_names(verb: str) -> dict[str, int]:
    """The named forms of entry ``verb``: name → position, in table order."""
    return {t.name: t.form for t in templates() if t.verb == verb and t.name is not None}
