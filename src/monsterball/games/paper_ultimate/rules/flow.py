"""The rule steps of Paper Ultimate, each named after the rulebook's words.

Flow of one point (``->`` is the transition a step returns)::

    StartPoint -> SetUp(receiver) -> SetUp(puller) -> HandDisc -> Pull
    Pull -> Running(offense) -> Running(defense) -> Throwing(offense)
                    ^                                  |  pass: catch
                    |   MonsterDefense -> MonsterDie <-+  (a defender next to the catcher)
                    +-- (next cycle) <-----------------+
    Throwing: no free receiver -> turn -> [NextPlayer] -> Running(new offense) ...
    a catch in the attacking end zone -> point -> StartPoint (scorer pulls) or game over
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.geometry import iter_bits
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.paper_ultimate import events as ev
from monsterball.games.paper_ultimate.actions import (
    DECLARE_TURN,
    DECLINE,
    END,
    CallMonster,
    DeclareTurn,
    DeclineMonster,
    EndRun,
    GiveDisc,
    PassTo,
    Place,
    PullTo,
    RunTo,
    TakeDisc,
    player_name,
)
from monsterball.games.paper_ultimate.options import TEAM_NAMES, PaperUltimateOptions
from monsterball.games.paper_ultimate.state import (
    NOBODY,
    PaperUltimateState,
    team_of,
    team_players,
)

State = PaperUltimateState


@dataclass(frozen=True, slots=True)
class CoinToss(Procedure[State]):
    """PU-R7: a coin toss decides which team receives the first pull."""

    rule = "PU-R7"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.toss)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        receiver = TEAM_NAMES.index(action.value)
        state.emit(ev.TossWon(receiver))
        return (StartPoint(receiver),)

    def describe(self) -> str:
        return "the coin toss"


@dataclass(frozen=True, slots=True)
class StartPoint(Procedure[State]):
    """PU-SET-1: every point starts from a clear pitch; the receiving team sets up first."""

    receiver: int
    rule = "PU-SET-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        for p in range(len(state.pos)):
            state.move_player(p, NOBODY)
        state.disc = NOBODY
        state.holder = NOBODY
        state.offense = self.receiver
        state.marker_only = NOBODY
        state.surplus_must_leave = False
        state.loose_steps = 0
        state.emit(ev.PointStarted(self.receiver, state.north_team))
        return (SetUp(self.receiver),)

    def describe(self) -> str:
        return "the start of a point"


@dataclass(frozen=True, slots=True)
class SetUp(Procedure[State]):
    """PU-SET-1/2: a team places its players, one at a time, in its own end zone."""

    team: int
    rule = "PU-SET-1"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        free = state.end_zone(self.team) & ~state.all_occupied()
        return state.actions.place_by_mask.select(free)

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, Place):
            raise wrong_kind(self, action)
        cell = action_cell(state.field, action.cell)
        if not state.end_zone(self.team) & (1 << cell):
            raise IllegalActionError(
                f"{action.cell} is not in team {TEAM_NAMES[self.team]}'s end zone"
            )
        if state.all_occupied() & (1 << cell):
            raise IllegalActionError(f"{action.cell} is already occupied")

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Place)
        player = next(p for p in team_players(self.team) if state.pos[p] == NOBODY)
        state.move_player(player, action_cell(state.field, action.cell))
        state.emit(ev.Placed(player, action.cell))
        if any(state.pos[p] == NOBODY for p in team_players(self.team)):
            return (self,)
        if self.team == state.offense:
            return (SetUp(1 - self.team),)  # PU-SET-2: then the team with the disc
        return (HandDisc(self.team),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s set-up"


@dataclass(frozen=True, slots=True)
class HandDisc(Procedure[State]):
    """PU-SET-3: one player of the pulling team takes the disc."""

    team: int
    rule = "PU-SET-3"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.give[p] for p in team_players(self.team)]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, GiveDisc)
        state.holder = action.player
        state.disc = state.pos[action.player]
        state.emit(ev.DiscGiven(action.player))
        return (Pull(self.team),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} choosing the puller"


@dataclass(frozen=True, slots=True)
class Pull(Procedure[State]):
    """PU-PULL-1: the pull goes into an empty field of the opposing end zone."""

    team: int
    rule = "PU-PULL-1"

    def actor(self, state: State) -> int:
        return self.team

    def _targets(self, state: State) -> int:
        return state.end_zone(1 - self.team) & ~state.all_occupied()

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.pull_by_mask.select(self._targets(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, PullTo):
            raise wrong_kind(self, action)
        cell = action_cell(state.field, action.cell)
        if not self._targets(state) & (1 << cell):
            raise IllegalActionError(
                f"the pull must land on an empty field of the opposing end zone; {action.cell} "
                "is not one"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, PullTo)
        puller = state.holder
        state.disc = action_cell(state.field, action.cell)
        state.holder = NOBODY
        state.emit(ev.Pulled(puller, action.cell))
        return (Running(state.offense, 0),)  # PU-RUN-3: the offense runs first

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s pull"


@dataclass(frozen=True, slots=True)
class Running(Procedure[State]):
    """PU-RUN-1..3, PU-STEP-1: a team's running step. Each player without the disc may run
    once, 0..4 fields in king moves; ``moved`` is the bitmask of players who have run."""

    team: int
    moved: int
    rule = "PU-RUN-1"

    def actor(self, state: State) -> int:
        return self.team

    def movable(self, state: State) -> list[int]:
        out = []
        restricted = self.team != state.offense and state.marker_only != NOBODY
        for p in team_players(self.team):
            if self.moved & (1 << p) or p == state.holder:
                continue  # PU-RUN-2: the player with the disc must not move
            if restricted and p != state.marker_only:
                continue  # PU-MON-3: only the marker may move
            out.append(p)
        return out

    def legal_actions(self, state: State) -> list[Action]:
        selectors = state.actions.run_by_mask
        out: list[Action] = []
        for p in self.movable(state):
            out += selectors[p].select(state.run_destinations(p))
        if self.end_blocker(state) is None:
            out.append(END)
        return out

    def end_blocker(self, state: State) -> str | None:
        """Why the step may not end yet (PU-TURN-4: surplus markers must leave), or None."""
        if self.team == state.offense or not state.surplus_must_leave:
            return None
        markers = state.markers()
        if markers.bit_count() <= 1:
            return None
        ring = state.field.neighbour_mask[state.pos[state.holder]]
        movable = set(self.movable(state))
        for cell in iter_bits(markers):
            p = state.player_at(cell)
            if p in movable and state.run_destinations(p) & ~ring:
                names = ", ".join(player_name(state.player_at(c)) for c in iter_bits(markers))
                return (
                    f"after a turn only one marker may stay next to the disc: move the "
                    f"surplus markers away ({names} are all marking)"
                )
        return None

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, EndRun):
            reason = self.end_blocker(state)
            if reason is not None:
                raise IllegalActionError(reason)
            return
        if not isinstance(action, RunTo):
            raise wrong_kind(self, action)
        p = action.player
        name = player_name(p)
        if team_of(p) != self.team:
            raise IllegalActionError(f"{name} is not in team {TEAM_NAMES[self.team]}")
        if p == state.holder:
            raise IllegalActionError(f"{name} has the disc and must not move")
        if self.moved & (1 << p):
            raise IllegalActionError(f"{name} has already run in this step")
        if p not in self.movable(state):
            raise IllegalActionError(
                f"only the marker {player_name(state.marker_only)} may move in this step"
            )
        cell = action_cell(state.field, action.cell)
        if not state.run_destinations(p) & (1 << cell):
            raise IllegalActionError(_unreachable_reason(state, p, cell))

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, RunTo):
            p = action.player
            start = state.field.name(state.pos[p])
            cell = action_cell(state.field, action.cell)
            state.move_player(p, cell)
            state.emit(ev.Ran(p, start, action.cell))
            if state.holder == NOBODY and cell == state.disc:
                state.holder = p
                state.emit(ev.PickedUp(p))
                if state.options.catch_markers == "depart":
                    state.surplus_must_leave = True  # PU-R11: as after a catch
            return (Running(self.team, self.moved | (1 << p)),)
        state.emit(ev.RunEnded(self.team))
        if self.team == state.offense:
            if state.holder == NOBODY:
                state.loose_steps += 1  # PU-R14
            return (Running(1 - self.team, 0),)
        state.marker_only = NOBODY
        state.surplus_must_leave = False
        if state.holder == NOBODY:
            stall = state.options.pull_stall
            if stall and state.loose_steps >= stall:
                return _stall(state)
            return (Running(state.offense, 0),)  # PU-R2: the pull is not picked up yet
        return (Throwing(state.offense),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s running step"


def _unreachable_reason(state: State, player: int, cell: int) -> str:
    name, target = player_name(player), state.field.name(cell)
    if state.all_occupied() & (1 << cell):
        return f"{target} is occupied"
    if team_of(player) != state.offense and state.holder == NOBODY and cell == state.disc:
        return f"only the offense may pick up the disc on {target}"
    if state.field.distance(state.pos[player], cell) > state.options.run_distance:
        return f"{target} is more than {state.options.run_distance} fields from {name}"
    if team_of(player) != state.offense and state.holder != NOBODY:
        ring = state.field.neighbour_mask[state.pos[state.holder]]
        if ring & (1 << cell):
            return (
                f"{target} is next to the disc holder, who already has a marker "
                "(only one marker is allowed)"
            )
    return (
        f"{name} cannot reach {target} in {state.options.run_distance} fields without "
        "passing through other players"
    )


@dataclass(frozen=True, slots=True)
class Throwing(Procedure[State]):
    """PU-THROW-1..4, PU-TURN-1: the holder passes to a free teammate, or it is a turn."""

    team: int
    rule = "PU-THROW-1"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        targets = state.pass_targets()
        if not targets:
            return [DECLARE_TURN]
        return [state.actions.pass_to[p] for p in targets]

    def check(self, state: State, action: Action) -> None:
        targets = state.pass_targets()
        if isinstance(action, DeclareTurn):
            if targets:
                raise IllegalActionError(
                    "a turn happens only when no free receiver exists; free: "
                    + ", ".join(player_name(p) for p in targets)
                )
            return
        if not isinstance(action, PassTo):
            raise wrong_kind(self, action)
        if action.player not in targets:
            raise IllegalActionError(_pass_reason(state, action.player))

    def apply(self, state: State, action: Action) -> Transition:
        state.throws += 1
        if isinstance(action, DeclareTurn):
            return _turn(state, "no free receiver")
        assert isinstance(action, PassTo)
        thrower, receiver = state.holder, action.player
        start = state.field.name(state.disc)
        state.disc = state.pos[receiver]
        state.holder = receiver  # PU-STEP-2: the catcher gets the disc
        state.emit(ev.Passed(thrower, receiver, start, state.field.name(state.disc)))
        if state.options.monster_defense != "off" and state.markers():
            return (MonsterDefense(state.defense),)
        return _after_catch(state)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s throw"


def _pass_reason(state: State, receiver: int) -> str:
    name = player_name(receiver)
    if team_of(receiver) != state.offense:
        return f"{name} is not a teammate of the thrower"
    if receiver == state.holder:
        return f"{name} already has the disc"
    direction = state.field.direction_between(state.disc, state.pos[receiver])
    if direction is None:
        return f"{name} is not on a straight row, column or diagonal from the thrower"
    path = state.field.rays[state.disc][direction]
    between = path[: path.index(state.pos[receiver])]
    if any(state.occupied[state.defense] & (1 << c) for c in between):
        return f"the throw to {name} would pass over an opponent"
    return f"the throw to {name} must pass over at least one free field"


@dataclass(frozen=True, slots=True)
class MonsterDefense(Procedure[State]):
    """PU-MON-1: with a defender next to the catcher, the defense may roll 'monster Defense'
    (naming the marker, PU-R6) or let the catch stand."""

    team: int
    rule = "PU-MON-1"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = [
            state.actions.monster[state.player_at(c)] for c in iter_bits(state.markers())
        ]
        out.append(DECLINE)
        return out

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, DeclineMonster):
            return _after_catch(state)
        assert isinstance(action, CallMonster)
        state.emit(ev.MonsterCalled(action.player))
        return (MonsterDie(action.player),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s monster-defense decision"


@dataclass(frozen=True, slots=True)
class MonsterDie(Procedure[State]):
    """PU-MON-2/4: a die (1 or 6 is a turn) or two coins (two heads is a turn)."""

    marker: int
    rule = "PU-MON-2"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        if state.options.monster_defense == "coins":
            return uniform(state.actions.coins)
        return uniform(state.actions.d6)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        turn = action.value in ("1", "6", "HH")
        # PU-R2: a turn on a catch in the end zone takes the point away; a catch that stands
        # there scores, so the point ends the step and nobody's next run is restricted.
        scoring = bool(state.attacking_end_zone(state.offense) >> state.pos[state.holder] & 1)
        state.emit(ev.MonsterRolled(action.notation(), turn, scoring))
        if turn:
            state.offense = team_of(self.marker)
            return _give_disc_after_turn(state, self.marker, "monster defense")
        if not scoring:
            state.marker_only = self.marker  # PU-MON-3
        return _after_catch(state)

    def describe(self) -> str:
        return "the monster-defense roll"


@dataclass(frozen=True, slots=True)
class NextPlayer(Procedure[State]):
    """PU-TURN-2 with PU-R5: the new offense names which of the candidates takes the disc."""

    team: int
    candidates: tuple[int, ...]
    rule = "PU-TURN-2"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.take[p] for p in self.candidates]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, TakeDisc)
        state.offense = self.team
        return _give_disc_after_turn(state, action.player, "no free receiver")

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} choosing who takes the disc"


def _stall(state: State) -> Transition:
    """PU-R14: the pulled disc lay loose for ``pull_stall`` offensive running steps: a stall,
    and the pulling team's player nearest the disc takes it where he stands (as on a turn,
    PU-R5; ties: that team chooses)."""
    state.emit(ev.PullStalled(state.loose_steps))
    return _turn(state, "the pull was not picked up")


def _turn(state: State, reason: str) -> Transition:
    """PU-TURN-1/2: the disc goes to the other team's nearest player (PU-R5)."""
    if state.options.turn_pickup == "nearest":
        candidates = state.nearest_defenders()
    else:
        candidates = list(team_players(state.defense))
    if len(candidates) == 1:
        state.offense = state.defense
        return _give_disc_after_turn(state, candidates[0], reason)
    # Possession changes when the disc is taken, so the thrower holds it until then.
    return (NextPlayer(state.defense, tuple(candidates)),)


