"""Cut the small MTGJSON sample shipped in ``data/sample/`` from the shared corpus.

A fresh clone of carddb has no ``../shared/corpus``, so the project ships a few real card
printings instead. This script makes that sample reproducible::

    python tools/make_sample.py --corpus ../shared/corpus --out data/sample

For every set that has a selected card it writes ``<out>/<SET>.json.xz``: a valid MTGJSON v5
set file whose ``meta`` is copied from the source, whose set-level keys are kept (``code``,
``name``, ``releaseDate``, ``type``, ``baseSetSize``, ``totalSetSize``, ``translations``, ...)
except the big unused ``booster`` and ``sealedProduct``, whose ``tokens`` is ``[]``, and whose
``cards`` holds every printing (every collector number, every face) of each selected card
name, each record whole and unmodified (all fields, ``foreignData``, ``rulings``), in source
order. For basic lands only the lowest collector number is kept.

The special picks (a Japanese voicing-mark pair, a Russian й/и pair, a localized name equal
to the English one, a card whose translations differ between two printings, ...) were found by
searching all 15 corpus sets; the script re-checks each property and fails loudly when the data
no longer shows it, as it does when a selected name is missing from its set.

Standard library only.
"""

from __future__ import annotations

import argparse
import json
import lzma
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import make_rules_fixture as rules_fixture  # beside this script: tools/ is on sys.path when run

JsonObject = dict[str, Any]

#: Set-level keys every written set file must carry (copied from the source).
REQUIRED_SET_KEYS = ("code", "name", "releaseDate", "type", "baseSetSize", "totalSetSize", "translations")
#: Big set-level keys the project does not use; dropped from the sample.
DROPPED_SET_KEYS = frozenset({"booster", "sealedProduct"})


class SampleError(Exception):
    """The corpus does not hold what the sample needs."""


@dataclass(frozen=True)
class Pick:
    """One selected card name in one set, and the test need it covers."""

    set_code: str
    name: str
    why: str
    #: Keep only the lowest collector number (basic lands: one printing is enough).
    lowest_number_only: bool = False


BASIC_WHY = "basic land (supertype Basic); one printing is enough"

PICKS: tuple[Pick, ...] = (
    # --- AFC: Forgotten Realms Commander -------------------------------------------------
    Pick("AFC", "Underdark Rift", "d10 die roll; self-naming oracle text; the ten-language seed page"),
    Pick("AFC", "Diviner's Portent", "d20 result table (1—14 | / 15+ |); the Spanish seed page's rulings"),
    Pick("AFC", "Berserker's Frenzy", "two-d20 result table with a range row (15—20 |)"),
    Pick(
        "AFC",
        "Realm-Cloaked Giant // Cast Off",
        "adventure (two faces, side a/b); Japanese reading hints 脱（ぬ）ぎ捨（す）て; "
        "front face left in English in the localized names; reprinted in ELD with other translations",
    ),
    Pick("AFC", "Rampant Growth", "Russian name Буйный Рост has й at index 2 (pair: Abundant Growth)"),
    Pick("AFC", "Abundant Growth", "Russian name Обильный Рост has и at index 2 (pair: Rampant Growth)"),
    Pick(
        "AFC", "Murder of Crows", "Japanese カラスの群れ: カラス vs ガラス (Glass Casket) differ by a dakuten"
    ),
    Pick("AFC", "Robe of Stars", "Japanese ローブ・オヴ・スターズ: ローブ vs ロープ (Fifty Feet of Rope)"),
    Pick("AFC", "Return to Nature", "French/Japanese/Chinese translations differ from the ELD printing"),
    # --- AFR: Adventures in the Forgotten Realms ---------------------------------------
    Pick("AFR", "Pixie Guide", "die-roll replacement (roll one more die, ignore the lowest)"),
    Pick("AFR", "Barbarian Class", "class layout (levels); same die-roll replacement as Pixie Guide"),
    Pick("AFR", "Contact Other Plane", "d20 table with a one-result row (20 |); full-width digits in ja"),
    Pick("AFR", "Brazen Dwarf", "'whenever you roll one or more dice' trigger; no rulings"),
    Pick("AFR", "Farideh, Devil's Chosen", "legendary, comma in its name; die-result threshold"),
    Pick("AFR", "Xorn", "localized name equals the English name (de, es, fr, it, pt-BR)"),
    Pick("AFR", "Fifty Feet of Rope", "Japanese 50フィートのロープ: ロープ vs ローブ (Robe of Stars), プ/ブ"),
    Pick("AFR", "Plains", BASIC_WHY, lowest_number_only=True),
    Pick("AFR", "Island", BASIC_WHY, lowest_number_only=True),
    Pick("AFR", "Swamp", BASIC_WHY, lowest_number_only=True),
    Pick("AFR", "Mountain", BASIC_WHY, lowest_number_only=True),
    Pick("AFR", "Forest", BASIC_WHY, lowest_number_only=True),
    # --- ELD: Throne of Eldraine --------------------------------------------------------
    Pick(
        "ELD",
        "Realm-Cloaked Giant // Cast Off",
        "second set of the same card: fully localized names, Japanese 脱ぎ捨て without reading hints",
    ),
    Pick("ELD", "Return to Nature", "same card as AFC Return to Nature, different translations"),
    Pick(
        "ELD", "Glass Casket", "Japanese ガラスの棺: ガラス vs カラス (Murder of Crows) differ by a dakuten"
    ),
    Pick(
        "ELD", "Knight of the Keep", "vanilla creature, no text in any language (corpus has no Grizzly Bears)"
    ),
    # --- the README's examples: what `carddb import --sample` must hold for them to work ----
    Pick(
        "THB",
        "Phoenix of Ash",
        "README: red creature, mana value 3, flying and haste (t:creature c:r mv<=3 o:haste; "
        "lang:de o:fliegend; t:Kreatur c:rot); escape, reminder text",
    ),
    Pick("M11", "Lightning Bolt", "README: search 稲妻 (its Japanese name); from the whole pool (M11)"),
)

