"""``carddb card``: a card found by its name in any language, shown in another."""

from __future__ import annotations

import json

import click

from carddb import languages
from carddb.commands.context import Context, pass_context
from carddb.notes import format_note
from carddb.views import CardView


@click.command("card")
@click.argument("name")
@click.option("--lang", "lang", metavar="L", help="Show the card in this language (e.g. de, ja, Deutsch).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def card_command(obj: Context, name: str, lang: str | None, as_json: bool) -> None:
    """Show a card, found by its name in any language."""
    view = obj.reader().card(name, lang=lang)
    if as_json:
        click.echo(json.dumps(view.to_dict(), ensure_ascii=False, indent=2))
    else:
        click.echo(format_card(view))


def format_card(view: CardView) -> str:
    """A card as text: name, cost, type, text per face; printings; rulings with local dates."""
    language = languages.by_tag(view.language)
    lines: list[str] = []
    for index, face in enumerate(view.faces):
        if index:
            lines.append("//")
        lines.append(f"{face.name}  {face.mana_cost or ''}".rstrip())
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
    lines.append(header + "]")
    if view.fallback:
        lines.append(f"(no {language.english_name} text for part of this card: shown in English)")
    lines.append("")
    lines.append("Printings:")
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
        lines.append(heading)
        for ruling in view.rulings:
            date = ruling.date_in(view.language)
            lines.append(f"  {date}: {ruling.text}" if date else f"  {ruling.text}")
    if view.notes:
        lines.append("")
        lines.append("Notes from rulings and keyword pages:")
        lines.extend(format_note(note, view.english_name) for note in view.notes)
    if view.rules:
        lines.append("")
        lines.append("Rules mentioned:")
        lines.extend(f"  {rule}" for rule in view.rules)
    return "\n".join(lines)
