"""Tokens: creature tokens described by their text, and named tokens (Treasure, Food, Clue…)."""

from __future__ import annotations

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import is_form
from carddb.engine.query.nouns import (
    COLOR_WORDS,
    players,
    value,
)
from carddb.oracle.model import Action, Noun


def _keyword_line(keywords: str) -> str:
    """ "flying and trample" as a keyword line: "Flying, trample"."""
    line = keywords.replace(", and ", ", ").replace(" and ", ", ")
    return line[:1].upper() + line[1:]


def create_token(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    assert isinstance(what, Noun)
    power, toughness = str(action.arg("pt")).split("/")
    words = what.description.split()
    subtypes = [w for w in words if w[:1].isupper()]
    granted = [
        str(q.arg("keywords")) for q in what.qualifiers if q.verb == "with_keywords" and is_form(q, "with")
    ]  # "… creature token with flying": the token's own keyword abilities
    colors = tuple(COLOR_WORDS[w] for w in words if w in COLOR_WORDS)  # "2/2 white Knight" (111.4)
    card = CardDef(
        name=" ".join(subtypes) + " Token" if subtypes else "Token",
        type_line="Token Creature — " + " ".join(subtypes),
        text="\n".join(_keyword_line(keywords) for keywords in granted),
        power=power,
        toughness=toughness,
        colors=colors,
    )
    count = value(ctx, action.arg("amount"))
    created: list[Ref] = []
    for player in players(ctx, subject):
        for _ in range(count):
            created.append(ctx.game.create(card, player, "battlefield", token=True))
    ctx.it = created  # "Exile it at the beginning of the next end step."
    ctx.mentions.append(list(created))  # "that token"




TOKENS = {
    "Treasure": ("Token Artifact — Treasure", "{T}, Sacrifice this artifact: Add one mana of any color."),
    "Food": ("Token Artifact — Food", "{2}, {T}, Sacrifice this artifact: You gain 3 life."),
    "Clue": ("Token Artifact — Clue", "{2}, Sacrifice this artifact: Draw a card."),
    "Gold": ("Token Artifact — Gold", "Sacrifice this artifact: Add one mana of any color."),
    "Blood": ("Token Artifact — Blood", "{1}, {T}, Discard a card, Sacrifice this artifact: Draw a card."),
}
"""Predefined tokens (rule 111.10) by subtype: type line and text."""


def _kind(what: Noun) -> str:
    return what.description.removesuffix(" tokens").removesuffix(" token")


def create_named_token(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    assert isinstance(what, Noun)
    kind = _kind(what)
    if kind not in TOKENS or what.qualifiers:
        raise EngineError(f"cannot create {what.description!r}")
    count = value(ctx, what.amount) if what.amount is not None else 1
    _create(ctx, subject, kind, count)


def _create(ctx: Context, subject: list[Ref], kind: str, count: int) -> None:
    type_line, text = TOKENS[kind]
    card = CardDef(name=f"{kind} Token", type_line=type_line, text=text, colors=())  # colourless (111.10)
    created: list[Ref] = []
    for player in players(ctx, subject):
        for _ in range(count):
            created.append(ctx.game.create(card, player, "battlefield", token=True))
    ctx.it = created
    ctx.mentions.append(list(created))


def investigate(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Investigate (701.36): create a Clue token."""
    _create(ctx, subject, "Clue", 1)


def _named_check(action: Action, catalog: Catalog) -> str | None:
    """The predefined tokens the engine knows (:data:`TOKENS`), without qualifiers."""
    what = action.arg("what")
    if not isinstance(what, Noun) or _kind(what) not in TOKENS or what.qualifiers:
        return f"token {getattr(what, 'description', what)!r}"
    return None


SECTION = Section(
    "effects.tokens",
    verbs={
        "create_creature_token": create_token,
        "create_token": create_named_token,
        "investigate": investigate,
    },
    checks={"create_token": _named_check},
)
