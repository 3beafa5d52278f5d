"""The scenario suite (``tests/scenarios/*.toml``, one test per file) against the shipped sample,
and the scenario runner's handling of bad files and its command line (``carddb scenario run``).

Scenarios are engine tests: they run on SQLite only. ``tests/scenarios/pending/`` holds scenarios
that show engine bugs not fixed yet; they are not run here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import carddb
from carddb.cli import cli
from carddb.engine.core.cards import CardPool
from carddb.engine.scenario.runner import ScenarioError, run_file
from carddb.resources import sample_dir

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted([*SCENARIOS.glob("*.toml"), *SCENARIOS.glob("seeds/*.toml")])  # seeds/: the seed rulings
RIFT = SCENARIOS / "underdark_rift_beneath_the_top_x.toml"


@pytest.fixture(scope="module")
def sample_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('scenarios') / 'sample.sqlite'}"
    with carddb.open(url) as db:
        db.import_path(sample_dir())
    return url


@pytest.fixture(scope="module")
def pool(sample_url: str) -> Iterator[CardPool]:
    db = carddb.open(sample_url)
    yield CardPool(db)
    db.close()


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_scenario(path: Path, pool: CardPool) -> None:
    result = run_file(path, pool)

    log = "".join(f"\n    {line}" for line in result.log)
    assert result.passed, (
        f"{path.name}: {result.title}\n  " + "\n  ".join(result.differences) + "\n  log:" + log
    )


# -- bad files -----------------------------------------------------------------------------------
MINIMAL = """
title = "Alice draws for her turn"

[game]
step = "upkeep"

[players.Alice]
library = ["Island", "Forest"]

[players.Bob]

[[do]]
advance = "draw"

