"""Scenario files: a game set up in TOML, actions with every die roll and choice scripted, and the
expected state (format in ``docs/scenarios.md``). :func:`run_file` runs one and tells what differs.

A file is checked entirely before anything runs (keys, value types, card names): a broken file is a
:class:`ScenarioError` naming the file and the key, never a half-run game."""

from __future__ import annotations

import difflib
import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from carddb.engine.actions import combat as fighting
from carddb.engine.actions import face_down as faces
from carddb.engine.actions import foretell as foretelling
from carddb.engine.actions import planechase as planar
from carddb.engine.actions import play, turn
from carddb.engine.actions import suspend as suspension
from carddb.engine.catalog import CATALOG
from carddb.engine.core.cards import SPLIT_LAYOUTS, CardDef, CardPool, whole_card
from carddb.engine.core.context import Ref
from carddb.engine.core.decisions import RandomDecider, ScriptedDecider
from carddb.engine.core.errors import EngineError, NotExecutableError, UnknownCardError
from carddb.engine.core.state import PLAYER_ZONES, Game, GameObject, Player, Step
from carddb.engine.effects.tokens import TOKEN_NAMES
from carddb.engine.query.abilities import keywords_of
from carddb.engine.query.characteristics import COLORS, colors_of
from carddb.engine.query.executable import check_object
from carddb.engine.query.planar import PLANAR_TYPES, planar_deck, planar_objects
from carddb.engine.rules import attachments, face_down, planechase
from carddb.engine.rules.layers import refresh
from carddb.engine.rules.planechase import may_play_from_top
from carddb.errors import CarddbError


def split_reference(name: str, players: Iterable[str]) -> tuple[str, str]:
    """``"Player:Name"`` → (player, name); a name whose part before its first colon is no player
    is a card's name as it is ("Circle of Protection: Red")."""
    controller, _, card = name.partition(":")
    return (controller, card) if card and controller in players else ("", name)


class ScenarioError(CarddbError):
    """A scenario file that cannot be run: broken TOML, an unknown key or card, a bad value. Names
    the file and the key."""

    exit_code = 2


@dataclass
class ScenarioResult:
    path: Path
    title: str
    differences: list[str] = field(default_factory=list)
    not_executable: str | None = None
    """``not executable: <card>: <what>``: the scenario needs an ability the engine does not
    execute (and does not expect that refusal), so it did not run to the end."""
    log: list[str] = field(default_factory=list)
    """The game's log as far as it ran (who cast what, what resolved, what the rules did)."""

    @property
    def passed(self) -> bool:
        return not self.differences and self.not_executable is None


_COPIES = re.compile(r"^(.*?) x(\d+)$")
MAX_COPIES = 1_000
"""The most copies one ``"Name xN"`` entry stands for."""
MAX_OBJECTS = 10_000
"""The most cards a scenario sets up (every zone of every player)."""
MAX_ACTIONS = 10_000
"""The most ``[[do]]`` actions in a file."""
MAX_PASSES = 10_000
"""The most rounds one ``pass = N`` passes."""
MAX_NUMBER = 1_000_000
"""The largest ``x``, ``ability``, ``life``, die roll or number of scripted rolls and choices."""
MAX_NESTING = "nested too deeply"
ZONE_KEYS = (*PLAYER_ZONES, "battlefield")
TOP_KEYS = {"title", "seed", "game", "cards", "players", "do", "expect"}
GAME_KEYS = {"active", "step", "first_printed"}
FACE_DOWN_KEYS = ("face_down", "cloaked")
"""Set-up: permanents on the battlefield face down, manifested (a plain 2/2) or cloaked (ward {2})."""
PLAYER_KEYS = {
    "life", "poison", "energy", "experience", "attached", "planar_deck", *FACE_DOWN_KEYS, *ZONE_KEYS
}
FACE_KEYS = {"type", "text", "mana_cost", "power", "toughness", "loyalty", "color_indicator"}
"""A face's own characteristics (``[cards."Name".faces."Face"]``)."""
CARD_KEYS = {*FACE_KEYS, "layout", "faces"}
VERBS: tuple[str, ...] = ("activate", "cast", "play", "advance", "pass", "resolve", "attack", "block")
VERBS += ("roll_planar_die", "turn_face_up", "suspend", "foretell")
"""The action keys: each ``[[do]]`` has exactly one."""
ACTION_KEYS = {
    "activate": {"player", "ability", "targets", "x", "pay", "mode", "rolls", "choices"},
    "cast": {
        "player",
        "targets",
        "x",
        "pay",
        "mode",
        "rolls",
        "choices",
        "kicked",
        "buyback",
        "alternative_cost",
        "evoke",
        "dash",
        "face_down",
        "face",
        "convoke",
        "delve",
        "improvise",
    },
    "play": {"player", "face", "rolls", "choices"},
    "advance": {"player", "rolls", "choices"},
    "pass": {"player", "rolls", "choices"},
    "resolve": {"player", "rolls", "choices"},
    "attack": {"player", "defending", "rolls", "choices"},
    "block": {"player", "rolls", "choices"},
    "roll_planar_die": {"player", "rolls", "choices"},
    "turn_face_up": {"player", "rolls", "choices"},
    "suspend": {"player", "pay", "rolls", "choices"},
    "foretell": {"player", "pay", "rolls", "choices"},
}
"""The keys each action may carry besides its own."""
EXPECT_KEYS = {"players", "stack", "permanents", "error", "game", "not_executable"}
EXPECT_PLAYER_KEYS = {"life", "mana", "lost", "poison", "energy", "experience", "planar_deck", *ZONE_KEYS}
EXPECT_GAME_KEYS = {"active", "step", "turn", "plane"}
PERMANENT_KEYS = (
    "power", "toughness", "tapped", "counters", "face_down", "damage", "controller", "token", "attached_to",
    "colors", "types", "keywords",
)  # fmt: skip


