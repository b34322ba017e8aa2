"""Observations for learning: one seat's view of a position as fixed-shape float32 planes.

Everything is built from what the seat may see: the drawing ``state.board(seat)`` (itself
built from ``state.view(seat)``), the view, and a few fields that every coach sees on the
table (the step under way, the down, spells spent). So a plane can carry no more than the
seat may know; ``tests/test_rl.py`` checks it with Midway's caster swap.

Planes are relative to the observing seat: "own" is the seat's team, "opp" the other. The
grid is not flipped (a hex grid's odd-r rows would not survive a flip), so the plane
``attacks_north`` tells which way the seat is going. Scalars (score, time, the pending
decision) are broadcast over the field as constant planes, AlphaZero-style, so one tensor
shape serves convolutional and dense learners alike. docs/rl.md lists and pictures them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from monsterball.core.board import Board
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.geometry import Grid, grid
from monsterball.core.options import GameOptions

# Spatial planes read from the shared board drawing, in this order.
SPATIAL = (
    "own_pieces",
    "opp_pieces",
    "own_size",  # the piece's relative size (Midway S/M/L/G), 0 where none
    "opp_size",
    "own_out",  # pieces out of play (Midway injuries)
    "opp_out",
    "own_move",  # the piece's movement allowance / 6 (Midway), 0 where unknown
    "opp_move",
    "ball",  # the disc or ball
    "ball_held",  # the cell of the piece holding it
    "receiver",  # Huck + Monster: the aimed-at receiver
    "bidder",  # Huck + Monster: players bidding on the disc in flight
    "own_end_zone",  # the zone the seat defends
    "opp_end_zone",  # the zone the seat scores in
    "line",  # rows drawn as lines (Huck + Monster's pull lines)
    "hash",  # hash-mark columns (Midway)
    "cone",
    "stealth",
    "pothole",
    "path",  # the disc's remaining path
    "image",  # Midway: mirror-image counters (real or not, as the seat sees them)
    "vanished",  # Midway: where an invisible player vanished
    "punt",  # Midway: the punt's line
)
_IX = {name: i for i, name in enumerate(SPATIAL)}
MARK_KINDS = ("cone", "stealth", "pothole", "path", "image", "vanished", "punt")

# Scalars every game has.
COMMON = (
    "to_act_me",
    "to_act_opp",
    "attacks_north",
    "offense_me",
    "score_me",  # / points to win (or /10 where there is no target)
    "score_opp",
)

_SIZES = {"S": 0.25, "M": 0.5, "L": 0.75, "G": 1.0}


@dataclasses.dataclass
class GameFeatures:
    """A game's own scalars: names and a function of (state, view, seat) giving them."""

    names: tuple[str, ...]
    compute: Callable[[GameState, dict[str, Any], int], list[float]]
    target: Callable[[GameOptions], int]  # points to win, for scaling the score
    team_size: int  # players per team: one identity plane each (actions name players)


