"""The Paper Ultimate board and the queries the rules ask of it.

Pitch (default 9 x 18, ``north`` is up; team A starts in the south end zone)::

     18 . . . . . . . . .   north end zone (rows 17..18 with depth 2)
     17 . . . . . . . . .
        =================   end-zone line
     16 . . . . . . . . .
     ..
      3 . . . . . . . . .
        =================
      2 . . . . . . . . .   south end zone
      1 . . . . . . . . .
        a b c d e f g h i
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from monsterball.core.errors import MonsterballError, PositionError
from monsterball.core.game import CHANCE, TERMINAL, GameSpec, TeamScoreState
from monsterball.core.geometry import SquareGrid, grid, iter_bits
from monsterball.core.positions import check_keys, parse_name, parse_team, place_players
from monsterball.core.procedures import Procedure
from monsterball.games.paper_ultimate.actions import (
    NUM_PLAYERS,
    PLAYERS_PER_TEAM,
    Catalogue,
    catalogue,
    parse_player,
    player_name,
)
from monsterball.games.paper_ultimate.options import TEAM_NAMES, PaperUltimateOptions

NOBODY = -1


def team_of(player: int) -> int:
    return player // PLAYERS_PER_TEAM


def team_players(team: int) -> range:
    return range(team * PLAYERS_PER_TEAM, (team + 1) * PLAYERS_PER_TEAM)


class PaperUltimateState(TeamScoreState):
    """One position of Paper Ultimate.

    Board fields (all plain values, copied on clone):

    - ``pos[p]``: cell of player p, or -1 while not set up
    - ``occupied[t]``: bitmask of the cells team t stands on
    - ``disc``: cell of the disc (-1 before the set-up gives it to a player)
    - ``holder``: player holding the disc, or -1 while it lies on the field after the pull
    - ``offense``: team in possession (the receiving team until the pull is picked up)
    - ``north_team``: team that defends the south end zone and attacks north
    - ``score``, ``throws``, ``winner`` (-1 until the end; 2 marks a draw)
    - ``marker_only``: after a 'monster Defense' roll of 2..5, the only defender who may run
      in the next defensive step (-1: no restriction) [PU-MON-3]
    - ``surplus_must_leave``: after a turn, surplus markers must leave in the next
      defensive step [PU-TURN-4] (with ``catch_markers=depart`` after a catch too, PU-R11)
    - ``loose_steps``: the offense's running steps that ended with the pulled disc still
      loose, this point [PU-R14]
    """

    options: PaperUltimateOptions
    procedure_kinds: ClassVar[Mapping[str, type[Procedure[Any]]]] = {}
    wiring: ClassVar[Wiring]  # set by the game's package (see bind)

    __slots__ = (
        "actions",
        "disc",
        "field",
        "holder",
        "loose_steps",
        "marker_only",
        "north_team",
        "occupied",
        "offense",
        "pos",
        "score",
        "surplus_must_leave",
        "throws",
        "winner",
    )

    def __init__(self, options: PaperUltimateOptions):
        super().__init__(options)
        self._attach_tables()
        self.pos = [NOBODY] * NUM_PLAYERS
        self.occupied = [0, 0]
        self.disc = NOBODY
        self.holder = NOBODY
        self.offense = 0
        self.north_team = 0
        self.score = [0, 0]
        self.throws = 0
        self.winner = NOBODY
        self.marker_only = NOBODY
        self.surplus_must_leave = False
        self.loose_steps = 0
        self.stack = self.wiring.first_steps(options)

    def _attach_tables(self) -> None:
        field = grid("square", self.options.width, self.options.length)
        assert isinstance(field, SquareGrid)
        self.field = field
        self.actions: Catalogue = catalogue(self.options.width, self.options.length)

    def _copy_board(self, other: PaperUltimateState) -> None:
        other.field = self.field
        other.actions = self.actions
        other.pos = self.pos[:]
        other.occupied = self.occupied[:]
        other.disc = self.disc
        other.holder = self.holder
        other.offense = self.offense
        other.north_team = self.north_team
        other.score = self.score[:]
        other.throws = self.throws
        other.winner = self.winner
        other.marker_only = self.marker_only
        other.surplus_must_leave = self.surplus_must_leave
        other.loose_steps = self.loose_steps

    # -- geometry of the teams --------------------------------------------------------------

    def end_zone(self, team: int) -> int:
        """Bitmask of the end zone ``team`` defends (its own end zone)."""
        depth = self.options.end_zone_depth
        length = self.options.length
        if team == self.north_team:
            return self.field.rows_mask(range(depth))
        return self.field.rows_mask(range(length - depth, length))

    def attacking_end_zone(self, team: int) -> int:
        return self.end_zone(1 - team)

    @property
    def defense(self) -> int:
        return 1 - self.offense

    def all_occupied(self) -> int:
        return self.occupied[0] | self.occupied[1]

    def player_at(self, cell: int) -> int:
        for p in range(NUM_PLAYERS):
            if self.pos[p] == cell:
                return p
        return NOBODY

    def move_player(self, player: int, cell: int) -> None:
        team = team_of(player)
        old = self.pos[player]
        if old >= 0:
            self.occupied[team] &= ~(1 << old)
        self.pos[player] = cell
        if cell >= 0:
            self.occupied[team] |= 1 << cell

    def markers(self) -> int:
        """Bitmask of defenders' cells next to the disc holder [PU-MARK-1]."""
        if self.holder == NOBODY:
            return 0
        return (
            self.field.neighbour_mask[self.pos[self.holder]]
            & self.occupied[1 - team_of(self.holder)]
        )

    def pass_targets(self) -> list[int]:
        """Teammates the holder can throw to [PU-THROW-1..4].

        Straight along a row, column or diagonal; the line must cross at least one free
        field; it may cross teammates but never an opponent.
        """
        holder = self.holder
        team = team_of(holder)
        own = self.occupied[team]
        other = self.occupied[1 - team]
        targets = []
        for ray in self.field.rays[self.pos[holder]]:
            crossed_free = False
            for cell in ray:
                bit = 1 << cell
                if other & bit:
                    break
                if own & bit:
                    if crossed_free:
                        targets.append(self.player_at(cell))
                else:
                    crossed_free = True
        return targets

    def run_destinations(self, player: int) -> int:
        """Fields ``player`` may run to in this step, ignoring whose step it is [PU-RUN-1]."""
        field = self.field
        team = team_of(player)
        occupied = self.occupied[0] | self.occupied[1]
        free = field.full_mask & ~occupied
        through = field.full_mask if self.options.run_through_players else free
        reach = field.reachable(self.pos[player], self.options.run_distance, free, through=through)
        if team != self.offense and self.disc >= 0 and self.holder == NOBODY:
            reach &= ~(1 << self.disc)  # only the offense picks up the pulled disc
        if team != self.offense and self.holder != NOBODY:
            # PU-MARK-2: one marker; a defender may not join another one next to the holder.
            ring = field.neighbour_mask[self.pos[self.holder]]
            others = self.occupied[team] & ~(1 << self.pos[player])
            if others & ring:
                reach &= ~ring
        return reach

    def nearest_defenders(self) -> list[int]:
        """Players of the defense nearest to the disc [PU-TURN-2]."""
        distances = self.field.distance_row(self.disc)
        team = self.defense
        best = min(distances[self.pos[p]] for p in team_players(team))
        return [p for p in team_players(team) if distances[self.pos[p]] == best]

    # -- results ----------------------------------------------------------------------------

    # -- views ------------------------------------------------------------------------------

    def possession(self) -> int:
        return self.offense

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """Everything in Paper Ultimate is public, so every seat sees the same view: the
        board as in a position, plus what a display needs."""
        to_act = self.current_player()
        board = self._board_to_dict()
        return {
            "game": self.spec.id,
            "seat": seat,
            "width": self.options.width,
            "length": self.options.length,
            "end_zone_depth": self.options.end_zone_depth,
            **{
                key: board[key]
                for key in (
                    "players",
                    "disc",
                    "holder",
                    "offense",
                    "north_team",
                    "throws",
                    "marker_only",
                )
            },
            "score": {"A": self.score[0], "B": self.score[1]},
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

    def _board_to_dict(self) -> dict[str, Any]:
        return {
            "players": {
                player_name(p): (self.field.name(c) if c >= 0 else None)
                for p, c in enumerate(self.pos)
            },
            "disc": self.field.name(self.disc) if self.disc >= 0 else None,
            "holder": player_name(self.holder) if self.holder >= 0 else None,
            "offense": TEAM_NAMES[self.offense],
            "north_team": TEAM_NAMES[self.north_team],
            "score": list(self.score),
            "throws": self.throws,
            "winner": self.winner,
            "marker_only": player_name(self.marker_only) if self.marker_only >= 0 else None,
            "surplus_must_leave": self.surplus_must_leave,
            "loose_steps": self.loose_steps,
        }

    def _board_from_dict(self, data: Mapping[str, Any]) -> None:
        self._attach_tables()
        expected = {
            "players",
            "disc",
            "holder",
            "offense",
            "north_team",
            "score",
            "throws",
            "winner",
            "marker_only",
            "surplus_must_leave",
            "loose_steps",
        }
        check_keys(data, expected)
        self.pos = [NOBODY] * NUM_PLAYERS
        self.occupied = [0, 0]
        place_players(
            data["players"],
            NUM_PLAYERS,
            parse_player=parse_player,
            player_name=player_name,
            parse_cell=self.field.parse_cell,
            place=self.move_player,
            what="A1..A4 and B1..B4 to fields",
        )
        self.disc = (
            NOBODY
            if data["disc"] is None
            else parse_name(self.field.parse_cell, data["disc"], "disc")
        )
        self.holder = (
            NOBODY if data["holder"] is None else parse_name(parse_player, data["holder"], "holder")
        )
        self.offense = _team(data["offense"], "offense")
        self.north_team = _team(data["north_team"], "north_team")
        score = data["score"]
        if (
            not isinstance(score, list)
            or len(score) != 2
            or not all(isinstance(s, int) and s >= 0 for s in score)
        ):
            raise PositionError("board 'score' must be two non-negative integers")
        self.score = list(score)
        if not isinstance(data["throws"], int) or data["throws"] < 0:
            raise PositionError("board 'throws' must be a non-negative integer")
        self.throws = data["throws"]
        if data["winner"] not in (NOBODY, 0, 1, 2):
            raise PositionError("board 'winner' must be -1, 0, 1 or 2")
        self.winner = data["winner"]
        mo = data["marker_only"]
        self.marker_only = NOBODY if mo is None else parse_name(parse_player, mo, "marker_only")
        if not isinstance(data["surplus_must_leave"], bool):
            raise PositionError("board 'surplus_must_leave' must be true or false")
        self.surplus_must_leave = data["surplus_must_leave"]
        loose = data["loose_steps"]
        if not isinstance(loose, int) or isinstance(loose, bool) or loose < 0:
            raise PositionError("board 'loose_steps' must be a non-negative integer")
        self.loose_steps = loose

    def _validate_position(self) -> None:
        if self.holder != NOBODY:
            pulling = bool(self.stack) and type(self.stack[-1]).__name__ == "Pull"
            if team_of(self.holder) != self.offense and not pulling:
                raise PositionError("the disc holder must be on the offense (except the puller)")
            if self.pos[self.holder] < 0:
                raise PositionError("the disc holder is not on the pitch")
            if self.disc != self.pos[self.holder]:
                raise PositionError("the disc must be on its holder's field")
        elif self.disc >= 0 and self.all_occupied() & (1 << self.disc):
            raise PositionError("a loose disc must lie on an empty field")
        if not self.stack and self.winner == NOBODY:
            raise PositionError("a finished game (empty stack) needs a winner")
        if self.stack and self.winner != NOBODY:
            raise PositionError("a game with a winner must have an empty stack")
        for step in self.stack:
            _validate_step_fields(step)
        if len(self.stack) > 1:
            raise PositionError("the stack holds one step in Paper Ultimate")
        placed = [p for p in range(NUM_PLAYERS) if self.pos[p] >= 0]
        setting_up = bool(self.stack) and type(self.stack[-1]).__name__ in (
            "SetUp",
            "CoinToss",
            "StartPoint",
        )
        if not setting_up and len(placed) != NUM_PLAYERS and self.stack:
            raise PositionError("all 8 players must be on the pitch once play has started")
        if setting_up:
            for p in placed:
                if not self.end_zone(team_of(p)) & (1 << self.pos[p]):
                    raise PositionError(
                        f"during set-up {player_name(p)} must stand in his own end zone"
                    )
        if self.marker_only != NOBODY and (
            team_of(self.marker_only) == self.offense or self.pos[self.marker_only] < 0
        ):
            raise PositionError("board 'marker_only' must be a defender on the pitch")
        cap = self.options.max_throws
        if cap and self.throws > cap and self.winner == NOBODY:
            raise PositionError(f"board 'throws' {self.throws} is past the cap ({cap})")
        if self.winner == NOBODY and max(self.score) >= self.options.points_to_win:
            raise PositionError("board 'score': a team has already won, so 'winner' must say who")
        if self.stack:
            self._validate_step(self.stack[-1])
            self._settle_loaded()

    def _validate_step(self, step: Any) -> None:
        """The step agrees with the board: who acts, who holds the disc, who may take it."""
        name = type(step).__name__
        team = getattr(step, "team", None)
        pulling = 1 - self.offense
        if name in ("SetUp", "HandDisc", "CoinToss", "StartPoint") and (
            self.holder != NOBODY or self.disc != NOBODY
        ):
            raise PositionError(f"step '{name}': the disc is handed out after both teams set up")
        if name == "SetUp":
            assert team is not None
            waiting = {t: [p for p in team_players(t) if self.pos[p] < 0] for t in (0, 1)}
            if not waiting[team]:
                raise PositionError(f"step 'SetUp': team {TEAM_NAMES[team]} has nobody to place")
            if team == pulling and waiting[self.offense]:
                raise PositionError("step 'SetUp': the receiving team sets up first")
            if team == self.offense and len(waiting[pulling]) < PLAYERS_PER_TEAM:
                raise PositionError("step 'SetUp': the pulling team sets up second")
        if name in ("HandDisc", "Pull", "MonsterDefense", "NextPlayer") and team != pulling:
            raise PositionError(f"step '{name}' is the defending team's, not the offense's")
        if name == "Pull" and (self.holder == NOBODY or team_of(self.holder) != pulling):
            raise PositionError("step 'Pull': a player of the pulling team holds the disc")
        stalled = name == "NextPlayer" and self.holder == NOBODY and self.disc >= 0  # PU-R14
        if (
            name in ("Throwing", "MonsterDefense", "MonsterDie", "NextPlayer")
            and not stalled
            and (self.holder == NOBODY or team_of(self.holder) != self.offense)
        ):
            raise PositionError(f"step '{name}': an offensive player must hold the disc")
        if name == "Throwing" and team != self.offense:
            raise PositionError("step 'Throwing' is the offense's")
        if name == "Running":
            moved = step.moved
            if team not in (0, 1) or moved & ~sum(1 << p for p in team_players(team)):
                raise PositionError("step 'Running': 'moved' lists only the running team's players")
            if self.disc < 0:
                raise PositionError("step 'Running': the disc must be on the pitch")
        if name == "MonsterDie":
            marker = step.marker
            ring = self.field.neighbour_mask[self.pos[self.holder]]
            if team_of(marker) == self.offense or not ring >> self.pos[marker] & 1:
                raise PositionError(
                    "step 'MonsterDie': the marker is a defender next to the catcher"
                )
        if name == "NextPlayer":
            candidates = step.candidates
            if not candidates or len(set(candidates)) != len(candidates):
                raise PositionError("step 'NextPlayer': 'candidates' must name distinct players")
            if any(team_of(p) != team for p in candidates):
                raise PositionError("step 'NextPlayer': the candidates are the new offense's")

    def _settle_loaded(self) -> None:
        """A position resting on a bookkeeping step (the start of a point) runs on to the
        next decision or chance event, as play would."""
        try:
            self._settle()
        except MonsterballError:
            raise
        except (ArithmeticError, AssertionError, LookupError, TypeError, ValueError) as exc:
            raise PositionError(f"the position cannot be played on: {exc}") from None


_FIELD_RANGES = {
    "team": range(2),
    "receiver": range(2),
    "moved": range(1 << NUM_PLAYERS),
    "marker": range(NUM_PLAYERS),
    "candidates": range(NUM_PLAYERS),
}


def _validate_step_fields(step: Procedure[Any]) -> None:
    for name, allowed in _FIELD_RANGES.items():
        value = getattr(step, name, None)
        values = value if isinstance(value, tuple) else (value,)
        if value is not None and not all(v in allowed for v in values):
            raise PositionError(
                f"step '{type(step).__name__}' field '{name}' is out of range: {value!r}"
            )


def _team(value: Any, where: str) -> int:
    return parse_team(value, TEAM_NAMES, where)


@dataclass(frozen=True, slots=True)
class Wiring:
    """What the game's package plugs in from modules above the state (they import it): the
    first steps of a new game and the text view."""

    first_steps: Callable[[PaperUltimateOptions], tuple[Procedure[Any], ...]]
    render_text: Callable[[PaperUltimateState], str]


def bind(spec: GameSpec, wiring: Wiring) -> None:
    PaperUltimateState.spec = spec
    PaperUltimateState.wiring = wiring


__all__ = ["NOBODY", "PaperUltimateState", "iter_bits", "team_of", "team_players"]
