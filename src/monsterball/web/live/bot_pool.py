"""Bots that think off the request path: a few worker processes, each decision on a deadline.

The server never runs a searching bot itself. A decision is sent to an idle worker process
(at most ``workers`` bots think at once; the others wait their turn) as the game's position,
the seat, the bot's level and its seed. The search gets the server's cap as its own deadline,
and a worker that has not answered a little after it is killed and replaced: its decision is
then made by the random bot, seeded from the same secret seed and move number, so even a cut
off decision is the same on every replay of the server's choices.

Bots that only draw one random number (``easy``) choose in the server at once, like a die.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

import anyio

from monsterball.bots.protocol import Bot, RandomBot
from monsterball.bots.registry import DIFFICULTIES, bot_for_difficulty, make_bot
from monsterball.core.actions import Action
from monsterball.core.game import GameState
from monsterball.settings import SETTINGS

MAX_HEURISTIC_WIDTH = 64
GRACE_SECONDS = 1.0  # a worker's answer may come this long after the search's deadline
INLINE_LEVELS = ("easy", "random")
log = logging.getLogger("monsterball.web")


class OverBudget(ValueError):
    """A bot level the server refuses: unknown, or a budget above its cap."""


def check_level(level: str, max_seconds: float) -> None:
    """Refuse (OverBudget) a bot level the web does not run: one that is not a difficulty or a
    bot name, or whose budget is above ``max_seconds`` (iterations: the hard bot's
    cap, ``SETTINGS.iterations_per_second``, per second). Only parses: nothing is built, so a
    refusal is immediate."""
    key = level.strip().lower()
    if key in DIFFICULTIES:
        return
    base, _, arg = key.partition(":")
    try:
        if base == "mcts" and arg.endswith("s"):
            seconds = float(arg[:-1])
            if not math.isfinite(seconds) or seconds > max_seconds:
                raise OverBudget(
                    f"bot '{level}' thinks too long: this server allows at most "
                    f"{max_seconds:g} s per decision"
                )
        elif base == "mcts" and arg:
            most = int(SETTINGS.iterations_per_second * max_seconds)
            if int(arg) > most:
                raise OverBudget(
                    f"bot '{level}' searches too long: this server allows at most {most} "
                    f"iterations ({max_seconds:g} s) per decision"
                )
        elif base == "heuristic" and arg and int(arg) > MAX_HEURISTIC_WIDTH:
            raise OverBudget(
                f"bot '{level}' is too wide: this server allows heuristic:{MAX_HEURISTIC_WIDTH}"
            )
        make_bot(key, 0)  # unknown names and malformed budgets
    except OverBudget:
        raise
    except ValueError as exc:
        known = ", ".join(DIFFICULTIES)
        raise OverBudget(f"unknown bot level '{level}' ({known}): {exc}") from None


def thinks_inline(level: str) -> bool:
    return level.strip().lower() in INLINE_LEVELS


def build_bot(game_id: str, level: str, seed: int, max_seconds: float) -> Bot:
    """The bot for ``level``, its search (if any) stopped after ``max_seconds``."""
    key = level.strip().lower()
    bot = bot_for_difficulty(game_id, key, seed) if key in DIFFICULTIES else make_bot(key, seed)
    limit = getattr(bot, "time_limit", None)
    if hasattr(bot, "time_limit"):
        bot.time_limit = max_seconds if limit is None else min(limit, max_seconds)
    return bot


def fallback_move(state: GameState, seed: int) -> Action:
    """The move of a decision that was cut off: the random bot's, from the same seed."""
    return RandomBot(seed).choose(state, state.current_player())


@dataclass(frozen=True)
class Decision:
    game: str
    position: dict[str, Any]
    seat: int
    level: str
    seed: int


def decide(decision: Decision, max_seconds: float) -> str:
    """One bot decision (in a worker process): the chosen action's notation."""
    from monsterball.games import get_game

    state = get_game(decision.game).from_position(decision.position)
    bot = build_bot(decision.game, decision.level, decision.seed, max_seconds)
    return bot.choose(state, decision.seat).notation()


