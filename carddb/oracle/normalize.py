"""Normalizing oracle text before it is parsed, and the canonical form the renderer prints.

* the card's own name and a legendary card's short name ("Farideh" for "Farideh, Devil's Chosen")
  become one self reference, ``~`` — inside a quoted ability too, where it names the object whose
  text holds the quote (the Equipment that grants "Sacrifice ~: …"), not the one that has it;
* the wording of other eras becomes the one the grammar reads (:mod:`carddb.oracle.wording`, the
  2022 Oracle templates): "this creature/spell/Equipment/…" is ``~`` (outside quoted text, where "this
  creature" means the object the quote is granted to), the 2024 "enters" is "enters the
  battlefield", the older "converted mana cost" is "mana value", "Activate this ability only any
  time you could cast a sorcery" is "Activate only as a sorcery", "roll a six-sided die" is "roll
  a d6"… Each rewrite is kept (:class:`Reworded`), so that :meth:`Normalized.restore` prints a
  parse back in the wording it came in: ``Normalized.written``;
* reminder text in parentheses is set aside (kept for display) and removed;
* typographic quotes become ASCII quotes, the minus sign and en dash become ``-``, full-width
  digits and X become ASCII, a spaced dash after a keyword's long cost (``Ward — Pay 2 life.``)
  becomes the unspaced one, and a hyphen between die-result numbers (``1-14 |``) an em dash;
* lines are split on line breaks, spaces collapsed, empty lines dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from carddb.oracle.keywords import Shape, lookup
from carddb.oracle.wording import Reworded, restore_loosely, reword

_CHARACTERS = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2212": "-",
        "\u2013": "-",
        "\uff38": "X",
        **{chr(0xFF10 + d): str(d) for d in range(10)},
    }
)
_TRANSLATED = re.compile("[" + "".join(chr(c) for c in _CHARACTERS) + "]")
"""A character :data:`_CHARACTERS` changes (most texts have none: translating is skipped)."""
_REMINDER = re.compile(r"\s*\((?:[^()]|\([^()]*\))*\)")
_SPACES = re.compile(r"[ \t\u00a0\u3000]+")
_TABLE_RANGE = re.compile(r"^(\d+)\s*[-—]\s*(\d+)\s*\|")
# "Name — cost" where Name may be a keyword with a cost (the keyword table decides), so that
# "Ward — Pay 2 life." reads as "Ward—Pay 2 life." while ability words keep their spaced dash.
_SPACED_DASH = re.compile(r"^([A-Z][A-Za-z' -]*?)( \d+| X)?\s+—\s+(?=\S)")
_COST_SHAPES = frozenset({Shape.COST, Shape.LONG, Shape.NUMBER_COST})


@dataclass(frozen=True, slots=True)
class Normalized:
    """Normalized text (lines joined by ``\\n``) and the reminder texts removed from it."""

    text: str
    reminders: tuple[str, ...]
    reworded: tuple[Reworded, ...] = ()
    """Every place whose wording was changed to the canonical one, in text order."""

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n") if self.text else []

    @property
    def written(self) -> str:
        """The normalized text in the wording it was written in ("When this creature enters, …")."""
        return self.restore(self.text)

    def restore(self, text: str) -> str:
        """``text`` (the normalized text, or a parse of it printed back) in the wording the face was
        written in. A text that differs from the normalized one gets each rewording back at the same
        occurrence of its canonical words."""
        if not self.reworded:
            return text
        if text == self.text:
            parts, position = [], 0
            for place in self.reworded:
                parts += [text[position : place.start], place.written]
                position = place.end
            return "".join([*parts, text[position:]])
        return restore_loosely(self.text, self.reworded, text)


_REBALANCED = "A-"
"""The prefix of a rebalanced Alchemy card's name (Scryfall and MTGJSON: "A-Elven Bow")."""


def _self_names(name: str | None) -> tuple[str, ...]:
    """The card's name and a legendary card's short name, longest first. A rebalanced Alchemy
    card ("A-Elven Bow") calls itself by the name without its "A-" (its text says "When Elven Bow
    enters the battlefield"): that name too (201.5: its name in its text means the card itself)."""
    if not name:
        return ()
    names = {name.strip()}
    if name.startswith(_REBALANCED):
        names.add(name.removeprefix(_REBALANCED).strip())
    for full in list(names):
        if "," in full:
            names.add(full.split(",")[0].strip())
    return tuple(sorted((n for n in names if n), key=len, reverse=True))


