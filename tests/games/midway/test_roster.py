"""The draft panel (spec.views.roster): every monster type on the default chart carries its
"good at" words from the game's data/lessons.json, so a newcomer drafting sees what each does."""

from __future__ import annotations

from monsterball.games import get_game
from monsterball.games.midway.chart import default_chart
from monsterball.games.midway.views.roster import good_at


def test_every_chart_type_has_its_good_at_words() -> None:
    words = good_at()
    missing = [name for name in default_chart().names if not words.get(name)]
    assert missing == []


def test_the_panel_of_a_new_game_shows_those_words() -> None:
    spec = get_game("midway")
    state = spec.new_game()
    assert spec.views.roster is not None
    panel = spec.views.roster(state)
    assert panel is not None
    assert panel["drafting"] == "A"
    assert all(row["good_at"] for row in panel["types"])
