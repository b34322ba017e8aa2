"""Bots: programs that choose an action for a seat, and a loop that plays a game with them.

Every bot follows the small :class:`Bot` protocol, so the terminal game, the simulator and
the benchmarks treat a trivial random bot and any future searching bot the same way. Bots
keep their own seeded generator: nothing here touches the global ``random`` state, so a game
is fully determined by its seeds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler, derive_seed
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.core.record import GameRecord, Recorder
from monsterball.settings import SETTINGS

DEFAULT_MAX_PLIES = 200_000
# Play-outs of a game's planner (Heuristic.plan: Midway's offense phase) for the heuristic
# bot. Off for a while because planned phases left defenses idle; the cause (every planned
# pass was a throwaway) is fixed, and with 16 it won 51, lost 41, drew 8 of 100 games
# against its one-step self, 1,838 points to 1,086 (CHANGELOG.md 0.1.0, "Midway's phase
# planner"), at several times the time per game.
HEURISTIC_PLAN_TRIES = 16


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


class HeuristicBot:
    """The game's own heuristic (``games/<game>/heuristic.py``): its rules for some
    decisions, else the best of a few sampled actions by a one-step look-ahead with the
    dice in front of it averaged (see :func:`monsterball.heuristic.greedy_choice`).

    In a game with hidden information it judges a determinized copy (the hidden part
    sampled from what its seat may see), never the truth.
    """

    name = "heuristic"

    def __init__(self, seed: int = 0, width: int = 12, plan_tries: int = HEURISTIC_PLAN_TRIES):
        if width < 1:
            raise ValueError("the heuristic bot needs a width of at least 1")
        from monsterball.heuristic import PlanFollower, StreakGuard

        self.seed = seed
        self.width = width
        self.rng = random.Random(seed)
        self.guard = StreakGuard()
        # A game's planner (e.g. Midway's offense phase), with a few play-outs.
        self.follower = PlanFollower(plan_tries)

    def choose(self, state: GameState, seat: int) -> Action:
        from monsterball.heuristic import greedy_choice, heuristic_for

        legal = state.legal_actions()
        obvious = self.guard.obvious(state, seat, legal, self.rng)
        if obvious is not None:
            return obvious
        heuristic = heuristic_for(state.spec)
        planned = self.follower.choose(heuristic, state, seat, legal, self.rng)
        if planned is not None:
            return planned
        seen = state
        if heuristic.determinize is not None:
            seen = heuristic.determinize(state, seat, self.rng)
        return greedy_choice(heuristic, seen, seat, legal, self.rng, width=self.width)

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed})"


def _mcts(seed: int) -> Bot:
    from monsterball.search import MCTSBot

    return MCTSBot(seed)


BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "mcts": _mcts,
}

DIFFICULTIES = ("easy", "medium", "hard")


def bot_for_difficulty(game_id: str, level: str, seed: int) -> Bot:
    """The bot behind a difficulty a player picks: ``easy`` the random bot, ``medium`` the
    game's heuristic bot, ``hard`` the search bot with an interactive budget (at most
    about 1 s per decision). ``game_id`` is checked (UnknownGameError) so a caller finds
    out early; the bots themselves work for every registered game."""
    from monsterball.games import get_game

    get_game(game_id)
    key = level.strip().lower()
    if key not in DIFFICULTIES:
        known = ", ".join(DIFFICULTIES)
        raise ValueError(f"unknown difficulty '{level}'; choose one of: {known}")
    return make(key, seed)


def hard_bot(
    seed: int,
    *,
    seconds: float | None = 1.0,
    iterations: int | None = None,
    rollout_depth: int | None = None,
) -> Bot:
    """The hard bot: the search bot with an interactive budget, ``seconds`` per decision
    (capped at ``SETTINGS.iterations_per_second`` iterations per second of it), or a fixed
    ``iterations`` count instead (then it is fully determined by its seed). Rollouts:
    each game's measured default (``BotHooks.rollout_depth``) unless ``rollout_depth``
    says otherwise."""
    from monsterball.search import MCTSBot

    if iterations is None:
        if seconds is None:
            raise ValueError("the hard bot needs seconds or iterations")
        cap = max(1, round(SETTINGS.iterations_per_second * seconds))
        return MCTSBot(
            seed, iterations=cap, time_limit=seconds, rollout_depth=rollout_depth, name="hard"
        )
    return MCTSBot(seed, iterations=iterations, rollout_depth=rollout_depth, name="hard")


def make_bot(name: str, seed: int) -> Bot:
    """A new bot by registry name, seeded; a ValueError lists the known names.

    A search bot takes a budget after a colon: ``mcts:200`` (iterations per decision) or
    ``mcts:0.5s`` (seconds per decision), and optionally a random rollout of D plies after
    another (``mcts:100:r10``); ``heuristic:N`` samples N actions per decision.
    """
    key = name.strip().lower()
    base, _, arg = key.partition(":")
    factory = BOTS.get(base)
    if factory is None:
        known = ", ".join(sorted(BOTS))
        raise ValueError(f"unknown bot '{name}'; known bots: {known}")
    if not arg:
        return factory(seed)
    try:
        if base == "mcts":
            from monsterball.search import MCTSBot

            arg, _, rollout = arg.partition(":")
            depth = 0
            if rollout:
                if not rollout.startswith("r"):
                    raise ValueError(f"'{rollout}' is not a rollout depth like r10")
                depth = _count(rollout[1:], "a rollout depth like r10", minimum=0)
            if arg.endswith("s"):
                seconds = _seconds(arg[:-1])
                return MCTSBot(seed, time_limit=seconds, rollout_depth=depth, name=key)
            what = "a number of iterations (mcts:200) or seconds (mcts:0.5s)"
            return MCTSBot(seed, iterations=_count(arg, what), rollout_depth=depth, name=key)
        if base == "heuristic":
            bot = HeuristicBot(seed, width=_count(arg, "a number of actions to sample"))
            bot.name = key
            return bot
    except ValueError as exc:
        raise ValueError(f"bad budget in bot '{name}': {exc}") from None
    raise ValueError(f"bot '{base}' takes no parameter (got '{name}')")


def make(name: str, seed: int = 0) -> Bot:
    """A bot by difficulty (``easy``, ``medium``, ``hard``: what the web app and ``play
    --bot`` offer) or by registry name with its budget (``random``, ``heuristic``,
    ``mcts:200``, ``mcts:0.5s``: :func:`make_bot`), with its own seeded generator. Every bot
    plays every game; a ValueError lists the known names.

    >>> import monsterball
    >>> monsterball.bots.make("hard").name
    'hard'
    """
    key = name.strip().lower()
    if key == "easy":
        return RandomBot(seed)
    if key == "medium":
        return HeuristicBot(seed)
    if key == "hard":
        return hard_bot(seed)
    try:
        return make_bot(key, seed)
    except ValueError as exc:
        if str(exc).startswith("unknown bot"):
            known = ", ".join((*DIFFICULTIES, *sorted(BOTS)))
            raise ValueError(f"unknown bot '{name}'; known bots: {known}") from None
        raise


def _count(text: str, what: str, minimum: int = 1) -> int:
    if not text.isdigit():
        raise ValueError(f"'{text}' is not {what}")
    if int(text) < minimum:
        raise ValueError(f"{text} is too few: give at least {minimum}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise ValueError(f"'{text}s' is not a number of seconds like 0.5s") from None
    if not seconds > 0 or seconds == float("inf"):
        raise ValueError(f"{text}s is not a positive number of seconds")
    return seconds


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
