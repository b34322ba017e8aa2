"""The teaching material (issue 33, monsterball.lessons): every decision has a hint, every
lesson replays against the engine, and the guides are written for players."""

from __future__ import annotations

import random
import re

import pytest
from fastapi.testclient import TestClient

from monsterball.core.game import CHANCE
from monsterball.games import get_game
from monsterball.lessons import PACKAGES, hint_for, learning_data
from web_helpers import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAMES = tuple(PACKAGES)


def decisions_seen(game: str, preset: str | None, seed: int, plies: int) -> set[str]:
    spec = get_game(game)
    state = spec.new_game(spec.options(preset))
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(plies):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            seen.update(a.notation() for a in legal)
        else:
            seen.update(a.notation() for a in legal[:400])
        state.apply_unchecked(rng.choice(legal))
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_met_in_play_has_a_hint(game):
    spec = get_game(game)
    seen: set[str] = set()
    for n, preset in enumerate((None, *spec.options_type.PRESETS)):
        seen |= decisions_seen(game, preset, seed=n, plies=1500)
    missing = sorted(a for a in seen if hint_for(game, a) is None)
    assert not missing, f"{game}: no hint for {missing[:10]}"


@pytest.mark.parametrize("game", GAMES)
def test_hint_patterns_are_plain_enough_for_javascript(game):
    # The browser compiles the same patterns (hints.js): no Python-only syntax.
    for pattern, text in learning_data(game)["hints"]:
        assert not re.search(r"\(\?P|\(\?<[!=]?[a-z]|\\A|\\Z", pattern), pattern
        assert text and "`" not in text and "--" not in text


def test_hint_for_answers_none_for_an_unknown_action():
    assert hint_for("midway", "xyzzy") is None
    assert "once per Up Call" in (hint_for("huck-monster", "strategy") or "")


def test_hints_route_serves_every_game(tmp_path):
    with TestClient(app_at(tmp_path / "g.db")) as client:
        data = client.get("/api/hints").json()
    assert set(data) == set(GAMES)
    assert all(len(pairs) > 5 for pairs in data.values())
