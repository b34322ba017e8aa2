"""Toy Dash for the learning environments: its own planes (the runners, the traps its seat
may see) and scalars on the base of core/learning.py, declared as ``SPEC.rl``."""

from __future__ import annotations

from typing import Any

import numpy as np

from monsterball.core.game import GameState
from monsterball.core.learning import IX, GameFeatures, Marks


class ToyFeatures(GameFeatures):
    names = ("traps_set",)
    spatial = ("own_pieces", "opp_pieces", "pothole")
    team_size = 1

    def field_size(self, start: Any) -> tuple[int, int]:
        return 2, int(start.length)  # two tracks, columns a and b

    def template_key(self, state: Any) -> Any:
        return 0

    def static(self, state: Any, seat: int, out: np.ndarray) -> None:
        pass  # no end zones: the last row is the goal

    def attacks_north(self, state: Any, seat: int) -> bool:
        return True

    def common(self, state: Any, seat: int) -> list[float]:
        actor = state.current_player()
        return [
            float(actor == seat),
            float(actor == 1 - seat),
            1.0,
            0.0,
            float(state.score[seat]),
            float(state.score[1 - seat]),
            0.5 + 0.5 * (state.score[seat] - state.score[1 - seat]),
        ]

    def marks(self, state: Any, seat: int, out: Marks) -> None:
        cells, w = self.cells, self.width
        for team in (0, 1):
            piece, ident = self._pairs[seat][team]
            cell = state.row[team] * w + team
            out.ones += [piece + cell, ident + cell]
        hidden = state.hidden_from(seat)
        for track in (0, 1):
            row = state.trap[track]
            if row >= 0 and 2 + track not in hidden:
                out.ones.append(IX["pothole"] * cells + row * w + track)

    def scalars(self, state: Any, seat: int) -> list[float]:
        return [*self.common(state, seat), float(not state.setting_traps())]

    def reference(self, state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        return [float(not any(step in view["step"] for step in ("trap",)))]


def features(spec: Any, options: Any) -> ToyFeatures:
    return ToyFeatures(spec, options)
