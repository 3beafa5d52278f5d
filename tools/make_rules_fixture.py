"""Cut the Comprehensive Rules excerpt in ``tests/fixtures/rules/`` from the shared corpus.

The tests must not need ``../shared``, so they read a small real excerpt of the published rules
file instead, in its published form (UTF-8 with a BOM, CRLF line ends)::

    python tools/make_rules_fixture.py --rules ../shared/corpus/rules/MagicCompRules-20250207.txt.xz \
        --out tests/fixtures/rules

It keeps, byte for byte: everything before the rules (title, edition date, Introduction, the
whole table of contents); the numbered rules listed in ``KEEP`` (a number keeps its subrules,
``*`` keeps a whole section), each with the chapter and section lines above it, its examples and
continued paragraphs; the glossary entries in ``TERMS``; everything from ``Credits`` to the end.
Lines are chosen with this script's own reading of the file, not carddb's parser, so that the
fixture does not take the shape of the code it tests.

It also writes a second copy standing for a *newer* edition (synthetic, for the "a newer edition
replaces the stored one" test): the same excerpt with both edition dates set to ``NEWER_DATE``,
rule ``DROPPED_RULE`` and the glossary entry ``DROPPED_TERM`` removed.

Standard library only; the output is reproducible (xz with fixed settings).
"""

from __future__ import annotations

import argparse
import lzma
import re
import sys
from pathlib import Path

KEEP = (
    "100.*",  # section 100 whole: the first rules of the file
    "107.3",  # X, where the glossary entries X and Y lead
    "119.1",  # 119.1d is written "119.1d." in the published file
    "205.4",  # 205.4c goes on in an indented paragraph
    "400.7",  # 400.7k: "See rule 400.7k" in 702.35c and in rulings
    "509.1",  # 509.1b: an indented paragraph, then an example
    "601.2",  # 601.2b, 601.2f–h: the rules madness points to
    "603.6",
    "603.10",
    "606.5",  # written without its period: "606.5 If the total…"
    "702.19",  # trample: "rules 702.19c–e" style ranges
    "702.35",  # madness
    "901.4",  # written without the space: "901.4.All plane…"
)
TERMS = (
    "Ability",  # numbered definitions ("1. …", "2. …"), a section mention
    "Bury (Obsolete)",  # names no rule
    "Card Pool",  # names no rule
    "Casualty",  # "See 702.153": a bare number, not in the excerpt
    "Kicker, Kicked",  # two names in one term
    "Madness",
    "Trample",
    "X",
    "Y",  # "See X."
    "Zone-Change Triggers",
)
OLD_DATE = "February 7, 2025"
NEWER_DATE = "March 3, 2025"
DROPPED_RULE = "702.35c"
DROPPED_TERM = "Card Pool"

_NUMBER = re.compile(r"^(\d+)\.(\d+[a-z]?)?")


def _keeps(number: str) -> bool:
    """Whether a rule number (as written, ``702.35a``) is one of ``KEEP`` or below one."""
    for keep in KEEP:
        if keep.endswith(".*"):
            if number.split(".")[0] == keep[:-2]:
                return True
        elif number == keep or (number.startswith(keep) and number[len(keep) :].isalpha()):
            return True
    return False


def cut(lines: list[str]) -> list[str]:
    """The excerpt's lines (without line ends)."""
    contents = lines.index("Contents")
    rules_start = lines.index("Credits", contents) + 1  # the contents end with their Credits entry
    glossary = lines.index("Glossary", rules_start)
    credits = lines.index("Credits", glossary)
    out = lines[:rules_start]
    out.append("")
    # Rule blocks: a numbered line and every following line up to the next numbered line.
    blocks: list[tuple[str, list[str]]] = []
    for line in lines[rules_start:glossary]:
        match = _NUMBER.match(line)
        if match:
            blocks.append((match[1] + (f".{match[2]}" if match[2] else ""), [line]))
        elif blocks:
            blocks[-1][1].append(line)
    headings: set[str] = set()
    for number, _ in blocks:
        if _keeps(number):
            section = number.split(".")[0]
            headings.update({section[0], section})
    for number, block in blocks:
        section_heading = "." not in number
        if (section_heading and number in headings) or (not section_heading and _keeps(number)):
            out.extend(block if block[-1] == "" else [*block, ""])
    out.append("Glossary")
    out.append("")
    entries: list[list[str]] = []
    for line in lines[glossary + 1 : credits]:
        if line == "":
            if entries and entries[-1]:
                entries.append([])
            continue
        if not entries:
            entries.append([])
        entries[-1].append(line)
    kept = [entry for entry in entries if entry and entry[0] in TERMS]
    missing = set(TERMS) - {entry[0] for entry in kept}
    if missing:
        sys.exit(f"glossary terms not found: {sorted(missing)}")
    for entry in kept:
        out.extend([*entry, ""])
    out.append("")
    out.extend(lines[credits:])
    return out


def newer(lines: list[str]) -> list[str]:
    """The synthetic newer edition: new date, one rule and one glossary entry fewer."""
    out: list[str] = []
    skip = False
    for line in lines:
        if skip:
            skip = line != ""
            continue
        if line.startswith(f"{DROPPED_RULE} ") or line == DROPPED_TERM:
            skip = True
            continue
        out.append(line.replace(OLD_DATE, NEWER_DATE))
    return out


def write(path: Path, lines: list[str]) -> None:
    data = ("\ufeff" + "\r\n".join(lines) + "\r\n").encode("utf-8")
    path.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    print(f"{path}: {len(data)} bytes, {path.stat().st_size} compressed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", type=Path, required=True, help="MagicCompRules-YYYYMMDD.txt(.xz)")
    parser.add_argument("--out", type=Path, required=True, help="the fixture folder")
    args = parser.parse_args()
    raw = args.rules.read_bytes()
    if args.rules.suffix == ".xz":
        raw = lzma.decompress(raw)
    text = raw.decode("utf-8-sig")
    lines = text.split("\r\n")
    if lines[-1] == "":
        lines.pop()
    excerpt = cut(lines)
    args.out.mkdir(parents=True, exist_ok=True)
    write(args.out / "MagicCompRules-20250207-excerpt.txt.xz", excerpt)
    write(args.out / "MagicCompRules-20250303-newer-synthetic.txt.xz", newer(excerpt))


if __name__ == "__main__":
    main()
