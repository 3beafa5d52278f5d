"""Rewrite the golden parse files of tests/golden/oracle/ from inputs.toml (after a deliberate
grammar change; read the diff before committing it)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from carddb.oracle import parse_oracle
from carddb.oracle.show import face_to_dict

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "oracle"


def main() -> None:
    inputs = tomllib.loads((GOLDEN / "inputs.toml").read_text(encoding="utf-8"))
    for face in inputs["face"]:
        parsed = face_to_dict(parse_oracle(face["text"], face["name"], face["type"]))
        path = GOLDEN / f"{face['file']}.json"
        path.write_text(json.dumps(parsed, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        print(f"{path.name}: complete={parsed['complete']}")


if __name__ == "__main__":
    main()
