"""Which server makes a game's automatic moves (dice, bots), for servers on one PostgreSQL.

A lease is a row of ``bot_leases``: the game, the server that holds it, and until when, by the
database's clock (one clock for every server). A server takes a game's lease before it rolls
its dice or asks its bot, renews it while it works, and gives it up when a person is to act or
the game ends. A lease that has run out is free to take, so the games of a killed server are
taken over by another (``take_orphans``: ``FOR UPDATE SKIP LOCKED``, so two servers sweeping
at once share the orphans out instead of waiting on each other).

The lease makes each bot turn and die roll be *computed* once; that each is *stored* once is the
store's (a move is stored only if the game is still at the move before: web/store/games.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import text
from sqlalchemy.engine import Connection

from monsterball.web.store.games import Store
from monsterball.web.store.pg_append import TAKE_SQL

_TAKE = text(TAKE_SQL)
_RENEW = text(
    """
    UPDATE bot_leases SET until = now() + make_interval(secs => :seconds)
    WHERE owner = :owner AND game_id = ANY(:games)
    RETURNING game_id
    """
)
# Games waiting for dice or a bot that nobody holds (the ``automatic`` column; None: stored
# before it was kept), left alone for ``grace`` seconds (the server that stored their last
# move takes their lease in the same transaction).
_ORPHANS = text(
    """
    SELECT g.id FROM games g
    WHERE g.status = 'playing' AND g.automatic IS NOT FALSE
      AND g.updated_at < now() - make_interval(secs => :grace)
      AND NOT EXISTS (
        SELECT 1 FROM bot_leases l WHERE l.game_id = g.id AND l.until >= now()
      )
    ORDER BY g.updated_at
    LIMIT :limit
    FOR UPDATE OF g SKIP LOCKED
    """
)


class Leases:
    def __init__(self, store: Store, owner: str, seconds: float):
        self.store = store
        self.owner = owner
        self.seconds = seconds

    def take_in(self, connection: Connection, game_id: str) -> bool:
        """Take (or renew) the game's lease in a transaction: True if this server holds it."""
        row = connection.execute(
            _TAKE, {"game": game_id, "owner": self.owner, "seconds": self.seconds}
        ).first()
        return row is not None

    def take(self, game_id: str) -> bool:
        with self.store.engine.begin() as connection:
            return self.take_in(connection, game_id)

    def renew(self, games: Iterable[str]) -> set[str]:
        """Extend this server's leases on ``games``; the ones it still holds."""
        ids = list(games)
        if not ids:
            return set()
        with self.store.engine.begin() as connection:
            rows = connection.execute(
                _RENEW, {"games": ids, "owner": self.owner, "seconds": self.seconds}
            )
            return {game_id for (game_id,) in rows}

    def take_orphans(self, limit: int, grace: float) -> list[str]:
        """Take the leases of up to ``limit`` games waiting for dice or a bot that no live
        lease covers (a killed server's, or a restart's): the ones taken."""
        with self.store.engine.begin() as connection:
            ids = [g for (g,) in connection.execute(_ORPHANS, {"grace": grace, "limit": limit})]
            return [g for g in ids if self.take_in(connection, g)]
