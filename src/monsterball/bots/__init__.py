"""Bots: the :class:`~monsterball.bots.protocol.Bot` protocol and the loop that plays a game
with bots (``protocol``), the bots by name and difficulty (``registry``), the game-independent
heuristic bot (``heuristic``) and Monte Carlo tree search (``mcts``).

Each game's strategy is declared on its spec (``spec.bot``, a ``core.contract.BotHooks``):
nothing here names a game. The names below are the package's public face
(``monsterball.bots.make("hard")``, docs/api.md).
"""

from monsterball.bots.protocol import DEFAULT_MAX_PLIES, Bot, RandomBot, bot_seed, play_game
from monsterball.bots.registry import DIFFICULTIES, bot_for_difficulty, make, make_bot

__all__ = [
    "DEFAULT_MAX_PLIES",
    "DIFFICULTIES",
    "Bot",
    "RandomBot",
    "bot_for_difficulty",
    "bot_seed",
    "make",
    "make_bot",
    "play_game",
]
