"""Tokens: creature tokens described by their text, and named tokens (Treasure, Food, Clue…)."""

from __future__ import annotations

from carddb.engine.core.cards import CardDef
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.forms import written
from carddb.engine.core.proposed import Proposed
from carddb.engine.core.state import GameObject
from carddb.engine.query.executable import missing
from carddb.engine.query.nouns import (
    COLOR_WORDS,
    amount_of,
    objects,
    players,
    resolve,
    value,
)
from carddb.engine.rules.replacement import replace
from carddb.oracle.model import Action, Kind, Noun


def _keyword_line(keywords: str) -> str:
    """ "flying and trample" as a keyword line: "Flying, trample"."""
    line = keywords.replace(", and ", ", ").replace(" and ", ", ")
    return line[:1].upper() + line[1:]


TOKEN_CARD_TYPES = {"artifact": "Artifact", "enchantment": "Enchantment", "creature": "Creature"}
"""The card types a creature token's description may give it besides creature (111.4, 205.2a):
"1/1 colorless Thopter artifact creature token", "1/1 white Soldier enchantment creature tokens"."""

_TOKEN_WORDS = {"and", "colorless", "token", "tokens"}


def _token_check(action: Action, catalog: Catalog) -> str | None:
    """A creature token's description: subtypes, colours and card types only; any other word (a
    colour such as "gold", a supertype) is refused rather than dropped from the token."""
    what = action.arg("what")
    if not isinstance(what, Noun):
        return f"token {what!r}"
    for word in what.description.replace(",", " ").split():
        known = word[:1].isupper() or word in COLOR_WORDS or word in TOKEN_CARD_TYPES
        if not known and word not in _TOKEN_WORDS:
            return f"token {what.description!r}: the word {word!r}"
    for qualifier in what.qualifiers:
        if qualifier.verb != "with_keywords":  # create_token gives the token nothing else
            return f"token {what.description!r} {written(qualifier)!r}"
    return _token_keyword_problem(what, catalog)


def _token_keyword_problem(what: Noun, catalog: Catalog) -> str | None:
    """The keyword abilities "… creature token with decayed" gives the token are abilities it has
    (111.4, 702.1): each must be one the engine executes, checked as the token's own keyword line
    would be once it exists (``query.executable.missing``), but with the face that creates it."""
    for keywords in _token_keywords(what):
        line = CardDef(name="Token", type_line="Creature", text=_keyword_line(keywords))
        for ability in line.abilities:
            if ability.kind is not Kind.KEYWORD or not ability.keywords:
                return f"token with {keywords!r}"
            problems = missing(ability, catalog)
            if problems:
                return f"token with {problems[0]}"
    return None


def _token_keywords(what: Noun) -> list[str]:
    """ "… creature token with flying": the token's own keyword abilities, as written."""
    return [str(q.arg("keywords")) for q in what.qualifiers if q.verb == "with_keywords"]


