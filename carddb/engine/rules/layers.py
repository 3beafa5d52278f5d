"""Continuous effects that change characteristics (rule 613): what each phrase changes and in which
layer (:func:`changes`), and the effects of static abilities, recomputed after every step and
action (:func:`refresh`) with timestamps (613.7) and the dependency rule (613.8).

A phrase changes characteristics the same way whether a static ability says it ("Enchanted
creature gets +1/+1") or a resolving spell or ability does ("Target creature gets +1/+1 until end
of turn"): :func:`changes` turns it into :class:`Change` values, one per layer it touches ("is a
1/1 blue Frog creature": types in layer 4, colour in 5, P/T in 7b). A resolving ability puts them
on the objects it affects, with a new timestamp (:func:`apply_resolved`; the set of objects is
fixed then, 611.2c). Static abilities' are recomputed by :func:`refresh`, layer by layer: in each
layer the static abilities that exist then (printed ones up to layer 6, those the object still
has after layer 6 in layer 7) apply to what they describe then, the set of objects fixed once an
ability has begun to apply (613.6). In layer 6, an effect whose ability another effect removes
depends on that effect (613.8a) and waits for it (613.8b) — so it no longer exists when its turn
comes; effects that depend on each other in a loop apply in timestamp order (613.8k).
:func:`carddb.engine.core.layers.characteristics` then applies the effects on each object in
layer and timestamp order."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from carddb.engine.core.catalog import Catalog, Section
from carddb.engine.core.context import Context, Ref
from carddb.engine.core.errors import EngineError
from carddb.engine.core.layers import Layer, LayerEffect, Op, at_level, is_leveler, split_keywords
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import active_abilities
from carddb.engine.query.choices import chosen_color, protection_from_chosen_color
from carddb.engine.query.nouns import count, counter_kind, objects, player_counters, resolve, value
from carddb.engine.rules.continuous import NO_DECISIONS, applying_clauses, is_applied_static
from carddb.oracle.model import Ability, Action, Clause, Kind, Noun, X
from carddb.oracle.phrases import find

COLOR_LETTERS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
TYPE_WORDS = {
    "artifact": "Artifact", "creature": "Creature", "enchantment": "Enchantment", "land": "Land",
    "planeswalker": "Planeswalker",
}  # fmt: skip
LAYERED = frozenset({
    "gets", "gets_each", "gets_for_each", "gets_for_each_player_counter", "has", "gains",
    "is_indestructible", "has_ability", "loses", "has_base_pt", "is_a_creature", "becomes", "switch_pt",
    "power_toughness_equal", "is_type",
})  # fmt: skip
"""The phrases that change characteristics ("is_type": a static "Enchanted creature … is an Angel in
addition to its other types", read as what it becomes)."""
STATIC_VERBS = LAYERED - {"gains", "switch_pt"}
"""Those a static ability applies (:func:`refresh`)."""
CHECKED = (
    "gets", "gets_each", "is_a_creature", "has_base_pt", "becomes", "switch_pt", "power_toughness_equal",
    "has", "with_keywords", "is_type",
)  # fmt: skip
"""Those of which only some phrases execute (:func:`problem`)."""
QUALITIES = frozenset({
    "in_addition_to_types", "with_keywords", "with_ability", "that_is_still", "with_base_pt",
})  # fmt: skip
"""What "becomes …" may say of what it becomes besides its types and colours."""
STATIC_LAYERS = (
    Layer.TYPE, Layer.COLOR, Layer.ABILITY, Layer.PT_DEFINING, Layer.PT_SETTING, Layer.PT_CHANGING,
    Layer.PT_SWITCHING,
)  # fmt: skip
LAND_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest", "Desert", "Gate", "Lair", "Locus"})
"""Land subtypes (205.3i), which a static "is a …" is refused for: 305.7 takes the land's old
abilities away and gives the new types' mana abilities, which :class:`CardDef` adds once."""
_PT_CHANGE = re.compile(r"([+-])(\d+|X)/([+-])(\d+|X)")
_PT_SET = re.compile(r"(\d+)/(\d+)")


@dataclass(frozen=True)
class Change:
    """What one phrase does in one layer (a :class:`LayerEffect` without timestamp or object)."""

    layer: Layer
    op: Op
    values: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    granted: Ability | None = None
    granter: int | None = None
    """``GRANT``: the object whose text holds the quoted ability (``~`` in it names that object)."""

    def effect(self, timestamp: int, **more: object) -> LayerEffect:
        return LayerEffect(
            self.layer, timestamp, self.op, self.values, self.power, self.toughness, self.granted,
            granter=self.granter,
            **more,  # type: ignore[arg-type]
        )


@dataclass(frozen=True)
class Becoming:
    """What a description says an object becomes: "red and green Elemental creature"."""

    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    colors: tuple[str, ...] | None
    """The colour letters it names (``()``: "colorless"; None: it names none)."""


def becoming(description: str) -> Becoming | None:
    """The types, subtypes and colours of a description (None: a word that is none of them,
    "creature type of your choice")."""
    types: list[str] = []
    subtypes: list[str] = []
    colors: list[str] | None = None
    for word in re.split(r",? and |, | ", description):
        lowered = word.lower()
        singular = lowered[:-1] if lowered.endswith("s") and lowered[:-1] in TYPE_WORDS else lowered
        if not word or lowered in ("and", "or"):
            continue
        if singular in TYPE_WORDS:
            types.append(TYPE_WORDS[singular])
        elif lowered in COLOR_LETTERS:
            colors = [*(colors or []), COLOR_LETTERS[lowered]]
        elif lowered == "colorless":
            colors = []
        elif word[:1].isupper() and word.replace("-", "").isalpha():
            subtypes.append(word)
        else:
            return None
    if not types and not subtypes and colors is None:
        return None
    return Becoming(tuple(types), tuple(subtypes), tuple(colors) if colors is not None else None)


def problem(action: Action, catalog: Catalog) -> str | None:
    """What keeps a characteristic-changing phrase from executing (None: nothing): a value or a
    description it cannot read, a quality of what it becomes the engine does not know."""
    verb = action.verb
    if verb in ("gets", "gets_each") and not _PT_CHANGE.fullmatch(str(action.arg("pt"))):
        return f"{verb} {action.arg('pt')}"
    if verb == "is_a_creature" and not _PT_SET.fullmatch(str(action.arg("pt"))):
        return f"becomes {action.arg('pt')}"
    pt = action.arg("pt")
    if verb == "has_base_pt" and pt is not None and not _PT_SET.fullmatch(str(pt)):
        return f"base power and toughness {action.arg('pt')}"
    if verb == "becomes" and action.arg("color") is not None:
        return None if _colors(str(action.arg("color"))) is not None else f"becomes {action.arg('color')}"
    if verb == "becomes" and chosen_color(action.arg("what")):
        return None  # chosen as it resolves (changes)
    if verb in ("becomes", "is_a_creature", "is_type"):
        what = action.arg("what")
        if not isinstance(what, Noun):
            return f"becomes {_text(action)}"
        found = becoming(what.description)
        if found is None:
            return f"becomes {what.description!r}"
        land_types = LAND_TYPES & {subtype.removesuffix("s") for subtype in found.subtypes}
        if verb == "is_type" and ("Land" in found.types or land_types):
            return "is a land type (305.7)"  # the mana abilities of land types are the card's own
        if verb == "is_type" and any(t.endswith("s") for t in found.subtypes):
            return f"are {what.description!r}"  # "Creatures you control are Slivers": a plural subtype
        unknown = [q.verb for q in what.qualifiers if q.verb not in QUALITIES]
        if unknown:
            return f"becomes … {unknown[0]}"
        for qualifier in what.qualifiers:
            if qualifier.verb == "with_base_pt" and not _PT_SET.fullmatch(str(qualifier.arg("pt"))):
                return f"base power and toughness {qualifier.arg('pt')}"
            keywords = split_keywords(str(qualifier.arg("keywords") or ""))
            for keyword in keywords:
                if keyword not in catalog.keywords and not any(c(keyword) for c in catalog.granted_keywords):
                    return f"keyword {keyword}"
    granted = action.arg("keywords")
    chosen = protection_from_chosen_color(granted) or CHOSEN_COLOR in str(granted)
    if verb in ("has", "with_keywords") and chosen:
        return "a static choice of color"  # nothing chooses it
    if verb == "power_toughness_equal" and action.arg("whose") != "~'s":
        return f"{action.arg('whose')} power and toughness"
    if verb == "power_toughness_equal" and defined_count(action) is None:
        return f"power and toughness equal to {action.arg('amount')!r}"
    if verb == "switch_pt" and action.arg("whose") not in ("~'s", "its") and action.slot is None:
        return f"switch {action.arg('whose')} power and toughness"
    return None


def _text(action: Action) -> str:
    form = find(action.verb, action.form)
    return form.text if form is not None else action.verb


def _colors(text: str) -> tuple[str, ...] | None:
    found = becoming(text)
    if found is None or found.types or found.subtypes or found.colors is None:
        return None
    return found.colors


def _signed(ctx: Context, sign: str, number: str) -> int:
    amount = value(ctx, X()) if number == "X" else int(number)
    return -amount if sign == "-" else amount


def changes(ctx: Context, action: Action) -> list[Change]:
    """What ``action`` changes, layer by layer (empty: it changes no characteristic)."""
    verb = action.verb
    if verb in ("gets", "gets_each", "gets_for_each", "gets_for_each_player_counter"):
        match = _PT_CHANGE.fullmatch(str(action.arg("pt")))
        if match is None:
            raise EngineError(f"cannot read the change {action.arg('pt')!r}")
        power, toughness = _signed(ctx, *match.group(1, 2)), _signed(ctx, *match.group(3, 4))
        times = _for_each(ctx, action) if verb == "gets_for_each" else 1
        if verb == "gets_for_each_player_counter":  # "… for each experience counter you have" (122.1)
            times = player_counters(ctx, action.arg("counter"), action.arg("who"))
        return [Change(Layer.PT_CHANGING, Op.MODIFY_PT, power=power * times, toughness=toughness * times)]
    if verb in ("has", "gains"):
        return [Change(Layer.ABILITY, Op.GAIN_KEYWORDS, (_granted(ctx, action.arg("keywords")),))]
    if verb == "is_indestructible":
        return [Change(Layer.ABILITY, Op.GAIN_KEYWORDS, ("indestructible",))]
    if verb == "has_ability":
        granted = action.arg("ability")
        if not isinstance(granted, Ability):
            raise EngineError("the granted ability was not understood")
        return [Change(Layer.ABILITY, Op.GRANT, granted=granted, granter=ctx.itself.id)]
    if verb == "loses":
        keywords = action.arg("keywords")
        if keywords is None:
            return [Change(Layer.ABILITY, Op.LOSE_ALL)]
        return [Change(Layer.ABILITY, Op.LOSE_KEYWORDS, (str(keywords),))]
    if verb == "has_base_pt":
        return [_base_pt(ctx, action)]
    if verb == "switch_pt":
        return [Change(Layer.PT_SWITCHING, Op.SWITCH_PT)]
    if verb == "power_toughness_equal":
        return [_defined_pt(ctx, action)]
    if verb == "becomes" and action.arg("color") is not None:
        colors = _colors(str(action.arg("color")))
        if colors is None:
            raise EngineError(f"cannot tell the colour {action.arg('color')!r}")
        return [Change(Layer.COLOR, Op.SET_COLORS, colors)]
    if verb == "becomes" and chosen_color(action.arg("what")):  # "becomes the color of your choice"
        name = ctx.decider.choose(f"{ctx.controller}: which color?", list(COLOR_LETTERS))
        return [Change(Layer.COLOR, Op.SET_COLORS, (COLOR_LETTERS[name],))]
    if verb in ("becomes", "is_a_creature", "is_type"):
        found = _becomes(ctx, action.arg("what"))
        pt = action.arg("pt")
        if verb == "is_a_creature":
            power, toughness = (int(n) for n in str(pt).split("/"))
            found.append(Change(Layer.PT_SETTING, Op.SET_PT, power=power, toughness=toughness))
        return found
    return []


CHOSEN_COLOR = "the color of your choice"
"""In "gains protection from the color of your choice": the colour is chosen as the effect begins."""


def _chosen(ctx: Context, keywords: str) -> str:
    """The keywords with "the color of your choice" replaced by the colour the controller chooses."""
    if CHOSEN_COLOR not in keywords:
        return keywords
    color = ctx.decider.choose(f"{ctx.controller}: protection from which color?", list(COLOR_LETTERS))
    return keywords.replace(CHOSEN_COLOR, color)


def _granted(ctx: Context, keywords: object) -> str:
    """The keywords a "gains" grants; "protection from the color of your choice" (the one choice
    of protection the catalog lets through) with the colour the controller chooses."""
    if protection_from_chosen_color(keywords):
        return _chosen(ctx, f"protection from {CHOSEN_COLOR}")
    return _chosen(ctx, str(keywords))


def granted_choice(keyword: str) -> bool:
    """ "protection from the color of your choice", which a resolving "gains" chooses (:func:`_chosen`)."""
    return keyword == f"protection from {CHOSEN_COLOR}"


def defined_count(action: Action) -> Noun | str | None:
    """What a characteristic-defining "equal to …" counts: the objects of "the number of …" (a noun
    phrase), ``"life"`` for "your life total", None for a value the engine cannot read."""
    amount = action.arg("amount")
    if not isinstance(amount, Action):
        return None
    what = amount.arg("what")
    if amount.verb == "number_of" and isinstance(what, Noun):
        return what
    if amount.verb == "stat_of" and amount.arg("owner") == "your" and amount.arg("stat") == "life total":
        return "life"
    return None


def _defined_pt(ctx: Context, action: Action) -> Change:
    """ "~'s power and toughness are each equal to [N plus] the number of …" / "… to your life
    total": a characteristic-defining ability (604.3, layer 7a)."""
    text = _text(action)
    counted = defined_count(action)
    if counted is None:
        raise EngineError(f"cannot read the characteristic-defining value of {text!r}")
    number = count(ctx, counted) if isinstance(counted, Noun) else ctx.game.players[ctx.controller].life
    power = None if text.startswith("{whose:poss} toughness") else number
    toughness = None if text.startswith("{whose:poss} power is") else number
    return Change(Layer.PT_DEFINING, Op.SET_PT, power=power, toughness=toughness)


def _base_pt(ctx: Context, action: Action) -> Change:
    pt = action.arg("pt")
    if pt is not None:
        power, toughness = (int(n) for n in str(pt).split("/"))
        return Change(Layer.PT_SETTING, Op.SET_PT, power=power, toughness=toughness)
    amount = value(ctx, action.arg("amount"))
    if "toughness" in _text(action):  # "has base toughness N"
        return Change(Layer.PT_SETTING, Op.SET_PT, toughness=amount)
    return Change(Layer.PT_SETTING, Op.SET_PT, power=amount)


def _becomes(ctx: Context, what: object) -> list[Change]:
    if not isinstance(what, Noun):
        raise EngineError("cannot tell what it becomes")
    found = becoming(what.description)
    if found is None:
        raise EngineError(f"cannot tell what {what.description!r} is")
    qualifiers = {q.verb: q for q in what.qualifiers}
    addition = qualifiers.get("in_addition_to_types") or qualifiers.get("that_is_still")  # 205.1b
    # 205.1b: an object that becomes an "artifact creature" keeps all its card types and subtypes
    # (a crewed Vehicle is still a Vehicle)
    artifact_creature = sorted(found.types) == ["Artifact", "Creature"] and not found.subtypes
    result: list[Change] = []
    if found.types or found.subtypes:
        kept = addition is not None or artifact_creature
        op = Op.ADD_TYPES if kept else Op.SET_TYPES if found.types else Op.SET_SUBTYPES
        values = (*found.types, *found.subtypes) if op is not Op.SET_SUBTYPES else found.subtypes
        result.append(Change(Layer.TYPE, op, values))
    if found.colors is not None:
        more = addition is not None and "colors" in _text(addition)  # "in addition to its other colors"
        result.append(Change(Layer.COLOR, Op.ADD_COLORS if more else Op.SET_COLORS, found.colors))
    for qualifier in what.qualifiers:
        if qualifier.verb == "with_keywords":
            result.append(Change(Layer.ABILITY, Op.GAIN_KEYWORDS, (str(qualifier.arg("keywords")),)))
        elif qualifier.verb == "with_ability":
            granted = qualifier.arg("ability")
            if isinstance(granted, Ability):
                result.append(Change(Layer.ABILITY, Op.GRANT, granted=granted, granter=ctx.itself.id))
        elif qualifier.verb == "with_base_pt":  # "a Spirit Warrior with base power and toughness 2/3"
            power, toughness = (int(n) for n in str(qualifier.arg("pt")).split("/"))
            result.append(Change(Layer.PT_SETTING, Op.SET_PT, power=power, toughness=toughness))
    return result


def _for_each(ctx: Context, action: Action) -> int:
    what = action.arg("what")
    if what is not None and action.arg("counter") is None:
        if isinstance(what, Noun):
            return count(ctx, what)
        return len(resolve(ctx, what))
    kind = counter_kind(action.arg("counter"))
    return sum(obj.counters.get(kind, 0) for obj in objects(resolve(ctx, what)))


# -- resolving spells and abilities ------------------------------------------------------------
def apply_resolved(ctx: Context, affected: list[GameObject], action: Action) -> list[LayerEffect]:
    """A resolving spell or ability's characteristic-changing phrase: one effect on each object it
    affects now (611.2c), with a new timestamp, ending at cleanup when the clause says "until end
    of turn" or "this turn"."""
    found = changes(ctx, action)
    timestamp = ctx.game.timestamp()
    until_end = ctx.duration is not None
    made: list[LayerEffect] = []
    for obj in affected:
        if obj.zone != "battlefield":
            continue
        for change in found:
            effect = change.effect(timestamp, until_end_of_turn=until_end)
            obj.effects.append(effect)
            made.append(effect)
    return made


def still(obj: GameObject, effects: list[LayerEffect]) -> None:
    """"It's still a land.": the types ``effects`` set are added to its old ones instead (205.1b)."""
    for index, effect in enumerate(obj.effects):
        if effect in effects and effect.op is Op.SET_TYPES:
            obj.effects[index] = LayerEffect(
                effect.layer, effect.timestamp, Op.ADD_TYPES, effect.values,
                until_end_of_turn=effect.until_end_of_turn,
            )  # fmt: skip


# -- static abilities ---------------------------------------------------------------------------
@dataclass
class _Static:
    """One change a static ability makes in one layer, and what it applies to."""

    source: GameObject
    index: int
    key: tuple[int, int, int]
    """(source, ability, clause): the set an ability's clause applies to is fixed once it began to."""
    affected: list[GameObject]
    change: Change


Started = dict[tuple[int, int, int], list[GameObject]]
"""The static abilities' clauses that began to apply, by (source, ability, clause), and to what."""


def _statics(
    game: Game, layer: Layer, started: set[tuple[int, int]]
) -> Iterator[tuple[GameObject, int, Ability]]:
    """The static abilities that exist in ``layer`` (613.5): in layers 1–6 those printed on the
    permanents; in layer 7 those they have after layer 6, and those that began to apply before."""
    for source in game.permanents():
        if layer <= Layer.ABILITY:
            printed = active_abilities_printed(source)
        else:
            printed = active_abilities(source)
            have = {i for i, _ in printed}
            printed += [
                (i, a)
                for i, a in active_abilities_printed(source)
                if (source.id, i) in started and i not in have
            ]
        for index, ability in printed:
            if ability.kind is Kind.STATIC and is_applied_static(game, ability):
                yield source, index, ability


def active_abilities_printed(obj: GameObject) -> list[tuple[int, Ability]]:
    """Its card's abilities (a Class's up to its first level line), before any effect (layers 1–5)."""
    found: list[tuple[int, Ability]] = []
    leveler = is_leveler(obj.card)
    for index, ability in enumerate(obj.card.abilities):
        if ability.kind is Kind.LEVEL and "Class" in obj.card.subtypes:
            break
        if leveler and not at_level(ability.level, obj.counters):
            continue  # 711.2b: the abilities of a level it is not at
        found.append((index, ability))
    return found


def _layer_of(action: Action) -> frozenset[Layer]:
    verb = action.verb
    if verb in ("gets", "gets_each", "gets_for_each", "gets_for_each_player_counter"):
        return frozenset({Layer.PT_CHANGING})
    if verb in ("has", "gains", "is_indestructible", "has_ability", "loses"):
        return frozenset({Layer.ABILITY})
    if verb == "has_base_pt":
        return frozenset({Layer.PT_SETTING})
    if verb == "switch_pt":
        return frozenset({Layer.PT_SWITCHING})
    if verb == "power_toughness_equal":
        return frozenset({Layer.PT_DEFINING})
    if verb in ("becomes", "is_a_creature", "is_type"):
        return frozenset(Layer)  # several: computed
    return frozenset()


def refresh(game: Game) -> None:
    """Recompute the effects of every static ability on the battlefield, layer by layer."""
    for obj in game.objects.values():
        if obj.static_effects:
            obj.static_effects = []
    started: Started = {}
    for layer in STATIC_LAYERS:
        found: list[_Static] = []
        begun = {key[:2] for key in started}
        for source, index, ability in _statics(game, layer, begun):
            ctx = Context(game, NO_DECISIONS, source.controller, source)
            for number, clause in applying_clauses(ctx, ability):
                key = (source.id, index, number)
                for predicate in clause.predicates:
                    if not isinstance(predicate, Action) or layer not in _layer_of(predicate):
                        continue
                    affected = _affected(ctx, clause, key, started)  # "it" then names them
                    for change in changes(ctx, predicate):
                        if change.layer is layer:
                            found.append(_Static(source, index, key, affected, change))
        if layer is Layer.ABILITY:
            found = _existing(game, found, started)
        for static in found:
            started.setdefault(static.key, static.affected)
            for obj in static.affected:
                timestamp = static.source.timestamp
                effect = static.change.effect(timestamp, source=static.source.id, ability=static.index)
                obj.static_effects.append(effect)


def _affected(ctx: Context, clause: Clause, key: tuple[int, int, int], started: Started) -> list[GameObject]:
    if key in started:
        return started[key]
    if clause.subject is None:  # "~'s power and toughness are each equal to …": its own
        return [ctx.source] if any(_of_itself(p) for p in clause.predicates) else []
    return [obj for obj in objects(resolve(ctx, clause.subject)) if obj.zone == "battlefield"]


def _of_itself(predicate: object) -> bool:
    return isinstance(predicate, Action) and predicate.verb == "power_toughness_equal"


def _removes(remover: _Static, static: _Static) -> bool:
    """Whether ``remover`` takes away the ability ``static`` comes from (613.8a: it depends on it)."""
    return (
        remover.change.op is Op.LOSE_ALL
        and remover.key[:2] != static.key[:2]
        and any(obj is static.source for obj in remover.affected)
    )


def _existing(game: Game, found: list[_Static], started: Started) -> list[_Static]:
    """Layer 6's static effects in dependency order (613.8), without those whose ability an effect
    applied before them removed. An effect that began to apply in an earlier layer goes on
    (613.6); a resolved "loses all abilities" removes the static abilities of what it affects."""
    remaining = sorted(found, key=lambda s: s.source.timestamp)
    lost = {obj.id for obj in game.permanents() if any(e.op is Op.LOSE_ALL for e in obj.effects)}
    kept: list[_Static] = []
    while remaining:
        free = [s for s in remaining if not any(_removes(other, s) for other in remaining if other is not s)]
        pick = free[0] if free else _first_in_loop(remaining)
        remaining.remove(pick)
        if pick.key not in started and pick.source.id in lost:
            continue  # its ability was removed before it applied
        kept.append(pick)
        if pick.change.op is Op.LOSE_ALL:
            lost.update(obj.id for obj in pick.affected)
    return kept


def _first_in_loop(remaining: list[_Static]) -> _Static:
    """The earliest effect (timestamp order, 613.8k) of a dependency loop among ``remaining``."""
    for static in remaining:
        seen: set[int] = set()
        todo = [static]
        while todo:
            current = todo.pop()
            for other in remaining:
                if other is not current and _removes(other, current) and id(other) not in seen:
                    if other is static:
                        return static
                    seen.add(id(other))
                    todo.append(other)
    return remaining[0]


def _describes_change(ctx: Context, ref: Ref, qualifier: Action) -> bool:
    raise EngineError(f"{qualifier.verb!r} says what an object becomes, not what it is")


SECTION = Section(
    "rules.layers",
    qualifiers={verb: _describes_change for verb in QUALITIES - {"with_keywords"}},
    static_verbs=STATIC_VERBS,
    checks={verb: problem for verb in CHECKED},
    granted_keywords=(granted_choice,),
)
"""The characteristic-changing phrases static abilities apply (the handlers of the resolving
ones are in :mod:`carddb.engine.effects.characteristics`)."""
