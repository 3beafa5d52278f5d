"""A seeded random sample of the faces the oracle parser counts as complete, printed for a person to
judge whether each parse means what the text means (structural precision: right, imprecise, wrong).

    python tools/oracle_precision_sample.py                       # 60 faces, seed 12, the shared corpus
    python tools/oracle_precision_sample.py --size 80 --seed 7 --faces PATH > sample.md

Each face is shown as its text, then one line per ability: its kind and what the parser made of
its frame (cost, trigger, targets with their counts, chapters, level, limits, casting), then each
step as a compact expression (verbs with their arguments, nouns as [determiners description
qualifiers], target slots as #N). Exit status 2 when the faces file is absent.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from carddb.oracle import parse_oracle
from carddb.oracle.faces import read_faces
from carddb.oracle.model import (
    Ability,
    Action,
    Clause,
    Conditional,
    ManaCost,
    Noun,
    Number,
    Pronoun,
    RollDie,
    SelfRef,
    TapCost,
    UntapCost,
)
from carddb.oracle.model import Sequence as Steps
from carddb.oracle.phrases import find

REPO = Path(__file__).resolve().parent.parent
FACES = REPO.parent / "shared" / "corpus" / "oracle-faces-20220425.jsonl.xz"


def compact(value: object) -> str:
    """A model value as a short expression."""
    if isinstance(value, Noun):
        parts = [*value.determiners, value.description, *(compact(q) for q in value.qualifiers)]
        slot = f"#{value.slot}" if value.slot is not None else ""
        narrowed = f" (qualifiers on {value.narrowed})" if value.narrowed else ""
        return f"[{' '.join(parts)}{narrowed}]{slot}{_antecedents(value.antecedents)}"
    if isinstance(value, Pronoun):
        slot = f"#{value.slot}" if value.slot is not None else ""
        return value.word + slot + _antecedents(value.antecedents)
    if isinstance(value, SelfRef):
        return "~" + "".join(f" {compact(q)}" for q in value.qualifiers)
    if isinstance(value, Action):
        args = ", ".join(f"{role}={compact(arg)}" for role, arg in value.args)
        slot = f"#{value.slot}" if value.slot is not None else ""
        form = find(value.verb, value.form)
        written = f"{value.verb}<{form.text}>" if form is not None else value.verb
        return f"{written}({args}){slot}"
    if isinstance(value, Clause):
        subject = "" if value.subject is None else compact(value.subject) + ": "
        predicates = " & ".join(compact(p) for p in value.predicates)
        extra = "".join(
            f" {label}={compact(item)}"
            for label, item in (("for", value.duration), ("for_each", value.for_each))
            if item is not None
        )
        if value.duration_after is not None:
            extra += f" (written after predicate {value.duration_after})"
        return f"{{{subject}{predicates}{extra}}}"
    if isinstance(value, Steps):
        text = compact(value.steps[0])
        for join, step in zip(value.joins, value.steps[1:], strict=True):
            text += (" THEN " if "then" in join else " AND ") + compact(step)
        return text
    if isinstance(value, Conditional):
        body = f"({compact(value.body)})" if isinstance(value.body, Steps) else compact(value.body)
        if value.cost is not None:  # "… unless that player sacrifices a creature" (118.12)
            return f"UNLESS-PAID(by={compact(value.payer)}, cost={compact(value.cost)}) {body}"
        kind = f"[{value.trigger}]" if value.trigger else ""
        return f"{value.word.upper()}{kind}({compact(value.condition)}) {body}"
    if isinstance(value, RollDie):
        rows = "; ".join(f"{r.low}-{r.high}: {' '.join(compact(e) for e in r.effects)}" for r in value.table)
        return f"roll {value.count}d{value.sides}" + (f" [{rows}]" if rows else "")
    if isinstance(value, ManaCost):
        return "".join(value.symbols)
    if isinstance(value, TapCost):
        return "{T}"
    if isinstance(value, UntapCost):
        return "{Q}"
    if isinstance(value, Ability):
        return "«" + "; ".join(describe(value)) + "»"
    if isinstance(value, Number):
        return str(value.value)
    if isinstance(value, tuple):
        return " and ".join(compact(item) for item in value)
    return str(value)


def _antecedents(names: tuple[object, ...]) -> str:
    return f" (= {' and '.join(compact(n) for n in names)})" if names else ""


def describe(ability: Ability) -> list[str]:
    """One ability: its frame on the first line, then its steps."""
    frame = [ability.kind.value]
    if ability.ability_word:
        frame.append(f"word={ability.ability_word}")
    if ability.cost:
        frame.append("cost=" + ", ".join(compact(c) for c in ability.cost))
    if ability.trigger is not None:
        frame.append(f"{ability.trigger_word} {compact(ability.trigger)}")
    if ability.intervening_if is not None:
        frame.append(f"INTERVENING-IF({compact(ability.intervening_if)})")
    for slot in ability.targets:
        high = "∞" if slot.max is None else slot.max
        flags = "".join(
            (
                " X" if slot.variable else "",
                " divided" if slot.divided else "",
                " reflexive" if slot.reflexive else "",
                f" for each {slot.each}" if slot.each else "",
            )
        )
        frame.append(f"#{slot.slot}=({slot.description}; {slot.kind.value} {slot.min}-{high}{flags})")
    for label, item in (
        ("chapters", ability.chapters),
        ("level", ability.level),
        ("limits", ", ".join(ability.limits)),
        ("zone", ability.zone),
        ("casting", ability.casting),
        ("choose", ability.choose),
        ("keywords", ", ".join(f"{k.name} {k.parameter or ''}".strip() for k in ability.keywords)),
    ):
        if item:
            frame.append(f"{label}={item}")
    lines = [" ".join(frame)]
    lines.extend(f"  {compact(step)}" for step in ability.effects)
    lines.extend(f"  restriction {compact(r)}" for r in ability.restrictions)
    for keyword in ability.keywords:  # "Escape—{2}{U}, Exile …": the cost as it was read
        if keyword.cost:
            lines.append(f"  {keyword.name} cost=" + ", ".join(compact(item) for item in keyword.cost))
    for index, mode in enumerate(ability.modes, 1):
        targets = " ".join(f"#{s.slot}=({s.description}; {s.min}-{s.max})" for s in mode.targets)
        lines.append(f"  mode {index} {targets}: " + " ".join(compact(step) for step in mode.effects))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--faces", type=Path, default=FACES)
    parser.add_argument("--size", type=int, default=60)
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args(argv)
    if not args.faces.exists():
        print(f"no faces file at {args.faces} (a fresh clone has no ../shared)", file=sys.stderr)
        return 2
    complete = []
    for face in read_faces(args.faces):
        parsed = parse_oracle(face.text, face.parser_name, face.type_line)
        if parsed.complete and parsed.normalized:
            complete.append((face, parsed))
    sample = random.Random(args.seed).sample(complete, min(args.size, len(complete)))
    print(f"# Structural precision sample: {len(sample)} of {len(complete):,} complete faces", end="")
    print(f", seed {args.seed}\n")
    for number, (face, parsed) in enumerate(sample, 1):
        print(f"## {number}. {face.parser_name} ({face.type_line})\n")
        print("```")
        print(parsed.normalized)
        print("---")
        for ability in parsed.abilities:
            print("\n".join(describe(ability)))
        print("```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
