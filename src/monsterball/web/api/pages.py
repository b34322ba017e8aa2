"""The browser client's pages: the lobby, a seat's page and a replay are the one page
(web/static/index.html), which reads its URL."""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, RedirectResponse

from monsterball.web.hardening.security import URL_SAFE, GameId

STATIC = resources.files("monsterball.web") / "static"
router = APIRouter(include_in_schema=False)


def page() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


router.get("/")(page)
router.get("/replay/{game_id}")(page)


@router.get("/play/{game_id}", response_model=None)
async def play_page(game_id: GameId, request: Request) -> FileResponse | RedirectResponse:
    """A seat's page. An old link with ``?token=T`` is sent on to ``#token=T``: the
    fragment never reaches a server, so the token leaves the URL that proxies, logs and
    history keep (the redirect's Location is not logged; the request line is, redacted)."""
    token = request.query_params.get("token")
    if token is not None and URL_SAFE.fullmatch(game_id):
        fragment = f"#token={token}" if URL_SAFE.fullmatch(token) else ""
        return RedirectResponse(f"/play/{game_id}{fragment}", status_code=303)
    return page()