# -- reading and checking a file ------------------------------------------------------------------
def load(path: Path) -> dict[str, Any]:
    """The file's TOML, with its top-level keys checked."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except RecursionError:
        raise ScenarioError(f"{path}: not valid TOML: arrays or tables {MAX_NESTING}") from None
    except OSError as error:
        raise ScenarioError(f"{path}: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise ScenarioError(f"{path}: not UTF-8 text: {error}") from error
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"{path}: not valid TOML: {error}") from error
    _keys(path, "", data, TOP_KEYS)
    if not isinstance(data.get("players"), dict) or not data["players"]:
        raise ScenarioError(f"{path}: [players] must name at least one player")
    for key in ("title",):
        if key in data and not isinstance(data[key], str):
            raise ScenarioError(f"{path}: {key} must be a string")
    if "seed" in data and not _is_int(data["seed"]):
        raise ScenarioError(f"{path}: seed must be an integer")
    for key in ("game", "cards", "expect"):
        if key in data and not isinstance(data[key], dict):
            raise ScenarioError(f"{path}: [{key}] must be a table")
    if not isinstance(data.get("do", []), list) or not all(isinstance(a, dict) for a in data.get("do", [])):
        raise ScenarioError(f"{path}: do must be an array of tables ([[do]])")
    if len(data.get("do", [])) > MAX_ACTIONS:
        raise ScenarioError(f"{path}: {len(data['do'])} actions ([[do]]): at most {MAX_ACTIONS}")
    return data


def _keys(path: Path, where: str, table: Mapping[str, Any], allowed: set[str] | Sequence[str]) -> None:
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        prefix = f"{where} " if where else ""
        close = difflib.get_close_matches(unknown[0], list(allowed), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ScenarioError(f"{path}: {prefix}unknown key {unknown[0]!r}{hint}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _copies(entry: str) -> tuple[str, int]:
    """``"Forest x4"`` → ("Forest", 4); a name without a count is one copy."""
    match = _COPIES.match(entry)
    return (match.group(1), int(match.group(2))) if match else (entry, 1)


def _expand(entry: str) -> list[str]:
    """``"Forest x4"`` → four Forests (the count was checked against :data:`MAX_COPIES`)."""
    name, count = _copies(entry)
    return [name] * min(count, MAX_COPIES)


def _name_list(path: Path, key: str, entries: object) -> list[str]:
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise ScenarioError(f"{path}: {key} must be a list of card names")
    for entry in entries:
        _check_copies(path, key, entry)
    return [name for entry in entries for name in _expand(entry)]


def _check_copies(path: Path, key: str, entry: str) -> None:
    count = _copies(entry)[1]
    if count > MAX_COPIES:
        shown = str(count) if count < 10**12 else f"{str(count)[:6]}… ({len(str(count))} digits)"
        raise ScenarioError(f"{path}: {key}: {_copies(entry)[0]!r} x{shown}: at most {MAX_COPIES} copies")


class _Names:
    """Checks card names against the scenario's pool, with suggestions from the database and from
    the scenario's own cards; returns each name as the card spells it."""

    def __init__(self, path: Path, pool: CardPool, players: Sequence[str]) -> None:
        self.path = path
        self.pool = pool
        self.players = players

    def card(self, key: str, name: str) -> str:
        wanted = name.casefold()
        for card in self.pool.extra.values():  # a face of one of the scenario's cards ("Kazandu Valley")
            face = next((face.name for face in card.faces if face.name.casefold() == wanted), None)
            if face is not None:
                return face
        try:
            return self.pool.get(name).name
        except UnknownCardError as error:
            own = [card.name for card in self.pool.extra.values()]
            close = difflib.get_close_matches(name, own, n=3, cutoff=0.6)
            suggestions = list(dict.fromkeys([*close, *error.suggestions]))[:5]
            raise ScenarioError(f"{self.path}: {key}: {UnknownCardError(name, suggestions)}") from None

    def reference(self, key: str, name: str, *, player_ok: bool = False) -> str:
        """``"Name"`` or ``"Player:Name"`` (a player's name alone where players may be named)."""
        if player_ok and name in self.players:
            return name
        controller, card = split_reference(name, self.players)
        if not controller and ":" in name and name.partition(":")[0] not in self.players:
            try:
                self.card(key, name)  # "Circle of Protection: Red": a name with a colon
            except ScenarioError:
                wanted = name.partition(":")[0]
                raise ScenarioError(f"{self.path}: {key}: no player named {wanted!r} (in {name!r})") from None
        made = card.endswith("Token") or card in TOKEN_NAMES  # a token the game made
        spelled = card if made else self.card(key, card)
        return f"{controller}:{spelled}" if controller else spelled

    def expected(self, key: str, name: str) -> str:
        """A name in an expectation: a card the pool knows, or a token the game made."""
        return self.reference(key, name)


