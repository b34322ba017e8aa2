"""The Monsters of the Midway board and the questions the rules ask of it.

Field (ruling MW-R4): 14 hexes wide, 24 rows long: two 2-row end zones and 20 rows of
5 yards between the goal lines, so midfield is 50 yards (10 rows) from each goal line::

    row 24 ~~~~~~~~~~~~~~  north end zone (rows 23-24 as printed, 22-23 internally)
    row 23 ~~~~~~~~~~~~~~
    row 22 . . . . . . ..  5-yard row before the north goal line
      ..
    row 13 . . . . . . ..  } midfield line between rows 12 and 13
    row 12 . . . . . . ..  }
      ..
    row  3 . . . . . . ..
    row  2 ~~~~~~~~~~~~~~  south end zone
    row  1 ~~~~~~~~~~~~~~
           a b c ... l m n   (hash marks between b|c and l|m)

Cells are ``row * 14 + col`` (names ``a1`` .. ``n24``). ``north_team`` defends the north end
zone (and has the wind); the other team attacks north.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from monsterball.core import geometry
from monsterball.core.errors import PositionError
from monsterball.core.game import CHANCE, GameSpec, TeamScoreState
from monsterball.core.geometry import HexGrid, grid
from monsterball.core.positions import check_keys
from monsterball.core.procedures import Procedure
from monsterball.games.midway.actions import (
    LENGTH,
    NUM_PLAYERS,
    PER_TEAM,
    WIDTH,
    Catalogue,
    catalogue,
    player_name,
)
from monsterball.games.midway.chart import DraftChart, MonsterType, default_chart
from monsterball.games.midway.options import TEAM_NAMES, MidwayOptions, parse_roster

NOBODY = -1
FOREVER = 1_000_000  # "injured for the game": out through this play number
HASH_LO, HASH_HI = 2, WIDTH - 3  # columns just inside the hash marks
MID_COL = 6

# Board fields: name -> kind ("int", "bool", "str", "ints" (20), "strs" (20), "list").
FIELDS: dict[str, str] = {
    "roster": "strs",
    "form": "strs",  # change self: the chart type the player has become ("" none)
    "form_left": "ints",  # movement phases left of change self
    "were": "int",  # bitmask of werebears in were form
    "pos": "ints",
    "out_through": "ints",  # out of the game through this play number (-1: available)
    "ball": "int",
    "carrier": "int",
    "ball_state": "str",  # "" (no ball), held, loose, pass, kick, punt
    "offense": "int",  # the team with the downs
    "poss": "int",  # the team holding (or last holding) the ball
    "north_team": "int",
    "score": "list",
    "plays": "int",  # plays counted toward the game's length
    "play_no": "int",  # every play, conversions included (for injuries)
    "down": "int",
    "spot": "int",  # the ball's spot for the next play from scrimmage
    "kind": "str",  # kickoff, onside, scrimmage, conversion, field goal, punt
    "los_row": "int",
    "linemen": "int",  # bitmask: offensive players on the line at the snap
    "passed": "bool",
    "crossed": "bool",  # a backfield player crossed the line before a pass
    "thrower_row": "int",
    "phases": "int",  # movement phases in this play
    "idle": "int",  # movement phases in a row in which nobody acted (MW-R23)
    "first_phase": "int",  # team whose first phase gets the kickoff +2 / snap -2 (-1 none)
    "receivable": "int",  # team that may still catch the kick/punt on the fly (-1 none)
    "punter": "int",
    "punt_path": "list",
    "punt_travel": "int",
    "bounces": "int",
    "no_recover": "int",  # a blocked punter, barred from recovering this phase
    "onside_ok": "bool",  # the onside kick went 10 yards: the kickers may recover
    "tried": "int",  # defenders who tried a tackle in this set of phases
    "retry": "int",  # ... of them, who tried before a handoff (MW-TACK-3's exception)
    "phase_mod": "int",  # this phase's change to movement factors: +2 kickoff, -2 snap
    "frozen": "int",  # may not move in their next phase (neutralized or blocked)
    "no_tackle": "int",  # successfully blocked: no tackle in this movement phase
    "no_tackle_next": "int",  # ... nor in the next one (blocked during this phase)
    "slowed": "int",  # 2 bits a player: movement he loses in his team's next phase
    "dazed": "int",  # contacted a mirror image: no more action this phase
    "images": "list",  # cells of false mirror-image counters
    "caster": "int",  # the real mirror-image caster (-1 none)
    "image_phases": "int",
    "invisible": "int",
    "vanish": "int",
    "vanish_reach": "int",  # the invisible player's movement in the phase he vanished
    "appear_at": "int",
    "last_dir": "int",  # direction of the ball's last travel (for direction modifiers)
    "throw_phase": "int",  # the phase in which the pass was thrown
    "dead": "str",  # why the play just ended ("" while it runs)
    "phase_over": "bool",  # a recovery ended the moving team's phase
    "spent": "int",  # players who have used their spell (option spell_limit)
    "winner": "int",
}


# Fields added after positions were first written, with the value an older position means.
ADDED_FIELDS: dict[str, Any] = {"retry": 0, "vanish_reach": 0, "phase_mod": 0}


def cells_mask(cells: list[int], lo: int, hi: int) -> int:
    """The bitmask of the cells in ``cells[lo:hi]`` that are >= 0 (``lo >= 0``): where the
    players of a slice of ``pos`` stand. The reference of the compiled twin below."""
    mask = 0
    for c in cells[lo:hi]:
        if c >= 0:
            mask |= 1 << c
    return mask


def _field_copier() -> Callable[[Any, Any], None]:
    """A function copying every board field of FIELDS from one state to another (lists as
    copies), written out field by field once, as dataclasses writes its methods: about
    four times quicker than a getattr/setattr loop, and it cannot miss a field."""
    lines = ["def copy_fields(src, dst):"]
    for name, kind in FIELDS.items():
        lines.append(f"    dst.{name} = src.{name}" + ("[:]" if kind in _LISTS else ""))
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # the text is built from FIELDS only
    copier: Callable[[Any, Any], None] = namespace["copy_fields"]
    return copier


_LISTS = ("ints", "strs", "list")
_copy_fields = _field_copier()


_BEYOND: dict[tuple[int, int], int] = {}  # (forward, line) -> MidwayState.beyond_mask


def _fits(value: Any, kind: str) -> bool:
    """Whether a board field read from a position has the type FIELDS gives it."""
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind not in ("ints", "strs", "list"):
        raise KeyError(kind)
    if not isinstance(value, list):
        return False
    if kind == "strs":
        if len(value) != NUM_PLAYERS:
            return False
        return set(map(type, value)) <= _STR or all(isinstance(v, str) for v in value)
    if kind == "ints" and len(value) != NUM_PLAYERS:
        return False
    # Plain ints (all that JSON gives) are seen in C; anything else is looked at one by one.
    return set(map(type, value)) <= _INT or all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


_INT, _STR = {int}, {str}


def team_of(player: int) -> int:
    return player // PER_TEAM


def team_players(team: int) -> range:
    return range(team * PER_TEAM, (team + 1) * PER_TEAM)


class MidwayState(TeamScoreState):
    """One position of Monsters of the Midway (see FIELDS for the board)."""

    options: MidwayOptions
    procedure_kinds: ClassVar[Mapping[str, type[Procedure[Any]]]] = {}
    wiring: ClassVar[Wiring]  # set by the game's package (see bind)

    __slots__ = ("actions", "chart", "field", *FIELDS)

    def __init__(self, options: MidwayOptions):
        super().__init__(options)
        self._attach_tables()
        self.roster = [""] * NUM_PLAYERS
        self.form = [""] * NUM_PLAYERS
        self.form_left = [0] * NUM_PLAYERS
        self.were = 0
        self.pos = [NOBODY] * NUM_PLAYERS
        self.out_through = [NOBODY] * NUM_PLAYERS
        self.ball = NOBODY
        self.carrier = NOBODY
        self.ball_state = ""
        self.offense = 0
        self.poss = 0
        self.north_team = 1
        self.score = [0, 0]
        self.plays = 0
        self.play_no = 0
        self.down = 1
        self.spot = NOBODY
        self.kind = ""
        self.los_row = 0
        self.linemen = 0
        self.passed = False
        self.crossed = False
        self.thrower_row = 0
        self.phases = 0
        self.idle = 0
        self.first_phase = NOBODY
        self.receivable = NOBODY
        self.punter = NOBODY
        self.punt_path: list[int] = []
        self.punt_travel = 0
        self.bounces = 0
        self.no_recover = NOBODY
        self.onside_ok = False
        self.tried = 0
        self.retry = 0
        self.phase_mod = 0
        self.frozen = 0
        self.no_tackle = 0
        self.no_tackle_next = 0
        self.slowed = 0
        self.dazed = 0
        self.images: list[int] = []
        self.caster = NOBODY
        self.image_phases = 0
        self.invisible = NOBODY
        self.vanish = NOBODY
        self.vanish_reach = 0
        self.appear_at = NOBODY
        self.last_dir = 0
        self.throw_phase = 0
        self.dead = ""
        self.phase_over = False
        self.spent = 0
        self.winner = NOBODY
        for team, text in enumerate((options.roster_a, options.roster_b)):
            if text:
                for i, kind in enumerate(parse_roster(text)):
                    self.roster[team * PER_TEAM + i] = kind
        self.stack = self.wiring.first_steps(self)

    def _attach_tables(self) -> None:
        field = grid("hex", WIDTH, LENGTH)
        assert isinstance(field, HexGrid)
        self.field = field
        self.actions: Catalogue = catalogue()
        self.chart: DraftChart = default_chart()

    def _copy_board(self, other: MidwayState) -> None:
        other.field = self.field
        other.actions = self.actions
        other.chart = self.chart
        _copy_fields(self, other)

    # -- players ------------------------------------------------------------------------------

    def mtype(self, player: int) -> MonsterType:
        """The player's current type: change self and were form included."""
        kind = self.form[player] or self.roster[player]
        base = self.chart.types[kind]
        if self.were >> player & 1 and base.were_size:
            return MonsterType(
                base.name, base.points, base.were_mv, base.were_size, 0, base.rec_mod, base.magic
            )
        return base

    def kind_of(self, player: int) -> str:
        return self.form[player] or self.roster[player]

    def available(self, player: int) -> bool:
        return self.roster[player] != "" and self.out_through[player] < self.play_no

    def on_field(self, team: int) -> list[int]:
        return [p for p in team_players(team) if self.pos[p] >= 0]

    def team_mask(self, team: int) -> int:
        mask = 0
        for p in team_players(team):
            if self.pos[p] >= 0:
                mask |= 1 << self.pos[p]
        return mask

    def counters_mask(self) -> int:
        """Every hex with a counter on it: players (the invisible one excluded) and images."""
        pos = self.pos
        mask = cells_mask(pos, 0, NUM_PLAYERS)
        hidden = self.invisible
        if hidden >= 0:
            c = pos[hidden]
            if c >= 0 and pos.count(c) == 1:  # nobody else shows a counter there
                mask &= ~(1 << c)
        for c in self.images:
            mask |= 1 << c
        return mask

    def players_at(self, cell: int) -> list[int]:
        return [p for p in range(NUM_PLAYERS) if self.pos[p] == cell and p != self.invisible]

    def remove(self, player: int) -> None:
        """Off the field (injury, stunned): ends any spell the player holds, and a snap
        receiver off the field can no longer punt (MW-PUNT-2)."""
        self.pos[player] = NOBODY
        if player == self.punter:
            self.punter = NOBODY
        if player == self.caster:
            self.caster = NOBODY
            self.images = []
        if player == self.invisible:
            self.invisible = NOBODY
            self.vanish = NOBODY
            self.vanish_reach = 0
            self.appear_at = NOBODY

    # -- field geometry -------------------------------------------------------------------------

    def forward(self, team: int) -> int:
        """+1 if ``team`` attacks north, -1 if south."""
        return -1 if team == self.north_team else 1

    def row(self, cell: int) -> int:
        return cell // WIDTH

    def col(self, cell: int) -> int:
        return cell % WIDTH

    def own_end_zone(self, team: int, row: int) -> bool:
        return row >= LENGTH - 2 if team == self.north_team else row <= 1

    def in_end_zone(self, row: int) -> bool:
        return row <= 1 or row >= LENGTH - 2

    def yard_row(self, team: int, yards: int) -> int:
        """The row just behind ``team``'s own ``yards`` line (the 40: the 35-40 row)."""
        south_row = 2 + yards // 5 - 1
        return south_row if team != self.north_team else LENGTH - 1 - south_row

    def beyond(self, team: int, row: int, line: int) -> bool:
        """Whether ``row`` is past ``line`` in ``team``'s direction of attack."""
        return (row - line) * self.forward(team) > 0

    def beyond_mask(self, team: int, line: int) -> int:
        """Bitmask of the hexes in the rows past ``line`` in ``team``'s direction of attack
        (the rows :meth:`beyond` holds for), cached."""
        forward = self.forward(team)
        found = _BEYOND.get((forward, line))
        if found is None:
            found = 0
            for r in range(LENGTH):
                if (r - line) * forward > 0:
                    found |= ((1 << WIDTH) - 1) << (r * WIDTH)
            _BEYOND[(forward, line)] = found
        return found

    def ahead(self, team: int) -> int:
        """Straight ahead for a ball travelling with ``team``'s attack (ruling MW-R3)."""
        return 0 if self.forward(team) > 0 else 3

    def hash_spot(self, cell: int) -> int:
        """General Rule 5: a ball in the two edge rows is spotted just inside the hash."""
        col = min(HASH_HI, max(HASH_LO, self.col(cell)))
        row = min(LENGTH - 3, max(2, self.row(cell)))
        return row * WIDTH + col

    @staticmethod
    def step_coords(col: int, row: int, direction: int) -> tuple[int, int]:
        """One hex in ``direction`` (0 NE .. 5 NW), possibly off the field."""
        dc, dr = (HexGrid.odd_row_steps if row % 2 else HexGrid.even_row_steps)[direction]
        return col + dc, row + dr

    def direction_target(self, cell: int, ahead: int, d6: int) -> tuple[int, int]:
        """The hex a direction modifier roll points at, as (col, row), possibly off-field."""
        direction = d6 - 1 if self.options.direction == "compass" else (ahead + d6 - 1) % 6
        return self.step_coords(self.col(cell), self.row(cell), direction)

    def on_board(self, col: int, row: int) -> bool:
        return 0 <= col < WIDTH and 0 <= row < LENGTH

    def line(self, start: int, through: int, length: int) -> list[tuple[int, int]]:
        """Hexes on the straight line from ``start`` through ``through``, ``length`` hexes
        long (start excluded), as (col, row) that may run off the field."""
        xa, _, za = HexGrid.cube(self.col(start), self.row(start))
        xb, _, zb = HexGrid.cube(self.col(through), self.row(through))
        dx, dz = xb - xa, zb - za
        n = max(abs(dx), abs(dz), abs(dx + dz))
        out: list[tuple[int, int]] = []
        for i in range(1, length + 1):
            t = i / n
            x, z = xa + dx * t + 1e-6, za + dz * t + 2e-6
            y = -x - z
            rx, ry, rz = round(x), round(y), round(z)
            ex, ey, ez = abs(rx - x), abs(ry - y), abs(rz - z)
            if ex > ey and ex > ez:
                rx = -ry - rz
            elif ey <= ez:
                rz = -rx - ry
            out.append((rx + (rz - (rz & 1)) // 2, rz))
        return out

    def punt_line(self) -> list[str]:
        """The hexes of the punt's announced line still on the field (MW-PUNT-4's blank
        counter marking the line)."""
        out = []
        for packed in self.punt_path:
            col, row = divmod(packed, 100)
            if not self.on_board(col, row):
                break
            out.append(self.field.name(row * WIDTH + col))
        return out

    # -- results --------------------------------------------------------------------------------

    # -- views ----------------------------------------------------------------------------------

    def hidden_from(self, seat: int | None) -> set[int]:
        """Players whose hex ``seat`` may not see: an opposing mirror-image caster, an
        opposing invisible player (spectators see neither)."""
        out = set()
        for p in (self.caster, self.invisible):
            if p >= 0 and (seat is None or team_of(p) != seat):
                out.add(p)
        return out

    def possession(self) -> int:
        return self.offense

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see: the truth minus the hexes of opposing hidden players."""
        hidden = self.hidden_from(seat)
        f = self.field
        players = {}
        for p in range(NUM_PLAYERS):
            if not self.roster[p]:
                continue
            where = self.pos[p]
            players[player_name(p)] = {
                "type": self.kind_of(p),
                "size": self.mtype(p).size,
                "mv": self.mtype(p).mv,
                "hex": None if p in hidden else (f.name(where) if where >= 0 else None),
                "hidden": p in hidden,
                "out": not self.available(p),
            }
        counters = sorted(self.images + ([self.pos[self.caster]] if self.caster >= 0 else []))
        ball: str | None = f.name(self.ball) if self.ball >= 0 else None
        carrier = player_name(self.carrier) if self.carrier >= 0 else None
        if self.carrier in hidden:
            ball, carrier = "hidden", "hidden"
        to_act = self.current_player()
        return {
            "game": self.spec.id,
            "seat": seat,
            "width": WIDTH,
            "length": LENGTH,
            "players": players,
            "counters": [f.name(c) for c in counters],
            "vanished_at": (
                f.name(self.vanish) if self.invisible >= 0 and self.vanish >= 0 else None
            ),
            "ball": ball,
            "carrier": carrier,
            "ball_state": self.ball_state,
            "punt_line": self.punt_line() if self.ball_state == "punt" else [],
            "offense": TEAM_NAMES[self.offense],
            "north_team": TEAM_NAMES[self.north_team],
            "score": {"A": self.score[0], "B": self.score[1]},
            "down": self.down,
            "plays": self.plays,
            "plays_left": self.options.plays - self.plays,
            "step": self.stack[-1].describe() if self.stack else "game over",
            "to_act": TEAM_NAMES[to_act]
            if to_act in (0, 1)
            else ("chance" if to_act == CHANCE else None),
            "result": self.result_text(),
            "ply": self.ply,
        }

    def render(self, seat: int | None = None) -> str:
        return self.wiring.render_text(self, seat)

    # -- positions --------------------------------------------------------------------------

    def _board_to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in FIELDS:
            value = getattr(self, name)
            out[name] = value[:] if isinstance(value, list) else value
        return out

    def _board_from_dict(self, data: Mapping[str, Any]) -> None:
        self._attach_tables()
        data = {**ADDED_FIELDS, **data}  # positions written before a field was added
        check_keys(data, FIELDS)
        for name, kind in FIELDS.items():
            value = data[name]
            ok = _fits(value, kind)
            if not ok:
                raise PositionError(f"board field '{name}' has the wrong type: {value!r}")
            setattr(self, name, list(value) if isinstance(value, list) else value)
        self.wiring.check_board(self)

    def _validate_position(self) -> None:
        if self.carrier >= 0 and self.pos[self.carrier] != self.ball:
            raise PositionError("the ball must be on its carrier's hex")
        for team in (0, 1):
            if len(self.on_field(team)) > 6:
                raise PositionError(f"team {TEAM_NAMES[team]} has more than 6 on the field")
        if not 1 <= self.down <= 4:
            raise PositionError(f"down {self.down} is not 1..4")
        if not 0 <= self.plays <= self.options.plays:
            raise PositionError(f"plays {self.plays} is outside 0..{self.options.plays}")
        score = self.score
        if len(score) != 2 or min(score) < 0:
            raise PositionError("score must be two non-negative numbers")
        if not self.stack and self.winner == NOBODY:
            raise PositionError("a finished game (empty stack) needs a winner")
        self.wiring.check_stack(self)


@dataclass(frozen=True, slots=True)
class Wiring:
    """What the game's package plugs in from modules above the state (they import it): the
    first steps of a new game, the text view and the position checks."""

    first_steps: Callable[[MidwayState], tuple[Procedure[Any], ...]]
    render_text: Callable[[MidwayState, int | None], str]
    check_board: Callable[[MidwayState], None]
    check_stack: Callable[[MidwayState], None]


def bind(spec: GameSpec, wiring: Wiring) -> None:
    MidwayState.spec = spec
    MidwayState.wiring = wiring


# The compiled kernels (games/midway/_fastmw.pyx, built by scripts/build_fast.py), used when
# core's are (so MONSTERBALL_PURE=1 turns both off); the functions here stay the reference.
try:
    if not geometry.FAST:
        raise ImportError("pure-Python kernels in use")
    from monsterball.games.midway import _fastmw  # type: ignore[attr-defined, unused-ignore]

    if getattr(_fastmw, "API", 1) != 4:
        raise ImportError("games/midway/_fastmw is stale: run scripts/build_fast.py")
except ImportError:
    _fastmw = None

FAST = _fastmw is not None
KERNELS: Any = _fastmw  # the compiled module, or None
cells_mask_py = cells_mask
if _fastmw is not None:
    cells_mask = _fastmw.cells_mask
