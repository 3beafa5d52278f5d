"""Scenario files: a game set up in TOML, actions with every die roll and choice scripted, and the
expected state (format in ``docs/scenarios.md``). :func:`run_file` runs one and tells what differs."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carddb.engine import game as play
from carddb.engine.cards import CardDef, CardPool
from carddb.engine.decisions import RandomDecider, ScriptedDecider
from carddb.engine.effects import Ref
from carddb.engine.errors import EngineError
from carddb.engine.state import PLAYER_ZONES, Game, GameObject, Player, Step
from carddb.errors import CarddbError


class ScenarioError(CarddbError):
    """A scenario file that cannot be run: broken TOML, an unknown key or card, a bad value. Names
    the file and the key."""

    exit_code = 2


@dataclass
class ScenarioResult:
    path: Path
    title: str
    differences: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.differences


_COPIES = re.compile(r"^(.*?) x(\d+)$")
_GAME_KEYS = {"active", "step"}
_PLAYER_KEYS = {"life", *PLAYER_ZONES, "battlefield"}
_ACTION_KEYS = {
    "player", "activate", "ability", "cast", "play", "advance", "pass", "resolve", "targets", "rolls",
    "choices", "x", "pay",
}  # fmt: skip
_CARD_KEYS = {"type", "text", "mana_cost", "power", "toughness", "loyalty"}


def load(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ScenarioError(f"{path}: {error.strerror}") from error
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"{path}: not valid TOML: {error}") from error
    unknown = set(data) - {"title", "seed", "game", "cards", "players", "do", "expect"}
    if unknown:
        raise ScenarioError(f"{path}: unknown key {sorted(unknown)[0]!r}")
    if not isinstance(data.get("players"), dict) or not data["players"]:
        raise ScenarioError(f"{path}: [players] must name at least one player")
    return data


def run_file(path: Path, pool: CardPool) -> ScenarioResult:
    data = load(path)
    title = str(data.get("title", path.stem))
    cards = _scenario_cards(path, data.get("cards", {}))
    scenario_pool = CardPool(pool.database, {**pool.extra, **cards})
    game = _setup(path, data, scenario_pool)
    decider = ScriptedDecider(fallback=None)
    decider._shuffler = RandomDecider(int(data.get("seed", 0)))
    actions = data.get("do", [])
    expect = data.get("expect", {})
    error: str | None = None
    for number, action in enumerate(actions, 1):
        where = f"{path}: [[do]] #{number}"
        unknown = set(action) - _ACTION_KEYS
        if unknown:
            raise ScenarioError(f"{where}: unknown key {sorted(unknown)[0]!r}")
        try:
            before = _snapshot(game)
            _act(game, decider, action, where)
            error = None
        except ScenarioError:
            raise
        except EngineError as refused:
            error = str(refused)
            if number != len(actions) or "error" not in expect:
                return ScenarioResult(path, title, [f"[[do]] #{number} refused: {error}"])
            if _snapshot(game) != before:
                return ScenarioResult(path, title, [f"[[do]] #{number} was refused but changed the game"])
    game.check()
    return ScenarioResult(path, title, _compare(game, expect, error))


def _scenario_cards(path: Path, table: Mapping[str, Any]) -> dict[str, CardDef]:
    cards = {}
    for name, spec in table.items():
        unknown = set(spec) - _CARD_KEYS
        if unknown or "type" not in spec:
            key = sorted(unknown)[0] if unknown else "type"
            raise ScenarioError(f"{path}: [cards.{name!r}] {'unknown key' if unknown else 'needs'} {key!r}")
        cards[name] = CardDef(
            name=name,
            type_line=str(spec["type"]),
            text=str(spec.get("text", "")),
            mana_cost=str(spec.get("mana_cost", "")),
            power=_text(spec.get("power")),
            toughness=_text(spec.get("toughness")),
            loyalty=_text(spec.get("loyalty")),
        )
    return cards


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _names(path: Path, key: str, entries: object) -> list[str]:
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise ScenarioError(f"{path}: {key} must be a list of card names")
    names: list[str] = []
    for entry in entries:
        match = _COPIES.match(entry)
        names.extend([match.group(1)] * int(match.group(2)) if match else [entry])
    return names


def _setup(path: Path, data: Mapping[str, Any], pool: CardPool) -> Game:
    players_table: Mapping[str, Any] = data["players"]
    settings = data.get("game", {})
    unknown = set(settings) - _GAME_KEYS
    if unknown:
        raise ScenarioError(f"{path}: [game] unknown key {sorted(unknown)[0]!r}")
    names = list(players_table)
    active = str(settings.get("active", names[0]))
    if active not in names:
        raise ScenarioError(f"{path}: [game] active: no player named {active!r}")
    try:
        step = Step(str(settings.get("step", "main1")))
    except ValueError:
        raise ScenarioError(
            f"{path}: [game] step: {settings.get('step')!r} is not one of {', '.join(Step)}"
        ) from None
    game = Game({name: Player(name) for name in names}, active, step)
    for name, spec in players_table.items():
        unknown = set(spec) - _PLAYER_KEYS
        if unknown:
            raise ScenarioError(f"{path}: [players.{name}] unknown key {sorted(unknown)[0]!r}")
        game.players[name].life = int(spec.get("life", 20))
        for zone in (*PLAYER_ZONES, "battlefield"):
            for card_name in _names(path, f"[players.{name}] {zone}", spec.get(zone, [])):
                try:
                    card = pool.get(card_name)
                except EngineError as error:
                    raise ScenarioError(f"{path}: [players.{name}] {zone}: {error}") from error
                game.create(card, name, zone)
    return game


def _find(game: Game, name: str, zones: Sequence[str], player: str | None = None) -> GameObject:
    owner, _, card = name.rpartition(":") if ":" in name else ("", "", name)
    for obj in game.objects.values():
        if obj.name.casefold() != card.casefold() or obj.zone not in zones:
            continue
        if owner and obj.controller != owner:
            continue
        if player is not None and obj.controller != player:
            continue
        return obj
    raise EngineError(f"no {name!r} in {' or '.join(zones)}")


def _ref(game: Game, name: str) -> Ref:
    if name in game.players:
        return name
    return _find(game, name, ("battlefield", "stack", "graveyard"))


def _act(game: Game, decider: ScriptedDecider, action: Mapping[str, Any], where: str) -> None:
    player = str(action.get("player", game.active))
    if player not in game.players:
        raise ScenarioError(f"{where}: player: no player named {player!r}")
    decider.script([int(r) for r in action.get("rolls", [])], [str(c) for c in action.get("choices", [])])
    targets = [[_ref(game, str(name))] for name in action.get("targets", [])]
    pay = [_find(game, str(name), ("battlefield",), player) for name in action.get("pay", [])] or None
    x = action.get("x")
    if "activate" in action:
        source = _find(game, str(action["activate"]), ("battlefield",), player)
        play.activate(
            game, decider, player, source, int(action.get("ability", 1)), targets, x=x, pay_with=pay
        )
    elif "cast" in action:
        card = _find(game, str(action["cast"]), ("hand",), player)
        play.cast(game, decider, player, card, targets, x=x, pay_with=pay)
    elif "play" in action:
        play.play_land(game, player, _find(game, str(action["play"]), ("hand",), player))
    elif action.get("resolve"):
        play.resolve_all(game, decider)
    elif action.get("pass"):
        play.pass_priority(game, decider)
    elif "advance" in action:
        try:
            step = Step(str(action["advance"]))
        except ValueError:
            raise ScenarioError(f"{where}: advance: {action['advance']!r} is not a step") from None
        play.advance(game, decider, step)
    else:
        raise ScenarioError(f"{where}: no action (activate, cast, play, resolve, pass or advance)")


def _snapshot(game: Game) -> object:
    return repr(game)


def _compare(game: Game, expect: Mapping[str, Any], error: str | None) -> list[str]:
    differences: list[str] = []

    def differ(key: str, wanted: object, got: object) -> None:
        if wanted != got:
            differences.append(f"{key}: expected {wanted!r}, got {got!r}")

    if "error" in expect:
        if error is None:
            differences.append(
                f"error: expected an error containing {expect['error']!r}, the action succeeded"
            )
        elif str(expect["error"]).casefold() not in error.casefold():
            differences.append(f"error: expected {expect['error']!r} in {error!r}")
    for name, spec in expect.get("players", {}).items():
        if name not in game.players:
            differences.append(f"players.{name}: no such player")
            continue
        for key, wanted in spec.items():
            if key == "life":
                differ(f"players.{name}.life", wanted, game.players[name].life)
                continue
            if key not in (*PLAYER_ZONES, "battlefield"):
                differences.append(f"players.{name}.{key}: unknown expectation")
                continue
            names = [o.name for o in game.in_zone(key, name)]
            if key == "battlefield":
                names = [o.name for o in game.permanents(name)]
            wanted_names = [n for entry in wanted for n in _expand(entry)]
            if key == "library":
                differ(f"players.{name}.library", wanted_names, names)
            else:
                differ(f"players.{name}.{key}", sorted(Counter(wanted_names).elements()), sorted(names))
    if "stack" in expect:
        differ("stack", list(expect["stack"]), [game.objects[i.source].name for i in game.stack])
    for name, spec in expect.get("permanents", {}).items():
        found = [o for o in game.permanents() if o.name == name]
        if not found:
            differences.append(f"permanents.{name!r}: not on the battlefield")
            continue
        obj = found[0]
        for key, wanted in spec.items():
            got = {
                "power": obj.power,
                "toughness": obj.toughness,
                "tapped": obj.tapped,
                "counters": obj.counters,
                "face_down": obj.face_down,
                "damage": obj.damage,
            }.get(key, KeyError)
            if got is KeyError:
                differences.append(f"permanents.{name!r}.{key}: unknown expectation")
            else:
                differ(f"permanents.{name!r}.{key}", wanted, got)
    return differences


def _expand(entry: str) -> list[str]:
    match = _COPIES.match(entry)
    return [match.group(1)] * int(match.group(2)) if match else [entry]