def _replace_names(
    text: str, names: tuple[str, ...], kept: Callable[[str, str, int], bool] | None = None
) -> str:
    """Each whole-word occurrence of one of ``names`` becomes ``~`` (plain string search: a
    pattern compiled per card would cost more than all the rest of normalizing), unless ``kept``
    says this one stays (given the text, the name and where it starts)."""
    for name in names:
        start = text.find(name)
        while start != -1:
            end = start + len(name)
            before = text[start - 1] if start else " "
            after = text[end] if end < len(text) else " "
            whole = not (before.isalnum() or before in "_~") and not (after.isalnum() or after == "_")
            if whole and (kept is None or not kept(text, name, start)):
                text = text[:start] + "~" + text[end:]
                end = start + 1
            start = text.find(name, end)
    return text


_NAMED = re.compile(r"\bnamed $")
"""A name after "named" is a name ("a card named ~" in a token's ability: the card, by name)."""
_PROPER_NOUN = re.compile(r"'s [A-Z]| planeswalker")
"""A short name that starts another proper noun ("Ajani's Pridemate") or is a planeswalker type
("a Lukka planeswalker"), not ~."""
_DETERMINED = re.compile(r"\b(?:each|a|an|another|other|target) $")
"""A short name after a determiner is a planeswalker type ("each Garruk you control")."""


def _in_quotes(text: str, names: tuple[str, ...]) -> str:
    """The card's name inside quoted text (a granted ability: "Equipped creature has \"Sacrifice
    Blazing Torch: …\"") is ``~`` too: it names the object whose text holds the quote, which may
    grant it to another object ("this creature" there is the one that has it). Left as written: a
    quote that is only the name (a word to say, "Say \"Toy Boat\""), a name after "named", and a
    short name that is part of another proper noun or a planeswalker type."""
    if text.strip() in names:
        return text
    full = names[0]

    def kept(text: str, name: str, start: int) -> bool:
        if _NAMED.search(text, 0, start) is not None:
            return True
        short = name != full
        proper = _PROPER_NOUN.match(text, start + len(name)) is not None
        return short and (proper or _DETERMINED.search(text, 0, start) is not None)

    return _replace_names(text, names, kept)


def _self_references(line: str, names: tuple[str, ...]) -> str:
    """The name becomes ``~`` outside quotes and, as :func:`_in_quotes` says, inside them."""
    parts = line.split('"')
    for index, part in enumerate(parts):
        parts[index] = _replace_names(part, names) if index % 2 == 0 else _in_quotes(part, names)
    return '"'.join(parts)


def _unspace_long_cost(match: re.Match[str]) -> str:
    spec = lookup(match.group(1))
    if spec is None or spec.shape not in _COST_SHAPES:
        return match.group(0)
    return f"{match.group(1)}{match.group(2) or ''}—"


def normalize_oracle(text: str | None, name: str | None = None) -> Normalized:
    """The canonical form of ``text`` (a face's oracle text) for the card named ``name``."""
    if not text:
        return Normalized("", ())
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _TRANSLATED.search(text):
        text = text.translate(_CHARACTERS)
    reminders: list[str] = []

    def set_aside(match: re.Match[str]) -> str:
        reminders.append(match.group(0).strip())
        return ""

    names = _self_names(name)
    lines: list[str] = []
    reworded: list[Reworded] = []
    offset = 0
    for raw_line in text.split("\n"):
        # each rewrite is tried only on a line with the characters it needs
        line = _REMINDER.sub(set_aside, raw_line) if "(" in raw_line else raw_line
        line = _SPACES.sub(" ", line).strip()
        if not line:
            continue
        if any(name in line for name in names):
            line = _self_references(line, names)
        if "—" in line:
            line = _SPACED_DASH.sub(_unspace_long_cost, line)
        if "|" in line:
            line = _TABLE_RANGE.sub(r"\1—\2 |", line)
        line = reword(line, offset, reworded)
        lines.append(line)
        offset += len(line) + 1
    return Normalized("\n".join(lines), tuple(reminders), tuple(reworded))
