"""``carddb card``: a card found by its name in any language, shown in another."""

from __future__ import annotations

import click

from carddb import languages
from carddb.commands.context import Context, TextCommand, joined, pass_context
from carddb.commands.output import Terminal, json_text
from carddb.notes import format_note
from carddb.views import CardView


@click.command("card", cls=TextCommand)
@click.argument("name", nargs=-1, required=True)
@click.option("--lang", "lang", metavar="L", help="Show the card in this language (e.g. de, ja, Deutsch).")
@click.option("--json", "as_json", is_flag=True, help="Print a Scryfall card object (with its rulings).")
@click.option(
    "--exact", is_flag=True, help="Only a name written exactly (no fuzzy match, as Scryfall's named?exact=)."
)
@pass_context
def card_command(obj: Context, name: tuple[str, ...], lang: str | None, as_json: bool, exact: bool) -> None:
    """Show a card, found by its name in any language.

    A misspelt or partial name resolves to the one card it clearly means, as Scryfall's
    named?fuzzy= does; --exact takes only a name written exactly."""
    db = obj.reader()
    view = db.card(joined(name), lang=lang, fuzzy=not exact)
    if as_json:
        # deferred: Scryfall's objects (carddb.serve.facts, which brings RapidFuzz) only for --json
        from carddb.commands.scryfall import card_json

        click.echo(json_text(card_json(db, view)))
    else:
        obj.terminal.echo(format_card(view, obj.terminal).splitlines())


def format_card(view: CardView, terminal: Terminal | None = None) -> str:
    """A card as text: name, cost, type, text per face; printings; rulings with local dates (in
    colour on a terminal: names and headings in bold, the language line dimmed)."""
    style = terminal.style if terminal is not None else _plain
    language = languages.by_tag(view.language)
    lines: list[str] = []
    for index, face in enumerate(view.faces):
        if index:
            lines.append("//")
        lines.append(f"{style(face.name, bold=True)}  {face.mana_cost or ''}".rstrip())
        lines.append(face.type_line)
        if face.text:
            lines.extend(face.text.splitlines())
        stats = "/".join(s for s in (face.power, face.toughness) if s is not None)
        for label, value in (("", stats), ("Loyalty: ", face.loyalty), ("Defense: ", face.defense)):
            if value:
                lines.append(f"{label}{value}")
        if face.flavor:
            lines.append(f"  {face.flavor}")
    header = f"[{language.native_name} ({language.tag})"
    if view.language != "en":
        header += f"; English name: {view.english_name}"
    lines.append(style(header + "]", dim=True))
    if view.fallback:
        lines.append(f"(no {language.english_name} text for part of this card: shown in English)")
    lines.append("")
    lines.append(style("Printings:", bold=True))
    for p in view.printings:
        released = p.release_date.isoformat() if p.release_date else "?"
        lines.append(
            f"  {p.set_code:<6} #{p.collector_number:<5} {p.rarity or '':<9} {released}  {p.set_name}"
            f"  [{' '.join(p.languages)}]"
        )
    if view.rulings:
        lines.append("")
        heading = "Rulings:"
        if view.rulings_language != view.language:
            heading = f"Rulings (in {languages.by_tag(view.rulings_language).english_name}):"
        lines.append(style(heading, bold=True))
        for ruling in view.rulings:
            date = ruling.date_in(view.language)
            lines.append(f"  {date}: {ruling.text}" if date else f"  {ruling.text}")
    if view.notes:
        lines.append("")
        lines.append(style("Notes from rulings and keyword pages:", bold=True))
        lines.extend(format_note(note, view.english_name) for note in view.notes)
    if view.rules:
        lines.append("")
        lines.append(style("Rules mentioned:", bold=True))
        lines.extend(f"  {rule}" for rule in view.rules)
    return "\n".join(lines)


def _plain(text: str, **_styles: object) -> str:
    return text
