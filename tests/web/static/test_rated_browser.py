"""A rated game between strangers in a real browser (issue 20's "done when", Debian's Chromium):
two contexts sign up, one posts a rated one-minute challenge, the other accepts from the lobby;
they play a few moves with both clocks running, chat, and the game ends when the side to act
runs out of time (no resign action exists); both player pages then show the game with its
rating change and a plotted rating history. Slow: it waits for a real one-minute flag."""

from __future__ import annotations

import random
import re
import time

import pytest

from tests.helpers.browser import new_page, play_one_turn, shot
from tests.web.static.test_accounts_browser import sign_up

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]
pytest.importorskip("playwright.sync_api")


def seconds(page, side: str) -> int:
    text = page.locator(f"[data-testid=clock-{side}] .clock-time").inner_text()
    minutes, secs = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(secs)


def test_a_rated_game_between_strangers_ends_on_time_and_shows_on_both_player_pages(
    browser, base_url
):
    errors: list[str] = []
    ann, ben = new_page(browser, errors), new_page(browser, errors)
    sign_up(ann, base_url, "Rita")
    sign_up(ben, base_url, "Sam")
    ann.select_option("[data-testid=challenge-game]", "paper-ultimate")
    ann.select_option("[data-testid=challenge-clock]", "1+0")
    ann.select_option("[data-testid=challenge-seat]", "A")
    ann.check("[data-testid=challenge-rated]")
    ann.click("[data-testid=post-challenge]")
    # A locator, not a handle: the lobby redraws the list whenever its socket hears news.
    accept = ben.locator("[data-testid=challenge] button[data-testid^=accept-]")
    accept.wait_for()
    offered = ben.inner_text("[data-testid=challenge]")
    assert "Rita (1500?)" in offered and "1 min + 0 s" in offered and "rated" in offered
    accept.click()
    ben.wait_for_url("**/play/**", timeout=15_000)
    ann.wait_for_url("**/play/**", timeout=15_000)
    game_id = ann.url.split("/play/")[1]
    for page in (ann, ben):
        page.wait_for_selector("[data-testid=clocks]")
        page.wait_for_selector("[data-testid=rating-A]")
        assert page.inner_text("[data-testid=player-A]") == "Rita"
        assert page.inner_text("[data-testid=rating-B]").strip() == "(1500?)"
    pages = {"A": ann, "B": ben}
    rng = random.Random(7)
    moved = set()
    deadline = time.monotonic() + 30
    while moved != {"A", "B"} and time.monotonic() < deadline:
        # Each side thinks over a second before it moves: the faces show whole seconds,
        # rounded up, so a side that moved within a second of its turn still read 1:00.
        time.sleep(1.1)
        turn = play_one_turn(pages, rng)
        if turn is not None:
            moved.add(turn[0])
    assert moved == {"A", "B"}
    time.sleep(1.5)
    # Both sides have had their clock running: each has less than its minute left.
    for page in (ann, ben):
        assert seconds(page, "A") < 60 and seconds(page, "B") < 60, page.url
    ann.fill("[data-testid=game-chat-input]", "good luck, <b>Sam</b>")
    ann.click("[data-testid=game-chat-send]")
    line = ben.locator("[data-testid=game-chat-log] [data-testid=chat-text]").first
    line.wait_for()
    assert line.inner_text() == "good luck, <b>Sam</b>"
    shot(ben, "rated-game-playing")
    # A logged-in spectator talks in the spectators' channel, which the players cannot read yet.
    tom = new_page(browser, errors)
    sign_up(tom, base_url, "Tom")
    tom.goto(f"{base_url}/play/{game_id}")
    tom.wait_for_selector("text=Spectators' chat")
    tom.fill("[data-testid=game-chat-input]", "nice set-up, Rita")
    tom.press("[data-testid=game-chat-input]", "Enter")
    tom.wait_for_selector("[data-testid=chat-text]:has-text('nice set-up, Rita')")
    assert ann.locator("[data-testid=read-spectators]").count() == 0
    # Nobody moves again: the side to act flags within its minute (the server decides).
    for page in (ann, ben):
        page.wait_for_selector("[data-testid=result]", timeout=75_000)
        assert "time" in page.inner_text("[data-testid=result]").lower()
    assert ann.locator(".clock-face.running").count() == 0
    # Now the players may read what the spectators said.
    ann.click("[data-testid=read-spectators]")
    said = ann.locator("[data-testid=spectators-chat-log] [data-testid=chat-text]").first
    said.wait_for()
    assert said.inner_text() == "nice set-up, Rita"
    assert "nice set-up" not in ann.inner_text("[data-testid=game-chat-log]")
    # The seats' ratings beside the names are the new ones.
    ann.wait_for_function(
        "() => !document.querySelector('[data-testid=rating-A]').innerText.includes('1500?')"
    )
    shot(ann, "rated-game-over")
    # Both player pages: the game with its rating change, the rating now, a plotted history.
    changes = {}
    for page, name in ((ann, "Rita"), (ben, "Sam")):
        page.goto(f"{base_url}/players/{name}")
        change = page.wait_for_selector(f"[data-testid=rating-change-{game_id}]")
        changes[name] = change.inner_text()
        assert (
            page.locator("[data-testid=rating-paper-ultimate] [data-testid=rating-point]").count()
            == 2
        )
        assert page.locator("[data-testid=rating-line]").get_attribute("points").count(",") == 2
        now = page.inner_text("[data-testid=rating-now-paper-ultimate]")
        assert now.endswith("?") and now != "1500?" and now in changes[name]
    assert sorted(c.strip()[0] for c in changes.values()) == ["+", "−"]  # one up, one down
    shot(ann, "player-page-rated")
    # The leaderboard names both.
    ann.goto(f"{base_url}/ratings/paper-ultimate")
    board = ann.wait_for_selector("[data-testid=leaderboard]").inner_text()
    assert "Rita" in board and "Sam" in board
    assert errors == []
