"""Real-browser tests of takeback (issue 32, docs/web.md "Takeback"): against a bot the page's
"Take back" undoes the player's own move at once; online the other player is asked and agrees."""

from __future__ import annotations

import httpx
import pytest

from tests.helpers.browser import new_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")


def act(base_url: str, gid: str, token: str) -> dict:
    now = httpx.get(f"{base_url}/api/games/{gid}", headers={"seat-token": token}).json()
    move = {"token": token, "action": now["legal"][0]["a"], "ply": now["game"]["ply"]}
    done = httpx.post(f"{base_url}/api/games/{gid}/act", json=move)
    assert done.status_code == 200, done.text
    return now


def test_against_a_bot_take_back_undoes_your_own_move(browser, base_url):
    errors: list[str] = []
    made = httpx.post(
        base_url + "/api/games",
        json={"game": "paper-ultimate", "mode": "bot", "bots": {"A": "easy"}, "seed": 3},
    ).json()
    gid = made["id"]
    me = next(c for c in made["chairs"] if c["token"])
    page = new_page(browser, errors)
    page.goto(base_url + me["url"])
    page.wait_for_selector("[data-testid=turn]")
    assert page.locator("[data-testid=takeback]").count() == 0  # the bot moved last
    before = act(base_url, gid, me["token"])
    button = page.wait_for_selector("[data-testid=takeback]")
    shot(page, "takeback-bot")
    button.click()
    page.wait_for_function(
        f"() => !document.querySelector('[data-testid=takeback]')"
        f" && document.querySelectorAll('[data-testid=move]').length === {before['game']['ply']}"
    )
    now = httpx.get(f"{base_url}/api/games/{gid}", headers={"seat-token": me["token"]}).json()
    assert now["game"]["ply"] == before["game"]["ply"] and now["board"] == before["board"]
    assert errors == []


def test_online_the_opponent_is_asked_and_allows_it(browser, base_url):
    errors: list[str] = []
    made = httpx.post(base_url + "/api/games", json={"game": "paper-ultimate", "mode": "online"})
    created = made.json()
    gid = created["id"]
    chairs = {c["name"]: c for c in created["chairs"]}
    mover = httpx.get(f"{base_url}/api/games/{gid}").json()["to_act"]
    other = "B" if mover == "A" else "A"
    pages = {name: new_page(browser, errors) for name in (mover, other)}
    for name, page in pages.items():
        page.goto(base_url + chairs[name]["url"])
        page.wait_for_selector("[data-testid=turn]")
    before = act(base_url, gid, chairs[mover]["token"])
    pages[mover].click("[data-testid=takeback]")
    pages[mover].wait_for_selector("[data-testid=takeback-waiting]")
    pages[other].wait_for_selector("[data-testid=takeback-accept]")
    assert f"{mover} asks to take back" in pages[other].inner_text("[data-testid=takeback-box]")
    shot(pages[other], "takeback-asked")
    pages[other].click("[data-testid=takeback-accept]")
    ply = before["game"]["ply"]
    for page in pages.values():  # the move is gone from both pages' move lists
        page.wait_for_function(
            "() => !document.querySelector('[data-testid=takeback-box]')"
            f" && document.querySelectorAll('[data-testid=move]').length === {ply}"
        )
    now = httpx.get(f"{base_url}/api/games/{gid}").json()
    assert now["game"]["ply"] == before["game"]["ply"]
    assert errors == []
