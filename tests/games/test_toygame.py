"""Issue 38, "One game contract", proved: Toy Dash (tests/games/toygame, a game nobody outside that
package knows) is registered here and played through the command line (play, simulate), the
web API (create a game, act through the HTTP API), the learning environments (PettingZoo and
Gymnasium step loops) and the lab (a sweep of a few games), with no file outside its package
edited for it. Its secret traps exercise the hidden-information half of the contract."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from monsterball.core.record import read_record
from monsterball.core.registry import get_game, register, unregister
from tests.games import toygame
from tests.helpers.web import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def toy() -> Iterator[None]:
    register(toygame.SPEC)
    try:
        yield
    finally:
        unregister(toygame.SPEC.id)


def test_the_toy_game_is_found_by_its_id_and_alias_while_registered(toy: None) -> None:
    assert get_game("toy") is toygame.SPEC and get_game("Toy Dash") is toygame.SPEC


def test_the_command_line_plays_and_simulates_it(toy: None, tmp_path: Path) -> None:
    from monsterball.cli import app

    save = tmp_path / "toy.jsonl"
    # A human (seat A) against the random bot: the secret trap, then steps until the end.
    lines = "trap 3\n" + "step\n" * 20
    played = CliRunner().invoke(
        app,
        ["play", "toy", "--bot", "random", "--seed", "5", "--save", str(save)],
        input=lines,
        env={"COLUMNS": "200"},
    )
    assert "Traceback" not in played.output, played.output
    assert played.exit_code == 0, played.output
    assert "Result:" in played.output and "team " in played.output
    record = read_record(save.read_text())
    assert record.game == "toy-dash" and record.actions[0].action == "trap 3"
    secret = record.actions[1].action  # the bot's trap, on the human's track: never shown
    assert secret.startswith("trap ") and "B (random): trap (set in secret)" in played.output
    assert f"B (random): {secret}" not in played.output

    simulated = CliRunner().invoke(
        app,
        ["simulate", "toy", "--games", "6", "--seed", "3", "--preset", "short", "--jobs", "1"],
        env={"COLUMNS": "200"},
    )
    assert simulated.exit_code == 0, simulated.output
    assert "plies per game" in simulated.output and "6 games" in simulated.output

    rules = CliRunner().invoke(app, ["rules", "toy"], env={"COLUMNS": "200"})
    assert rules.exit_code == 0 and "rulebook: Toy Dash (tests/games/toygame)" in rules.output
    assert "length" in rules.output and "short" in rules.output  # its option and presets
    text = CliRunner().invoke(app, ["rules", "toy", "--text"])
    assert text.exit_code != 0 and "rules document of toy-dash is not installed" in text.output


def test_the_web_api_creates_it_and_takes_moves(toy: None, tmp_path: Path) -> None:
    with TestClient(app_at(tmp_path / "games.db")) as client:
        made = client.post("/api/games", json={"game": "toy", "mode": "hotseat", "seed": 11})
        assert made.status_code == 201, made.text
        created = made.json()
        gid = created["id"]
        tokens = {c["name"]: c["token"] for c in created["chairs"]}
        plays = 0
        while True:
            message = client.get(f"/api/games/{gid}", params={"token": tokens["A"]}).json()
            if not message["legal"]:
                break
            seat = message["to_act"]
            moves = [m["a"] for m in message["legal"]]
            move = "trap 2" if "trap 2" in moves else ("dash" if plays % 2 else "step")
            acted = client.post(
                f"/api/games/{gid}/act",
                json={"token": tokens[seat], "action": move, "ply": message["game"]["ply"]},
            )
            assert acted.status_code == 200, acted.text
            plays += 1
            assert plays < 60
        final = client.get(f"/api/games/{gid}").json()
        assert final["game"]["status"] == "finished" or "wins" in final["prompt"]
        # The spectators' log shows a trap was set, never where.
        assert not any("trap 2" in e["action"] for e in final["log"])
        assert sum("in secret" in e["action"] for e in final["log"]) == 2
        record = client.get(f"/api/games/{gid}/record")
        assert record.status_code == 200 and "toy-dash" in record.text
        # Hooks it does not declare answer as for any such game: no odds, no roster.
        assert client.get(f"/api/games/{gid}/odds").json()["targets"] == []
        assert client.get(f"/api/games/{gid}/roster").status_code == 400
        rules = client.get("/api/rules/toy")
        assert rules.status_code == 404 and "no rules page" in rules.json()["message"]


def test_the_learning_environments_step_through_it(toy: None) -> None:
    pytest.importorskip("pettingzoo")
    import monsterball.rl as rl
    from monsterball.rl.single import MonsterballGym

    env = rl.env("toy-dash")
    env.reset(seed=4)
    rng = random.Random(4)
    steps = 0
    for _agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = [i for i, ok in enumerate(observation["action_mask"]) if ok]
        env.step(rng.choice(legal))
        steps += 1
    assert steps > 2

    gym_env = MonsterballGym("toy-dash")
    _, info = gym_env.reset(seed=2)
    done = False
    while not done:
        legal = [i for i, ok in enumerate(info["action_mask"]) if ok]
        _, reward, terminated, truncated, info = gym_env.step(rng.choice(legal))
        done = terminated or truncated
    assert reward in (-1.0, 0.0, 1.0)


def test_the_lab_simulates_a_few_games(toy: None) -> None:
    from monsterball.lab.sweeps import sweep

    result = sweep("toy-dash", [{"length": "5"}, {"length": "9"}], 6, seed=1, jobs=1)
    short, long = result.settings
    assert short.games == long.games == 6
    assert short.plies.mean < long.plies.mean  # a longer track takes more moves


def test_the_bots_use_its_hooks_and_never_read_its_secret(toy: None) -> None:
    from monsterball.bots.heuristic import heuristic_for
    from monsterball.bots.registry import make

    assert heuristic_for(toygame.SPEC) is toygame.SPEC.bot
    state = toygame.SPEC.new_game()
    state.apply("trap 4")
    state.apply("trap 5")  # B's trap on A's track, on row 5: A does not know it
    bot = make("mcts:60", seed=1)
    assert bot.choose(state, 0).notation() in ("step", "dash")
    assert bot.last is not None  # it searched (on determinized copies: the game hides)
    drawn = {toygame.determinize(state, 0, random.Random(s)).trap[0] for s in range(40)}
    assert len(drawn) > 1  # A's search samples where the trap may be
