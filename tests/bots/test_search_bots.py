"""The heuristic and search bots, for every registered game: legal, reproducible, not
peeking at hidden information, and stronger than random."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from monsterball.bots.heuristic import GENERIC, HeuristicBot, heuristic_for
from monsterball.bots.mcts import MCTS, MCTSBot, Node
from monsterball.bots.protocol import Bot, RandomBot, bot_seed, play_game
from monsterball.bots.registry import bot_for_difficulty, make_bot
from monsterball.core.actions import Action, Roll
from monsterball.core.errors import UnknownGameError
from monsterball.core.game import GameState
from monsterball.games import get_game
from monsterball.games.midway.actions import Move, Punt, parse_player
from tests.games.midway.test_hidden import GROUP, mirror_play
from tests.helpers import midway as mw
from tests.helpers.midway import act

# Short games: a few points or plays (see docs/benchmarks.md for full-length figures).
SHORT: dict[str, tuple[str | None, dict[str, Any]]] = {
    "paper-ultimate": ("small", {"max_throws": 12}),
    "huck-monster": ("small", {"points_to_win": 1, "max_up_calls": 12}),
    "midway": ("short", {"plays": 3}),
}


def short_options(game: str) -> Any:
    preset, overrides = SHORT[game]
    return get_game(game).options(preset, **overrides)


class Checked:
    """Wraps a bot: every choice must be legal and leave the state untouched."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.name = bot.name
        self.decisions = 0

    def choose(self, state: GameState, seat: int) -> Action:
        before = state.state_hash()
        legal = state.legal_actions()
        action = self.bot.choose(state, seat)
        assert action in legal, f"{self.name} chose illegal {action} at ply {state.ply}"
        assert state.state_hash() == before, f"{self.name} changed the state"
        self.decisions += 1
        return action


@pytest.mark.parametrize("game", sorted(SHORT))
@pytest.mark.parametrize("name", ["heuristic", "mcts:16"])
def test_bots_play_legal_games(game: str, name: str) -> None:
    spec = get_game(game)
    options = short_options(game)
    for seed in range(2):
        bots = [Checked(make_bot(name, bot_seed(seed, 0))), Checked(RandomBot(seed))]
        if seed % 2:
            bots.reverse()
        state, _, _ = play_game(spec, options, bots, seed)
        assert state.is_terminal()
        assert all(b.decisions > 0 for b in bots)


@pytest.mark.parametrize("game", sorted(SHORT))
@pytest.mark.parametrize("name", ["heuristic", "mcts:12"])
def test_bots_are_reproducible(game: str, name: str) -> None:
    spec = get_game(game)
    options = short_options(game)

    def run() -> str:
        bots = [make_bot(name, bot_seed(5, s)) for s in range(2)]
        state, _, _ = play_game(spec, options, bots, 5)
        return state.state_hash()

    assert run() == run()


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SHORT))
def test_heuristic_beats_random(game: str) -> None:
    spec = get_game(game)
    options = short_options(game)
    wins = losses = 0
    for seed in range(4):
        heuristic_seat = seed % 2
        bots: list[Bot] = [RandomBot(bot_seed(seed, 0)), RandomBot(bot_seed(seed, 1))]
        bots[heuristic_seat] = HeuristicBot(bot_seed(seed, heuristic_seat))
        state, _, _ = play_game(spec, options, bots, seed)
        result = state.returns()[heuristic_seat]
        wins += result > 0
        losses += result < 0
    assert losses == 0 and wins >= 3


def test_every_game_has_its_own_heuristic() -> None:
    for game in SHORT:
        h = heuristic_for(get_game(game))
        assert h is not GENERIC and h.game == game
    assert heuristic_for(get_game("midway")).hidden_information
    assert not heuristic_for(get_game("huck-monster")).hidden_information


def test_evaluations_are_bounded_and_zero_sum() -> None:
    for game in SHORT:
        spec = get_game(game)
        h = heuristic_for(spec)
        state = spec.new_game(short_options(game))
        rng = random.Random(1)
        for _ in range(300):
            if state.is_terminal():
                break
            v = h.value(state, 0)
            assert -1.0 <= v <= 1.0
            assert h.value(state, 1) == pytest.approx(-v)
            legal = state.legal_actions()
            state.apply_unchecked(legal[rng.randrange(len(legal))])


