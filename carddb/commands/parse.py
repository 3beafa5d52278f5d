"""``carddb parse``: oracle text, given or read from a card, parsed into typed abilities."""

from __future__ import annotations

import click

from carddb.commands.context import Context, TextCommand, joined, pass_context
from carddb.commands.output import json_text
from carddb.oracle import parse_oracle
from carddb.oracle.show import face_to_dict, format_face


@click.command("parse", cls=TextCommand)
@click.argument("text", nargs=-1)
@click.option("--name", metavar="NAME", help="The card's name, so its references to itself are recognized.")
@click.option(
    "--type", "type_line", metavar="TYPE", help="The type line (instants and sorceries hold spells)."
)
@click.option(
    "--card", "card_name", metavar="NAME", help="Parse the oracle text of a card from the database."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_context
def parse_command(
    obj: Context,
    text: tuple[str, ...],
    name: str | None,
    type_line: str | None,
    card_name: str | None,
    as_json: bool,
) -> None:
    """Parse oracle TEXT (or a card's text with --card) into typed abilities."""
    if card_name is not None:
        view = obj.reader().card(card_name, lang="en")
        faces = [(face.english_name, face.text or "", face.type_line) for face in view.faces]
    elif text:
        faces = [(name or "", joined(text).replace("\\n", "\n"), type_line or "")]
    else:
        raise click.UsageError("give TEXT or --card NAME")
    parsed = [
        parse_oracle(face_text, face_name or None, face_type or None)
        for face_name, face_text, face_type in faces
    ]
    if as_json:
        click.echo(
            json_text([face_to_dict(p) for p in parsed] if len(parsed) > 1 else face_to_dict(parsed[0]))
        )
    else:
        obj.terminal.echo("\n\n".join(format_face(p) for p in parsed).splitlines())
