"""A game in the terminal: line editing, moves listed and filtered, a colour board, hot-seat
hand-over for games with hidden information.

Every action goes through ``GameState.apply`` (or the recorder, which calls it), so an
illegal action raises before anything changes; a line of several actions is checked whole on
a copy of the game first, so it is played entirely or not at all.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from monsterball.bots.protocol import Bot
from monsterball.core.actions import Action, Event
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import IllegalActionError, NotationError
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.record import Recorder
from monsterball.core.seating import sees_differently

HELP_TEXT = """\
Type an action in the game's notation, for example: {examples}.
Tab completes a legal action; the arrow keys edit the line and recall earlier ones.
Commands:
  a; b; c      several actions on one line: all are checked first, then played in order
               (if any cannot be played, none is)
  ?            the legal actions (summarised when there are many)
  ? A3  ? e5   the legal actions of a player (capitals: A3), or naming a cell (e5)
  board        show the board again
  help         this text
  quit         leave the game (a --save file keeps what was played)"""

COMMANDS = ("?", "moves", "board", "help", "quit")
LIST_ALL_UP_TO = 60
"""Above this many legal actions, ``?`` shows a summary by piece or action instead."""

TEAM_STYLES = ("bold red", "bold blue", "bold green", "bold magenta")


class _Leave(Exception):
    """The human left the game (``quit`` or end of input)."""


def history_path() -> Path:
    """Where ``play`` keeps the lines typed (the user's data directory)."""
    from platformdirs import user_data_path

    return user_data_path("monsterball") / "play-history"


class LineEditor:
    """``input()`` with readline's editing, history and tab completion over the words it is
    given; on a pipe (tests, scripts) plain ``input()``.

    History is kept per coach: a line typed while a coach sees something another seat may
    not (a Midway secret choice, or any line during one) is recalled only at that coach's
    prompt and never written to the history file; every other line is shared and saved."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self.active = False
        self.earlier: list[str] = []  # the history file's lines (earlier games)
        self.lines: list[tuple[int | None, str]] = []  # this game's lines: (owner, line)
        if not sys.stdin.isatty():
            return
        try:
            import readline
        except ImportError:  # Windows without pyreadline: plain input still works
            return
        self.readline: Any = readline
        # Notations contain spaces: complete the whole action after the last ';'.
        readline.set_completer_delims(";")
        readline.parse_and_bind("tab: complete")
        readline.set_completer(self.complete)
        # Lines enter the history only through remember(): a secret line never is shared.
        readline.set_auto_history(False)
        self.active = True
        # Lines typed in earlier games come back with the up arrow.
        self.history = history_path()
        with contextlib.suppress(OSError):
            readline.read_history_file(self.history)
        readline.set_history_length(1000)
        length = readline.get_current_history_length()
        self.earlier = [readline.get_history_item(i) or "" for i in range(1, length + 1)]
        atexit.register(self._save)

    def _save(self) -> None:
        readline = self.readline
        readline.clear_history()
        for line in [*self.earlier, *(line for owner, line in self.lines if owner is None)]:
            readline.add_history(line)
        with contextlib.suppress(OSError):
            self.history.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(self.history)

    def remember(self, line: str, owner: int | None) -> None:
        """Keep a typed line: for every coach (``owner`` None) or only for seat ``owner``."""
        self.lines.append((owner, line))

    def _recall(self, seat: int | None) -> None:
        """Readline's history as ``seat`` may see it: the shared lines and its own."""
        readline = self.readline
        readline.clear_history()
        for line in [*self.earlier, *(line for o, line in self.lines if o in (None, seat))]:
            readline.add_history(line)

    def complete(self, text: str, index: int) -> str | None:
        stripped = text.lstrip()
        lead = text[: len(text) - len(stripped)]
        matches = [w for w in self.words if w.lower().startswith(stripped.lower())]
        return lead + matches[index] if index < len(matches) else None

    def read(self, prompt: str, words: Sequence[str], seat: int | None = None) -> str:
        self.words = sorted(set(words))
        if self.active:
            self._recall(seat)
        return input(prompt)


def _tokens(notation: str) -> list[str]:
    # '@' too: a Midway formation places a player with 'A3@g9' (the piece, then the cell).
    return [t for t in re.split(r"[\s\-=,@]+", notation) if t]


def _group(notation: str) -> str:
    """What ``?`` summarises by: the piece that acts, or the verb (with its piece)."""
    tokens = _tokens(notation)
    if not tokens:
        return notation
    first = tokens[0]
    if first[:1].islower() and len(tokens) > 1 and re.fullmatch(r"[A-Z]\d+", tokens[1]):
        return f"{first} {tokens[1]}"
    return first


def filter_moves(legal: Sequence[str], query: str) -> list[str]:
    """The notations that name ``query`` as a piece, cell or word; a query with spaces
    matches as text. A name like ``A4`` is matched as written: players are capitals and
    cells small letters, so ``A4`` is the player and ``a4`` the cell; words match in any
    case."""
    q = query.strip()
    if " " in q:
        return [n for n in legal if q.lower() in n.lower()]
    if re.fullmatch(r"[A-Za-z]\d{1,2}", q):
        return [n for n in legal if q in _tokens(n)]
    return [n for n in legal if q.lower() in (t.lower() for t in _tokens(n))]


def summarise_moves(legal: Sequence[str]) -> list[str]:
    """``A2 14, A3 9, end 1``: how many legal actions each piece or verb has."""
    counts = Counter(_group(n) for n in legal)
    return [f"{key} ({count})" for key, count in counts.items()]


def wrap_notations(notations: Sequence[str], width: int = 78) -> list[str]:
    """Comma-separated lines that never split a notation (many contain spaces)."""
    lines: list[str] = []
    line = ""
    for i, item in enumerate(notations):
        piece = item + ("," if i < len(notations) - 1 else "")
        if line and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = ""
        line = f"{line} {piece}" if line else f"  {piece}"
    if line:
        lines.append(line)
    return lines


class TerminalGame:
    """One game in the terminal: humans type, bots and dice play themselves."""

    def __init__(
        self,
        spec: GameSpec,
        state: GameState,
        bots: dict[int, Bot],
        sampler: SeededSampler,
        recorder: Recorder | None,
        console: Console | None = None,
        read: Callable[[str], str] | None = None,
    ):
        self.spec = spec
        self.state = state
        self.bots = bots
        self.sampler = sampler
        self.recorder = recorder
        self.console = console or Console(highlight=False)
        self.editor = LineEditor()
        self._read = read
        self.humans = [s for s in range(spec.num_seats) if s not in bots]
        # Further actions typed on one line, already checked, played as their turns come.
        self.pending: list[str] = []
        self.pending_seat = -1
        self.stale = True  # something happened since the board was last drawn
        self.screen_seat: int | None = None  # whose view is on the screen
        self.last_pieces: set[str] = set()
        self.interrupted = False  # left with Ctrl+C (the command exits 130)
        self.legend_shown = False

    # -- output ---------------------------------------------------------------------------

    def _apply(self, action: Action, seat: int | None) -> list[Event]:
        if self.recorder is not None:
            return self.recorder.apply(action, seat=seat)
        return self.state.apply(action, seat=seat)

    @staticmethod
    def _announce(events: Sequence[Event]) -> None:
        for event in events:
            typer.echo(f"  {event.describe()}")

    def _shown(self, action: Action) -> str:
        # A game may hide part of an action from the other seat (a secret choice); with
        # another human at this terminal, only the public part is printed.
        return action.public_text()

    def draw(self, seat: int | None, *, legend: bool = False) -> None:
        """The board as ``seat`` sees it: teams in their colours, the pieces of the last
        move in reverse video (colour only on a terminal; plain text on a pipe); the legend
        under the first board and when asked (``board``)."""
        board = self.state.render(seat)
        if self.state.is_terminal():
            # The game's last line is its result, which 'play' prints once, as 'Result:'.
            lines = board.rstrip().splitlines()
            if lines and lines[-1].strip() == self.state.result_text():
                board = "\n".join(lines[:-1])
        text = Text(board)
        for index, name in enumerate(self.spec.seat_names):
            style = TEAM_STYLES[index % len(TEAM_STYLES)]
            text.highlight_regex(rf"\b{re.escape(name)}\d{{1,2}}\b", style)
        for piece in self.last_pieces:
            text.highlight_regex(rf"\b{re.escape(piece)}\b", "reverse")
        self.console.print(text)
        # What the game's text board draws (its spec's ``docs.legend``; its render says so).
        key = self.spec.docs.legend
        if key and (legend or not self.legend_shown):
            typer.echo(key)
            self.legend_shown = True
        self.stale = False
        self.screen_seat = seat

    def _moved(self, action: Action) -> None:
        names = {re.escape(n) for n in self.spec.seat_names}
        pattern = rf"^(?:{'|'.join(names)})\d{{1,2}}$"
        self.last_pieces = {t for t in _tokens(action.notation()) if re.match(pattern, t)}
        self.stale = True

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> bool:
        """Play until the game ends (True) or the human leaves (False)."""
        state = self.state
        try:
            while not state.is_terminal():
                actor = state.current_player()
                if actor == CHANCE:
                    action = self.sampler.choose(state.chance_outcomes())
                    events = self._apply(action, None)
                    if events:
                        self._announce(events)
                    else:
                        typer.echo(f"  Chance: {action}")
                    self.stale = True
                elif actor in self.bots:
                    bot = self.bots[actor]
                    action = bot.choose(state, actor)
                    events = self._apply(action, actor)
                    typer.echo(f"{self.spec.seat_name(actor)} ({bot.name}): {self._shown(action)}")
                    self._announce(events)
                    self._moved(action)
                else:
                    self._human_turn(actor)
        except _Leave:
            return False
        except KeyboardInterrupt:
            # Ctrl+C is a way to leave too; the record keeps every line already played.
            typer.echo("\nInterrupted: leaving the game.")
            self.interrupted = True
            return False
        return True

    def _input(self, prompt: str, words: Sequence[str], seat: int) -> str:
        if self._read is not None:
            return self._read(prompt)
        return self.editor.read(prompt, words, seat)

    def _secret(self, seat: int) -> bool:
        """Whether ``seat`` now sees something another seat may not (a secret phase)."""
        return any(
            sees_differently(self.state, seat, other)
            for other in range(self.spec.num_seats)
            if other != seat
        )

    def _clear_screen(self) -> None:
        """The screen and the terminal's scrollback (``ESC [3J``): what the last coach typed
        cannot be scrolled back to. (A terminal may keep a log of its own: README.)"""
        if self.console.is_terminal:
            self.console.file.write("\033[H\033[2J\033[3J")
            self.console.file.flush()
        else:
            self.console.clear()

    def _hand_over(self, seat: int) -> None:
        """Between two coaches at one terminal when each sees something the other may not:
        clear the screen and wait for the next coach."""
        previous = self.screen_seat
        if previous is None or previous == seat or len(self.humans) < 2:
            return
        if not sees_differently(self.state, previous, seat):
            return
        self._clear_screen()
        name = self.spec.seat_name(seat)
        typer.echo(f"--- Hand the terminal to coach {name}; coach {self.spec.seat_name(previous)} "
                   "looks away. ---")  # fmt: skip
        if sys.stdin.isatty():
            try:
                input(f"Coach {name}: press Enter when ready. ")
            except EOFError:
                raise _Leave from None
            self._clear_screen()
        self.stale = True
        self.screen_seat = None

    def _human_turn(self, seat: int) -> None:
        state = self.state
        name = self.spec.seat_name(seat)
        legal = state.legal_actions()
        if self.pending and seat != self.pending_seat:
            self.pending = []  # cannot happen after the check; a safeguard
        if len(legal) == 1 and not (self.pending and self._parses_to(self.pending[0], legal[0])):
            typer.echo(f"{name}: only one legal action, {self._shown(legal[0])}; played "
                       "automatically.")  # fmt: skip
            self._announce(self._apply(legal[0], seat))
            return
        if self.pending:
            text = self.pending.pop(0)
            action = self.spec.parse_action(text)
            events = self._apply(action, seat)  # checked on a copy: cannot fail
            typer.echo(f"{name}: {self._shown(action)}")
            self._announce(events)
            self._moved(action)
            self.stale = False
            return
        self._hand_over(seat)
        if self.stale or self.screen_seat != seat:
            self.draw(seat)
        notations = [a.notation() for a in legal]
        secret_phase = self._secret(seat)
        while True:
            try:
                line = self._input(f"{name}> ", [*notations, *COMMANDS], seat)
            except EOFError:
                typer.echo("")
                typer.echo("End of input: leaving the game.")
                raise _Leave from None
            items = [item.strip() for item in line.split(";") if item.strip()]
            if not items:
                continue
            try:
                if len(items) == 1 and self._command(items[0], seat, legal, notations):
                    continue
                if self._play_line(seat, items):
                    return
            finally:
                # Kept for this coach alone when typed in, or leading to, a secret phase.
                secret = secret_phase or self._secret(seat)
                self.editor.remember(line.strip(), seat if secret else None)

    def _play_line(self, seat: int, items: Sequence[str]) -> bool:
        """Play the first of ``items`` (the rest wait for their turns); False when the line
        was refused (and nothing was played)."""
        name = self.spec.seat_name(seat)
        if len(items) > 1:
            problem = self.check_line(seat, items)
            if problem is not None:
                typer.echo(f"Nothing played: {problem}. Type ? for the legal actions.")
                return False
        text = items[0]
        try:
            action = self.spec.parse_action(text)
            events = self._apply(action, seat)
        except NotationError as exc:
            typer.echo(f"Cannot read that: {exc}. Type ? for the legal actions.")
            return False
        except IllegalActionError as exc:
            typer.echo(f"Not allowed: {exc}. Type ? for the legal actions.")
            return False
        typer.echo(f"{name}: {self._shown(action)}")
        self._announce(events)
        self._moved(action)
        # Redrawn before this coach's next action, even within one turn (a team move of
        # several players): the board shows each step made.
        self.stale = True
        self.pending, self.pending_seat = list(items[1:]), seat
        return True

    def _command(self, text: str, seat: int, legal: Sequence[Action], notations: list[str]) -> bool:
        command = text.lower()
        if command in ("?", "moves"):
            self._list_moves(notations)
        elif command.startswith("? ") or command.startswith("moves "):
            query = text.split(None, 1)[1]
            found = filter_moves(notations, query)
            if found:
                typer.echo(f"{len(found)} legal actions with {query}:")
                for row in wrap_notations(found):
                    typer.echo(row)
            else:
                typer.echo(f"No legal action names '{query}'.{self._other_case(query, notations)}")
        elif command == "help":
            examples = ", ".join(f"'{a}'" for a in legal[:3])
            typer.echo(HELP_TEXT.format(examples=examples))
        elif command == "board":
            self.draw(seat, legend=True)
        elif command in ("quit", "exit"):
            raise _Leave
        else:
            return False
        return True

    @staticmethod
    def _other_case(query: str, notations: Sequence[str]) -> str:
        """A hint when ``a4`` (a cell) finds nothing but ``A4`` (a player) would, or back."""
        q = query.strip()
        if not re.fullmatch(r"[A-Za-z]\d{1,2}", q) or not filter_moves(notations, q.swapcase()):
            return ""
        kind = "cell" if q[0].islower() else "player"
        other = "player" if kind == "cell" else "cell"
        return (
            f" ('{q}' is a {kind}; '? {q.swapcase()}' lists those of the {other} {q.swapcase()}.)"
        )

    @staticmethod
    def _list_moves(notations: Sequence[str]) -> None:
        if len(notations) <= LIST_ALL_UP_TO:
            typer.echo(f"{len(notations)} legal actions:")
            for row in wrap_notations(notations):
                typer.echo(row)
            return
        typer.echo(
            f"{len(notations)} legal actions; by piece or action (type '? A3' or '? e5' to "
            "list some, Tab to complete):"
        )
        for row in wrap_notations(summarise_moves(notations)):
            typer.echo(row)

    def _parses_to(self, text: str, action: Action) -> bool:
        try:
            return self.spec.parse_action(text) == action
        except NotationError:
            return False

    def check_line(self, seat: int, items: Sequence[str]) -> str | None:
        """Why the line ``items`` cannot be played whole by ``seat`` from here, or None.

        Played on a copy of the game with a copy of the dice, so the copy rolls what the
        game will; forced single actions are played as the real loop plays them. The line
        may only continue while ``seat`` is to act."""
        game = self.state.clone()
        dice = copy.deepcopy(self.sampler)
        index = 0
        while index < len(items):
            text = items[index]
            while not game.is_terminal() and game.current_player() == CHANCE:
                game.apply_unchecked(dice.choose(game.chance_outcomes()))
            if game.is_terminal():
                return f"the game is over before '{text}'"
            actor = game.current_player()
            if actor != seat:
                before = f"after '{items[index - 1]}' " if index else ""
                return (
                    f"{before}it is {self.spec.seat_name(actor)}'s turn, so '{text}' cannot "
                    "follow on this line"
                )
            try:
                action = self.spec.parse_action(text)
            except NotationError as exc:
                return f"cannot read '{text}': {exc}"
            legal = game.legal_actions()
            if len(legal) == 1 and action != legal[0]:
                game.apply_unchecked(legal[0])  # played automatically, as in the game
                continue
            try:
                game.apply(action, seat=seat)
            except IllegalActionError as exc:
                return f"'{text}' is not allowed there: {exc}"
            index += 1
        return None
