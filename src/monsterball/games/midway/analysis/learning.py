"""Monsters of the Midway for the learning environments (``SPEC.rl``, core/learning.py):
its planes (sizes and movement allowances as valued marks; the other side's hidden caster
and invisible player left out, as its view leaves them out) and its scalars (the draft's
rosters among them)."""

from __future__ import annotations

from typing import Any

import numpy as np

from monsterball.core.game import GameSpec, GameState
from monsterball.core.learning import IX, GameFeatures, Marks, popcount, ratio
from monsterball.core.options import GameOptions

# -- Monsters of the Midway ------------------------------------------------------------------

_BALL_STATES = ("", "held", "loose", "pass", "kick", "punt", "hidden")
_SIZE_CODE = {"S": 1, "M": 2, "L": 3, "G": 4}
MIDWAY_TARGET = 21  # scores are scaled by "three touchdowns"; the game has no target


class MidwayFeatures(GameFeatures):
    spatial = (
        "own_pieces",
        "opp_pieces",
        "own_size",
        "opp_size",
        "own_out",
        "opp_out",
        "own_move",
        "opp_move",
        "ball",
        "ball_held",
        "own_end_zone",
        "opp_end_zone",
        "hash",
        "image",
        "vanished",
        "punt",
    )
    team_size = 10
    north_attacker = False  # Midway's ``north_team`` defends the north end zone

    def __init__(self, spec: GameSpec, options: GameOptions):
        super().__init__(spec, options)
        start: Any = spec.new_game(options)
        self.chart = start.chart
        self.kinds: tuple[str, ...] = start.chart.names
        self.plays = max(1, int(self.opts.plays))
        self._size_mv: dict[tuple[str, int], tuple[int, int]] = {}
        self._drafts: dict[Any, list[float]] = {}  # draft scalars by (seat, rosters, spells)
        # Per seat, per player: the flat offsets of his piece, identity, size, move and out
        # planes (the marks' loop reads them, not the plane names).
        cells = self.cells
        self._rows: list[tuple[tuple[int, int, int, int, int, int], ...]] = []
        for seat in (0, 1):
            rows: list[tuple[int, int, int, int, int, int]] = []
            for p, (piece, ident) in enumerate(self._pairs[seat]):
                side = "own" if p // 10 == seat else "opp"
                size, move, out = (IX[f"{side}_{k}"] * cells for k in ("size", "move", "out"))
                rows.append((p, piece, ident, size, move, out))
            self._rows.append(tuple(rows))
        self.names = (
            "down",
            "plays",
            "plays_left",
            *(f"ball:{b or 'none'}" for b in _BALL_STATES),
            "carrier_mine",
            "line_of_scrimmage",
            "image_counters",
            "invisible_player",
            "moves_left",
            "drafted_me",
            "drafted_opp",
            "draft_points_me",
            "draft_points_opp",
            "spells_spent_me",
            "spells_spent_opp",
            *(f"roster_me:{k}" for k in self.kinds),
            *(f"roster_opp:{k}" for k in self.kinds),
        )

    def points_to_win(self) -> int:
        return MIDWAY_TARGET

    def end_zone_depth(self) -> int:
        return 2

    def static(self, state: Any, seat: int, out: np.ndarray) -> None:
        super().static(state, seat, out)
        hashes = out[IX["hash"]].reshape(-1, self.width)
        hashes[:, [1, self.width - 2]] = 1.0

    def _hidden(self, state: Any, seat: int) -> tuple[int, ...]:
        # MidwayState.hidden_from: the other team's caster and invisible player.
        return tuple(p for p in (state.caster, state.invisible) if p >= 0 and p // 10 != seat)

    def marks(self, state: Any, seat: int, out: Marks) -> None:
        cells = self.cells
        hidden = self._hidden(state, seat)
        roster, pos, form, were = state.roster, state.pos, state.form, state.were
        out_through, play_no, carrier = state.out_through, state.play_no, state.carrier
        at = out.ones  # board indices set to 1
        valued, values = out.at, out.values  # sizes and movement allowances
        size_mv_of = self._size_mv
        held = IX["ball_held"] * cells
        for p, piece, ident, size_at, move_at, out_at in self._rows[seat]:
            c = pos[p]
            if c < 0 or not roster[p] or p in hidden:
                continue
            key = (form[p] or roster[p], were >> p & 1)
            size_mv = size_mv_of.get(key)
            if size_mv is None:  # MidwayState.mtype depends on the type and were form only
                kind = state.mtype(p)
                size_mv = size_mv_of[key] = (_SIZE_CODE.get(kind.size, 0), kind.mv)
            at += (piece + c, ident + c)
            valued += (size_at + c, move_at + c)
            values += size_mv
            if out_through[p] >= play_no:  # not MidwayState.available (on the roster)
                at.append(out_at + c)
            if p == carrier:
                at.append(held + c)
        if state.ball >= 0 and state.carrier not in hidden:
            at.append(IX["ball"] * cells + state.ball)
        if state.caster >= 0:
            at.extend(IX["image"] * cells + c for c in (*state.images, pos[state.caster]))
        else:
            at.extend(IX["image"] * cells + c for c in state.images)
        if state.ball_state == "punt":
            for packed in state.punt_path:
                col, row = divmod(packed, 100)
                if not state.on_board(col, row):
                    break
                at.append(IX["punt"] * cells + row * self.width + col)
        if state.invisible >= 0 and state.vanish >= 0:
            at.append(IX["vanished"] * cells + state.vanish)

    def _roster(
        self, state: GameState, types: list[tuple[str, str]], seat: int, spent: int
    ) -> list[float]:
        """Draft scalars from (team letter, type) of every drafted player."""
        me, opp = self.spec.seat_names[seat], self.spec.seat_names[1 - seat]
        counts = {me: dict.fromkeys(self.kinds, 0), opp: dict.fromkeys(self.kinds, 0)}
        drafted = {me: 0, opp: 0}
        points = {me: 0, opp: 0}  # draft points spent, against the chart's budget
        chart = self.chart
        for team, kind in types:
            drafted[team] += 1
            if kind in chart.types:
                points[team] += chart.types[kind].points
            if kind in counts[team]:
                counts[team][kind] += 1
        per = self.team_size
        spent_by = [popcount(spent >> (t * per) & ((1 << per) - 1)) for t in (seat, 1 - seat)]
        budget = max(1, chart.max_points)
        return [
            drafted[me] / per,
            drafted[opp] / per,
            points[me] / budget,
            points[opp] / budget,
            spent_by[0] / per,
            spent_by[1] / per,
            *(counts[me][k] / per for k in self.kinds),
            *(counts[opp][k] / per for k in self.kinds),
        ]

    def _moves_left(self, state: GameState, seat: int) -> float:
        """Moves left in a movement phase: only in the seat's own phase."""
        top: Any = state.stack[-1] if state.stack else None
        if type(top).__name__ == "Phase" and top.team == seat:
            return ratio(sum(x for x in top.left if x > 0), 6.0 * self.team_size)
        return 0.0

    def _play(self, view_down: int, plays: int, plays_left: int) -> list[float]:
        return [view_down / 4.0, plays / self.plays, plays_left / self.plays]

    def scalars(self, state: Any, seat: int) -> list[float]:
        hidden = self._hidden(state, seat)
        carrier = state.carrier
        carrier_hidden = carrier >= 0 and carrier in hidden
        ball_state = "hidden" if carrier_hidden else state.ball_state
        key = (seat, tuple(state.roster), tuple(state.form), state.spent)
        draft = self._drafts.get(key)
        if draft is None:
            if len(self._drafts) > 4096:
                self._drafts.clear()
            letters = self.spec.seat_names
            types = [
                (letters[p // 10], state.form[p] or r) for p, r in enumerate(state.roster) if r
            ]
            draft = self._drafts[key] = self._roster(state, types, seat, state.spent)
        counters = len(state.images) + (state.caster >= 0)
        return [
            *self.common(state, seat),
            *self._play(state.down, state.plays, self.opts.plays - state.plays),
            *(float(ball_state == b) for b in _BALL_STATES),
            float(carrier >= 0 and not carrier_hidden and carrier // 10 == seat),
            state.los_row / 24.0 if state.los_row >= 0 else 0.0,
            counters / 4.0,
            float(state.invisible >= 0 and state.vanish >= 0),
            self._moves_left(state, seat),
            *draft,
        ]

    def reference(self, state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        mw: Any = state
        me = self.spec.seat_names[seat]
        ball_state = "hidden" if view["ball"] == "hidden" else view["ball_state"]
        carrier = view["carrier"]
        types = [(name[0], info["type"]) for name, info in view["players"].items()]
        return [
            *self._play(view["down"], view["plays"], view["plays_left"]),
            *(float(ball_state == b) for b in _BALL_STATES),
            float(carrier is not None and carrier != "hidden" and carrier[0] == me),
            mw.los_row / 24.0 if mw.los_row >= 0 else 0.0,
            len(view["counters"]) / 4.0,
            float(view["vanished_at"] is not None),
            self._moves_left(state, seat),
            *self._roster(state, types, seat, mw.spent),
        ]


def features(spec: Any, options: Any) -> MidwayFeatures:
    return MidwayFeatures(spec, options)
