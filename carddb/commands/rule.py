"""``carddb rule``: rules of the Comprehensive Rules by number, glossary term, range or list."""

from __future__ import annotations

from typing import Any

import click

from carddb.commands.context import Context, TextCommand, joined, pass_context
from carddb.commands.output import json_text
from carddb.rules.lookup import format_rule


@click.command("rule", cls=TextCommand)
@click.argument("query", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def rule_command(obj: Context, query: tuple[str, ...], as_json: bool) -> None:
    """Show a rule of the Comprehensive Rules: by number (702.35, 702.35a), by a glossary term
    (madness), or several by a range or list (601.2f-h; 603.6 and 603.10), with subrules, examples
    and the rules it mentions."""
    views = obj.reader(cards=False).rules(joined(query))
    if as_json:
        data: Any = views[0].to_dict() if len(views) == 1 else [view.to_dict() for view in views]
        click.echo(json_text(data))
    else:
        obj.terminal.echo("\n\n".join(format_rule(view) for view in views).splitlines())
