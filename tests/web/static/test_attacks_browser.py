"""Issue 31's contributed dice in the browser: each seat's page sends its own nonce
(static/dice.js, crypto.getRandomValues) before the first die, which waits for them."""

from __future__ import annotations

import dataclasses
import re
import threading
import time

import httpx
import pytest

from monsterball.web.app import create_app
from tests.helpers.browser import new_page, shot
from tests.helpers.web import NO_CLIENT_LIMITS, free_port

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")


def test_both_seat_pages_contribute_their_nonces_before_the_first_die(browser, tmp_path):
    import uvicorn

    limits = dataclasses.replace(NO_CLIENT_LIMITS, nonce_seconds=60)  # only the pages end it
    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", limits=limits)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    try:
        while not server.started:
            time.sleep(0.05)
        made = httpx.post(base + "/api/games", json={"game": "paper-ultimate", "mode": "online"})
        gid, chairs = made.json()["id"], made.json()["chairs"]
        assert httpx.get(f"{base}/api/games/{gid}").json()["to_act"] == "dice"  # waiting
        pages = [new_page(browser, errors) for _ in chairs]
        started = time.monotonic()
        for page, chair in zip(pages, chairs, strict=True):
            page.goto(base + chair["url"])
            page.wait_for_selector("[data-testid=board]")
        for _ in range(300):
            state = httpx.get(f"{base}/api/games/{gid}").json()
            if state["game"]["ply"] > 0:
                break
            time.sleep(0.05)
        waited = time.monotonic() - started
        shot(pages[0], "contributed-dice-seat-A")
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert state["game"]["ply"] > 0 and waited < 30, waited  # the pages' nonces, not the wait
    nonces = state["game"]["dice_nonces"]
    assert set(nonces) == {"A", "B"} and nonces["A"] != nonces["B"]
    assert all(re.fullmatch(r"[0-9a-f]{32}", n) for n in nonces.values()), nonces
    assert errors == []
