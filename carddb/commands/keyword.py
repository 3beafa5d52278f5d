"""``carddb keyword``: what rulings and keyword pages say about a keyword or game topic."""

from __future__ import annotations

import click

from carddb.commands.context import Context, TextCommand, joined, pass_context
from carddb.commands.output import json_text
from carddb.notes import format_keyword


@click.command("keyword", cls=TextCommand)
@click.argument("name", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def keyword_command(obj: Context, name: tuple[str, ...], as_json: bool) -> None:
    """Show what the imported rulings and keyword pages say about a keyword or topic (madness, dice)."""
    view = obj.reader(cards=False).keyword(joined(name))
    if as_json:
        click.echo(json_text(view.to_dict()))
    else:
        obj.terminal.echo(format_keyword(view).splitlines())