[expect.players.Alice]
hand = ["Island"]
library = ["Forest"]
"""


def write(tmp_path: Path, text: str, name: str = "case.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_minimal_scenario_passes(tmp_path: Path, pool: CardPool) -> None:
    result = run_file(write(tmp_path, MINIMAL), pool)

    assert result.passed, result.differences
    assert result.title == "Alice draws for her turn"


def test_differences_name_the_key_and_both_values(tmp_path: Path, pool: CardPool) -> None:
    path = write(tmp_path, MINIMAL.replace('hand = ["Island"]', 'hand = ["Forest"]\nlife = 19'))

    result = run_file(path, pool)

    assert not result.passed
    assert "players.Alice.life: expected 19, got 20" in result.differences
    hand = next(d for d in result.differences if d.startswith("players.Alice.hand"))
    assert "missing ['Forest']" in hand and "unexpected ['Island']" in hand
    assert not any(d.startswith("players.Alice.library") for d in result.differences)


def test_malformed_toml_is_invalid_and_names_the_file(tmp_path: Path, pool: CardPool) -> None:
    path = write(tmp_path, MINIMAL.replace('step = "upkeep"', "step = upkeep"))

    with pytest.raises(ScenarioError, match="not valid TOML") as raised:
        run_file(path, pool)
    assert str(path) in str(raised.value)
    assert raised.value.exit_code == 2


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (('title = "', 'titel = "x"\ntitle = "'), "'titel'"),
        (('step = "upkeep"', 'step = "upkeep"\nturn = 3'), "[game] unknown key 'turn'"),
        (('library = ["Island", "Forest"]', 'libary = ["Island"]'), "[players.Alice] unknown key 'libary'"),
        (('advance = "draw"', 'advance = "draw"\nroll = [3]'), "[[do]] #1 (advance) unknown key 'roll'"),
        (('hand = ["Island"]', 'hands = ["Island"]'), "[expect.players.Alice] unknown key 'hands'"),
        (
            ("[expect.players.Alice]", "[expect.permanents.Island]\nuntapped = true\n[expect.players.Alice]"),
            "unknown key 'untapped'",
        ),
    ],
)
def test_an_unknown_key_is_invalid_and_named(
    tmp_path: Path, pool: CardPool, change: tuple[str, str], key: str
) -> None:
    path = write(tmp_path, MINIMAL.replace(*change, 1))

    with pytest.raises(ScenarioError) as raised:
        run_file(path, pool)
    assert str(path) in str(raised.value)
    assert key in str(raised.value)


def test_an_unknown_key_suggests_the_known_one(tmp_path: Path, pool: CardPool) -> None:
    path = write(tmp_path, MINIMAL.replace('library = ["Island", "Forest"]', 'libary = ["Island"]'))

    with pytest.raises(ScenarioError, match="did you mean 'library'"):
        run_file(path, pool)


def test_an_unknown_card_is_invalid_with_suggestions(tmp_path: Path, pool: CardPool) -> None:
    path = write(tmp_path, MINIMAL.replace('["Island", "Forest"]', '["Underdark Rfit"]'))

    with pytest.raises(ScenarioError) as raised:
        run_file(path, pool)
    message = str(raised.value)
    assert "[players.Alice] library" in message
    assert "unknown card 'Underdark Rfit'" in message
    assert "Underdark Rift" in message


def test_an_unknown_card_in_an_action_or_expectation_is_invalid(tmp_path: Path, pool: CardPool) -> None:
    in_action = MINIMAL.replace('advance = "draw"', 'cast = "Diviners Portnet"')
    in_expect = MINIMAL.replace('library = ["Forest"]', 'library = ["Forrest"]')

    with pytest.raises(
        ScenarioError, match=r"\[\[do\]\] #1 cast: unknown card 'Diviners Portnet'.*Diviner's"
    ):
        run_file(write(tmp_path, in_action), pool)
    with pytest.raises(
        ScenarioError, match=r"\[expect.players.Alice\] library: unknown card 'Forrest'.*Forest"
    ):
        run_file(write(tmp_path, in_expect), pool)


def test_a_scenarios_own_cards_are_suggested(tmp_path: Path, pool: CardPool) -> None:
    text = MINIMAL.replace('["Island", "Forest"]', '["Grizly Bears"]') + (
        '\n[cards."Grizzly Bears"]\ntype = "Creature — Bear"\npower = 2\ntoughness = 2\n'
    )

    with pytest.raises(ScenarioError, match="did you mean 'Grizzly Bears'"):
        run_file(write(tmp_path, text), pool)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('advance = "draw"', 'advance = "drawing"'), "'drawing' is not a step"),
        (('advance = "draw"', 'advance = "draw"\nresolve = true'), "needs exactly one of"),
        (('advance = "draw"', 'player = "Carol"\nadvance = "draw"'), "no player named 'Carol'"),
        (('[game]\nstep = "upkeep"', '[game]\nstep = "upkeep"\nactive = "Carol"'), "no player named 'Carol'"),
        (('library = ["Island", "Forest"]', 'library = "Island"'), "must be a list of card names"),
        (('advance = "draw"', 'advance = "draw"\nrolls = ["three"]'), "rolls must be a list of integers"),
    ],
)
def test_bad_values_are_invalid(
    tmp_path: Path, pool: CardPool, change: tuple[str, str], message: str
) -> None:
    text = MINIMAL.replace(*change, 1)

    with pytest.raises(ScenarioError) as raised:
        run_file(write(tmp_path, text), pool)
    assert message in str(raised.value)


def test_an_unscripted_die_roll_fails_the_run(tmp_path: Path, pool: CardPool) -> None:
    text = """
[cards.Wastes]
type = "Basic Land"
text = "{T}: Add {C}."

[cards."Grizzly Bears"]
type = "Creature — Bear"
power = 2
toughness = 2

[players.Alice]
battlefield = ["Underdark Rift", "Wastes x5"]

[players.Bob]
battlefield = ["Grizzly Bears"]

[[do]]
activate = "Underdark Rift"
ability = 2
targets = ["Grizzly Bears"]

