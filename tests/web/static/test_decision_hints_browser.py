"""The game page says in words what a decision needs (issue 33): a loose Paper Ultimate disc is
picked up by running onto it, Huck + Monster's Up Call and strategy-die rows mean something
before they are read, and a Midway pass says why it has no odds."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import httpx
import pytest

from tests.helpers.browser import new_page, shot

Predicate = Callable[[dict], bool]
RUN = r"[A-Z]\d+-[a-z]\d+$"  # a Paper Ultimate run: "A1-e5"


def walk(base_url: str, game: str, seed: int, until: Predicate, moves: int = 3000) -> str:
    """A hot-seat game played by random legal moves until ``until(state)``; its page URL."""
    created = httpx.post(base_url + "/api/games", json={"game": game, "seed": seed}).json()
    game_id, token = created["id"], created["chairs"][0]["token"]
    rng = random.Random(seed)
    state = httpx.get(f"{base_url}/api/games/{game_id}?token={token}").json()
    for _ in range(moves):
        if until(state):
            return f"{base_url}/play/{game_id}#token={token}"
        legal = [a["a"] for a in state["legal"]]
        # "end" often, so play moves on (a random walk rarely ends a running step)
        move = "end" if "end" in legal and rng.random() < 0.7 else rng.choice(legal)
        state = httpx.post(
            f"{base_url}/api/games/{game_id}/act",
            json={"token": token, "action": move, "ply": state["game"]["ply"]},
        ).json()
    pytest.fail(f"{game}: the position looked for did not come in {moves} moves")


def looks(browser, url: str, name: str, selector: str) -> str:
    """The text of ``selector`` on the page at ``url`` (a panel: its rows, cells tab-separated,
    one a line); screenshots at 1920 and 360 px."""
    errors: list[str] = []
    page = new_page(browser, errors)
    text = ""
    for width, height in ((1920, 1080), (360, 780)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        page.wait_for_selector(selector)
        text = page.eval_on_selector(selector, ROWS)
        shot(page, f"{name}-{width}")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1"), width
    page.context.close()
    assert not errors, errors
    return text


ROWS = r"""node => node.tagName !== "TABLE" ? node.textContent : [...node.rows]
  .map(tr => [...tr.cells].map(td => td.textContent).join("\t")).join("\n") + "\n" """


def test_a_loose_disc_says_to_run_a_player_onto_it(browser, base_url):
    def loose(state: dict) -> bool:
        ball, legal = state["board"]["ball"], state["legal"]
        return bool(ball) and not ball["held"] and any(re.match(RUN, a["a"]) for a in legal)

    url = walk(base_url, "paper-ultimate", 3, loose)
    tip = looks(browser, url, "tip-loose-disc", "[data-testid=tip]")
    assert tip.startswith("The disc is loose on "), tip
    assert "run a team" in tip and "onto it to pick it up" in tip, tip


def test_up_call_and_strategy_rows_say_what_they_mean(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    created = httpx.post(base_url + "/api/games", json={"game": "huck-monster", "seed": 4}).json()
    page.goto(base_url + created["chairs"][0]["url"])
    page.wait_for_selector("[data-testid=panel]")
    panel = page.eval_on_selector("[data-testid=panel]", ROWS)
    assert "Up Call\tnone yet" in panel, panel
    assert "Strategy" not in panel and "Up Call\t0" not in panel, panel  # not before one
    assert "An Up Call is one throw played out" in page.inner_text("[data-testid=panel-hint]")
    page.context.close()
    assert not errors, errors

    def aiming(state: dict) -> bool:
        return any(a["a"].startswith("throw ") for a in state["legal"])

    url = walk(base_url, "huck-monster", 4, aiming, moves=1500)
    panel = looks(browser, url, "panel-up-call", "[data-testid=panel]")
    assert re.search(r"Up Call\tno\. \d+ of the game", panel), panel
    assert "Strategy die\t" in panel and "this Up Call" in panel, panel
    assert "once per Up Call" in panel, panel  # the strategy row's hint, in words


def test_a_midway_pass_says_why_it_has_no_odds(browser, base_url):
    def passing(state: dict) -> bool:
        return any(a["a"].startswith("pass ") for a in state["legal"])

    url = walk(base_url, "midway", 6, passing, moves=4000)
    caveat = looks(browser, url, "pass-unpriced", "[data-testid=pass-unpriced]")
    assert caveat.startswith("A pass has no odds here"), caveat
    assert "rolled after both teams have moved" in caveat, caveat
