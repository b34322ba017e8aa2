"""The server's rooms: live games in memory, their locks and watchers, and the store behind.

Every change follows one order: check the submission against the live state (nothing changes
if it is wrong), store the move, apply it, then tell every watcher. Dice and bot moves that
follow a human's move are made the same way before the lock is released.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio

from monsterball.core.dice import derive_seed
from monsterball.core.errors import MonsterballError
from monsterball.core.game import GameState
from monsterball.core.record import GameRecord, Recorder
from monsterball.core.registry import get_game
from monsterball.web.live import LOG_TAIL, MODES, Chair, LiveGame, Rejected, make_chairs
from monsterball.web.store import GameRow, StaleMove, Store, StoredMove

Send = Callable[[dict[str, Any]], Awaitable[None]]
CHECKPOINT_EVERY = 64
HISTORIES_KEPT = 16  # replays kept in memory (a long game's is a few hundred kB)
# Automatic moves (dice, bots) stored per transaction: at most this many, or this long.
AUTO_BATCH = 256
AUTO_SECONDS = 0.2


@dataclass(eq=False)
class Watcher:
    chair: Chair | None
    send: Send


@dataclass
class Room:
    live: LiveGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.live.log_limit = LOG_TAIL


@dataclass
class Replay:
    """A game's history for the replay viewer: the state every CHECKPOINT_EVERY moves."""

    live: LiveGame
    checkpoints: list[GameState]
    actions: list[str]