#: Where the sets of ``PICKS`` are read: the 15 corpus sets first, else the whole pool.
SET_FOLDERS = ("mtgjson", "mtgjson-pool")

#: The Comprehensive Rules excerpt ``carddb import --sample`` imports (README: ``carddb rule 702.35``),
#: cut from the corpus's rules file by ``tools/make_rules_fixture.py``'s own selection.
RULES_SOURCE = "rules/MagicCompRules-20250207.txt.xz"
RULES_OUT = "MagicCompRules-20250207-excerpt.txt.xz"

#: Names taken from whichever corpus set prints them, when any does (none of them is required).
OPTIONAL_ANYWHERE: tuple[tuple[str, str], ...] = (
    ("Wastes", "colorless basic land (printed in OGW, TSR, PLIST: not in the 15 corpus sets)"),
)


# --- reading and writing ---------------------------------------------------------------------


def read_set(path: Path) -> JsonObject:
    """Read one xz-compressed MTGJSON set file."""
    with lzma.open(path, "rt", encoding="utf-8") as handle:
        document: JsonObject = json.load(handle)
    return document


def write_set(path: Path, document: JsonObject) -> int:
    """Write ``document`` as compact UTF-8 JSON, xz-compressed; return the file size in bytes."""
    text = json.dumps(document, ensure_ascii=False, indent=None, separators=(",", ":"))
    path.write_bytes(lzma.compress(text.encode("utf-8"), preset=9))
    return path.stat().st_size


# --- selecting -------------------------------------------------------------------------------


def number_key(number: str) -> tuple[int, str]:
    """Sort key for collector numbers such as ``"7"``, ``"262"``, ``"26a"``, ``"43★"``."""
    match = re.match(r"\d+", number)
    return (int(match.group()) if match else sys.maxsize, number)


def select(cards: list[JsonObject], pick: Pick) -> list[JsonObject]:
    """Every record (printing and face) of ``pick.name``, in source order; fail when there is none."""
    found = [card for card in cards if card["name"] == pick.name]
    if not found:
        raise SampleError(f"{pick.set_code}: no card named {pick.name!r}")
    if pick.lowest_number_only:
        lowest = min((card["number"] for card in found), key=number_key)
        found = [card for card in found if card["number"] == lowest]
    return found


def cut_set(document: JsonObject, cards: list[JsonObject]) -> JsonObject:
    """The set file cut down to ``cards``: meta and set-level keys kept, tokens emptied."""
    data: JsonObject = document["data"]
    missing = [key for key in REQUIRED_SET_KEYS if key not in data]
    if missing:
        raise SampleError(f"{data.get('code')}: set keys missing: {missing}")
    kept: JsonObject = {}
    for key, value in data.items():
        if key in DROPPED_SET_KEYS:
            continue
        if key == "cards":
            value = cards
        elif key == "tokens":
            value = []
        kept[key] = value
    return {"meta": document["meta"], "data": kept}