class Encoder:
    """Turns (state, seat) into a float32 array of shape ``(len(planes), rows, cols)``."""

    def __init__(self, spec: GameSpec, options: GameOptions):
        self.spec = spec
        self.options = options
        start = spec.new_game(options)
        drawing = start.board(0)
        self.rows, self.cols = drawing["rows"], drawing["cols"]
        self.grid: Grid = grid(drawing["grid"], self.cols, self.rows)
        self.steps = tuple(sorted(spec.state_type.procedure_kinds))
        self.features = _FEATURES[spec.id](spec, options)
        size = self.features.team_size
        self.identity = (
            *(f"own_player:{i}" for i in range(1, size + 1)),
            *(f"opp_player:{i}" for i in range(1, size + 1)),
        )
        self.planes: tuple[str, ...] = (
            *SPATIAL,
            *self.identity,
            *COMMON,
            *self.features.names,
            *(f"step:{s}" for s in self.steps),
        )
        self.shape = (len(self.planes), self.rows, self.cols)
        first_step = self.planes.index(f"step:{self.steps[0]}") if self.steps else 0
        self._step_index = {s: first_step + i for i, s in enumerate(self.steps)}
        self._target = max(1, self.features.target(options))

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        out = np.zeros(self.shape, dtype=np.float32)
        drawing = state.board(seat)
        view = state.view(seat)
        me = self.spec.seat_names[seat]
        self._spatial(out, drawing, me)
        base = len(SPATIAL) + len(self.identity)
        actor = state.current_player()
        score = _score_pair(view["score"])
        other = 1 - seat
        common = [
            float(actor == seat),
            float(actor == other),
            float(drawing["teams"].get(me) == "north"),
            float(view.get("offense") == me),
            score[seat] / self._target,
            score[other] / self._target,
        ]
        scalars = common + self.features.compute(state, view, seat)
        for i, value in enumerate(scalars):
            if value:
                out[base + i] = min(1.0, max(0.0, value))  # the space is [0, 1]
        if state.stack and actor != CHANCE:
            out[self._step_index[type(state.stack[-1]).__name__]] = 1.0
        return out

    def _spatial(self, out: np.ndarray, drawing: Board, me: str) -> None:
        parse = self._cell
        size = self.features.team_size
        idx = _IX
        for p in drawing["pieces"]:
            r, c = parse(p["cell"])
            side = "own" if p["team"] == me else "opp"
            out[idx[f"{side}_pieces"], r, c] = 1.0
            number = int(p["id"][1:])  # "A3" is player 3 of team A
            out[len(SPATIAL) + (0 if side == "own" else size) + number - 1, r, c] = 1.0
            out[idx[f"{side}_size"], r, c] = _SIZES.get(_size_of(p["title"]), 0.0)
            out[idx[f"{side}_move"], r, c] = _move_of(p["title"]) / 6.0
            if "out" in p["flags"]:
                out[idx[f"{side}_out"], r, c] = 1.0
            if "holder" in p["flags"]:
                out[idx["ball_held"], r, c] = 1.0
            if "receiver" in p["flags"]:
                out[idx["receiver"], r, c] = 1.0
            if "bidder" in p["flags"]:
                out[idx["bidder"], r, c] = 1.0
        ball = drawing["ball"]
        if ball is not None:
            r, c = parse(ball["cell"])
            out[idx["ball"], r, c] = 1.0
        for zone in drawing["zones"]:
            first, last = zone["rows"]
            side = "own_end_zone" if zone["team"] == me else "opp_end_zone"
            out[idx[side], first : last + 1, :] = 1.0
        for row in drawing["lines"]:
            out[idx["line"], row, :] = 1.0
        for col in drawing["hash_cols"]:
            out[idx["hash"], :, col] = 1.0
        for mark in drawing["marks"]:
            if mark["kind"] not in MARK_KINDS:
                raise ValueError(f"the encoder has no plane for mark kind '{mark['kind']}'")
            r, c = parse(mark["cell"])
            out[idx[mark["kind"]], r, c] = 1.0

    def _cell(self, name: str) -> tuple[int, int]:
        col, row = self.grid.coords(self.grid.parse_cell(name))
        return row, col


def _score_pair(score: Any) -> tuple[int, int]:
    if isinstance(score, dict):
        return int(score["A"]), int(score["B"])
    return int(score[0]), int(score[1])


def _size_of(title: str) -> str:
    # Midway's piece titles read "A1 orc (size M, move 2)"; other games have no size.
    _head, sep, rest = title.partition("(size ")
    return rest[:1] if sep else ""


def _move_of(title: str) -> int:
    _head, sep, rest = title.partition(", move ")
    return int(rest.rstrip(")")) if sep else 0


def _top_field(state: GameState, step: str, name: str, default: int = 0) -> int:
    if not state.stack or type(state.stack[-1]).__name__ != step:
        return default
    value = getattr(state.stack[-1], name)
    return int(value)


# -- Paper Ultimate ---------------------------------------------------------------------------