def _check(path: Path, data: Mapping[str, Any], pool: CardPool) -> None:
    """Every key and value of the file, and every card name it uses (raises ScenarioError)."""
    players_table: Mapping[str, Any] = data["players"]
    names = _Names(path, pool, list(players_table))
    total = 0
    _keys(path, "[game]", data.get("game", {}), GAME_KEYS)
    for name, spec in players_table.items():
        if not isinstance(spec, dict):
            raise ScenarioError(f"{path}: [players.{name}] must be a table")
        _keys(path, f"[players.{name}]", spec, PLAYER_KEYS)
        for counted in ("poison", "energy", "experience"):
            if counted in spec and not (_is_int(spec[counted]) and 0 <= spec[counted] <= MAX_NUMBER):
                raise ScenarioError(f"{path}: [players.{name}] {counted} must be a whole number")
        if "life" in spec and not (_is_int(spec["life"]) and abs(spec["life"]) <= MAX_NUMBER):
            raise ScenarioError(f"{path}: [players.{name}] life must be an integer (at most {MAX_NUMBER})")
        for zone in (*ZONE_KEYS, "planar_deck", *FACE_DOWN_KEYS):
            cards = _name_list(path, f"[players.{name}] {zone}", spec.get(zone, []))
            total += len(cards)
            if total > MAX_OBJECTS:
                where = f"[players.{name}] {zone}"
                raise ScenarioError(f"{path}: {where}: more than {MAX_OBJECTS} cards in the game")
            for card in dict.fromkeys(cards):
                names.card(f"[players.{name}] {zone}", card)
        _check_attached(path, name, spec.get("attached", {}), names)
    for number, action in enumerate(data.get("do", []), 1):
        _check_action(path, f"[[do]] #{number}", action, names)
    _check_expect(path, data.get("expect", {}), names)


def _check_action(path: Path, where: str, action: Mapping[str, Any], names: _Names) -> None:
    verbs = [verb for verb in VERBS if verb in action]
    if len(verbs) != 1:
        found = " and ".join(verbs) if verbs else "none"
        raise ScenarioError(f"{path}: {where}: needs exactly one of {', '.join(VERBS)} (found {found})")
    verb = verbs[0]
    _keys(path, f"{where} ({verb})", {k: v for k, v in action.items() if k != verb}, ACTION_KEYS[verb])
    player = action.get("player")
    if player is not None and player not in names.players:
        raise ScenarioError(f"{path}: {where}: player: no player named {player!r}")
    value = action[verb]
    if verb in ("activate", "cast", "play", "turn_face_up", "suspend", "foretell"):
        if not isinstance(value, str):
            raise ScenarioError(f"{path}: {where}: {verb} must be a card name")
        names.reference(f"{where} {verb}", value)
    elif verb == "advance":
        if value not in {step.value for step in Step}:
            steps = ", ".join(step.value for step in Step)
            raise ScenarioError(f"{path}: {where}: advance: {value!r} is not a step ({steps})")
    elif verb == "pass":
        if not (value is True or (_is_int(value) and 0 < value <= MAX_PASSES)):
            rounds = f"a number of rounds (1 to {MAX_PASSES})"
            raise ScenarioError(f"{path}: {where}: pass must be true or {rounds}")
    elif verb == "attack":
        for attacker in _name_list(path, f"{where} attack", value):
            names.reference(f"{where} attack", attacker)
        if "defending" in action and action["defending"] not in names.players:
            raise ScenarioError(f"{path}: {where}: defending: no player named {action['defending']!r}")
    elif verb == "block":
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ScenarioError(f"{path}: {where}: block must be a table of blocker = attacker names")
        for blocker, attacker in value.items():
            _check_copies(path, f"{where} block", blocker)
            for one in _expand(blocker):
                names.reference(f"{where} block", one)
            names.reference(f"{where} block.{blocker!r}", attacker)
    elif value is not True:
        raise ScenarioError(f"{path}: {where}: {verb} must be true")
    for flag in ("kicked", "buyback", "alternative_cost", "evoke", "dash"):
        if flag in action and not isinstance(action[flag], bool):
            raise ScenarioError(f"{path}: {where}: {flag} must be true or false")
    if "face_down" in action and not isinstance(action["face_down"], bool):
        raise ScenarioError(f"{path}: {where}: face_down must be true or false")
    if "face" in action and not isinstance(action["face"], str):
        raise ScenarioError(f"{path}: {where}: face must be the name of a face of the card")
    for key in ("ability", "x"):
        if key in action and not (_is_int(action[key]) and 0 <= action[key] <= MAX_NUMBER):
            raise ScenarioError(f"{path}: {where}: {key} must be a whole number (at most {MAX_NUMBER})")
    rolls = action.get("rolls", [])
    if not isinstance(rolls, list) or not all(_is_int(r) and abs(r) <= MAX_NUMBER for r in rolls):
        raise ScenarioError(f"{path}: {where}: rolls must be a list of integers (at most {MAX_NUMBER})")
    choices = action.get("choices", [])
    if not isinstance(choices, list) or not all(isinstance(c, str | int) for c in choices):
        raise ScenarioError(f"{path}: {where}: choices must be a list of strings or numbers")
    if len(rolls) > MAX_NUMBER or len(choices) > MAX_NUMBER:
        raise ScenarioError(f"{path}: {where}: at most {MAX_NUMBER} rolls and {MAX_NUMBER} choices")
    mode = action.get("mode", [])
    modes = mode if isinstance(mode, list) else [mode]
    if not all(_is_int(m) and m >= 1 for m in modes):
        raise ScenarioError(f"{path}: {where}: mode must be a mode number (1-based) or a list of them")
    targets = action.get("targets", [])
    for slot in targets if isinstance(targets, list) else [None]:
        entries = slot if isinstance(slot, list) else [slot]
        if not all(isinstance(e, str) for e in entries):
            raise ScenarioError(f"{path}: {where}: targets must be a list of names (or lists of names)")
        for entry in entries:
            names.reference(f"{where} targets", str(entry), player_ok=True)
    for key in ("pay", "convoke", "delve", "improvise"):
        for entry in _name_list(path, f"{where} {key}", action.get(key, [])):
            names.reference(f"{where} {key}", entry)