def _worker_main(conn: Connection, max_seconds: float) -> None:
    import monsterball.games  # noqa: F401  (registers the games)

    with contextlib.suppress(OSError):
        # Thinking bots yield the CPU to the server answering people (not so far that a busy
        # machine starves them past their deadline: they would all be cut off).
        os.nice(10)

    conn.send(("ready", None))
    while True:
        try:
            decision = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", decide(decision, max_seconds)))
        except Exception as exc:  # a bug in a bot: the server logs it and falls back
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class _Worker:
    def __init__(self, max_seconds: float):
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_worker_main, args=(child, max_seconds), daemon=True, name="monsterball-bot"
        )
        self.process.start()
        child.close()

    async def ready(self) -> None:
        await anyio.to_thread.run_sync(self.conn.recv)

    def kill(self) -> None:
        self.process.kill()
        self.conn.close()
        self.process.join(timeout=5)


class FairSlots:
    """``size`` slots shared fairly between owners (the address, or account, whose rooms the
    bots play in): a free slot goes to the waiting owner served longest ago, one decision at a
    time, so an owner with many rooms thinking cannot hold another's bot back by more than
    the decisions already running (one per slot). Within one owner: first come, first served."""

    def __init__(self, size: int):
        self.size = size
        self.busy = 0
        self.waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self.served: dict[str, int] = {}  # owner -> the grant number it was last served at
        self.grants = 0

    async def acquire(self, owner: str) -> None:
        if self.busy < self.size and not self.waiting:
            self._grant(owner)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(owner, deque()).append(turn)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.release()  # granted as it was cancelled: pass the slot on
            else:
                queue = self.waiting.get(owner)
                if queue is not None and turn in queue:
                    queue.remove(turn)
                    if not queue:
                        del self.waiting[owner]
            raise

    def _grant(self, owner: str) -> None:
        self.busy += 1
        self.grants += 1
        self.served[owner] = self.grants
        if len(self.served) > 10_000:  # forget the owners served longest ago
            for old in sorted(self.served, key=self.served.__getitem__)[:5_000]:
                del self.served[old]

    def release(self) -> None:
        self.busy -= 1
        while self.waiting and self.busy < self.size:
            owner = min(self.waiting, key=lambda o: self.served.get(o, 0))
            queue = self.waiting[owner]
            turn = queue.popleft()
            if not queue:
                del self.waiting[owner]
            if not turn.done():
                self._grant(owner)
                turn.set_result(None)


class ThinkingPool:
    """At most ``workers`` bot decisions at once, each in its own worker process, shared
    fairly between owners (FairSlots)."""

    def __init__(self, workers: int = 2, max_seconds: float = 2.0, grace: float = GRACE_SECONDS):
        if workers < 1:
            raise ValueError("the bot pool needs at least one worker")
        self.workers = workers
        self.max_seconds = max_seconds
        self.grace = grace
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._slots = FairSlots(workers)
        self.cut_off = 0  # decisions that overran and were made by the fallback
        self.decisions = 0

    async def choose(self, decision: Decision, owner: str = "") -> str | None:
        """The notation the bot chose, or None if it overran its budget (or failed).
        ``owner``: whose rooms it plays in (the fair share's key)."""
        await self._slots.acquire(owner)
        try:
            return await self._choose(decision)
        finally:
            self._slots.release()

    async def _choose(self, decision: Decision) -> str | None:
        worker = self._idle.pop() if self._idle else None
        try:
            if worker is None:
                worker = _Worker(self.max_seconds)
                self._all.add(worker)
                await worker.ready()
            self.decisions += 1
            worker.conn.send(decision)
            answered = await anyio.to_thread.run_sync(
                worker.conn.poll, self.max_seconds + self.grace
            )
            if not answered:
                raise TimeoutError
            kind, value = worker.conn.recv()
        except (TimeoutError, EOFError, OSError):
            log.warning("a bot (%s) overran its budget and was stopped", decision.level)
            self.cut_off += 1
            self._drop(worker)
            return None
        except BaseException:  # cancelled (the server stops): no half-used worker is kept
            self._drop(worker)
            raise
        self._idle.append(worker)
        if kind != "ok":
            log.error("a bot (%s) failed: %s", decision.level, value)
            return None
        return str(value)

    def _drop(self, worker: _Worker | None) -> None:
        if worker is not None:
            self._all.discard(worker)
            worker.kill()

    def close(self) -> None:
        for worker in list(self._all):
            self._drop(worker)
        self._idle.clear()
