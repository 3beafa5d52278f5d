"""``carddb languages``: the languages in the database, with native names and counts."""

from __future__ import annotations

from dataclasses import asdict

import click

from carddb.commands.context import Context, pass_context
from carddb.commands.output import cells as cells_of
from carddb.commands.output import json_text, ljust, rjust


@click.command("languages")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def languages_command(obj: Context, as_json: bool) -> None:
    """List the languages in the database with their counts."""
    counts = obj.reader().languages()
    if as_json:
        click.echo(json_text([asdict(c) for c in counts]))
        return
    rows = [("tag", "language", "native", "localizations", "printings", "rulings")]
    rows += [
        (c.tag, c.english_name, c.native_name, str(c.localizations), str(c.printings), str(c.rulings))
        for c in counts
    ]
    widths = [max(cells_of(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for index, row in enumerate(rows):
        left = [ljust(value, width) for value, width in zip(row[:3], widths[:3], strict=True)]
        right = [rjust(value, width) for value, width in zip(row[3:], widths[3:], strict=True)]
        line = "  ".join([*left, *right])
        lines.append(obj.terminal.style(line, bold=True) if index == 0 else line)
    obj.terminal.echo(lines)
