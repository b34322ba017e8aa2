"""``monsterball tui``: a Textual app that draws any game from the shared ``board(seat)``
format (core/board.py, the data the web client draws) and plays it with keys or the mouse.

Select a piece, then a target cell (arrow keys and Enter, or two clicks): the move list
narrows to the legal actions naming both, and one match is played at once. Any action can
also be picked from the move list (decisions such as ``roll`` or ``end``). Dice and bots
play themselves; the event panel says what happened. With a record, the app is a replay
stepper (left/right or p/n, home/end).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Click
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Header, Log, OptionList, Static
from textual.widgets.option_list import Option

from monsterball.bots.protocol import Bot
from monsterball.core.actions import Action
from monsterball.core.board import Board
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import MonsterballError
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.geometry import COLUMN_LETTERS
from monsterball.core.record import Recorder
from monsterball.core.seating import sees_differently

TEAM_STYLES = ("bold white on dark_red", "bold white on blue", "bold white on green")
CELL = 4  # characters per cell; hex rows shift by half of it
LEGEND = (
    "A1, B1: the teams' players",
    "yellow, underlined: has the ball",
    "(): the ball or disc, loose",
    "shaded rows: the end zones",
    "italic: the last move",
)


def cell_name(col: int, row: int) -> str:
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def _tokens(notation: str) -> set[str]:
    return {t.lower() for t in re.split(r"[\s\-=,]+", notation) if t}


class BoardView(Widget):
    """The field from a :class:`Board` drawing: north at the top, one text cell per space,
    odd rows shifted half a cell on a hex field (odd-r offset, as in core/geometry.py)."""

    can_focus = True

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.drawing: Board | None = None
        self.text: str | None = None  # shown instead of a field (show_text)
        self.cursor = (0, 0)
        self.selected: str | None = None  # a piece id
        self.targets: set[str] = set()  # cells the selected piece can go to
        self.last: set[str] = set()  # cells and pieces named by the last action

    def show(self, drawing: Board) -> None:
        self.drawing = drawing
        self.text = None
        cols, rows = drawing["cols"], drawing["rows"]
        self.cursor = (min(self.cursor[0], cols - 1), min(self.cursor[1], rows - 1))
        legend = max(len(line) for line in LEGEND)
        self.styles.width = max(cols * CELL + CELL // 2 + 3, legend) + 4  # labels, border
        self.styles.height = rows + 3 + len(LEGEND)  # the letters, the border, the legend
        self.refresh()

    def show_nothing(self) -> None:
        self.drawing = None
        self.text = None
        self.refresh()

    def show_text(self, text: str) -> None:
        """A page of text instead of the field (the Midway draft's chart and points)."""
        self.drawing = None
        self.text = text
        lines = text.splitlines() or [""]
        self.styles.width = max(len(line) for line in lines) + 4
        self.styles.height = len(lines) + 2
        self.refresh()

    def _offset(self, row: int) -> int:
        return CELL // 2 if self.drawing and self.drawing["grid"] == "hex" and row % 2 else 0

    def cell_at(self, x: int, y: int) -> str | None:
        """The cell under widget coordinates (x, y), or None."""
        if self.drawing is None:
            return None
        row = self.drawing["rows"] - 1 - y
        col = (x - 3 - self._offset(row)) // CELL
        if 0 <= row < self.drawing["rows"] and 0 <= col < self.drawing["cols"]:
            return cell_name(col, row)
        return None

    def render(self) -> Text:
        d = self.drawing
        if d is None:
            return Text(self.text or "")
        pieces = {p["cell"]: p for p in d["pieces"] if "out" not in p["flags"]}
        ball = d["ball"]["cell"] if d["ball"] else None
        zone_rows = {r for z in d["zones"] for r in range(z["rows"][0], z["rows"][1] + 1)}
        marks = {m["cell"]: m["kind"] for m in d["marks"]}
        teams = list(d["teams"])
        out = Text()
        for row in range(d["rows"] - 1, -1, -1):
            out.append(f"{row + 1:>2} ", style="dim")
            out.append(" " * self._offset(row))
            for col in range(d["cols"]):
                name = cell_name(col, row)
                piece = pieces.get(name)
                style = "on grey19" if row in zone_rows else ""
                if piece is not None:
                    label = piece["id"][:3]
                    index = teams.index(piece["team"]) if piece["team"] in teams else 0
                    style = TEAM_STYLES[index % len(TEAM_STYLES)]
                    if name == ball:  # the full name stays: 'A1*' would hide A10
                        style = style.replace("white", "yellow") + " underline"
                elif name == ball:
                    label = "()"
                    style = "bold yellow"
                elif name in marks:
                    label = marks[name][:2]
                    style = "magenta"
                else:
                    label = "·"
                if name in self.targets:
                    style += " on dark_green" if piece is None else " underline"
                if name in self.last or (piece and piece["id"] in self.last):
                    style += " italic"
                if piece is not None and piece["id"] == self.selected:
                    style += " reverse"
                if (col, row) == self.cursor and self.has_focus:
                    style += " reverse blink" if piece is None else " blink"
                out.append(f"{label:^{CELL - 1}}", style=style.strip() or None)
                out.append(" ")
            out.append("\n")
        out.append("   " + "".join(f"{COLUMN_LETTERS[c]:^{CELL}}" for c in range(d["cols"])),
                   style="dim")  # fmt: skip
        out.append("\n" + "\n".join(LEGEND), style="dim")
        return out

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        cell = None if offset is None else self.cell_at(offset.x, offset.y)
        if cell is not None:
            self.cursor = (COLUMN_LETTERS.index(cell[0]), int(cell[1:]) - 1)
            app = self.app
            if isinstance(app, GameApp):
                app.choose_cell(cell)

    def move_cursor(self, dc: int, dr: int) -> None:
        if self.drawing is None:
            return
        col = max(0, min(self.drawing["cols"] - 1, self.cursor[0] + dc))
        row = max(0, min(self.drawing["rows"] - 1, self.cursor[1] + dr))
        self.cursor = (col, row)
        self.refresh()


class HandOver(Screen[None]):
    """Covers the board between two coaches at one terminal when the next one may not see
    what the last one saw."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", "ready")]

    def __init__(self, coach: str) -> None:
        super().__init__()
        self.coach = coach

    def compose(self) -> ComposeResult:
        yield Static(
            f"\n\n   Hand the terminal to coach {self.coach}.\n\n"
            f"   Coach {self.coach}: press Enter when the other coach is looking away.",
            id="handover",
        )

    def action_ready(self) -> None:
        self.dismiss()


class ConfirmLeave(Screen[bool]):
    """``q`` in a game in play: leave only when the player says so."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,q", "answer(True)", "leave"),
        Binding("n,escape", "answer(False)", "play on"),
    ]

    def __init__(self, saved: str) -> None:
        super().__init__()
        self.saved = saved

    def compose(self) -> ComposeResult:
        yield Static(
            f"\n\n   Leave the game{self.saved}?\n\n   y: leave    n or Esc: play on",
            id="confirm",
        )
        yield Footer()

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


