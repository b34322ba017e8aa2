"""Takeback (issue 32; docs/web.md "Takeback"): a player takes back their own last move.

The policy, as Board Game Arena's: a move is taken back one at a time, and only while
nothing has happened since that the player could not undo by themselves: never across a die,
another seat's move, or a secret the move revealed (Midway: an opposing mirror-image caster's
or invisible player's hex shown). Against bots and in hot-seat it is free; with another person
at the table it takes their consent (an *ask*, told on the game pages); rated games have none.

Undo is exact: the move is deleted from the store and the room rebuilt from the stored record
that is left (the rules core is deterministic, each die checked against the seed again), so a
restarted server has the same game. Asks live in the server's memory (a restart forgets them)
and lapse as soon as the game moves on. A server cluster (PostgreSQL shared by several
servers) has no takeback: another server's room would keep the move.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
from sqlalchemy import delete, update

from monsterball.core.game import GameState
from monsterball.web.live.game import LOG_TAIL, Chair, LiveGame, Rejected
from monsterball.web.live.room_types import Room
from monsterball.web.live.rooms import Rooms
from monsterball.web.store.games import GameRow, MoveRow, StaleMove, Store


@dataclass(frozen=True)
class Ask:
    by: str  # the asking chair
    ply: int  # the game's ply when asked: the ask lapses when it moves on
    needed: frozenset[str]  # the chairs whose consent is asked (any one of them agrees)

    def view(self) -> dict[str, Any]:
        return {"type": "takeback", "state": "asked", "by": self.by, "ply": self.ply}


def hidden_from(state: GameState, seat: int) -> set[int]:
    """What ``seat`` may not see (Midway's hidden players; other games hide nothing)."""
    return state.hidden_from(seat)


class Takebacks:
    """The open takeback asks of one server, and the takebacks themselves."""

    def __init__(self, rooms: Rooms, store: Store):
        self.rooms = rooms
        self.store = store
        self.asks: dict[str, Ask] = {}

    def refusal(self, live: LiveGame, chair: Chair | None) -> str | None:
        """Why ``chair`` may not take the last move back now (None: it may), in a player's
        words; the secret check needs the position before, done when it is rebuilt."""
        if chair is None or chair.kind != "human":
            return "only a player of this game can take a move back"
        if live.over():
            return f"the game is over: {live.result_text()}"
        if live.row.rated:
            return "moves cannot be taken back in a rated game"
        if self.rooms.cluster is not None:
            return "this server shares its games with others: moves cannot be taken back"
        if live.moves_made == 0 or not live.log:
            return "there is no move to take back"
        last = live.log[-1]
        if last.seat < 0:
            return "the dice have rolled since: moves before a roll stay made"
        if live.is_hotseat():
            if not any(c.seat == last.seat and c.kind == "human" for c in live.chairs):
                return "the last move was a bot's: only your own moves can be taken back"
        elif last.seat != chair.seat:
            return f"the last move was {last.by}'s: only your own moves can be taken back"
        return None

    def consent_of(self, live: LiveGame, chair: Chair) -> frozenset[str]:
        """The chairs that must agree: the people at the other seats (none in hot-seat)."""
        if live.is_hotseat():
            return frozenset()
        return frozenset(c.name for c in live.chairs if c.kind == "human" and c.seat != chair.seat)

    def current(self, live: LiveGame) -> Ask | None:
        ask = self.asks.get(live.id)
        if ask is not None and (ask.ply != live.state.ply or live.over()):
            del self.asks[live.id]
            return None
        return ask

    async def ask(
        self, room: Room, chair: Chair | None, rebuild: Callable[[], None]
    ) -> tuple[int, Any]:
        """Take back (200, the new state) or ask the others (202, the ask they are told)."""
        live = room.live
        why = self.refusal(live, chair)
        if why is not None or chair is None:
            raise Rejected(refusal_code(live, chair), why or "")
        needed = self.consent_of(live, chair)
        if not needed:
            await self._take_back(room, chair, rebuild)
            return 200, room.live.message_for(chair)
        asked = self.current(live)
        if asked is not None and asked.by == chair.name:
            return 202, asked.view()
        ask = Ask(chair.name, live.state.ply, needed)
        self.asks[live.id] = ask
        await room.tell(ask.view())
        return 202, ask.view()

    async def accept(self, room: Room, chair: Chair | None, rebuild: Callable[[], None]) -> Any:
        live = room.live
        ask = self.current(live)
        if ask is None:
            raise Rejected("gone", "nobody has asked to take a move back (or the game moved on)")
        if chair is None or chair.name not in ask.needed:
            raise Rejected("wrong-seat", f"only {' or '.join(sorted(ask.needed))} can agree")
        asker = next(c for c in live.chairs if c.name == ask.by)
        del self.asks[live.id]
        await self._take_back(room, asker, rebuild)
        await room.tell({"type": "takeback", "state": "done", "by": ask.by, "ply": ask.ply})
        return room.live.message_for(chair)

    async def decline(self, room: Room, chair: Chair | None) -> dict[str, Any]:
        """Refuse the ask (the asker: withdraw it); everyone watching is told."""
        live = room.live
        ask = self.current(live)
        if ask is None:
            return {"type": "takeback", "state": "none"}
        if chair is None or (chair.name not in ask.needed and chair.name != ask.by):
            raise Rejected("wrong-seat", "only the players asked can answer")
        del self.asks[live.id]
        news = {"type": "takeback", "state": "declined", "by": chair.name, "ply": ask.ply}
        await room.tell(news)
        return news

    async def _take_back(self, room: Room, chair: Chair, rebuild: Callable[[], None]) -> None:
        """Delete the last move from the store and rebuild the room from what is left."""
        rebuild()  # a replay of the whole game: counted against the asker's limit
        async with room.lock:
            live = room.live
            why = self.refusal(live, chair)
            if why is not None:
                raise Rejected(refusal_code(live, chair), why)
            row = await anyio.to_thread.run_sync(self.store.get, live.id)
            moves = await anyio.to_thread.run_sync(self.store.moves, live.id)
            if row is None or len(moves) != live.moves_made:
                raise Rejected("stale", "the game moved on meanwhile; nothing was changed")
            before = await anyio.to_thread.run_sync(LiveGame.load, row, moves[:-1])
            seat = live.log[-1].seat
            for who in {seat, chair.seat}:
                if hidden_from(before.state, who) - hidden_from(live.state, who):
                    raise Rejected(
                        "refused",
                        "that move showed something the other side had kept hidden: "
                        "it cannot be taken back",
                    )
            side = before.clock_side()
            clock = live.clock.run(side, self.rooms.now_ms()) if live.clock is not None else None
            try:
                await anyio.to_thread.run_sync(
                    lambda: self._delete_last(
                        live.id, live.moves_made, before, clock.to_dict() if clock else None
                    )
                )
            except StaleMove:
                raise Rejected("stale", "the game moved on meanwhile; nothing changed") from None
            before.now_ms, before.chairs, before.log_limit = live.now_ms, live.chairs, LOG_TAIL
            before.set_clock(clock)
            room.live = before
            self.asks.pop(live.id, None)
            for watcher in room.watchers:
                watcher.seen = None  # the whole state: clients take deltas only forward
        self.rooms.taken_back(room)
        await self.rooms.broadcast(room)

    def _delete_last(
        self, game_id: str, plies: int, before: LiveGame, clock: dict[str, Any] | None
    ) -> None:
        with self.store.transaction() as connection:
            done = connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.plies == plies, GameRow.status == "playing")
                .values(
                    plies=plies - 1,
                    result=before.state.result_text(),
                    automatic=before.automatic() is not None,
                    clock=clock,
                    updated_at=dt.datetime.now(dt.UTC),
                )
            )
            if done.rowcount != 1:
                raise StaleMove(f"game {game_id} is not at move {plies}, or is over")
            connection.execute(
                delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= plies)
            )


def refusal_code(live: LiveGame, chair: Chair | None) -> str:
    """The error code of a refused player's request (takeback, draw): who is asking, or why."""
    if chair is None or chair.kind != "human":
        return "spectator"
    return "finished" if live.over() else "refused"
