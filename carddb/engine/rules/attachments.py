"""Auras and Equipment: objects attached to other objects (rules 301.5, 303.4, 701.3).

``GameObject.attached_to`` holds the id of the permanent an Aura enchants or an Equipment equips.
No card has code of its own here either: what an Aura may enchant and what an Equip ability does
are written as oracle text and parsed by the oracle grammar like any card's text:

* an Aura spell (``Enchant creature you control``) is cast as the spell "Attach this Aura to target
  creature you control.": its target is chosen on casting, checked again on resolution (an illegal
  target: the spell goes to the graveyard, rule 608.3b), and it enters attached (rule 303.4f);
* ``Equip {2}`` is the activated ability "{2}: Attach this Equipment to target creature you
  control. Activate only as a sorcery." (rule 702.6a; ``Equip Knight {1}`` targets a Knight);
* "enchanted creature", "equipped creature", "enchanted land"… name the object the source is
  attached to (:func:`carddb.engine.query.nouns.attached_reference`), in effects, triggers and static
  abilities alike;
* state-based actions (rules 704.5m–n): an Aura attached to nothing or to an object it cannot
  enchant goes to its owner's graveyard; an Equipment attached to something that is not a
  creature it could equip becomes unattached;
* an Aura put onto the battlefield other than by resolving (returned from a graveyard, say) is
  attached to something it can enchant, chosen by its controller as it enters (rule 303.4f).

Not done (the corpus's faces that need these stay not executable): enchanting players, Auras with
protection from their quality, Fortifications, reconfigure and bestow.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from carddb.engine.core.cards import CardDef, parse_ability, refused_ability, sole_keyword
from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.decisions import Decider
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.executable import missing
from carddb.engine.query.nouns import matches, objects, resolve
from carddb.engine.rules.protection import protected_from
from carddb.engine.rules.zones import put
from carddb.oracle.model import Ability, Action, Clause, Keyword, Kind, Noun

__all__ = ["as_activated", "aura_spell", "can_attach", "check", "enchant_noun", "enter_attached"]

_PLAYER_WORDS = {"player", "players", "opponent", "opponents"}


def _attach_action(ability: Ability) -> Action | None:
    """The "attach" action of a one-sentence ability (None if it is not one)."""
    step = ability.effects[0] if len(ability.effects) == 1 else None
    if not isinstance(step, Clause) or len(step.predicates) != 1:
        return None
    (predicate,) = step.predicates
    return predicate if isinstance(predicate, Action) and predicate.verb == "attach" else None


# -- Enchant ------------------------------------------------------------------------------------
def enchant_keyword(card: CardDef) -> Keyword | None:
    for ability in card.abilities:
        if ability.kind is Kind.KEYWORD:
            for keyword in ability.keywords:
                if keyword.name == "Enchant":
                    return keyword
    return None


@cache
def _aura_ability(parameter: str) -> Ability:
    text = f"Enchant {parameter}"
    if set(parameter.lower().replace(",", " ").split()) & _PLAYER_WORDS:
        return refused_ability(Kind.SPELL, text, "Auras that enchant players are not implemented")
    ability = parse_ability(f"Attach this Aura to target {parameter}.", "Enchantment — Aura")
    if ability is None or _attach_action(ability) is None:
        return refused_ability(Kind.SPELL, text, "the grammar does not read what it enchants")
    return replace(ability, kind=Kind.SPELL)


def aura_spell(card: CardDef) -> Ability | None:
    """An Aura spell's ability: "Attach this Aura to target <what Enchant allows>." (None: not an
    Aura, or one with no Enchant keyword)."""
    keyword = enchant_keyword(card)
    if keyword is None or "Aura" not in card.subtypes:
        return None
    return _aura_ability(keyword.parameter or "")


def enchant_noun(card: CardDef, catalog: Catalog) -> Noun | None:
    """What an Aura may enchant, as a noun phrase without "target" (None: nothing the engine knows)."""
    ability = aura_spell(card)
    action = _attach_action(ability) if ability is not None and not missing(ability, catalog) else None
    to = action.arg("to") if action is not None else None
    return Noun((), to.description, to.qualifiers, narrowed=to.narrowed) if isinstance(to, Noun) else None


def _enchant_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    parameter = keyword.parameter or ""
    return [f"keyword enchant {parameter}"] if missing(_aura_ability(parameter), catalog) else []


# -- Equip --------------------------------------------------------------------------------------
@cache
def _equip_ability(name: str, parameter: str, long_cost: bool) -> Ability:
    quality = name.removeprefix("Equip").strip() or "creature"
    cost = parameter.removesuffix(".") if long_cost else parameter
    text = f"{cost}: Attach this Equipment to target {quality} you control. Activate only as a sorcery."
    ability = parse_ability(text, "Artifact — Equipment")
    if ability is None or ability.kind is not Kind.ACTIVATED or _attach_action(ability) is None:
        return refused_ability(
            Kind.ACTIVATED, f"{name} {parameter}", "the grammar does not read this equip cost"
        )
    return ability


def _equip_keyword(ability: Ability) -> Keyword | None:
    keyword = sole_keyword(ability)
    return keyword if keyword is not None and keyword.name.split(" ")[0] == "Equip" else None


def as_activated(ability: Ability) -> Ability:
    """An Equip keyword as the activated ability it stands for; any other ability as it is."""
    keyword = _equip_keyword(ability)
    if keyword is None or keyword.parameter is None:
        return ability
    equip = _equip_ability(keyword.name, keyword.parameter, keyword.long_cost)
    if not ability.restrictions:
        return equip
    # "Equip {0}. Activate only once each turn.": the line's restrictions are the ability's too
    return replace(equip, restrictions=(*equip.restrictions, *ability.restrictions))


def _equip_problems(keyword: Keyword, catalog: Catalog) -> list[str]:
    if not keyword.parameter:
        return [f"keyword {keyword.name.lower()}"]
    problems = missing(_equip_ability(keyword.name, keyword.parameter, keyword.long_cost), catalog)
    return [f"keyword {keyword.name.lower()}"] if problems else []




# -- attaching ----------------------------------------------------------------------------------
def can_attach(game: Game, obj: GameObject, host: GameObject) -> bool:
    """Whether ``obj`` could be attached to ``host`` (a permanent): an Aura to what its Enchant
    allows, an Equipment (not itself a creature) to a creature; nothing to itself."""
    if host is obj or host.zone != "battlefield" or host.id not in game.objects:
        return False
    if protected_from(host, obj):
        return False  # protection: it can't be enchanted or equipped by it
    if obj.is_a("Aura"):
        noun = enchant_noun(obj.card, game.catalog)
        ctx = Context(game, _NO_DECIDER, obj.controller, obj)  # type: ignore[arg-type]
        return noun is not None and matches(ctx, host, noun)
    if obj.is_a("Equipment"):
        return host.is_a("Creature") and not obj.is_a("Creature")
    return False


class _NoDecider:
    """Checking what an Aura may enchant asks nothing."""

    def roll(self, sides: int, why: str) -> int:
        raise AssertionError(why)

    def choose(self, question: str, options: object) -> str:
        raise AssertionError(question)


_NO_DECIDER = _NoDecider()


def attach(ctx: Context, subject: list[Ref], action: Action) -> None:
    """ "Attach this Equipment to target creature you control": attached if it can be (rule
    701.3b: otherwise nothing happens). An Aura spell resolving is attached as it enters."""
    hosts = list(objects(resolve(ctx, action.arg("to"))))  # first: "attach ~ to it", "it" named before
    movers = list(objects(resolve(ctx, action.arg("what"))))
    for obj in movers:
        if obj.zone not in ("battlefield", "stack") or (obj.zone == "stack" and obj is not ctx.source):
            continue
        for host in hosts[:1]:
            if can_attach(ctx.game, obj, host):
                obj.attached_to = host.id
                ctx.game.log.append(f"{obj.name} is attached to {host.name}")


def _attached_to(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    """ "Equipment attached to it", "each Aura attached to target creature": ``ref`` is attached to
    what the qualifier's noun phrase names (an untargeted "a creature": to any creature)."""
    if isinstance(ref, str) or ref.attached_to is None or ref.zone != "battlefield":
        return False
    host = ctx.game.objects.get(ref.attached_to)
    if host is None:
        return False
    what = qualifier.arg("what")
    if isinstance(what, Noun) and "that" in what.determiners:  # "that creature": the one named last
        return any(obj is host for obj in objects(ctx.it)) and matches(ctx, host, what)
    if isinstance(what, Noun) and id(what) not in ctx.slots:
        return matches(ctx, host, what)
    saved = ctx.it
    found = resolve(ctx, what)
    ctx.it = saved
    return any(obj is host for obj in objects(found))




