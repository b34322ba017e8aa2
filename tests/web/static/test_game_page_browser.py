"""Real-browser tests of the game page players expect (issue 32, and issue 31's rematch): the
rematch offer between two seats with a spectator watching, seats remembered for the lobby,
resign with confirmation."""

from __future__ import annotations

import time

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.helpers.browser import new_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")


def online_room(base_url: str, game: str = "paper-ultimate") -> dict:
    created = httpx.post(base_url + "/api/games", json={"game": game, "mode": "online"})
    assert created.status_code == 201, created.text
    return created.json()


def test_a_rematch_is_offered_to_the_opponent_and_makes_one_room(browser, base_url):
    errors: list[str] = []
    created = online_room(base_url)
    gid = created["id"]
    links = {c["name"]: c["url"] for c in created["chairs"]}
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    pages = {name: new_page(browser, errors) for name in ("A", "B", "watcher")}
    for name, page in pages.items():
        page.goto(base_url + links.get(name, created["watch"]))
        page.wait_for_selector("[data-testid=turn]")
    gone = httpx.post(f"{base_url}/api/games/{gid}/resign", json={"token": tokens["B"]})
    assert gone.status_code == 200, gone.text
    for page in pages.values():
        page.wait_for_selector("[data-testid=end-panel]")
    assert pages["watcher"].locator("[data-testid=rematch]").count() == 0  # spectators: none
    pages["A"].click("[data-testid=rematch]")
    pages["A"].wait_for_selector("[data-testid=rematch-waiting]")
    assert "waiting for B" in pages["A"].inner_text("[data-testid=rematch-waiting]")
    offer = pages["B"].wait_for_selector("[data-testid=rematch-offer]")
    assert "A offers a rematch" in offer.inner_text()
    assert httpx.get(f"{base_url}/api/games").json()["games"][0]["id"] == gid  # none yet
    pages["B"].click("[data-testid=rematch-accept]")
    for page in (pages["A"], pages["B"]):
        page.wait_for_function(f"() => !location.pathname.endsWith('{gid}')")
    # (Playwright's page.url can lag a navigation made from a socket's handler: ask the page.)
    new_a, new_b = (pages[n].evaluate("location.pathname.split('/')[2]") for n in ("A", "B"))
    assert new_a == new_b != gid  # both went to the one rematch
    for name, seat in (("A", "B"), ("B", "A")):  # seats swapped, each by its own link
        pages[name].wait_for_selector("[data-testid=turn]")
        assert pages[name].locator(".chairs .me").inner_text().startswith(seat)
    # The lobby remembers each seat of the rematch for its browser.
    pages["A"].goto(base_url + "/")
    pages["A"].wait_for_selector(f"[data-testid=resume-{new_a}-B]")
    assert pages["A"].locator(f"[data-testid=resume-{new_a}-A]").count() == 0
    assert errors == []


def test_a_declined_rematch_is_said_on_the_askers_page(browser, base_url):
    errors: list[str] = []
    created = online_room(base_url)
    gid = created["id"]
    links = {c["name"]: c["url"] for c in created["chairs"]}
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    pages = {name: new_page(browser, errors) for name in ("A", "B")}
    for name, page in pages.items():
        page.goto(base_url + links[name])
        page.wait_for_selector("[data-testid=turn]")
    httpx.post(f"{base_url}/api/games/{gid}/resign", json={"token": tokens["A"]})
    pages["B"].wait_for_selector("[data-testid=end-panel]")
    pages["B"].click("[data-testid=rematch]")
    pages["A"].click("[data-testid=rematch-decline]")
    pages["B"].wait_for_selector("[data-testid=rematch-declined]")
    assert "A declined" in pages["B"].inner_text("[data-testid=rematch-declined]")
    assert pages["B"].locator("[data-testid=rematch]").is_visible()  # may ask again
    assert errors == []


