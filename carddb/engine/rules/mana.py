"""Mana: costs read from their symbols, mana sources, and paying a cost from a player's pool and
untapped mana abilities. Payment is deterministic and never taps a permanent that the cost itself
taps (Underdark Rift cannot pay for its own ability with its own mana)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from carddb.engine.core.errors import CostError
from carddb.engine.core.forms import is_form
from carddb.engine.core.state import Game, GameObject
from carddb.engine.query.abilities import summoning_sick
from carddb.oracle.model import Ability, Action, Clause, Energy, Kind, ManaCost, TapCost

COLORS = ("W", "U", "B", "R", "G")


@dataclass(frozen=True)
class ManaNeed:
    """What a mana cost asks for: coloured and colourless symbols, hybrid pairs, generic mana and
    snow mana ({S}: one mana of any type from a snow source, 107.4h)."""

    colored: tuple[str, ...] = ()
    hybrid: tuple[tuple[str, ...], ...] = ()
    generic: int = 0
    snow: int = 0

    @property
    def total(self) -> int:
        return len(self.colored) + len(self.hybrid) + self.generic + self.snow


def need(symbols: Sequence[str], x: int | None = None) -> ManaNeed:
    """``("{5}",)`` → 5 generic; ``("{1}", "{R}")``; ``{C}`` is colourless; ``{X}`` is ``x``."""
    colored: list[str] = []
    hybrid: list[tuple[str, ...]] = []
    generic = snow = 0
    for symbol in symbols:
        inner = symbol.strip("{}")
        if inner.isdigit():
            generic += int(inner)
        elif inner == "S":
            snow += 1
        elif inner == "X":
            if x is None:
                raise CostError("the cost has {X}: choose a value for X")
            generic += x
        elif inner in COLORS or inner == "C":
            colored.append(inner)
        elif "/" in inner:
            parts = tuple(part for part in inner.split("/") if part != "P")
            hybrid.append(parts)
        else:
            raise CostError(f"cannot pay the mana symbol {symbol}")
    return ManaNeed(tuple(colored), tuple(hybrid), generic, snow)


def mana_value(obj: GameObject) -> int:
    return obj.card.mana_value


def mana_symbols(action: Action) -> list[str]:
    return [symbol for _, v in action.args if isinstance(v, ManaCost) for symbol in v.symbols]


def produces(ability: Ability) -> tuple[str, ...] | None:
    """The colours one activation of a simple mana ability ({T}: Add …) can make, or None if the
    ability is not one (a cost other than {T}, a choice the engine cannot make alone…)."""
    if ability.kind is not Kind.MANA or ability.cost != (TapCost(),) or len(ability.effects) != 1:
        return None
    (clause,) = ability.effects
    if not isinstance(clause, Clause) or len(clause.predicates) != 1:
        return None
    (action,) = clause.predicates
    if not isinstance(action, Action) or action.verb != "add_mana":
        return None
    return _options(action)


def _options(action: Action) -> tuple[str, ...] | None:
    symbols = [value for _, value in action.args if isinstance(value, ManaCost)]
    if is_form(action, "symbols", "adds_symbols") and len(symbols) == 1 and len(symbols[0].symbols) == 1:
        return (symbols[0].symbols[0].strip("{}"),)
    if is_form(action, "one_of_two", "one_of_three") and all(len(s.symbols) == 1 for s in symbols):
        return tuple(s.symbols[0].strip("{}") for s in symbols)
    if is_form(action, "any_color"):
        return COLORS
    return None


def sources(game: Game, player: str, exclude: set[int]) -> list[tuple[GameObject, tuple[str, ...]]]:
    """Untapped permanents ``player`` controls with a simple mana ability, in battlefield order."""
    found = []
    for obj in game.permanents(player):
        if obj.tapped or obj.id in exclude or _sick(game, obj):
            continue
        for _, ability in obj.now.abilities:
            options = produces(ability)
            if options is not None:
                found.append((obj, options))
                break
    return found


def energy_of(action: Action) -> int:
    """How many energy counters a phrase names ("Pay {E}{E}", "you get {E}{E}{E}": 107.14)."""
    return sum(v.count for _, v in action.args if isinstance(v, Energy))


def pay_energy(game: Game, player: str, count: int) -> None:
    """Pay ``count`` energy counters (107.14): all of them, or none (:class:`CostError`)."""
    have = game.players[player].energy
    if have < count:
        raise CostError(f"{player} has {have} energy, not {count}")
    game.players[player].energy = have - count


def pay(
    game: Game,
    player: str,
    symbols: Sequence[str],
    *,
    x: int | None = None,
    exclude: set[int] | frozenset[int] = frozenset(),
    named: Sequence[GameObject] | None = None,
) -> None:
    """Pay ``symbols`` from ``player``'s pool, then by tapping sources (``named`` ones if given).
    Raises :class:`CostError` and changes nothing when it cannot be paid."""
    wanted = need(symbols, x)
    if wanted.total == 0:
        return
    pool = list(game.players[player].mana_pool)
    available = (
        [(obj, _source_options(obj, _sick(game, obj))) for obj in named]
        if named is not None
        else sources(game, player, set(exclude))
    )
    plan = _plan(wanted, pool, available)
    if plan is None:
        have = len(pool) + len(available)
        raise CostError(f"cannot pay {''.join(symbols)}: {have} mana available")
    used_pool, tapped = plan
    for obj in tapped:
        game.tap(obj)
    remaining = list(game.players[player].mana_pool)
    for color in used_pool:
        remaining.remove(color)
    game.players[player].mana_pool = remaining


def _sick(game: Game, obj: GameObject) -> bool:
    return summoning_sick(game, obj)


def _source_options(obj: GameObject, sick: bool = False) -> tuple[str, ...]:
    if obj.tapped:
        raise CostError(f"{obj.name} is tapped")
    if sick:
        raise CostError(f"{obj.name}: summoning sickness (it cannot tap for mana yet)")
    for _, ability in obj.now.abilities:
        options = produces(ability)
        if options is not None:
            return options
    raise CostError(f"{obj.name} has no mana ability to pay with")


def _plan(
    wanted: ManaNeed, pool: list[str], available: list[tuple[GameObject, tuple[str, ...]]]
) -> tuple[list[str], list[GameObject]] | None:
    """Which pool mana and which sources pay ``wanted``: coloured needs first, each from the pool
    or else from the source with the fewest options; then hybrid; then generic; then {S}, by
    tapping a snow source (107.4h; mana already in the pool does not say where it came from, so it
    never pays {S}). While {S} is still to pay, snow sources are the last ones taken for the rest."""
    pool = list(pool)
    used_pool: list[str] = []
    snowy = wanted.snow > 0
    free = sorted(available, key=lambda item: (snowy and "Snow" in item[0].supertypes, len(item[1])))
    tapped: list[GameObject] = []

    def take(colors: tuple[str, ...]) -> bool:
        for color in colors:
            if color in pool:
                pool.remove(color)
                used_pool.append(color)
                return True
        for index, (obj, options) in enumerate(free):
            if set(options) & set(colors):
                tapped.append(obj)
                del free[index]
                return True
        return False

    for color in wanted.colored:
        if not take((color,)):
            return None
    for pair in wanted.hybrid:
        if not take(pair):
            return None
    for _ in range(wanted.generic):
        if pool:
            used_pool.append(pool.pop(0))
        elif free:
            tapped.append(free.pop(0)[0])
        else:
            return None
    for _ in range(wanted.snow):
        source = next((item for item in free if "Snow" in item[0].supertypes), None)
        if source is None:
            return None
        free.remove(source)
        tapped.append(source[0])
    return used_pool, tapped
