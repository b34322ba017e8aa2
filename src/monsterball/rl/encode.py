"""Observations for learning: one seat's view of a position as fixed-shape arrays.

Two encodings of the same information, both built only from what the seat may see:

- **full** (``encode``): float32 planes ``(planes, rows, cols)`` in [0, 1]; scalars (score,
  time, the pending decision) are broadcast over the field as constant planes,
  AlphaZero-style, so one tensor serves convolutional and dense learners alike.
- **compact** (``encode_compact``): only the board planes the game uses, as uint8
  (0/1 marks, Midway sizes 1-4 and movement allowances as integers), and the scalars once,
  as a float32 vector.

Planes are relative to the observing seat ("own", "opp"). The grid is not flipped (a hex
grid's odd-r rows would not survive a flip), so ``attacks_north`` tells which way the seat
plays. Counters with no bound in the rules (scores, throws, Up Calls, counts) are scaled as
``x / (x + k)``, which never reaches 1, so a bigger count always looks bigger (issue 39.1);
counters the rules bound (downs, plays of a capped game, players per team) are divided by
their bound.

The planes are read straight from the state's fields and bitmasks (numpy, no loop over
cells) by the per-game code of :mod:`monsterball.rl.features`. The first encoder, which
read the shared board drawing ``state.board(seat)`` and ``state.view(seat)``, is kept as
``reference_encode``: the tests check the two agree on every position of random play, and
since the drawing is built from the view only, that a plane carries no more than the seat
may know (Midway's hidden caster and invisible player). docs/rl.md lists the planes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from monsterball.core import learning as ft
from monsterball.core.board import Board
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.geometry import Grid, grid
from monsterball.core.learning import (
    COMMON,
    MARK_KINDS,
    PLANE_SCALE,
    SPATIAL,
    Marks,
    compose_board,
    compose_full,
    numbers_into,
)
from monsterball.core.options import GameOptions
from monsterball.rl.features import game_features

# Version of the encodings' layout and scaling: part of every env's version (rl/versions.py).
ENCODER_VERSION = 2

_IX = {name: i for i, name in enumerate(SPATIAL)}
_SIZES = {"S": 1, "M": 2, "L": 3, "G": 4}  # compact codes; the full planes show code / 4


class Encoder:
    """Turns (state, seat) into the full planes, the compact pair, or both."""

    def __init__(self, spec: GameSpec, options: GameOptions):
        self.spec = spec
        self.options = options
        start = spec.new_game(options)
        drawing = start.board(0)
        self.rows, self.cols = drawing["rows"], drawing["cols"]
        self.cells = self.rows * self.cols
        self.grid: Grid = grid(drawing["grid"], self.cols, self.rows)
        self.steps = tuple(sorted(spec.state_type.procedure_kinds))
        self.game = game_features(spec, options)
        size = self.game.team_size
        self.identity = (
            *(f"own_player:{i}" for i in range(1, size + 1)),
            *(f"opp_player:{i}" for i in range(1, size + 1)),
        )
        self.board_planes: tuple[str, ...] = (*SPATIAL, *self.identity)
        self.scalars: tuple[str, ...] = (
            *COMMON,
            *self.game.names,
            *(f"step:{s}" for s in self.steps),
        )
        self.planes: tuple[str, ...] = (*self.board_planes, *self.scalars)
        self.shape = (len(self.planes), self.rows, self.cols)
        self._first_step = len(COMMON) + len(self.game.names)
        self._step_index = {s: self._first_step + i for i, s in enumerate(self.steps)}
        self._no_step = [0.0] * len(self.steps)
        used = set(self.game.spatial)
        # Per board plane: the factor a raw value shows with in the full planes.
        self._scale = np.ones(len(self.board_planes), np.float32)
        for name, factor in PLANE_SCALE.items():
            if name in used:
                self._scale[_IX[name]] = factor
        self._ones = np.ones(len(self.board_planes), np.float32)  # raw values
        self.compact_planes: tuple[str, ...] = (
            *(p for p in SPATIAL if p in used),
            *self.identity,
        )
        self._compact_ix = np.array([self.board_planes.index(p) for p in self.compact_planes])
        self.compact_shape = (len(self.compact_planes), self.rows, self.cols)
        self.compact_high = np.ones(self.compact_shape, np.uint8)
        for i, name in enumerate(self.compact_planes):
            if name.endswith(("_size", "_move")):
                self.compact_high[i] = 255
        self._templates: dict[tuple[int, int], np.ndarray] = {}
        self.masks = LegalMasks(spec.action_table(options), self.game)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the spec's id and the options: no tables or templates in a pickle.
        return (_rebuild, (self.spec.id, self.options.to_dict()))

    # -- the fast path --------------------------------------------------------------------------

    def template(self, state: GameState, seat: int) -> np.ndarray:
        """The static board planes (end zones, lines) for the seat, float32 (planes, cells)."""
        key = (seat, self.game.template_key(state))
        template = self._templates.get(key)
        if template is None:
            template = np.zeros((len(self.board_planes), self.cells), np.float32)
            self.game.static(state, seat, template)
            self._templates[key] = template
        return template

    def marks(self, state: GameState, seat: int) -> Marks:
        marks = Marks()
        self.game.marks(state, seat, marks)
        return marks

    def board_values(self, state: GameState, seat: int) -> np.ndarray:
        """The board planes as raw values, float32 ``(board planes, cells)``."""
        out = np.empty((len(self.board_planes), self.cells), np.float32)
        return compose_board(out, self.template(state, seat), self.marks(state, seat), self._ones)

    def scalar_list(self, state: GameState, seat: int) -> list[float]:
        values = self.game.scalars(state, seat)
        values.extend(self._no_step)
        if state.stack and state.current_player() != CHANCE:
            values[self._step_index[type(state.stack[-1]).__name__]] = 1.0
        return values

    def scalar_values(self, state: GameState, seat: int) -> np.ndarray:
        return np.array(self.scalar_list(state, seat), np.float32)

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        """The full planes: float32 ``shape``."""
        out = np.empty((len(self.planes), self.cells), np.float32)
        self.encode_into(state, seat, out)
        return out.reshape(self.shape)

    def encode_into(self, state: GameState, seat: int, out: np.ndarray) -> None:
        """The full planes written into ``out`` (float32 (planes, cells), C-contiguous)."""
        compose_full(
            out,
            self.template(state, seat),
            self.marks(state, seat),
            self._scale,
            self.scalar_list(state, seat),
        )

    def encode_compact(self, state: GameState, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """The compact pair: uint8 ``compact_shape`` planes and the float32 scalars."""
        return (
            self.compact_from(self.board_values(state, seat)),
            self.scalar_values(state, seat),
        )

    def full_from(self, board: np.ndarray, scalars: np.ndarray) -> np.ndarray:
        """The full planes from raw board values and scalars (numpy: the reference's)."""
        out = np.empty((len(self.planes), self.cells), np.float32)
        nb = len(self.board_planes)
        out[:nb] = board
        out[:nb] *= self._scale[:, None]
        out[nb:] = scalars[:, None]
        return out.reshape(self.shape)

    def compact_from(self, board: np.ndarray) -> np.ndarray:
        planes: np.ndarray = board[self._compact_ix].astype(np.uint8)
        return planes.reshape(self.compact_shape)

    # -- the reference: from the board drawing and the view -------------------------------------

    def reference_encode(self, state: GameState, seat: int) -> np.ndarray:
        """The full planes built from ``state.board(seat)`` and ``state.view(seat)`` only."""
        board = np.zeros((len(self.board_planes), self.rows, self.cols), np.float32)
        drawing = state.board(seat)
        view = state.view(seat)
        me = self.spec.seat_names[seat]
        self._spatial(board, drawing, me)
        scalars = np.zeros(len(self.scalars), np.float32)
        actor = state.current_player()
        score = _score_pair(view["score"])
        other = 1 - seat
        target = self.game.target
        common = [
            float(actor == seat),
            float(actor == other),
            float(drawing["teams"].get(me) == "north"),
            float(view.get("offense") == me),
            ft.ratio(score[seat], target),
            ft.ratio(score[other], target),
            ft.lead(score[seat] - score[other], target),
        ]
        scalars[: self._first_step] = common + self.game.reference(state, view, seat)
        if state.stack and actor != CHANCE:
            scalars[self._step_index[type(state.stack[-1]).__name__]] = 1.0
        return self.full_from(board.reshape(len(self.board_planes), -1), scalars)

    def _spatial(self, out: np.ndarray, drawing: Board, me: str) -> None:
        parse = self._cell
        size = self.game.team_size
        idx = _IX
        for p in drawing["pieces"]:
            r, c = parse(p["cell"])
            side = "own" if p["team"] == me else "opp"
            out[idx[f"{side}_pieces"], r, c] = 1.0
            number = int(p["id"][1:])  # "A3" is player 3 of team A
            out[len(SPATIAL) + (0 if side == "own" else size) + number - 1, r, c] = 1.0
            out[idx[f"{side}_size"], r, c] = _SIZES.get(_size_of(p["title"]), 0)
            out[idx[f"{side}_move"], r, c] = _move_of(p["title"])
            if "out" in p["flags"]:
                out[idx[f"{side}_out"], r, c] = 1.0
            for flag, plane in (("holder", "ball_held"), ("receiver", "receiver")):
                if flag in p["flags"]:
                    out[idx[plane], r, c] = 1.0
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


class LegalMasks:
    """The legal actions of the seat to act as an int8 mask over the game's action table:
    written by the game straight from its state where it can (``GameFeatures.legal_mask``),
    else the legal list numbered. One per encoder (so per game and options), shared."""

    def __init__(self, table: Any, features: Any):
        self.table = table
        self.size = len(table)
        self.features = features
        # Legal actions are the table's own objects: numbered by identity (an int's hash),
        # the table's dict (the action's hash) when one is not.
        self._by_id = {id(a): i for i, a in enumerate(table.actions)}

    def of(self, state: GameState) -> np.ndarray:
        """A new zeroed mask with the legal actions set (np.zeros is a calloc: cheaper than
        clearing a kept buffer)."""
        mask = np.zeros(self.size, np.int8)
        if not self.features.legal_mask(state, mask):
            missing = numbers_into(mask, state.legal_actions(), self._by_id)
            if missing:  # an equal action that is not the table's own object
                mask[[self.table._by_action[a] for a in missing]] = 1
        return mask

    def number(self, action: Any) -> int:
        """An action's table number: by identity, else by equality (KeyError outside)."""
        n = self._by_id.get(id(action))
        return self.table._by_action[action] if n is None else n


def legal_numbers(mask: np.ndarray) -> list[int]:
    """The set positions of a 0/1 int8 mask, ascending (read as bools: numpy's nonzero is
    about 9x faster on bool than on int8, 16 us against 146 us on 25,000 actions)."""
    numbers: list[int] = np.flatnonzero(mask.view(np.bool_)).tolist()
    return numbers


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


_ENCODERS: dict[tuple[str, str], Encoder] = {}


def _rebuild(game_id: str, options: dict[str, Any]) -> Encoder:
    from monsterball.games import get_game

    spec = get_game(game_id)
    return encoder_for(spec, spec.options_type.from_dict(options))


def encoder_for(spec: GameSpec, options: GameOptions) -> Encoder:
    """The encoder of a game with options (one per distinct options, shared)."""
    key = (spec.id, repr(sorted(options.to_dict().items())))
    if key not in _ENCODERS:
        _ENCODERS[key] = Encoder(spec, options)
    return _ENCODERS[key]
