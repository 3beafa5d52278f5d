"""Corpus check for every era's wording: how many faces parse completely in the 2024–2026 ("current")
and the older (2019–2020) Oracle templates.

The shared corpus holds only the 2022 Oracle text (``../shared/corpus/oracle-faces-20220425.jsonl.xz``).
This script **derives** the other eras' text from it by the documented template changes, rule by
rule (never card by card), so the figures are those of *derived* text, not of real Oracle text of
those eras (which differs in ways no rule here knows: errata, one-off rewordings):

current (the 2024 Oracle update, Duskmourn/Foundations):
  * "enters the battlefield" → "enters" ("enter", "entering"), and "… enters the battlefield under
    your control" → "… you control enters" after a noun phrase beginning with a/an/another/one or more;
  * a nonlegendary permanent's name → "this creature" (artifact creature and enchantment creature
    too), "this Equipment", "this Vehicle", "this Aura", "this Saga", "this artifact", "this
    enchantment", "this land", "this planeswalker", "this battle"; an instant's or sorcery's
    name → "this spell"; outside quoted text;
older (the Oracle text before the 2021 updates):
  * "mana value" → "converted mana cost";
  * "Activate only …" → "Activate this ability only …", "Activate only as a sorcery" → "Activate
    this ability only any time you could cast a sorcery";
  * "then shuffle." → "then shuffle your library.", "then shuffle and put that card on top" →
    "then shuffle your library and put that card on top of it", "…this way, shuffle." → "…this
    way, shuffle it.", "then shuffles." → "then shuffles their library.".

For each era: faces, the faces whose text the era's rules change, and of those how many parse
completely and how many parse into the same abilities as the 2022 text; and the complete rate of
all faces (unchanged faces count as they parse in 2022).

    python benchmarks/oracle_eras.py
    python benchmarks/oracle_eras.py --limit 3000 --show 5

Exit status: 0 when every era's complete rate is at least ``--target`` (default 0.80), 1 when one is
below it, 2 when the faces file is absent (a fresh clone has no ``../shared``).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from carddb.oracle import parse_oracle
from carddb.oracle.faces import Face, read_faces

REPO = Path(__file__).resolve().parent.parent
FACES = REPO.parent / "shared" / "corpus" / "oracle-faces-20220425.jsonl.xz"

Derive = Callable[[Face], str]


def _outside_quotes(text: str, change: Callable[[str], str]) -> str:
    parts = text.split('"')
    return '"'.join(change(part) if index % 2 == 0 else part for index, part in enumerate(parts))


_UNDER_YOUR_CONTROL = re.compile(
    r"\b((?:a|an|another|one or more) (?:[a-z][\w-]* ){0,3}?"
    r"(?:creature|creatures|land|lands|artifact|artifacts|permanent|permanents|enchantment|enchantments|"
    r"token|tokens|[A-Z][a-z]+s?)) "
    r"(enters?) the battlefield under your control\b"
)
_UNDER_AN_OPPONENTS_CONTROL = re.compile(
    _UNDER_YOUR_CONTROL.pattern.replace("under your control", "under an opponent's control")
)
_ENTERS = re.compile(r"\b(enters|enter|entering) the battlefield\b")


def _self_phrase(face: Face) -> str | None:
    """What the 2024 templates call a nonlegendary permanent or a spell instead of its name."""
    type_line = face.type_line or ""
    if "Legendary" in type_line:
        return None
    for word, phrase in (
        ("Creature", "this creature"),
        ("Equipment", "this Equipment"),
        ("Vehicle", "this Vehicle"),
        ("Aura", "this Aura"),
        ("Saga", "this Saga"),
        ("Artifact", "this artifact"),
        ("Enchantment", "this enchantment"),
        ("Land", "this land"),
        ("Planeswalker", "this planeswalker"),
        ("Battle", "this battle"),
        ("Instant", "this spell"),
        ("Sorcery", "this spell"),
    ):
        if re.search(rf"\b{word}\b", type_line):
            return phrase
    return None


def _self_references(face: Face, text: str) -> str:
    phrase = _self_phrase(face)
    name = face.parser_name
    if phrase is None or not name:
        return text
    pattern = re.compile(rf"(?<![\w~]){re.escape(name)}(?![\w])")

    def change(part: str) -> str:
        return pattern.sub(lambda m: _capitalized(phrase, part, m.start()), part)

    return _outside_quotes(text, change)


def _capitalized(phrase: str, text: str, start: int) -> str:
    before = text[:start].rstrip(" ")
    first = not before or before.endswith((".", "\n", ":", "—", "•")) or before.endswith('"')
    return phrase[0].upper() + phrase[1:] if first else phrase


def current(face: Face) -> str:
    text = face.text
    text = _UNDER_YOUR_CONTROL.sub(r"\1 you control \2", text)
    text = _UNDER_AN_OPPONENTS_CONTROL.sub(r"\1 an opponent controls \2", text)
    text = _ENTERS.sub(r"\1", text)
    return _self_references(face, text)


_OLDER: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bmana values\b"), "converted mana costs"),
    (re.compile(r"\bmana value\b"), "converted mana cost"),
    (
        re.compile(r"\bActivate only as a sorcery\b"),
        "Activate this ability only any time you could cast a sorcery",
    ),
    (re.compile(r"\bActivate only\b"), "Activate this ability only"),
    (re.compile(r"\band only as a sorcery\b"), "and only any time you could cast a sorcery"),
    (
        re.compile(r"\bshuffle and put (that card|them|it) on top\b"),
        r"shuffle your library and put \1 on top of it",
    ),
    (re.compile(r"\b([Tt]hen|this way,) shuffle(?=\.)"), r"\1 shuffle your library"),
    (re.compile(r"\bthis way, shuffle your library(?=\.)"), "this way, shuffle it"),
    (re.compile(r"\b(then|that player) shuffles(?=\.)"), r"\1 shuffles their library"),
    # before Core Set 2020 (2019): "can block an additional creature" without "each combat"
    (re.compile(r"\bcan block an additional creature each combat\b"), "can block an additional creature"),
)


_AMOUNT = (
    r"(a card|(?:X|\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fifteen|"
    r"twenty) cards)"
)
_DIE_SIDES = {
    "4": "four",
    "6": "six",
    "8": "eight",
    "10": "ten",
    "12": "twelve",
    "20": "twenty",
    "100": "hundred",
}


def _top(amount: str) -> str:
    return "the top card" if amount == "a card" else f"the top {amount}"


def _die(match: re.Match[str]) -> str:
    count, sides = match.group(2), _DIE_SIDES[match.group(3)]
    return f"{match.group(1)} {count} {sides}-sided {'die' if count in ('a', 'one') else 'dice'}"


_OLDER_CALLS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    # before Core Set 2021 (2020), milling was "putting the top N cards of a library into a graveyard"
    (
        re.compile(rf"\b([Yy]ou) mill {_AMOUNT}"),
        lambda m: f"{m.group(1)} put {_top(m.group(2))} of your library into your graveyard",
    ),
    (
        re.compile(rf"(?<!you )\b(M|m)ill {_AMOUNT}"),
        lambda m: (
            f"{m.group(1).replace('M', 'P').replace('m', 'p')}ut {_top(m.group(2))} of your library"
            " into your graveyard"
        ),
    ),
    (
        re.compile(rf"\bmills {_AMOUNT}"),
        lambda m: f"puts {_top(m.group(1))} of their library into their graveyard",
    ),
    # before Adventures in the Forgotten Realms (2021): "roll a six-sided die"
    (re.compile(r"\b([Rr]olls?) (a|one|two|three) d(4|6|8|10|12|20|100)\b"), _die),
)


def older(face: Face) -> str:
    text = face.text
    for pattern, replacement in _OLDER:
        text = pattern.sub(replacement, text)
    for pattern, call in _OLDER_CALLS:
        text = pattern.sub(call, text)
    return text


ERAS: dict[str, Derive] = {"current": current, "older": older}


@dataclass
class Tally:
    faces: int = 0
    complete: int = 0
    changed: int = 0
    changed_complete: int = 0
    changed_same: int = 0
    seconds: float = 0.0
    examples: list[tuple[str, str]] = field(default_factory=list)

    def line(self, era: str) -> str:
        rate = self.complete / self.faces if self.faces else 0.0
        changed = self.changed_complete / self.changed if self.changed else 0.0
        same = self.changed_same / self.changed if self.changed else 0.0
        cells = (self.faces, self.complete, rate, self.changed, self.changed_complete, changed)
        return _ROW.format(era, *(_cell(c) for c in (*cells, self.changed_same, same)), f"{self.seconds:.1f}")


_ROW = "{:<8} {:>7} {:>8} {:>7}   {:>7} {:>8} {:>7} {:>7} {:>7}  {:>7}"


def _cell(value: float) -> str:
    """A count (int) or a rate (float)."""
    return f"{value:,}" if isinstance(value, int) else f"{value:.1%}"


def arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--faces", type=Path, default=FACES, help="the 2022 faces file (default: the shared corpus)"
    )
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N faces")
    parser.add_argument("--target", type=float, default=0.80, help="the complete rate each era must reach")
    parser.add_argument(
        "--show", type=int, default=3, metavar="N", help="derived faces not parsed, per era, to show"
    )
    args = parser.parse_args(argv)
    if (args.limit is not None and args.limit < 1) or args.show < 0:
        parser.error("--limit must be at least 1, --show at least 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments(argv)
    if not args.faces.is_file():
        print(f"no faces file at {args.faces} (the shared corpus is absent; --faces PATH)", file=sys.stderr)
        return 2
    faces = [face for face in read_faces(args.faces) if face.text]
    if args.limit is not None:
        faces = faces[: args.limit]
    print("DERIVED TEXT: the current and older wordings below are rewritten from the 2022 corpus by the")
    print("template rules in this script's docstring; they are not real Oracle text of those eras.")
    print(f"faces file: {args.faces}\n")
    print(
        _ROW.format(
            "era", "faces", "complete", "rate", "changed", "complete", "rate", "same", "rate", "seconds"
        )
    )
    tallies = {"2022": Tally(), **{era: Tally() for era in ERAS}}
    for face in faces:
        start = time.perf_counter()
        reference = parse_oracle(face.text, face.parser_name, face.type_line)
        tallies["2022"].seconds += time.perf_counter() - start
        tallies["2022"].faces += 1
        tallies["2022"].complete += reference.complete
        for era, derive in ERAS.items():
            tally = tallies[era]
            text = derive(face)
            tally.faces += 1
            if text == face.text:
                tally.complete += reference.complete
                continue
            start = time.perf_counter()
            parsed = parse_oracle(text, face.parser_name, face.type_line)
            tally.seconds += time.perf_counter() - start
            tally.changed += 1
            tally.complete += parsed.complete
            tally.changed_complete += parsed.complete
            tally.changed_same += parsed.abilities == reference.abilities
            if not parsed.complete and reference.complete and len(tally.examples) < args.show:
                tally.examples.append((face.parser_name, text))
    for era, tally in tallies.items():
        print(tally.line(era))
    print("\n(changed: faces whose text the era's rules rewrite; same: of those, parsed into the very")
    print("abilities of the 2022 text)")
    for era, tally in tallies.items():
        for name, text in tally.examples:
            print(f"\n{era}, parsed in 2022 but not in this wording: {name}\n  " + text.replace("\n", "\n  "))
    below = [
        era for era in ERAS if tallies[era].faces and tallies[era].complete / tallies[era].faces < args.target
    ]
    if below:
        print(f"\nbelow the target of {args.target:.0%}: {', '.join(below)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
