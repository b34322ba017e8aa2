"""The one contract every game implements.

A :class:`GameSpec` describes a game (id, aliases, options, rules version, how to start one,
how to read its notation). A :class:`GameState` is one position of one game: it answers whose
turn it is (a seat number, :data:`CHANCE` or :data:`TERMINAL`), which actions are legal, what
the chance outcomes and their exact probabilities are; it applies an action and returns the
events it caused; it clones cheaply, renders itself as text, gives each seat its own view, and
writes and reads positions.

The state's rules live in a stack of procedures (see :mod:`monsterball.core.procedures`);
this class runs that stack and does the bookkeeping every game shares, written once here.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar, Self

from monsterball.core.actions import Action, ActionTable, Event, Roll, parse_roll
from monsterball.core.board import Board
from monsterball.core.contract import (
    NO_DOCS,
    NO_VIEWS,
    BotHooks,
    CheckHooks,
    GameDocs,
    OddsHooks,
    RLHooks,
    ViewHooks,
)
from monsterball.core.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    PositionError,
    WrongSeatError,
)
from monsterball.core.options import GameOptions
from monsterball.core.procedures import Procedure, procedure_from_dict, procedure_to_dict

CHANCE = -1
TERMINAL = -2
AUTO = -3

POSITION_FORMAT = 1
POSITION_KEYS = ("format", "game", "options", "ply", "board", "stack")


class GameState:
    """Base class of every game's state.

    Subclasses hold the board in plain mutable fields, implement ``_copy_board``,
    ``_board_to_dict`` / ``_board_from_dict``, ``returns``, ``render`` and ``view``, and put
    their first procedure on the stack in ``__init__``.
    """

    spec: ClassVar[GameSpec]
    procedure_kinds: ClassVar[Mapping[str, type[Procedure[Any]]]] = {}

    __slots__ = ("_events", "options", "ply", "stack")

    def __init__(self, options: GameOptions):
        self.options = options
        self.ply = 0
        self.stack: tuple[Procedure[Any], ...] = ()
        self._events: list[Event] = []

    # -- whose turn -------------------------------------------------------------------------

    @property
    def num_seats(self) -> int:
        return self.spec.num_seats

    def current_player(self) -> int:
        """The seat to act, CHANCE, or TERMINAL."""
        if not self.stack:
            return TERMINAL
        return self.stack[-1].actor(self)

    def is_terminal(self) -> bool:
        return not self.stack

    def is_chance(self) -> bool:
        return bool(self.stack) and self.stack[-1].actor(self) == CHANCE

    # -- what may happen --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Decisions for the seat to act; at a chance node, the possible outcomes."""
        if not self.stack:
            return []
        top = self.stack[-1]
        if top.actor(self) == CHANCE:
            return [a for a, _ in top.chance_outcomes(self)]
        return top.legal_actions(self)

    def sample_legal(self, rng: random.Random) -> Action:
        """A decision drawn uniformly from ``legal_actions()`` (decision nodes only), often
        without listing them all: the fast path of random play and rollouts."""
        return self.stack[-1].sample_legal(self, rng)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self.stack:
            return []
        return self.stack[-1].chance_outcomes(self)

    def check(self, action: Action, *, seat: int | None = None) -> None:
        """Raise a specific error if ``action`` (by ``seat``, if given) is not legal now."""
        if not self.stack:
            raise GameOverError("the game is over; no more actions are accepted")
        top = self.stack[-1]
        actor = top.actor(self)
        if seat is not None and seat != actor:
            who = "chance" if actor == CHANCE else self.spec.seat_name(actor)
            raise WrongSeatError(
                f"it is not {self.spec.seat_name(seat)}'s turn: {who} is to act ({top.describe()})"
            )
        top.check(self, action)

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    # -- doing it ---------------------------------------------------------------------------

    def apply(self, action: Action | str, *, seat: int | None = None) -> list[Event]:
        """Apply a legal action (or its notation, like ``"A3-e5"`` or ``"d6=4"``) and return
        the events it caused.

        The action is checked first; an illegal one raises and leaves the state untouched.
        """
        if isinstance(action, str):
            action = self.spec.parse_action(action)
        self.check(action, seat=seat)
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> list[Event]:
        """Apply an action known to be legal (taken from ``legal_actions``): the bot fast path."""
        events: list[Event] = []
        self._events = events
        stack = self.stack
        stack = stack[:-1] + stack[-1].apply(self, action)
        self.stack = stack
        self.ply += 1
        while stack:  # _settle, inlined (procedures read the stack, never assign it)
            top = stack[-1]
            if top.actor(self) != AUTO:
                break
            stack = stack[:-1] + top.resolve(self)
            self.stack = stack
        return events

    def _settle(self) -> None:
        """Run AUTO steps until a decision, a chance event or the end of the game."""
        while self.stack:
            top = self.stack[-1]
            if top.actor(self) != AUTO:
                return
            self.stack = self.stack[:-1] + top.resolve(self)

    def emit(self, event: Event) -> None:
        """Procedures report what happened through here."""
        self._events.append(event)

    # -- copies -----------------------------------------------------------------------------

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.options = self.options
        other.ply = self.ply
        other.stack = self.stack
        other._events = []
        self._copy_board(other)
        return other

    def _copy_board(self, other: Self) -> None:
        raise NotImplementedError

    # -- results ----------------------------------------------------------------------------

    def returns(self) -> tuple[float, ...]:
        """Per seat: +1 win, -1 loss, 0 draw or unfinished."""
        raise NotImplementedError

    def result_text(self) -> str:
        raise NotImplementedError

    def score_text(self) -> str:
        """The score in a few words ("A 2 - B 1"), or "" for a game without one."""
        return ""

    def scores(self) -> tuple[float, ...] | None:
        """Each seat's points on the scoreboard, None in a game that keeps no score."""
        return None

    def possession(self) -> int | None:
        """The seat in possession (a team sport's offense), None in a game without one: the
        lab counts possessions and turnovers by its changes."""
        return None

    # -- views ------------------------------------------------------------------------------

    def render(self, seat: int | None = None) -> str:
        """A text picture of the state as ``seat`` may see it (None: the public view)."""
        raise NotImplementedError

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see, as JSON-ready data (None: spectators' public view)."""
        raise NotImplementedError

    def hidden_from(self, seat: int | None) -> set[int]:
        """The pieces whose place ``seat`` may not see now (None: spectators); a game with
        ``spec.hidden_information`` overrides it, every other game hides nothing."""
        return set()

    # -- positions --------------------------------------------------------------------------

    def board(self, seat: int | None = None) -> Board:
        """What ``seat`` may see, drawn in the shared board format (docs/web.md)."""
        if self.spec.board is None:
            raise NotImplementedError(f"{self.spec.id} has no board drawing")
        return self.spec.board(self, seat)

    def to_position(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; :meth:`GameSpec.from_position` reads it back."""
        return {
            "format": POSITION_FORMAT,
            "game": self.spec.id,
            "rules_version": self.spec.rules_version,
            "options": self.options.to_dict(),
            "ply": self.ply,
            "board": self._board_to_dict(),
            "stack": [procedure_to_dict(p) for p in self.stack],
        }

    def _board_to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def _board_from_dict(self, data: Mapping[str, Any]) -> None:
        """Fill the board from data; raise PositionError naming the problem."""
        raise NotImplementedError

    def _validate_position(self) -> None:
        """Raise PositionError if the board and stack describe an impossible situation."""

    def state_hash(self) -> str:
        """A short digest of the whole position, for records and divergence checks."""
        text = json.dumps(self.to_position(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, GameState)
        return self.to_position() == other.to_position()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ply={self.ply} to_act={self.current_player()}>"


class TeamScoreState(GameState):
    """A game between two teams that keep a score: ``winner`` is -1 while it is played, then
    the winning seat, or 2 for a draw. Results read the same in every such game."""

    __slots__ = ()
    winner: int
    score: list[int]

    def scores(self) -> tuple[float, ...]:
        return tuple(float(s) for s in self.score)

    def returns(self) -> tuple[float, ...]:
        if self.winner in (0, 1):
            return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)
        return (0.0, 0.0)

    def score_text(self) -> str:
        a, b = self.score
        return f"A {a} - B {b}"

    def result_text(self) -> str:
        if self.winner < 0:
            return f"in progress, {self.score_text()}"
        if self.winner == 2:
            return f"draw, {self.score_text()}"
        return f"team {self.spec.seat_name(self.winner)} wins, {self.score_text()}"


# Ways a game can end off the board (the rules never end it so). The seat named loses:
# "time": its clock ran out; "abandoned": it made no move in time (docs/web.md, "Clocks");
# "resigned": its player gave the game up (docs/web.md, "Resign"). Nobody loses: "agreed":
# the players agreed a draw, only where the rules can end level (docs/web.md, "Draw offers").
LOSING_TERMINATIONS = ("time", "abandoned", "resigned")
DRAWN_TERMINATIONS = ("agreed",)
TERMINATIONS = LOSING_TERMINATIONS + DRAWN_TERMINATIONS


def forfeit_result(spec: GameSpec, loser: int, termination: str) -> tuple[str, tuple[float, ...]]:
    """The result text and returns of a game ``loser`` lost off the board: it gets -1, every
    other seat +1 (the same returns as a win on the board)."""
    if termination not in LOSING_TERMINATIONS:
        known = ", ".join(LOSING_TERMINATIONS)
        raise ValueError(f"unknown termination {termination!r} ({known})")
    if not 0 <= loser < spec.num_seats:
        raise ValueError(f"no seat {loser} in {spec.id}")
    others = [spec.seat_name(s) for s in range(spec.num_seats) if s != loser]
    winners = " and ".join(f"team {name}" for name in others)
    verb = "wins" if len(others) == 1 else "win"
    name = spec.seat_name(loser)
    text = {
        "time": f"{winners} {verb} on time: team {name}'s clock ran out",
        "abandoned": f"{winners} {verb}: team {name} abandoned the game (no move in time)",
        "resigned": f"{winners} {verb}: team {name} resigned",
    }[termination]
    return text, tuple(-1.0 if s == loser else 1.0 for s in range(spec.num_seats))


def agreed_draw_result(state: GameState) -> tuple[str, tuple[float, ...]]:
    """The result text and returns of a game its players agreed to draw where it stands:
    0 for every seat (the returns of a draw on the board). ValueError where the game cannot
    end level (``GameOptions.can_draw``) or is over."""
    if not state.options.can_draw():
        raise ValueError(f"{state.spec.id} as played cannot end in a draw")
    if state.is_terminal():
        raise ValueError("the game is already over")
    score = state.score_text()
    return f"draw by agreement{', ' + score if score else ''}", (0.0,) * state.spec.num_seats


def ending_result(state: GameState, ending: Mapping[str, Any]) -> tuple[str, tuple[float, ...]]:
    """The result text and returns of a game ended off the board as ``ending`` says
    (``{"termination": ..., "loser": seat name}``; no loser for an agreed draw)."""
    termination = ending["termination"]
    if termination in DRAWN_TERMINATIONS:
        return agreed_draw_result(state)
    return forfeit_result(state.spec, state.spec.seat_names.index(ending["loser"]), termination)


@dataclass(frozen=True)
class GameSpec:
    """A registered game: how to name it, configure it, start it and read its notation."""

    id: str
    title: str
    summary: str
    rulebook: str
    rules_version: str
    options_type: type[GameOptions]
    state_type: type[GameState]
    seat_names: tuple[str, ...]
    new_state: Callable[[GameOptions], GameState]
    parse_decision: Callable[[str], Action]
    action_table: Callable[[GameOptions], ActionTable]
    aliases: tuple[str, ...] = ()
    coaches: tuple[int, ...] = (2,)
    # Ruling id -> one-line summary; the full ruling (quote, choice, reason) is in
    # docs/rules/<game>.md, and the traceability test keeps the two in step.
    rulings: Mapping[str, str] = field(default_factory=dict)
    # Draws a position as ``seat`` may see it, in the shared format of core.board (for UIs).
    board: Callable[[GameState, int | None], Board] | None = None
    # The one declaration of hidden information: True when some seat may not see part of
    # the state (``GameState.hidden_from``, ``Action.public_text``); then ``bot.determinize``
    # must sample it. False: every seat's view is the same (servers draw it once per move).
    hidden_information: bool = False
    # What the layers above ask of the game beyond its rules (core/contract.py).
    bot: BotHooks | None = None
    odds: OddsHooks | None = None
    docs: GameDocs = NO_DOCS
    views: ViewHooks = NO_VIEWS
    rl: RLHooks | None = None
    # Extra invariants the fuzz harness checks after every action (None: the common ones).
    checks: CheckHooks | None = None
    # The game's compiled kernel modules and whether each runs (``monsterball.kernels()``).
    kernels: Mapping[str, bool] = field(default_factory=dict)

    @property
    def num_seats(self) -> int:
        return len(self.seat_names)

    def seat_name(self, seat: int) -> str:
        if 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"seat {seat}"

    def options(self, preset: str | None = None, **overrides: Any) -> GameOptions:
        return self.options_type.from_preset(preset, overrides)

    def new_game(
        self, options: GameOptions | None = None, *, preset: str | None = None, **overrides: Any
    ) -> GameState:
        """A new game's state, with ``options`` (default: built from ``preset`` and the
        option ``overrides``). A state has no dice: ``monsterball.new_game(game, seed=7)``
        gives a game that rolls its own, seeded."""
        if "seed" in overrides:
            raise TypeError(
                "GameSpec.new_game makes a state, which has no dice: "
                "monsterball.new_game(game, preset, seed=...) gives one with seeded dice"
            )
        if options is not None and (preset is not None or overrides):
            raise TypeError("give new_game options, or a preset and overrides, not both")
        opts = options if options is not None else self.options(preset, **overrides)
        if not isinstance(opts, self.options_type):
            raise TypeError(f"{self.id} needs {self.options_type.__name__}, got {type(opts)}")
        state = self.new_state(opts)
        state._settle()
        return state

    def parse_action(self, text: str) -> Action:
        """Read an action's notation (a decision, or a chance outcome like ``d6=4``).

        Only the syntax is checked here; ``GameState.check`` says whether it is legal."""
        text = " ".join(text.strip().split())
        if not text:
            raise NotationError("empty action")
        if "=" in text:
            roll = parse_roll(text)
            return roll
        return self.parse_decision(text)

    def from_position(self, data: Mapping[str, Any]) -> GameState:
        """Build a state from :meth:`GameState.to_position` data, validating every field."""
        if not isinstance(data, Mapping):
            raise PositionError("a position must be a JSON object")
        for key in POSITION_KEYS:
            if key not in data:
                raise PositionError(f"position is missing '{key}'")
        unknown = set(data) - {*POSITION_KEYS, "rules_version"}
        if unknown:
            raise PositionError(
                f"position has unknown key(s) {', '.join(sorted(map(str, unknown)))}"
            )
        # ``type(...) is int``: JSON true and 1.0 compare equal to 1 in Python.
        if type(data["format"]) is not int or data["format"] != POSITION_FORMAT:
            raise PositionError(f"position format {data['format']!r} is not {POSITION_FORMAT}")
        if data["game"] != self.id:
            raise PositionError(f"position is for game {data['game']!r}, not '{self.id}'")
        if not isinstance(data.get("rules_version", ""), str):
            raise PositionError("position 'rules_version' must be a string")
        ply = data["ply"]
        if type(ply) is not int or ply < 0:
            raise PositionError("position 'ply' must be a non-negative integer")
        if not isinstance(data["options"], Mapping):
            raise PositionError("position 'options' must be an object")
        if not isinstance(data["board"], Mapping):
            raise PositionError("position 'board' must be an object")
        if not isinstance(data["stack"], list):
            raise PositionError("position 'stack' must be a list")
        options = self.options_type.from_dict(data["options"])  # OptionsError if bad
        state = self.state_type.__new__(self.state_type)
        GameState.__init__(state, options)
        state.ply = ply
        state._board_from_dict(data["board"])
        state.stack = tuple(
            procedure_from_dict(self.state_type.procedure_kinds, p) for p in data["stack"]
        )
        state._validate_position()
        return state


def roll(label: str, value: object) -> Roll:
    """Shorthand used by games to build chance outcomes."""
    return Roll(label, str(value))


def uniform(actions: Sequence[Action]) -> list[tuple[Action, Fraction]]:
    p = _one_in(len(actions))
    return [(a, p) for a in actions]


@cache
def _one_in(n: int) -> Fraction:
    # The same object each time, so a sampler's draw tables (cached by identity) are found.
    return Fraction(1, n)
