"""Parser coverage: how many faces of a card file the oracle parser understands completely, how fast,
and which not-understood fragments (:class:`~carddb.oracle.model.Unimplemented`) hold the most back.

A face counts as parsed when its :class:`~carddb.oracle.model.ParsedFace` is ``complete``. What the
parser leaves unimplemented is grouped by :func:`shape`, so that "Scry 2" and "Scry 3" count as one
missing piece of grammar. ``carddb coverage FILE`` runs :func:`coverage_command`.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter
from typing import Any, Protocol

import click

from carddb.errors import CarddbError
from carddb.measure import children_peak_memory_mb, peak_memory_mb
from carddb.oracle.faces import Face, read_faces
from carddb.oracle.grammar import parser
from carddb.oracle.model import ParsedFace
from carddb.oracle.parse import parse_oracle


class ParseFn(Protocol):
    """``parse(text, name, type_line)``, as :func:`carddb.oracle.parse_oracle`."""

    def __call__(self, text: str, name: str | None, type_line: str | None, /) -> ParsedFace: ...


EXAMPLES_PER_SHAPE = 3
RENDER_MISMATCH = "(no unimplemented text; renders differently from the normalized text)"
"""The shape counted for an incomplete face whose every part was understood but prints back otherwise."""

_NOT_MANA = frozenset({"{T}", "{Q}", "{E}", "{A}", "{TK}", "{CHAOS}"})
_SYMBOLS = re.compile(r"(?:\{[^{}\s]+\})+")
_SYMBOL = re.compile(r"\{[^{}\s]+\}")
_NUMBER_WORDS = re.compile(
    r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\b",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")


def shape(text: str, name: str | None = None) -> str:
    """Generalize an unimplemented fragment so that fragments differing only in numbers group together.

    * the card's ``name`` (and a legendary short name, the part before a comma) becomes ``~``;
      ``~`` itself stays;
    * a run of mana symbols becomes one ``{M}`` (``{2}{R}{R}`` and ``{X}`` alike); ``{T}``, ``{Q}``,
      ``{E}`` and the other non-mana symbols stay;
    * digits and the number words zero to twenty become ``N``, so ``+2/+0`` becomes ``+N/+N`` and
      ``d20`` ``dN``; ``X`` stays;
    * runs of whitespace become one space.

    >>> shape("Scry 2, then draw two cards.")
    'Scry N, then draw N cards.'
    """
    if name:
        names = {name, name.split(",")[0].strip()} - {""}
        text = _replace_words(text, sorted(names, key=len, reverse=True))
    text = _SYMBOLS.sub(_generalize_symbols, text)
    text = _DIGITS.sub("N", text)
    text = _NUMBER_WORDS.sub("N", text)
    return " ".join(text.split())


def _word_char(text: str, index: int) -> bool:
    """Whether ``text[index]`` exists and is a word character (``\\w``)."""
    return 0 <= index < len(text) and (text[index].isalnum() or text[index] == "_")


def _replace_words(text: str, words: list[str]) -> str:
    """Each occurrence of one of ``words`` (longest first where several start at one place) not
    inside a longer word becomes ``~``: the regular expression ``(?<!\\w)(?:w1|w2)(?!\\w)``
    without compiling one per card name."""
    parts: list[str] = []
    position = 0
    while True:
        found: tuple[int, int] | None = None  # (start, end) of the first occurrence
        for word in words:
            start = text.find(word, position)
            while start != -1 and (_word_char(text, start - 1) or _word_char(text, start + len(word))):
                start = text.find(word, start + 1)
            if start != -1 and (found is None or start < found[0]):
                found = (start, start + len(word))
        if found is None:
            parts.append(text[position:])
            return "".join(parts)
        parts += [text[position : found[0]], "~"]
        position = found[1]


def _generalize_symbols(run: re.Match[str]) -> str:
    parts: list[str] = []
    for symbol in _SYMBOL.findall(run.group()):
        if symbol.upper() in _NOT_MANA:
            parts.append(symbol)
        elif not parts or parts[-1] != "{M}":
            parts.append("{M}")
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class CoverageReport:
    """The outcome of parsing a set of faces."""

    faces: int
    parsed: int
    seconds: float
    """Time spent inside the parser (reading the faces is not counted)."""
    peak_memory_mb: float
    """The peak resident set size, in MB, when the run ended: this process's, or that of the largest
    of its workers when they peaked higher."""
    top_unimplemented: tuple[tuple[str, int], ...] = ()
    """The most frequent shapes of unimplemented text, each with the number of faces it occurs in."""
    examples: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """For each shape of ``top_unimplemented``, in the same order, a few faces it occurs in."""
    executable: int | None = None
    """With ``--engine``: faces the rules engine can execute entirely (every node has a handler)."""
    top_missing: tuple[tuple[str, int], ...] = ()
    """With ``--engine``: what most often keeps a parsed face from executing, with face counts."""

    @property
    def rate(self) -> float:
        """The share of faces parsed completely, 0 to 1 (0 when there are no faces)."""
        return self.parsed / self.faces if self.faces else 0.0

    @property
    def faces_per_second(self) -> float:
        return self.faces / self.seconds if self.seconds > 0 else 0.0

    def examples_of(self, shape: str) -> tuple[str, ...]:
        """The example faces of ``shape``: empty when it is not among the top shapes."""
        return dict(self.examples).get(shape, ())

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready values."""
        return {
            "faces": self.faces,
            "parsed": self.parsed,
            "rate": round(self.rate, 6),
            "seconds": round(self.seconds, 6),
            "faces_per_second": round(self.faces_per_second, 1),
            "peak_memory_mb": round(self.peak_memory_mb, 1),
            "top_unimplemented": [
                {"shape": shape, "count": count, "examples": list(self.examples_of(shape))}
                for shape, count in self.top_unimplemented
            ],
            **(
                {
                    "executable": self.executable,
                    "executable_rate": round(self.executable / max(self.faces, 1), 6),
                    "top_missing": [{"reason": r, "count": c} for r, c in self.top_missing],
                }
                if self.executable is not None
                else {}
            ),
        }


