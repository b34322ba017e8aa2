"""Per-game observation code: which board planes a game uses, its static planes (end zones,
lines), the planes read from its state each ply, and its scalars.

Each game has two readings of its scalars: ``scalars`` from the state's fields (the fast
path) and ``reference`` from ``state.view(seat)`` (what the first encoder read), and the
tests hold the two equal. Everything here is a module-level class or function, so an
encoder pickles (no closures: issue 37).
"""

from __future__ import annotations

from typing import Any

import numpy as np

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


def ratio(x: float, k: float) -> float:
    """An unbounded count in [0, 1): strictly increasing, 1/2 at ``k``."""
    return x / (x + k) if x > 0 else 0.0


def lead(d: float, k: float) -> float:
    """A difference in (0, 1): 1/2 when level."""
    return 0.5 + 0.5 * d / (abs(d) + k)


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def top_field(state: GameState, step: str, name: str, default: int = 0) -> int:
    if not state.stack or type(state.stack[-1]).__name__ != step:
        return default
    return int(getattr(state.stack[-1], name))


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
        size, cells = self.team_size, 0
        start: Any = spec.new_game(options)
        self.width = start.field.width
        cells = start.field.width * start.field.height
        self.cells = cells
        n = 2 * size
        base = len(SPATIAL)
        # Flat offsets (plane * cells) of each player's piece and identity planes, per seat.
        self._offsets = []
        for seat in (0, 1):
            own = [p // size == seat for p in range(n)]
            piece = [IX["own_pieces" if o else "opp_pieces"] for o in own]
            ident = [base + (0 if o else size) + p % size for p, o in enumerate(own)]
            self._offsets.append(np.array([piece, ident], np.int64) * cells)
        self._pairs = [[(int(a), int(b)) for a, b in zip(*o, strict=True)] for o in self._offsets]

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

    def place_players(self, state: Any, seat: int, flat: np.ndarray) -> list[int]:
        """Piece and identity planes from ``pos``; the players' cells (-1 off the field)."""
        at = []
        pos: list[int] = state.pos
        for (piece, ident), c in zip(self._pairs[seat], pos, strict=True):
            if c >= 0:
                at.append(piece + c)
                at.append(ident + c)
        flat[at] = 1.0
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

    def fill(self, state: Any, seat: int, out: np.ndarray) -> None:
        raise NotImplementedError

    def scalars(self, state: Any, seat: int) -> list[float]:
        raise NotImplementedError

    def reference(self, state: GameState, view: dict[str, Any], seat: int) -> list[float]:
        raise NotImplementedError


# -- Paper Ultimate ---------------------------------------------------------------------------


class PaperFeatures(GameFeatures):
    names = ("throws", "throws_nearly_up", "marker_only", "moved_runners")
    spatial = ("own_pieces", "opp_pieces", "ball", "ball_held", "own_end_zone", "opp_end_zone")
    team_size = 4

    def _throws(self, throws: int) -> list[float]:
        cap = self.opts.max_throws
        return [
            throws / cap if cap else ratio(throws, 100.0),
            float(cap > 0 and cap - throws <= 5),
        ]

    def fill(self, state: Any, seat: int, out: np.ndarray) -> None:
        flat = out.reshape(-1)
        pos = self.place_players(state, seat, flat)
        cells = self.cells
        if state.disc >= 0:
            flat[IX["ball"] * cells + state.disc] = 1.0
        if state.holder >= 0:
            flat[IX["ball_held"] * cells + pos[state.holder]] = 1.0

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

    def points_to_win(self) -> int:
        return int(getattr(self.opts, "points_to_win", 7))

    def static(self, state: Any, seat: int, out: np.ndarray) -> None:
        super().static(state, seat, out)
        w = self.width
        for team in (0, 1):
            row = state.line_row(team)
            out[IX["line"], row * w : (row + 1) * w] = 1.0
        out[IX["stealth"]] = _bits(state.stealth, self.cells)

    def fill(self, state: Any, seat: int, out: np.ndarray) -> None:
        flat = out.reshape(-1)
        pos = self.place_players(state, seat, flat)
        cells = self.cells
        if state.disc >= 0:
            flat[IX["ball"] * cells + state.disc] = 1.0
        if state.holder >= 0:
            flat[IX["ball_held"] * cells + pos[state.holder]] = 1.0
        if state.receiver >= 0 and pos[state.receiver] >= 0:
            flat[IX["receiver"] * cells + pos[state.receiver]] = 1.0
        # An offensive All-Star who acted stays in ``bidders`` (HM-STAR-6): not a bidder.
        size = self.team_size
        bidders = state.bidders & ~(((1 << size) - 1) << (state.offense * size))
        if bidders:
            at = [pos[p] for p in range(2 * size) if bidders >> p & 1 and pos[p] >= 0]
            flat[IX["bidder"] * cells + np.array(at, np.int64)] = 1.0
        if state.cones:
            out[IX["cone"]] = _bits(state.cones, cells)
        if state.path:
            rest = state.path[max(state.progress, -1) + 1 :]
            if rest:
                flat[IX["path"] * cells + np.array(rest, np.int64)] = 1.0

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

    def fill(self, state: Any, seat: int, out: np.ndarray) -> None:
        flat = out.reshape(-1)
        cells = self.cells
        hidden = self._hidden(state, seat)
        roster, pos = state.roster, state.pos
        at: list[int] = []  # flat indices set to 1
        sizes: list[int] = []
        size_at: list[int] = []
        moves: list[int] = []
        move_at: list[int] = []
        pieces = self._offsets[seat]
        for p in range(20):
            c = pos[p]
            if c < 0 or not roster[p] or p in hidden:
                continue
            own = p // 10 == seat
            at.append(pieces[0, p] + c)
            at.append(pieces[1, p] + c)
            key = (state.form[p] or roster[p], state.were >> p & 1)
            size_mv = self._size_mv.get(key)
            if size_mv is None:  # MidwayState.mtype depends on the type and were form only
                kind = state.mtype(p)
                size_mv = self._size_mv[key] = (_SIZE_CODE.get(kind.size, 0), kind.mv)
            size_at.append((IX["own_size"] if own else IX["opp_size"]) * cells + c)
            sizes.append(size_mv[0])
            move_at.append((IX["own_move"] if own else IX["opp_move"]) * cells + c)
            moves.append(size_mv[1])
            if not state.available(p):
                at.append((IX["own_out"] if own else IX["opp_out"]) * cells + c)
            if p == state.carrier:
                at.append(IX["ball_held"] * cells + c)
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
        flat[at] = 1.0
        flat[size_at] = sizes
        flat[move_at] = moves

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


def _bits(mask: int, cells: int) -> np.ndarray:
    """A cell bitmask as a 0/1 row of ``cells`` (the board's words, unpacked by numpy)."""
    raw = np.frombuffer(mask.to_bytes((cells + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, count=cells, bitorder="little")


GAMES: dict[str, type[GameFeatures]] = {
    "paper-ultimate": PaperFeatures,
    "huck-monster": HuckFeatures,
    "midway": MidwayFeatures,
}


def game_features(spec: GameSpec, options: GameOptions) -> GameFeatures:
    return GAMES[spec.id](spec, options)
