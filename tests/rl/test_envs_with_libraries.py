"""The learning environments as a researcher's libraries use them (issues 37, 39): the fast
observations against their reference, counters that never saturate, the compact encoding,
pickling and OpenSpiel serialization, ids and versions, game strings, the long-game cut,
the batched vector env, and MaskablePPO on the Gymnasium env with no wrapper."""

from __future__ import annotations

import copy
import json
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

from tests.helpers import ROOT

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

import monsterball.rl as rl
from monsterball.core.game import CHANCE
from monsterball.games import get_game
from monsterball.rl import ids
from monsterball.rl.encode import encoder_for
from tests.helpers.midway import ROSTER

GAMES = ["paper-ultimate", "huck-monster", "midway"]
CASES = [
    ("paper-ultimate", None),
    ("paper-ultimate", "small"),
    ("huck-monster", None),
    ("huck-monster", "small"),
    ("midway", None),
    ("midway", "short"),
]
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent",
    "ignore:.*Not able to test alternative render modes",
    "ignore:.*is not within the observation space",  # the checker's own random actions
)


def random_positions(game, preset, count, seed=0, every=5, **options):
    """Positions of masked-random play (several games), decision nodes only."""
    spec = get_game(game)
    opts = spec.options(preset, **options)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = spec.new_game(opts)
        while not state.is_terminal() and len(out) < count:
            legal = state.legal_actions()
            if state.current_player() != CHANCE and rng.random() < 1 / every:
                out.append(state.clone())
            state.apply_unchecked(legal[rng.integers(len(legal))])
    return spec, opts, out


# -- observations ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_fast_observation_equals_the_board_drawing_reference(game, preset):
    """The planes read from the state's fields are the ones the drawing (built from the
    seat's view only) gives, for both seats, over random play."""
    spec, opts, states = random_positions(game, preset, 120)
    enc = encoder_for(spec, opts)
    for state in states:
        for seat in (0, 1):
            fast = enc.encode(state, seat)
            assert fast.shape == enc.shape and fast.dtype == np.float32
            np.testing.assert_array_equal(fast, enc.reference_encode(state, seat))
            planes, scalars = enc.encode_compact(state, seat)
            assert planes.dtype == np.uint8 and planes.shape == enc.compact_shape
            assert (planes <= enc.compact_high).all()
            assert scalars.shape == (len(enc.scalars),)
            assert ((scalars >= 0) & (scalars <= 1)).all()


def test_fast_observation_hides_what_the_reference_hides():
    """MW-MAGIC-4: the mirror-image positions, where the real caster is hidden from the
    defense: the fast planes equal the reference for both seats (hidden or not)."""
    from tests.rl.test_envs import mirror_states

    spec = get_game("midway")
    enc = encoder_for(spec, spec.options(None, roster_a=ROSTER, roster_b=ROSTER))
    seen = set()
    for state in mirror_states():
        for seat in (0, 1):
            np.testing.assert_array_equal(
                enc.encode(state, seat), enc.reference_encode(state, seat)
            )
        seen.add(enc.encode_compact(state, 1)[0].tobytes())
    assert len(seen) == 1  # the compact planes hide the real counter too


def ledger_rows():
    for line in (ROOT / "scripts/ledgers/strength.jsonl").read_text().splitlines():
        if line.strip():
            yield json.loads(line)


def final_score(row):
    a, b = re.search(r"A (\d+) - B (\d+)", row["result"]).groups()
    return int(a), int(b)


@pytest.mark.parametrize("game", GAMES)
def test_no_counter_plane_saturates_over_the_strength_ledger(game):
    """Issue 39.1: every final score of the ledger's games of ``game`` (Midway's 28-21,
    35-28 and 21-21 among them), and a time counter as long as its longest game, are
    encoded below 1, and different scores give different planes."""
    rows = [r for r in ledger_rows() if r["game"] == game]
    assert len(rows) >= 100
    spec = get_game(game)
    seen = {}
    longest = max(r["plies"] for r in rows)
    for row in rows:
        opts = spec.options_type.from_dict(row["options"])
        enc = encoder_for(spec, opts)
        state = spec.new_game(opts)
        state.score = list(final_score(row))
        counter = {"paper-ultimate": "throws", "huck-monster": "up_calls", "midway": None}[game]
        if counter and not getattr(opts, f"max_{counter}"):
            setattr(state, counter, longest)
        scalars = enc.scalar_values(state, 0)
        counters = ["score_me", "score_opp", "score_lead", *([counter] if counter else [])]
        for name in counters:
            assert 0 <= scalars[enc.scalars.index(name)] < 1, name
        ix = [enc.scalars.index(n) for n in ("score_me", "score_opp", "score_lead")]
        key = (json.dumps(row["options"], sort_keys=True), tuple(scalars[ix]))
        seen.setdefault(key, set()).add(tuple(state.score))
    assert all(len(scores) == 1 for scores in seen.values())  # one picture, one score
    if game == "midway":
        assert sum(max(final_score(r)) > 21 for r in rows) > 400  # the case of 39.1


