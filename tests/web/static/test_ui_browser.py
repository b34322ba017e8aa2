"""Real-browser tests of the game pages as a player meets them (issue 14, and issue 12's
pages that say what is wrong): coordinates, lobby, error pages, the disconnected state, the
move list, the end panel and rematch, layout from 360 px wide. Screenshots of every game at
its start, mid-game and end go to build/screenshots/.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.helpers.browser import (
    click_something,
    finished_bot_game,
    new_page,
    play_clicks,
    shot,
    start_from_lobby,
    thread_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")

GAMES = ("huck-monster", "midway", "paper-ultimate")


def no_overflow(page) -> bool:
    return bool(
        page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    )


def test_lobby_summaries_presets_and_empty_tables(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=summary]")
    # A new server has no games: the tables say so instead of showing empty headers.
    assert page.locator("[data-testid=no-watch]").inner_text() == "No games yet."
    assert page.locator("[data-testid=no-replay]").is_visible()
    catalog = httpx.get(base_url + "/api/catalog").json()
    for game in catalog["games"]:
        page.select_option("[data-testid=game]", game["id"])
        summary = page.locator("[data-testid=summary]")
        assert game["summary"] in summary.inner_text()
        assert summary.locator("svg[data-testid=board]").count() == 1  # a small picture
        preset = game["presets"][-1]
        page.select_option("[data-testid=preset]", preset["name"])
        assert page.inner_text("[data-testid=preset-doc]") == preset["doc"]  # not hover-only
        assert page.get_attribute("[data-testid=how-to-play]", "href") == f"/guide/{game['id']}"
        assert page.get_attribute("[data-testid=rules-detail]", "href") == f"/rules/{game['id']}"
    page.select_option("[data-testid=mode]", "hotseat")
    assert not page.locator("[data-testid=bot-fields]").is_visible()
    page.select_option("[data-testid=mode]", "bot")
    assert page.locator("[data-testid=bot-fields]").is_visible()
    shot(page, "lobby")
    # the player's guide (tests/web/static/test_learn_browser.py)
    page.click("[data-testid=rules-detail]")
    page.wait_for_selector("[data-testid=rules] table.rules")
    assert page.locator("tr#PU-SET-1, tr[id^=PU-]").count() > 5  # rules by id, in order
    shot(page, "rules-paper-ultimate")
    assert errors == []


def test_a_bad_link_says_so_at_once(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    created = httpx.post(base_url + "/api/games", json={"game": "paper-ultimate"}).json()
    for link, words in (
        ("/play/doesnotexist", "no game"),
        (f"/play/{created['id']}?token=wrong", "not valid"),
        ("/replay/doesnotexist", "no game"),
    ):
        started = time.monotonic()
        page.goto(base_url + link)
        page.wait_for_selector("[data-testid=error]", state="visible", timeout=4000)
        # About 0.2 s on an idle machine; the bound leaves room for CI's two busy cores and
        # still fails the old page, which waited for a socket forever ("Connecting...").
        assert time.monotonic() - started < 3.0, link
        assert words in page.inner_text("[data-testid=error]").lower()
        assert page.get_attribute("[data-testid=to-lobby]", "href") == "/"
        if link.startswith("/play"):
            assert page.inner_text("[data-testid=connection]") == "not connected"
    shot(page, "error-page")
    # The replay of a game still being played explains why it offers no record or fork.
    page.goto(f"{base_url}/replay/{created['id']}")
    page.wait_for_selector("[data-testid=unfinished]")
    assert "still being played" in page.inner_text("[data-testid=unfinished]")
    assert page.locator("[data-testid=fork], [data-testid=download]").count() == 0
    assert errors == []


def test_while_disconnected_nothing_can_be_clicked_and_reconnecting_shows_the_game(
    browser, tmp_path
):
    errors: list[str] = []
    page = new_page(browser, errors)
    db = tmp_path / "games.db"
    with thread_server(db) as base:
        port = int(base.rsplit(":", 1)[1])
        created = httpx.post(base + "/api/games", json={"game": "huck-monster"}).json()
        page.goto(base + created["chairs"][0]["url"])
        page.wait_for_selector("[data-testid=turn].mine")
        assert page.inner_text("[data-testid=connection]") == "connected"
        ply = page.get_attribute(".play", "data-ply")
    # The server is gone: the page says so, and nothing can be clicked.
    page.wait_for_selector("[data-testid=offline]", timeout=10_000)
    assert "reconnecting" in page.inner_text("[data-testid=offline]")
    assert "disconnected" in page.inner_text("[data-testid=connection]")
    assert page.evaluate(
        "() => getComputedStyle(document.querySelector('.board-wrap svg')).pointerEvents"
    ) == ("none")
    assert page.locator("[data-testid=actions] button").count() == 0
    assert page.locator("[data-testid=typed]").is_disabled()
    shot(page, "disconnected")
    with thread_server(db, port):
        page.wait_for_selector("[data-testid=notice]", timeout=20_000)
        assert "Reconnected" in page.inner_text("[data-testid=notice]")
        assert page.locator("[data-testid=offline]").count() == 0
        assert page.get_attribute(".play", "data-ply") == ply
        assert page.inner_text("[data-testid=connection]") == "connected"
        assert click_something(page, __import__("random").Random(1))  # playable again
    assert errors == []


def test_the_move_list_grows_with_every_move_and_shows_old_positions(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    start_from_lobby(page, base_url, "paper-ultimate", "hotseat")
    page.wait_for_selector("[data-testid=move-list]")
    seen = set()
    import random

    rng = random.Random(11)
    for _ in range(25):
        page.wait_for_selector(".play:not([data-pending]) [data-testid=turn].mine")
        ply = int(page.get_attribute(".play", "data-ply") or 0)
        # Every move so far, dice included, is in the list, in order.
        page.wait_for_function(
            f"() => document.querySelectorAll('[data-testid=move]').length === {ply}"
        )
        seen.add(ply)
        click_something(page, rng)
    assert len(seen) > 5 and max(seen) >= 15
    authors = set(page.locator("[data-testid=move-list] .by").all_inner_texts())
    assert {"A", "B", "dice"} <= authors  # one screen played both teams
    moves = page.locator("[data-testid=move]")
    first = moves.nth(0).inner_text()
    assert first.startswith("1.") and "dice" in first  # the toss, in notation and words
    moves.nth(2).locator("button").click()
    page.wait_for_selector("[data-testid=viewing]")
    assert "after move 3" in page.inner_text("[data-testid=viewing]")
    assert page.locator(".piece.actionable").count() == 0  # looking, not playing
    shot(page, "paper-ultimate-viewing-move-3")
    page.click("[data-testid=live]")
    page.wait_for_selector("[data-testid=turn].mine")
    assert page.locator("[data-testid=viewing]").count() == 0
    assert errors == []


@pytest.mark.parametrize("game", GAMES)
def test_each_game_start_middle_and_end(browser, base_url, game):
    errors: list[str] = []
    page = new_page(browser, errors)
    start_from_lobby(page, base_url, game, "hotseat")
    page.wait_for_selector("[data-testid=board]")
    board = httpx.get(base_url + "/api/ui/boards").json()[game]
    coords = page.locator(".play [data-testid=coord]")
    assert coords.count() == 2 * (board["cols"] + board["rows"])  # letters and numbers, all edges
    labels = set(coords.all_text_contents())
    assert {"a", "b", "1", str(board["rows"])} <= labels
    assert page.locator("[data-testid=legend]").is_visible()
    assert page.locator("[data-testid=guide]").is_visible()  # what to do next, in words
    assert page.title().startswith("(Your move)")
    shot(page, f"{game}-start")
    if game == "midway":
        page.click("[data-testid=draft] button[data-action='draft orc']")
        # The draft is a table of types with their cost, size, movement and ability
        # (MW-DRAFT-1: 10 players for at most 210 points; an orc costs 10).
        page.wait_for_selector("[data-testid=points-left]:has-text('200 of 210 points left')")
        header = page.locator("[data-testid=draft] th").all_inner_texts()
        assert {"cost", "size", "move", "ability"} <= {h.strip(" ▲▼") for h in header}
        page.click("[data-testid=draft] button.sort:has-text('cost')")  # by cost, descending
        cells = page.locator("[data-testid=draft] td:nth-child(2)").all_inner_texts()
        assert [int(c) for c in cells] == sorted((int(c) for c in cells), reverse=True)
        shot(page, "midway-draft")
        # On with drafted teams: the exhibition preset's saved rosters skip the draft.
        body = {"game": "midway", "preset": "exhibition", "seed": 5}
        created = httpx.post(base_url + "/api/games", json=body).json()
        page.goto(base_url + created["chairs"][0]["url"])
        play_clicks(page, 60, seed=5, until="svg.board .piece")  # toss, wind, line-up
        assert page.locator("svg.board .piece").count() > 0
    play_clicks(page, 20, seed=6)
    # The last move is outlined once it moved something (an "end" or a die moves nothing).
    for extra in range(10):
        if page.locator("svg.board .cell.last").count():
            break
        play_clicks(page, 1, seed=7 + extra)
    assert page.locator("svg.board .cell.last").count() > 0
    shot(page, f"{game}-middle")
    game_id = finished_bot_game(base_url, game, {"A": "easy", "B": "easy"})
    page.goto(f"{base_url}/play/{game_id}")
    page.wait_for_selector("[data-testid=end-panel]")
    assert "wins" in page.inner_text("[data-testid=result]") or "draw" in page.inner_text(
        "[data-testid=result]"
    )
    shot(page, f"{game}-end")
    assert errors == []


def test_rematch_starts_the_same_game_with_the_seats_swapped(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    game_id = finished_bot_game(base_url, "paper-ultimate", {"A": "easy", "B": "medium"})
    page.goto(f"{base_url}/play/{game_id}")
    page.wait_for_selector("[data-testid=end-panel]")
    for name in ("new-game", "to-replay", "download"):
        assert page.locator(f"[data-testid=end-panel] [data-testid={name}]").is_visible()
    page.click("[data-testid=rematch]")
    page.wait_for_url(re.compile(r".*/play/(?!" + game_id + r")[0-9a-f]+"))
    # The new bot-vs-bot game plays on at full speed and the page redraws with each move, so
    # the check goes through a locator, which finds the chairs afresh on each try.
    chairs = page.locator(".chairs")
    chairs.wait_for()
    assert re.search(r"A \(bot: medium\).*B \(bot: easy\)", chairs.inner_text(), re.S)
    new_id = page.url.rsplit("/", 1)[1].split("?")[0]
    new = httpx.get(f"{base_url}/api/games/{new_id}").json()["game"]
    assert new["preset"] == "small"
    assert errors == []


@pytest.mark.parametrize("width", [360, 1920])
def test_no_horizontal_overflow(browser, base_url, width):
    errors: list[str] = []
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=summary]")
    assert no_overflow(page)
    for game in ("midway", "huck-monster"):
        created = httpx.post(base_url + "/api/games", json={"game": game}).json()
        page.goto(base_url + created["chairs"][0]["url"])
        page.wait_for_selector("[data-testid=board]")
        page.click("summary:has-text('Text view')") if not page.locator(
            "details[open]"
        ).count() else None
        page.wait_for_timeout(300)
        assert no_overflow(page), game
        # The field's frame fits; a wide field (Midway at 360 px) scrolls sideways inside it.
        box = page.locator(".play .board-wrap").bounding_box()
        assert box is not None and box["width"] <= width
        if width == 1920:
            assert box["height"] > 600  # a big screen gets a big board
        shot(page, f"{game}-{width}px")
    assert errors == []


def test_catch_odds_while_aiming_are_the_odds_commands_figures(browser, base_url):
    import random
    import subprocess
    import sys

    from monsterball.games import get_game
    from monsterball.games.huck_monster.analysis.throw_odds import throw_odds

    body = {"game": "huck-monster", "preset": "basic", "seed": 3}  # basic: no strategy dice
    created = httpx.post(base_url + "/api/games", json=body).json()
    game_id, token = created["id"], created["chairs"][0]["token"]
    rng = random.Random(4)
    state = httpx.get(f"{base_url}/api/games/{game_id}?token={token}").json()
    for _ in range(1500):  # play on by the API until a Handler aims a throw someone bids on
        move = rng.choice(state["legal"])["a"]
        if any(a["a"].startswith("throw ") for a in state["legal"]):
            targets = httpx.get(f"{base_url}/api/games/{game_id}/odds").json()["targets"]
            contested = [t for t in targets if t["p"] < 1]
            if contested:
                break
            move = targets[0]["action"]
        answer = httpx.post(
            f"{base_url}/api/games/{game_id}/act",
            json={"token": token, "action": move, "ply": state["game"]["ply"]},
        )
        state = answer.json()
    else:
        pytest.fail("no contested throw was aimed in 1500 moves")
    # The same position in this process, from the public move list.
    spec = get_game("huck-monster")
    local = spec.new_game(spec.options("basic"))
    moves = httpx.get(f"{base_url}/api/games/{game_id}/moves?token={token}").json()["moves"]
    for move in moves:
        local.apply_unchecked(spec.parse_action(move["action"]))
    expected = {o.action: o for o in throw_odds(local)}
    assert expected

    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{base_url}/play/{game_id}?token={token}")
    page.wait_for_selector(".odds-list li")
    receiver = contested[0]["receiver"]
    page.click(f"svg.board [data-piece={receiver}]")
    page.wait_for_selector("svg.board text[data-testid=odds]")
    rows = page.locator(".odds-list li")
    assert rows.count() == min(12, sum(o.receiver == receiver for o in expected.values()))
    for i in range(rows.count()):
        action = rows.nth(i).get_attribute("data-action")
        figure = rows.nth(i).locator("[data-testid=odds]")
        assert figure.inner_text() == f"{100 * float(expected[action].p_catch):.1f}%"
    best = expected[rows.nth(rows.count() - 1).get_attribute("data-action")]
    assert best.p_catch < 1
    # ... and the figure is what `monsterball odds` says for that setup.
    setup = best.setup
    args = ["--throw", str(setup.throw_count), "--intercepts", str(setup.intercepts)]
    args += ["--catch-marks", str(setup.catch_marks), "--challenges", str(setup.challenges)]
    args += ["--mark"] if setup.mark else []
    out = subprocess.run(
        [sys.executable, "-m", "monsterball.cli", "odds", "huck-monster", *args],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    fraction = re.search(r"P\(catch\) = (\d+/\d+)", out)
    assert fraction and rows.nth(rows.count() - 1).locator("[data-testid=odds]").get_attribute(
        "title"
    ) == fraction.group(1)
    shot(page, "huck-monster-aiming-odds")
    page.click("[data-testid=odds-toggle]")  # purists hide them
    assert page.locator("[data-testid=odds]").count() == 0
    assert errors == []
