"""``carddb search``: cards matching a Scryfall-style query, a page at a time."""

from __future__ import annotations

import click

from carddb.commands.context import Context, TextCommand, joined, pass_context
from carddb.commands.output import Terminal, cells, json_text, ljust
from carddb.commands.scryfall import search_json
from carddb.search.results import SearchResult

#: The most cards a page holds, and the furthest page asked for: bounds that keep the offset of a
#: page (``(page - 1) * limit``) within every database's integers.
MAX_LIMIT = 1000
MAX_PAGE = 1_000_000


@click.command("search", cls=TextCommand)
@click.argument("query", nargs=-1, required=True)
@click.option("--lang", "lang", metavar="L", help="Show the cards in this language (and search its text).")
@click.option("--json", "as_json", is_flag=True, help="Print a Scryfall list object of card objects.")
@click.option(
    "--limit",
    type=click.IntRange(1, MAX_LIMIT),
    default=50,
    show_default=True,
    help="Cards per page.",
)
@click.option("--page", type=click.IntRange(1, MAX_PAGE), default=1, show_default=True, help="Which page.")
@click.option(
    "--order",
    metavar="ORDER",
    default="name",
    show_default=True,
    help="Sort by one of the orders the query's order: takes (name, cmc or mv, set, released, ...).",
)
@pass_context
def search_command(
    obj: Context, query: tuple[str, ...], lang: str | None, as_json: bool, limit: int, page: int, order: str
) -> None:
    """Find cards with a Scryfall-style QUERY: t:creature c:r mv<=3 o:haste (see docs/query-syntax.md)."""
    db = obj.reader()
    result = db.search(joined(query), lang=lang, limit=limit, page=page, order=order)
    if as_json:
        click.echo(json_text(search_json(db, result)))
    else:
        obj.terminal.echo(format_search(result, obj.terminal))


def format_search(result: SearchResult, terminal: Terminal) -> list[str | tuple[str, int]]:
    """A table of the cards found (name in the result's language, cost, type line) and the total;
    a row too long for the terminal goes on under its type line."""
    lines: list[str | tuple[str, int]] = []
    if result.cards:
        name_width = min(max(cells(hit.name) for hit in result.cards), 48)
        cost_width = min(max(len(hit.mana_cost or "") for hit in result.cards), 24)
        for hit in result.cards:
            name = terminal.style(ljust(hit.name, name_width), bold=True)
            cost = ljust(hit.mana_cost or "", cost_width)
            lines.append((f"{name}  {cost}  {hit.type_line}".rstrip(), name_width + cost_width + 4))
    first = (result.page - 1) * result.limit + 1
    shown = (
        f" (showing {first}-{first + len(result.cards) - 1})"
        if result.cards and (len(result.cards) < result.total)
        else ""
    )
    if not result.cards and result.total:
        shown = f" (page {result.page} is past the end)"
    lines.append(f"{result.total} card{'' if result.total == 1 else 's'}{shown}")
    return lines
