"""The ratings routes (docs/web.md, "Ratings"): ``GET /api/ratings/{game}`` (the leaderboard)
and the page ``/ratings/{game}``; the ratings themselves are kept by web/store/ratings.py."""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Path, Query
from fastapi.responses import FileResponse

from monsterball.games import all_games, get_game
from monsterball.ratings.glicko import PROVISIONAL_RD
from monsterball.web.api.services import Own
from monsterball.web.live.game import Rejected
from monsterball.web.store.ratings import account_names, leaderboard

STATIC = resources.files("monsterball.web") / "static"


router = APIRouter()


@router.get("/api/ratings/{game}")
async def ratings(
    own: Own,
    game: Annotated[str, Path(max_length=40)],
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """The game's leaderboard."""
    try:
        spec = get_game(game)
    except Exception:
        known = ", ".join(s.id for s in all_games())
        raise Rejected("not-found", f"no game '{game}' (games: {known})") from None
    store = own.store
    board = await anyio.to_thread.run_sync(leaderboard, store, spec.id, limit)
    # Accounts by name (their player pages); bots by their key ("bot:hard").
    ids = {int(p["player"].split(":")[1]) for p in board if p["player"].startswith("account:")}
    names = await anyio.to_thread.run_sync(account_names, store, ids)
    for entry in board:
        kind, _, which = entry["player"].partition(":")
        entry["name"] = names.get(int(which), "?") if kind == "account" else entry["player"]
        entry["account"] = kind == "account"
    return {
        "game": spec.id,
        "title": spec.title,
        "provisional_rd": PROVISIONAL_RD,
        "players": board,
    }


@router.get("/ratings/{game}", include_in_schema=False)
async def ratings_page(game: Annotated[str, Path(max_length=40)]) -> FileResponse:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")
