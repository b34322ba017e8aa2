"""The learning environments (monsterball.rl): PettingZoo, Gymnasium and their own checkers,
seeding, rewards, truncation, and that a seat's observation holds only what it may see."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import ROOT

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

import monsterball.rl as rl
from monsterball.core.game import CHANCE
from monsterball.rl.encode import MARK_KINDS, SPATIAL
from tests.helpers.midway import ROSTER, act

# Every game with its default options and its small preset (Midway has none: 'short').
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent",
    "ignore:Observation is not a NumPy array",
    "ignore:.*Not able to test alternative render modes",
)

CASES = [
    ("paper-ultimate", None),
    ("paper-ultimate", "small"),
    ("huck-monster", None),
    ("huck-monster", "small"),
    ("midway", None),
    ("midway", "short"),
]


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_pettingzoo_api_test(game, preset):
    from pettingzoo.test import api_test  # 0.2 s to import: when the test runs, not at collection

    api_test(rl.env(game, preset, max_steps=200), num_cycles=200)


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_gymnasium_check_env(game, preset):
    check_env(rl.gym_env(game, preset, max_steps=200), skip_render_check=False)


def play_random(env, seed, steps):
    """Masked random play from reset(seed); the whole trajectory as comparable data."""
    rng = np.random.default_rng(1234)
    env.reset(seed=seed)
    trajectory = []
    for _ in range(steps):
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(len(legal))])
        trajectory.append((env.agent_selection, obs["observation"].tobytes(), reward, action))
        env.step(action)
        if not env.agents:
            break
    return trajectory


@pytest.mark.parametrize("game", ["paper-ultimate", "huck-monster", "midway"])
def test_same_seed_same_trajectory_other_seed_other_dice(game):
    env = rl.env(game)
    first = play_random(env, 7, 150)
    assert play_random(env, 7, 150) == first
    assert play_random(rl.env(game), 7, 150) == first  # a fresh env too
    assert play_random(env, 8, 150) != first


def test_gym_same_seed_same_trajectory():
    def run(seed):
        env = rl.gym_env("huck-monster", "small", opponent="random")
        obs, _ = env.reset(seed=seed)
        out = [obs["observation"].tobytes()]
        for _ in range(40):
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, reward, term, trunc, _ = env.step(action)
            out.append((obs["observation"].tobytes(), reward))
            if term or trunc:
                break
        return out

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_rewards_are_the_game_returns_at_the_end():
    env = rl.env("paper-ultimate", "small")
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    decisions = 0
    while env.agents:
        obs, reward, term, trunc, _ = env.last()
        totals[env.agent_selection] += reward
        if term or trunc:
            env.step(None)
            continue
        assert reward == 0.0  # nothing before the end
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        decisions += 1
    state = env.state_now
    assert state.is_terminal() and decisions == env.steps
    assert tuple(totals.values()) == state.returns()
    assert sorted(totals.values()) == [-1.0, 1.0]  # first to 3: someone won


def test_truncation_after_max_steps_with_no_reward():
    env = rl.env("midway", max_steps=25)
    env.reset(seed=1)
    for _ in range(25):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert set(env.rewards.values()) == {0.0}
    assert not env.state_now.is_terminal()


def test_illegal_actions_are_refused_with_a_clear_error_and_change_nothing():
    env = rl.env("paper-ultimate")
    env.reset(seed=0)
    obs, *_ = env.last()
    before = env.state_now.to_position()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="is not legal for seat"):
        env.step(illegal)
    with pytest.raises(ValueError, match="outside 0"):
        env.step(10**6)
    assert env.state_now.to_position() == before
    gym = rl.gym_env("paper-ultimate")
    obs, _ = gym.reset(seed=0)
    _, reward, term, _, info = gym.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert (reward, term) == (-1.0, True) and "is not legal" in info["illegal_action"]


def test_mask_is_exactly_the_legal_actions_and_empty_for_the_waiting_seat():
    env = rl.env("huck-monster", "small")
    env.reset(seed=2)
    table = env.core.table
    for _ in range(60):
        agent = env.agent_selection
        obs = env.observe(agent)
        legal = {table.encode(a) for a in env.state_now.legal_actions()}
        assert set(np.flatnonzero(obs["action_mask"])) == legal
        other = next(a for a in env.possible_agents if a != agent)
        assert not env.observe(other)["action_mask"].any()
        env.step(min(legal))


def test_observation_planes_follow_the_seat():
    """Own and opponent planes swap with the seat; the ball and end zones are where the
    drawing puts them."""
    env = rl.env("paper-ultimate")
    env.reset(seed=3)
    for _ in range(30):
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    ix = {name: i for i, name in enumerate(SPATIAL)}
    a, b = (env.observe(agent)["observation"] for agent in env.possible_agents)
    assert np.array_equal(a[ix["own_pieces"]], b[ix["opp_pieces"]])
    assert np.array_equal(a[ix["own_end_zone"]], b[ix["opp_end_zone"]])
    assert a[ix["own_pieces"]].sum() == 4 and a[ix["opp_pieces"]].sum() == 4
    state = env.state_now
    row, col = divmod(state.disc, state.options.width)
    assert a[ix["ball"], row, col] == 1.0 and a[ix["ball"]].sum() == 1
    planes = env.core.encoder.planes
    for player in range(4):  # actions name players: each has its own plane
        row, col = divmod(state.pos[player], state.options.width)
        assert a[planes.index(f"own_player:{player + 1}"), row, col] == 1.0
        assert b[planes.index(f"opp_player:{player + 1}"), row, col] == 1.0
        assert a[planes.index(f"own_player:{player + 1}")].sum() == 1.0
    assert len(MARK_KINDS) == len(set(MARK_KINDS))


def mirror_states():
    from tests.games.midway.test_hidden import GROUP, mirror_play

    return [mirror_play(real) for real in GROUP]


def test_midway_observation_hides_the_real_mirror_image_counter():
    """MW-MAGIC-4: the defense's observation (and mask, on its turn) is the same whichever
    counter is the real caster; the caster's own seat sees the difference."""
    env = rl.env("midway", roster_a=ROSTER, roster_b=ROSTER)
    states = mirror_states()
    seen, own = [], []
    for state in states:
        env.core.state = state
        seen.append(env.core.observe(1)["observation"].tobytes())
        own.append(env.core.observe(0)["observation"].tobytes())
    assert len(set(seen)) == 1
    assert len(set(own)) == len(states)
    masks = []
    for state in states:
        act(state, "end")  # the defense's phase
        assert state.current_player() == 1
        env.core.state = state
        obs = env.core.observe(1)
        masks.append((obs["observation"].tobytes(), obs["action_mask"].tobytes()))
    assert len(set(masks)) == 1