def _paper(spec: GameSpec, options: GameOptions) -> GameFeatures:
    from monsterball.games.paper_ultimate.actions import PLAYERS_PER_TEAM

    opts: Any = options
    cap = max(1, opts.max_throws)

    def compute(state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        moved = _top_field(state, "Running", "moved")
        return [
            float(view["throws"]) / (cap if opts.max_throws else 100.0),
            float(opts.max_throws > 0 and opts.max_throws - view["throws"] <= 5),
            float(view["marker_only"] is not None),
            bin(moved).count("1") / 4.0,  # runners already moved this running step
        ]

    return GameFeatures(
        ("throws", "throws_nearly_up", "marker_only", "moved_runners"),
        compute,
        lambda o: int(getattr(o, "points_to_win", 5)),
        PLAYERS_PER_TEAM,
    )


# -- Huck + Monster ---------------------------------------------------------------------------

_HM_ACTIONS = ("", "throw", "catch")  # the offense's action under way in an Up Call


def _huck(spec: GameSpec, options: GameOptions) -> GameFeatures:
    from monsterball.games.huck_monster.options import PLAYERS_PER_TEAM

    opts: Any = options

    def compute(state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        other = 1 - seat
        hide_count = bool(opts.contested_count and opts.continues == "one-die")
        action = view["action"]
        flags = [float(action == a) for a in _HM_ACTIONS]
        if action not in _HM_ACTIONS:
            flags[0] = 1.0
        return [
            # Time: Up Calls played, against the cap when there is one.
            view["up_calls"] / (opts.max_up_calls or 200.0),
            float(view["strategy_used"][seat]),
            float(view["strategy_used"][other]),
            *flags,
            0.0 if hide_count else view["base"] / 12.0,  # HM-R50: count from memory
            float(bool(view["light"])),
            float(view["halved"]),
            len(view["bidders"]) / 7.0,
            float(view["poach"]),
            float(view["continuing"]),
            view["coach_turn"][seat] / 6.0,
            view["coach_turn"][other] / 6.0,
            _top_field(state, "Moving", "left") / 18.0,  # moves left in the team's budget
            _top_field(state, "Aim", "count") / 12.0,
            _top_field(state, "PullLanding", "count") / 12.0,
            _top_field(state, "MoveRoll", "dice") / 3.0,
            len(view["cones"]) / 10.0,
        ]

    names = (
        "up_calls",
        "strategy_used_me",
        "strategy_used_opp",
        *(f"action:{a or 'none'}" for a in _HM_ACTIONS),
        "count",
        "light",
        "halved",
        "bidders",
        "poach",
        "continuing",
        "coach_turn_me",
        "coach_turn_opp",
        "moves_left",
        "aim_count",
        "pull_count",
        "move_dice",
        "cones",
    )
    return GameFeatures(
        names, compute, lambda o: int(getattr(o, "points_to_win", 7)), PLAYERS_PER_TEAM
    )


# -- Monsters of the Midway ------------------------------------------------------------------

_BALL_STATES = ("", "held", "loose", "pass", "kick", "punt", "hidden")


def _midway(spec: GameSpec, options: GameOptions) -> GameFeatures:
    from monsterball.games.midway.actions import PER_TEAM

    opts: Any = options
    kinds: tuple[str, ...] = spec.new_game(options).chart.names  # type: ignore[attr-defined]
    plays = max(1, int(opts.plays))

    def compute(state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        mw: Any = state
        other = 1 - seat
        me, opp = spec.seat_names[seat], spec.seat_names[other]
        ball_state = "hidden" if view["ball"] == "hidden" else view["ball_state"]
        counts = {me: dict.fromkeys(kinds, 0), opp: dict.fromkeys(kinds, 0)}
        drafted = {me: 0, opp: 0}
        points = {me: 0, opp: 0}  # draft points spent, against the chart's budget
        for name, info in view["players"].items():
            drafted[name[0]] += 1
            if info["type"] in mw.chart.types:
                points[name[0]] += mw.chart.types[info["type"]].points
            if info["type"] in counts[name[0]]:
                counts[name[0]][info["type"]] += 1
        spent = [
            bin(mw.spent >> (t * PER_TEAM) & ((1 << PER_TEAM) - 1)).count("1")
            for t in (seat, other)
        ]
        # Moves left in a movement phase: only for the seat's own phase.
        left = 0.0
        top = state.stack[-1] if state.stack else None
        if type(top).__name__ == "Phase" and top.team == seat:  # type: ignore[union-attr]
            left = sum(x for x in top.left if x > 0) / (6.0 * PER_TEAM)  # type: ignore[union-attr]
        return [
            view["down"] / 4.0,
            view["plays"] / plays,
            view["plays_left"] / plays,
            *(float(ball_state == b) for b in _BALL_STATES),
            float(
                view["carrier"] is not None
                and view["carrier"] != "hidden"
                and view["carrier"][0] == me
            ),
            mw.los_row / 24.0 if mw.los_row >= 0 else 0.0,
            len(view["counters"]) / 4.0,
            float(view["vanished_at"] is not None),
            drafted[me] / PER_TEAM,
            drafted[opp] / PER_TEAM,
            points[me] / max(1, mw.chart.max_points),
            points[opp] / max(1, mw.chart.max_points),
            spent[0] / PER_TEAM,
            spent[1] / PER_TEAM,
            left,
            *(counts[me][k] / 4.0 for k in kinds),
            *(counts[opp][k] / 4.0 for k in kinds),
        ]

    names = (
        "down",
        "plays",
        "plays_left",
        *(f"ball:{b or 'none'}" for b in _BALL_STATES),
        "carrier_mine",
        "line_of_scrimmage",
        "image_counters",
        "invisible_player",
        "drafted_me",
        "drafted_opp",
        "draft_points_me",
        "draft_points_opp",
        "spells_spent_me",
        "spells_spent_opp",
        "moves_left",
        *(f"roster_me:{k}" for k in kinds),
        *(f"roster_opp:{k}" for k in kinds),
    )
    return GameFeatures(names, compute, lambda o: 21, PER_TEAM)


_FEATURES: dict[str, Callable[[GameSpec, GameOptions], GameFeatures]] = {
    "paper-ultimate": _paper,
    "huck-monster": _huck,
    "midway": _midway,
}


def encoder_for(spec: GameSpec, options: GameOptions) -> Encoder:
    if spec.id not in _FEATURES:
        raise ValueError(f"no observation encoder for game '{spec.id}'")
    return Encoder(spec, options)
