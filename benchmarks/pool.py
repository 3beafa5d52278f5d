"""Benchmark input: the whole card pool as ONE MTGJSON v5 set file (code ``POOL``).

The search and lookup benchmarks' speed targets are stated for the whole card pool (~22,000 cards),
but the shared corpus has only 15 real MTGJSON set files (~4,100 cards, with translations and
rulings). It also has ``oracle-faces-20220425.jsonl.xz``: one JSON object per card face of the whole
MTGJSON card pool of that date (``name``, ``face_name``, ``layout``, ``mana_cost``, ``type``, ``text``,
``power``, ``toughness``, ``loyalty``, ``keywords``, ``sets``). This module turns those faces into
one set file that carddb's importer accepts, so that "the 15 real sets + this file" is the whole
pool in English, with the real translations and rulings of the 15 sets' cards.

What each card of the file is made of (one printing per card, grouped by ``name``):

* faces in the order of the card's name (``A // B``), sides ``a``, ``b``, ... with ``faceName``;
* ``identifiers.scryfallOracleId``: the real one when a card of that name is in the 15 set files
  (the pool adds a printing to that card, never a second card), else a uuid5 of the name;
* ``colors`` from the mana cost's symbols (hybrid and Phyrexian symbols count each colour); a face
  after the first with no mana cost and not a land (a transformed, flipped or melded face, which
  takes its colour from a colour indicator the faces file does not carry) gets the front face's;
* ``colorIdentity`` (the card's, on every face): those colours plus the mana symbols in the rules
  text of every face, reminder text (in parentheses) left out;
* ``manaValue`` (``X``, ``Y``, ``Z`` count 0, ``{2/W}`` counts 2, half symbols ½) and, on faces of
  multi-face cards, ``faceManaValue``, as MTGJSON writes them;
* a collector number ``1``, ``2``, ... in name order, rarity ``common``, no ``foreignData`` and no
  ``rulings``.

``meta.date`` is one day BEFORE the real files' date. carddb's loader lets data at least as new as
what is stored overwrite a card (its faces, and its rulings replaced by the file's, here none): with
the same date, importing the pool after the 15 sets would erase their cards' rulings and replace
their real colours with the derived ones. One day older, the pool only adds its printings to those
cards, whichever order the files are imported in.

The output is xz-compressed and deterministic: the same corpus gives a byte-identical file.

    python benchmarks/pool.py /tmp/pool.json.xz
    python benchmarks/pool.py /tmp/pool.json.xz --corpus /path/to/shared/corpus

Exit status: 0 when the file was written, 2 when the corpus files are absent.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import lzma
import re
import sys
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from carddb.characteristics import card_mana_value

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
FACES_NAME = "oracle-faces-20220425.jsonl.xz"

CODE = "POOL"
NAME = "Whole card pool (oracle faces 2022-04-25)"
RELEASE_DATE = "2022-04-25"
VERSION = "5.2.0+20220425"
# The real set files' meta.date is 2022-04-25; one day older so the pool never overwrites their cards.
DATA_DATE = (dt.date(2022, 4, 25) - dt.timedelta(days=1)).isoformat()
# uuid5 namespace of the oracle ids and printing uuids this module makes up.
NAMESPACE = uuid.UUID("0b9f2f57-3c4e-5d0a-9a43-7c1e2d6b8f21")

COLORS = "WUBRG"
_SYMBOL = re.compile(r"\{([^{}]+)\}")
_REMINDER = re.compile(r"\([^()]*\)")
_LAND_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


# --------------------------------------------------------------------------------------------------
# Mana symbols
# --------------------------------------------------------------------------------------------------


def symbol_colors(symbol: str) -> set[str]:
    """The colours of one mana symbol without braces: ``W/U`` both, ``G/P`` green, ``2/R`` red,
    ``HW`` (half white) white, ``C``, ``X`` and numbers none."""
    found = set()
    for part in symbol.split("/"):
        if len(part) == 2 and part[0] == "H":
            part = part[1]
        if part in COLORS:
            found.add(part)
    return found


def cost_colors(cost: str | None) -> set[str]:
    """The colours of a mana cost (``{2}{W/U}{B/P}`` → W, U, B)."""
    return {c for symbol in _SYMBOL.findall(cost or "") for c in symbol_colors(symbol)}


def text_colors(text: str | None) -> set[str]:
    """The colours of the mana symbols in rules text, reminder text (in parentheses) left out."""
    return cost_colors(_REMINDER.sub("", text or ""))


def land_type_colors(type_line: str | None) -> set[str]:
    """The colours of the basic land types in a type line (``Land — Forest Plains`` → G, W): their
    intrinsic mana abilities count for colour identity."""
    _, _, subtypes = (type_line or "").partition("—")
    return {_LAND_TYPES[word] for word in subtypes.split() if word in _LAND_TYPES}


def mana_value(cost: str | None) -> float:
    """The mana value of a mana cost: numbers their value, ``X``/``Y``/``Z`` 0, ``{2/W}`` 2, half
    symbols (``{HW}``, ``{½}``) 0.5, any other symbol (coloured, hybrid, Phyrexian, ``{C}``, ``{S}``) 1.

    (carddb.engine.mana.mana_value counts the same way but takes a game object, not a cost.)
    """
    total = 0.0
    for symbol in _SYMBOL.findall(cost or ""):
        if symbol.isdigit():
            total += int(symbol)
        elif symbol in ("X", "Y", "Z"):
            continue
        elif symbol == "½" or (len(symbol) == 2 and symbol[0] == "H"):
            total += 0.5
        elif symbol.startswith("2/"):
            total += 2
        else:
            total += 1
    return total


def ordered(colors: Iterable[str]) -> list[str]:
    """Colour letters as MTGJSON lists them: sorted alphabetically (``["B", "G", "U"]``)."""
    return sorted(set(colors))


# --------------------------------------------------------------------------------------------------
# Reading the corpus
# --------------------------------------------------------------------------------------------------


def set_files(set_dir: Path) -> list[Path]:
    return sorted(set_dir.glob("*.json.xz")) if set_dir.is_dir() else []


def read_faces(faces_path: Path) -> dict[str, list[dict[str, Any]]]:
    """The faces of every card by card name, each card's faces in the order of its name."""
    cards: dict[str, list[dict[str, Any]]] = {}
    with lzma.open(faces_path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                face = json.loads(line)
                cards.setdefault(face["name"], []).append(face)
    for name, faces in cards.items():
        parts = name.split(" // ")
        faces.sort(key=lambda f: parts.index(f["face_name"]) if f["face_name"] in parts else len(parts))
    return cards


def real_cards(set_dir: Path) -> tuple[dict[str, str], set[str]]:
    """The oracle id of every card name in the real set files, and those files' set codes."""
    oracle_ids: dict[str, str] = {}
    codes: set[str] = set()
    for path in set_files(set_dir):
        with lzma.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)["data"]
        codes.add(str(data["code"]).upper())
        for card in data["cards"]:
            oracle_id = card.get("identifiers", {}).get("scryfallOracleId")
            if oracle_id:
                oracle_ids.setdefault(card["name"], oracle_id)
    return oracle_ids, codes


