"""Draw offers in a real browser (issue 32, Debian's Chromium): in an online Midway room one
player offers a draw, the other's page shows the offer and accepts it, and both pages end
with the result in the player's words; a declined offer says so; a Paper Ultimate page says
the game has no draws and offers none."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers.browser import new_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")


def seats(base_url: str, game: str) -> dict[str, str]:
    made = httpx.post(f"{base_url}/api/games", json={"game": game, "mode": "online"}, timeout=60)
    assert made.status_code == 201, made.text
    return {c["name"]: base_url + c["url"] for c in made.json()["chairs"]}


def test_a_draw_offered_and_accepted_ends_the_game_drawn_on_both_pages(browser, base_url):
    errors: list[str] = []
    links = seats(base_url, "midway")
    a, b = new_page(browser, errors), new_page(browser, errors)
    a.goto(links["A"])
    b.goto(links["B"])
    # Declined first: the offerer's page is told.
    a.click("[data-testid=draw-offer]")
    a.wait_for_selector("[data-testid=draw-waiting]")
    b.click("[data-testid=draw-decline]")
    a.wait_for_selector("[data-testid=draw-box]:has-text('B declined the draw')")
    a.click("[data-testid=draw-offer]")
    b.wait_for_selector("[data-testid=draw-accept]")
    shot(b, "game-draw-offered")
    b.click("[data-testid=draw-accept]")
    for page in (a, b):
        page.wait_for_selector("[data-testid=result]")
        assert page.inner_text("[data-testid=result]").startswith("A draw by agreement — A 0 - B 0")
        assert page.locator("[data-testid=draw-offer]").count() == 0
    shot(a, "game-draw-agreed")
    assert not errors, errors


def test_a_game_without_draws_says_so_and_offers_none(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(seats(base_url, "paper-ultimate")["A"])
    page.wait_for_selector("[data-testid=no-draw]")
    assert "Paper Ultimate has no draws" in page.inner_text("[data-testid=no-draw]")
    assert page.locator("[data-testid=draw-offer]").count() == 0
    assert not errors, errors