def test_resign_asks_first_and_the_loser_reads_you_lost(browser, base_url):
    errors: list[str] = []
    created = online_room(base_url)
    links = {c["name"]: c["url"] for c in created["chairs"]}
    page = new_page(browser, errors)
    page.goto(base_url + links["B"])
    page.wait_for_selector("[data-testid=turn]")
    page.click("[data-testid=resign]")
    assert "Give the game up?" in page.inner_text("[data-testid=resign-confirm]")
    page.click("[data-testid=resign-no]")  # kept playing: nothing sent
    assert page.locator("[data-testid=end-panel]").count() == 0
    page.click("[data-testid=resign]")
    page.click("[data-testid=resign-yes]")
    result = page.wait_for_selector("[data-testid=result]").inner_text()
    assert result == "You lost — team A wins: team B resigned"
    # After the end no move is offered (issue 32 item 5): no buttons, no rings, no resign.
    assert page.locator("[data-testid=actions] button").count() == 0
    assert page.locator(".piece.actionable").count() == 0
    assert page.locator("[data-testid=resign]").count() == 0
    shot(page, "game-page-resigned")
    assert errors == []


def test_seat_b_starts_flipped_the_theme_turns_dark_and_keys_play(browser, base_url):
    errors: list[str] = []
    created = online_room(base_url)
    links = {c["name"]: c["url"] for c in created["chairs"]}
    pages = {name: new_page(browser, errors) for name in ("A", "B")}
    for name, page in pages.items():
        page.goto(base_url + links[name])
        page.wait_for_selector("[data-testid=turn]")
    assert pages["A"].get_attribute("[data-testid=flip]", "aria-pressed") is None
    b = pages["B"]
    assert b.get_attribute("[data-testid=flip]", "aria-pressed") == ""  # flipped for seat B
    # Flipped: a1 is drawn at the top right, not the bottom left.
    # (Read by the page: a redraw may replace the node between a locator's steps.)
    box = lambda p, cell: p.evaluate(  # noqa: E731
        "(c) => ({y: document.querySelector(`svg.board .cell[data-cell=${c}]`)"
        ".getBoundingClientRect().y})",
        cell,
    )
    assert (
        box(b, "a1")["y"] < box(b, "a2")["y"]
        and box(pages["A"], "a1")["y"] > box(pages["A"], "a2")["y"]
    )
    b.click("[data-testid=flip]")
    assert box(b, "a1")["y"] > box(b, "a2")["y"]
    b.click("[data-testid=theme]")
    assert b.evaluate("document.documentElement.dataset.theme") == "dark"
    b.reload()
    b.wait_for_selector("[data-testid=turn]")
    assert b.evaluate("document.documentElement.dataset.theme") == "dark"  # kept
    shot(b, "game-page-dark")
    b.click("[data-testid=theme]")
    # Keyboard play on the page of the seat to move (the toss decides which; the first die
    # may wait for both seats' nonces): Tab to the field, arrows to a space, Enter clicks it.
    deadline = time.monotonic() + 20
    while not (movers := [p for p in pages.values() if p.locator(".turn.mine").count()]):
        assert time.monotonic() < deadline, "nobody is offered a move"
        time.sleep(0.2)
    a = movers[0]
    a.locator("svg.board").focus()
    start = a.get_attribute("svg.board", "aria-activedescendant")
    focus = lambda: a.get_attribute("svg.board", "aria-activedescendant")  # noqa: E731
    there, back = "ArrowRight", "ArrowLeft"
    a.keyboard.press(there)
    if focus() == start:  # at the field's edge (as drawn): the other way
        there, back = back, there
        a.keyboard.press(there)
    assert focus() != start
    a.keyboard.press(back)
    assert focus() == start
    ply = a.get_attribute(".play", "data-ply")
    a.keyboard.press("Enter")
    # Clicked: a move made, a piece chosen, or "which one?" asked.
    a.wait_for_function(
        f"() => document.querySelector('.play').dataset.ply !== '{ply}'"
        " || document.querySelector('.play').dataset.selected"
        " || document.querySelector('[data-testid=choices], [data-testid=stack-picker]')"
    )
    assert errors == []


