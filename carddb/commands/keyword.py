"""``carddb keyword``: what rulings and keyword pages say about a keyword or game topic."""

from __future__ import annotations

import json

import click

from carddb.commands.context import Context, pass_context
from carddb.notes import format_keyword


@click.command("keyword")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def keyword_command(obj: Context, name: str, as_json: bool) -> None:
    """Show what the imported rulings and keyword pages say about a keyword or topic (madness, dice)."""
    view = obj.reader().keyword(name)
    click.echo(json.dumps(view.to_dict(), ensure_ascii=False, indent=2) if as_json else format_keyword(view))