def test_opponents_by_name_and_seat_b():
    for opponent in ("heuristic", "mcts:4"):
        gym = rl.gym_env("paper-ultimate", "small", opponent=opponent, seat=1, max_steps=5)
        obs, _ = gym.reset(seed=1)
        assert gym.core.state.current_player() in (1,) or gym.core.state.is_terminal()
        for _ in range(5):
            obs, _, term, trunc, _ = gym.step(int(np.flatnonzero(obs["action_mask"])[0]))
            if term or trunc:
                break
        assert trunc or term
    with pytest.raises(ValueError, match="unknown bot"):
        rl.gym_env("paper-ultimate", opponent="nobody")
    with pytest.raises(ValueError, match="seat must be"):
        rl.gym_env("paper-ultimate", seat=2)


def test_renders():
    env = rl.env("huck-monster", "small", render_mode="ansi")
    env.reset(seed=0)
    assert "A 0 - B 0" in env.render()
    env = rl.env("midway", render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.shape == (24 * 16, 14 * 16, 3)
    with pytest.raises(ValueError, match="render_mode"):
        rl.env("midway", render_mode="human")


def test_chance_nodes_never_reach_the_agents():
    env = rl.env("huck-monster", "small")
    env.reset(seed=4)
    for _ in range(100):
        assert env.state_now.current_player() != CHANCE
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if not env.agents or env.terminations[env.agent_selection]:
            break


# -- OpenSpiel ------------------------------------------------------------------------------

SPIEL_CASES = [
    ("paper-ultimate", "small", 150),
    ("huck-monster", "small", 150),
    ("midway", "short", 150),
]


@pytest.mark.parametrize(("game", "preset", "cap"), SPIEL_CASES)
def test_openspiel_random_sim_test(game, preset, cap):
    pyspiel = pytest.importorskip("pyspiel")
    spiel_game = rl.openspiel_game(game, preset, max_game_length=cap)
    pyspiel.random_sim_test(spiel_game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_registration_chance_and_returns():
    pyspiel = pytest.importorskip("pyspiel")
    rl.openspiel_game("paper-ultimate")  # registers every game
    game = pyspiel.load_game("python_monsterball_huck_monster(preset=small,max_game_length=40)")
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    chance_seen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            exact = state.inner.chance_outcomes()
            assert sorted(float(p) for _, p in exact) == sorted(p for _, p in outcomes)
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            chance_seen += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    assert chance_seen > 0 and len(state.history()) == 40  # cut at max_game_length
    assert state.returns() == [0.0, 0.0]  # an unfinished game is a draw
    midway = pyspiel.load_game("python_monsterball_midway(preset=short)")
    assert midway.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_openspiel_midway_infostate_hides_and_resamples_the_real_counter():
    pytest.importorskip("pyspiel")
    from monsterball.rl.spiel import MonsterballState, Play

    game = rl.openspiel_game("midway", roster_a=ROSTER, roster_b=ROSTER)
    tensors, cells = set(), set()
    for inner in mirror_states():
        state = MonsterballState(game, Play(inner))
        tensors.add(bytes(np.asarray(state.information_state_tensor(1), np.float32)))
        assert state.observation_string(1) == inner.render(1)
        draws = np.random.default_rng(1).random(40)
        for k in range(40):
            sample = state.resample_from_infostate(1, lambda k=k, d=draws: d[k])
            assert sample.observation_tensor(1) == state.observation_tensor(1)
            cells.add(sample.inner.pos[0])
    assert len(tensors) == 1
    assert len(cells) == 4  # every counter is drawn as the real one


# -- the README's example and the training example -----------------------------------------


def test_readme_example_runs(capsys):
    text = (ROOT / "README.md").read_text()
    section = text.split("## Learning environments", 1)[1]
    code = section.split("```python", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "A " in out and "(" in out  # the result text and the observation's shape


@pytest.mark.slow
def test_training_example_smoke(tmp_path):
    import subprocess
    import sys

    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "train_paper_ultimate.py"),
            "--smoke",
            "--curve",
            str(tmp_path / "curve.png"),
            "--out",
            str(tmp_path / "policy.npz"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert result.returncode == 0, result.stderr
    assert "final:" in result.stdout
    assert (tmp_path / "curve.png").stat().st_size > 1000
    weights = np.load(tmp_path / "policy.npz")["w"]
    assert np.abs(weights).sum() > 0  # the updates changed the policy


def test_openspiel_mcts_example_plays_against_our_bot():
    """The example as its reader runs it: OpenSpiel's MCTS against our bot, once per seat."""
    pytest.importorskip("pyspiel")
    import subprocess
    import sys

    CAPPED = ["--simulations", "3", "--max-length", "200"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples/openspiel_mcts.py"), "--games", "2", *CAPPED],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "OpenSpiel MCTS as B" in done.stdout  # game 1: OpenSpiel's bot sits in seat B
    assert "OpenSpiel MCTS (3 simulations) scored" in done.stdout
