"""The server's rooms: live games in memory, their locks and watchers, and the store behind.

Every change follows one order: check the submission against the live state (nothing changes
if it is wrong), store the move, apply it, then tell every watcher (on SQLite, when its writer
is free, the loop applies the move and stores it with no await between: the same to anyone
watching, ``_apply_and_store_now``). Dice (and ``easy`` bots,
one random draw each) that follow a move are made the same way at once; a bot that thinks
is asked in the worker pool (:mod:`monsterball.web.live.bot_pool`) by a task of the room's own
(web/live/room_bots.py), so no request waits for it, and a restarted server starts those tasks
again (``resume``). Contributed dice wait for the players' nonces (web/live/room_dice.py);
replays of stored games are kept apart (web/live/history.py).

A game with a clock (web/live/time_control.py) has a timer task of the room's own, asleep until the
running side's flag: then the game ends as that side's loss, moves or no moves, watchers or
none. The clock is stored with every move; rated games are settled (web/store/ratings.py) when
they end, on the board or on time (that part: web/live/room_clocks.py).
Rooms are loaded when a request asks for their game and evicted when idle (``evict_idle``).
Servers on one PostgreSQL share the games (:mod:`monsterball.web.cluster.site`): a room then
catches up with moves another server stored, and makes automatic moves only under its lease.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import anyio
from sqlalchemy.engine import Connection

from monsterball.core.errors import MonsterballError
from monsterball.core.game import CHANCE, GameState
from monsterball.core.record import GameRecord
from monsterball.games import get_game
from monsterball.web.live import fair_dice
from monsterball.web.live.bot_pool import OverBudget, ThinkingPool, check_level
from monsterball.web.live.game import (
    LOG_TAIL,
    MODES,
    Chair,
    LiveGame,
    Rejected,
    make_chairs,
    wall_ms,
)
from monsterball.web.live.history import Histories, Replay
from monsterball.web.live.room_bots import BotThinking, thinks_in_pool
from monsterball.web.live.room_clocks import Timekeeping, clock_after, rated_players
from monsterball.web.live.room_dice import ContributedDice
from monsterball.web.live.room_types import Room, Send, Shared, StaleRace, Watcher
from monsterball.web.live.time_control import Clock, TimeControl
from monsterball.web.store.games import (
    GameRow,
    StaleMove,
    Store,
    StoredMove,
)

__all__ = ["Room", "Rooms", "Send", "Shared", "Watcher"]


# Automatic moves (dice, bots) stored per transaction: at most this many, or this long.
AUTO_BATCH = 256
AUTO_SECONDS = 0.05  # computed on the event loop: other rooms wait at most about this long
RETRY_SECONDS = (1.0, 60.0)  # a dropped room is resumed after 1 s, doubling up to 60 s
SECRET_SEED_BITS = 128
SEED_COLUMN_MAX = 2**63  # seeds from here up are kept only as text (GameRow.seed_text)
# Seconds between a bots-only room's bot moves, by the speed its watchers chose; "max" is the
# API's default (scripts, load tests), the lobby's "Watch two bots play" asks "normal".
PACES = {"slow": 2.0, "normal": 0.7, "fast": 0.2, "max": 0.0}
IDLE_SECONDS = 600.0  # a room nobody watches or asks about is evicted after this long
log = logging.getLogger("monsterball.web")


def new_secret_seed() -> int:
    return secrets.randbits(SECRET_SEED_BITS)


class Rooms(Timekeeping, ContributedDice, BotThinking):
    def __init__(
        self,
        store: Store,
        pool: ThinkingPool,
        *,
        rooms_per_address: int = 0,
        new_seed: Callable[[], int] = new_secret_seed,
        now_ms: Callable[[], int] = wall_ms,
        cluster: Shared | None = None,
        idle_seconds: float = IDLE_SECONDS,
        nonce_seconds: float = 0.0,
    ):
        self.store = store
        self.nonce_seconds = (
            nonce_seconds  # the first die's wait for nonces (web/live/fair_dice.py)
        )
        self._dice_waits: set[asyncio.Task[None]] = set()
        self.now_ms = now_ms  # the clocks' time source (server wall clock; tests inject one)
        self.pool = pool
        self.cluster = cluster
        self.idle_seconds = idle_seconds
        self.counts: Counter[str] = Counter()  # stale races, reloads, evictions (/api/server)
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self.histories = Histories(store, self.counts)  # replays kept (web/live/history.py)
        self._new_seed = new_seed
        self.rooms_per_address = rooms_per_address
        self._created_by: dict[str, set[str]] = {}  # address -> rooms it created (live ones)
        self._retry_after: dict[str, float] = {}  # game -> next delay for resuming it
        self._retries: set[asyncio.Task[None]] = set()

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
        address: str | None = None,
        clock: TimeControl | None = None,
        rated: bool = False,
        players: Mapping[str, str] | None = None,
        speed: str = "max",
    ) -> Room:
        """A new game; ``seed`` only for hot-seat and bot games (online, the server alone
        chooses the dice, in secret); ``address``: the client's, for the cap on its rooms.
        ``clock``: its time control (online and bot games); ``rated``: the result updates
        the ratings of ``players`` (seat name -> rating key, from server code only: accounts;
        bot seats are rated as "bot:<level>" by themselves)."""
        if mode not in MODES:
            raise Rejected("bad-request", f"mode must be one of {', '.join(MODES)}, not '{mode}'")
        if seed is not None and mode == "online":
            raise Rejected(
                "bad-request",
                "an online room cannot take a seed: the server chooses its dice in secret and "
                "reveals the seed when the game ends (seeds are for hot-seat and bot games)",
            )
        if seed is not None and rated:
            # Else a creator replays the same dice until a result it likes: ratings minted.
            raise Rejected(
                "bad-request",
                "a rated game cannot take a seed: its dice are chosen by the server in secret "
                "(leave 'seed' out, or play unrated)",
            )
        for level in bots.values():
            try:
                check_level(level, self.pool.max_seconds)
            except OverBudget as exc:
                raise Rejected("bad-request", str(exc)) from None
        if address is not None:
            self._check_room_cap(address)
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
        if clock is not None and mode == "hotseat":
            raise Rejected("bad-request", "a hot-seat game has no clock (one screen, one pace)")
        keys = rated_players(spec.seat_names, chairs, mode, players) if rated else None
        dice_seed = seed if seed is not None else self._new_seed()
        row = GameRow(
            id=secrets.token_hex(8),
            game=spec.id,
            preset=preset,
            rules_version=spec.rules_version,
            options=opts.to_dict(),
            seed=dice_seed if dice_seed < SEED_COLUMN_MAX else -1,
            seed_text=str(dice_seed),
            seeded=seed is not None,
            start=start,
            mode=mode,
            chairs=[c.to_dict() for c in chairs],
            status="playing",
            result="",
            plies=0,
            parent_id=parent[0] if parent else None,
            parent_ply=parent[1] if parent else None,
            rated=rated,
            players=keys,
        )
        row.dice, row.dice_nonces = fair_dice.new_dice(mode, seed is not None)
        row.owner = owner_key(address)
        live = LiveGame.start(row)
        live.now_ms = self.now_ms
        if clock is not None:
            live.clock = Clock.new(clock, spec.num_seats).run(live.clock_side(), self.now_ms())
            row.clock = live.clock.to_dict()
        row.result = live.state.result_text()
        await anyio.to_thread.run_sync(self.store.create, row)
        room = Room(live, new_tokens={c.name: c.token for c in chairs if c.token})
        if speed not in PACES:
            raise Rejected("bad-request", f"speed is one of {', '.join(PACES)}, not {speed!r}")
        if all(c.kind == "bot" for c in chairs):  # only bots-only rooms are paced
            room.pace, room.speed = PACES[speed], speed
            live.speed = speed
        self.rooms[row.id] = room
        if address is not None:
            self._created_by.setdefault(address, set()).add(row.id)
        await self.advance(room)
        return room

    def _check_room_cap(self, address: str) -> None:
        if self.rooms_per_address <= 0:
            return
        mine = self._created_by.get(address, set())
        for game_id in list(mine):
            room = self.rooms.get(game_id)
            if room is None or room.live.over():
                mine.discard(game_id)
        if len(mine) >= self.rooms_per_address:
            raise Rejected(
                "too-many",
                f"this address already has {len(mine)} games in progress (at most "
                f"{self.rooms_per_address}); finish one before starting another",
            )

    async def get(self, game_id: str) -> Room:
        """The room of a game, loaded from the store if need be. Makes no move: a game left
        waiting for its dice or a bot by a restart is moved on by ``resume``, never by a
        reader."""
        room = self.rooms.get(game_id)
        if room is None:
            async with self._loading:
                room = self.rooms.get(game_id)
                if room is None:
                    room = Room(await self._load(game_id))
                    self.rooms[game_id] = room
                    self.counts["loaded"] += 1
                    if self.cluster is not None:  # a move notified while it loaded
                        self.cluster.behind(room)
        room.last_used = time.monotonic()
        return room

    async def resume(self) -> None:
        """After a restart: roll the dice and start the bots of every game waiting for them."""
        pending = await anyio.to_thread.run_sync(self.store.pending)
        for game_id in pending:
            try:
                room = await self.get(game_id)
                await self.advance(room)
                if room.live.automatic() is None:
                    await anyio.to_thread.run_sync(self.store.set_automatic, game_id, False)
            except Exception:
                log.exception("game %s could not be resumed", game_id)
        await self.resume_clocks()

    async def _load(self, game_id: str) -> LiveGame:
        row = await anyio.to_thread.run_sync(self.store.get, game_id)
        if row is None:
            raise Rejected("not-found", f"no game '{game_id}'")
        moves = await anyio.to_thread.run_sync(self.store.moves, game_id)
        live = await anyio.to_thread.run_sync(LiveGame.load, row, moves)
        live.now_ms = self.now_ms
        return live

    # -- playing -------------------------------------------------------------------------

    async def submit(self, room: Room, chair: Chair | None, text: str, based_on: int) -> None:
        caught_up = flagged = False
        try:
            async with room.lock:
                live = room.live
                if self.cluster is not None and based_on > live.state.ply:
                    # The client saw moves made on another server that this one has not
                    # been told of yet.
                    caught_up = await self._catch_up_locked(room)
                # A move that comes after the mover's flag (before the timer woke) is too late.
                flagged = await self._flag(room)
                if not flagged:
                    action = room.live.check_submission(chair, text, based_on)
                    await self._store_and_apply(room, action)
        except StaleRace:
            await self.broadcast(room)  # the moves that won the race
            raise Rejected(
                "stale", "another move was stored first (on another server); nothing was changed"
            ) from None
        except Rejected:
            if caught_up:
                await self.broadcast(room)
            raise
        if flagged:
            await self._ended(room)
            room.live.check_submission(chair, text, based_on)  # says the game is over
        await self.advance(room, unseen=True)

    async def _store_and_apply(self, room: Room, action: Any) -> None:
        """Store the move and apply it (under the room's lock). StaleRace: another server
        stored a move first, and the room has caught up with it."""
        if self.cluster is None:
            with self.store.writer_if_free() as free:
                if free:
                    self._apply_and_store_now(room, action)
                    return
        live = room.live
        move = live.stored_move(action)
        after = live.state.clone()
        after.apply_unchecked(action)
        status = "finished" if after.is_terminal() else "playing"
        actor = after.current_player()
        automatic = actor == CHANCE or any(c.kind == "bot" for c in live.chairs if c.seat == actor)
        clock = clock_after(live.clock, live.clock_side(), live.clock_side(after), self.now_ms)
        also = self._also(live.id, [move], automatic)
        try:
            held = await anyio.to_thread.run_sync(
                lambda: self.store.append(
                    live.id,
                    [move],
                    status=status,
                    result=after.result_text(),
                    automatic=automatic,
                    clock=clock.to_dict() if clock is not None else None,
                    also=also,
                )
            )
        except StaleMove as exc:
            if self.cluster is None:
                raise Rejected("stale", f"{exc}; nothing was changed") from None
            self.counts["stale_races"] += 1
            await self._catch_up_locked(room)
            raise StaleRace from None
        self._leased(room, bool(held))
        live.commit(action)
        live.set_clock(clock)

    def _apply_and_store_now(self, room: Room, action: Any) -> None:
        """``_store_and_apply`` on the event loop's thread, holding SQLite's writer lock: the
        move is applied once, then stored (a few writes into the WAL, no fsync), with no await
        between, so nobody sees it before it is stored. If storing fails, the room is rebuilt
        from the store at once (on the loop: a rare path) and nothing has changed."""
        live = room.live
        move = live.stored_move(action)
        side = live.clock_side()
        live.commit(action)
        actor = live.state.current_player()
        automatic = actor == CHANCE or any(c.kind == "bot" for c in live.chairs if c.seat == actor)
        clock = clock_after(live.clock, side, live.clock_side(), self.now_ms)
        try:
            self.store.append(
                live.id,
                [move],
                status=live.status(),
                result=live.state.result_text(),
                automatic=automatic,
                clock=clock.to_dict() if clock is not None else None,
            )
        except BaseException as exc:
            rebuilt = LiveGame.load(self.store.get(live.id) or live.row, self.store.moves(live.id))
            rebuilt.now_ms, rebuilt.chairs, rebuilt.log_limit = self.now_ms, live.chairs, LOG_TAIL
            room.live = rebuilt
            self.counts["reloads"] += 1
            if isinstance(exc, StaleMove):
                raise Rejected("stale", f"{exc}; nothing was changed") from None
            raise
        live.set_clock(clock)

    async def _append(self, store: Callable[..., Any], *args: Any) -> Any:
        """``store(*args)``, an append: on the event loop's thread if SQLite's writer is free
        (cheaper than handing a 0.05 ms call to a worker thread and back), else in a thread."""
        if self.cluster is None:
            with self.store.writer_if_free() as free:
                if free:
                    return store(*args)
        return await anyio.to_thread.run_sync(store, *args)

    def _also(
        self, game_id: str, moves: Sequence[StoredMove], automatic: bool
    ) -> Callable[[Connection], bool] | None:
        """The cluster's part of a move's transaction (tell the others; the lease)."""
        if self.cluster is None:
            return None
        return self.cluster.after_append(game_id, moves, automatic)

    def _leased(self, room: Room, held: bool) -> None:
        if self.cluster is not None:
            room.lease_until = self.cluster.lease_deadline() if held else 0.0

    async def _may_move(self, room: Room) -> bool:
        """This server may make the room's automatic moves (alone, or holding its lease)."""
        if self.cluster is None or room.live.automatic() is None:
            return True
        if room.lease_until > time.monotonic():
            return True
        held = await self.cluster.take(room.live.id)
        self._leased(room, held)
        return held

    async def catch_up(self, room: Room) -> None:
        """Apply the moves other servers stored since the room's last, and tell its watchers."""
        async with room.lock:
            changed = await self._catch_up_locked(room)
        if changed:
            await self.broadcast(room)

    async def _catch_up_locked(self, room: Room) -> bool:
        live = room.live
        moves = self._heard(room)
        if moves is None:
            moves = await anyio.to_thread.run_sync(self.store.moves, live.id, live.moves_made)
        if not moves:
            return False
        if fair_dice.contributors(live.row) and not live.dice_started:
            # The first die may be among them, rolled with nonces other servers took.
            row = await anyio.to_thread.run_sync(self.store.get, live.id)
            if row is not None:
                self._take_nonces(live, row.dice_nonces or {}, row.dice_until)
        try:
            live.apply_stored(moves)  # on the loop: readers never see a half-applied move
        except Exception:
            log.exception("game %s: stored moves do not follow the room; reloading", live.id)
            await self._reload_locked(room)
            return True
        if live.clock is not None:
            # The clock is stored with the moves, not told with them: read it, and set the
            # timer for the side now running.
            row = await anyio.to_thread.run_sync(self.store.get, live.id)
            if row is not None and row.clock:
                live.set_clock(Clock.from_dict(row.clock))
            self._arm(room)
        return True

    def _heard(self, room: Room) -> list[StoredMove] | None:
        """The moves announced with their notifications that bring the room up to date with
        the newest announced (None if some are missing: the store has them)."""
        done = room.live.moves_made
        newest = self.cluster.latest.get(room.live.id, done) if self.cluster else done
        for ply in [p for p in room.heard if p <= done]:
            del room.heard[ply]
        if newest <= done:
            return None
        moves = [room.heard.get(p) for p in range(done + 1, newest + 1)]
        if any(m is None for m in moves):
            return None
        room.heard.clear()
        return [m for m in moves if m is not None]

    async def _reload_locked(self, room: Room) -> None:
        """Rebuild the room's game from the store (its moves in memory were not all stored),
        keeping its watchers and chairs (a watcher's chair is compared by identity)."""
        old = room.live
        new = await self._load(old.id)
        new.chairs = old.chairs
        new.log_limit = LOG_TAIL
        new.speed = old.speed
        room.live = new
        room.lease_until = 0.0
        self.counts["reloads"] += 1

    async def adopt(self, game_id: str, lease_until: float) -> None:
        """Move on a game whose lease this server has just taken over (nobody held it)."""
        try:
            room = await self.get(game_id)
            room.lease_until = lease_until
            await self.catch_up(room)
            await self.advance(room)
            if room.live.automatic() is None:  # stored before ``automatic`` was kept
                await anyio.to_thread.run_sync(self.store.set_automatic, game_id, False)
        except Exception:
            log.exception("game %s could not be taken over", game_id)

    async def advance(self, room: Room, *, unseen: bool = False) -> None:
        await self._advance(room, unseen=unseen)
        live = room.live
        if live.over():
            if live.row.rated:
                await self._settle(live)
        else:
            self._arm(room)

    async def _advance(self, room: Room, *, unseen: bool = False) -> None:
        """Roll dice (and let ``easy`` bots move) until a human or a thinking bot must act, or
        the game ends, telling the watchers after each stored batch; ``unseen``: they have not
        been told of the last move. A thinking bot is then asked by the room's own task.

        Automatic moves are applied first and stored in batches (per AUTO_BATCH moves or
        AUTO_SECONDS): if storing fails, the room is dropped and rebuilt from the store, and
        watchers are only ever told of stored moves."""
        while True:
            async with room.lock:
                live = room.live
                batch: list[StoredMove] = []
                paced = False  # a bot moved in this batch
                started = time.monotonic()
                mine = await self._may_move(room)  # else another server moves it on
                try:
                    while (
                        mine
                        and len(batch) < AUTO_BATCH
                        and time.monotonic() - started < AUTO_SECONDS
                    ):
                        who = live.automatic()
                        if who is None or thinks_in_pool(who):
                            break
                        if who == "chance" and await self._waits_for_nonces(room):
                            break
                        if room.pace and isinstance(who, Chair) and paced:
                            break  # a paced room: one bot move (and its dice) at a time
                        paced = paced or isinstance(who, Chair)
                        action = live.bot_move(who) if isinstance(who, Chair) else live.roll()
                        batch.append(live.stored_move(action))
                        live.commit(action)
                    if batch:
                        clock = live.clock
                        if clock is not None:  # the clock stood still while the dice rolled
                            clock = clock.run(live.clock_side(), self.now_ms())
                        automatic = live.automatic() is not None
                        store = functools.partial(
                            self.store.append,
                            status=live.status(),
                            result=live.state.result_text(),
                            automatic=automatic,
                            clock=clock.to_dict() if clock is not None else None,
                            also=self._also(live.id, batch, automatic),
                        )
                        self._leased(room, bool(await self._append(store, live.id, batch)))
                        live.set_clock(clock)
                except StaleMove:
                    if self.cluster is None:
                        self._drop(live.id)
                        raise
                    # Another server stored these moves first (this one's lease ran out):
                    # the room is rebuilt from the store, where they are.
                    self.counts["stale_races"] += 1
                    await self._reload_locked(room)
                    mine = False
                except Exception:
                    self._drop(live.id)
                    raise
            if batch:
                unseen = True
            if unseen:
                await self.broadcast(room)
                unseen = False
            if not mine:
                return
            who = live.automatic()
            if thinks_in_pool(who):
                self._start_thinking(room)
                return
            if not batch or who is None:
                return
            if room.pace and isinstance(who, Chair):
                self._pace_later(room)
                return

    # -- pacing bots-only rooms (docs/web.md, "Watching bots") ---------------------------

    async def set_pace(self, room: Room, speed: object) -> None:
        """A watcher of a bots-only room sets its speed (PACES) and every watcher is told;
        people's rooms are never paced."""
        if not isinstance(speed, str) or speed not in PACES:
            raise Rejected("bad-request", f"speed is one of {', '.join(PACES)}, not {speed!r}")
        if any(c.kind == "human" for c in room.live.chairs):
            raise Rejected("bad-request", "only a game between bots is paced for its watchers")
        room.pace = PACES[speed]
        room.speed = room.live.speed = speed
        if room.pacer is not None and not room.pacer.done():
            room.pacer.cancel()  # the next move comes at the new pace
        room.pacer = None
        if not room.live.over():
            self._pace_later(room, first=True)
        await room.tell({"type": "speed", "speed": speed})

    def _pace_later(self, room: Room, *, first: bool = False) -> None:
        if room.pacer is None or room.pacer.done():
            room.pacer = asyncio.get_running_loop().create_task(self._paced(room, first))

    async def _paced(self, room: Room, first: bool) -> None:
        await asyncio.sleep(0 if first else room.pace)
        room.pacer = None
        try:
            if self.rooms.get(room.live.id) is room:
                await self.advance(room)
        except Exception:
            log.exception("game %s: a paced bot move failed", room.live.id)

    def taken_back(self, room: Room) -> None:
        """The room was rebuilt without its last move (web/live/takeback.py): its replays kept in
        memory are dropped, a bot thinking about the old position stops, the clock is set."""
        self.histories.forget(room.live.id)
        if room.thinking is not None and not room.thinking.done():
            room.thinking.cancel()
        room.thinking = None
        self._arm(room)

    def background(self) -> list[asyncio.Task[None]]:
        """The tasks moving games on by themselves (bots thinking, clocks, resumes), to stop
        them."""
        thinking = [r.thinking for r in self.rooms.values() if r.thinking is not None]
        timers = [r.timer for r in self.rooms.values() if r.timer is not None]
        pacers = [r.pacer for r in self.rooms.values() if r.pacer is not None]
        return [*thinking, *timers, *pacers, *self._retries, *self._dice_waits]

    def _drop(self, game_id: str) -> None:
        """Forget a room whose automatic moves failed (the store, a bot): it is rebuilt from
        the store and moved on again a little later, never by a reader."""
        self.rooms.pop(game_id, None)
        delay = self._retry_after.get(game_id, RETRY_SECONDS[0])
        self._retry_after[game_id] = min(2 * delay, RETRY_SECONDS[1])

        async def again() -> None:
            await asyncio.sleep(delay)
            try:
                await self.advance(await self.get(game_id))
            except Exception:
                log.exception("game %s could not be resumed", game_id)
            else:
                self._retry_after.pop(game_id, None)

        task = asyncio.get_running_loop().create_task(again())
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    # -- watching ------------------------------------------------------------------------

    def watch(self, room: Room, watcher: Watcher) -> None:
        room.watchers.add(watcher)

    def unwatch(self, room: Room, watcher: Watcher) -> None:
        room.watchers.discard(watcher)
        room.last_used = time.monotonic()
        chair = watcher.chair
        names = {w.chair.name for w in room.watchers if w.chair is not None}
        if chair is not None and chair.name not in names:
            room.left[chair.name] = room.last_used  # gone since (web/live/abandon.py)

    def evict_idle(self, now: float | None = None) -> int:
        """Forget the rooms nobody has watched or asked about for ``idle_seconds`` and that
        have no work of their own (a bot thinking, dice this server must roll): they are
        loaded again from the store when asked for. The number evicted."""
        if self.idle_seconds <= 0:
            return 0
        now = time.monotonic() if now is None else now
        evicted = 0
        for game_id, room in list(self.rooms.items()):
            busy = (
                room.watchers
                or room.lock.locked()
                or (room.thinking is not None and not room.thinking.done())
                or (room.catching_up is not None and not room.catching_up.done())
                or (room.timer is not None and not room.timer.done())  # a clock running
                or (
                    room.live.automatic() is not None
                    and (self.cluster is None or room.lease_until > now)
                )
            )
            if not busy and now - room.last_used >= self.idle_seconds:
                del self.rooms[game_id]
                evicted += 1
        self.counts["evicted"] += evicted
        return evicted

    async def broadcast(self, room: Room) -> None:
        # The room builds (and encodes) one message per chair and move, however many tabs:
        # see LiveGame.message_for. Each watcher gets its own chair's, never another's.
        live = room.live
        for watcher in list(room.watchers):
            try:
                if watcher.deltas and watcher.send_text is not None:
                    text = live.text_since(watcher.chair, watcher.seen)
                    watcher.seen = live.view_mark()
                    if text is not None:
                        await watcher.send_text(text)
                elif watcher.send_text is not None:
                    await watcher.send_text(live.text_for(watcher.chair))
                else:
                    await watcher.send(live.message_for(watcher.chair))
            except Exception:  # a closed socket: its handler will unwatch it
                room.watchers.discard(watcher)

    # -- history (web/live/history.py) ---------------------------------------------------

    async def history(
        self, game_id: str, before_building: Callable[[], None] | None = None
    ) -> Replay:
        """The game's stored moves replayed (``Histories.get``)."""
        return await self.histories.get(game_id, before_building)

    def replay_state(self, replay: Replay, step: int) -> GameState:
        """The state after ``step`` of the game's moves (0: its start)."""
        return replay.state_at(step)

    def record(self, replay: Replay, row: GameRow) -> GameRecord:
        """The game's record, as `monsterball play --save` would have written it."""
        return replay.record(row)


def owner_key(address: str | None) -> str | None:
    """Whose game it is for the bot pool's fair share: a hash, so no address is stored."""
    if address is None:
        return None
    return "address:" + hashlib.sha256(address.encode()).hexdigest()[:16]
