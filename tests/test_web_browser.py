"""Real-browser tests (issue 7): Playwright drives Debian's Chromium against a live server.

Each test plays by clicking as a person would and saves a screenshot under
build/screenshots/. Chromium comes from `make setup` (apt); set MONSTERBALL_CHROMIUM to use
another binary.
"""

from __future__ import annotations

import os
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from web_helpers import app_at, free_port

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("MONSTERBALL_CHROMIUM", "/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "games.db"
    port = free_port()
    config = uvicorn.Config(app_at(db), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make setup` (installs it with apt)")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def new_page(browser, errors: list[str]):
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 10_000


def move_number(page) -> int:
    text = page.locator("[data-testid=panel] tr", has_text="Move").first.inner_text()
    return int(re.findall(r"\d+", text)[0])


def click_something(page, rng: random.Random) -> bool:
    """One human action by clicking: a choice, a highlighted space, a piece or a button."""
    for selector in (
        "[data-testid=choices] button[data-action]",
        ".cell.target",
        ".cell.cell-target",
        ".piece.actionable",
        "[data-testid=actions] button:not([disabled])",
    ):
        found = page.locator(selector)
        count = found.count()
        if count:
            found.nth(rng.randrange(count)).click()
            return True
    return False


def start_from_lobby(page, base_url: str, game: str, mode: str) -> None:
    page.goto(base_url + "/")
    page.select_option("[data-testid=game]", game)
    page.select_option("[data-testid=mode]", mode)
    page.click("[data-testid=start]")


def play_clicks(page, clicks: int, seed: int, *, until: str | None = None) -> None:
    """Up to ``clicks`` clicks of one's own moves (stops early at the end of the game, or
    when ``until`` matches something on the page)."""
    rng = random.Random(seed)
    for _ in range(clicks):
        page.wait_for_selector("[data-testid=turn].mine, [data-testid=result]", timeout=20_000)
        if page.locator("[data-testid=result]").count():
            return
        if until and page.locator(until).count():
            return
        page.wait_for_selector(".play:not([data-pending])")
        before = [
            page.get_attribute(".play", "data-ply"),
            page.get_attribute(".play", "data-selected"),
        ]
        assert click_something(page, rng), "it is my move but nothing can be clicked"
        # A click makes a move (the move number changes), (de)selects a piece or asks which.
        page.wait_for_function(
            "([ply, selected]) => { const play = document.querySelector('.play');"
            " return play.dataset.ply !== ply || play.dataset.selected !== selected"
            " || document.querySelector('[data-testid=choices]'); }",
            arg=before,
            timeout=20_000,
        )


def test_hotseat_paper_ultimate_by_clicking(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    start_from_lobby(page, base_url, "paper-ultimate", "hotseat")
    page.wait_for_selector("[data-testid=board]")
    play_clicks(page, 40, seed=1)
    assert move_number(page) >= 15
    authors = set(page.locator("[data-testid=log] .by").all_inner_texts())
    assert {"A", "B"} <= authors  # one screen played both teams
    shot(page, "hotseat-paper-ultimate")
    assert errors == []


def test_huck_monster_against_the_bot_by_clicking(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    start_from_lobby(page, base_url, "huck-monster", "bot")
    page.wait_for_selector("[data-testid=board]")
    assert page.locator(".chairs", has_text="bot").count() == 1
    play_clicks(page, 45, seed=2)
    authors = set(page.locator("[data-testid=log] .by").all_inner_texts())
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
    rng = random.Random(3)
    seats_moved = set()
    for _ in range(30):
        for page in pages.values():
            page.wait_for_selector("[data-testid=turn]")
        mover = next((s for s, p in pages.items() if p.locator(".turn.mine").count()), None)
        if mover is None:
            time.sleep(0.1)
            continue
        other = "B" if mover == "A" else "A"
        seen = move_number(pages[other])
        page = pages[mover]
        while page.locator(".turn.mine").count() and move_number(page) == seen:
            click_something(page, rng)
            time.sleep(0.05)
        seats_moved.add(mover)
        pages[other].wait_for_function(
            f"() => !document.body.innerText.includes('Move\\t{seen}\\n')", timeout=15_000
        )
        assert move_number(pages[other]) > seen  # the other browser saw the move
    assert seats_moved == {"A", "B"}
    game_id = links["A"].split("/")[2].split("?")[0]
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
    shot(page, "replay-step-40")
    href = page.get_attribute("[data-testid=download]", "href")
    record = httpx.get(base_url + href, timeout=60)
    assert record.status_code == 200 and record.text.startswith('{"record":"monsterball"')
    page.click("[data-testid=fork]")
    page.wait_for_url(re.compile(r".*/play/[0-9a-f]+\?token=.*"))
    page.wait_for_selector("[data-testid=board]")
    assert move_number(page) >= 40
    shot(page, "forked-from-replay")
    assert errors == []


def test_midway_draft_in_the_browser(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    start_from_lobby(page, base_url, "midway", "hotseat")
    page.wait_for_selector("[data-testid=actions] button[data-action='draft best']")
    shot(page, "midway-draft")
    page.click("[data-testid=actions] button[data-action='draft orc']")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=log] li')]"
        ".some(li => li.innerText.includes('draft orc'))"
    )
    while page.locator("[data-testid=actions] button[data-action='draft best']").count():
        page.click("[data-testid=actions] button[data-action='draft best']")
        time.sleep(0.1)
    play_clicks(page, 60, seed=5, until="svg.board .piece")  # toss, wind, line-up
    assert page.locator("svg.board .piece").count() > 0
    shot(page, "midway-after-draft")
    assert errors == []
