"""Issue 35, in a real terminal (tmux): what a coach can see, recall or scroll back to in a
hot-seat game, and how ``play`` ends on Ctrl-C."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE
from tests.helpers import ROOT
from tests.helpers.midway import SPEC, caster_carrying_for_b, top
from tests.helpers.tty import Pane

pytestmark = pytest.mark.tty

SECRET_GAME = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from rich.console import Console
from tests.helpers.midway import SPEC, caster_carrying_for_b
from monsterball.terminal.line_game import TerminalGame
from monsterball.core.dice import SeededSampler

TerminalGame(SPEC, caster_carrying_for_b(), {{}}, SeededSampler(1), None, Console()).run()
"""


def coach_b_lines() -> tuple[list[str], str]:
    """What coach B types in the driver's game (MW-MAGIC-2, ruling MW-R10): cast mirror
    image, place the images, pick the real counter in secret, end the phase; and the real
    counter's hex. Played here on the same dice, as the terminal plays forced actions."""
    state = caster_carrying_for_b()
    dice = SeededSampler(1)
    lines = []
    while state.current_player() != 0:
        if state.current_player() == CHANCE:
            state.apply(dice.choose(state.chance_outcomes()))
            continue
        legal = state.legal_actions()
        options = [a.notation() for a in legal]
        if "cast B1 mirror" in options:
            line = "cast B1 mirror"
        elif top(state) in ("PlaceImage", "PickReal"):
            line = options[-1]
        else:
            line = "end"
        if len(legal) > 1:
            lines.append(line)
        state.apply(SPEC.parse_action(line), seat=1)
    real = next(line for line in lines if line.startswith("real "))
    return lines, real


def test_hot_seat_secrets_stay_out_of_history_file_and_scrollback(tmp_path: Path) -> None:
    lines, real = coach_b_lines()
    data = tmp_path / "data"
    (data / "monsterball").mkdir(parents=True)
    # A line from an earlier game: the up arrow reaches it, past every line of this one.
    (data / "monsterball" / "play-history").write_text("help\n", encoding="utf-8")
    (tmp_path / "game.py").write_text(SECRET_GAME, encoding="utf-8")
    with Pane(
        [sys.executable, str(tmp_path / "game.py")], cwd=tmp_path, env={"XDG_DATA_HOME": str(data)}
    ) as pane:
        for line in lines:
            pane.wait_for(lambda s: s.rstrip().endswith("B>"))
            pane.type(line)
        pane.wait_for("press Enter when ready")
        pane.send("Enter")
        pane.wait_for(lambda s: s.rstrip().endswith("A>"))
        # Nothing B typed may be scrolled back to once the screen is handed over.
        assert real not in pane.everything()
        # Coach A's up arrow: every earlier line A may recall, none of B's secret ones.
        recalled = []
        for _ in range(len(lines) + 2):
            before = pane.screen().rstrip().splitlines()[-1]
            pane.send("Up")
            try:  # the line changes, unless the history has nothing further back
                screen = pane.wait_for(lambda s, b=before: s.rstrip().splitlines()[-1] != b, 2)
            except AssertionError:
                screen = pane.screen()
            recalled.append(screen.rstrip().splitlines()[-1])
        assert any(row.endswith("A> help") for row in recalled), recalled  # Up works
        assert not any("real " in row or "image " in row for row in recalled), recalled
        # Ctrl-R, readline's search through the history, finds nothing either.
        pane.send("C-u")
        pane.send("C-r")
        pane.send("real", literal=True)
        screen = pane.wait_for("real")
        assert real not in screen, screen
        pane.send("C-g")
        pane.send("C-u")
        pane.type("quit")
        assert pane.exit_code() == 0
    history = (data / "monsterball" / "play-history").read_text(encoding="utf-8")
    assert "real " not in history and "image " not in history


def test_play_ctrl_c_exits_130_and_keeps_the_record(tmp_path: Path) -> None:
    monsterball = Path(sys.executable).with_name("monsterball")
    save = tmp_path / "g.jsonl"
    with Pane(
        [str(monsterball), "play", "pu", "--seed", "4", "--save", str(save)],
        cwd=tmp_path,
        env={"XDG_DATA_HOME": str(tmp_path / "data")},
    ) as pane:
        pane.wait_for(lambda s: s.rstrip().endswith("A>"))
        pane.type("place a1")
        pane.wait_for("A: place a1")
        pane.send("C-c")
        pane.wait_for("Interrupted")
        assert pane.exit_code() == 130
        screen = pane.screen()
    assert "Record saved to" in screen and "Traceback" not in screen
    assert "place a1" in save.read_text(encoding="utf-8")
