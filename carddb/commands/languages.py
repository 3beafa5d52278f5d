"""``carddb languages``: the languages in the database, with native names and counts."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from carddb.commands.context import Context, pass_context


@click.command("languages")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def languages_command(obj: Context, as_json: bool) -> None:
    """List the languages in the database with their counts."""
    counts = obj.reader().languages()
    if as_json:
        click.echo(json.dumps([asdict(c) for c in counts], ensure_ascii=False, indent=2))
        return
    click.echo(
        f"{'tag':<9}{'language':<22}{'native':<20}{'localizations':>14}{'printings':>11}{'rulings':>9}"
    )
    for c in counts:
        click.echo(
            f"{c.tag:<9}{c.english_name:<22}{c.native_name:<20}{c.localizations:>14}{c.printings:>11}{c.rulings:>9}"
        )