BATCH_GC_THRESHOLD = (20_000, 20, 20)
"""The cyclic collector's thresholds while a corpus is parsed (Python's are 700, 10, 10)."""


@contextmanager
def batch_collection() -> Iterator[None]:
    """Parsing thousands of faces makes millions of short-lived values (tokens, model nodes) and
    keeps a few large ones (the parser's tables, the caches of lines): with Python's thresholds the
    cyclic collector runs hundreds of times over those, a tenth of the parse time. Values of the
    model hold no reference cycles, so collecting less often only delays what little is cyclic."""
    previous = gc.get_threshold()
    gc.set_threshold(*BATCH_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*previous)


MissingFn = Callable[[Face, ParsedFace], list[str]]
"""What keeps a face, as parsed, from executing (``carddb.engine.catalog.card_face_missing``): empty
when nothing."""

PARALLEL_MINIMUM = 2_000
"""Fewer faces than this are parsed in this process: starting workers would cost more than it saves."""
CHUNK = 250
"""Faces per task given to a worker: small enough to share the work evenly, large enough to be cheap."""


def default_jobs() -> int:
    """The processes a run over a corpus uses by default: one per CPU this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(slots=True)
class _Tally:
    """What a run over some faces found, to be added to the tallies of the faces before it."""

    count: int = 0
    parsed: int = 0
    seconds: float = 0.0
    executable: int = 0
    lacking: Counter[str] = field(default_factory=Counter)
    shapes: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    failed: int | None = None
    """The index (in the faces given) of a face whose parse raised: the run stopped there."""

    def add(self, other: _Tally) -> None:
        """Add the tally of the faces that follow this one's (examples keep the text order)."""
        self.count += other.count
        self.parsed += other.parsed
        self.seconds += other.seconds
        self.executable += other.executable
        self.lacking.update(other.lacking)
        self.shapes.update(other.shapes)
        for found, names in other.examples.items():
            kept = self.examples.setdefault(found, [])
            kept.extend(names[: EXAMPLES_PER_SHAPE - len(kept)])