[[do]]
resolve = true
"""
    result = run_file(write(tmp_path, text), pool)

    assert not result.passed
    assert result.differences == [
        "[[do]] #2 (resolve) refused: unscripted decision: roll a d10 (d10 for Underdark Rift)"
    ]


def test_a_scripted_roll_never_rolled_fails_the_run(tmp_path: Path, pool: CardPool) -> None:
    path = write(tmp_path, MINIMAL.replace('advance = "draw"', 'advance = "draw"\nrolls = [4]'))

    result = run_file(path, pool)

    assert result.differences == ["rolls: scripted but never rolled: [4]"]


def test_a_refused_action_without_expect_error_fails_the_run(tmp_path: Path, pool: CardPool) -> None:
    path = write(tmp_path, MINIMAL.replace('advance = "draw"', 'play = "Island"'))

    result = run_file(path, pool)

    assert not result.passed
    assert result.differences[0].startswith("[[do]] #1 (play 'Island') refused: no 'Island' in Alice's hand")


def test_expect_error_fails_when_the_action_succeeds(tmp_path: Path, pool: CardPool) -> None:
    path = write(
        tmp_path, MINIMAL.replace("[expect.players.Alice]", '[expect]\nerror = "x"\n[expect.players.Alice]')
    )

    result = run_file(path, pool)

    assert result.differences == ["error: expected an error containing 'x', the last action succeeded"]


def test_a_refused_action_that_is_not_the_last_fails_the_run(tmp_path: Path, pool: CardPool) -> None:
    text = MINIMAL.replace('advance = "draw"', 'play = "Forest"\n\n[[do]]\nadvance = "draw"').replace(
        "[expect.players.Alice]", '[expect]\nerror = "hand"\n\n[expect.players.Alice]'
    )

    result = run_file(write(tmp_path, text), pool)

    assert result.differences[0].startswith("[[do]] #1 (play 'Forest') refused")


def test_a_missing_file_is_invalid(tmp_path: Path, pool: CardPool) -> None:
    with pytest.raises(ScenarioError, match=r"missing\.toml"):
        run_file(tmp_path / "missing.toml", pool)


# -- the command line ----------------------------------------------------------------------------
def invoke(url: str, *paths: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--db", url, "scenario", "run", *map(str, paths)])
    return result.exit_code, result.output


def test_cli_exits_0_when_every_scenario_passes(sample_url: str, tmp_path: Path) -> None:
    code, out = invoke(sample_url, write(tmp_path, MINIMAL, "a.toml"), RIFT)

    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == f"PASS {tmp_path / 'a.toml'}  Alice draws for her turn"
    assert lines[1].startswith(f"PASS {RIFT}")


def test_cli_exits_1_when_a_scenario_fails_and_shows_the_difference(sample_url: str, tmp_path: Path) -> None:
    failing = write(tmp_path, MINIMAL.replace('hand = ["Island"]', 'hand = ["Forest"]'), "b.toml")

    code, out = invoke(sample_url, write(tmp_path, MINIMAL, "a.toml"), failing)

    assert code == 1
    assert out.splitlines()[1] == f"FAIL {failing}  Alice draws for her turn"
    assert "    players.Alice.hand: expected ['Forest'], got ['Island']" in out


def test_cli_exits_2_when_a_file_is_invalid(sample_url: str, tmp_path: Path) -> None:
    broken = write(tmp_path, "title = ", "broken.toml")
    failing = write(tmp_path, MINIMAL.replace('hand = ["Island"]', 'hand = ["Forest"]'), "b.toml")

    code, out = invoke(sample_url, broken, failing)

    assert code == 2
    assert out.splitlines()[0].startswith(f"INVALID {broken}: not valid TOML")
    assert f"FAIL {failing}" in out


# -- bounded input (fuzzing the runner found each of these) ------------------------------------------
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('["Island", "Forest"]', '["Island x100000000"]'), "'Island' x100000000: at most 1000 copies"),
        (('["Island", "Forest"]', '["Island x100000000000000000000"]'), "'Island' x100000… (21 digits)"),
        (('advance = "draw"', "pass = 1000000000000"), "pass must be true or a number of rounds (1 to 1"),
        (('advance = "draw"', 'advance = "draw"\nrolls = [10000000000]'), "rolls must be a list of integers"),
        (("[players.Bob]", "[players.Bob]\nlife = 100000000000000000000"), "life must be an integer"),
    ],
)
def test_huge_counts_are_invalid_at_once(
    tmp_path: Path, pool: CardPool, change: tuple[str, str], message: str
) -> None:
    path = write(tmp_path, MINIMAL.replace(*change, 1))

    with pytest.raises(ScenarioError) as raised:
        run_file(path, pool)
    assert str(path) in str(raised.value) and message in str(raised.value)


def test_too_many_cards_in_the_game_is_invalid(tmp_path: Path, pool: CardPool) -> None:
    many = ", ".join(['"Island x1000"'] * 11)
    path = write(tmp_path, MINIMAL.replace('["Island", "Forest"]', f"[{many}]", 1))

    with pytest.raises(ScenarioError, match="more than 10000 cards in the game"):
        run_file(path, pool)


def test_an_array_nested_100000_deep_is_invalid_not_a_recursion_error(tmp_path: Path, pool: CardPool) -> None:
    path = write(tmp_path, MINIMAL + "deep = " + "[" * 100_000 + "]" * 100_000 + "\n")

    with pytest.raises(ScenarioError, match="nested too deeply"):
        run_file(path, pool)


def test_cli_goes_on_after_an_invalid_file_and_exits_2(sample_url: str, tmp_path: Path) -> None:
    text = MINIMAL.replace('["Island", "Forest"]', '["Island x100000000000000000000"]')
    huge = write(tmp_path, text, "a.toml")

    code, out = invoke(sample_url, huge, write(tmp_path, MINIMAL, "b.toml"))

    assert code == 2
    assert out.splitlines()[0].startswith(f"INVALID {huge}: [players.Alice] library: 'Island' x")
    assert out.splitlines()[1].startswith(f"PASS {tmp_path / 'b.toml'}")


PHASING = MINIMAL.replace(
    "[players.Bob]",
    '[cards.Breezekeeper]\ntype = "Creature — Djinn"\nmana_cost = "{3}{U}"\n'
    'text = "Flying\\nPhasing"\npower = 4\ntoughness = 4\n\n'
    '[players.Bob]\nhand = ["Breezekeeper"]',
)


def test_a_scenario_needing_an_unsupported_ability_is_not_executable(tmp_path: Path, pool: CardPool) -> None:
    result = run_file(write(tmp_path, PHASING), pool)

    assert not result.passed
    assert result.not_executable == "not executable: Breezekeeper: keyword phasing"


def test_cli_exits_3_when_a_scenario_is_not_executable(sample_url: str, tmp_path: Path) -> None:
    refused = write(tmp_path, PHASING, "m.toml")

    code, out = invoke(sample_url, refused, write(tmp_path, MINIMAL, "b.toml"))

    assert code == 3
    assert out.splitlines()[:2] == [
        f"NOT EXECUTABLE {refused}  Alice draws for her turn",
        "    not executable: Breezekeeper: keyword phasing",
    ]
    assert out.splitlines()[2].startswith("PASS")


def test_expect_not_executable_passes_only_on_that_refusal(tmp_path: Path, pool: CardPool) -> None:
    expected = PHASING + '\n[expect]\nnot_executable = "Breezekeeper: keyword phasing"\n'
    wrong = PHASING + '\n[expect]\nnot_executable = "keyword dredge"\n'
    ran = MINIMAL + '\n[expect]\nnot_executable = "keyword dredge"\n'

    assert run_file(write(tmp_path, expected, "a.toml"), pool).passed
    mismatch = run_file(write(tmp_path, wrong, "b.toml"), pool).differences
    assert "not_executable: expected 'keyword dredge'" in mismatch[0]
    unrefused = run_file(write(tmp_path, ran, "c.toml"), pool).differences
    assert unrefused[0].startswith("not_executable: expected")


# -- the seed rulings' keys (docs/scenarios.md) ----------------------------------------------------
def test_a_planar_deck_holds_only_planes_and_phenomena(tmp_path: Path, pool: CardPool) -> None:
    text = MINIMAL.replace("[players.Bob]", '[players.Bob]\nplanar_deck = ["Island"]')

    with pytest.raises(ScenarioError, match="planar_deck: 'Island' is not a plane or phenomenon"):
        run_file(write(tmp_path, text), pool)


def test_roll_planar_die_must_be_true(tmp_path: Path, pool: CardPool) -> None:
    text = MINIMAL.replace('advance = "draw"', "roll_planar_die = 2")

    with pytest.raises(ScenarioError, match="roll_planar_die must be true"):
        run_file(write(tmp_path, text), pool)


def test_the_planar_die_outside_planechase_is_refused(tmp_path: Path, pool: CardPool) -> None:
    refused = '[[do]]\nroll_planar_die = true\n\n[expect]\nerror = "not a Planechase game"\n'
    text = MINIMAL.split("[[do]]")[0] + refused

    result = run_file(write(tmp_path, text), pool)

    assert result.passed, result.differences