def test_chance_nodes_follow_the_exact_probabilities() -> None:
    """Stratified outcome choice: after N visits every outcome has p*N visits, +-1."""
    search = MCTS(GENERIC, random.Random(0))
    outcomes = [(Roll("d", str(v)), p) for v, p in [(1, 0.5), (2, 0.25), (3, 0.125), (4, 0.125)]]
    node = Node(None, -1)
    counts = {a: 0 for a, _ in outcomes}
    for _ in range(64):
        action = search._stratified(node, outcomes)
        child = node.children.setdefault(action, Node(None, 0))
        child.visits += 1
        node.visits += 1
        counts[action] += 1
    for action, p in outcomes:
        assert abs(counts[action] - p * 64) <= 1


def test_search_budget_and_stats() -> None:
    spec = get_game("huck-monster")
    state = spec.new_game(short_options("huck-monster"))
    sampler_rng = random.Random(3)
    while state.is_chance() or len(state.legal_actions()) < 3:
        legal = state.legal_actions()
        state.apply_unchecked(legal[sampler_rng.randrange(len(legal))])
    bot = MCTSBot(1, iterations=50, root_pass=True)
    action = bot.choose(state, state.current_player())
    assert action in state.legal_actions()
    assert bot.last is not None and bot.last.iterations == 50
    assert bot.last.root_evaluations > 0
    assert sum(bot.last.root_visits.values()) + bot.last.root_evaluations == 50
    timed = MCTSBot(1, time_limit=0.05)
    timed.choose(state, state.current_player())
    assert timed.last is not None and timed.last.iterations >= 1


@pytest.mark.parametrize("game", sorted(SHORT))
def test_search_children_are_keyed_by_action_numbers(game: str) -> None:
    """Children are keyed by the game's ActionTable numbers (ints), each the number of a
    legal action (of an outcome at chance nodes), in the full-information tree and in
    Midway's determinized one alike."""
    spec = get_game(game)
    state = spec.new_game(short_options(game))
    rng = random.Random(2)
    while state.is_chance() or len(state.legal_actions()) < 3:
        legal = state.legal_actions()
        state.apply_unchecked(legal[rng.randrange(len(legal))])
    search = MCTS(heuristic_for(spec), random.Random(1))
    action, stats = search.search(state, state.current_player(), iterations=80, time_limit=None)
    table = spec.action_table(state.options)
    root = search.root
    assert root is not None and root.children
    assert all(type(k) is int for k in root.children)
    legal = state.legal_actions()
    assert {table.decode(k) for k in root.children} <= set(legal)
    assert action in legal and table.encode(action) in root.children
    assert stats.root_visits == {
        table.decode(k).notation(): c.visits for k, c in root.children.items()
    }
    deeper = [c for c in root.children.values() if c.children]
    assert deeper and all(type(k) is int for c in deeper for k in c.children)


def _mirror_defense() -> list[GameState]:
    """The mirror-image play, at the defense's phase, for each choice of real counter."""
    states: list[GameState] = []
    for real in GROUP:
        state = mirror_play(real)
        act(state, "end")
        assert state.current_player() == 1
        states.append(state)
    return states


def test_midway_determinization_does_not_depend_on_the_truth() -> None:
    h = heuristic_for(get_game("midway"))
    assert h.determinize is not None
    positions = set()
    for state in _mirror_defense():
        copy = h.determinize(state, 1, random.Random(9))
        positions.add(json.dumps(copy.to_position(), sort_keys=True))
    assert len(positions) == 1
    # The caster's own side keeps the truth.
    state = _mirror_defense()[0]
    assert h.determinize(state, 0, random.Random(9)).to_position() == state.to_position()


@pytest.mark.parametrize("name", ["heuristic", "mcts:40"])
def test_midway_bots_choose_the_same_whichever_counter_is_real(name: str) -> None:
    choices = {make_bot(name, 4).choose(state, 1).notation() for state in _mirror_defense()}
    assert len(choices) == 1


