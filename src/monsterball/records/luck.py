"""The luck report of one game record, for every game through the one contract: at each
chance node of the record, the side's luck is how much the outcome that fell moved the game
heuristic's evaluation against its expectation over every outcome (exact probabilities). The
sum over the game is each side's luck (zero-sum: A's luck is B's bad luck). Rolls with a
numeric value are also tallied per kind of roll (e.g. ``3d6``): mean rolled against the
expected mean, with a z-score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from monsterball.bots.heuristic import heuristic_for
from monsterball.core.actions import Roll
from monsterball.core.errors import RecordError
from monsterball.core.game import CHANCE
from monsterball.core.record import GameRecord, initial_state


@dataclass
class DiceTally:
    label: str
    rolls: int = 0
    total: float = 0.0
    expected: float = 0.0
    variance: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.rolls if self.rolls else 0.0

    @property
    def expected_mean(self) -> float:
        return self.expected / self.rolls if self.rolls else 0.0

    @property
    def z(self) -> float:
        return (self.total - self.expected) / math.sqrt(self.variance) if self.variance else 0.0


@dataclass
class LuckReport:
    game: str
    seats: tuple[str, ...]
    luck: list[float]
    chance_nodes: int
    biggest: list[tuple[int, str, float]] = field(default_factory=list)  # ply, outcome, swing
    dice: dict[str, DiceTally] = field(default_factory=dict)
    result: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "unit": "win-probability points",
            "luck": dict(zip(self.seats, self.luck, strict=True)),
            "chance_nodes": self.chance_nodes,
            "biggest_swings": [
                {"ply": p, "outcome": o, "swing_for_first_seat": s} for p, o, s in self.biggest
            ],
            "dice": {
                k: {
                    "rolls": t.rolls,
                    "mean": t.mean,
                    "expected_mean": t.expected_mean,
                    "z": t.z,
                }
                for k, t in self.dice.items()
            },
            "result": self.result,
        }


def luck_report(record: GameRecord, *, top: int = 5) -> LuckReport:
    """Replay ``record`` and measure each side's dice against expectation."""
    spec, state = initial_state(record)
    heuristic = heuristic_for(spec)
    luck = [0.0] * spec.num_seats
    swings: list[tuple[int, str, float]] = []
    dice: dict[str, DiceTally] = {}
    nodes = 0
    for entry in record.actions:
        if state.is_terminal():
            raise RecordError(f"line {entry.line}: an action after the end of the game")
        action = spec.parse_action(entry.action)
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            if action not in [a for a, _ in outcomes]:
                raise RecordError(f"line {entry.line}: '{entry.action}' is not a chance outcome")
            if len(outcomes) > 1:
                nodes += 1
                swing = chance_swing(heuristic, state, action, outcomes)
                luck[0] += swing
                for seat in range(1, spec.num_seats):
                    luck[seat] -= swing
                swings.append((entry.ply, entry.action, swing))  # the record's own ply number
                _tally(dice, action, outcomes)
        else:
            if not state.is_legal(action):
                raise RecordError(f"line {entry.line}: '{entry.action}' is not legal here")
        state.apply_unchecked(action)
    swings.sort(key=lambda s: -abs(s[2]))
    return LuckReport(
        spec.id, spec.seat_names, luck, nodes, swings[:top], dice, state.result_text()
    )


LUCK_EXPLAINED = (
    "At every roll the game's heuristic estimates the first seat's chance of winning after "
    "each possible outcome. The swing of the roll that fell is its estimate minus the "
    "probability-weighted average over all outcomes, in win-probability points (+10 = the "
    "dice moved the first seat's estimated chance of winning up by 10 percentage points). "
    "A side's luck is the sum of its swings over the game; the sides' lucks cancel out."
)


def chance_swing(heuristic: Any, state: Any, action: Any, outcomes: Any) -> float:
    """How far the outcome ``action`` moved the first seat's estimated win probability
    against the expectation over ``outcomes``, in percentage points."""
    values = {}
    for a, _ in outcomes:
        child = state.clone()
        child.apply_unchecked(a)
        values[a] = heuristic.value(child, 0)
    expected = sum(float(p) * values[a] for a, p in outcomes)
    # The heuristic's value is in [-1, 1]; as a win probability (v + 1) / 2, in points.
    return float(values[action] - expected) * 50.0


def _tally(dice: dict[str, DiceTally], action: Any, outcomes: list[tuple[Any, Any]]) -> None:
    if not isinstance(action, Roll):
        return
    try:
        rolled = float(action.value)
        pairs = [(float(a.value), float(p)) for a, p in outcomes if isinstance(a, Roll)]
    except ValueError:
        return
    mean = sum(v * p for v, p in pairs)
    var = sum(p * (v - mean) ** 2 for v, p in pairs)
    tally = dice.setdefault(action.label, DiceTally(action.label))
    tally.rolls += 1
    tally.total += rolled
    tally.expected += mean
    tally.variance += var