# -- the checkers, compact encoding included --------------------------------------------------


@pytest.mark.parametrize(("game", "preset"), [("paper-ultimate", "small"), *CASES[2:]])
def test_compact_encoding_passes_the_checkers(game, preset):
    from pettingzoo.test import api_test  # 0.2 s to import: when the test runs, not at collection

    api_test(rl.env(game, preset, max_steps=150, observation="compact"), num_cycles=150)
    check_env(rl.gym_env(game, preset, max_steps=150, observation="compact"))


def masked_rollout(env, seed, steps):
    """The checker run the Gymnasium checker lacks: actions sampled from the mask, every
    observation in the space, every sampled action legal, the same again for the seed."""
    space = env.observation_space
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = []
    ended = 0
    for _ in range(steps):
        assert space.contains(obs), "observation outside the space"
        assert (env.action_masks() == obs["action_mask"].astype(bool)).all()
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        action = int(rng.choice(legal))
        obs, reward, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        trace.append((action, reward, terminated, truncated))
        if terminated or truncated:
            ended += 1
            obs, info = env.reset()
    return trace, ended


@pytest.mark.parametrize(("game", "preset"), CASES)
@pytest.mark.parametrize("observation", ["full", "compact"])
def test_checker_run_with_actions_sampled_from_the_mask(game, preset, observation):
    env = rl.gym_env(game, preset, max_steps=60, observation=observation, seat="alternate")
    first, ended = masked_rollout(env, 3, 200)
    assert ended >= 2  # episodes really ended (cut at 60) and restarted
    assert masked_rollout(env, 3, 200)[0] == first


# -- pickling, copying, serializing ----------------------------------------------------------


def advance(env, steps, rng):
    out = []
    for _ in range(steps):
        obs, *_ = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        out.append(env.observe(env.agent_selection)["observation"].tobytes())
    return out


@pytest.mark.parametrize("game", GAMES)
def test_aec_env_pickles_and_deepcopies_mid_game(game):
    env = rl.env(game)
    env.reset(seed=4)
    advance(env, 30, np.random.default_rng(0))
    for other in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert other.state_now.to_position() == env.state_now.to_position()
        # The dice go on the same way: the same moves give the same game.
        assert advance(other, 40, np.random.default_rng(1)) == advance(
            copy.deepcopy(env), 40, np.random.default_rng(1)
        )


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_gym_env_pickles_and_deepcopies_mid_game(game, opponent):
    env = rl.gym_env(game, opponent=opponent, seat="alternate", observation="compact")
    masked_rollout(env, 2, 20)
    twin = pickle.loads(pickle.dumps(env))
    copied = copy.deepcopy(env)
    runs = []
    for e in (env, twin, copied):
        rng = np.random.default_rng(9)
        obs = e.core.observe(e.seat)
        steps = []
        for _ in range(25):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, term, trunc, _ = e.step(action)
            steps.append((obs["planes"].tobytes(), reward, term, trunc))
            if term or trunc:
                obs, _ = e.reset()
        runs.append(steps)
    assert runs[0] == runs[1] == runs[2]


@pytest.mark.parametrize(("game", "preset"), [("paper-ultimate", "small"), *CASES[2:]])
def test_openspiel_state_serializes_and_pickles(game, preset):
    pyspiel = pytest.importorskip("pyspiel")
    spiel_game = rl.openspiel_game(game, preset)
    state = spiel_game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(120):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    copies = [
        spiel_game.deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(spiel_game, state))[1],
        pickle.loads(pickle.dumps(state)),
    ]
    for other in copies:
        assert str(other) == str(state)
        assert other.history() == state.history()
        assert other.inner.to_position() == state.inner.to_position()
        assert other.information_state_string(0) == state.information_state_string(0)
        assert other.observation_tensor(1) == state.observation_tensor(1)
        if not state.is_chance_node():
            assert other.legal_actions() == state.legal_actions()
    assert str(pickle.loads(pickle.dumps(spiel_game))) == str(spiel_game)


# -- ids, versions, registration, game strings -------------------------------------------------


