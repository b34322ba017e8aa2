"""The lobby's live sockets: challenge lists, lobby chat and "your game has started" notices
go out to every open lobby page (or to one account's pages) as JSON messages."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class LobbyWatcher:
    account: int | None
    send: Send
    session: str | None = None  # the session cookie's hash: its end unseats this page


class Hub:
    def __init__(self) -> None:
        self.watchers: set[LobbyWatcher] = set()

    def join(self, watcher: LobbyWatcher) -> None:
        self.watchers.add(watcher)

    def leave(self, watcher: LobbyWatcher) -> None:
        self.watchers.discard(watcher)

    async def broadcast(
        self, message: dict[str, Any], *, unless: Callable[[int | None], bool] | None = None
    ) -> None:
        """To every lobby page (``unless``: skip the pages of the accounts it returns True
        for: those who mute or block the author)."""
        for watcher in list(self.watchers):
            if unless is not None and unless(watcher.account):
                continue
            await self._send(watcher, message)

    async def tell(self, account: int, message: dict[str, Any]) -> None:
        for watcher in list(self.watchers):
            if watcher.account == account:
                await self._send(watcher, message)

    async def _send(self, watcher: LobbyWatcher, message: dict[str, Any]) -> None:
        try:
            await watcher.send(message)
        except Exception:  # a closed socket: its handler leaves
            self.watchers.discard(watcher)