class Rooms:
    def __init__(self, store: Store, *, new_seed: Callable[[], int] | None = None):
        self.store = store
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self._histories: OrderedDict[tuple[str, int], Replay] = OrderedDict()
        self._new_seed = new_seed or (lambda: secrets.randbits(62))

    # -- creating and finding ------------------------------------------------------------

    async def create(
        self,
        *,
        game: str,
        preset: str | None,
        options: Mapping[str, Any],
        mode: str,
        settings: Sequence[str] = (),
        coaches: int,
        bots: Mapping[str, str],
        seed: int | None,
        start: dict[str, Any] | None = None,
        parent: tuple[str, int] | None = None,
    ) -> Room:
        if mode not in MODES:
            raise Rejected("bad-request", f"mode must be one of {', '.join(MODES)}, not '{mode}'")
        try:
            spec = get_game(game)
            chosen = {**options, **spec.options_type.parse_assignments(settings)}
            opts = (
                spec.options_type.from_dict(start["options"])
                if start
                else spec.options(preset, **chosen)
            )
        except MonsterballError as exc:
            raise Rejected("bad-request", str(exc)) from None
        chairs = make_chairs(spec, coaches, bots)
        if mode == "bot" and not any(c.kind == "bot" for c in chairs):
            raise Rejected(
                "bad-request", "a game against a bot needs a bot seat (bots: {B: level})"
            )
        row = GameRow(
            id=secrets.token_hex(8),
            game=spec.id,
            preset=preset,
            rules_version=spec.rules_version,
            options=opts.to_dict(),
            seed=seed if seed is not None else self._new_seed(),
            start=start,
            mode=mode,
            chairs=[c.to_dict() for c in chairs],
            status="playing",
            result="",
            plies=0,
            parent_id=parent[0] if parent else None,
            parent_ply=parent[1] if parent else None,
        )
        live = LiveGame.start(row)
        row.result = live.state.result_text()
        await anyio.to_thread.run_sync(self.store.create, row)
        room = Room(live)
        self.rooms[row.id] = room
        await self.advance(room)
        return room

    async def get(self, game_id: str) -> Room:
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(game_id)
            if room is None:
                room = Room(await self._load(game_id))
                self.rooms[game_id] = room
        await self.advance(room)  # a restart may have stopped between a move and its dice
        return room

    async def _load(self, game_id: str) -> LiveGame:
        row = await anyio.to_thread.run_sync(self.store.get, game_id)
        if row is None:
            raise Rejected("not-found", f"no game '{game_id}'")
        moves = await anyio.to_thread.run_sync(self.store.moves, game_id)
        return await anyio.to_thread.run_sync(LiveGame.load, row, moves)

    # -- playing -------------------------------------------------------------------------

    async def submit(self, room: Room, token: str | None, text: str, based_on: int) -> None:
        async with room.lock:
            live = room.live
            chair = live.chair_for(token)
            action = live.check_submission(chair, text, based_on)
            await self._store_and_apply(live, action)
        await self.advance(room, unseen=True)

    async def _store_and_apply(self, live: LiveGame, action: Any) -> None:
        move = live.stored_move(action)
        after = live.state.clone()
        after.apply_unchecked(action)
        status = "finished" if after.is_terminal() else "playing"
        try:
            await anyio.to_thread.run_sync(
                lambda: self.store.append(
                    live.id, [move], status=status, result=after.result_text()
                )
            )
        except StaleMove as exc:
            raise Rejected("stale", f"{exc}; nothing was changed") from None
        live.commit(action)

    async def advance(self, room: Room, *, unseen: bool = False) -> None:
        """Roll dice and let bots move until a human must act (or the game ends), telling the
        watchers after each stored batch; ``unseen``: they have not been told of the last move.

        Automatic moves are applied first and stored in batches (one transaction per bot
        decision that takes a while, or per AUTO_BATCH moves): if storing fails, the room is
        dropped and rebuilt from the store, and watchers are only ever told of stored moves."""
        while True:
            async with room.lock:
                live = room.live
                batch: list[StoredMove] = []
                started = time.monotonic()
                try:
                    while len(batch) < AUTO_BATCH and time.monotonic() - started < AUTO_SECONDS:
                        who = live.automatic()
                        if who is None:
                            break
                        if isinstance(who, Chair):  # a bot may think for a while
                            action = await anyio.to_thread.run_sync(live.bot_move, who)
                        else:
                            action = live.roll()
                        batch.append(live.stored_move(action))
                        live.commit(action)
                    if batch:
                        status, result = live.status(), live.state.result_text()
                        store = functools.partial(self.store.append, status=status, result=result)
                        await anyio.to_thread.run_sync(store, live.id, batch)
                except Exception:
                    self.rooms.pop(live.id, None)
                    raise
            if batch:
                unseen = True
            if unseen:
                await self.broadcast(room)
                unseen = False
            if not batch or live.automatic() is None:
                return

    # -- watching ------------------------------------------------------------------------

    def watch(self, room: Room, watcher: Watcher) -> None:
        room.watchers.add(watcher)

    def unwatch(self, room: Room, watcher: Watcher) -> None:
        room.watchers.discard(watcher)

    async def broadcast(self, room: Room) -> None:
        made: dict[str | None, dict[str, Any]] = {}  # one message per chair, however many tabs
        for watcher in list(room.watchers):
            key = watcher.chair.name if watcher.chair else None
            if key not in made:
                made[key] = room.live.message_for(watcher.chair)
            try:
                await watcher.send(made[key])
            except Exception:  # a closed socket: its handler will unwatch it
                room.watchers.discard(watcher)

    # -- history -------------------------------------------------------------------------

    async def history(self, game_id: str) -> Replay:
        """The game's stored moves replayed, with checkpoints. Kept for the last few games
        asked for, keyed by their move count, so stepping through a replay does not replay
        the whole game at every step, and a game still being played is rebuilt as it grows."""
        row = await anyio.to_thread.run_sync(self.store.get, game_id)
        if row is None:
            raise Rejected("not-found", f"no game '{game_id}'")
        key = (game_id, row.plies)
        cached = self._histories.get(key)
        if cached is not None:
            self._histories.move_to_end(key)
            return cached
        moves = await anyio.to_thread.run_sync(self.store.moves, game_id)

        def build() -> Replay:
            live = LiveGame.start(row)
            checkpoints = []
            for i, move in enumerate(moves):
                if i % CHECKPOINT_EVERY == 0:
                    checkpoints.append(live.state.clone())
                live.commit(live.spec.parse_action(move.action))
            if len(moves) % CHECKPOINT_EVERY == 0:
                checkpoints.append(live.state.clone())
            return Replay(live, checkpoints, [m.action for m in moves])

        replay = await anyio.to_thread.run_sync(build)
        self._histories[key] = replay
        while len(self._histories) > HISTORIES_KEPT:
            self._histories.popitem(last=False)
        return replay

    def replay_state(self, replay: Replay, step: int) -> GameState:
        """The state after ``step`` of the game's moves (0: its start)."""
        step = max(0, min(step, len(replay.actions)))
        base = step // CHECKPOINT_EVERY
        state = replay.checkpoints[base].clone()
        for text in replay.actions[base * CHECKPOINT_EVERY : step]:
            state.apply_unchecked(state.spec.parse_action(text))
        return state

    def record(self, replay: Replay, row: GameRow) -> GameRecord:
        """The game's record, as `monsterball play --save` would have written it."""
        live = replay.live
        kinds: dict[str, str] = {}
        for chair in live.chairs:
            who = (chair.bot or "bot") if chair.kind == "bot" else "human"
            name = live.spec.seat_name(chair.seat)
            kinds[name] = who if name not in kinds else f"{kinds[name]}, {who}"
        recorder = Recorder(replay.checkpoints[0].clone(), seed=row.seed, players=kinds)
        for text in replay.actions:
            recorder.apply(live.spec.parse_action(text), checked=False)
        if recorder.state.is_terminal():
            recorder.finish()
        return recorder.record

    def fork_seed(self, parent: GameRow, ply: int) -> int:
        return derive_seed(parent.seed ^ self._new_seed(), ply)
