"""Paper Ultimate for the learning environments (``SPEC.rl``, core/learning.py): its planes,
its scalars, and the legal-action mask of its running and throwing steps written straight
from the bitboards (the table numbers a run ``RunTo(p, cell)`` as ``run + p * cells +
cell``), which is where random play spends most of its decisions."""

from __future__ import annotations

from typing import Any

import numpy as np

from monsterball.core.game import GameState
from monsterball.core.learning import (
    IX,
    GameFeatures,
    Marks,
    bits_into,
    popcount,
    ratio,
    top_field,
)
from monsterball.games.paper_ultimate.actions import DECLARE_TURN, END
from monsterball.games.paper_ultimate.rules.running import Running
from monsterball.games.paper_ultimate.rules.throwing import Throwing


class PaperFeatures(GameFeatures):
    names = ("throws", "throws_nearly_up", "marker_only", "moved_runners")
    spatial = ("own_pieces", "opp_pieces", "ball", "ball_held", "own_end_zone", "opp_end_zone")
    team_size = 4

    def __init__(self, spec: Any, options: Any):
        super().__init__(spec, options)
        table = spec.action_table(options)
        number = table._by_action
        cat = spec.new_game(options).actions
        self.run_base = number[cat.run[0][0]]
        self.end = number[END]
        self.pass_base = number[cat.pass_to[0]]
        self.declare = number[DECLARE_TURN]

    def _throws(self, throws: int) -> list[float]:
        cap = self.opts.max_throws
        return [
            throws / cap if cap else ratio(throws, 100.0),
            float(cap > 0 and cap - throws <= 5),
        ]

    def marks(self, state: Any, seat: int, out: Marks) -> None:
        ones = out.ones
        pos = self.place_players(state, seat, ones)
        cells = self.cells
        if state.disc >= 0:
            ones.append(IX["ball"] * cells + state.disc)
        if state.holder >= 0:
            ones.append(IX["ball_held"] * cells + pos[state.holder])

    def scalars(self, state: Any, seat: int) -> list[float]:
        return [
            *self.common(state, seat),
            *self._throws(state.throws),
            float(state.marker_only >= 0),
            popcount(top_field(state, "Running", "moved")) / 4.0,
        ]

    def reference(self, state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        return [
            *self._throws(view["throws"]),
            float(view["marker_only"] is not None),
            popcount(top_field(state, "Running", "moved")) / 4.0,
        ]

    def legal_mask(self, state: Any, out: np.ndarray) -> bool:
        top = state.stack[-1]
        kind = type(top)
        if kind is Running:
            cells, base = self.cells, self.run_base
            for p in top.movable(state):
                bits_into(out, base + p * cells, state.run_destinations(p))
            if top.end_blocker(state) is None:
                out[self.end] = 1
            return True
        if kind is Throwing:
            targets = state.pass_targets()
            if not targets:
                out[self.declare] = 1
            else:
                out[[self.pass_base + p for p in targets]] = 1
            return True
        return False


def features(spec: Any, options: Any) -> PaperFeatures:
    return PaperFeatures(spec, options)