# --------------------------------------------------------------------------------------------------
# Building the set
# --------------------------------------------------------------------------------------------------


def face_colors(faces: Sequence[Mapping[str, Any]]) -> list[set[str]]:
    """Each face's colours: its mana cost's, or the front face's for a later face with no cost that
    is not a land (its colour indicator is not in the faces file)."""
    colors = [cost_colors(face["mana_cost"]) for face in faces]
    for index, face in enumerate(faces[1:], start=1):
        if not face["mana_cost"] and "Land" not in (face["type"] or ""):
            colors[index] = set(colors[0])
    return colors


def card_records(
    name: str, faces: Sequence[Mapping[str, Any]], number: str, oracle_id: str
) -> list[dict[str, Any]]:
    """The MTGJSON card records (one per face) of one printing of a card."""
    colors = face_colors(faces)
    identity = set().union(
        *colors,
        *(text_colors(face["text"]) for face in faces),
        *(land_type_colors(face["type"]) for face in faces),
    )
    values = [mana_value(face["mana_cost"]) for face in faces]
    layout = faces[0]["layout"] or "normal"
    card_value = card_mana_value(layout, values) or 0.0
    multi = len(faces) > 1
    records = []
    for index, face in enumerate(faces):
        side = "abcdefghij"[index]
        record: dict[str, Any] = {"name": name}
        if face["face_name"]:
            record["faceName"] = face["face_name"]
            record["side"] = side
        record["number"] = number
        record["uuid"] = str(uuid.uuid5(NAMESPACE, f"{CODE}:{number}:{side}"))
        record["layout"] = layout
        record["identifiers"] = {"scryfallOracleId": oracle_id}
        record["rarity"] = "common"
        if face["mana_cost"]:
            record["manaCost"] = face["mana_cost"]
        if multi and layout != "modal_dfc":
            record["manaValue"] = card_value
            record["faceManaValue"] = values[index]
        else:
            record["manaValue"] = values[index]
        record["colors"] = ordered(colors[index])
        record["colorIdentity"] = ordered(identity)
        record["type"] = face["type"] or ""
        for key in ("text", "power", "toughness", "loyalty"):
            if face[key] is not None:
                record[key] = face[key]
        record["keywords"] = list(face["keywords"] or [])
        records.append(record)
    return records


