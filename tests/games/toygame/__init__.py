"""Toy Dash: a test-only game that plugs into monsterball through the game contract alone
(core/contract.py). Nothing outside this package knows it; tests/games/test_toygame.py registers
it and plays it through the CLI, the web API, the RL environments and the lab.

The rules, in full. Two runners race up their own track (team A's in column a, team B's in
column b) from row 1 to the last row (option ``length``). First each coach secretly sets a
trap on a row of the other track (2 .. length - 1): ``trap 3``. Then the coaches take turns,
A first: ``step`` moves the runner one row; ``dash`` rolls a die (d6) and moves it half the
roll, rounded up. A runner stopping on the trap set for it falls back two rows (never below
row 1) and the trap is shown and spent. The first runner to reach the last row wins.

Hidden information: a coach does not see the trap set on its own track until its runner
falls into it (so the spec says ``hidden_information=True`` and the bots' hooks sample it).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, cast

from monsterball.core import board as b
from monsterball.core.actions import Action, ActionTable, Event, Roll
from monsterball.core.contract import BotHooks, GameDocs, RLHooks
from monsterball.core.errors import IllegalActionError, NotationError, PositionError
from monsterball.core.game import AUTO, CHANCE, GameSpec, GameState, TeamScoreState, roll, uniform
from monsterball.core.options import GameOptions, option
from monsterball.core.procedures import Procedure, Transition, stack_kinds, wrong_kind

TEAMS = ("A", "B")
NONE = -1


@dataclass(frozen=True, kw_only=True)
class ToyOptions(GameOptions):
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {"standard": {}, "short": {"length": 5}}
    PRESET_DOCS: ClassVar[Mapping[str, str]] = {
        "standard": "an 8-row track",
        "short": "a 5-row track",
    }

    length: int = option(8, "Rows of each track (the last is the goal).", minimum=4, maximum=20)


# -- actions and events ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetTrap(Action):
    row: int  # 0-based row of the other team's track

    def notation(self) -> str:
        return f"trap {self.row + 1}"

    def public_text(self) -> str:
        return "trap (set in secret)"


@dataclass(frozen=True, slots=True)
class Step(Action):
    def notation(self) -> str:
        return "step"


@dataclass(frozen=True, slots=True)
class Dash(Action):
    def notation(self) -> str:
        return "dash"


STEP, DASH = Step(), Dash()
# The same objects everywhere (legal lists, chance outcomes, the action table): learning
# environments number legal actions by identity.
TRAPS = tuple(SetTrap(r) for r in range(20))
D6: tuple[Action, ...] = tuple(roll("d6", v) for v in range(1, 7))


@dataclass(frozen=True, slots=True)
class Moved(Event):
    team: int
    row: int

    def describe(self) -> str:
        return f"{TEAMS[self.team]}1 runs to row {self.row + 1}."


@dataclass(frozen=True, slots=True)
class Trapped(Event):
    team: int
    row: int

    def describe(self) -> str:
        return f"{TEAMS[self.team]}1 falls into the trap and back to row {self.row + 1}."


def parse_decision(text: str) -> Action:
    words = text.split()
    if words == ["step"]:
        return STEP
    if words == ["dash"]:
        return DASH
    if len(words) == 2 and words[0] == "trap" and words[1].isdigit() and len(words[1]) < 3:
        row = int(words[1]) - 1
        return TRAPS[row] if 0 <= row < len(TRAPS) else SetTrap(row)
    raise NotationError(f"'{text}' is not a Toy Dash action (trap N, step, dash)")


def action_table(options: GameOptions) -> ActionTable:
    length = cast(ToyOptions, options).length
    return ActionTable([*TRAPS[1 : length - 1], STEP, DASH, *D6])


# -- the rules' steps --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaceTrap(Procedure["ToyState"]):
    team: int

    def actor(self, state: ToyState) -> int:
        return self.team

    def legal_actions(self, state: ToyState) -> list[Action]:
        return list(TRAPS[1 : state.length - 1])

    def check(self, state: ToyState, action: Action) -> None:
        if not isinstance(action, SetTrap):
            raise wrong_kind(self, action)
        if not 1 <= action.row < state.length - 1:
            raise IllegalActionError(f"a trap goes on row 2 .. {state.length - 1}")

    def apply(self, state: ToyState, action: Action) -> Transition:
        assert isinstance(action, SetTrap)
        state.trap[1 - self.team] = action.row
        return ()

    def describe(self) -> str:
        return f"{TEAMS[self.team]} sets a trap in secret"


@dataclass(frozen=True, slots=True)
class Turn(Procedure["ToyState"]):
    team: int

    def actor(self, state: ToyState) -> int:
        return self.team

    def legal_actions(self, state: ToyState) -> list[Action]:
        return [STEP, DASH]

    def apply(self, state: ToyState, action: Action) -> Transition:
        if action == STEP:
            state.run(self.team, 1)
            return () if state.winner >= 0 else (Turn(1 - self.team),)
        return (HandOver(self.team), DashRoll(self.team))  # the die first, then hand over

    def describe(self) -> str:
        return f"{TEAMS[self.team]} to step or dash"


@dataclass(frozen=True, slots=True)
class DashRoll(Procedure["ToyState"]):
    team: int

    def actor(self, state: ToyState) -> int:
        return CHANCE

    def chance_outcomes(self, state: ToyState) -> list[tuple[Action, Fraction]]:
        return uniform(D6)

    def apply(self, state: ToyState, action: Action) -> Transition:
        assert isinstance(action, Roll)
        state.run(self.team, (int(action.value) + 1) // 2)
        return ()

    def describe(self) -> str:
        return f"{TEAMS[self.team]}'s dash die"


@dataclass(frozen=True, slots=True)
class HandOver(Procedure["ToyState"]):
    team: int

    def actor(self, state: ToyState) -> int:
        return AUTO

    def resolve(self, state: ToyState) -> Transition:
        return () if state.winner >= 0 else (Turn(1 - self.team),)


STEPS = (PlaceTrap, Turn, DashRoll, HandOver)


# -- the state ---------------------------------------------------------------------------------


class ToyState(TeamScoreState):
    """Board: each runner's row, each track's trap row (NONE once spent), the winner."""

    options: ToyOptions
    __slots__ = ("length", "row", "score", "trap", "winner")

    def __init__(self, options: ToyOptions):
        super().__init__(options)
        self.length = options.length
        self.row = [0, 0]
        self.trap = [NONE, NONE]  # trap[t]: the row of the trap on team t's track
        self.score = [0, 0]
        self.winner = -1
        self.stack = (Turn(0), PlaceTrap(1), PlaceTrap(0))

    def run(self, team: int, rows: int) -> None:
        row = min(self.row[team] + rows, self.length - 1)
        self.emit(Moved(team, row))
        if row == self.trap[team]:
            row = max(0, row - 2)
            self.trap[team] = NONE
            self.emit(Trapped(team, row))
        self.row[team] = row
        if row == self.length - 1:
            self.score[team] = 1
            self.winner = team

    def _copy_board(self, other: ToyState) -> None:
        other.length = self.length
        other.row = self.row[:]
        other.trap = self.trap[:]
        other.score = self.score[:]
        other.winner = self.winner

    def setting_traps(self) -> bool:
        return any(isinstance(p, PlaceTrap) for p in self.stack)

    def hidden_from(self, seat: int | None) -> set[int]:
        """The traps ``seat`` may not see (as pieces 2 and 3: the traps on A's, B's track):
        the one on its own track, and a spectator sees neither, until they are spent or the
        race is over."""
        if self.winner >= 0:
            return set()
        return {2 + t for t in (0, 1) if self.trap[t] != NONE and seat != 1 - t}

    def view(self, seat: int | None = None) -> dict[str, Any]:
        hidden = self.hidden_from(seat)
        return {
            "seat": seat,
            "length": self.length,
            "runners": {TEAMS[t]: self.row[t] + 1 for t in (0, 1)},
            "traps": {
                TEAMS[t]: self.trap[t] + 1 if self.trap[t] != NONE and 2 + t not in hidden else None
                for t in (0, 1)
            },
            "score": list(self.score),
            "step": self.stack[-1].describe() if self.stack else self.result_text(),
        }

    def render(self, seat: int | None = None) -> str:
        view = self.view(seat)
        lines = []
        for r in range(self.length, 0, -1):
            cells = []
            for t in TEAMS:
                here = "*" if view["runners"][t] == r else ("x" if view["traps"][t] == r else ".")
                cells.append(here)
            lines.append(f"{r:2} " + " ".join(cells))
        lines.append("   a b")
        lines.append(view["step"])
        return "\n".join(lines)

    def _board_to_dict(self) -> dict[str, Any]:
        return {"row": list(self.row), "trap": list(self.trap), "winner": self.winner}

    def _board_from_dict(self, data: Mapping[str, Any]) -> None:
        self.length = self.options.length
        try:
            self.row = [int(r) for r in data["row"]]
            self.trap = [int(r) for r in data["trap"]]
            self.winner = int(data["winner"])
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"Toy Dash board: {exc}") from None
        if len(self.row) != 2 or not all(0 <= r < self.length for r in self.row):
            raise PositionError("Toy Dash board: 'row' must be two rows on the track")
        self.score = [1 if self.winner == t else 0 for t in (0, 1)]


def board_view(state: GameState, seat: int | None = None) -> b.Board:
    view = state.view(seat)
    pieces = [b.piece(f"{t}1", t, f"{t.lower()}{row}") for t, row in view["runners"].items()]
    pieces += [  # each coach's trap, on the other track
        b.piece(f"{setter}2", setter, f"{track.lower()}{row}", label="x", title="trap")
        for track, setter in zip(TEAMS, reversed(TEAMS), strict=True)
        if (row := view["traps"][track]) is not None
    ]
    return b.board(
        grid="square",
        cols=2,
        rows=view["length"],
        zones=[],
        pieces=pieces,
        ball=None,
        panel=[["Now", view["step"]]],
        north_team="A",
    )


# -- the bots' hooks ---------------------------------------------------------------------------


def evaluate(state: GameState) -> float:
    assert isinstance(state, ToyState)
    if state.winner >= 0:
        return 1.0 if state.winner == 0 else -1.0
    return (state.row[0] - state.row[1]) / state.length


def determinize(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy with the trap on ``seat``'s own track drawn afresh (anywhere it could be)."""
    assert isinstance(state, ToyState)
    copy = state.clone()
    if copy.trap[seat] != NONE:
        copy.trap[seat] = rng.randrange(1, copy.length - 1)
    return copy


def rl_features(spec: GameSpec, options: GameOptions) -> Any:
    from tests.games.toygame.learning import features  # lazy: numpy, as the games do

    return features(spec, options)


ToyState.procedure_kinds = stack_kinds(STEPS)

SPEC = GameSpec(
    id="toy-dash",
    title="Toy Dash",
    summary="A test-only two-runner dice race with secret traps.",
    rulebook="",
    rules_version="toy-dash/1.0.0",
    options_type=ToyOptions,
    state_type=ToyState,
    seat_names=TEAMS,
    new_state=lambda options: ToyState(cast(ToyOptions, options)),
    parse_decision=parse_decision,
    action_table=action_table,
    aliases=("toy",),
    board=board_view,
    hidden_information=True,
    bot=BotHooks("toy-dash", evaluate, determinize=determinize),
    docs=GameDocs(rulebook_title="Toy Dash (tests/games/toygame)"),
    rl=RLHooks(features=rl_features, max_decisions=200),
)
ToyState.spec = SPEC
