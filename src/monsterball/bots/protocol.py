"""Bots: programs that choose an action for a seat, and a loop that plays a game with them.

Every bot follows the small :class:`Bot` protocol, so the terminal game, the simulator and
the benchmarks treat a trivial random bot and any searching bot the same way. Bots keep
their own seeded generator: nothing here touches the global ``random`` state, so a game is
fully determined by its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler, derive_seed
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.core.record import GameRecord, Recorder

DEFAULT_MAX_PLIES = 200_000


class Bot(Protocol):
    """Chooses the action for ``seat``, which is the seat to act in ``state``.

    A bot may read ``state.view(seat)`` and ``state.legal_actions()``; it must return one of
    the legal actions and must not change the state (search bots work on clones).
    """

    name: str

    def choose(self, state: GameState, seat: int) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions: the baseline and the benchmark workload."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Action:
        # sample_legal draws as legal[rng.randrange(len(legal))] would, with the same
        # generator calls, so games are the same as with the full list.
        try:
            return state.sample_legal(self.rng)
        except (ValueError, IndexError):
            raise ValueError(f"no legal action for seat {seat} at ply {state.ply}") from None

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game seeded with ``game_seed``.

    Hashed apart from the dice seed so the bots' choices and the dice are independent
    streams, and the same everywhere a game is played (simulation, terminal, tests).
    """
    return derive_seed(game_seed, seat)


def play_game(
    spec: GameSpec,
    options: GameOptions,
    bots: Sequence[Bot],
    seed: int,
    record: bool = False,
    *,
    max_plies: int = DEFAULT_MAX_PLIES,
) -> tuple[GameState, GameRecord | None, int]:
    """Play one game to the end, bot ``i`` in seat ``i``, dice from ``SeededSampler(seed)``.

    Returns the final state, the record (when ``record``) and the number of plies played
    (chance outcomes included). Raises RuntimeError if the game runs past ``max_plies``, so
    a rules bug that loops forever shows up as an error instead of a hung simulation.
    """
    if len(bots) != spec.num_seats:
        raise ValueError(f"{spec.id} needs {spec.num_seats} bots, got {len(bots)}")
    state = spec.new_game(options)
    sampler = SeededSampler(seed)
    recorder = None
    if record:
        players = {spec.seat_name(i): bot.name for i, bot in enumerate(bots)}
        recorder = Recorder(state, seed=seed, players=players)
    plies = 0
    while not state.is_terminal():
        if plies >= max_plies:
            raise RuntimeError(
                f"{spec.id} game with seed {seed} did not end within {max_plies} plies"
            )
        actor = state.current_player()
        if actor == CHANCE:
            action = sampler.choose(state.chance_outcomes())
        else:
            action = bots[actor].choose(state, actor)
        if recorder is not None:
            recorder.apply(action, checked=False)
        else:
            # Actions come from legal_actions / chance_outcomes, so skip the legality check.
            state.apply_unchecked(action)
        plies += 1
    return state, (recorder.record if recorder is not None else None), plies