@pytest.mark.slow
def test_every_id_loads_in_a_fresh_interpreter_after_import():
    code = """
import gymnasium, pyspiel
import monsterball.rl as rl
for game_id in rl.all_gym_ids():
    env = gymnasium.make(game_id, preset=None if 'Midway' in game_id else 'small')
    obs, info = env.reset(seed=0)
    assert env.unwrapped.version, game_id
    print(game_id, obs['observation'].shape)
from monsterball.games import all_games
from monsterball.rl.ids import spiel_names
for spec in all_games():
    for name in spiel_names(spec):
        game = pyspiel.load_game(name)
        print(name, game.num_distinct_actions())
"""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=240,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 3 * 3  # three gym ids, six OpenSpiel names


def test_versions_follow_the_rules_and_the_encoder():
    spec = get_game("midway")
    rules = spec.rules_version.rpartition("/")[2]
    assert ids.gym_id("midway") == f"monsterball/Midway-r{rules}-v{rl.encode.ENCODER_VERSION}"
    env = rl.env("midway", "short")
    assert env.metadata["name"] == ids.env_name("midway")
    assert env.metadata["name"].startswith("monsterball_midway_r") and "." not in ids.env_name(
        "midway"
    )
    assert env.metadata["rules_version"] == rules
    assert gymnasium.spec(ids.gym_id("midway")).entry_point.endswith("MonsterballGym")


def test_openspiel_game_strings_with_several_options_round_trip():
    pyspiel = pytest.importorskip("pyspiel")
    game = rl.openspiel_game(
        "midway", plays=8, spell_limit="game", roster_a=ROSTER, max_game_length=900
    )
    text = str(game)
    assert "plays=8" in text and "spell_limit=game" in text and "roster_a=human;" in text
    again = pyspiel.load_game(text)
    assert str(again) == text
    assert again.ctx.options == game.ctx.options and again.max_game_length() == 900
    assert again.ctx.options.roster_a == ROSTER
    loaded = pyspiel.load_game(
        "python_monsterball_paper_ultimate(preset=small,points_to_win=2,max_throws=40)"
    )
    opts = loaded.ctx.options
    assert (opts.width, opts.points_to_win, opts.max_throws) == (7, 2, 40)
    assert pyspiel.load_game(str(loaded)).ctx.options == opts
    compact = pyspiel.load_game("python_monsterball_huck_monster(preset=small,observation=compact)")
    enc = compact.ctx.encoder
    size = int(np.prod(enc.compact_shape)) + len(enc.scalars)
    assert compact.observation_tensor_size() == size


# -- the long-game policy ------------------------------------------------------------------


def test_default_cuts_truncate_and_openspiel_cap_is_above_them():
    for game in GAMES:
        cut = ids.default_max_decisions(game)
        assert rl.env(game).max_steps == cut
        assert rl.gym_env(game).max_steps == cut // 2
        assert rl.openspiel_game(game).max_game_length() == 2 * cut
    env = rl.gym_env("paper-ultimate", "small", max_steps=30)
    obs, _ = env.reset(seed=1)
    for step in range(30):
        obs, reward, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert truncated == (step == 29) and not terminated and reward == 0.0
    assert not env.core.state.is_terminal()


def test_a_random_default_openspiel_paper_game_ends_before_the_cap():
    """Issue 39.4: OpenSpiel's old 3,000-ply cap ended every random default Paper Ultimate
    game as (0, 0); under the default cap a random game reaches its result."""
    spiel_game = rl.openspiel_game("paper-ultimate")
    state = spiel_game.new_initial_state()
    rng = np.random.default_rng(5)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.inner.is_terminal() and sorted(state.returns()) == [-1.0, 1.0]
    assert len(state.history()) > 3000


# -- the vector env ---------------------------------------------------------------------------


def vector_trace(workers, observation="full", opponent="random", **options):
    from monsterball.rl.vector import MonsterballVectorEnv, random_actions

    rng = np.random.default_rng(0)
    out = []
    with MonsterballVectorEnv(
        "paper-ultimate",
        "small",
        num_envs=4,
        workers=workers,
        max_steps=25,
        observation=observation,
        opponent=opponent,
        **options,
    ) as venv:
        obs, info = venv.reset(seed=5)
        for _ in range(70):
            assert venv.observation_space.contains(obs)
            actions = random_actions(obs["action_mask"], rng)
            live = obs["action_mask"].any(axis=1)  # a game over has no legal action:
            assert venv.action_masks()[np.arange(4), actions][live].all()  # ignored anyway
            obs, rewards, terminated, truncated, info = venv.step(actions)
            out.append(
                (
                    actions.tolist(),
                    {k: v.tobytes() for k, v in obs.items()},
                    rewards.tolist(),
                    terminated.tolist(),
                    truncated.tolist(),
                    info["seat"].tolist(),
                )
            )
    return out


