"""Clocks and leaderboards in a real browser (Debian's Chromium): the lobby starts an online
room with a clock, two seats play in two browser contexts and both pages show both clocks,
the running one counting down between messages; the leaderboard page lists rated bots."""

from __future__ import annotations

import re
import time

import pytest

from monsterball.web.store.games import Store
from monsterball.web.store.ratings import settle
from tests.helpers.browser import move_number, new_page, shot, thread_server

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")


def seconds(text: str) -> float:
    minutes, secs = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(secs)


def face(page, side: str) -> str:
    return page.locator(f"[data-testid=clock-{side}] .clock-time").inner_text()


def test_two_seats_see_both_clocks_ticking(browser, base_url):
    errors: list[str] = []
    host = new_page(browser, errors)
    host.goto(base_url + "/")
    host.select_option("[data-testid=game]", "paper-ultimate")
    host.select_option("[data-testid=mode]", "online")
    host.select_option("[data-testid=clock]", "3+2")
    host.click("[data-testid=start]")
    host.wait_for_selector("[data-testid=links]")
    url_a = host.locator("[data-testid=link-A]").get_attribute("href")
    url_b = host.locator("[data-testid=link-B]").get_attribute("href")
    guest = new_page(browser, errors)
    host.goto(base_url + url_a)
    guest.goto(base_url + url_b)
    for page in (host, guest):
        page.wait_for_selector("[data-testid=clocks]")
        assert page.locator(".clock-face").count() == 2
        assert page.locator("[data-testid=clocks]").inner_text().count("3 min + 2 s") == 1
    running = host.locator(".clock-face.running").get_attribute("data-side")
    still = "A" if running == "B" else "B"
    first = seconds(face(host, running))
    time.sleep(2.5)  # no message meanwhile: the page counts down by itself
    later = seconds(face(host, running))
    assert 1 <= first - later <= 4, (first, later)
    assert face(host, still) == "3:00" == face(guest, still)
    assert abs(seconds(face(guest, running)) - later) <= 1
    # The side to act moves by clicking until its turn ends: its clock stops, the other's runs.
    mover = host if running == "A" else guest
    for _ in range(10):
        if host.locator(".clock-face.running").get_attribute("data-side") != running:
            break
        before = move_number(host)
        mover.locator(".cell.cell-target, .cell.target, [data-testid=actions] button").first.click()
        host.wait_for_function(
            "(n) => Number(document.querySelector('[data-testid=panel] tr td + td').innerText) > n",
            arg=before,
        )
        host.wait_for_timeout(200)
    assert host.locator(".clock-face.running").get_attribute("data-side") == still
    stopped = face(host, running)
    started = seconds(face(guest, still))
    time.sleep(2.2)
    assert face(host, running) == stopped  # the side that moved: its clock stands still
    assert 1 <= started - seconds(face(guest, still)) <= 4  # the other side's now runs
    shot(host, "clocks-online-room")
    assert not errors, errors


def test_the_leaderboard_page_shows_ratings_with_provisional_marks(browser, tmp_path):
    db = tmp_path / "rated.db"
    store = Store(f"sqlite:///{db}")
    for k in range(16):  # medium beats easy 13 games of 16; hard played once (provisional)
        won = 1.0 if k % 5 else -1.0
        settle(store, f"g{k}", ["bot:medium", "bot:easy"], [won, -won], game="huck-monster")
    settle(store, "g16", ["bot:hard", "bot:medium"], [1.0, -1.0], game="huck-monster")
    store.close()
    errors: list[str] = []
    with thread_server(db) as url:
        page = new_page(browser, errors)
        page.goto(url + "/ratings/huck-monster")
        page.wait_for_selector("[data-testid=leaderboard]")
        rows = page.locator("[data-testid=leaderboard] tr[data-testid]").all_inner_texts()
        assert [r.split("\t")[1] for r in rows] == ["bot:medium", "bot:easy", "bot:hard"]
        assert rows[2].split("\t")[2].endswith("?")  # one game: provisional, listed last
        assert not rows[0].split("\t")[2].endswith("?")
        shot(page, "leaderboard")
        page.goto(url + "/ratings/midway")
        page.wait_for_selector("[data-testid=no-ratings]")
    assert not errors, errors