def _give_disc_after_turn(state: State, player: int, reason: str) -> Transition:
    state.holder = player
    state.disc = state.pos[player]
    state.surplus_must_leave = True  # PU-TURN-4
    state.emit(ev.Turnover(player, reason))
    return _continue_play(state)


def _after_catch(state: State) -> Transition:
    """PU-SCORE-1 (PU-R2): a catch in the attacking end zone scores."""
    receiver = state.holder
    team = team_of(receiver)
    if state.attacking_end_zone(team) & (1 << state.pos[receiver]):
        state.score[team] += 1
        state.emit(ev.PointScored(team, state.score[0], state.score[1]))
        if state.score[team] >= state.options.points_to_win:
            return _finish(state, team)
        if _throw_cap_reached(state):
            return _finish_on_score(state)
        if state.options.switch_ends:
            state.north_team = 1 - state.north_team  # PU-R9
        return (StartPoint(1 - team),)  # PU-SCORE-2: the scorer pulls (plays defense)
    if state.options.catch_markers == "depart":
        state.surplus_must_leave = True  # PU-R11: the surplus markers leave, as after a turn
    return _continue_play(state)


def _continue_play(state: State) -> Transition:
    if _throw_cap_reached(state):
        return _finish_on_score(state)
    return (Running(state.offense, 0),)  # PU-TURN-3 / PU-STEP-1


def _throw_cap_reached(state: State) -> bool:
    cap = state.options.max_throws
    return cap > 0 and state.throws >= cap


def _finish_on_score(state: State) -> Transition:
    a, b = state.score
    return _finish(state, 0 if a > b else 1 if b > a else 2)


def _finish(state: State, winner: int) -> Transition:
    state.winner = winner
    state.emit(ev.GameOver(winner, state.score[0], state.score[1]))
    return ()


def first_steps(options: PaperUltimateOptions) -> tuple[Procedure[State], ...]:
    if options.first_receiver == "toss":
        return (CoinToss(),)
    return (StartPoint(TEAM_NAMES.index(options.first_receiver)),)


ALL_STEPS: tuple[type[Procedure[State]], ...] = (
    CoinToss,
    StartPoint,
    SetUp,
    HandDisc,
    Pull,
    Running,
    Throwing,
    MonsterDefense,
    MonsterDie,
    NextPlayer,
)
