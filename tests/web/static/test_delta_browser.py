"""The browser's delta client (web/static/delta.js, docs/web.md) in Chromium: it rebuilds the
server's messages from deltas exactly as web/live/delta.py does, and a game clicked through in
the page is drawn from deltas (the page's pieces and move number are the server's).
Fixtures and helpers: browser_helpers.py."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from monsterball.core.game import CHANCE
from tests.helpers.browser import new_page, play_clicks, shot, start_from_lobby
from tests.web.live.test_shared_views import new_live

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")

APPLY_ALL = """async (cases) => {
  const { applyDelta } = await import("/static/delta.js");
  return cases.map(([held, ops]) => {
    const before = JSON.stringify(held);
    const next = applyDelta(held, ops);
    if (JSON.stringify(held) !== before) throw new Error("the held message was changed");
    return JSON.stringify(next);
  });
}"""


def delta_cases(game: str, plies: int, seed: int) -> list[tuple[dict, list, str]]:
    """(held message, delta ops, the whole message's text) for seat A and a spectator, ply
    after ply of a random game, with a few moves between some of them."""
    live = new_live(game, "online")
    rng = random.Random(seed)
    cases = []
    seen: dict[str | None, tuple[tuple[int, int], dict]] = {}
    for _ in range(plies):
        if live.state.is_terminal():
            break
        if rng.random() < 0.7:
            for chair in (live.chairs[0], None):
                key = chair.name if chair else None
                base = seen.get(key)
                text = live.text_since(chair, base[0] if base else None)
                assert text is not None
                message = json.loads(text)
                if message["type"] == "delta":
                    assert base is not None
                    cases.append((base[1], message["ops"], live.text_for(chair)))
                seen[key] = (live.view_mark(), json.loads(live.text_for(chair)))
        action = live.roll() if live.state.current_player() == CHANCE else None
        live.commit(action or rng.choice(live.state.legal_actions()))
    return cases


@pytest.mark.parametrize("game", ["paper-ultimate", "huck-monster", "midway"])
def test_the_browsers_apply_rebuilds_every_message(browser, base_url, game):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(base_url + "/")
    cases = delta_cases(game, 60, seed=5)
    assert len(cases) > 30
    got = page.evaluate(APPLY_ALL, [[held, ops] for held, ops, _ in cases])
    for (_, ops, whole), text in zip(cases, got, strict=True):
        assert json.loads(text) == json.loads(whole), ops
    assert errors == []


def test_a_game_clicked_in_the_page_is_drawn_from_deltas(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    frames: list[str] = []
    # The game's socket only (the lobby has its own, /ws-lobby).
    page.on(
        "websocket",
        lambda ws: "/ws/" in ws.url and ws.on("framereceived", lambda f: frames.append(f)),
    )
    start_from_lobby(page, base_url, "paper-ultimate", "hotseat")
    page.wait_for_selector("[data-testid=board]")
    play_clicks(page, 30, seed=4)
    page.wait_for_selector(".play:not([data-pending])")
    kinds = [json.loads(f)["type"] for f in frames if isinstance(f, str)]
    assert kinds.count("delta") >= 5 and kinds[0] == "state", kinds
    game_id = page.url.split("/play/")[1].split("#")[0]
    server = httpx.get(f"{base_url}/api/games/{game_id}").json()
    page.wait_for_function(
        f"() => document.querySelector('.play').dataset.ply === '{server['game']['ply']}'"
    )
    drawn = page.eval_on_selector_all(
        "svg.board .piece", "nodes => nodes.map(n => [n.dataset.piece, n.dataset.at])"
    )
    assert sorted(map(tuple, drawn)) == sorted(
        (p["id"], p["cell"]) for p in server["board"]["pieces"]
    )
    shot(page, "delta-hotseat")
    assert errors == []
