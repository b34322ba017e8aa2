"""The bots by name: ``make("hard")``, ``make_bot("mcts:200")``, the difficulty levels the
web app and the terminal offer, and the hard bot's budget.

Every bot plays every game (each game's strategy comes from its spec's ``BotHooks``); a
name that is not known is a ValueError listing the known ones.
"""

from __future__ import annotations

from collections.abc import Callable

from monsterball.bots.heuristic import HeuristicBot
from monsterball.bots.protocol import Bot, RandomBot
from monsterball.settings import SETTINGS


def _mcts(seed: int) -> Bot:
    from monsterball.bots.mcts import MCTSBot

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
    from monsterball.bots.mcts import MCTSBot

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
            from monsterball.bots.mcts import MCTSBot

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
