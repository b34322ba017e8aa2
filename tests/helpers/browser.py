"""Shared pieces of the real-browser tests: a live server and Debian's Chromium (fixtures,
registered by conftest.py), and helpers that click and take screenshots.

Chromium comes from `make setup` (apt); set MONSTERBALL_CHROMIUM to use another binary.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import ROOT

CHROMIUM = os.environ.get("MONSTERBALL_CHROMIUM", "/usr/bin/chromium")
SHOTS = ROOT / "build" / "screenshots"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextlib.contextmanager
def thread_server(db: Path, port: int | None = None) -> Iterator[str]:
    """The app over ``db`` served by uvicorn in a thread; stopping it closes every socket."""
    # Imported here: conftest loads this module for every test run, web extra or not.
    import uvicorn

    from tests.helpers.web import app_at, free_port

    port = port or free_port()
    config = uvicorn.Config(app_at(db), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory) -> Iterator[str]:
    with thread_server(tmp_path_factory.mktemp("web") / "games.db") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make setup` (installs it with apt)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def new_page(browser, errors: list[str], *, steps: bool = False):
    """A page of its own context. A reply is shown at once unless ``steps`` (the game page's
    "show a reply step by step", tests/web/static/test_steps_browser.py): tests that play many
    moves against a bot need not wait for each reply's steps."""
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    if not steps:
        context.add_init_script("localStorage.setItem('monsterball-steps', 'off')")
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


def play_one_turn(pages: dict, rng: random.Random) -> tuple[str, int] | None:
    """In a two-seat game open in two pages (seat name -> page): the seat to move clicks until
    its move is made, and the other page is waited on until it shows the move. Returns the
    seat that moved and the move number before it, or None if neither seat is to move."""
    mover = next((s for s, p in pages.items() if p.locator(".turn.mine").count()), None)
    if mover is None:
        time.sleep(0.1)
        return None
    other = next(s for s in pages if s != mover)
    seen = move_number(pages[other])
    page = pages[mover]
    while page.locator(".turn.mine").count() and move_number(page) == seen:
        click_something(page, rng)
        time.sleep(0.05)
    pages[other].wait_for_function(
        f"() => !document.body.innerText.includes('Move\\t{seen}\\n')", timeout=15_000
    )
    return mover, seen


def start_from_lobby(page, base_url: str, game: str, mode: str) -> None:
    page.goto(base_url + "/")
    page.select_option("[data-testid=game]", game)
    page.select_option("[data-testid=mode]", mode)
    page.click("[data-testid=start]")
    if mode != "online":  # the lobby draws small boards too: wait for the game's own page
        page.wait_for_url("**/play/**", timeout=15_000)


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


# Short bot-vs-bot games for the end-of-game pages: (preset, settings).
SHORT = {
    "huck-monster": ("small", ["points_to_win=1"]),
    "midway": ("exhibition", []),
    "paper-ultimate": ("small", ["points_to_win=1"]),
}


def finished_bot_game(base_url: str, game: str, bots: dict[str, str], seed: int = 7) -> str:
    import httpx

    preset, settings = SHORT[game]
    body = {"game": game, "preset": preset, "settings": settings, "mode": "bot", "bots": bots}
    body["seed"] = seed
    created = httpx.post(base_url + "/api/games", json=body, timeout=120)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    deadline = time.monotonic() + 120
    while httpx.get(f"{base_url}/api/games/{game_id}", timeout=30).json()["game"]["status"] != (
        "finished"
    ):
        assert time.monotonic() < deadline, "the bot-vs-bot game did not finish"
        time.sleep(0.3)
    return str(game_id)