def create_token(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    assert isinstance(what, Noun)
    power, toughness = str(action.arg("pt")).split("/")
    words = what.description.replace(",", " ").split()  # "red, white, and blue"
    subtypes = [w for w in words if w[:1].isupper()]
    # 111.4: the token has the card types its description names ("Soldier enchantment creature
    # tokens" is an Enchantment Creature), in the order printed; a creature token at least.
    card_types = [TOKEN_CARD_TYPES[w] for w in words if w in TOKEN_CARD_TYPES]
    if "Creature" not in card_types:
        card_types.append("Creature")
    granted = _token_keywords(what)
    colors = tuple(COLOR_WORDS[w] for w in words if w in COLOR_WORDS)  # "2/2 white Knight" (111.4)
    card = CardDef(
        name=" ".join(subtypes) + " Token" if subtypes else "Token",
        type_line=" ".join(dict.fromkeys(card_types)) + " — " + " ".join(subtypes),
        text="\n".join(_keyword_line(keywords) for keywords in granted),
        power=power,
        toughness=toughness,
        colors=colors,
    )
    count = value(ctx, action.arg("amount"))
    created: list[Ref] = []
    for player in players(ctx, subject):
        for _ in range(_how_many(ctx, player, count)):
            created.append(ctx.game.create(card, player, "battlefield", token=True))
    ctx.it = created  # "Exile it at the beginning of the next end step."
    ctx.mentions.append(list(created))  # "that token"


TOKENS = {
    "Treasure": ("Artifact — Treasure", "{T}, Sacrifice this artifact: Add one mana of any color."),
    "Food": ("Artifact — Food", "{2}, {T}, Sacrifice this artifact: You gain 3 life."),
    "Clue": ("Artifact — Clue", "{2}, Sacrifice this artifact: Draw a card."),
    "Gold": ("Artifact — Gold", "Sacrifice this artifact: Add one mana of any color."),
    "Blood": ("Artifact — Blood", "{1}, {T}, Discard a card, Sacrifice this artifact: Draw a card."),
    "Royal Role": (
        "Enchantment — Aura Role",
        "Enchant creature\nEnchanted creature gets +1/+1 and has ward {1}.",
    ),
    "Monster Role": (
        "Enchantment — Aura Role",
        "Enchant creature\nEnchanted creature gets +1/+1 and has trample.",
    ),
}
"""Predefined tokens (rule 111.10) by kind: type line and text. A Role token (303.7) is created
attached to a creature ("Create a Royal Role token attached to that creature.")."""
ROLE_NAMES = {"Royal Role": "Royal", "Monster Role": "Monster"}
"""The name of a Role token ("a colorless Aura Role enchantment token named Royal", seed 001)."""
TOKEN_NAMES = frozenset(ROLE_NAMES.get(kind, kind) for kind in TOKENS)
"""The names the game gives predefined tokens."""


def _how_many(ctx: Context, player: str, count: int) -> int:
    """How many tokens ``player`` creates when an effect would create ``count``: the creation is
    proposed first, for the replacement effects ("twice that many of those tokens", 614.1a)."""
    if count <= 0:
        return 0
    return replace(ctx.game, Proposed("create", player, amount=count), ctx.decider).amount


def create_named_token(ctx: Context, subject: list[Ref], action: Action) -> None:
    what = action.arg("what")
    assert isinstance(what, Noun)
    kind = _kind(what)
    hosts = _attached_to(ctx, what)
    role = kind in TOKENS and TOKENS[kind][0].endswith("Aura Role")
    if kind not in TOKENS or (what.qualifiers and not (role and hosts is not None)):
        raise EngineError(f"cannot create {what.description!r}")
    _create(ctx, subject, kind, amount_of(ctx, what), hosts)  # "a", "two", "X", "that many"


def _kind(what: Noun) -> str:
    return what.description.removesuffix(" tokens").removesuffix(" token")


def _create(
    ctx: Context, subject: list[Ref], kind: str, count: int, hosts: list[GameObject] | None = None
) -> None:
    type_line, text = TOKENS[kind]
    card = CardDef(name=ROLE_NAMES.get(kind, kind), type_line=type_line, text=text, colors=())  # colourless
    created: list[Ref] = []
    for player in players(ctx, subject):
        for _ in range(_how_many(ctx, player, count)):
            token = ctx.game.create(card, player, "battlefield", token=True)
            created.append(token)
            if hosts:  # "attached to that creature": gone, the Aura enchants nothing (704.5m)
                token.attached_to = hosts[0].id
    ctx.it = created
    ctx.mentions.append(list(created))


def investigate(ctx: Context, subject: list[Ref], action: Action) -> None:
    """Investigate (701.36): create a Clue token."""
    _create(ctx, subject, "Clue", 1)


def _earlier_create(action: Action) -> Action | None:
    """The create phrase whose tokens "those tokens" are (the parse's antecedent), if it counts
    its tokens with an ``amount`` ("create a 1/1 white Soldier creature token")."""
    what = action.arg("what")
    earlier = what.antecedents[0] if isinstance(what, Noun) and what.antecedents else None
    if not isinstance(earlier, Action) or earlier.arg("amount") is None:
        return None
    return earlier


def create_those_tokens(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "If this spell was kicked, create five of those tokens instead.": that many new tokens of
    the kind the earlier create phrase describes (tapped, with its keywords…), as it would make them."""
    earlier = _earlier_create(action)
    if earlier is None:
        raise EngineError("'those tokens' names no token created before")
    amount = action.arg("amount")
    args = tuple((role, amount if role == "amount" else old) for role, old in earlier.args)
    ctx.game.catalog.verbs[earlier.verb](ctx, subject, Action(earlier.verb, args, earlier.form, earlier.slot))


def _those_check(action: Action, catalog: Catalog) -> str | None:
    earlier = _earlier_create(action)
    if earlier is None or earlier.verb not in catalog.verbs:
        return "'those tokens' of no counted create before"
    check = catalog.checks.get(earlier.verb)
    problem = check(earlier, catalog) if check is not None else None
    return f"those tokens: {problem}" if problem is not None else None


def _named_check(action: Action, catalog: Catalog) -> str | None:
    """The predefined tokens the engine knows (:data:`TOKENS`), a Role "attached to" something."""
    what = action.arg("what")
    if not isinstance(what, Noun) or _kind(what) not in TOKENS:
        return f"token {getattr(what, 'description', what)!r}"
    role = TOKENS[_kind(what)][0].endswith("Aura Role")
    attached = len(what.qualifiers) == 1 and what.qualifiers[0].verb == "attached_to"
    if what.qualifiers and not (role and attached):
        return f"token {what.description!r} with a qualifier"
    return None


def _attached_to(ctx: Context, what: Noun) -> list[GameObject] | None:
    """The objects of a token's only qualifier "attached to {what}" (None: no such qualifier)."""
    if len(what.qualifiers) != 1 or what.qualifiers[0].verb != "attached_to":
        return None
    host = what.qualifiers[0].arg("what")
    return [obj for obj in objects(resolve(ctx, host)) if obj.zone == "battlefield"]


SECTION = Section(
    "effects.tokens",
    verbs={
        "create_creature_token": create_token,
        "create_token": create_named_token,
        "create_those_tokens": create_those_tokens,
        "investigate": investigate,
    },
    checks={
        "create_creature_token": _token_check,
        "create_token": _named_check,
        "create_those_tokens": _those_check,
    },
)
