"""Terminal play: completion, the colour board, the hot-seat hand-over and secrets."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from monsterball.bots.registry import make_bot
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, GameState
from monsterball.games import get_game
from monsterball.terminal.line_game import LineEditor, TerminalGame
from tests.helpers.midway import SPEC, caster_carrying_for_b, top


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


def midway_formation() -> GameState:
    """A Midway game at its first formation (MW-SET-*): over a thousand 'A3@g9' actions."""
    spec = get_game("midway")
    state = spec.new_game(spec.options())
    dice, bot = SeededSampler(1), make_bot("random", 1)
    while len(state.legal_actions()) < 1000:
        actor = state.current_player()
        if actor == CHANCE:
            state.apply(dice.choose(state.chance_outcomes()))
        else:
            state.apply(bot.choose(state, actor), seat=actor)
    return state


def test_question_mark_summarises_a_midway_formation(capsys: pytest.CaptureFixture[str]) -> None:
    """'?' in a formation: one entry per player, not 1,243 'A1@a1 (1)' entries; '? A4' is
    the player A4's placements, '? a4' only those onto the cell a4."""
    state = midway_formation()
    spec = state.spec
    lines = iter(["?", "? A4", "? a4", "? A99", "quit"])
    game = TerminalGame(spec, state, {}, SeededSampler(1), None, read=lambda _: next(lines))
    capsys.readouterr()
    game.run()
    out = capsys.readouterr().out
    summary = out.split("legal actions; by piece")[1].split("legal actions with A4")[0]
    assert len(summary.splitlines()) < 8 and "A1 (" in summary and "A1@a1" not in summary
    with_a4 = out.split("legal actions with A4:")[1].split("legal actions with a4:")[0]
    with_cell = out.split("legal actions with a4:")[1].split("No legal action")[0]
    assert "A4@" in with_a4 and all(n.startswith("A4@") for n in _notations(with_a4))
    assert _notations(with_cell) and all(n.endswith("@a4") for n in _notations(with_cell))


def _notations(text: str) -> list[str]:
    return [n.strip() for n in text.replace("\n", " ").split(",") if "@" in n]