def build_pool_file(faces_path: Path, set_dir: Path, out_path: Path) -> int:
    """Write the whole pool of ``faces_path`` as one MTGJSON set file (xz) at ``out_path``, reusing
    the oracle ids of the set files in ``set_dir``; return the number of printings written."""
    cards = read_faces(faces_path)
    oracle_ids, codes = real_cards(set_dir)
    if CODE in codes:
        raise ValueError(f"set code {CODE} is already used by a set file in {set_dir}")
    records: list[dict[str, Any]] = []
    for number, name in enumerate(sorted(cards), start=1):
        oracle_id = oracle_ids.get(name) or str(uuid.uuid5(NAMESPACE, name))
        records.extend(card_records(name, cards[name], str(number), oracle_id))
    document = {
        "meta": {"date": DATA_DATE, "version": VERSION},
        "data": {"code": CODE, "name": NAME, "releaseDate": RELEASE_DATE, "cards": records, "tokens": []},
    }
    out_path.parent.mkdir(parents=True, exist_ok=True)
    partial = out_path.with_name(out_path.name + ".part")
    with lzma.open(partial, "wt", encoding="utf-8") as out:
        json.dump(document, out, ensure_ascii=False, separators=(",", ":"))
    partial.replace(out_path)
    return len(cards)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("out", type=Path, help="the set file to write (xz-compressed JSON, e.g. pool.json.xz)")
    p.add_argument(
        "--corpus", type=Path, default=CORPUS, help="the shared corpus folder (default: ../shared/corpus)"
    )
    args = p.parse_args(argv)
    faces_path = args.corpus / FACES_NAME
    set_dir = args.corpus / "mtgjson"
    if not faces_path.is_file():
        print(f"pool: the oracle faces file {faces_path} is absent; nothing to build.", file=sys.stderr)
        return 2
    if not set_files(set_dir):
        print(f"pool: {set_dir} has no *.json.xz set files (needed for their oracle ids).", file=sys.stderr)
        return 2
    printings = build_pool_file(faces_path, set_dir, args.out)
    print(f"wrote {args.out}: set {CODE}, {printings} printings ({args.out.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
