"""Player pages (docs/web.md, "Player pages"): ``/players/NAME`` and its API, an account's
recent games with their results, replay links and records to download."""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import FileResponse

from monsterball.games import get_game
from monsterball.web.accounts import social
from monsterball.web.live import Rejected
from monsterball.web.people import aware

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
    games = []
    for row, seat in rows:
        finished = row.status == "finished"
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
            }
        )
    return {"name": account.name, "locked": account.locked, "games": games}


@router.get("/api/games/{game_id}/players")
async def seated_players(
    game_id: Annotated[str, Path(max_length=64)], request: Request
) -> dict[str, Any]:
    """The accounts seated in a game's chairs: ``{players: {chair: name}}`` (anonymous chairs
    and bots are left out)."""
    seats = await anyio.to_thread.run_sync(social(request).people.seats_of_game, game_id)
    return {"players": {chair: name for chair, (_, name) in seats.items()}}