# --- checks: the properties the special picks were chosen for ---------------------------------


def foreign(cards: Iterable[JsonObject], language: str, field: str = "name") -> list[str]:
    """All values of ``field`` in ``language`` across the records ``cards``."""
    return [
        entry[field]
        for card in cards
        for entry in card.get("foreignData", [])
        if entry.get("language") == language and entry.get(field)
    ]


def strip_voicing(text: str) -> str:
    """``text`` without the kana voicing marks (dakuten U+3099, handakuten U+309A)."""
    decomposed = unicodedata.normalize("NFD", text)
    bare = "".join(ch for ch in decomposed if ch not in "\u3099\u309a")
    return unicodedata.normalize("NFC", bare)


Selected = dict[tuple[str, str], list[JsonObject]]
Check = Callable[[Selected], str]


def check_reading_hints(selected: Selected) -> str:
    names = foreign(selected["AFC", "Realm-Cloaked Giant // Cast Off"], "Japanese")
    if not any("脱（ぬ）ぎ捨（す）て" in name for name in names):
        raise SampleError(f"AFC Realm-Cloaked Giant: no Japanese reading hints in {names}")
    return f"reading hints: AFC Realm-Cloaked Giant // Cast Off, Japanese {names[0]!r}"


def _word_pair(selected: Selected, a: tuple[str, str], word_a: str, b: tuple[str, str], word_b: str) -> str:
    name_a = next((n for n in foreign(selected[a], "Japanese") if word_a in n), None)
    name_b = next((n for n in foreign(selected[b], "Japanese") if word_b in n), None)
    if name_a is None or name_b is None or word_a == word_b or strip_voicing(word_a) != strip_voicing(word_b):
        raise SampleError(f"voicing pair lost: {a[1]} {name_a!r} / {b[1]} {name_b!r}")
    return f"voicing pair: {a[1]} ({a[0]}) {name_a!r} vs {b[1]} ({b[0]}) {name_b!r}: {word_a} / {word_b}"


def check_voicing_pairs(selected: Selected) -> str:
    return "\n".join(
        (
            _word_pair(selected, ("AFC", "Murder of Crows"), "カラス", ("ELD", "Glass Casket"), "ガラス"),
            _word_pair(selected, ("AFC", "Robe of Stars"), "ローブ", ("AFR", "Fifty Feet of Rope"), "ロープ"),
        )
    )


def check_short_i(selected: Selected) -> str:
    with_short = next(iter(foreign(selected["AFC", "Rampant Growth"], "Russian")), "")
    with_i = next(iter(foreign(selected["AFC", "Abundant Growth"], "Russian")), "")
    index = with_short.find("й")
    if index < 0 or with_i[index : index + 1] != "и":
        raise SampleError(f"й/и pair lost: {with_short!r} / {with_i!r}")
    return f"й/и pair: Rampant Growth {with_short!r} vs Abundant Growth {with_i!r} (index {index})"


def check_same_name(selected: Selected) -> str:
    cards = selected["AFR", "Xorn"]
    languages = sorted(
        {
            entry["language"]
            for card in cards
            for entry in card["foreignData"]
            if entry.get("name") == card["name"]
        }
    )
    if not languages:
        raise SampleError("AFR Xorn: no localized name equals the English name")
    return f"localized name = English name: Xorn in {', '.join(languages)}"


def check_differing_translations(selected: Selected) -> str:
    afc, eld = selected["AFC", "Return to Nature"], selected["ELD", "Return to Nature"]
    differing = []
    for language in sorted({e["language"] for card in afc + eld for e in card["foreignData"]}):
        for field in ("name", "text"):
            left, right = set(foreign(afc, language, field)), set(foreign(eld, language, field))
            if left and right and left != right:
                differing.append(f"{language} {field}")
    if not any(item.endswith("name") for item in differing):
        raise SampleError(f"Return to Nature: AFC and ELD names no longer differ ({differing})")
    french = (foreign(afc, "French")[0], foreign(eld, "French")[0])
    return f"differing translations: Return to Nature AFC vs ELD: {', '.join(differing)}; French {french}"


def check_vanilla(selected: Selected) -> str:
    card = selected["ELD", "Knight of the Keep"][0]
    localized_text = any(entry.get("text") for entry in card["foreignData"])
    if card.get("text") or localized_text or "Creature" not in card["types"]:
        raise SampleError("ELD Knight of the Keep is not a vanilla creature")
    return f"vanilla creature: Knight of the Keep {card['manaCost']} {card['power']}/{card['toughness']}"