class GameApp(App[None]):
    """Play ``state`` (humans at the seats without a bot) or step through ``replay``."""

    CSS = """
    #board { border: round $accent; padding: 0 1; }
    #side { width: 1fr; min-width: 36; }
    #moves { height: 1fr; border: round $primary; }
    #panel { height: auto; border: round $primary; }
    #dice { height: auto; border: round $warning; padding: 0 1; }
    #events { height: 12; border: round $primary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(0, 1)", "up", show=False),
        Binding("down", "cursor(0, -1)", "down", show=False),
        Binding("left", "cursor(-1, 0)", "left", show=False),
        Binding("right", "cursor(1, 0)", "right", show=False),
        Binding("enter", "select", "select"),
        Binding("escape", "clear", "clear"),
        # priority: the app's Tab, shown in the footer (the screen's own is hidden).
        Binding("tab", "switch_focus", "board/moves", priority=True),
        Binding("n", "step(1)", "next"),
        Binding("p", "step(-1)", "previous"),
        Binding("home", "step(-1000000)", "start"),
        Binding("end", "step(1000000)", "end"),
        Binding("q", "leave", "quit"),
    ]

    def __init__(
        self,
        spec: GameSpec,
        state: GameState,
        *,
        bots: dict[int, Bot] | None = None,
        seed: int = 0,
        replay: Sequence[Action] | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        super().__init__()
        self.spec = spec
        self.recorder = recorder  # --save: every action written as it is played
        self.start = state.clone()
        self.state = state
        self.bots = bots or {}
        self.sampler = SeededSampler(seed)
        self.replay = list(replay) if replay is not None else None
        self.ply = 0
        self.legal: list[Action] = []
        self._shown: list[Action] = []
        self.screen_seat: int | None = None  # whose view the board last showed
        self.handing_over = False  # the HandOver screen is up: the game's keys wait

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield BoardView(id="board")
            with Vertical(id="side"):
                yield Static(id="panel")
                yield Static("dice: none rolled yet", id="dice")
                yield OptionList(id="moves")
                yield Log(id="events")
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.spec.title
        self.sub_title = "replay" if self.replay is not None else "select a piece, then a cell"
        self.advance()
        self.query_one(BoardView).focus()

    @property
    def seat(self) -> int | None:
        """Whose view is drawn: the human to act, else the only human, else a spectator."""
        actor = self.state.current_player()
        humans = [s for s in range(self.spec.num_seats) if s not in self.bots]
        if self.replay is not None:
            return None
        if actor in humans:
            return actor
        return humans[0] if len(humans) == 1 else None

    def redraw(self) -> None:
        seat = self.seat
        humans = [s for s in range(self.spec.num_seats) if s not in self.bots]
        previous = self.screen_seat
        if (
            self.replay is None
            and len(humans) > 1
            and seat is not None
            and previous is not None
            and seat != previous
            and sees_differently(self.state, previous, seat)
        ):
            self.screen_seat = None
            self.query_one(BoardView).show_nothing()
            self.handing_over = True
            self.push_screen(HandOver(self.spec.seat_name(seat)), self._handed_over)
            return
        self.screen_seat = seat
        board = self.query_one(BoardView)
        drawing = self.state.board(seat)
        if self.legal and all(a.notation().startswith("draft ") for a in self.legal):
            board.show_text(self.state.render(seat))  # the chart, each team, points left
        else:
            board.show(drawing)
        panel = [f"[b]{label}[/b]: {value}" for label, value, *_hint in drawing["panel"]]
        if self.replay is not None:
            panel.append(f"[b]ply[/b]: {self.ply} of {len(self.replay)}")
        self.query_one("#panel", Static).update("\n".join(panel) or self.state.result_text())
        self.refresh_moves()

    def _handed_over(self, _result: None) -> None:
        self.handing_over = False
        self.redraw()

    def refresh_moves(self) -> None:
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        board = self.query_one(BoardView)
        shown = self.legal
        if board.selected is not None:
            shown = [a for a in self.legal if board.selected.lower() in _tokens(a.notation())]
        moves.add_options([Option(a.notation(), id=str(i)) for i, a in enumerate(shown)])
        # Highlighted from the start: Tab then Enter plays the first (a lone 'turnover').
        moves.highlighted = 0 if shown else None
        self._shown = shown

    # -- playing --------------------------------------------------------------------------

    def log_line(self, text: str) -> None:
        self.query_one("#events", Log).write_line(text)

    def play(self, action: Action, seat: int | None) -> None:
        if seat is None:
            outcomes = self.state.chance_outcomes()
            chance = dict(outcomes).get(action)
            odds = f" (probability {chance}, 1 of {len(outcomes)} outcomes)" if chance else ""
            self.query_one("#dice", Static).update(f"last roll: [b]{action.notation()}[/b]{odds}")
        if self.recorder is not None and self.replay is None:
            events = self.recorder.apply(action, seat=seat)
        else:
            events = self.state.apply(action, seat=seat)
        name = "dice" if seat is None else self.spec.seat_name(seat)
        public = action.public_text()
        self.log_line(f"{name}: {public}")
        for event in events:
            self.log_line(f"  {event.describe()}")
        board = self.query_one(BoardView)
        board.last = _tokens(action.notation()) | {t.upper() for t in _tokens(action.notation())}
        board.selected, board.targets = None, set()

    def advance(self) -> None:
        """Dice and bots play until a human is to act (or the game ends)."""
        if self.replay is None:
            while not self.state.is_terminal():
                actor = self.state.current_player()
                if actor == CHANCE:
                    self.play(self.sampler.choose(self.state.chance_outcomes()), None)
                elif actor in self.bots:
                    self.play(self.bots[actor].choose(self.state, actor), actor)
                else:
                    break
        terminal = self.state.is_terminal()
        self.legal = [] if terminal or self.replay is not None else self.state.legal_actions()
        if terminal:
            self.log_line(f"Result: {self.state.result_text()}")
        self.redraw()

    def human_plays(self, action: Action) -> None:
        try:
            self.play(action, self.state.current_player())
        except MonsterballError as exc:  # cannot happen for a listed action; say so if it does
            self.log_line(f"Not allowed: {exc}")
            return
        self.advance()

    # -- input ----------------------------------------------------------------------------

    def action_cursor(self, dc: int, dr: int) -> None:
        if self.handing_over:
            return
        if self.replay is not None:  # left and right step through a replay
            if dc:
                self.action_step(dc)
            return
        self.query_one(BoardView).move_cursor(dc, dr)

    def action_clear(self) -> None:
        if self.handing_over:
            return
        board = self.query_one(BoardView)
        board.selected, board.targets = None, set()
        self.redraw()

    def action_select(self) -> None:
        if self.handing_over:
            return
        board = self.query_one(BoardView)
        if not board.has_focus:
            return  # the move list handles Enter itself
        self.choose_cell(cell_name(*board.cursor))

    def choose_cell(self, cell: str) -> None:
        """A piece on ``cell`` selects it; with a piece selected, a target cell plays the
        one legal action naming both (or narrows the move list when several do)."""
        if self.handing_over:
            return
        board = self.query_one(BoardView)
        drawing = board.drawing
        if drawing is None or self.replay is not None:
            return
        piece = next((p["id"] for p in drawing["pieces"] if p["cell"] == cell), None)
        if board.selected is not None and cell in board.targets:
            both = [
                a for a in self.legal
                if {board.selected.lower(), cell} <= _tokens(a.notation())
            ]  # fmt: skip
            if len(both) == 1:
                self.human_plays(both[0])
                return
            self._shown = both
            moves = self.query_one("#moves", OptionList)
            moves.clear_options()
            moves.add_options([Option(a.notation(), id=str(i)) for i, a in enumerate(both)])
            moves.highlighted = 0
            moves.focus()
            return
        acting = [a for a in self.legal if piece and piece.lower() in _tokens(a.notation())]
        if piece is not None and acting:
            board.selected = piece
            cells = {
                cell_name(c, r) for c in range(drawing["cols"]) for r in range(drawing["rows"])
            }
            board.targets = {t for a in acting for t in _tokens(a.notation()) if t in cells}
            board.targets.discard(cell)
        else:
            board.selected, board.targets = None, set()
            # A cell alone (place c3, pull e5): the actions that name it.
            naming = [a for a in self.legal if cell in _tokens(a.notation())]
            if len(naming) == 1:
                self.human_plays(naming[0])
                return
        self.redraw()

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        if self.handing_over:
            return
        index = int(message.option.id or 0)
        if self.replay is None and 0 <= index < len(self._shown):
            self.human_plays(self._shown[index])
            self.query_one(BoardView).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The replay's keys only in a replay (the footer shows what works); the arrows move
        the board's cursor in a game."""
        if isinstance(self.screen, ConfirmLeave | HandOver):
            return action in ("answer", "ready")  # the game's keys wait behind a cover
        if action == "step":
            return self.replay is not None
        if action in ("select", "clear"):
            return self.replay is None
        return True

    def action_switch_focus(self) -> None:
        if self.handing_over:
            return
        board, moves = self.query_one(BoardView), self.query_one("#moves", OptionList)
        (board if moves.has_focus else moves).focus()

    def action_leave(self) -> None:
        """Leave at once in a replay or a finished game; ask first in a game in play."""
        if self.replay is not None or self.state.is_terminal():
            self.exit()
            return
        saved = " (the --save file keeps what was played)" if self.recorder is not None else ""
        self.push_screen(ConfirmLeave(saved), self._leave_answered)

    def _leave_answered(self, leave: bool | None) -> None:
        if leave:
            self.exit()

    def action_step(self, delta: int) -> None:
        if self.handing_over:
            return
        if self.replay is None:
            return
        target = max(0, min(len(self.replay), self.ply + delta))
        if target < self.ply:
            self.state, self.ply = self.start.clone(), 0
            self.query_one("#events", Log).clear()
        while self.ply < target:
            actor = self.state.current_player()
            self.play(self.replay[self.ply], None if actor == CHANCE else actor)
            self.ply += 1
        self.advance()
