"""``carddb scenario run``: rules-engine scenarios (TOML files), pass or fail with what differs."""

from __future__ import annotations

from pathlib import Path

import click

import carddb
from carddb.commands.context import Context
from carddb.engine.core.cards import CardPool
from carddb.engine.scenario.runner import ScenarioError, run_file


@click.group("scenario")
def scenario_group() -> None:
    """Rules-engine scenarios (TOML files; see docs/scenarios.md)."""


@scenario_group.command("run")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--db", "db_url", metavar="URL", help="Database with the cards (default: carddb's own).")
@click.option("--log", "show_log", is_flag=True, help="Print the game log of each scenario that fails.")
@click.pass_obj
def scenario_run(obj: Context, paths: tuple[Path, ...], db_url: str | None, show_log: bool) -> None:
    """Run scenario files: one line each, pass or fail with what differs (``--log``: and the
    game's log, when it fails). Exit 0 when all pass,
    1 when any fails, 2 when a file is invalid, 3 when a scenario needs an ability the engine
    does not execute, 70 when the engine itself broke on a file (docs/scenarios.md). Every file
    is run whatever happened to the ones before it."""
    pool = CardPool(carddb.open(db_url, read_only=True) if db_url else obj.reader())
    failed = invalid = refused = broken = 0
    for path in paths:
        try:
            result = run_file(path, pool)
        except ScenarioError as error:
            invalid += 1
            click.echo(f"INVALID {error}")
            continue
        except Exception as error:  # an engine bug: reported for this file, and the batch goes on
            broken += 1
            click.echo(f"ERROR {path}: internal error: {type(error).__name__}: {error}")
            continue
        if result.not_executable is not None:
            refused += 1
            click.echo(f"NOT EXECUTABLE {path}  {result.title}")
            click.echo(f"    {result.not_executable}")
            continue
        click.echo(f"{'PASS' if result.passed else 'FAIL'} {path}  {result.title}")
        for difference in result.differences:
            click.echo(f"    {difference}")
        if show_log and not result.passed:
            click.echo("    log:")
            for line in result.log:
                click.echo(f"      {line}")
        failed += not result.passed
    raise SystemExit(70 if broken else 2 if invalid else 1 if failed else 3 if refused else 0)
