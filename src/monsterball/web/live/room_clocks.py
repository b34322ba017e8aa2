"""Clocks and ratings of live rooms: each clocked room's timer, asleep until the running
side's flag, the game ended on time, and rated games settled when they end
(web/live/time_control.py, web/store/ratings.py). A part of
:class:`monsterball.web.live.rooms.Rooms`, kept apart."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import anyio

from monsterball.bots.registry import DIFFICULTIES
from monsterball.core.game import ending_result
from monsterball.web.live.game import Chair, LiveGame, Rejected
from monsterball.web.live.room_types import Room, Shared
from monsterball.web.live.time_control import Clock
from monsterball.web.store.games import StaleMove, Store
from monsterball.web.store.ratings import settle, unsettled

log = logging.getLogger("monsterball.web")


class Timekeeping:
    """The clocks and ratings part of ``Rooms`` (which provides what is declared here)."""

    store: Store
    now_ms: Callable[[], int]
    rooms: dict[str, Room]
    cluster: Shared | None

    if TYPE_CHECKING:

        async def get(self, game_id: str) -> Room: ...

        async def broadcast(self, room: Room) -> None: ...

        async def _reload_locked(self, room: Room) -> None: ...

    async def resume_clocks(self) -> None:
        """After a restart (with servers on one PostgreSQL, on each server that starts)."""
        # Clocks: a game whose side ran out while the server was down ends now (the time
        # it was down counts: docs/web.md); the others' timers are set again.
        for game_id in await anyio.to_thread.run_sync(self.store.clocked):
            try:
                room = await self.get(game_id)
                if not await self.check_clock(room):
                    self._arm(room)
            except Exception:
                log.exception("game %s: its clock could not be resumed", game_id)
        for game_id in await anyio.to_thread.run_sync(unsettled, self.store):
            try:
                await self._settle((await self.get(game_id)).live)
            except Exception:
                log.exception("game %s could not be settled", game_id)

    def _arm(self, room: Room) -> None:
        """Set the room's timer for the running side's flag (or none if no clock runs)."""
        live = room.live
        current = asyncio.current_task()
        if room.timer is not None and room.timer is not current and not room.timer.done():
            room.timer.cancel()
        room.timer = None
        due = live.clock.deadline() if live.clock is not None and not live.over() else None
        if due is not None:
            room.timer = asyncio.get_running_loop().create_task(self._wake(room, due[0]))

    async def _wake(self, room: Room, due_ms: int) -> None:
        await asyncio.sleep(max(0.0, (due_ms - self.now_ms()) / 1000))
        try:
            if self.rooms.get(room.live.id) is room and not await self.check_clock(room):
                self._arm(room)
        except Exception:
            log.exception("game %s: its clock could not be checked", room.live.id)

    async def check_clock(self, room: Room) -> bool:
        """End the game if the running side is out of time now; True if it ended so."""
        async with room.lock:
            flagged = await self._flag(room)
        if flagged:
            await self._ended(room)
        return flagged

    async def _flag(self, room: Room) -> bool:
        """(Under the room's lock.) Store and apply the running side's loss if its time is up."""
        live = room.live
        if live.clock is None or live.over():
            return False
        now = self.now_ms()
        hit = live.clock.flagged(now)
        if hit is None:
            return False
        loser, termination = hit
        return await self._end_off_board(room, loser, termination, now)

    async def resign(self, room: Room, chair: Chair | None) -> None:
        """The chair's seat gives the game up: it loses, whoever is to act (docs/web.md,
        "Resign"). Spectators and bots cannot; a finished game is left as it is."""
        if chair is None or chair.kind != "human":
            raise Rejected("spectator", "only a player of this game can resign it")
        async with room.lock:
            live = room.live
            if live.over():
                raise Rejected("finished", f"the game is over: {live.result_text()}")
            # Hot-seat: one screen plays every human seat; the side to act gives up.
            acting = live.acting_chair()
            seat = (
                acting.seat if live.is_hotseat() and live.may_act(chair) and acting else chair.seat
            )
            ended = await self._end_off_board(room, seat, "resigned", self.now_ms())
        if ended:
            await self._ended(room)

    async def end_drawn(self, room: Room) -> bool:
        """The players agreed a draw (web/api/draws.py checked who may): stored, then told
        (a rated game settles as a draw). False if the game was over already."""
        async with room.lock:
            if room.live.over():
                return False
            ended = await self._end_off_board(room, None, "agreed", self.now_ms())
        if ended:
            await self._ended(room)
        return ended

    async def end_abandoned(self, room: Room, seat: int) -> bool:
        """``seat`` left the game and the other side claimed the win (web/api/abandon.py checked
        the absence): stored, then told. False if the game was over already."""
        async with room.lock:
            if room.live.over():
                return False
            ended = await self._end_off_board(room, seat, "abandoned", self.now_ms())
        if ended:
            await self._ended(room)
        return ended

    async def _end_off_board(
        self, room: Room, loser: int | None, termination: str, now: int
    ) -> bool:
        """(Under the room's lock.) Store and apply ``loser``'s loss off the board (None: an
        agreed draw)."""
        live = room.live
        clock = live.clock.run(None, now) if live.clock is not None else None
        ending: dict[str, Any] = {"termination": termination}
        if loser is not None:
            if clock is not None:
                clock.left_ms[loser] = max(0, clock.left_ms[loser])
            ending["loser"] = live.spec.seat_name(loser)
        result = ending_result(live.state, ending)[0]
        try:
            await anyio.to_thread.run_sync(
                lambda: self.store.end(
                    live.id,
                    plies=live.moves_made,
                    result=result,
                    ending=ending,
                    clock=clock.to_dict() if clock is not None else None,
                )
            )
        except StaleMove:
            if self.cluster is None:
                return False
            # Another server stored a move or this very flag first: the store says which.
            await self._reload_locked(room)
            return room.live.over()
        live.end(ending, clock)
        log.info("game %s: %s", live.id, result)
        return True

    async def _ended(self, room: Room) -> None:
        await self.broadcast(room)
        if room.live.row.rated:
            await self._settle(room.live)

    async def _settle(self, live: LiveGame) -> None:
        players = live.row.players or {}
        seats = [players.get(name, "") for name in live.spec.seat_names]
        if not all(seats):
            log.error("game %s is rated but lacks players: not settled", live.id)
            return
        if live.row.was_seeded:  # its creator chose the dice (stored before they were refused)
            log.error("game %s is rated but was seeded: not settled", live.id)
            return
        await anyio.to_thread.run_sync(
            lambda: settle(self.store, live.id, seats, live.returns(), game=live.spec.id)
        )


def rated_players(
    seat_names: Sequence[str], chairs: Sequence[Chair], mode: str, players: Mapping[str, str] | None
) -> dict[str, str]:
    """The rating key of every seat of a rated game; Rejected if one is missing."""
    if mode == "hotseat":
        raise Rejected("bad-request", "a hot-seat game cannot be rated (one screen, no players)")
    if len(chairs) != len(seat_names):
        raise Rejected("bad-request", "a rated game has one coach per team")
    keys: dict[str, str] = {}
    for chair in chairs:
        name = seat_names[chair.seat]
        if chair.kind == "bot":
            if chair.bot not in DIFFICULTIES:
                raise Rejected(
                    "bad-request",
                    f"only the {', '.join(DIFFICULTIES)} bots are rated, not '{chair.bot}'",
                )
            keys[name] = f"bot:{chair.bot}"
        elif players and players.get(name):
            keys[name] = players[name]
        else:
            raise Rejected(
                "bad-request", f"a rated game needs a player for seat {name} (log in to play rated)"
            )
    if len(set(keys.values())) != len(keys):
        raise Rejected("bad-request", "a rated game is between different players")
    return keys


def clock_after(
    clock: Clock | None, side: int | None, following: int | None, now_ms: Callable[[], int]
) -> Clock | None:
    """The clock after a move by ``side`` (the side whose clock ran, if any): the mover's
    time charged up to now (its increment added), and ``following``'s running from now if it
    is people's decision (not the dice's or a bot's)."""
    if clock is None:
        return None
    now = now_ms()
    if side is not None:
        clock = clock.after_move(side, now, turn_over=following != side)
    return clock.run(following, now)
