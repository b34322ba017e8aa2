"""Real-browser test of meeting a stranger (issue 20): two players in two browser contexts
sign up, one posts a challenge, the other accepts it from the lobby, they play a few moves and
chat, and markup in a chat message is drawn as text (no element is made from it)."""

from __future__ import annotations

import random

import pytest

from tests.helpers.browser import new_page, play_one_turn, shot

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")
PASSWORD = "rainy day rally"
# Would set window.pwned if the page ever parsed a message as HTML.
MARKUP = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>bold</b>'


def sign_up(page, base_url: str, name: str) -> None:
    page.goto(base_url + "/")
    page.fill("[data-testid=account-name]", name)
    page.fill("[data-testid=account-password]", PASSWORD)
    page.click("[data-testid=signup]")
    page.wait_for_selector("[data-testid=me]")
    assert page.inner_text("[data-testid=me]") == name


def test_two_strangers_sign_up_challenge_accept_play_and_chat(browser, base_url):
    errors: list[str] = []
    ann, ben = new_page(browser, errors), new_page(browser, errors)
    ann.goto(base_url + "/")
    ann.wait_for_selector("[data-testid=account-form]")
    ann.wait_for_selector("[data-testid=no-challenges]")
    shot(ann, "lobby-signed-out")
    sign_up(ann, base_url, "Ann")
    sign_up(ben, base_url, "Ben")
    ann.select_option("[data-testid=challenge-game]", "paper-ultimate")
    ann.select_option("[data-testid=challenge-clock]", "10+5")
    ann.select_option("[data-testid=challenge-seat]", "A")
    ann.click("[data-testid=post-challenge]")
    ann.wait_for_selector("[data-testid=challenge] button[data-testid^=withdraw-]")
    # Ben's lobby hears of it over its socket, without reloading.
    # A locator, not a handle: the lobby redraws the list whenever its socket hears news.
    accept = ben.locator("[data-testid=challenge] button[data-testid^=accept-]")
    accept.wait_for()
    assert "Ann" in ben.inner_text("[data-testid=challenge]")
    assert "10 min + 5 s" in ben.inner_text("[data-testid=challenge]")
    shot(ann, "lobby-challenge-posted")
    accept.click()
    # Both go to the game: Ben by the answer, Ann told by the lobby's socket.
    ben.wait_for_url("**/play/**", timeout=15_000)
    ann.wait_for_url("**/play/**", timeout=15_000)
    assert ann.url == ben.url and "#token" not in ann.url  # seated by the account, no link
    for page in (ann, ben):
        page.wait_for_selector("[data-testid=board]")
        page.wait_for_selector("[data-testid=turn]")
    assert ann.locator(".chairs .me").inner_text().startswith("A")
    assert ben.locator(".chairs .me").inner_text().startswith("B")
    for page in (ann, ben):  # each chair shows who sits there
        assert page.inner_text("[data-testid=player-A]") == "Ann"
        assert page.inner_text("[data-testid=player-B]") == "Ben"
    pages = {"A": ann, "B": ben}
    rng = random.Random(5)
    moved = set()
    for _ in range(6):
        turn = play_one_turn(pages, rng)
        if turn is not None:
            moved.add(turn[0])
    assert moved == {"A", "B"}
    # Chat, with markup that must stay text.
    ann.fill("[data-testid=game-chat-input]", MARKUP)
    ann.click("[data-testid=game-chat-send]")
    line = ben.locator("[data-testid=game-chat-log] [data-testid=chat-text]").first
    line.wait_for()
    assert line.inner_text() == MARKUP
    ben.fill("[data-testid=game-chat-input]", "good game so far")
    ben.press("[data-testid=game-chat-input]", "Enter")
    ann.wait_for_selector("[data-testid=chat-text]:has-text('good game so far')")
    for page in (ann, ben):
        log = page.locator("[data-testid=game-chat-log]")
        assert log.locator("img, script, b").count() == 0  # nothing made from the markup
        assert page.evaluate("() => window.pwned") is None
        assert log.locator("[data-testid=chat-text]").all_inner_texts() == [
            MARKUP,
            "good game so far",
        ]
    shot(ben, "game-with-chat")
    # Ann's player page lists the game; the rating history has its place.
    game_id = ann.url.split("/play/")[1]
    ann.click("[data-testid=me]")
    ann.wait_for_selector(f"[data-testid=player-game-{game_id}]")
    assert "Ben" in ann.inner_text(f"[data-testid=player-game-{game_id}]")
    assert ann.locator("[data-testid=rating-history]").count() == 1
    shot(ann, "player-page")
    # And the lobby offers the game under "your games" (resumed without a link).
    ann.goto(base_url + "/")
    assert ann.get_attribute(f"[data-testid=your-game-{game_id}]", "href") == f"/play/{game_id}"
    shot(ann, "lobby-logged-in")
    assert errors == []
