"""The lobby for a newcomer (issue 33's usability pass, Debian's Chromium): a "New here?" line
leads to the chosen game's lessons and guide; "Coaches" (shown only where a game has a choice)
and "Dice seed" say in plain words what they do; the preset descriptions carry no jargon."""

from __future__ import annotations

import pytest

from tests.helpers.browser import new_page

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
pytest.importorskip("playwright.sync_api")
JARGON = ("bot matches", "movement phases", "for teaching and tests", "--opt", "`")


def test_the_lobby_points_newcomers_to_the_lessons_and_explains_its_fields(browser, base_url):
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(base_url + "/")
    for game in ("huck-monster", "paper-ultimate", "midway"):
        page.select_option("[data-testid=game]", game)
        lessons = page.locator("[data-testid=new-here-lessons]")
        assert lessons.get_attribute("href") == f"/learn/{game}"
        assert page.get_attribute("[data-testid=new-here-guide]", "href") == f"/guide/{game}"
        assert page.inner_text("[data-testid=new-here]").startswith("New here?")
        # Only Huck + Monster has a choice of coaches (2 or 4): elsewhere the field is hidden.
        assert page.is_visible("[data-testid=coaches-fields]") is (game == "huck-monster")
        for preset in page.locator("dl.presets dd").all_text_contents():
            assert not any(word in preset for word in JARGON), preset
    page.select_option("[data-testid=game]", "huck-monster")
    assert "two coaches share each team" in page.inner_text("[data-testid=coaches-hint]")
    assert "fair random dice" in page.inner_text("[data-testid=seed-hint]")
    page.select_option("[data-testid=mode]", "online")
    assert not page.is_visible("[data-testid=seed-hint]")  # online rooms draw a secret seed
    lessons.click()
    page.wait_for_url("**/learn/huck-monster")
    assert not errors, errors
