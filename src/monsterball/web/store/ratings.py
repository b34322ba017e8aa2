"""Ratings kept in the store (docs/web.md, "Ratings"): settling a rated game once, the
leaderboard per game (its routes: web/api/ratings.py).

The maths is monsterball.ratings (Glicko-2). A player is a key: "account:<id>" for an
account, "bot:<level>" for a bot level.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from monsterball.ratings.glicko import Rating, rate_game
from monsterball.web.store.games import (
    GameRow,
    RatedGameRow,
    RatingHistoryRow,
    RatingRow,
    Store,
)
from monsterball.web.store.people import AccountRow

PLAYER_KEY = re.compile(r"^(account:[0-9]{1,18}|bot:[a-z0-9:._-]{1,40})$")


def settle(
    store: Store,
    game_id: str,
    players_by_seat: Sequence[str],
    result: Sequence[float],
    *,
    game: str | None = None,
) -> bool:
    """Put a finished rated game into its players' ratings, once: ``players_by_seat`` holds
    each seat's player key, ``result`` the seats' returns (more is better: 1 win, -1 loss, 0
    draw). ``game``: the game's kind (default: the stored game's). False if the game was
    settled already (a second call, a restart), True if the ratings changed."""
    if game is None:
        row = store.get(game_id)
        if row is None:
            raise ValueError(f"no game '{game_id}' to settle")
        game = row.game
    keys = list(players_by_seat)
    if len(keys) != len(result) or len(keys) < 2:
        raise ValueError("settle needs a player and a result for each seat")
    for key in keys:
        if not PLAYER_KEY.match(key):
            raise ValueError(f"'{key}' is not a player key (account:<id> or bot:<level>)")
    if len(set(keys)) != len(keys):
        raise ValueError("a player cannot be rated against itself")
    now = dt.datetime.now(dt.UTC)
    try:
        with store.transaction() as connection:
            # The game's row first: a second settle of the same game stops here, and the
            # ratings below change only in the same transaction as this insert.
            connection.execute(
                insert(RatedGameRow).values(
                    game_id=game_id,
                    game=game,
                    players=keys,
                    returns=[float(r) for r in result],
                    settled_at=now,
                )
            )
            rows = {
                r.player: r
                for r in connection.execute(
                    select(RatingRow).where(RatingRow.game == game, RatingRow.player.in_(keys))
                )
            }
            before = [
                Rating(rows[k].rating, rows[k].rd, rows[k].volatility) if k in rows else Rating()
                for k in keys
            ]
            after = rate_game(before, result)
            for key, rating in zip(keys, after, strict=True):
                values = {
                    "rating": rating.rating,
                    "rd": rating.rd,
                    "volatility": rating.volatility,
                    "updated_at": now,
                }
                if key in rows:
                    connection.execute(
                        update(RatingRow)
                        .where(RatingRow.player == key, RatingRow.game == game)
                        .values(games=rows[key].games + 1, **values)
                    )
                else:
                    connection.execute(
                        insert(RatingRow).values(player=key, game=game, games=1, **values)
                    )
                connection.execute(
                    insert(RatingHistoryRow).values(
                        player=key,
                        game=game,
                        game_id=game_id,
                        rating=rating.rating,
                        rd=rating.rd,
                        volatility=rating.volatility,
                        at=now,
                    )
                )
    except IntegrityError:
        return False  # settled before
    return True


def unsettled(store: Store, limit: int = 500) -> list[str]:
    """Rated games that ended but are not in the ratings (the server stopped in between)."""
    with store.engine.connect() as connection:
        query = (
            select(GameRow.id)
            .outerjoin(RatedGameRow, RatedGameRow.game_id == GameRow.id)
            .where(
                GameRow.status == "finished",
                GameRow.rated.is_(True),
                RatedGameRow.game_id.is_(None),
            )
            .limit(limit)
        )
        return list(connection.scalars(query))


def rating_of(store: Store, player: str, game: str) -> Rating | None:
    with store.engine.connect() as connection:
        row = connection.execute(
            select(RatingRow).where(RatingRow.player == player, RatingRow.game == game)
        ).first()
    return Rating(row.rating, row.rd, row.volatility) if row else None


def history(store: Store, player: str, game: str) -> list[dict[str, Any]]:
    """A player's rating after each of its rated games, oldest first (for player pages)."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(RatingHistoryRow)
            .where(RatingHistoryRow.player == player, RatingHistoryRow.game == game)
            .order_by(RatingHistoryRow.id)
        ).all()
    return [
        {
            "game_id": r.game_id,
            "rating": round(r.rating, 1),
            "rd": round(r.rd, 1),
            "shown": Rating(r.rating, r.rd, r.volatility).shown(),
            "at": r.at.isoformat(),
        }
        for r in rows
    ]


def leaderboard(store: Store, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The game's players by rating, established ratings first (provisional ones after)."""
    with store.engine.connect() as connection:
        rows = connection.execute(select(RatingRow).where(RatingRow.game == game)).all()
    ratings = [(r, Rating(r.rating, r.rd, r.volatility)) for r in rows]
    ratings.sort(key=lambda pair: (pair[1].provisional, -pair[1].rating))
    return [
        {
            "rank": i + 1,
            "player": row.player,
            "rating": round(rating.rating, 1),
            "rd": round(rating.rd, 1),
            "provisional": rating.provisional,
            "shown": rating.shown(),
            "games": row.games,
        }
        for i, (row, rating) in enumerate(ratings[:limit])
    ]


def account_names(store: Store, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(ids))
        )
        return {i: n for i, n in rows}
