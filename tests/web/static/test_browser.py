"""Real-browser tests (issue 7): Playwright drives Debian's Chromium against a live server.
(A hot-seat game by clicking and the Midway draft are in tests/web/static/test_ui_browser.py.)

Each test plays by clicking as a person would and saves a screenshot under
build/screenshots/ (fixtures and helpers: browser_helpers.py).
"""

from __future__ import annotations

import random
import re

import httpx
import pytest

from tests.helpers.browser import (
    move_number,
    new_page,
    play_clicks,
    play_one_turn,
    shot,
    start_from_lobby,
)

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")


def test_huck_monster_against_the_bot_by_clicking(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    start_from_lobby(page, base_url, "huck-monster", "bot")
    page.wait_for_selector("[data-testid=board]")
    assert page.locator(".chairs", has_text="bot").count() == 1
    play_clicks(page, 25, seed=2)
    authors = set(page.locator("[data-testid=move-list] .by").all_inner_texts())
    assert {"A", "B", "dice"} <= authors  # the bot (B) and the dice answered
    assert page.locator("svg.board .piece").count() == 14
    shot(page, "bot-huck-monster")
    assert errors == []


def test_online_room_two_browsers_play_each_other(browser, base_url):
    errors: list[str] = []
    host = new_page(browser, errors)
    start_from_lobby(host, base_url, "paper-ultimate", "online")
    host.wait_for_selector("[data-testid=links]")
    links = {seat: host.get_attribute(f"[data-testid=link-{seat}]", "href") for seat in ("A", "B")}
    pages = {seat: new_page(browser, errors) for seat in links}
    for seat, link in links.items():
        pages[seat].goto(base_url + link)
        pages[seat].wait_for_selector("[data-testid=board]")
    # Each seat sees that the other is at the table (presence is polled every few seconds).
    pages["A"].wait_for_selector("[data-testid=presence-B].on", timeout=15_000)
    pages["B"].wait_for_selector("[data-testid=presence-A].on", timeout=15_000)
    assert "Send to your opponent (B)" in host.inner_text("[data-testid=links]")
    rng = random.Random(3)
    seats_moved = set()
    for _ in range(12):
        for page in pages.values():
            page.wait_for_selector("[data-testid=turn]")
        turn = play_one_turn(pages, rng)
        if turn is None:
            continue
        mover, seen = turn
        seats_moved.add(mover)
        other = "B" if mover == "A" else "A"
        assert move_number(pages[other]) > seen  # the other browser saw the move
    assert seats_moved == {"A", "B"}
    game_id = links["A"].split("/")[2].split("#")[0]
    host.goto(base_url + "/")  # the browser that made the room can find its seats again
    assert host.get_attribute(f"[data-testid=resume-{game_id}-B]", "href") == links["B"]
    shot(pages["A"], "online-seat-A")
    shot(pages["B"], "online-seat-B")
    assert errors == []


def test_replay_viewer_steps_downloads_and_plays_on(browser, base_url):
    created = httpx.post(
        base_url + "/api/games",
        json={
            "game": "paper-ultimate",
            "preset": "quick",
            "mode": "bot",
            "bots": {"A": "easy", "B": "easy"},
            "seed": 4,
        },
        timeout=120,  # the server plays the whole bot game before it answers
    ).json()
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(base_url + "/")
    page.click(f"[data-testid=replay-{created['id']}]")
    page.wait_for_selector("[data-testid=replay-step]")
    assert page.inner_text("[data-testid=replay-step]").startswith("Step 0 of")
    for _ in range(3):
        page.click("[data-testid=forward]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]').innerText.startsWith('Step 3 ')"
    )
    page.click("[data-testid=back]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]').innerText.startsWith('Step 2 ')"
    )
    page.fill("[data-testid=jump]", "40")
    page.dispatch_event("[data-testid=jump]", "change")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]').innerText.startsWith('Step 40 ')"
    )
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("ArrowRight")  # the keyboard steps too
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]').innerText.startsWith('Step 41 ')"
    )
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]').innerText.startsWith('Step 40 ')"
    )
    # The chances graph marks the biggest swings; a click goes to that step.
    swing = page.locator("[data-testid=swing]").first
    target = swing.get_attribute("data-step")
    swing.click()
    page.wait_for_function(
        "(n) => document.querySelector('[data-testid=replay-step]').innerText"
        ".startsWith(`Step ${n} `)",
        arg=target,
    )
    for kind in ("first", "back", "forward", "last"):  # icons, named for screen readers
        button = page.locator(f"[data-testid={kind}]")
        assert button.get_attribute("aria-label") and button.locator("svg").count() == 1
    page.fill("[data-testid=jump]", "40")
    page.dispatch_event("[data-testid=jump]", "change")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-step]').innerText.startsWith('Step 40 ')"
    )
    shot(page, "replay-step-40")
    href = page.get_attribute("[data-testid=download]", "href")
    record = httpx.get(base_url + href, timeout=60)
    assert record.status_code == 200 and record.text.startswith('{"record":"monsterball"')
    page.click("[data-testid=fork]")
    page.wait_for_url(re.compile(r".*/play/[0-9a-f]+#token=.*"))
    page.wait_for_selector("[data-testid=board]")
    assert move_number(page) >= 40
    shot(page, "forked-from-replay")
    assert errors == []
