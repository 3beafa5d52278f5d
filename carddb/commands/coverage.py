"""``carddb coverage``: how much of a file of faces the oracle grammar (and the engine) handles."""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from carddb.oracle.coverage import MissingFn, coverage_command, default_jobs

ENGINE_CATALOG = "carddb.engine.catalog"
"""Where the engine's ``card_face_missing`` is; loaded only for ``--engine``: the engine takes most of a
second to import, and a coverage run of the grammar alone does not need it."""


@click.command("coverage")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--min-rate", type=float, metavar="R", help="Exit 1 when the parsed rate is below R (0..1).")
@click.option("--top", type=int, default=20, show_default=True, help="How many unimplemented shapes to list.")
@click.option("--engine", is_flag=True, help="Also count the faces the rules engine executes entirely.")
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Processes that parse (default: one per CPU; 1 parses in this process).",
)
@click.pass_context
def coverage_cli(
    ctx: click.Context,
    path: Path,
    as_json: bool,
    min_rate: float | None,
    top: int,
    engine: bool,
    jobs: int | None,
) -> None:
    """How much of a file of faces (JSONL, MTGJSON or Scryfall) the oracle grammar parses."""
    missing: MissingFn | None = importlib.import_module(ENGINE_CATALOG).card_face_missing if engine else None
    status = coverage_command(
        path, as_json=as_json, min_rate=min_rate, top=top, missing=missing, jobs=jobs or default_jobs()
    )
    ctx.exit(status)
