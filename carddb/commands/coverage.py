"""``carddb coverage``: how much of a file of faces the oracle grammar (and the engine) handles."""

from __future__ import annotations

from pathlib import Path

import click

from carddb.oracle.coverage import coverage_command


@click.command("coverage")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--min-rate", type=float, metavar="R", help="Exit 1 when the parsed rate is below R (0..1).")
@click.option("--top", type=int, default=20, show_default=True, help="How many unimplemented shapes to list.")
@click.option("--engine", is_flag=True, help="Also count the faces the rules engine executes entirely.")
@click.pass_context
def coverage_cli(
    ctx: click.Context, path: Path, as_json: bool, min_rate: float | None, top: int, engine: bool
) -> None:
    """How much of a file of faces (JSONL, MTGJSON or Scryfall) the oracle grammar parses."""
    ctx.exit(coverage_command(path, as_json=as_json, min_rate=min_rate, top=top, engine=engine))
