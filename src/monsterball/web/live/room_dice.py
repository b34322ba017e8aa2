"""Contributed dice in live rooms (web/live/fair_dice.py): the players' nonces taken and
shown, the first die's wait for them, and the roll when the last comes in. A part of
:class:`monsterball.web.live.rooms.Rooms`, kept apart."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import anyio

from monsterball.web.live import fair_dice
from monsterball.web.live.game import Chair, LiveGame, wall_ms
from monsterball.web.live.room_types import Room, Shared
from monsterball.web.store.games import Store, add_nonce, settle_nonces


class ContributedDice:
    """The contributed-dice part of ``Rooms`` (which provides what is declared here)."""

    store: Store
    rooms: dict[str, Room]
    cluster: Shared | None
    nonce_seconds: float  # the first die's wait for nonces
    _dice_waits: set[asyncio.Task[None]]  # the rooms' waits, to stop them

    if TYPE_CHECKING:

        async def advance(self, room: Room, *, unseen: bool = False) -> None: ...

        async def broadcast(self, room: Room) -> None: ...

    async def _waits_for_nonces(self, room: Room) -> bool:
        """The first die is due and waits for nonces: the room moves on when the last comes
        or the wait ends, whichever is first. The wait is the store's, as are the nonces, so
        any server (a restarted one, or the next lease holder) keeps them."""
        live = room.live
        if not fair_dice.open_for_nonces(live):
            return False
        asked = fair_dice.contributors(live.row)
        now = wall_ms()
        nonces, until = await anyio.to_thread.run_sync(
            settle_nonces, self.store, live.id, asked, now, round(1000 * self.nonce_seconds)
        )
        self._take_nonces(live, nonces, until)
        if until is None:
            return False
        task = asyncio.create_task(self._after_nonce_wait(room, (until - now) / 1000))
        self._dice_waits.add(task)
        task.add_done_callback(self._dice_waits.discard)
        return True

    async def _after_nonce_wait(self, room: Room, seconds: float) -> None:
        await asyncio.sleep(seconds + 0.01)
        if self.rooms.get(room.live.id) is room and not room.live.dice_started:
            await self.advance(room)

    @staticmethod
    def _take_nonces(live: LiveGame, nonces: dict[str, str], until: int | None) -> bool:
        """The nonces as the store has them (before the first die): True if they changed."""
        live.row.dice_until = until
        if live.dice_started or nonces == (live.row.dice_nonces or {}):
            return False
        live.row.dice_nonces = nonces
        live.sampler = fair_dice.dice_sampler(live.row)
        live.forget_views()
        return True

    async def contribute(self, room: Room, chair: Chair | None, nonce: object) -> str | None:
        """Take a chair's nonce for the dice; why not (None: taken). The last one rolls: here,
        or on the server holding the game's lease, told on the bus (web/cluster/site.py)."""
        async with room.lock:
            live = room.live
            why = fair_dice.refusal(live, chair, nonce)
            if why is not None or chair is None or not isinstance(nonce, str):
                return why
            why, nonces = await anyio.to_thread.run_sync(
                add_nonce, self.store, live.id, fair_dice.contributors(live.row), chair.name, nonce
            )
            changed = self._take_nonces(live, nonces, live.row.dice_until)
        if changed:
            await self.broadcast(room)
        if why is not None:
            return why
        if self.cluster is not None:
            await self.cluster.tell_nonces(live.id, live.moves_made)
        if not fair_dice.open_for_nonces(live):
            await self.advance(room)
        return None

    async def refresh_nonces(self, room: Room) -> None:
        """Another server took a nonce of this game: show it, and roll if this server holds
        the lease and the nonces are all in."""
        async with room.lock:
            live = room.live
            row = await anyio.to_thread.run_sync(self.store.get, live.id)
            changed = row is not None and self._take_nonces(
                live, row.dice_nonces or {}, row.dice_until
            )
        if changed:
            await self.broadcast(room)
            if not fair_dice.open_for_nonces(live):
                await self.advance(room)
