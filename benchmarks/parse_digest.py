"""Parse digests: a fingerprint of every face's parse, to show that a change to the parser's machinery
(speed work) changes no result.

For each face of the faces file (default: the shared corpus) the digest is the SHA-256 of what the
parse gives: ``complete``, the rendered text, the text rendered in the face's own wording and the
JSON of ``carddb parse --json`` (:func:`carddb.oracle.show.face_to_dict`, spans included). With
``--eras`` the faces' derived 2024–2026 and older wordings (``benchmarks/oracle_eras.py``) are
digested too.

    python benchmarks/parse_digest.py --write /tmp/main.digests      # before the change
    python benchmarks/parse_digest.py --check /tmp/main.digests      # after: every face the same?

Exit status: 0 when every digest matches (or was written), 1 when some face differs (the first
few are named), 2 when the faces file is absent.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from oracle_eras import ERAS

from carddb.oracle import parse_oracle
from carddb.oracle.faces import Face, read_faces
from carddb.oracle.show import face_to_dict

REPO = Path(__file__).resolve().parent.parent
FACES = REPO.parent / "shared" / "corpus" / "oracle-faces-20220425.jsonl.xz"


def digest(text: str, name: str | None, type_line: str | None) -> str:
    parsed = parse_oracle(text, name, type_line)
    data = {
        "complete": parsed.complete,
        "rendered": parsed.rendered,
        "as_written": parsed.rendered_as_written,
        "json": face_to_dict(parsed),
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def digests(faces: Sequence[Face], eras: bool) -> Iterator[tuple[str, str]]:
    """(key, digest) per face (and per derived wording with ``eras``)."""
    for index, face in enumerate(faces):
        yield f"{index} {face.parser_name}", digest(face.text, face.parser_name, face.type_line)
        if eras:
            for era, derive in ERAS.items():
                text = derive(face)
                if text != face.text:
                    key = f"{index} {face.parser_name} [{era}]"
                    yield key, digest(text, face.parser_name, face.type_line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--faces", type=Path, default=FACES)
    parser.add_argument("--limit", type=int, metavar="N")
    parser.add_argument("--eras", action="store_true", help="digest the derived eras' wordings too")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, metavar="FILE")
    group.add_argument("--check", type=Path, metavar="FILE")
    args = parser.parse_args(argv)
    if not args.faces.is_file():
        print(f"no faces file at {args.faces}", file=sys.stderr)
        return 2
    faces = list(itertools.islice(read_faces(args.faces), args.limit))
    found = dict(digests(faces, args.eras))
    if args.write:
        args.write.write_text("".join(f"{d} {k}\n" for k, d in found.items()), encoding="utf-8")
        print(f"{len(found):,} digests written to {args.write}")
        return 0
    expected = {}
    for line in args.check.read_text(encoding="utf-8").splitlines():
        value, key = line.split(" ", 1)
        expected[key] = value
    differ = [key for key in expected.keys() | found.keys() if expected.get(key) != found.get(key)]
    print(f"{len(found):,} digests, {len(differ):,} differ from {args.check}")
    for key in sorted(differ, key=lambda k: int(k.split(" ", 1)[0]))[:20]:
        print(f"  {key}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