def _check_expect(path: Path, expect: Mapping[str, Any], names: _Names) -> None:
    _keys(path, "[expect]", expect, EXPECT_KEYS)
    for key in ("error", "not_executable"):
        if key in expect and not isinstance(expect[key], str):
            raise ScenarioError(f"{path}: [expect] {key} must be a string")
    game = expect.get("game", {})
    _keys(path, "[expect.game]", game, EXPECT_GAME_KEYS)
    if "step" in game and game["step"] not in {step.value for step in Step}:
        raise ScenarioError(f"{path}: [expect.game] step: {game['step']!r} is not a step")
    if "active" in game and game["active"] not in names.players:
        raise ScenarioError(f"{path}: [expect.game] active: no player named {game['active']!r}")
    for name, spec in expect.get("players", {}).items():
        where = f"[expect.players.{name}]"
        if name not in names.players:
            raise ScenarioError(f"{path}: {where}: no player named {name!r}")
        if not isinstance(spec, dict):
            raise ScenarioError(f"{path}: {where} must be a table")
        _keys(path, where, spec, EXPECT_PLAYER_KEYS)
        if "life" in spec and not _is_int(spec["life"]):
            raise ScenarioError(f"{path}: {where} life must be an integer")
        for counted in ("poison", "energy", "experience"):
            if counted in spec and not _is_int(spec[counted]):
                raise ScenarioError(f"{path}: {where} {counted} must be an integer")
        if "lost" in spec and not isinstance(spec["lost"], bool):
            raise ScenarioError(f"{path}: {where} lost must be true or false")
        if "mana" in spec and not (
            isinstance(spec["mana"], list) and all(isinstance(m, str) for m in spec["mana"])
        ):
            raise ScenarioError(f"{path}: {where} mana must be a list of mana symbols")
        for zone in (*ZONE_KEYS, "planar_deck"):
            for card in _name_list(path, f"{where} {zone}", spec.get(zone, [])):
                names.expected(f"{where} {zone}", card)
    for card in _name_list(path, "[expect] stack", expect.get("stack", [])):
        names.expected("[expect] stack", card)
    for name, spec in expect.get("permanents", {}).items():
        where = f"[expect.permanents.{name!r}]"
        names.expected(where, name)
        if not isinstance(spec, dict):
            raise ScenarioError(f"{path}: {where} must be a table")
        _keys(path, where, spec, PERMANENT_KEYS)
        if "colors" in spec and not (isinstance(spec["colors"], list) and set(spec["colors"]) <= set(COLORS)):
            raise ScenarioError(f'{path}: {where} colors must be a list of "W", "U", "B", "R", "G"')
        for key in ("types", "keywords"):
            words = spec.get(key, [])
            if not (isinstance(words, list) and all(isinstance(w, str) for w in words)):
                raise ScenarioError(f"{path}: {where} {key} must be a list of words")
        if "attached_to" in spec:
            if not isinstance(spec["attached_to"], str):
                raise ScenarioError(f'{path}: {where} attached_to must be a card name ("" for nothing)')
            if spec["attached_to"]:
                names.expected(f"{where} attached_to", spec["attached_to"])


