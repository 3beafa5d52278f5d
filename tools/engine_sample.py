"""A seeded random sample of the faces the rules engine counts as executable, printed for a person
to write a scenario of what each card really does (an audit of the engine's false positives).

    python tools/engine_sample.py                            # 30 faces, seed 1303, the shared corpus
    python tools/engine_sample.py --size 40 --seed 7 --faces PATH > sample.md

A face counts as executable exactly as ``carddb coverage --engine`` counts it: parsed completely,
and nothing in it reported by the engine's ``face_missing``. Each face is shown with its name, type
line and oracle text; for a JSON Lines corpus (the shared ``oracle-faces-*.jsonl.xz``) also as a
``[cards."Name"]`` table with its mana cost and power/toughness/loyalty, ready to paste into a
scenario. Exit status 2 when the faces file is absent.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from carddb.engine.catalog import card_face_missing
from carddb.ingest.sources import open_tracked
from carddb.oracle import parse_oracle
from carddb.oracle.faces import Face, detect_format, read_faces

REPO = Path(__file__).resolve().parent.parent
FACES = REPO.parent / "shared" / "corpus" / "oracle-faces-20220425.jsonl.xz"


def executable_faces(path: Path) -> list[Face]:
    """The faces of ``path`` the engine executes entirely, in file order."""
    found = []
    for face in read_faces(path):
        parsed = parse_oracle(face.text, face.parser_name, face.type_line)
        if parsed.complete and not card_face_missing(face, parsed):
            found.append(face)
    return found


def jsonl_records(path: Path) -> dict[tuple[str, str | None], dict[str, Any]]:
    """The raw records of a JSON Lines faces file by ``(name, face_name)``; empty for other formats."""
    if detect_format(path) != "jsonl":
        return {}
    records: dict[tuple[str, str | None], dict[str, Any]] = {}
    with open_tracked(path) as reader:
        for line in reader.read().split(b"\n"):
            if line.strip():
                record = json.loads(line)
                records.setdefault((record["name"], record.get("face_name")), record)
    return records


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def cards_table(face: Face, record: dict[str, Any] | None) -> str:
    """The face as a scenario's ``[cards."Name"]`` table."""
    lines = [f"[cards.{_quoted(face.parser_name)}]", f"type = {_quoted(face.type_line or '')}"]
    if face.text:
        lines.append(f"text = {_quoted(face.text)}")
    if record is not None:
        if record.get("mana_cost"):
            lines.append(f"mana_cost = {_quoted(record['mana_cost'])}")
        for key in ("power", "toughness", "loyalty"):
            value = record.get(key)
            if value is not None:
                lines.append(f"{key} = {value}" if str(value).isdigit() else f"{key} = {_quoted(str(value))}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--faces", type=Path, default=FACES)
    parser.add_argument("--size", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1303)
    args = parser.parse_args(argv)
    if not args.faces.exists():
        print(f"no faces file at {args.faces} (a fresh clone has no ../shared)", file=sys.stderr)
        return 2
    executable = executable_faces(args.faces)
    records = jsonl_records(args.faces)
    sample = random.Random(args.seed).sample(executable, min(args.size, len(executable)))
    print(f"# Engine sample: {len(sample)} of {len(executable):,} executable faces, seed {args.seed}\n")
    for number, face in enumerate(sample, 1):
        print(f"## {number}. {face.parser_name} ({face.type_line})\n")
        print(face.text or "(no text)")
        print("\n```toml")
        print(cards_table(face, records.get((face.name, face.face_name))))
        print("```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
