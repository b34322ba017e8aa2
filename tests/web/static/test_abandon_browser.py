"""Real-browser test of an abandoned game (issue 32, docs/web.md "Abandoned games"): when the
opponent's page is gone, the player is told, then offered "Claim the win" or "Keep waiting"."""

from __future__ import annotations

import httpx
import pytest

from monsterball.web.live import abandon
from tests.helpers.browser import new_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")


def test_the_opponent_leaves_and_the_player_waits_then_claims_the_win(
    browser, base_url, monkeypatch
):
    monkeypatch.setattr(abandon, "ABANDON_SECONDS", 2.0)  # the server runs in this process
    errors: list[str] = []
    made = httpx.post(base_url + "/api/games", json={"game": "paper-ultimate", "mode": "online"})
    chairs = {c["name"]: c for c in made.json()["chairs"]}
    pages = {name: new_page(browser, errors) for name in ("A", "B")}
    for name, page in pages.items():
        page.goto(base_url + chairs[name]["url"])
        page.wait_for_selector("[data-testid=turn]")
    a = pages["A"]
    assert a.locator("[data-testid=abandon]").count() == 0
    pages["B"].close()
    a.wait_for_selector("[data-testid=abandon]", timeout=15_000)
    assert "B has left the game" in a.inner_text("[data-testid=abandon]")
    shot(a, "abandon-offer")
    a.click("[data-testid=keep-waiting]")
    assert a.locator("[data-testid=abandon]").count() == 0
    back = new_page(browser, errors)  # B comes back, and leaves again
    back.goto(base_url + chairs["B"]["url"])
    back.wait_for_selector("[data-testid=turn]")
    a.wait_for_timeout(3500)  # a poll sees B back
    back.close()
    a.click("[data-testid=claim-win]", timeout=15_000)
    a.wait_for_selector("[data-testid=end-panel]")
    assert a.inner_text("[data-testid=result]").startswith("You won")
    assert errors == []