# -- running -------------------------------------------------------------------------------------
def run_file(path: Path, pool: CardPool) -> ScenarioResult:
    """Run one scenario file against the cards of ``pool`` (its own ``[cards]`` first)."""
    data = load(path)
    title = str(data.get("title", path.stem))
    cards = _scenario_cards(path, data.get("cards", {}))
    scenario_pool = pool.with_cards(cards)
    _check(path, data, scenario_pool)
    expect: Mapping[str, Any] = data.get("expect", {})
    refusal = expect.get("not_executable")
    try:
        game = _setup(path, data, scenario_pool)
        for obj in list(game.objects.values()):
            check_object(obj, game.catalog)
            if obj.face_down_card is not None:  # what it is: its abilities work once it is face up
                check_object(replace(obj, card=obj.face_down_card), game.catalog)
    except NotExecutableError as refused:
        return _not_executable(path, title, refused, refusal)
    decider = ScriptedDecider(fallback=None)
    decider._shuffler = RandomDecider(int(data.get("seed", 0)))
    actions: list[Mapping[str, Any]] = data.get("do", [])
    error: str | None = None
    for number, action in enumerate(actions, 1):
        before = _snapshot(game)
        script = (list(decider.rolls), list(decider.choices))
        try:
            _act(game, decider, action)
        except EngineError as refused:
            expected_error = number == len(actions) and "error" in expect
            if isinstance(refused, NotExecutableError) and not expected_error:
                return _not_executable(path, title, refused, refusal)
            error = str(refused)
            decider.rolls.clear()
            decider.choices.clear()
            decider.script(*script)
            if number != len(actions) or "error" not in expect:
                refusal_text = f"[[do]] #{number} ({_describe(action)}) refused: {error}"
                return ScenarioResult(path, title, [refusal_text], log=game.log)
            if _snapshot(game) != before:
                changed = f"[[do]] #{number} was refused but changed the game"
                return ScenarioResult(path, title, [changed], log=game.log)
        except Exception as crash:  # an engine bug: report it as a failure, not a traceback
            message = f"[[do]] #{number} ({_describe(action)}) crashed: {type(crash).__name__}: {crash}"
            return ScenarioResult(path, title, [message], log=game.log)
    differences: list[str] = []
    if refusal is not None:
        differences.append(f"not_executable: expected {refusal!r}, but the scenario ran")
    try:
        game.check()
    except EngineError as lost:
        differences.append(f"zones: {lost}")
    differences.extend(_compare(game, expect, error))
    rolls, choices = decider.unused if error is None else ([], [])
    if rolls:
        differences.append(f"rolls: scripted but never rolled: {rolls}")
    if choices:
        differences.append(f"choices: scripted but never asked: {choices}")
    return ScenarioResult(path, title, differences, log=game.log)


def _not_executable(path: Path, title: str, refused: NotExecutableError, expected: object) -> ScenarioResult:
    """The engine refused an ability (set-up, or an object that came into the game): the scenario
    passes only when ``[expect] not_executable`` names that refusal (a part of its line)."""
    if expected is None:
        return ScenarioResult(path, title, not_executable=refused.line)
    if str(expected) in refused.line:
        return ScenarioResult(path, title)
    return ScenarioResult(path, title, [f"not_executable: expected {str(expected)!r}, got {refused.line!r}"])


def _describe(action: Mapping[str, Any]) -> str:
    verb = next((v for v in VERBS if v in action), "?")
    value = action.get(verb)
    return verb if value is True else f"{verb} {value!r}"


def _scenario_cards(path: Path, table: Mapping[str, Any]) -> dict[str, CardDef]:
    cards = {}
    for name, spec in table.items():
        where = f"[cards.{name!r}]"
        if not isinstance(spec, dict):
            raise ScenarioError(f"{path}: {where} must be a table")
        _keys(path, where, spec, CARD_KEYS)
        layout = spec.get("layout", "normal")
        if not isinstance(layout, str) or not layout:
            raise ScenarioError(
                f"{path}: {where} layout must be a layout's name (split, adventure, modal_dfc…)"
            )
        others = spec.get("faces", {})
        if not isinstance(others, dict) or not all(isinstance(face, dict) for face in others.values()):
            raise ScenarioError(f"{path}: {where} faces must be a table of face name = table")
        if others and layout == "normal":
            raise ScenarioError(f"{path}: {where} has faces: give its layout (split, adventure, modal_dfc…)")
        first_name = name.split(" // ")[0] if layout in SPLIT_LAYOUTS else name
        first = _face(
            path, where, first_name, {k: v for k, v in spec.items() if k not in ("layout", "faces")}
        )
        faces = (first, *(_face(path, f"{where}.faces.{n!r}", n, face) for n, face in others.items()))
        cards[name] = whole_card(name, layout, faces) if len(faces) > 1 or layout != "normal" else first
    return cards


def _face(path: Path, where: str, name: str, spec: Mapping[str, Any]) -> CardDef:
    """One face of a scenario's card: its characteristics (the keys of :data:`FACE_KEYS`)."""
    _keys(path, where, spec, FACE_KEYS)
    if "type" not in spec:
        raise ScenarioError(f"{path}: {where} needs 'type'")
    for key, wanted in spec.items():
        if key == "color_indicator":
            if not isinstance(wanted, list) or not set(wanted) <= set(COLORS):
                raise ScenarioError(
                    f'{path}: {where} color_indicator must be a list of "W", "U", "B", "R", "G"'
                )
            continue
        if not isinstance(wanted, str | int) or isinstance(wanted, bool):
            raise ScenarioError(f"{path}: {where} {key} must be text or a number")
    return CardDef(
        name=name,
        type_line=str(spec["type"]),
        text=str(spec.get("text", "")),
        mana_cost=str(spec.get("mana_cost", "")),
        power=_text(spec.get("power")),
        toughness=_text(spec.get("toughness")),
        loyalty=_text(spec.get("loyalty")),
        colors=tuple(spec["color_indicator"]) if "color_indicator" in spec else None,
    )


