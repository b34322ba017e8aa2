"""Real-browser tests of the game page players expect (issue 32, and issue 31's rematch): the
rematch offer between two seats with a spectator watching, seats remembered for the lobby,
resign with confirmation."""

from __future__ import annotations

import httpx
import pytest

from browser_helpers import new_page

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")


def online_room(base_url: str, game: str = "paper-ultimate") -> dict:
    created = httpx.post(base_url + "/api/games", json={"game": game, "mode": "online"})
    assert created.status_code == 201, created.text
    return created.json()


def test_a_rematch_is_offered_to_the_opponent_and_makes_one_room(browser, base_url):
    errors: list[str] = []
    created = online_room(base_url)
    gid = created["id"]
    links = {c["name"]: c["url"] for c in created["chairs"]}
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    pages = {name: new_page(browser, errors) for name in ("A", "B", "watcher")}
    for name, page in pages.items():
        page.goto(base_url + links.get(name, created["watch"]))
        page.wait_for_selector("[data-testid=turn]")
    gone = httpx.post(f"{base_url}/api/games/{gid}/resign", json={"token": tokens["B"]})
    assert gone.status_code == 200, gone.text
    for page in pages.values():
        page.wait_for_selector("[data-testid=end-panel]")
    assert pages["watcher"].locator("[data-testid=rematch]").count() == 0  # spectators: none
    pages["A"].click("[data-testid=rematch]")
    pages["A"].wait_for_selector("[data-testid=rematch-waiting]")
    assert "waiting for B" in pages["A"].inner_text("[data-testid=rematch-waiting]")
    offer = pages["B"].wait_for_selector("[data-testid=rematch-offer]")
    assert "A offers a rematch" in offer.inner_text()
    assert httpx.get(f"{base_url}/api/games").json()["games"][0]["id"] == gid  # none yet
    pages["B"].click("[data-testid=rematch-accept]")
    for page in (pages["A"], pages["B"]):
        page.wait_for_function(f"() => !location.pathname.endsWith('{gid}')")
    # (Playwright's page.url can lag a navigation made from a socket's handler: ask the page.)
    new_a, new_b = (pages[n].evaluate("location.pathname.split('/')[2]") for n in ("A", "B"))
    assert new_a == new_b != gid  # both went to the one rematch
    for name, seat in (("A", "B"), ("B", "A")):  # seats swapped, each by its own link
        pages[name].wait_for_selector("[data-testid=turn]")
        assert pages[name].locator(".chairs .me").inner_text().startswith(seat)
    # The lobby remembers each seat of the rematch for its browser.
    pages["A"].goto(base_url + "/")
    pages["A"].wait_for_selector(f"[data-testid=resume-{new_a}-B]")
    assert pages["A"].locator(f"[data-testid=resume-{new_a}-A]").count() == 0
    assert errors == []


def test_a_declined_rematch_is_said_on_the_askers_page(browser, base_url):
    errors: list[str] = []
    created = online_room(base_url)
    gid = created["id"]
    links = {c["name"]: c["url"] for c in created["chairs"]}
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    pages = {name: new_page(browser, errors) for name in ("A", "B")}
    for name, page in pages.items():
        page.goto(base_url + links[name])
        page.wait_for_selector("[data-testid=turn]")
    httpx.post(f"{base_url}/api/games/{gid}/resign", json={"token": tokens["A"]})
    pages["B"].wait_for_selector("[data-testid=end-panel]")
    pages["B"].click("[data-testid=rematch]")
    pages["A"].click("[data-testid=rematch-decline]")
    pages["B"].wait_for_selector("[data-testid=rematch-declined]")
    assert "A declined" in pages["B"].inner_text("[data-testid=rematch-declined]")
    assert pages["B"].locator("[data-testid=rematch]").is_visible()  # may ask again
    assert errors == []