def test_watching_two_bots_is_paced_with_a_speed_control(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(base_url + "/")
    page.select_option("[data-testid=game]", "paper-ultimate")
    page.select_option("[data-testid=mode]", "bots")
    page.click("[data-testid=start]")
    page.wait_for_url("**/play/**")
    speed = page.wait_for_selector("[data-testid=bot-speed]")
    assert speed.input_value() == "normal"
    first = int(page.get_attribute(".play", "data-ply"))
    time.sleep(2.5)
    later = int(page.get_attribute(".play", "data-ply"))
    assert later > first  # it plays on while watched ...
    assert page.locator("[data-testid=end-panel]").count() == 0  # ... and does not rush
    page.select_option("[data-testid=bot-speed]", "max")
    page.wait_for_selector("[data-testid=end-panel]", timeout=60_000)
    assert errors == []


def test_a_move_picked_in_the_list_stays_in_view_and_the_panel_names_it(browser, base_url):
    errors: list[str] = []
    body = {"game": "paper-ultimate", "mode": "bot", "bots": {"A": "easy", "B": "easy"}}
    page = new_page(browser, errors)
    # The dice are the server's, so a game may be short (a stalled pull, PU-R14, ends a point
    # quickly): play games until one lists enough moves for the list to scroll.
    for _ in range(8):
        gid = httpx.post(base_url + "/api/games", json=body).json()["id"]
        page.goto(f"{base_url}/play/{gid}")
        page.wait_for_selector("[data-testid=end-panel]", timeout=60_000)
        try:  # the list may still be filling in on a loaded machine
            page.wait_for_function(
                "() => document.querySelectorAll('[data-testid=move]').length > 60",
                timeout=15_000,
            )
            break
        except PlaywrightTimeout:
            continue
    moves = page.locator("[data-testid=move]")
    total = moves.count()
    assert total > 60
    pick = total // 2
    moves.nth(pick - 1).locator("button").click()
    page.wait_for_selector(f"[data-testid=viewing]:has-text('after move {pick} of')")
    listed = page.locator("[data-testid=move-list]")
    assert listed.evaluate("(l) => l.scrollTop") > 0  # not back at move 1
    current = page.locator("[data-testid=move].current")
    assert current.get_attribute("data-step") == str(pick)
    top = listed.bounding_box()
    row = current.bounding_box()
    assert top["y"] <= row["y"] <= top["y"] + top["height"]  # the chosen move is in view
    ply_shown = page.locator("[data-testid=panel] tr", has_text="Move").first.inner_text()
    assert ply_shown.split()[-1] != str(
        httpx.get(f"{base_url}/api/games/{gid}").json()["game"]["ply"]
    )
    page.keyboard.press("ArrowRight")  # arrow keys step through the list
    page.wait_for_selector(f"[data-testid=viewing]:has-text('after move {pick + 1} of')")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=viewing]", state="detached")
    assert errors == []


def test_at_768_px_the_turn_panel_stays_beside_the_field(browser, base_url):
    created = online_room(base_url, "huck-monster")
    context = browser.new_context(viewport={"width": 768, "height": 1000})
    page = context.new_page()
    page.goto(base_url + created["chairs"][0]["url"])
    page.wait_for_selector("[data-testid=turn]")
    # (Read in one go: the page redraws now and then, replacing the nodes.)
    field, turn = page.evaluate(
        "() => ['svg.board', '[data-testid=turn]'].map((q) => {"
        " const r = document.querySelector(q).getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
    )
    assert turn["x"] >= field["x"] + field["width"] - 1 and turn["y"] < field["y"] + field["height"]
    shot(page, "game-page-768")
    context.close()


def test_at_360_px_midway_spaces_are_big_enough_to_tap(browser, base_url):
    created = httpx.post(base_url + "/api/games", json={"game": "midway"}).json()
    context = browser.new_context(viewport={"width": 360, "height": 780})
    page = context.new_page()
    page.goto(base_url + created["chairs"][0]["url"])
    page.wait_for_selector("svg.board")
    width = page.evaluate(
        "document.querySelector('svg.board .cell[data-cell=g12]').getBoundingClientRect().width"
    )
    assert width >= 36, width  # the field scrolls sideways in its frame instead
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    context.close()


