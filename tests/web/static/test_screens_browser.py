"""Screenshots of each game on the game page at its start, mid-game, a scoring moment and the
end, at 1920, 768 and 360 px wide (issue 32), saved to build/screenshots/screens-*.png to be
looked at; each checks that nothing runs off the side of the page."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.helpers.browser import new_page, play_clicks, shot

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")

WIDTHS = (1920, 768, 360)


def finished_game(base_url: str, game: str) -> str:
    """A bot game long enough to score before its end (two points, a Midway exhibition)."""
    body = {"game": game, "mode": "bot", "bots": {"A": "easy", "B": "medium"}, "seed": 5}
    body |= {"preset": "exhibition"} if game == "midway" else {"preset": "small"}
    if game != "midway":
        body["settings"] = ["points_to_win=2"]
    gid = httpx.post(base_url + "/api/games", json=body, timeout=120).json()["id"]
    deadline = time.monotonic() + 120
    while httpx.get(f"{base_url}/api/games/{gid}").json()["game"]["status"] != "finished":
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.3)
    return str(gid)


def shots(page, name: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 1000 if width > 400 else 780})
        page.wait_for_timeout(150)
        shot(page, f"screens-{name}-{width}")
        wide = page.evaluate(
            "() => document.documentElement.scrollWidth <= innerWidth + 1 ? [] :"
            " [...document.querySelectorAll('body *')].filter((e) => !e.closest('.table-scroll')"
            " && e.getBoundingClientRect().right > innerWidth + 1).slice(0, 4)"
            ".map((e) => e.tagName + '.' + e.getAttribute('class'))"
        )
        assert not wide, (name, width, wide)


@pytest.mark.parametrize("game", ["huck-monster", "midway", "paper-ultimate"])
def test_each_game_at_start_mid_game_a_score_and_the_end(browser, base_url, game):
    errors: list[str] = []
    page = new_page(browser, errors)
    created = httpx.post(base_url + "/api/games", json={"game": game, "seed": 11}).json()
    page.goto(base_url + created["chairs"][0]["url"])
    page.wait_for_selector("[data-testid=turn]")
    shots(page, f"{game}-start")
    play_clicks(page, 25, seed=3)
    shots(page, f"{game}-mid")
    gid = finished_game(base_url, game)
    moves = httpx.get(f"{base_url}/api/games/{gid}/moves").json()["moves"]
    scored = next(i for i, m in enumerate(moves, 1) if m["scored_at"] is not None)
    page.goto(f"{base_url}/play/{gid}")
    page.wait_for_selector("[data-testid=end-panel]")
    page.locator("[data-testid=move]").nth(scored - 1).locator("button").click()
    page.wait_for_selector(f"[data-testid=viewing]:has-text('after move {scored} of')")
    shots(page, f"{game}-score")
    page.click("[data-testid=live]")
    page.wait_for_selector("[data-testid=viewing]", state="detached")
    shots(page, f"{game}-end")
    assert errors == []