def test_make_bot_budgets_and_errors() -> None:
    mcts = make_bot("MCTS:50", 1)
    assert isinstance(mcts, MCTSBot) and mcts.iterations == 50 and mcts.name == "mcts:50"
    timed = make_bot("mcts:0.5s", 1)
    assert isinstance(timed, MCTSBot) and timed.time_limit == 0.5
    assert isinstance(make_bot("heuristic:4", 1), HeuristicBot)
    with pytest.raises(ValueError, match="bad budget"):
        make_bot("mcts:lots", 1)
    with pytest.raises(ValueError, match=r"'mcts:0': 0 is too few: give at least 1"):
        make_bot("mcts:0", 1)
    with pytest.raises(ValueError, match="takes no parameter"):
        make_bot("random:3", 1)


def test_difficulties() -> None:
    assert isinstance(bot_for_difficulty("pu", "easy", 1), RandomBot)
    assert isinstance(bot_for_difficulty("huck-monster", "Medium", 1), HeuristicBot)
    hard = bot_for_difficulty("midway", "hard", 1)
    assert isinstance(hard, MCTSBot) and hard.time_limit is not None and hard.time_limit <= 1.0
    with pytest.raises(ValueError, match="easy, medium, hard"):
        bot_for_difficulty("pu", "nightmare", 1)
    with pytest.raises(UnknownGameError):
        bot_for_difficulty("calvinball", "easy", 1)


def test_bots_break_endless_runs_of_decisions() -> None:
    """Midway lets a team hand the ball back and forth without end; a deterministic bot
    found that cycle (seed from a 20-game match). The streak guard ends it."""
    from monsterball.core.dice import derive_seed

    spec = get_game("midway")
    seed = derive_seed(0, 19)
    bots: list[Bot] = [HeuristicBot(bot_seed(seed, 0)), RandomBot(bot_seed(seed, 1))]
    state, _, plies = play_game(spec, spec.options("short"), bots, seed, max_plies=20_000)
    assert state.is_terminal() and plies < 20_000


def _open_field_run(**extra: Any) -> Any:
    """Team A's carrier on g10 (A attacks north, toward higher rows) with a teammate
    beside him and two defenders far downfield, at the start of A's movement phase."""
    state = mw.setup({"A1": "g10", "A4": "f10", "B1": "a20", "B4": "n18"}, carrier="A1")
    for key, value in extra.items():
        setattr(state, key, value)
    return mw.start_phase(state, 0)


@pytest.mark.parametrize("seed", range(4))
def test_midway_heuristic_runs_the_ball_upfield(seed: int) -> None:
    """In the open, the carrier steps toward the end zone (yards are the main term)."""
    state = _open_field_run()
    action = HeuristicBot(seed).choose(state, 0)
    assert isinstance(action, Move) and action.player == parse_player("A1")
    assert state.row(state.field.parse_cell(action.cell)) > mw.row_of("g10")


def test_midway_evaluation_prefers_yards_and_points() -> None:
    h = heuristic_for(get_game("midway"))

    def live(carrier_at: str, score: tuple[int, int] = (0, 0)) -> Any:
        state = mw.setup({"A1": carrier_at, "B1": "a20"}, carrier="A1", los="g10")
        state.score = list(score)
        return mw.start_phase(state, 0)

    assert h.value(live("g16"), 0) > h.value(live("g10"), 0)
    assert h.value(live("g10", (6, 0)), 0) > h.value(live("g16"), 0)


def test_midway_heuristic_punts_on_fourth_down_out_of_range() -> None:
    """Fourth down on the own 45% of the field: the snap receiver punts, as far as he can."""
    state = _open_field_run(down=4, punter=parse_player("A1"), phases=1)
    action = HeuristicBot(0).choose(state, 0)
    assert isinstance(action, Punt)
    punts = [a for a in state.legal_actions() if isinstance(a, Punt)]
    deepest = max(state.row(state.field.parse_cell(a.cell)) for a in punts)
    assert state.row(state.field.parse_cell(action.cell)) == deepest