def stacked_position(base_url: str) -> tuple[str, str, set[str]]:
    """A hot-seat Midway game forked where the side to act has two pieces on one hex that can
    each act (an easy-bot exhibition game, seed 5: at step 402 B1 and B10 may each block)."""
    body = {"game": "midway", "preset": "exhibition", "mode": "bot", "seed": 5}
    body["bots"] = {"A": "easy", "B": "easy"}
    gid = httpx.post(base_url + "/api/games", json=body, timeout=120).json()["id"]
    deadline = time.monotonic() + 120
    while httpx.get(f"{base_url}/api/games/{gid}").json()["game"]["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    for step in [402, *range(380, 460)]:  # the first is the one; the rest if the rules moved it
        fork = httpx.post(f"{base_url}/api/games/{gid}/fork", json={"ply": step, "mode": "hotseat"})
        if fork.status_code != 201:
            continue
        made = fork.json()
        chair = made["chairs"][0]
        state = httpx.get(
            f"{base_url}/api/games/{made['id']}", headers={"seat-token": chair["token"]}
        ).json()
        at = {p["id"]: p["cell"] for p in state["board"]["pieces"]}
        by_cell: dict[str, set[str]] = {}
        for legal in state["legal"]:
            if legal["piece"]:
                by_cell.setdefault(at[legal["piece"]], set()).add(legal["piece"])
        for cell, pieces in by_cell.items():
            if len(pieces) > 1:
                return chair["url"], cell, pieces
    raise AssertionError("no stack of acting pieces near step 402")


def test_a_stack_asks_which_one_and_each_piece_is_drawn(browser, base_url):
    errors: list[str] = []
    url, cell, pieces = stacked_position(base_url)
    page = new_page(browser, errors)
    page.goto(base_url + url)
    page.wait_for_selector("[data-testid=turn].mine")
    # Fanned out, with a count badge: each piece of the stack shows.
    assert page.locator(f"[data-stack={cell}]").count() == 1
    # (Read in one go: the page redraws now and then, replacing the nodes.)
    centres = page.evaluate(
        "(ids) => ids.map((id) => { const r = document.querySelector("
        "`[data-piece='${id}'] circle.body`).getBoundingClientRect();"
        " return [Math.round(r.x), Math.round(r.y)].join(','); })",
        sorted(pieces),
    )
    assert len(set(centres)) == len(pieces), centres
    page.locator(f"svg.board .cell[data-cell={cell}]").click(force=True)
    picker = page.wait_for_selector("[data-testid=stack-picker]")
    assert f"Which one at {cell}?" in picker.inner_text()
    offered = {
        b.get_attribute("data-piece") for b in picker.query_selector_all("button[data-piece]")
    }
    assert offered == pieces
    shot(page, "midway-stack-picker")
    first = sorted(pieces)[0]
    ply = page.get_attribute(".play", "data-ply")
    page.click(f"[data-testid=stack-picker] button[data-piece={first}]")
    # Picked: its action is made (a lone one) or it is selected, or its choices are listed.
    page.wait_for_function(
        "([ply, piece]) => { const play = document.querySelector('.play');"
        " return play.dataset.ply !== ply || play.dataset.selected === piece"
        " || document.querySelector('[data-testid=choices]'); }",
        arg=[ply, first],
    )
    assert errors == []


def test_a_point_gets_a_banner_and_its_position_is_held_before_the_line_up(browser, base_url):
    errors: list[str] = []
    body = {"game": "paper-ultimate", "preset": "small", "settings": ["points_to_win=3"]}
    body |= {"mode": "bot", "bots": {"A": "easy", "B": "easy"}, "speed": "fast", "seed": 2}
    gid = httpx.post(base_url + "/api/games", json=body).json()["id"]
    page = new_page(browser, errors)
    page.goto(f"{base_url}/play/{gid}")
    banner = page.wait_for_selector("[data-testid=banner]", timeout=90_000)
    text = banner.inner_text()
    assert text in ("Point!", "Turnover"), text
    if text != "Point!":
        page.wait_for_selector("[data-testid=banner]:has-text('Point!')", timeout=90_000)
    # Held: the field shows the position at the scoring move (the replay's), though the
    # server has already lined the next point up.
    moves = httpx.get(f"{base_url}/api/games/{gid}/moves").json()["moves"]
    step = max(i for i, m in enumerate(moves, 1) if m["scored_at"] is not None)
    # (The scoring move also lines the next point up: at its own step the field is empty.)
    before = httpx.get(f"{base_url}/api/games/{gid}/replay?step={step - 1}").json()["board"]
    cells = sorted(p["cell"] for p in before["pieces"])
    assert len(cells) == 8  # both teams, where the point was scored from
    page.wait_for_function(
        "(cells) => JSON.stringify([...document.querySelectorAll('svg.board .piece')]"
        ".map((p) => p.dataset.at).sort()) === JSON.stringify(cells)",
        arg=cells,
        timeout=3000,
    )
    shot(page, "paper-ultimate-point-banner")
    page.select_option("[data-testid=bot-speed]", "max")
    assert errors == []
