"""The Huck + Monster board and the questions the rules ask of it.

Default field (hex, 8 wide, 17 long, 3-row end zones; ``north`` is up)::

     17  . . . . . . . .     north end zone (rows 15..17)
     16   . . . . . . . .
     15  = = = = = = = =     the north line: the end-zone row next to the field
         ---------------
     14   . . . . . . . .
     ..                      field
      4  . . . . . . . .
         ---------------
      3   = = = = = = = =    the south line
      2  . . . . . . . .
      1   . . . . . . . .    south end zone (rows 1..3)
         a b c d e f g h

Odd rows (2, 4, ...) sit half a space to the right (see ``core.geometry.HexGrid``).
``north_team`` attacks north, so it defends the south end zone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from monsterball.core.errors import MonsterballError, PositionError
from monsterball.core.game import CHANCE, TERMINAL, GameSpec, TeamScoreState
from monsterball.core.geometry import Grid, grid, iter_bits
from monsterball.core.positions import (
    check_keys,
    parse_counts,
    parse_name,
    parse_team,
    place_players,
)
from monsterball.core.procedures import Procedure
from monsterball.games.huck_monster.actions import (
    NUM_PLAYERS,
    Catalogue,
    catalogue,
    parse_player,
    player_name,
)
from monsterball.games.huck_monster.field import (
    hot_hex,
    stealth_spaces,
    team_of,
    team_players,
)
from monsterball.games.huck_monster.matchup import LIGHT_FACES, PIN_DARK, PIN_LIGHT
from monsterball.games.huck_monster.options import PLAYERS_PER_TEAM, TEAM_NAMES, HuckMonsterOptions
from monsterball.games.huck_monster.throw_paths import beaten_finals, path_search, straight_finals

NOBODY = -1
NO_FACE = ""
PIN_ALL = PIN_LIGHT + PIN_DARK
# How an Up Call ends: a catch, a defender's successful bid, a stall, a throw that falls short.
# "contested": a wrong count stopped the disc where a Continue took it (HM-R50).
OUTCOMES = ("", "catch", "turnover", "intercepted", "stall", "short", "contested")
STYLES = ("standard", "pothole", "hot-hex", "cone-push")  # cone-push: the whole match
HOT_HEX_PLAYERS = 5  # "Assemble 5 team players in each end zone"
BOARD_KEYS = (
    "players", "disc", "holder", "offense", "north_team", "score", "winner", "up_calls",
    "strategy_used", "action", "base", "light", "halved", "receiver", "path", "progress",
    "bidders", "hammered", "poach", "outcome", "taker", "coach_turn", "cones", "style",
    "thrower", "continuing", "continue_from", "cone_stacks", "dump_next", "marks", "up_moved",
)  # fmt: skip


class HuckMonsterState(TeamScoreState):
    """One position of Huck + Monster.

    Board fields (plain values, copied on clone):

    - ``pos[p]``: space of player p (-1 off the field, during set-up); ``occupied[t]`` masks
    - ``disc``: space of the disc (-1 before set-up places it); ``holder``: the Handler in
      possession, or -1 while the disc is loose (after a pull or a stall)
    - ``offense``: team in possession; ``north_team``: team attacking north
    - ``score``, ``winner`` (-1 until the end; 2 a draw), ``up_calls`` played
    - ``strategy_used[t]``: team t has rolled its strategy die in this Up Call
    - the action under way: ``action`` ('throw', 'catch' or ''), ``base`` (its team-dice
      total), ``light`` (its strategy face), ``halved`` (a Footer halved it), ``receiver``,
      ``path`` (the spaces the disc flies through, the last one next to the receiver),
      ``progress`` (index in ``path`` of the disc, -1 still at the Handler), ``bidders``
      (mask of players who have bid on this throw, and of All-Stars who have acted in this
      Up Call, HM-STAR-6), ``hammered`` (defender passed over)
    - ``poach``: the turnover was a Poach, so the new Handler rethrows at once
    - ``dump_next``: the offense's next throw must be a Dump (a pin Dump with
      ``pin_dump=next``, HM-R37)
    - ``coach_turn[t]``: four-coach rotation counter (see ``coaching``)
    - ``style``: this point's game style (standard, pothole, hot-hex; HM-CONE-5)
    - ``thrower``: who threw the disc in the air; ``continuing``: that throw is a Continue
      (no strategy dice, HM-PRO-1); ``continue_from``: the first path index where a Continue
      may still be offered (the offense let the disc fly past the earlier ones)
    - ``marks``: the defenders still to bid as this throw's Mark, fixed once as the disc is
      about to leave (-1 before that): one Mark per throw (HM-MARK-3, HM-R26), or with an
      uncalled double team those then beside the disc (HM-DT-4)
    - ``up_moved``: the All-Star Monster has made his Up Move in this Up Call (HM-R43)
    """

    options: HuckMonsterOptions
    procedure_kinds: ClassVar[Mapping[str, type[Procedure[Any]]]] = {}
    wiring: ClassVar[Wiring]  # set by the game's package (see bind)

    __slots__ = (
        "action",
        "actions",
        "base",
        "bidders",
        "coach_turn",
        "cone_stacks",
        "cones",
        "continue_from",
        "continuing",
        "disc",
        "dump_next",
        "field",
        "halved",
        "hammered",
        "hex_cones",
        "hex_zone",
        "holder",
        "light",
        "marks",
        "north_team",
        "occupied",
        "offense",
        "outcome",
        "path",
        "poach",
        "pos",
        "progress",
        "receiver",
        "score",
        "stealth",
        "strategy_used",
        "style",
        "taker",
        "thrower",
        "up_calls",
        "up_moved",
        "winner",
    )

    def __init__(self, options: HuckMonsterOptions):
        super().__init__(options)
        self._attach_tables()
        self.pos = [NOBODY] * NUM_PLAYERS
        self.occupied = [0, 0]
        self.disc = NOBODY
        self.holder = NOBODY
        self.offense = 0
        self.north_team = 0
        self.score = [0, 0]
        self.winner = NOBODY
        self.up_calls = 0
        self.strategy_used = [False, False]
        self.clear_action()
        self.poach = False
        self.dump_next = False
        self.up_moved = False
        self.coach_turn = [0, 0]
        self.cones = 0
        self.cone_stacks: dict[int, int] = {}  # Cone Push: cells holding 2+ cones
        self.style = options.default_style  # this point's style (HM-CONE-5 may change it)
        self.stack = self.wiring.first_steps(options)

    def _attach_tables(self) -> None:
        self.field: Grid = grid(self.options.grid, self.options.width, self.options.length)
        self.actions: Catalogue = catalogue(
            self.options.grid, self.options.width, self.options.length
        )
        self.stealth = (
            stealth_spaces(self.field, self.options) if self.options.stealth_spaces else 0
        )
        self.hex_cones, self.hex_zone = hot_hex(self.field, self.options)

    def clear_action(self) -> None:
        self.action = ""
        self.base = 0
        self.light = NO_FACE
        self.halved = False
        self.receiver = NOBODY
        self.path: tuple[int, ...] = ()
        self.progress = -1
        self.bidders = 0
        self.hammered = NOBODY
        self.outcome = ""
        self.taker = NOBODY
        self.thrower = NOBODY
        self.continuing = False
        self.continue_from = 0
        self.marks = -1

    def _copy_board(self, other: HuckMonsterState) -> None:
        other.field = self.field
        other.actions = self.actions
        other.stealth = self.stealth
        other.hex_cones = self.hex_cones
        other.hex_zone = self.hex_zone
        other.pos = self.pos[:]
        other.occupied = self.occupied[:]
        other.disc = self.disc
        other.holder = self.holder
        other.offense = self.offense
        other.north_team = self.north_team
        other.score = self.score[:]
        other.winner = self.winner
        other.up_calls = self.up_calls
        other.strategy_used = self.strategy_used[:]
        other.action = self.action
        other.base = self.base
        other.light = self.light
        other.halved = self.halved
        other.receiver = self.receiver
        other.path = self.path
        other.progress = self.progress
        other.bidders = self.bidders
        other.hammered = self.hammered
        other.outcome = self.outcome
        other.taker = self.taker
        other.poach = self.poach
        other.dump_next = self.dump_next
        other.coach_turn = self.coach_turn[:]
        other.cones = self.cones
        other.cone_stacks = dict(self.cone_stacks)
        other.style = self.style
        other.thrower = self.thrower
        other.continuing = self.continuing
        other.continue_from = self.continue_from
        other.marks = self.marks
        other.up_moved = self.up_moved

    # -- the field --------------------------------------------------------------------------

    @property
    def defense(self) -> int:
        return 1 - self.offense

    def roster(self, team: int) -> range:
        """The players ``team`` fields this point: Hot Hex is 5 a side (HM-KIT-1), so A6, A7,
        B6 and B7 sit out; otherwise all 7."""
        size = {"hot-hex": HOT_HEX_PLAYERS, "cone-push": 1}.get(self.style, PLAYERS_PER_TEAM)
        return range(team * PLAYERS_PER_TEAM, team * PLAYERS_PER_TEAM + size)

    def scoring_zone(self, team: int) -> int:
        """Where a catch by ``team`` scores: the attacked end zone, or in Hot Hex the common
        hex (HM-KIT-1: "Players must be inside of the "Hex" to score points")."""
        return self.hex_zone if self.style == "hot-hex" else self.attacking_end_zone(team)

    def end_zone(self, team: int) -> int:
        """Mask of the end zone ``team`` defends."""
        depth, length = self.options.end_zone_depth, self.options.length
        if team == self.north_team:
            return self.field.rows_mask(range(depth))
        return self.field.rows_mask(range(length - depth, length))

    def attacking_end_zone(self, team: int) -> int:
        return self.end_zone(1 - team)

    def any_end_zone(self) -> int:
        return self.end_zone(0) | self.end_zone(1)

    def line_row(self, team: int) -> int:
        """The row of ``team``'s end zone next to the line (HM-SET-1)."""
        if team == self.north_team:
            return self.options.end_zone_depth - 1
        return self.options.length - self.options.end_zone_depth

    def forward(self, team: int) -> int:
        """+1 if ``team`` attacks north (rows grow), else -1."""
        return 1 if team == self.north_team else -1

    def rows_behind(self, team: int, row: int) -> int:
        """Mask of the rows behind ``row`` as seen by ``team`` attacking (HM-R23)."""
        if self.forward(team) > 0:
            return self.field.rows_mask(range(row))
        return self.field.rows_mask(range(row + 1, self.options.length))

    def all_occupied(self) -> int:
        return self.occupied[0] | self.occupied[1]

    def open_spaces(self) -> int:
        """Spaces with no player, disc or cone (cones "cannot be occupied ... or be thrown
        over", HM-CONE-4)."""
        occupied = self.occupied
        blocked = occupied[0] | occupied[1] | self.cones
        if self.disc >= 0:
            blocked |= 1 << self.disc
        return self.field.full_mask & ~blocked

    def player_at(self, cell: int) -> int:
        for p in range(NUM_PLAYERS):
            if self.pos[p] == cell:
                return p
        return NOBODY

    def players_in(self, mask: int, team: int) -> list[int]:
        """Players of ``team`` standing in ``mask``, in player order."""
        if not mask & self.occupied[team]:  # (``occupied`` follows ``pos``: move_player)
            return []
        return [p for p in team_players(team) if self.pos[p] >= 0 and mask >> self.pos[p] & 1]

    def move_player(self, player: int, cell: int) -> None:
        team = team_of(player)
        old = self.pos[player]
        if old >= 0:
            self.occupied[team] &= ~(1 << old)
        self.pos[player] = cell
        if cell >= 0:
            self.occupied[team] |= 1 << cell

    def adjacent(self, cell: int) -> int:
        return self.field.neighbour_mask[cell]

    def next_to_disc(self, team: int) -> list[int]:
        return self.players_in(self.adjacent(self.disc), team) if self.disc >= 0 else []

    # -- team moves -------------------------------------------------------------------------

    def move_costs(self, player: int, budget: int) -> dict[int, int]:
        """Spaces ``player`` can reach within ``budget`` through open spaces, with costs
        (HM-MOVE-2: one space at a time, never through players or the disc)."""
        dist = self.field.step_distances(self.pos[player], self.open_spaces(), budget)
        del dist[self.pos[player]]
        return dist

    def move_reach(self, player: int, budget: int) -> int:
        if budget <= 0:
            return 0
        return self.field.reachable(self.pos[player], budget, self.open_spaces())

    # -- the pull ---------------------------------------------------------------------------

    def pull_landings(self, count: int) -> int:
        """Where a pull of ``count`` may land (HM-PULL-2, HM-R4).

        Each step enters an open space one row nearer the receiving team's back line. "Disc
        must travel the full distance": only paths that run the full count may end it; when
        none can, the disc goes as far as any path can (the back line, or a wall of players)
        and the landings are the ends of those longest paths."""
        field = self.field
        step = self.forward(self.defense)  # toward the receiving team's end zone
        open_ = self.open_spaces()
        frontier = 1 << self.disc
        row = field.coords(self.disc)[1]
        for _ in range(count):
            nxt = row + step
            if not 0 <= nxt < self.options.length:
                return frontier  # the back line: "cannot be thrown out of bounds"
            grown = field.dilate(frontier) & field.row_mask(nxt) & open_
            if not grown:
                return frontier  # no path goes further: the longest ones stop here
            frontier, row = grown, nxt
        return frontier

    # -- the throw --------------------------------------------------------------------------

    def defender_cells(self) -> int:
        return self.occupied[self.defense]

    def throw_targets(self, count: int, *, dump: bool, hammer: bool) -> dict[int, int]:
        """Receiver -> mask of spaces the disc may stop on for them (HM-THROW-2, HM-R9/R10).

        The disc moves 1..count spaces through open spaces and stops on an open space next
        to the receiver. Hammer lets it pass over one defender (HM-SD-10); Dump keeps it to
        rows behind the disc (HM-R23)."""
        if count <= 0:
            return {}
        field = self.field
        start = self.disc
        open_ = self.open_spaces()
        beaten = self.options.beaten_defenders
        if self.options.throw_path == "straight":
            finals = straight_finals(
                field, start, count, open_, self.defender_cells(), hammer, beaten
            )
        elif beaten:
            finals = beaten_finals(field, start, count, open_, self.defender_cells())
        else:
            finals = self._open_finals(count, open_, hammer)
        finals &= ~(1 << start)
        if dump:
            finals &= self.rows_behind(self.offense, field.coords(start)[1])
        out: dict[int, int] = {}
        for r in team_players(self.offense):
            if r == self.holder or self.pos[r] < 0:
                continue
            spots = finals & field.neighbour_mask[self.pos[r]]
            if spots:
                out[r] = spots
        return out

    def _open_finals(self, count: int, open_: int, hammer: bool) -> int:
        blockers = self.defender_cells() if hammer else 0
        return self.field.hop_finals(self.disc, count, open_, blockers)

    def pivot_spaces(self) -> int:
        """HM-PIVOT-1/3: open spaces beside the Handler the disc can reach around him without
        passing another player, outside the end zones."""
        field = self.field
        ring = self.adjacent(self.pos[self.holder]) & self.open_spaces()
        reach = 1 << self.disc
        while True:
            grown = reach | (field.dilate(reach) & ring)
            if grown == reach:
                break
            reach = grown
        return reach & ring & ~self.any_end_zone()

    def catch_guards(self, cell: int, receiver: int) -> int:
        """Mask of players next to the disc's stop or the receiver (they bid at the catch)."""
        return (self.adjacent(cell) | self.adjacent(self.pos[receiver])) & self.defender_cells()

    def best_path(self, receiver: int, final: int, count: int, *, hammer: bool) -> tuple[int, ...]:
        """The disc's path to ``final``: the one that meets the fewest bidding defenders
        (HM-R9). Returns the spaces entered, ``final`` last; a Hammer path may include one
        defender's space (that defender then does not bid)."""
        field, start = self.field, self.disc
        if self.options.throw_path == "straight":
            d = field.direction_between(start, final)
            assert d is not None
            ray = field.rays[start][d]
            return ray[: ray.index(final) + 1]
        waiting = self.adjacent(start) | self.catch_guards(final, receiver)
        everyone = self.defender_cells() & ~waiting
        if hammer or self.options.beaten_defenders:
            return self._path_search(start, final, count, hammer, everyone, waiting)
        found = field.quiet_path(start, final, count, self.open_spaces(), everyone)
        assert found is not None, "best_path called for an unreachable space"
        return found

    def _path_search(
        self, start: int, final: int, count: int, hammer: bool, everyone: int, waiting: int
    ) -> tuple[int, ...]:
        """:meth:`best_path`'s search for a Hammer or beaten defenders (``path_search``)."""
        return path_search(
            self.field,
            start,
            final,
            count,
            hammer,
            everyone,
            waiting,
            open_=self.open_spaces(),
            defenders=self.defender_cells(),
            beaten=self.options.beaten_defenders,
        )

    # -- views ------------------------------------------------------------------------------

    def possession(self) -> int:
        return self.offense

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything in Huck + Monster is public: every seat sees the same view."""
        to_act = self.current_player()
        return {
            "game": self.spec.id,
            "seat": seat,
            "grid": self.options.grid,
            "width": self.options.width,
            "length": self.options.length,
            "end_zone_depth": self.options.end_zone_depth,
            **self._board_to_dict(),
            "step": self.stack[-1].describe() if self.stack else "game over",
            "to_act": "chance"
            if to_act == CHANCE
            else (None if to_act == TERMINAL else TEAM_NAMES[to_act]),
            "result": self.result_text(),
            "ply": self.ply,
        }

    def render(self, seat: int | None = None) -> str:
        return self.wiring.render_text(self)

    # -- positions --------------------------------------------------------------------------

    def _name(self, cell: int) -> str | None:
        return self.field.name(cell) if cell >= 0 else None

    def _board_to_dict(self) -> dict[str, Any]:
        names = self.field.names
        return {
            "players": {
                player_name(p): names[c] if c >= 0 else None for p, c in enumerate(self.pos)
            },
            "disc": self._name(self.disc),
            "holder": player_name(self.holder) if self.holder >= 0 else None,
            "offense": TEAM_NAMES[self.offense],
            "north_team": TEAM_NAMES[self.north_team],
            "score": list(self.score),
            "winner": self.winner,
            "up_calls": self.up_calls,
            "strategy_used": list(self.strategy_used),
            "action": self.action,
            "base": self.base,
            "light": self.light,
            "halved": self.halved,
            "receiver": player_name(self.receiver) if self.receiver >= 0 else None,
            "path": [self.field.name(c) for c in self.path],
            "progress": self.progress,
            "bidders": [player_name(p) for p in range(NUM_PLAYERS) if self.bidders >> p & 1],
            "hammered": player_name(self.hammered) if self.hammered >= 0 else None,
            "poach": self.poach,
            "outcome": self.outcome,
            "taker": player_name(self.taker) if self.taker >= 0 else None,
            "coach_turn": list(self.coach_turn),
            "cones": [self.field.name(c) for c in iter_bits(self.cones)],
            "style": self.style,
            "thrower": player_name(self.thrower) if self.thrower >= 0 else None,
            "continuing": self.continuing,
            "continue_from": self.continue_from,
            "cone_stacks": {self.field.name(c): n for c, n in sorted(self.cone_stacks.items())},
            "dump_next": self.dump_next,
            "marks": None
            if self.marks < 0
            else [player_name(p) for p in range(NUM_PLAYERS) if self.marks >> p & 1],
            "up_moved": self.up_moved,
        }

    def _board_from_dict(self, data: Mapping[str, Any]) -> None:

        self._attach_tables()
        check_keys(data, BOARD_KEYS)
        self.pos = [NOBODY] * NUM_PLAYERS
        self.occupied = [0, 0]
        place_players(
            data["players"],
            NUM_PLAYERS,
            parse_player=parse_player,
            player_name=player_name,
            parse_cell=self.field.parse_cell,
            place=self.move_player,
            what="A1..A7 and B1..B7 to spaces",
        )
        self.disc = self._cell_or_none(data["disc"], "disc")
        self.holder = _player_or_none(data["holder"], "holder")
        self.offense = _team(data["offense"], "offense")
        self.north_team = _team(data["north_team"], "north_team")
        self.score = parse_counts(data["score"], 2, "score")
        if data["winner"] not in (NOBODY, 0, 1, 2):
            raise PositionError("board 'winner' must be -1, 0, 1 or 2")
        self.winner = data["winner"]
        self.up_calls = parse_counts([data["up_calls"]], 1, "up_calls")[0]
        used = data["strategy_used"]
        if (
            not isinstance(used, list)
            or len(used) != 2
            or not all(isinstance(u, bool) for u in used)
        ):
            raise PositionError("board 'strategy_used' must be two booleans")
        self.strategy_used = list(used)
        if data["action"] not in ("", "throw", "catch"):
            raise PositionError("board 'action' must be '', 'throw' or 'catch'")
        self.action = data["action"]
        self.base = parse_counts([data["base"]], 1, "base")[0]
        if data["light"] not in ("", *LIGHT_FACES, *PIN_ALL):
            raise PositionError(f"board 'light' must be '' or one of {', '.join(LIGHT_FACES)}")
        self.light = data["light"]
        for flag in ("halved", "poach", "continuing", "dump_next", "up_moved"):
            if not isinstance(data[flag], bool):
                raise PositionError(f"board '{flag}' must be true or false")
        self.halved = data["halved"]
        self.poach = data["poach"]
        self.continuing = data["continuing"]
        self.dump_next = data["dump_next"]
        self.up_moved = data["up_moved"]
        if data["style"] not in STYLES:
            raise PositionError(f"board 'style' must be one of {', '.join(STYLES)}")
        self.style = data["style"]
        self.thrower = _player_or_none(data["thrower"], "thrower")
        self.continue_from = parse_counts([data["continue_from"]], 1, "continue_from")[0]
        self.receiver = _player_or_none(data["receiver"], "receiver")
        if not isinstance(data["path"], list):
            raise PositionError("board 'path' must be a list of spaces")
        self.path = tuple(parse_name(self.field.parse_cell, c, "path") for c in data["path"])
        progress = data["progress"]
        if not isinstance(progress, int) or not -1 <= progress < max(len(self.path), 1):
            raise PositionError("board 'progress' must index the path (or be -1)")
        self.progress = progress
        if not isinstance(data["bidders"], list):
            raise PositionError("board 'bidders' must be a list of players")
        self.bidders = 0
        for name in data["bidders"]:
            self.bidders |= 1 << parse_name(parse_player, name, "bidders")
        self.hammered = _player_or_none(data["hammered"], "hammered")
        marks = data["marks"]
        if marks is not None and not isinstance(marks, list):
            raise PositionError("board 'marks' must be null or a list of defenders")
        self.marks = -1 if marks is None else 0
        for name in marks or ():
            self.marks |= 1 << parse_name(parse_player, name, "marks")
        self.coach_turn = parse_counts(data["coach_turn"], 2, "coach_turn")
        if data["outcome"] not in OUTCOMES:
            raise PositionError(f"board 'outcome' must be one of {OUTCOMES}")
        self.outcome = data["outcome"]
        self.taker = _player_or_none(data["taker"], "taker")
        if not isinstance(data["cones"], list):
            raise PositionError("board 'cones' must be a list of spaces")
        self.cones = 0
        for cell in data["cones"]:
            self.cones |= 1 << parse_name(self.field.parse_cell, cell, "cones")
        stacks = data["cone_stacks"]
        if not isinstance(stacks, dict):
            raise PositionError("board 'cone_stacks' must map spaces to cone counts")
        self.cone_stacks = {}
        for cell, n in stacks.items():
            where = parse_name(self.field.parse_cell, cell, "cone_stacks")
            counted = isinstance(n, int) and not isinstance(n, bool) and n >= 2
            if not counted or not self.cones >> where & 1:
                raise PositionError("a cone stack is 2 or more cones on a space with a cone")
            self.cone_stacks[where] = n
        if self.cones & (self.all_occupied() | (1 << self.disc if self.disc >= 0 else 0)):
            raise PositionError("a cone cannot share a space with a player or the disc")

    def _cell_or_none(self, value: Any, where: str) -> int:
        return NOBODY if value is None else parse_name(self.field.parse_cell, value, where)

    def _validate_position(self) -> None:
        if not self.stack and self.winner == NOBODY:
            raise PositionError("a finished game (empty stack) needs a winner")
        if self.stack and self.winner != NOBODY:
            raise PositionError("a game with a winner must have an empty stack")
        setting_up = bool(self.stack) and type(self.stack[-1]).__name__ in (
            "ChooseOffense",
            "ConePushSetUp",
            "ChooseGameStyle",
            "StartPoint",
            "SetUp",
            "PlaceTheDisc",
        )
        placed = [p for p in range(NUM_PLAYERS) if self.pos[p] >= 0]
        fielded = [*self.roster(0), *self.roster(1)]
        if self.stack and not setting_up and sorted(placed) != fielded:
            raise PositionError(
                f"all {len(fielded)} players in play must be on the field once the pull is "
                "thrown (and in Hot Hex A6, A7, B6 and B7 sit out)"
            )
        if self.disc >= 0 and self.all_occupied() >> self.disc & 1:
            raise PositionError("the disc cannot share a space with a player")
        if self.holder != NOBODY:
            if team_of(self.holder) != self.offense:
                raise PositionError("the Handler must be on the offense")
            if self.pos[self.holder] < 0:
                raise PositionError(f"the Handler {player_name(self.holder)} is not on the field")
            if self.disc < 0 or not self.adjacent(self.disc) >> self.pos[self.holder] & 1:
                raise PositionError("the Handler must stand next to the disc")
        if setting_up and self.style != "cone-push":  # Cone Push: anywhere in the end zone
            for p in placed:
                if self.field.coords(self.pos[p])[1] != self.line_row(team_of(p)):
                    raise PositionError(f"during set-up {player_name(p)} must stand on his line")
        # Only the path still ahead must be open (HM-R22: a Monster may step onto spaces the
        # disc has already flown over, e.g. beside it at the catch).
        crossing = self.hammered >= 0 or self.options.beaten_defenders
        for cell in self.path[self.progress + 1 :]:
            if self.all_occupied() >> cell & 1 and self.bidders == 0 and not crossing:
                raise PositionError("the disc's path ahead crosses a player without a Hammer")
        self.wiring.validate(self, setting_up)
        self._settle_loaded()

    def _settle_loaded(self) -> None:
        """A position resting on a bookkeeping step (one nobody decides) is run on to the
        next decision or chance event, as play would; one that cannot run is refused."""
        try:
            self._settle()
        except MonsterballError:
            raise
        except (ArithmeticError, AssertionError, LookupError, TypeError, ValueError) as exc:
            step = type(self.stack[-1]).__name__ if self.stack else "the end"
            raise PositionError(
                f"the position cannot be played on from step '{step}': {exc}"
            ) from None
        if self.stack and self.current_player() not in (0, 1, CHANCE):
            raise PositionError("the position's top step has nobody to act")


def _player_or_none(value: Any, where: str) -> int:
    return NOBODY if value is None else parse_name(parse_player, value, where)


def _team(value: Any, where: str) -> int:
    return parse_team(value, TEAM_NAMES, where)


@dataclass(frozen=True, slots=True)
class Wiring:
    """What the game's package plugs in from modules above the state (they import it): the
    first steps of a new game, the text view and the position checks."""

    first_steps: Callable[[HuckMonsterOptions], tuple[Procedure[Any], ...]]
    render_text: Callable[[HuckMonsterState], str]
    validate: Callable[[HuckMonsterState, bool], None]


def bind(spec: GameSpec, wiring: Wiring) -> None:
    HuckMonsterState.spec = spec
    HuckMonsterState.wiring = wiring


__all__ = ["NOBODY", "HuckMonsterState"]
