"""Huck + Monster for the learning environments (``SPEC.rl``, core/learning.py): its planes
(the pull lines and Stealth Spaces in the static template, cones as a bitmask plane, the
disc's remaining path), its scalars, and the legal-action mask of its team moves (most of
its decisions, hundreds of moves each) written from each player's destination cells (the
table numbers a move ``MoveTo(p, cell)`` as ``move + p * cells + cell``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from monsterball.core.game import GameState
from monsterball.core.learning import (
    IX,
    GameFeatures,
    Marks,
    bits,
    bits_into,
    popcount,
    ratio,
    top_field,
)
from monsterball.games.huck_monster.actions import END, catalogue
from monsterball.games.huck_monster.rules.moves import Moving

# -- Huck + Monster ---------------------------------------------------------------------------

_HM_ACTIONS = ("", "throw", "catch")  # the offense's action under way in an Up Call


class HuckFeatures(GameFeatures):
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
    spatial = (
        "own_pieces",
        "opp_pieces",
        "ball",
        "ball_held",
        "receiver",
        "bidder",
        "own_end_zone",
        "opp_end_zone",
        "line",
        "cone",
        "stealth",
        "path",
    )
    team_size = 7

    def __init__(self, spec: Any, options: Any):
        super().__init__(spec, options)
        cat = catalogue(options.grid, options.width, options.length)
        number = cat.table._by_action
        self.move_base = number[cat.move[0][0]]
        self.move_row = len(cat.move[0])  # the field's cells
        self.end = number[END]

    def points_to_win(self) -> int:
        return int(getattr(self.opts, "points_to_win", 7))

    def legal_mask(self, state: Any, out: np.ndarray) -> bool:
        top = state.stack[-1]
        if type(top) is not Moving:
            return False
        moves, end = top.move_masks(state)
        base, row = self.move_base, self.move_row
        for p, mask in moves:
            bits_into(out, base + p * row, mask)
        if end:
            out[self.end] = 1
        return True

    def static(self, state: Any, seat: int, out: np.ndarray) -> None:
        super().static(state, seat, out)
        w = self.width
        for team in (0, 1):
            row = state.line_row(team)
            out[IX["line"], row * w : (row + 1) * w] = 1.0
        out[IX["stealth"]] = bits(state.stealth, self.cells)

    def marks(self, state: Any, seat: int, out: Marks) -> None:
        ones = out.ones
        pos = self.place_players(state, seat, ones)
        cells = self.cells
        if state.disc >= 0:
            ones.append(IX["ball"] * cells + state.disc)
        if state.holder >= 0:
            ones.append(IX["ball_held"] * cells + pos[state.holder])
        if state.receiver >= 0 and pos[state.receiver] >= 0:
            ones.append(IX["receiver"] * cells + pos[state.receiver])
        # An offensive All-Star who acted stays in ``bidders`` (HM-STAR-6): not a bidder.
        size = self.team_size
        bidders = state.bidders & ~(((1 << size) - 1) << (state.offense * size))
        if bidders:
            first = IX["bidder"] * cells
            ones.extend(first + pos[p] for p in range(2 * size) if bidders >> p & 1 and pos[p] >= 0)
        if state.cones:
            out.masks.append((IX["cone"], state.cones))
        if state.path:
            first = IX["path"] * cells
            ones.extend(first + c for c in state.path[max(state.progress, -1) + 1 :])

    def _scalars(
        self,
        seat: int,
        up_calls: int,
        used: Any,
        action: str,
        base: int,
        light: Any,
        halved: bool,
        bidders: int,
        poach: bool,
        continuing: bool,
        coach_turn: Any,
        cones: int,
        state: GameState,
    ) -> list[float]:
        opts = self.opts
        other = 1 - seat
        hide_count = bool(opts.contested_count and opts.continues == "one-die")
        flags = [float(action == a) for a in _HM_ACTIONS]
        if action not in _HM_ACTIONS:
            flags[0] = 1.0
        cap = opts.max_up_calls
        return [
            up_calls / cap if cap else ratio(up_calls, 200.0),
            float(used[seat]),
            float(used[other]),
            *flags,
            0.0 if hide_count else ratio(base, 12.0),  # HM-R50: the count from memory
            float(bool(light)),
            float(halved),
            bidders / 14.0,
            float(poach),
            float(continuing),
            ratio(coach_turn[seat], 6.0),
            ratio(coach_turn[other], 6.0),
            ratio(top_field(state, "Moving", "left"), 18.0),  # moves left in the budget
            ratio(top_field(state, "Aim", "count"), 12.0),
            ratio(top_field(state, "PullLanding", "count"), 12.0),
            ratio(top_field(state, "MoveRoll", "dice"), 3.0),
            ratio(cones, 10.0),
        ]

    def scalars(self, state: Any, seat: int) -> list[float]:
        return [
            *self.common(state, seat),
            *self._scalars(
                seat,
                state.up_calls,
                state.strategy_used,
                state.action,
                state.base,
                state.light,
                state.halved,
                popcount(state.bidders),
                state.poach,
                state.continuing,
                state.coach_turn,
                popcount(state.cones),
                state,
            ),
        ]

    def reference(self, state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        return self._scalars(
            seat,
            view["up_calls"],
            view["strategy_used"],
            view["action"],
            view["base"],
            view["light"],
            view["halved"],
            len(view["bidders"]),
            view["poach"],
            view["continuing"],
            view["coach_turn"],
            len(view["cones"]),
            state,
        )


def features(spec: Any, options: Any) -> HuckFeatures:
    return HuckFeatures(spec, options)
