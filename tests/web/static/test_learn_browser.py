"""Real-browser tests of the teaching pages (issue 33): every lesson of every game completed by
clicking only what the page highlights, a wrong move explained with the engine's reason, the
last lesson's real game against the easy bot, the guides, and hints.js."""

from __future__ import annotations

import re

import pytest

from tests.helpers.browser import new_page, shot

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")

GAMES = ("paper-ultimate", "huck-monster", "midway")
FIRST_GAME = {"paper-ultimate": "quick", "huck-monster": "scrimmage", "midway": "short"}
SHOT_AT = {"paper-ultimate": 3, "huck-monster": 6, "midway": 9}  # a throw, an aim, a pass
FORBIDDEN = re.compile(r"src/|tests/|\.\./shared|--opt|`")


def follow_highlight(page) -> None:
    """One step, as a newcomer does it: the highlighted button, or the ringed piece and then
    the green space, or the yellow space."""
    if page.locator("button[data-highlight=true]").count():
        page.click("button[data-highlight=true]")
        return
    if page.locator("svg .piece.actionable").count():
        page.click("svg .piece.actionable")
        if page.locator("svg .cell.target").count():
            # The space may hold a piece (a block, a tackle): the click lands on whatever is
            # drawn there, as a player's would.
            page.click("svg .cell.target", force=True)
        elif page.locator("button[data-highlight=true]").count():
            page.click("button[data-highlight=true]")  # the piece's choices, one highlighted
        return
    page.click("svg .cell.cell-target", force=True)


@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_by_following_the_highlights_then_a_real_game(browser, base_url, game):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{base_url}/learn/{game}")
    page.wait_for_selector("[data-testid=lessons]")
    lessons = page.locator("[data-testid=lesson-list] li").count()
    steps = 0
    while not page.locator("[data-testid=play-bot]").count():
        if page.locator("[data-testid=next-lesson]").count():
            page.click("[data-testid=next-lesson]")
            continue
        assert page.locator("[data-testid=lesson-say]").inner_text().startswith("Step ")
        if steps == SHOT_AT[game]:
            shot(page, f"lesson-{game}")
            if game == "huck-monster":  # aiming: the throw's catch chance, and what it omits
                odds = page.inner_text("[data-testid=lesson-odds]")
                assert "74.1%" in odds and "strategy die is not counted" in odds
        follow_highlight(page)
        page.wait_for_selector("[data-testid=lesson-done]")
        assert not page.locator("[data-testid=lesson-error]").count()
        page.click("[data-testid=lesson-next]")
        steps += 1
        assert steps < 40, "the lessons do not end"
    assert steps >= lessons
    # Progress is kept: every lesson is ticked, and the browser remembers it.
    assert page.locator("[data-testid=lesson-list] button[data-done=true]").count() == lessons
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('monsterball-learn'))")
    assert len(kept[game]) == lessons and set(kept[game].values()) == {"done"}
    page.click("[data-testid=play-bot]")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("[data-testid=turn]")
    assert "easy" in page.inner_text(".chairs")
    # A short first game (the game's first_game preset), so a newcomer finishes one soon.
    assert f"· {FIRST_GAME[game]} · bot" in page.inner_text("#where")
    assert errors == []