def _first_printed(path: Path, table: object) -> dict[str, frozenset[str]]:
    """``[game.first_printed]``: expansion name → the card names first printed in it."""
    if not isinstance(table, Mapping) or not all(
        isinstance(names, list) and all(isinstance(n, str) for n in names) for names in table.values()
    ):
        raise ScenarioError(f"{path}: [game.first_printed] maps an expansion's name to a list of card names")
    return {str(set_name): frozenset(names) for set_name, names in table.items()}


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def _setup(path: Path, data: Mapping[str, Any], pool: CardPool) -> Game:
    players_table: Mapping[str, Any] = data["players"]
    settings = data.get("game", {})
    names = list(players_table)
    active = str(settings.get("active", names[0]))
    if active not in names:
        raise ScenarioError(f"{path}: [game] active: no player named {active!r}")
    try:
        step = Step(str(settings.get("step", "main1")))
    except ValueError:
        steps = ", ".join(s.value for s in Step)
        raise ScenarioError(f"{path}: [game] step: {settings.get('step')!r} is not one of {steps}") from None
    game = Game(
        {name: Player(name) for name in names},
        active,
        step,
        catalog=CATALOG,
        first_printed=_first_printed(path, settings.get("first_printed", {})),
    )
    for name, spec in players_table.items():
        game.players[name].life = int(spec.get("life", 20))
        game.players[name].poison = int(spec.get("poison", 0))
        game.players[name].energy = int(spec.get("energy", 0))
        if spec.get("experience"):
            game.players[name].counters["experience"] = int(spec["experience"])
        for zone in ZONE_KEYS:
            for card_name in (n for entry in spec.get(zone, []) for n in _expand(entry)):
                game.create(pool.get(card_name), name, zone)
        for card_name in (n for entry in spec.get("planar_deck", []) for n in _expand(entry)):
            card = pool.get(card_name)
            if not any(kind in card.types for kind in PLANAR_TYPES):
                where = f"[players.{name}] planar_deck"
                raise ScenarioError(f"{path}: {where}: {card_name!r} is not a plane or phenomenon")
            game.create(card, name, "command").face_down = True  # a planar deck: face down (901.4)
        for key, shown in (("face_down", face_down.manifested()), ("cloaked", face_down.cloaked())):
            for card_name in (n for entry in spec.get(key, []) for n in _expand(entry)):
                face_down.turn_face_down(game.create(pool.get(card_name), name, "battlefield"), shown)
    planechase.start(game)  # the starting player's top planar card is turned face up (901.5)
    for name, spec in players_table.items():
        _attach(path, game, name, spec.get("attached", {}))
    return game


def _check_attached(path: Path, player: str, table: object, names: _Names) -> None:
    """``attached = {"Holy Strength" = "Grizzly Bears"}``: an Aura or Equipment of the player's
    battlefield and what it is attached to (a list attaches as many copies)."""
    where = f"[players.{player}] attached"
    if not isinstance(table, dict):
        raise ScenarioError(f"{path}: {where} must be a table of names")
    for attachment, hosts in table.items():
        names.card(where, attachment)
        key = f"{where}.{attachment!r}"
        for host in _name_list(path, key, hosts if isinstance(hosts, list) else [hosts]):
            names.reference(key, host)


def _attach(path: Path, game: Game, player: str, table: Mapping[str, Any]) -> None:
    for attachment, hosts in table.items():
        for host_name in hosts if isinstance(hosts, list) else [hosts]:
            where = f"[players.{player}] attached.{attachment!r}"
            free = [
                obj
                for obj in game.permanents(player)
                if _called(obj).casefold() == attachment.casefold() and obj.attached_to is None
            ]
            if not free:
                raise ScenarioError(f"{path}: {where}: no free {attachment!r} on {player}'s battlefield")
            try:
                host = _find(game, host_name, ("battlefield",))
            except EngineError:
                raise ScenarioError(f"{path}: {where}: no {host_name!r} on the battlefield") from None
            if not attachments.can_attach(game, free[0], host):
                raise ScenarioError(f"{path}: {where}: {attachment!r} cannot be attached to {host_name!r}")
            free[0].attached_to = host.id
    refresh(game)


def _find(
    game: Game,
    name: str,
    zones: Sequence[str],
    player: str | None = None,
    avoid: Sequence[GameObject] = (),
) -> GameObject:
    """The object called ``name`` (``"Player:Name"`` picks by controller) in one of ``zones``:
    the first one not in ``avoid``, untapped ones first."""
    controller, card = split_reference(name, game.players)
    found = [
        obj
        for obj in game.objects.values()
        if _called(obj).casefold() == card.casefold()
        and obj.zone in zones
        and (not controller or obj.controller == controller)
        and (player is None or obj.controller == player)
    ]
    if not found:
        whose = f"{player}'s " if player else ""
        raise EngineError(f"no {name!r} in {whose}{' or '.join(zones)}")
    fresh = [obj for obj in found if obj not in avoid] or found
    return sorted(fresh, key=lambda obj: (zones.index(obj.zone), obj.tapped))[0]


def _called(obj: GameObject) -> str:
    """The name a scenario calls an object by: its card's, or for a face-down permanent (which has
    no name, 708.2) the name of the card it is."""
    return obj.face_down_card.name if obj.face_down_card is not None else obj.name


