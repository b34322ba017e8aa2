"""Bots that think, in live rooms: each such room's own task asks the worker pool
(web/live/bot_pool.py) for its bot's move, so no request waits for it, and stores it as a
person's move is stored. A part of :class:`monsterball.web.live.rooms.Rooms`, kept apart."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from monsterball.core.errors import MonsterballError
from monsterball.web.live.bot_pool import Decision, ThinkingPool, fallback_move, thinks_inline
from monsterball.web.live.game import Chair, LiveGame
from monsterball.web.live.room_types import Room, StaleRace

log = logging.getLogger("monsterball.web")


def thinks_in_pool(who: str | Chair | None) -> bool:
    """``who`` is a bot that thinks in the pool (not the dice, a human or an ``easy`` bot)."""
    return isinstance(who, Chair) and not thinks_inline(who.bot or "easy")


class BotThinking:
    """The thinking bots' part of ``Rooms`` (which provides what is declared here)."""

    pool: ThinkingPool
    rooms: dict[str, Room]

    if TYPE_CHECKING:

        async def advance(self, room: Room, *, unseen: bool = False) -> None: ...

        async def broadcast(self, room: Room) -> None: ...

        async def _may_move(self, room: Room) -> bool: ...

        async def _store_and_apply(self, room: Room, action: Any) -> None: ...

        def _drop(self, game_id: str) -> None: ...

    def _start_thinking(self, room: Room) -> None:
        if room.thinking is None or room.thinking.done():
            room.thinking = asyncio.create_task(self._think(room))

    async def _think(self, room: Room) -> None:
        """Ask the pool for the room's bot moves while a thinking bot is to act."""
        live = room.live
        try:
            while True:
                if room.pace:
                    await asyncio.sleep(room.pace)  # a paced bots-only room
                who = live.automatic()
                if not isinstance(who, Chair) or not thinks_in_pool(who):
                    return
                if not await self._may_move(room):
                    return  # another server's bot turn
                ply, seed = live.state.ply, live.bot_seed()
                decision = Decision(
                    live.spec.id, live.state.to_position(), who.seat, who.bot or "easy", seed
                )
                notation = await self.pool.choose(decision, live.row.owner or live.id)
                try:
                    async with room.lock:
                        if (
                            self.rooms.get(live.id) is not room
                            or room.live is not live
                            or live.state.ply != ply
                            or live.over()  # resigned while the bot thought
                        ):
                            return  # the room was rebuilt or moved on meanwhile
                        action = self._bot_action(live, notation, seed)
                        await self._store_and_apply(room, action)
                except StaleRace:
                    await self.broadcast(room)
                    return
                await self.advance(room, unseen=True)
        except Exception:
            log.exception("game %s: a bot could not move", live.id)
            self._drop(live.id)

    @staticmethod
    def _bot_action(live: LiveGame, notation: str | None, seed: int) -> Any:
        if notation is not None:
            try:
                action = live.spec.parse_action(notation)
                live.state.check(action, seat=live.state.current_player())
                return action
            except MonsterballError:
                log.error("game %s: a bot chose %r, which is not legal", live.id, notation)
        return fallback_move(live.state, seed)
