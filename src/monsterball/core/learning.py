"""What a game tells the learning environments (``monsterball.rl``): its observation planes,
its scalars and its legal actions as table numbers, declared on its ``SPEC`` through
``RLHooks.features`` (core/contract.py) and written in the game's own package
(``games/<game>/learning.py``), so ``rl/`` names no game.

A game's :class:`GameFeatures` produces, per position and seat, *marks* rather than arrays:
flat board indices set to 1 (``ones``), indices with a value (``at``, ``values``: Midway's
sizes and movement allowances) and whole-plane bitmasks (``masks``: Huck + Monster's
cones), plus a list of scalars. :func:`compose_full` and :func:`compose_board` turn them and
the game's static template (end zones, lines) into the planes in one call of the compiled
kernel (core/_fastgeo.pyx) or, without it, with numpy (the reference: the tests hold the two
equal). Legal-action masks come from :meth:`GameFeatures.legal_mask`, which a game writes
straight from its bitboards for its busiest steps (Paper Ultimate's runs), and otherwise from
the legal list numbered by :func:`numbers_into`.

This module imports numpy (the ``rl`` extra): only ``RLHooks.features`` imports it, lazily.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from monsterball.core import kernels
from monsterball.core.game import GameSpec, GameState
from monsterball.core.options import GameOptions

# Board planes, in this order (docs/rl.md describes them).
SPATIAL = (
    "own_pieces",
    "opp_pieces",
    "own_size",  # the piece's size (Midway S/M/L/G)
    "opp_size",
    "own_out",  # pieces out of play (Midway injuries)
    "opp_out",
    "own_move",  # the piece's movement allowance (Midway)
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
IX = {name: i for i, name in enumerate(SPATIAL)}
MARK_KINDS = ("cone", "stealth", "pothole", "path", "image", "vanished", "punt")

# Scalars every game has.
COMMON = (
    "to_act_me",
    "to_act_opp",
    "attacks_north",
    "offense_me",
    "score_me",  # score / (score + points to win): 1/2 at the target, never 1
    "score_opp",
    "score_lead",  # 1/2 + lead / (2 (|lead| + points to win))
)

# The full planes show a raw board value times this (the compact planes show the raw value).
PLANE_SCALE = {"own_size": 0.25, "opp_size": 0.25, "own_move": 1 / 6, "opp_move": 1 / 6}


def ratio(x: float, k: float) -> float:
    """An unbounded count in [0, 1): strictly increasing, 1/2 at ``k``."""
    return x / (x + k) if x > 0 else 0.0


def lead(d: float, k: float) -> float:
    """A difference in (0, 1): 1/2 when level."""
    return 0.5 + 0.5 * d / (abs(d) + k)


def popcount(mask: int) -> int:
    return mask.bit_count()


def top_field(state: GameState, step: str, name: str, default: int = 0) -> int:
    if not state.stack or type(state.stack[-1]).__name__ != step:
        return default
    return int(getattr(state.stack[-1], name))


def bits(mask: int, cells: int) -> np.ndarray:
    """A cell bitmask as a 0/1 row of ``cells`` (the board's words, unpacked by numpy)."""
    raw = np.frombuffer(mask.to_bytes((cells + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, count=cells, bitorder="little")


class Marks:
    """One position's marks for one seat (see the module's docstring); reused per call."""

    __slots__ = ("at", "masks", "ones", "values")

    def __init__(self) -> None:
        self.ones: list[int] = []
        self.at: list[int] = []
        self.values: list[float] = []
        self.masks: list[tuple[int, int]] = []


class GameFeatures:
    """One game's part of the encoder. Subclasses set the class attributes and the methods."""

    names: tuple[str, ...] = ()  # the game's own scalars
    spatial: tuple[str, ...] = ()  # the board planes this game can set (the compact ones)
    team_size = 0  # players per team: one identity plane each (actions name players)
    north_attacker = True  # ``north_team`` is the team attacking north (else defending it)

    def __init__(self, spec: GameSpec, options: GameOptions):
        self.spec = spec
        self.opts: Any = options
        self.target = max(1, self.points_to_win())
        size = self.team_size
        start: Any = spec.new_game(options)
        width, height = self.field_size(start)
        self.width, self.cells = width, width * height
        base = len(SPATIAL)
        cells = self.cells
        # Flat offsets (plane * cells) of each player's piece and identity planes, per seat.
        self._pairs: list[list[tuple[int, int]]] = []
        for seat in (0, 1):
            pairs = []
            for p in range(2 * size):
                own = p // size == seat
                piece = IX["own_pieces" if own else "opp_pieces"]
                ident = base + (0 if own else size) + p % size
                pairs.append((piece * cells, ident * cells))
            self._pairs.append(pairs)

    def field_size(self, start: Any) -> tuple[int, int]:
        """Columns and rows of the field (the planes' shape): the state's ``field``."""
        return int(start.field.width), int(start.field.height)

    def points_to_win(self) -> int:
        return int(getattr(self.opts, "points_to_win", 5))

    def attacks_north(self, state: Any, seat: int) -> bool:
        return bool((state.north_team == seat) == self.north_attacker)

    def template_key(self, state: Any) -> Any:
        return state.north_team

    def static(self, state: Any, seat: int, out: np.ndarray) -> None:
        """Planes that change only with ``template_key``: the end zones."""
        depth, rows = self.end_zone_depth(), out.shape[1] // self.width
        south = slice(0, depth * self.width)
        north = slice((rows - depth) * self.width, rows * self.width)
        # The team attacking north defends the south zone.
        mine, theirs = (south, north) if self.attacks_north(state, seat) else (north, south)
        out[IX["own_end_zone"], mine] = 1.0
        out[IX["opp_end_zone"], theirs] = 1.0

    def end_zone_depth(self) -> int:
        return int(self.opts.end_zone_depth)

    def place_players(self, state: Any, seat: int, ones: list[int]) -> list[int]:
        """Piece and identity marks from ``pos``; the players' cells (-1 off the field)."""
        pos: list[int] = state.pos
        for (piece, ident), c in zip(self._pairs[seat], pos, strict=True):
            if c >= 0:
                ones.append(piece + c)
                ones.append(ident + c)
        return pos

    def common(self, state: Any, seat: int) -> list[float]:
        actor = state.current_player()
        mine, theirs = state.score[seat], state.score[1 - seat]
        k = self.target
        return [
            float(actor == seat),
            float(actor == 1 - seat),
            float(self.attacks_north(state, seat)),
            float(state.offense == seat),
            ratio(mine, k),
            ratio(theirs, k),
            lead(mine - theirs, k),
        ]

    def marks(self, state: Any, seat: int, out: Marks) -> None:
        """The board planes that change with the position, as marks into ``out``."""
        raise NotImplementedError

    def scalars(self, state: Any, seat: int) -> list[float]:
        raise NotImplementedError

    def reference(self, state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        """The game's own scalars (after COMMON) read from ``state.view(seat)``."""
        raise NotImplementedError

    def legal_mask(self, state: Any, out: np.ndarray) -> bool:
        """Write the legal actions of the seat to act into the zeroed int8 ``out`` straight
        from the state (no legal list); False when this step has no such path."""
        return False


# -- composing planes: the compiled kernel, or numpy (the reference) ------------------------

_fast = kernels.load("monsterball.core._fastgeo")
_FAST_PLANES = _fast is not None and hasattr(_fast, "compose_full")


def use_compiled(on: bool | None = None) -> bool:
    """Whether the compiled composer runs (``on``: switch it, for the tests)."""
    global _FAST_PLANES
    if on is not None:
        _FAST_PLANES = bool(on) and _fast is not None and hasattr(_fast, "compose_full")
    return _FAST_PLANES


def _marks_numpy(flat: np.ndarray, marks: Marks, scale: np.ndarray, cells: int) -> None:
    if marks.ones:
        flat[marks.ones] = 1.0
    if marks.at:
        at = np.asarray(marks.at, np.int64)
        flat[at] = np.asarray(marks.values, np.float32) * scale[at // cells]
    for plane, mask in marks.masks:
        row = flat[plane * cells : (plane + 1) * cells]
        row[bits(mask, cells) > 0] = 1.0


def compose_full(
    out: np.ndarray, template: np.ndarray, marks: Marks, scale: np.ndarray, scalars: list[float]
) -> np.ndarray:
    """``out`` (float32 (board planes + scalars, cells)): the template, the marks (valued
    marks times their plane's ``scale``), then one constant row per scalar."""
    if _FAST_PLANES:
        assert _fast is not None
        _fast.compose_full(
            out, template, marks.ones, marks.at, marks.values, scale, marks.masks, scalars
        )
        return out
    nb, cells = template.shape
    out[:nb] = template
    _marks_numpy(out[:nb].reshape(-1), marks, scale, cells)
    out[nb:] = np.asarray(scalars, np.float32)[:, None]
    return out


def compose_board(
    out: np.ndarray, template: np.ndarray, marks: Marks, scale: np.ndarray
) -> np.ndarray:
    """The board planes alone: ``out`` (float32 (board planes, cells))."""
    if _FAST_PLANES:
        assert _fast is not None
        _fast.compose_board(out, template, marks.ones, marks.at, marks.values, scale, marks.masks)
        return out
    out[:] = template
    _marks_numpy(out.reshape(-1), marks, scale, template.shape[1])
    return out


def bits_into(out: np.ndarray, offset: int, mask: int) -> None:
    """``out[offset + i] = 1`` for every set bit ``i`` of ``mask``."""
    if _FAST_PLANES:
        assert _fast is not None
        if _fast.bits_into(out, offset, mask):
            return
    if mask:
        row = bits(mask, mask.bit_length())
        out[offset : offset + len(row)] |= row.astype(out.dtype)


def numbers_into(out: np.ndarray, legal: list[Any], by_id: dict[int, int]) -> list[Any]:
    """``out[n] = 1`` for each legal action's table number ``n``, found by the object's
    identity in ``by_id``; the actions that were not found (not the table's own objects)."""
    if _FAST_PLANES:
        assert _fast is not None
        return _fast.numbers_into(out, legal, by_id)  # type: ignore[no-any-return]
    missing = []
    numbers = []
    for action in legal:
        n = by_id.get(id(action))
        if n is None:
            missing.append(action)
        else:
            numbers.append(n)
    out[numbers] = 1
    return missing
