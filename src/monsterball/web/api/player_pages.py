"""Player pages (docs/web.md, "Player pages"): ``/players/NAME`` and its API, an account's
ratings per game with their history (drawn as a plot by the page), recent games with their
results (and rating changes when rated), replay links and records to download."""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import FileResponse

from monsterball.games import all_games, get_game
from monsterball.ratings.glicko import Rating
from monsterball.web.api.accounts import social
from monsterball.web.api.challenges import player_key
from monsterball.web.api.services import services
from monsterball.web.live.game import Rejected
from monsterball.web.store import ratings
from monsterball.web.store.games import Store
from monsterball.web.store.people import aware

PAGE = resources.files("monsterball.web") / "static" / "index.html"
PlayerName = Annotated[str, Path(max_length=40)]
router = APIRouter()


@router.get("/players/{name}", include_in_schema=False)
async def player_page(name: PlayerName) -> FileResponse:
    return FileResponse(str(PAGE), media_type="text/html")


def opponent(chair: dict[str, Any], names: dict[int, str]) -> str:
    if chair.get("account") is not None:
        return names.get(chair["account"], "?")
    return f"bot ({chair.get('bot')})" if chair["kind"] == "bot" else "anonymous"


def ratings_of(store: Store, key: str) -> list[dict[str, Any]]:
    """The player's rating in each game it has played rated, with the history to plot."""
    found = []
    for spec in all_games():
        points = ratings.history(store, key, spec.id)
        now = ratings.rating_of(store, key, spec.id)
        if not points or now is None:
            continue
        found.append(
            {
                "game": spec.id,
                "title": spec.title,
                "rating": round(now.rating, 1),
                "rd": round(now.rd, 1),
                "provisional": now.provisional,
                "shown": now.shown(),
                "games": len(points),
                "history": points,
            }
        )
    return found


def changes(ratings: list[dict[str, Any]]) -> dict[str, tuple[float, str]]:
    """Game id -> (the rating change it made, the rating after it as shown)."""
    changed: dict[str, tuple[float, str]] = {}
    for entry in ratings:
        before = Rating().rating
        for point in entry["history"]:
            changed[point["game_id"]] = (round(point["rating"] - before, 1), point["shown"])
            before = point["rating"]
    return changed


@router.get("/api/players/{name}")
async def player(
    name: PlayerName, request: Request, limit: Annotated[int, Query(ge=1, le=100)] = 30
) -> dict[str, Any]:
    people = social(request).people
    found = await anyio.to_thread.run_sync(people.find, name)
    if found is None:
        raise Rejected("not-found", f"no player '{name}'")
    account = found[0]
    rows = await anyio.to_thread.run_sync(lambda: people.games_of(account.id, limit=limit))
    others = {c["account"] for row, _ in rows for c in row.chairs if c.get("account") is not None}
    names = await anyio.to_thread.run_sync(people.names, others)
    store = services(request).store
    ratings = await anyio.to_thread.run_sync(ratings_of, store, player_key(account.id))
    changed = changes(ratings)
    games = []
    for row, seat in rows:
        finished = row.status == "finished"
        change = changed.get(row.id)
        games.append(
            {
                "id": row.id,
                "game": row.game,
                "title": get_game(row.game).title,
                "seat": seat,
                "opponents": [opponent(c, names) for c in row.chairs if c["name"] != seat],
                "status": row.status,
                "result": row.result,
                "moves": row.plies,
                "updated": aware(row.updated_at).isoformat(),
                "url": f"/replay/{row.id}" if finished else f"/play/{row.id}",
                "record": f"/api/games/{row.id}/record" if finished else None,
                "rated": bool(row.rated),
                "rating_change": change[0] if change else None,
                "rating_after": change[1] if change else None,
            }
        )
    return {"name": account.name, "locked": account.locked, "ratings": ratings, "games": games}


@router.get("/api/games/{game_id}/players")
async def seated_players(
    game_id: Annotated[str, Path(max_length=64)], request: Request
) -> dict[str, Any]:
    """The accounts seated in a game's chairs: ``{players: {chair: name}, ratings: {chair:
    shown}}`` (anonymous chairs and bots are left out; "1500?" before a first rated game)."""
    seats = await anyio.to_thread.run_sync(social(request).people.seats_of_game, game_id)
    store = services(request).store
    row = await anyio.to_thread.run_sync(store.get, game_id) if seats else None
    shown: dict[str, str] = {}
    for chair, (account, _) in seats.items():
        if row is not None:
            now = await anyio.to_thread.run_sync(
                ratings.rating_of, store, player_key(account), row.game
            )
            shown[chair] = (now or Rating()).shown()
    return {
        "players": {chair: name for chair, (_, name) in seats.items()},
        "ratings": shown,
    }