def check(game: Game) -> bool:
    """State-based actions of attachments (rules 704.5m, 704.5n); True if any was performed."""
    acted = False
    for obj in list(game.permanents()):
        host = game.objects.get(obj.attached_to) if obj.attached_to is not None else None
        aura = obj.is_a("Aura")
        if host is not None and can_attach(game, obj, host):
            continue
        if aura:
            game.log.append(f"{obj.name} is put into its owner's graveyard (it enchants nothing it can)")
            put(game, obj, "graveyard", cause="sba")
            acted = True
        elif obj.attached_to is not None:
            obj.attached_to = None
            game.log.append(f"{obj.name} becomes unattached")
            acted = True
    return acted


def enter_attached(game: Game, decider: Decider, obj: GameObject) -> None:
    """An Aura entering the battlefield unattached (not by resolving as a spell): its controller
    chooses something it can enchant (rule 303.4f). With nothing to enchant it stays unattached and
    the state-based actions put it into the graveyard."""
    if obj.zone != "battlefield" or not obj.is_a("Aura") or obj.attached_to is not None:
        return
    legal = [host for host in game.permanents() if can_attach(game, obj, host)]
    if not legal:
        return
    names = list(dict.fromkeys(host.name for host in legal))
    name = decider.choose(f"{obj.controller}: attach {obj.name} to which?", names)
    obj.attached_to = next(host for host in legal if host.name == name).id


SECTION = Section(
    "rules.attachments",
    verbs={"attach": attach},
    qualifiers={"attached_to": _attached_to},
    keyword_checks={"enchant": _enchant_problems, "equip": _equip_problems},
)
