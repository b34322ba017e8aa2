"""Quick pairing in a real browser (issue 32 item 4, Debian's Chromium): two players whose
ratings are too far apart when the second clicks "Quick pair" both wait, and as the longer
waiter's window widens to reach the other both land in the same room, neither clicking
again; "Stop waiting" withdraws a request, so a third player of the same rating, who would
have been paired with it at once, waits instead."""

from __future__ import annotations

import time

import pytest

from monsterball.web.api import pairing
from monsterball.web.store.games import Store
from monsterball.web.store.people import People
from monsterball.web.store.ratings import rating_of, settle
from tests.helpers.browser import new_page, shot, thread_server
from tests.web.static.test_accounts_browser import sign_up

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")
GAME = "paper-ultimate"


@pytest.fixture
def served(tmp_path):
    db = tmp_path / "games.db"
    with thread_server(db) as url:
        store = Store(f"sqlite:///{db}")
        yield url, store
        store.close()


def quick_pair(page) -> None:
    page.select_option("[data-testid=challenge-game]", GAME)
    page.click("[data-testid=quick-pair]")


def test_two_waiting_players_land_in_one_room_without_clicking_again(browser, served, monkeypatch):
    base_url, store = served
    errors: list[str] = []
    ann, ben = new_page(browser, errors), new_page(browser, errors)
    sign_up(ann, base_url, "Ann")
    sign_up(ben, base_url, "Ben")
    people = People(store)
    key = {name: f"account:{people.find(name)[0].id}" for name in ("Ann", "Ben")}
    for n in range(3):  # Ann lost three rated games, Ben won one: far apart
        settle(store, f"a{n}", [key["Ann"], "bot:medium"], [-1.0, 1.0], game=GAME)
    settle(store, "b0", [key["Ben"], "bot:hard"], [1.0, -1.0], game=GAME)
    gap = rating_of(store, key["Ben"], GAME).rating - rating_of(store, key["Ann"], GAME).rating
    assert gap > 250
    # The window starts at 100 and reaches the gap after about 6 s of waiting.
    monkeypatch.setattr(pairing, "PAIR_WINDOW", 100.0)
    monkeypatch.setattr(pairing, "PAIR_WIDENS_PER_SECOND", (gap - 100.0) / 6)
    for page in (ann, ben):
        quick_pair(page)
        page.wait_for_selector("[data-testid=pairing]:has-text('Waiting for an opponent')")
    assert ann.is_visible("[data-testid=stop-waiting]")
    assert ann.is_disabled("[data-testid=quick-pair]")  # asking again would restart the wait
    shot(ben, "lobby-quick-pair-waiting")
    started = time.monotonic()
    # Nobody clicks again: the pages check in, the server pairs them, both go to the game.
    ann.wait_for_url("**/play/**", timeout=20_000)
    ben.wait_for_url("**/play/**", timeout=20_000)
    assert time.monotonic() - started > 2  # paired by the widening, not at Ben's click
    assert ann.url == ben.url and "#token" not in ann.url
    for page in (ann, ben):
        page.wait_for_selector("[data-testid=turn]")
    seats = {page.locator(".chairs .me").inner_text()[0] for page in (ann, ben)}
    assert seats == {"A", "B"}
    assert not errors, errors


def test_stop_waiting_withdraws_the_request(browser, served):
    base_url, _ = served
    errors: list[str] = []
    cy, dee = new_page(browser, errors), new_page(browser, errors)
    sign_up(cy, base_url, "Cyril")
    sign_up(dee, base_url, "Deena")
    quick_pair(dee)
    dee.wait_for_selector("[data-testid=pairing]:has-text('Waiting for an opponent')")
    dee.click("[data-testid=stop-waiting]")
    dee.wait_for_selector("[data-testid=pairing]:has-text('Stopped waiting')")
    assert not dee.is_visible("[data-testid=stop-waiting]")
    assert dee.is_enabled("[data-testid=quick-pair]")
    # Cy has Dee's rating (both new): had Dee still waited they would be paired at once.
    quick_pair(cy)
    cy.wait_for_selector("[data-testid=pairing]:has-text('Waiting for an opponent')")
    time.sleep(4)  # a check-in or two later, still nobody
    assert "/play/" not in cy.url and "/play/" not in dee.url
    assert "Waiting for an opponent" in cy.inner_text("[data-testid=pairing]")
    cy.click("[data-testid=stop-waiting]")
    cy.wait_for_selector("[data-testid=pairing]:has-text('Stopped waiting')")
    assert not errors, errors
