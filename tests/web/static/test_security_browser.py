"""Real-browser tests of issue 21: a seat link with the token in its fragment plays a move
without the token ever reaching a URL, an old ?token= link still opens the seat, and every
page runs under the Content-Security-Policy with no console error and no CSP violation."""

from __future__ import annotations

import random

import httpx
import pytest

from tests.helpers.browser import click_something, finished_bot_game, shot

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")

# Reports every CSP violation as a console error (init scripts run before the page's own).
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) =>
  console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
"""


def watched_page(browser, problems: list[str], urls: list[str] | None = None):
    """A page that records console errors and warnings, uncaught exceptions, CSP violations
    and (``urls``) every URL it requests or opens a socket to."""
    context = browser.new_context(viewport={"width": 1300, "height": 950})
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    page.on(
        "console",
        lambda m: (
            problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None
        ),
    )
    page.on("pageerror", lambda exc: problems.append(f"exception: {exc}"))
    if urls is not None:
        page.on("request", lambda r: urls.append(r.url))
        page.on("websocket", lambda ws: urls.append(ws.url))
    return page


def test_the_csp_is_enforced_and_reported(browser, base_url):
    """The listener above works: script injected inline is refused and reported (so the
    test below would see a violation if the pages caused one)."""
    problems: list[str] = []
    page = watched_page(browser, problems)
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=summary]")
    ran = page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.body.append(s); return window.ran === 1; }"
    )
    assert ran is False
    page.wait_for_timeout(200)
    assert any("CSP violation: script-src" in p for p in problems), problems


def test_every_page_runs_under_the_csp_without_a_console_error(browser, base_url):
    finished = finished_bot_game(base_url, "paper-ultimate", {"A": "easy", "B": "easy"})
    created = httpx.post(
        base_url + "/api/games",
        json={"game": "midway", "mode": "bot", "bots": {"B": "easy"}},
    ).json()
    seat = next(c for c in created["chairs"] if c["kind"] == "human")
    pages = {
        "lobby": ("/", "[data-testid=summary]"),
        "rules": ("/rules/huck-monster", "[data-testid=rules] table.rules"),
        "seat": (seat["url"], "[data-testid=turn]"),
        "spectator": (created["watch"], "[data-testid=turn]"),
        "replay": (f"/replay/{finished}", "[data-testid=slider]"),
    }
    for name, (path, ready) in pages.items():
        problems: list[str] = []
        page = watched_page(browser, problems)
        response = page.goto(base_url + path)
        assert response is not None
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        assert problems == [], (name, problems)
        page.context.close()


def test_a_seat_link_with_the_token_in_its_fragment_plays_a_move(browser, base_url):
    created = httpx.post(
        base_url + "/api/games",
        json={"game": "paper-ultimate", "mode": "bot", "bots": {"B": "easy"}},
    ).json()
    game_id = created["id"]
    seat = next(c for c in created["chairs"] if c["kind"] == "human")
    token = seat["token"]
    assert seat["url"] == f"/play/{game_id}#token={token}"
    problems: list[str] = []
    urls: list[str] = []
    page = watched_page(browser, problems, urls)
    page.goto(base_url + seat["url"])
    page.wait_for_selector("[data-testid=turn].mine", timeout=20_000)
    start = int(page.get_attribute(".play", "data-ply") or 0)
    rng = random.Random(3)
    for _ in range(20):  # a piece, then a space: a move (clicks until the ply moves on)
        if int(page.get_attribute(".play", "data-ply") or 0) > start:
            break
        page.wait_for_selector(".play:not([data-pending])")
        assert click_something(page, rng)
        page.wait_for_timeout(150)
    state = httpx.get(f"{base_url}/api/games/{game_id}", headers={"seat-token": token}).json()
    assert state["game"]["ply"] > start
    assert any(entry["by"] == "A" for entry in state["log"])
    shot(page, "seat-from-fragment-link")
    # The token went in a header and the socket's first message, never in a URL.
    assert any("/ws/" in u for u in urls) and any("/api/games/" in u for u in urls)
    assert not [u for u in urls if token in u], urls
    assert problems == []

    # An old link with ?token= still opens the seat, moved into the fragment.
    old = watched_page(browser, problems)
    old.goto(f"{base_url}/play/{game_id}?token={token}")
    assert old.url == f"{base_url}/play/{game_id}#token={token}"
    old.wait_for_selector("[data-testid=turn].mine", timeout=20_000)
    assert problems == []
