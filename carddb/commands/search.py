"""``carddb search``: cards matching a Scryfall-style query, a page at a time."""

from __future__ import annotations

import json
import unicodedata

import click

from carddb.commands.context import Context, pass_context
from carddb.search.results import ORDERS, SearchResult


@click.command("search")
@click.argument("query")
@click.option("--lang", "lang", metavar="L", help="Show the cards in this language (and search its text).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True, help="Cards per page.")
@click.option("--page", type=click.IntRange(min=1), default=1, show_default=True, help="Which page.")
@click.option(
    "--order",
    type=click.Choice(ORDERS),
    default="name",
    show_default=True,
    help="Sort by name, mana value, set or release (newest first).",
)
@pass_context
def search_command(
    obj: Context, query: str, lang: str | None, as_json: bool, limit: int, page: int, order: str
) -> None:
    """Find cards with a Scryfall-style QUERY: t:creature c:r mv<=3 o:haste (see docs/query-syntax.md)."""
    result = obj.reader().search(query, lang=lang, limit=limit, page=page, order=order)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(format_search(result))


def format_search(result: SearchResult) -> str:
    """A table of the cards found (name in the result's language, cost, type line) and the total."""
    lines = []
    if result.cards:
        name_width = min(max(_width(hit.name) for hit in result.cards), 48)
        cost_width = min(max(len(hit.mana_cost or "") for hit in result.cards), 24)
        for hit in result.cards:
            name = hit.name + " " * max(0, name_width - _width(hit.name))
            lines.append(f"{name}  {(hit.mana_cost or ''):<{cost_width}}  {hit.type_line}".rstrip())
    first = (result.page - 1) * result.limit + 1
    shown = (
        f" (showing {first}-{first + len(result.cards) - 1})"
        if result.cards and (len(result.cards) < result.total)
        else ""
    )
    if not result.cards and result.total:
        shown = f" (page {result.page} is past the end)"
    lines.append(f"{result.total} card{'' if result.total == 1 else 's'}{shown}")
    return "\n".join(lines)


def _width(text: str) -> int:
    """Terminal columns of ``text`` (wide CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)
