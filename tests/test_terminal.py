"""Terminal play: completion, the colour board, the hot-seat hand-over and secrets."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from monsterball.cli.terminal import LineEditor, TerminalGame
from monsterball.core.dice import SeededSampler
from monsterball.games import get_game
from mw_scenarios import SPEC, caster_carrying_for_b, top


def test_completion_offers_the_legal_actions_that_start_with_the_text() -> None:
    editor = LineEditor()
    editor.words = ["A1-e2", "A1-f2", "end", "pass A3"]
    assert [editor.complete("A1", i) for i in range(3)] == ["A1-e2", "A1-f2", None]
    # After a ';' readline hands over the text with its leading space: it is kept.
    assert editor.complete(" pa", 0) == " pass A3"
    assert editor.complete("zz", 0) is None


def test_the_board_has_team_colours_and_marks_the_last_move() -> None:
    spec = get_game("pu")
    state = spec.new_game(spec.options("small", first_receiver="A"))
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system="standard", width=100)
    game = TerminalGame(spec, state, {}, SeededSampler(1), None, console)
    for text in ("place a1", "place b1"):
        action = spec.parse_action(text)
        state.apply(action, seat=0)
    game._moved(spec.parse_action("A1-a3"))  # as if A1 had just moved
    game.draw(0)
    board = out.getvalue()
    assert "\x1b[1;31m" in board  # team A in bold red
    assert "\x1b[1;7;31mA1" in board  # the last move's piece in reverse video
    assert game.last_pieces == {"A1"}


def test_hot_seat_hands_over_and_never_echoes_a_secret(capsys: pytest.CaptureFixture[str]) -> None:
    """Two coaches at one terminal in Monsters of the Midway: B casts mirror image and picks
    the real counter in secret; the other coach is handed the terminal and never sees which
    counter is real, not even in B's own echo."""
    state = caster_carrying_for_b()

    def coach(prompt: str) -> str:
        if prompt.startswith("A"):
            return "quit"
        options = [a.notation() for a in state.legal_actions()]
        if "cast B1 mirror" in options:
            return "cast B1 mirror"
        if top(state) in ("PlaceImage", "PickReal"):
            return options[-1]
        return "end"

    game = TerminalGame(SPEC, state, {}, SeededSampler(1), None, read=coach)
    capsys.readouterr()
    assert game.run() is False
    out = capsys.readouterr().out
    real_hex = state.field.name(state.pos[10])
    assert "Hand the terminal to coach A" in out
    assert f"real {real_hex}" not in out
    assert "chosen in secret" in out