def _tally(faces: Sequence[Face], parse: ParseFn, missing: MissingFn | None, *, stop: bool) -> _Tally:
    """Parse ``faces`` one after another. A parse that raises ends the run: the exception propagates
    (a :class:`CarddbError` as it is, any other as a :class:`RuntimeError` naming the face), or, with
    ``stop``, the tally so far is returned with the index of that face in ``failed``."""
    tally = _Tally()
    for index, face in enumerate(faces):
        name = face.parser_name
        started = perf_counter()
        try:
            result = parse(face.text, name, face.type_line)
        except Exception as exc:
            if stop:
                tally.failed = index
                return tally
            if isinstance(exc, CarddbError):
                raise
            raise RuntimeError(f"parser crashed on {name!r}: {type(exc).__name__}: {exc}") from exc
        tally.seconds += perf_counter() - started
        tally.count += 1
        if result.complete:
            tally.parsed += 1
            if missing is not None:
                problems = missing(face, result)
                tally.executable += not problems
                tally.lacking.update(problems)
            continue
        for found in _shapes(result, name):
            tally.shapes[found] += 1
            names = tally.examples.setdefault(found, [])
            if len(names) < EXAMPLES_PER_SHAPE:
                names.append(name)
    return tally


_worker: list[tuple[Sequence[Face], MissingFn | None]] = []
"""A worker process's faces and engine check, set once when it starts (:func:`_start_worker`)."""


def _start_worker(faces: Sequence[Face], missing: MissingFn | None) -> None:
    _worker.append((faces, missing))
    gc.set_threshold(*BATCH_GC_THRESHOLD)


def _work(span: tuple[int, int]) -> _Tally:
    faces, missing = _worker[0]
    return _tally(faces[span[0] : span[1]], parse_oracle, missing, stop=True)


def _tally_in_parallel(faces: Sequence[Face], missing: MissingFn | None, jobs: int) -> _Tally:
    """:func:`_tally` of ``faces`` with the default parser, shared among ``jobs`` worker processes.

    Where processes can be forked (Linux), the workers are forked from this process once its parser
    is loaded, so they share its tables and its faces and receive only spans of indexes; elsewhere
    each worker loads the tables itself. The tallies come back in the order of the faces, so the
    report is the one a run in this process makes. When a face's parse raises in a worker, the face
    is parsed again here, so that the very exception a run in this process raises is raised."""
    parser()  # load the tables before forking: every worker shares them
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    spans = [(start, min(start + CHUNK, len(faces))) for start in range(0, len(faces), CHUNK)]
    total = _Tally()
    started = perf_counter()
    with context.Pool(jobs, initializer=_start_worker, initargs=(faces, missing)) as pool:
        for (start, _stop), part in zip(spans, pool.imap(_work, spans), strict=True):
            total.add(part)
            if part.failed is not None:
                pool.terminate()
                _tally([faces[start + part.failed]], parse_oracle, missing, stop=False)
                raise RuntimeError(f"a worker's parse of {faces[start + part.failed].parser_name!r} failed")
    total.seconds = perf_counter() - started
    return total


