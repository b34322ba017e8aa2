"""Rematches by consent (issue 31 item 1; docs/web.md "Rematch").

Only a seated player of a finished game may ask. A rematch that seats nobody else (hot-seat,
one human against bots, bots only) starts at once; otherwise the ask is an *offer* to the
other human chairs, told on their open game pages and (accounts) their lobby sockets, and the
game starts when the last of them accepts, so two people clicking "Rematch" make one room.
Each chair receives only its own new link: the asker's comes when the game starts (on its
open pages, or by asking again), an account is seated in its swapped chair only once it has
agreed. Offers live in the server's memory (a restart forgets them: ask again).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
from fastapi import Request

from monsterball.web.live.game import Chair, Rejected
from monsterball.web.live.lobby import Hub
from monsterball.web.live.rooms import Room, Rooms
from monsterball.web.live.time_control import Clock
from monsterball.web.store.games import Store
from monsterball.web.store.people import People

OFFER_SECONDS = 15 * 60  # an offer nobody answered is forgotten after this long
MAX_OFFERS = 10_000  # past this, the oldest offers are forgotten first


@dataclass
class Offer:
    game_id: str
    needed: set[str]  # the old game's human chairs that must agree
    agreed: set[str] = field(default_factory=set)
    made: float = field(default_factory=time.monotonic)
    new_id: str | None = None
    links: dict[str, str] = field(default_factory=dict)  # old chair -> its own new link
    seats: dict[str, str] = field(default_factory=dict)  # old chair -> its new chair's name

    def waiting(self) -> list[str]:
        return sorted(self.needed - self.agreed)

    def view(self, chair: Chair | None) -> dict[str, Any]:
        """What ``chair`` (None: a spectator) is told of the offer: who agreed and who is
        awaited, and its own new link once the game has started."""
        started = self.new_id is not None
        mine = self.links.get(chair.name) if chair is not None and started else None
        seat = self.seats.get(chair.name) if chair is not None and started else None
        return {
            "type": "rematch",
            "state": "started" if started else "offered",
            "agreed": sorted(self.agreed),
            "waiting": self.waiting(),
            "id": self.new_id,
            "you": mine,
            "seat": seat,
        }


def swapped_chairs(old: list[Chair], new: list[Chair], seats: tuple[str, ...]) -> dict[str, Chair]:
    """Old chair name -> the chair of the new game it moves to: every seat to the next one (a
    two-seat game: A's coach plays B), the n-th chair of a seat to the n-th of its new seat."""
    moved: dict[str, Chair] = {}
    for seat in range(len(seats)):
        before = [c for c in old if c.seat == seat]
        after = [c for c in new if c.seat == (seat + 1) % len(seats)]
        for was, now in zip(before, after, strict=False):
            moved[was.name] = now
    return moved


SeatAccount = Callable[[Request], Awaitable[int | None]]


class Lobbies(Protocol):
    """The accounts' side of the app (web/api/services.py ``Social``): their seats, and
    their open lobby pages."""

    @property
    def people(self) -> People: ...

    @property
    def hub(self) -> Hub: ...


class Rematches:
    """The open rematch offers of one server, and the rematches they start. ``lobbies``:
    the accounts' side of the app (made on first use)."""

    def __init__(self, rooms: Rooms, store: Store, lobbies: Callable[[], Lobbies]):
        self.rooms = rooms
        self.store = store
        self.lobbies = lobbies
        self.offers: dict[str, Offer] = {}
        self._starting = asyncio.Lock()  # one room per offer, however many accept at once

    def current(self, game_id: str) -> Offer | None:
        self._forget_old()
        return self.offers.get(game_id)

    def _forget_old(self) -> None:
        now = time.monotonic()
        for game_id, offer in list(self.offers.items()):
            if now - offer.made > OFFER_SECONDS or len(self.offers) > MAX_OFFERS:
                del self.offers[game_id]

    async def ask(
        self, room: Room, asker: Chair | None, request: Request, client: str
    ) -> tuple[int, dict[str, Any]]:
        """A seated player asks for (or accepts) the rematch of ``room``'s finished game:
        (201, the new game) once everyone needed agreed, else (202, the offer)."""
        live = room.live
        humans = [c for c in live.chairs if c.kind == "human"]
        if not live.over():
            raise Rejected("not-finished", "a rematch can be asked for once the game is over")
        if humans and asker is None:
            raise Rejected(
                "spectator",
                "only a player of this game may ask for its rematch; start a new game from "
                "the lobby instead",
            )
        async with self._starting:
            offer = self.current(live.id)
            if offer is None:
                # Hot-seat: one screen holds every human chair.
                needed = {c.name for c in humans} if live.row.mode != "hotseat" else set()
                offer = Offer(live.id, needed)
                self.offers[live.id] = offer
            if asker is not None:
                offer.agreed |= {asker.name} | {
                    c.name for c in humans if asker.account and c.account == asker.account
                }
            if offer.new_id is None and not offer.waiting():
                await self._start(room, offer, request, client)
                await self._tell(room, offer)
            elif offer.new_id is None:
                await self._tell(room, offer)
                await self._tell_lobbies(request, room, offer, asker)
        answer = offer.view(asker)
        if offer.new_id is None:
            return 202, {**answer, "expires_in": OFFER_SECONDS}
        new = self.rooms.rooms.get(offer.new_id)
        chairs = new.live.chairs if new is not None else []
        public = [{"name": c.name, "seat": c.seat, "kind": c.kind} for c in chairs]
        return 201, {**answer, "chairs": public, "watch": f"/play/{offer.new_id}"}

    async def decline(self, room: Room, chair: Chair | None) -> dict[str, Any]:
        """A player declines the offer (the asker: withdraws it); everyone seated is told."""
        offer = self.current(room.live.id)
        if chair is None or offer is None or chair.name not in offer.needed:
            raise Rejected("not-found", "there is no rematch offer for this seat to decline")
        if offer.new_id is not None:
            raise Rejected("finished", "the rematch has started already")
        del self.offers[room.live.id]
        message = {"type": "rematch", "state": "declined", "by": chair.name}
        for watcher in list(room.watchers):
            if watcher.chair is not None:
                await _send(room, watcher, message)
        return message

    async def _start(self, room: Room, offer: Offer, request: Request, client: str) -> None:
        """The new game, every seat swapped, with the same rules, mode, bots and time control
        (unrated: a rated game is made by a rated challenge)."""
        row = self.store.get(room.live.id)
        if row is None:
            raise Rejected("not-found", f"no game '{room.live.id}'")
        old = room.live
        spec = old.spec
        names = spec.seat_names
        bots = {names[(c.seat + 1) % len(names)]: c.bot for c in old.chairs if c.kind == "bot"}
        new = await self.rooms.create(
            game=row.game,
            preset=row.preset,
            options=row.options,
            mode=row.mode,
            coaches=len(row.chairs),
            bots={seat: level or "easy" for seat, level in bots.items()},
            seed=None,
            address=client,
            clock=Clock.from_dict(row.clock).control if row.clock else None,
        )
        tokens, new.new_tokens = new.new_tokens, {}
        moved = swapped_chairs(old.chairs, new.live.chairs, names)
        accounts: dict[str, int] = {}
        for name, chair in moved.items():
            was = next(c for c in old.chairs if c.name == name)
            if chair.kind != "human" or was.kind != "human":
                continue
            offer.seats[name] = chair.name
            if was.account is not None:  # its session plays there, without a link
                chair.account = was.account
                accounts[chair.name] = was.account
                offer.links[name] = f"/play/{new.live.id}"
            else:
                offer.links[name] = f"/play/{new.live.id}#token={tokens[chair.name]}"
        offer.new_id = new.live.id
        if accounts:
            own = self.lobbies()
            chairs = [c.to_dict() for c in new.live.chairs]
            await anyio.to_thread.run_sync(own.people.bind_seats, new.live.id, chairs, accounts)
            for account in set(accounts.values()):
                url = f"/play/{new.live.id}"
                await own.hub.tell(account, {"type": "started", "id": new.live.id, "url": url})

    async def _tell(self, room: Room, offer: Offer) -> None:
        """Each seated socket of the old game is told the offer as its chair sees it (its own
        new link, once started); spectators are told nothing."""
        for watcher in list(room.watchers):
            if watcher.chair is not None:
                await _send(room, watcher, offer.view(watcher.chair))

    async def _tell_lobbies(
        self, request: Request, room: Room, offer: Offer, asker: Chair | None
    ) -> None:
        own = self.lobbies()
        awaited = set(offer.waiting())
        told: set[int] = set()
        for chair in room.live.chairs:
            if chair.name in awaited and chair.account is not None and chair.account not in told:
                told.add(chair.account)
                message = {
                    "type": "rematch-offer",
                    "game": room.live.id,
                    "by": asker.name if asker else None,
                    "url": f"/play/{room.live.id}",
                }
                await own.hub.tell(chair.account, message)


async def _send(room: Room, watcher: Any, message: dict[str, Any]) -> None:
    try:
        await watcher.send(message)
    except Exception:  # a closed socket: its handler will unwatch it
        room.watchers.discard(watcher)