@pytest.mark.parametrize("options", [{}, {"max_throws": 4}])
def test_vector_env_matches_single_envs_and_separates_truncation(options):
    """Cut games (25 learner steps) are truncated with reward 0; with ``max_throws`` some
    games end first, terminated with the game's result; every final observation is the
    single env's."""
    from monsterball.rl.single import MonsterballGym

    trace = vector_trace(0, **options)
    assert any(any(t) for *_, t, _ in trace)  # cut at 25 learner steps
    if options:
        assert any(any(t) for *_, t, _, _ in trace)  # ended by the throw cap
    for i in range(4):
        env = MonsterballGym("paper-ultimate", "small", max_steps=25, **options)
        obs, _ = env.reset(seed=5 + i)
        pending = False
        for actions, batch, rewards, terminated, truncated, _ in trace:
            if pending:  # next-step autoreset: the action is ignored, a new game starts
                obs, _ = env.reset()
                reward, term, trunc = 0.0, False, False
            else:
                obs, reward, term, trunc, _ = env.step(actions[i])
            pending = term or trunc
            row = np.frombuffer(batch["observation"], np.float32).reshape(
                4, *obs["observation"].shape
            )
            np.testing.assert_array_equal(row[i], obs["observation"])  # the final one too
            assert (reward, term, trunc) == (rewards[i], terminated[i], truncated[i])
            if trunc:
                assert reward == 0.0 and not term  # cut, not drawn


@pytest.mark.slow
def test_vector_env_same_results_in_one_process_or_two_workers():
    assert vector_trace(2, "compact", "self") == vector_trace(0, "compact", "self")


# -- MaskablePPO (sb3-contrib) on the Gymnasium env, no wrapper -------------------------------


@pytest.mark.slow
def test_maskable_ppo_runs_on_the_gym_env_with_no_wrapper():
    """sb3-contrib's MaskablePPO on the env as it is (its ``action_masks()``), through the
    example's own code (``--smoke``: a few hundred steps, two evaluation games)."""
    pytest.importorskip("sb3_contrib")
    import subprocess

    done = subprocess.run(
        [sys.executable, str(ROOT / "examples/maskable_ppo.py"), "--smoke", "--envs", "2"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert "95% Wilson" in done.stdout
    env = rl.gym_env("paper-ultimate", "small", observation="compact", seat="alternate")
    model = __import__("sb3_contrib").MaskablePPO("MultiInputPolicy", env, n_steps=16, seed=0)
    obs, _ = env.reset(seed=1)
    for _ in range(10):
        action, _ = model.predict(obs, action_masks=env.action_masks())
        assert env.action_masks()[int(action)]  # the masked policy picks legal actions
        obs, *_ = env.step(int(action))


def test_alternating_seats():
    env = rl.gym_env("huck-monster", "small", seat="alternate")
    seats = [env.reset(seed=1 if k == 0 else None)[1]["seat"] for k in range(4)]
    assert seats == [0, 1, 0, 1]
    assert env.reset(seed=1)[1]["seat"] == 0  # a seed starts the alternation again
    with pytest.raises(ValueError, match="seat must be"):
        rl.gym_env("huck-monster", seat="both")


def test_docs_state_the_spaces_ids_and_versions_as_they_are():
    """Issue 39.6: docs/rl.md's generated section is what the code gives today. After a
    rules or encoder change: PYTHONPATH=src python -m monsterball.rl.doc --write"""
    from monsterball.rl import doc

    text = (ROOT / "docs/rl.md").read_text(encoding="utf-8")
    assert doc.current(text) == doc.section(), "run: python -m monsterball.rl.doc --write"
    for game in GAMES:
        assert ids.gym_id(game) in text and ids.env_name(game) in text


def test_openspiel_refuses_an_illegal_action_after_listing_the_legal_ones():
    """The legal numbers listed for a ply let a listed action skip the second check; any
    other action still goes through the engine's check and changes nothing."""
    from monsterball.core.errors import IllegalActionError

    game = rl.openspiel_game("paper-ultimate", "small")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    before = state.inner.to_position()
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal)
    assert state.inner.to_position() == before and len(state.history()) == len(state.play.seen)
    state.apply_action(legal[0])
    assert state.history()[-1] == legal[0]