def _top_or(game: Game, name: str, zones: Sequence[str], player: str) -> GameObject:
    """The card called ``name`` in one of the player's ``zones``, else the top card of a library
    of that name that the player may play from there (Windriddle Palaces)."""
    try:
        return _find(game, name, zones, player)
    except EngineError:
        for owner in game.players.values():
            library = owner.zones["library"]
            top = game.objects[library[0]] if library else None
            named = top is not None and top.name.casefold() == name.casefold()
            if top is not None and named and may_play_from_top(game, player, top):
                return top
        raise


def _ref(game: Game, name: str, avoid: Sequence[GameObject]) -> Ref:
    if name in game.players:
        return name
    return _find(game, name, ("battlefield", "stack", "graveyard", "hand", "exile"), avoid=avoid)


def _act(game: Game, decider: ScriptedDecider, action: Mapping[str, Any]) -> None:
    player = str(action.get("player", game.active))
    decider.script([int(r) for r in action.get("rolls", [])], [str(c) for c in action.get("choices", [])])
    picked: list[GameObject] = []
    targets: list[list[Ref]] = []
    for slot in action.get("targets", []):
        refs: list[Ref] = []
        for name in slot if isinstance(slot, list) else [slot]:
            ref = _ref(game, name, picked)
            if isinstance(ref, GameObject):
                picked.append(ref)
            refs.append(ref)
        targets.append(refs)
    pay: list[GameObject] = []
    for name in (n for entry in action.get("pay", []) for n in _expand(entry)):
        pay.append(_find(game, name, ("battlefield",), player, avoid=pay))
    options: dict[str, Any] = {"x": action.get("x"), "pay_with": pay or None}
    convoking: list[GameObject] = []
    for name in (n for entry in action.get("convoke", []) for n in _expand(entry)):
        convoking.append(_find(game, name, ("battlefield",), player, avoid=[*pay, *convoking]))
    if convoking:  # convoke (702.51): the creatures tapped to pay part of the cost
        options["convoking"] = convoking
    if action.get("delve"):  # delve (702.66a): the cards exiled from the graveyard to pay generic mana
        options["delving"] = _distinct(game, action.get("delve", []), "graveyard", player)
    if action.get("improvise"):  # improvise (702.126a): the artifacts tapped to pay generic mana
        options["improvising"] = _distinct(game, action["improvise"], "battlefield", player)
    if action.get("face_down") is True:  # morph: cast face down (702.37c)
        options["face_down"] = True
    if "face" in action:  # a split card's half, an Adventure, a modal double-faced card's face
        options["face"] = str(action["face"])
    if "mode" in action:
        mode = action["mode"]
        options["modes"] = list(mode if isinstance(mode, list) else [mode])
    if "activate" in action:
        # hand, graveyard: cycling, channel, "Exile ~ from your graveyard: …" (113.6m)
        source = _find(game, action["activate"], ("battlefield", "hand", "graveyard"), player)
        play.activate(game, decider, player, source, int(action.get("ability", 1)), targets, **options)
    elif "cast" in action:
        card = _top_or(game, action["cast"], ("hand", "graveyard", "exile"), player)  # flashback, foretell
        for flag in ("kicked", "buyback", "alternative_cost", "evoke", "dash"):
            options[flag] = bool(action.get(flag, False))
        play.cast(game, decider, player, card, targets, **options)
    elif "play" in action:
        land = _top_or(game, action["play"], ("hand",), player)
        play.play_land(game, player, land, face=options.get("face"))
    elif "suspend" in action:  # suspend's special action (702.62a), from the hand
        card = _find(game, action["suspend"], ("hand",), player)
        suspension.suspend(game, decider, player, card, pay_with=pay or None)
    elif "foretell" in action:  # foretell's special action (702.143a), from the hand
        card = _find(game, action["foretell"], ("hand",), player)
        foretelling.foretell(game, decider, player, card, pay_with=pay or None)
    elif "roll_planar_die" in action:
        planar.roll(game, decider, player)
    elif "turn_face_up" in action:
        hidden = _find(game, action["turn_face_up"], ("battlefield",), player)
        faces.turn_face_up(game, decider, player, hidden)
    elif "resolve" in action:
        play.resolve_all(game, decider)
    elif "pass" in action:
        rounds = 1 if action["pass"] is True else int(action["pass"])
        for _ in range(rounds):
            play.pass_priority(game, decider)
    elif "attack" in action:
        attackers: list[GameObject] = []
        for name in (n for entry in action["attack"] for n in _expand(entry)):
            attackers.append(_find(game, name, ("battlefield",), player, avoid=attackers))
        fighting.attack(game, decider, player, attackers, action.get("defending"))
    elif "block" in action:
        _block(game, decider, action)
    else:
        turn.advance(game, decider, Step(action["advance"]))


def _distinct(game: Game, entries: Sequence[str], zone: str, player: str) -> list[GameObject]:
    """The objects ``entries`` name in the player's ``zone``, each a different one ("Island x2")."""
    found: list[GameObject] = []
    for name in (n for entry in entries for n in _expand(entry)):
        found.append(_find(game, name, (zone,), player, avoid=found))
    return found


