"""The board drawing each game gives a UI (core.board) agrees with the game's own view, for
every preset, at every step of random play: pieces where the view puts players, the ball where
the view puts it, marks on real cells, and nothing a seat may not see."""

from __future__ import annotations

import json
import re

import pytest

import monsterball.games  # noqa: F401
from monsterball.bots.protocol import RandomBot
from monsterball.core.dice import SeededSampler
from monsterball.games import all_games

CELL = re.compile(r"^([a-z])(\d{1,2})$")
CASES = [(spec.id, preset) for spec in all_games() for preset in spec.options_type.PRESETS]


def on_board(board, name: str) -> bool:
    match = CELL.match(name)
    if not match:
        return False
    col, row = ord(match[1]) - 97, int(match[2]) - 1
    return 0 <= col < board["cols"] and 0 <= row < board["rows"]


def view_cells(view) -> dict[str, str]:
    players = view["players"]
    out = {}
    for name, where in players.items():
        cell = where["hex"] if isinstance(where, dict) else where
        if cell is not None:
            out[name] = cell
    return out


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_board_matches_the_view_through_random_play(game, preset):
    from monsterball.games import get_game

    spec = get_game(game)
    state = spec.new_game(spec.options(preset))
    sampler, bot = SeededSampler(3), RandomBot(3)
    for step in range(400):
        if state.is_terminal():
            break
        if step % 7 == 0:
            for seat in (0, 1, None):
                board = state.board(seat)
                view = state.view(seat)
                json.dumps(board)  # a UI receives it as JSON
                assert {p["id"]: p["cell"] for p in board["pieces"]} == view_cells(view)
                assert all(on_board(board, p["cell"]) for p in board["pieces"])
                assert all(on_board(board, m["cell"]) for m in board["marks"])
                if board["ball"] is not None:
                    assert on_board(board, board["ball"]["cell"])
                assert {z["team"] for z in board["zones"]} == {"A", "B"}
                assert set(board["teams"].values()) == {"north", "south"}
        actor = state.current_player()
        action = sampler.choose(state.chance_outcomes()) if actor < 0 else bot.choose(state, actor)
        state.apply(action)


def test_huck_monster_board_shows_stealth_spaces_cones_and_the_line():
    from monsterball.games import get_game

    spec = get_game("huck-monster")
    midnight = spec.new_game(spec.options("midnight-pickup")).board(None)
    assert sum(m["kind"] == "stealth" for m in midnight["marks"]) == 8  # HM-R40: 2 rows of 4
    assert midnight["grid"] == "hex" and midnight["lines"] == [2, 14]
    square = spec.new_game(spec.options("square-field")).board(None)
    assert square["grid"] == "square"


def test_HM_R50_the_panel_hides_the_count_under_the_contested_count():
    from monsterball.games import get_game

    spec = get_game("huck-monster")
    for preset, hidden in (("pro-continue", True), ("pro", False)):
        state = spec.new_game(spec.options(preset))
        sampler, bot = SeededSampler(1), RandomBot(1)
        while not state.view(None)["action"]:
            actor = state.current_player()
            pick = (
                sampler.choose(state.chance_outcomes()) if actor < 0 else bot.choose(state, actor)
            )
            state.apply(pick)
        play = {row[0]: row[1] for row in state.board(None)["panel"]}["Play"]
        assert ("from memory" in play) == hidden
