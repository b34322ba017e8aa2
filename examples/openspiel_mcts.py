"""OpenSpiel's MCTS bot, searching through our games' exact chance nodes, against our bots.

    PYTHONPATH=src python examples/openspiel_mcts.py --game paper-ultimate --preset small \
        --games 4 --simulations 60 --opponent heuristic

OpenSpiel's ``MCTSBot`` samples each chance node from ``chance_outcomes()`` (the rules' exact
probabilities) and values leaves with an evaluator: here our game's heuristic evaluation
(a random rollout to the end of a game thousands of plies long would say little). Seats
alternate between games; the dice of game k are seeded with k.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from open_spiel.python.algorithms import mcts

import monsterball.rl as rl
from monsterball.bots.heuristic import heuristic_for
from monsterball.bots.protocol import bot_seed
from monsterball.bots.registry import make_bot
from monsterball.core.dice import SeededSampler


class HeuristicEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Values a leaf by the game's heuristic (seat 0's value in [-1, 1]); uniform priors."""

    def __init__(self, spec):
        self.evaluate_state = heuristic_for(spec).evaluate

    def evaluate(self, state):
        if state.is_terminal():
            return np.array(state.returns())
        value = float(self.evaluate_state(state.inner))
        return np.array([value, -value])

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def play(args: argparse.Namespace, index: int) -> float:
    """One game; returns the score of the OpenSpiel bot (1 win, 0.5 draw, 0 loss)."""
    game = rl.openspiel_game(args.game, args.preset, max_game_length=args.max_length)
    spiel_seat = index % 2
    searcher = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=HeuristicEvaluator(game.ctx.spec),
        solve=False,
        random_state=np.random.RandomState(index),
    )
    ours = make_bot(args.opponent, bot_seed(index, 1 - spiel_seat))
    dice = SeededSampler(index)
    table = game.ctx.table
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chosen = dice.choose(state.inner.chance_outcomes())
            state.apply_action(table.encode(chosen))
        elif state.current_player() == spiel_seat:
            state.apply_action(searcher.step(state))
        else:
            seat = state.current_player()
            state.apply_action(table.encode(ours.choose(state.inner, seat)))
    result = state.returns()[spiel_seat]
    print(
        f"game {index}: OpenSpiel MCTS as {'AB'[spiel_seat]}: {state.inner.result_text()}"
        f" ({len(state.history())} plies)"
    )
    return (result + 1) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="paper-ultimate")
    parser.add_argument("--preset", default="small")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=40)
    parser.add_argument("--opponent", default="random", help="random, heuristic, mcts:N")
    parser.add_argument(
        "--max-length", type=int, default=None, help="plies before a draw (game's default)"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    scores = [play(args, i) for i in range(args.games)]
    wins, draws = scores.count(1.0), scores.count(0.5)
    lo, hi = wilson(wins, len(scores))
    print(
        f"OpenSpiel MCTS ({args.simulations} simulations) scored {sum(scores)} / "
        f"{len(scores)} against our {args.opponent} bot: won {wins}, drew or unfinished "
        f"{draws}, lost {len(scores) - wins - draws} (wins {wins / len(scores):.1%}, 95% Wilson "
        f"{lo:.1%} - {hi:.1%}); {time.perf_counter() - start:.0f} s"
    )


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


if __name__ == "__main__":
    main()