def test_a_wrong_move_is_refused_with_the_engines_reason(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{base_url}/learn/paper-ultimate?lesson=run")
    page.wait_for_selector("[data-testid=lesson-say]")
    page.click("svg .piece.actionable")  # A2, as the page asks ...
    page.click("svg [data-cell=c10]", force=True)  # ... but five spaces, not four
    error = page.wait_for_selector("[data-testid=lesson-error]")
    assert "c10 is more than 4 fields from A2" in error.inner_text()
    assert page.get_attribute("[data-testid=lessons]", "data-step") == "0"  # not moved on
    shot(page, "learn-wrong-move")
    follow_highlight(page)  # and then the right one
    page.wait_for_selector("[data-testid=lesson-done]")
    assert errors == []


def test_a_side_switch_is_announced_and_the_set_up_step_hinted(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{base_url}/learn/paper-ultimate?lesson=run")
    side = page.wait_for_selector("[data-testid=lesson-side]")
    assert side.get_attribute("data-switched") == "false"
    assert "You play team A (blue), the offence." in side.inner_text()
    page.goto(f"{base_url}/learn/paper-ultimate?lesson=mark")  # A in the lesson before
    side = page.wait_for_selector("[data-testid=lesson-side]")
    assert side.get_attribute("data-switched") == "true"
    assert "Side switch: now you play team B (orange), the defence" in side.inner_text()
    shot(page, "learn-side-switch")
    page.goto(f"{base_url}/learn/midway?lesson=kickoff")
    hint = page.wait_for_selector("[data-testid=step-hint]")
    assert "Click g4 and A2 stands there" in hint.inner_text() and "auto" in hint.inner_text()
    shot(page, "learn-set-up-hint")
    assert errors == []


@pytest.mark.parametrize("game", GAMES)
def test_guide_reads_for_players_with_a_board_per_mechanic(browser, base_url, game):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{base_url}/guide/{game}")
    page.wait_for_selector("[data-testid=guide]")
    text = page.inner_text("[data-testid=guide]")
    assert not FORBIDDEN.search(text), FORBIDDEN.search(text)
    mechanics = page.locator("[data-testid=guide-section][data-kind=mechanic]")
    assert mechanics.count() >= 3
    for i in range(mechanics.count()):
        assert mechanics.nth(i).locator("figure svg[data-testid=board]").count() >= 1
    assert page.get_attribute("[data-testid=rules-detail]", "href") == f"/rules/{game}"
    shot(page, f"guide-{game}")
    page.click("[data-testid=start-lessons]")
    page.wait_for_selector("[data-testid=lessons]")
    assert errors == []


def test_hints_module_answers_for_decisions(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{base_url}/")
    answer = page.evaluate(
        """async () => {
          const m = await import("/static/hints.js");
          await m.hintsReady();
          return [m.hintFor("huck-monster", "strategy"), m.hintFor("midway", "north"),
                  m.hintFor("paper-ultimate", "turnover"), m.hintFor("midway", "xyzzy")];
        }"""
    )
    assert "once per Up Call" in answer[0]
    assert "wind" in answer[1]
    assert "no teammate is free" in answer[2]
    assert answer[3] is None
    assert errors == []


def test_game_page_explains_its_decisions_and_the_odds_limits(browser, base_url):
    import random

    import httpx

    errors: list[str] = []
    page = new_page(browser, errors)
    # Midway's draft: each button's hint, points left and what each type is good at.
    created = httpx.post(base_url + "/api/games", json={"game": "midway"}).json()
    page.goto(base_url + created["chairs"][0]["url"])
    page.wait_for_selector("[data-testid=draft] [data-testid=points-left]")
    page.wait_for_selector("[data-testid=hints]")
    assert "draft best: Let the computer pick" in page.inner_text("[data-testid=hints]")
    assert page.get_attribute("button[data-action='draft best']", "title").startswith("Let the")
    draft = page.inner_text("[data-testid=draft]")
    assert "good at" in draft and "blocks like a giant" in draft
    assert "--opt" not in page.inner_text("main")
    # Huck + Monster while aiming: the figures say what they leave out, beside them.
    created = httpx.post(base_url + "/api/games", json={"game": "huck-monster", "seed": 5}).json()
    game_id, token = created["id"], created["chairs"][0]["token"]
    rng = random.Random(5)
    state = httpx.get(f"{base_url}/api/games/{game_id}?token={token}").json()
    for _ in range(1500):
        if any(a["a"].startswith("throw ") for a in state["legal"]):
            break
        move = rng.choice(state["legal"])["a"]
        state = httpx.post(
            f"{base_url}/api/games/{game_id}/act",
            json={"token": token, "action": move, "ply": state["game"]["ply"]},
        ).json()
    else:
        pytest.fail("no throw was aimed in 1500 moves")
    page.goto(f"{base_url}/play/{game_id}#token={token}")
    caveat = page.wait_for_selector("[data-testid=odds-caveat]")
    assert "the defense's strategy die is not counted" in caveat.inner_text()
    assert page.locator(".odds-list li sup").count() >= 1
    # The move list tells in words what the engine's events do not (a roll asked for).
    said = page.locator("[data-testid=move-list] .said").all_inner_texts()
    assert any(t.startswith("rolls the team dice") for t in said), said
    shot(page, "odds-caveat")
    # Paper Ultimate at a throw: the guide line says what clicking a ringed teammate does.
    created = httpx.post(base_url + "/api/games", json={"game": "paper-ultimate", "seed": 2}).json()
    game_id, token = created["id"], created["chairs"][0]["token"]
    state = httpx.get(f"{base_url}/api/games/{game_id}?token={token}").json()
    for _ in range(3000):
        if any(a["a"].startswith("pass ") for a in state["legal"]):
            break
        legal = [a["a"] for a in state["legal"]]
        move = "end" if "end" in legal and rng.random() < 0.8 else rng.choice(legal)
        state = httpx.post(
            f"{base_url}/api/games/{game_id}/act",
            json={"token": token, "action": move, "ply": state["game"]["ply"]},
        ).json()
    else:
        pytest.fail("no throw in 3000 moves")
    page.goto(f"{base_url}/play/{game_id}#token={token}")
    guide = page.wait_for_selector("[data-testid=guide]")
    assert "Click a teammate with a yellow ring to throw him the disc" in guide.inner_text()
    assert errors == []