CHECKS: tuple[Check, ...] = (
    check_reading_hints,
    check_voicing_pairs,
    check_short_i,
    check_same_name,
    check_differing_translations,
    check_vanilla,
)


# --- driver ---------------------------------------------------------------------------------


def read_documents(corpus: Path, codes: Iterable[str]) -> dict[str, JsonObject]:
    """The set files of the 15 corpus sets, and of ``codes`` from the whole pool when not among them."""
    set_dir = corpus / SET_FOLDERS[0]
    if not set_dir.is_dir():
        raise SampleError(f"no MTGJSON set folder at {set_dir}")
    documents: dict[str, JsonObject] = {}
    for path in sorted(set_dir.glob("*.json.xz")):
        document = read_set(path)
        documents[document["data"]["code"]] = document
    for code in sorted(set(codes) - set(documents)):
        for folder in SET_FOLDERS[1:]:
            path = corpus / folder / f"{code}.json.xz"
            if path.is_file():
                documents[code] = read_set(path)
                break
    return documents


def write_rules(corpus: Path, out: Path) -> str:
    """The rules excerpt, as ``tools/make_rules_fixture.py`` cuts it (the same lines as the tests')."""
    source = corpus / RULES_SOURCE
    if not source.is_file():
        raise SampleError(f"no Comprehensive Rules file at {source}")
    lines = lzma.decompress(source.read_bytes()).decode("utf-8-sig").split("\r\n")
    if lines[-1] == "":
        lines.pop()
    excerpt = rules_fixture.cut(lines)
    data = ("\ufeff" + "\r\n".join(excerpt) + "\r\n").encode("utf-8")
    (out / RULES_OUT).write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    size = (out / RULES_OUT).stat().st_size
    numbered = sum(1 for line in excerpt if line[:1].isdigit())
    return f"rules: {numbered} numbered lines -> {out / RULES_OUT} ({size:,} bytes)"


def make_sample(corpus: Path, out: Path) -> None:
    """Cut the sample from ``corpus`` (holding ``mtgjson/<SET>.json.xz``) into ``out``."""
    set_dir = corpus / SET_FOLDERS[0]
    documents = read_documents(corpus, {pick.set_code for pick in PICKS})

    picks = list(PICKS)
    for name, why in OPTIONAL_ANYWHERE:
        holders = [
            code for code, doc in documents.items() if any(c["name"] == name for c in doc["data"]["cards"])
        ]
        if holders:
            picks.append(Pick(holders[0], name, why, lowest_number_only=True))
        else:
            print(f"skipped (not in any corpus set): {name}: {why}")

    selected: Selected = {}
    for pick in picks:
        if pick.set_code not in documents:
            raise SampleError(f"set {pick.set_code} is not in {set_dir}")
        selected[pick.set_code, pick.name] = select(documents[pick.set_code]["data"]["cards"], pick)

    findings = [check(selected) for check in CHECKS]  # before writing: fail without touching out/

    out.mkdir(parents=True, exist_ok=True)
    total = 0
    for code in sorted({pick.set_code for pick in picks}):
        ids = {id(card) for (set_code, _), cards in selected.items() if set_code == code for card in cards}
        cards = [card for card in documents[code]["data"]["cards"] if id(card) in ids]
        size = write_set(out / f"{code}.json.xz", cut_set(documents[code], cards))
        total += size
        print(f"{code}: {len(cards)} card records -> {out / f'{code}.json.xz'} ({size:,} bytes)")
        for pick in (p for p in picks if p.set_code == code):
            records = selected[code, pick.name]
            numbers = sorted({card["number"] for card in records}, key=number_key)
            foreign_count = sum(len(card["foreignData"]) for card in records)
            rulings_count = sum(len(card["rulings"]) for card in records)
            print(
                f"  {pick.name} #{','.join(numbers)} ({len(records)} records, "
                f"{foreign_count} foreignData, {rulings_count} rulings): {pick.why}"
            )
    print(f"total: {total:,} bytes")
    print(write_rules(corpus, out))
    print("\n".join(findings))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"), help="shared corpus folder")
    parser.add_argument("--out", type=Path, default=Path("data/sample"), help="where to write <SET>.json.xz")
    args = parser.parse_args(argv)
    try:
        make_sample(args.corpus, args.out)
    except SampleError as error:
        print(f"make_sample: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