def measure(
    faces: Iterable[Face],
    parse: ParseFn | None = None,
    top: int = 20,
    *,
    missing: MissingFn | None = None,
    jobs: int = 1,
) -> CoverageReport:
    """Parse every face with ``parse`` (default :func:`carddb.oracle.parse_oracle`) and report.

    Each face is parsed as ``parse(face.text, face.face_name or face.name, face.type_line)``.
    Shapes are counted once per face they occur in; ``top`` limits how many are kept. ``missing``
    (the engine's ``card_face_missing``) also counts the parsed faces the engine executes entirely. With
    ``jobs`` above 1, the default parser and at least :data:`PARALLEL_MINIMUM` faces, the faces are
    parsed by that many processes (:func:`_tally_in_parallel`, the same report) and ``seconds`` is
    the time the whole parallel run took. A :class:`CarddbError` from the parser propagates as it
    is; any other exception is a parser bug and propagates as a :class:`RuntimeError` naming the
    face, so that a coverage run never hides a crash.
    """
    listed = faces if isinstance(faces, Sequence) else list(faces)
    with batch_collection():
        if parse is None and jobs > 1 and len(listed) >= PARALLEL_MINIMUM:
            tally = _tally_in_parallel(listed, missing, jobs)
        else:
            tally = _tally(listed, parse or parse_oracle, missing, stop=False)
    most_common = tuple(tally.shapes.most_common(top)) if top > 0 else ()
    return CoverageReport(
        faces=tally.count,
        parsed=tally.parsed,
        seconds=tally.seconds,
        peak_memory_mb=max(peak_memory_mb(), children_peak_memory_mb()),
        top_unimplemented=most_common,
        examples=tuple((found, tuple(tally.examples[found])) for found, _ in most_common),
        executable=tally.executable if missing is not None else None,
        top_missing=tuple(tally.lacking.most_common(top)) if missing is not None and top > 0 else (),
    )


def _shapes(result: ParsedFace, name: str) -> list[str]:
    """The distinct shapes of an incomplete face's unimplemented text, in text order."""
    found = list(dict.fromkeys(shape(node.text, name) for node in result.unimplemented))
    return found or [RENDER_MISMATCH]


def format_report(report: CoverageReport) -> str:
    """The report as readable lines: totals, then the top shapes with their counts and an example."""
    lines = [
        f"faces        {report.faces:,}",
        f"parsed       {report.parsed:,} ({report.rate:.1%})",
        f"parse time   {report.seconds:.3f} s",
        f"faces/s      {report.faces_per_second:,.0f}",
        f"peak memory  {report.peak_memory_mb:.1f} MB",
    ]
    if report.executable is not None:
        lines.insert(
            2, f"executable   {report.executable:,} ({report.executable / max(report.faces, 1):.1%})"
        )
    if report.parsed == report.faces:
        lines.append("every face parsed")
    if report.top_missing:
        lines.append("most frequent reasons a parsed face does not execute (faces, reason):")
        lines.extend(f"  {count:>6,}  {reason}" for reason, count in report.top_missing)
    if not report.top_unimplemented:
        return "\n".join(lines)
    lines.append("most frequent unimplemented shapes (faces, shape, an example):")
    width = len(f"{report.top_unimplemented[0][1]:,}")
    for found, count in report.top_unimplemented:
        example = report.examples_of(found)
        lines.append(f"  {count:>{width},}  {found}" + (f"  [{example[0]}]" if example else ""))
    return "\n".join(lines)


def coverage_command(
    path: Path,
    as_json: bool,
    min_rate: float | None,
    top: int,
    *,
    parse: ParseFn | None = None,
    missing: MissingFn | None = None,
    jobs: int = 1,
) -> int:
    """``carddb coverage FILE [--json] [--min-rate R] [--top N] [--engine] [--jobs N]``: parse every
    face of FILE, print the report (text, or JSON with ``as_json``) and return the exit status: 1
    when the rate is below ``min_rate`` (a fraction, 0 to 1), else 0. Faces are read first, so the
    time is the parser's; ``missing`` and ``jobs`` are :func:`measure`'s."""
    faces = list(read_faces(path))
    report = measure(faces, parse=parse, top=top, missing=missing, jobs=jobs)
    if as_json:
        click.echo(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(format_report(report))
    if min_rate is not None and report.rate < min_rate:
        click.echo(f"coverage {report.rate:.6g} below the minimum {min_rate:g}", err=True)
        return 1
    return 0