def _block(game: Game, decider: ScriptedDecider, action: Mapping[str, Any]) -> None:
    """``block = {"Blocker" = "Attacker"}``, by default for the player the first attacker attacks."""
    fight = game.combat
    attacking = [game.objects[i] for i in fight.attackers] if fight is not None else []
    defending = fight.attackers[attacking[0].id] if fight is not None and attacking else game.active
    player = str(action.get("player", defending))
    blockers: list[GameObject] = []
    pairs: list[tuple[GameObject, GameObject]] = []
    for blocker_name, attacker_name in action["block"].items():
        controller, card = split_reference(attacker_name, game.players)
        candidates = [
            obj
            for obj in attacking
            if _called(obj).casefold() == card.casefold() and (not controller or obj.controller == controller)
        ]
        attacker = candidates[0] if candidates else _find(game, attacker_name, ("battlefield",))
        for name in _expand(blocker_name):
            blocker = _find(game, name, ("battlefield",), player, avoid=blockers)
            blockers.append(blocker)
            pairs.append((blocker, attacker))
    fighting.block(game, decider, player, pairs)


def _snapshot(game: Game) -> object:
    return repr(game)


# -- comparing -----------------------------------------------------------------------------------
def _compare(game: Game, expect: Mapping[str, Any], error: str | None) -> list[str]:
    differences: list[str] = []

    def differ(key: str, wanted: object, got: object) -> None:
        if wanted != got:
            differences.append(f"{key}: expected {wanted!r}, got {got!r}")

    def multiset(key: str, wanted: Sequence[str], got: Sequence[str]) -> None:
        if Counter(wanted) == Counter(got):
            return
        missing = list((Counter(wanted) - Counter(got)).elements())
        extra = list((Counter(got) - Counter(wanted)).elements())
        detail = "; ".join(
            part
            for part in (f"missing {missing!r}" if missing else "", f"unexpected {extra!r}" if extra else "")
            if part
        )
        differences.append(f"{key}: expected {sorted(wanted)!r}, got {sorted(got)!r} ({detail})")

    if "error" in expect:
        if error is None:
            differences.append(
                f"error: expected an error containing {expect['error']!r}, the last action succeeded"
            )
        elif expect["error"].casefold() not in error.casefold():
            differences.append(f"error: expected {expect['error']!r} in {error!r}")
    for key, wanted in expect.get("game", {}).items():
        plane = ", ".join(obj.name for obj in planar_objects(game))
        got = {"active": game.active, "step": game.step.value, "turn": game.turn, "plane": plane}[key]
        differ(f"game.{key}", wanted, got)
    for name, spec in expect.get("players", {}).items():
        for key, wanted in spec.items():
            where = f"players.{name}.{key}"
            if key == "life":
                differ(where, wanted, game.players[name].life)
            elif key == "lost":
                differ(where, wanted, game.players[name].lost)
            elif key == "poison":
                differ(where, wanted, game.players[name].poison)
            elif key == "energy":
                differ(where, wanted, game.players[name].energy)
            elif key == "experience":
                differ(where, wanted, game.players[name].counters.get("experience", 0))
            elif key == "mana":
                multiset(where, [m.strip("{}") for m in wanted], game.players[name].mana_pool)
            elif key == "battlefield":
                multiset(where, _canonical(game, wanted), [_called(o) for o in game.permanents(name)])
            elif key == "library":
                differ(where, _canonical(game, wanted), [o.name for o in game.in_zone(key, name)])
            elif key == "planar_deck":
                differ(where, _canonical(game, wanted), [o.name for o in planar_deck(game, name)])
            else:
                multiset(where, _canonical(game, wanted), [o.name for o in game.in_zone(key, name)])
    if "stack" in expect:
        stack = [game.objects[item.source].name for item in reversed(game.stack)]
        differ("stack (top first)", _canonical(game, expect["stack"]), stack)
    for name, spec in expect.get("permanents", {}).items():
        controller, card = split_reference(name, game.players)
        found = [o for o in game.permanents(controller or None) if _called(o).casefold() == card.casefold()]
        if not found:
            differences.append(f"permanents.{name!r}: not on the battlefield")
            continue
        obj = found[0]
        got_values = {
            "power": obj.power,
            "toughness": obj.toughness,
            "tapped": obj.tapped,
            "counters": obj.counters,
            "face_down": obj.face_down,
            "damage": obj.damage,
            "controller": obj.controller,
            "token": obj.token,
            "attached_to": _attached_name(game, obj),
            "colors": [c for c in COLORS if c in colors_of(obj)],
            "types": sorted([*obj.supertypes, *obj.types, *obj.subtypes]),
            "keywords": sorted(keywords_of(obj)),
        }
        for key, wanted in spec.items():
            if key == "colors":
                wanted = [c for c in COLORS if c in wanted]
            elif key in ("types", "keywords"):
                wanted = sorted(wanted if key == "types" else (w.lower() for w in wanted))
            differ(f"permanents.{name!r}.{key}", wanted, got_values[key])
    return differences


def _attached_name(game: Game, obj: GameObject) -> str:
    """What ``obj`` is attached to, by name ("" for nothing)."""
    host = game.objects.get(obj.attached_to) if obj.attached_to is not None else None
    return _called(host) if host is not None else ""


def _canonical(game: Game, entries: Sequence[str]) -> list[str]:
    """Expected names as the cards in the game spell them (a scenario may write "island")."""
    spelled = {_called(obj).casefold(): _called(obj) for obj in game.objects.values()}
    return [spelled.get(name.casefold(), name) for entry in entries for name in _expand(entry)]
