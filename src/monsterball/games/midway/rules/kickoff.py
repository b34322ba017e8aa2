"""The coin toss and the wind (MW-START-*), formations (MW-GEN-3, MW-SCRIM-2) and kickoffs,
regular and onside (MW-KICK-*)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway.actions import (
    NUM_PLAYERS,
    PER_TEAM,
    Kick,
    Place,
    Punt,
    Word,
    player_name,
)
from monsterball.games.midway.events.ball import BallOut, Touchback
from monsterball.games.midway.events.draft import EndChosen, TossChosen, TossWon
from monsterball.games.midway.events.kicks import (
    FreeKickPunted,
    KickedOff,
    KickLanded,
    OnsideRolled,
    OnsideTried,
)
from monsterball.games.midway.events.lineup import FormationSet, KickoffLinedUp, StunnedReturn
from monsterball.games.midway.moves import hobgoblin_setup_filter
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.ball import PuntKick
from monsterball.games.midway.rules.inplay import FLOW, DieRoll, cell_of, past_midfield, wrong
from monsterball.games.midway.rules.phases import StartPhase
from monsterball.games.midway.state import (
    FOREVER,
    MID_COL,
    NOBODY,
    MidwayState,
    team_of,
    team_players,
)

State = MidwayState


@dataclass(frozen=True, slots=True)
class CoinToss(Procedure[State]):
    """MW-START-1: a coin toss; the winner chooses first."""

    rule = "MW-START-1"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.toss)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        winner = TEAM_NAMES.index(action.value)
        state.emit(TossWon(str(action.value)))
        return (TossChoice(winner, NOBODY, False),)

    def describe(self) -> str:
        return "the coin toss"


@dataclass(frozen=True, slots=True)
class TossChoice(Procedure[State]):
    """MW-START-1/2: the winner chooses to receive (or kick) or an end zone to defend; the
    other coach makes the other choice. The team defending the north end zone has the wind."""

    team: int
    kicker: int  # -1 until chosen
    ends_set: bool
    rule = "MW-START-1"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        w = state.actions.words
        out: list[Action] = []
        winner = self.kicker < 0 and not self.ends_set
        if self.kicker < 0:
            out.append(w["receive"])
            # Ruling MW-R31: the winner "can either choose to receive the kickoff, or can
            # pick which end zone"; the other coach then chooses to kick or receive.
            if not winner or state.options.toss_choices == "any":
                out.append(w["kickoff"])
        if not self.ends_set:
            out += [w["north"], w["south"]]
        return out

    def check(self, state: State, action: Action) -> None:
        if action in self.legal_actions(state):
            return
        if isinstance(action, Word) and action.word == "kickoff" and self.kicker < 0:
            raise IllegalActionError(
                "the coin toss winner chooses to receive the kickoff or an end zone to defend "
                "(ruling MW-R31; option toss_choices=any lets him kick off)"
            )
        raise wrong(self, action)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Word)
        kicker, ends = self.kicker, self.ends_set
        if action.word in ("receive", "kickoff"):
            kicker = 1 - self.team if action.word == "receive" else self.team
            state.emit(TossChosen(self.team, action.word))
        else:
            state.north_team = self.team if action.word == "north" else 1 - self.team
            ends = True
            state.emit(EndChosen(self.team, action.word, state.north_team))
        if kicker >= 0 and ends:
            return (StartKickoff(kicker, state.yard_row(kicker, 40), True),)
        return (TossChoice(1 - self.team, kicker, ends),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s choice after the coin toss"


def new_play(state: State, kind: str, counts: bool) -> None:
    """Clear the field for the next play (MW-GEN-4: kicks count, conversions do not)."""
    state.play_no += 1
    if counts:
        state.plays += 1
    if state.options.spell_limit == "play":
        state.spent = 0
    for team in (0, 1):
        # MW-R15: with nobody fit for this play, the players out only for a while return.
        players = [p for p in range(team * PER_TEAM, (team + 1) * PER_TEAM) if state.roster[p]]
        if players and not any(state.available(p) for p in players):
            back = [p for p in players if state.out_through[p] < FOREVER]
            for p in back:
                state.out_through[p] = NOBODY
            if back:
                state.emit(StunnedReturn(team))
    for p in range(NUM_PLAYERS):
        state.pos[p] = NOBODY
        state.form[p] = ""
        state.form_left[p] = 0
    state.kind = kind
    state.carrier = NOBODY
    state.ball_state = ""
    state.linemen = 0
    state.passed = False
    state.crossed = False
    state.phases = state.idle = 0
    state.first_phase = NOBODY
    state.receivable = NOBODY
    state.punter = NOBODY
    state.punt_path = []
    state.punt_travel = 0
    state.bounces = 0
    state.no_recover = NOBODY
    state.onside_ok = False
    state.tried = state.retry = state.frozen = state.dazed = 0
    state.no_tackle = state.no_tackle_next = state.slowed = 0
    state.images = []
    state.caster = NOBODY
    state.image_phases = 0
    state.invisible = state.vanish = state.appear_at = NOBODY
    state.vanish_reach = 0
    state.dead = ""
    state.phase_over = False


@dataclass(frozen=True, slots=True)
class StartKickoff(Procedure[State]):
    """MW-KICK-1: the ball directly behind the kicking team's 40 (its 20 after a safety,
    one hex farther back for each re-kick)."""

    team: int
    row: int
    counts: bool
    safety: bool = False  # a free kick after a safety: a kickoff or a punt (MW-SCORE-9)
    rule = "MW-KICK-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        new_play(state, "kickoff", self.counts)
        state.offense = state.poss = self.team
        state.ball = self.row * state.field.width + MID_COL
        state.spot = state.ball
        state.los_row = self.row
        state.down = 1
        state.emit(KickoffLinedUp(state.plays, self.team, state.field.name(state.ball)))
        return (
            KickoffKick(self.team, self.safety),
            SetUp(1 - self.team, "receive"),
            SetUp(self.team, "kick"),
        )

    def describe(self) -> str:
        return "the kickoff set-up"


@dataclass(frozen=True, slots=True)
class SetUp(Procedure[State]):
    """Formations: six players per team (MW-GEN-3), placed one at a time ('A3@g5') or the
    rest in a standard pattern ('auto'). ``mode``: kick, receive (MW-KICK-1), offense
    (MW-GEN-3/MW-SCRIM-1), defense (MW-SCRIM-2)."""

    team: int
    mode: str
    rule = "MW-GEN-3"

    def actor(self, state: State) -> int:
        return self.team if self._needed(state) > 0 else AUTO

    def resolve(self, state: State) -> Transition:
        return ()

    def _needed(self, state: State) -> int:
        # Asked by actor() several times a decision: one pass, state.available inlined.
        pos, roster, out_through, play_no = (
            state.pos,
            state.roster,
            state.out_through,
            state.play_no,
        )
        placed = waiting = 0
        for p in team_players(self.team):
            if pos[p] >= 0:
                placed += 1
            elif roster[p] != "" and out_through[p] < play_no:
                waiting += 1
        return min(6 - placed, waiting)

    def cells(self, state: State) -> int:
        """Bitmask of the hexes the next player may take."""
        f = state.field
        free = f.full_mask & ~state.counters_mask()
        ball = state.ball
        brow = state.row(ball)
        team = self.team
        mine = state.on_field(team)
        rows = 0
        if self.mode == "kick":
            if not mine:
                return 1 << (ball - state.forward(team) * f.width)  # the kicker, behind the ball
            rows = f.full_mask & ~state.beyond_mask(team, brow)
            return rows & free & ~(1 << ball)
        if self.mode == "receive":
            half = range(12, f.height) if state.forward(team) < 0 else range(0, 12)
            return f.rows_mask(half) & free
        if self.mode == "defense":
            return state.beyond_mask(1 - team, brow) & free
        # offense: the snapper on the ball, 3 on the line, 3 in the backfield
        if not mine:
            return 1 << ball
        on_line = sum(1 for p in mine if state.row(state.pos[p]) == brow)
        backs = [p for p in mine if state.row(state.pos[p]) != brow]
        mask = 0
        if on_line < 3:
            mask |= f.row_mask(brow)
        if len(backs) < 3:
            back = 0
            for k in range(1, 5):
                r = brow - k * state.forward(team)
                if 0 <= r < f.height:
                    back |= f.row_mask(r)
            receivers = [p for p in backs if f.distance(ball, state.pos[p]) <= 3]
            if not receivers and (len(backs) == 2 or self._needed(state) == 1):
                near = 0
                row = f.distance_row(ball)
                for c in range(f.size):
                    if row[c] <= 3:
                        near |= 1 << c
                back &= near  # keep a snap receiver possible (MW-SCRIM-5)
            mask |= back
        return mask & free

    def _waiting(self, state: State) -> list[int]:
        return [p for p in team_players(self.team) if state.pos[p] < 0 and state.available(p)]

    def legal_actions(self, state: State) -> list[Action]:
        mask = self.cells(state)
        out: list[Action] = []
        for p in self._waiting(state):
            out += state.actions.place_by_mask[p].select(hobgoblin_setup_filter(state, p, mask))
        out.append(state.actions.words["auto"])
        return out

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, Word) and action.word == "auto":
            return
        if not isinstance(action, Place):
            raise wrong(self, action)
        p = action.player
        if team_of(p) != self.team:
            raise IllegalActionError(f"{player_name(p)} is not in team {TEAM_NAMES[self.team]}")
        if state.pos[p] >= 0:
            raise IllegalActionError(f"{player_name(p)} is already on the field")
        if not state.available(p):
            raise IllegalActionError(f"{player_name(p)} is injured or stunned and sits out")
        cell = cell_of(state, action.cell)
        if not self.cells(state) >> cell & 1:
            raise IllegalActionError(
                f"{action.cell} is not open for the next player of this formation "
                f"({self.describe()})"
            )
        if not hobgoblin_setup_filter(state, p, self.cells(state)) >> cell & 1:
            raise IllegalActionError(
                f"{player_name(p)} is a hobgoblin: he must set up as near as he can to the "
                "nearest opposing elf"
            )

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Word):
            f = state.field
            while self._needed(state) > 0:
                p = self._waiting(state)[0]
                mask = hobgoblin_setup_filter(state, p, self.cells(state))
                row = f.distance_row(state.ball)
                cell = min((c for c in range(f.size) if mask >> c & 1), key=lambda c: (row[c], c))
                state.pos[p] = cell
            state.emit(FormationSet(self.team, self.mode))
            return ()
        assert isinstance(action, Place)
        state.pos[action.player] = cell_of(state, action.cell)
        return (self,) if self._needed(state) > 0 else ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s {self.mode} formation"


def kicker_of(state: State, team: int) -> int:
    behind = state.ball - state.forward(team) * state.field.width
    return next((p for p in team_players(team) if state.pos[p] == behind), NOBODY)


def wind(state: State, team: int) -> int:
    """MW-START-2: the team defending the north end zone kicks one hex farther."""
    return 1 if team == state.north_team else 0


@dataclass(frozen=True, slots=True)
class KickoffKick(Procedure[State]):
    """MW-KICK-3..5: the kicking coach picks the end of a 12-hex path that never goes
    laterally or backward (a halfling kicker may add up to 2, the wind 1), or an onside
    kick."""

    team: int
    safety: bool = False
    rule = "MW-KICK-3"

    def actor(self, state: State) -> int:
        return self.team

    def _punts(self, state: State) -> list[int]:
        """After a safety the free kick may be a punt along a line through a hex ahead."""
        if not self.safety:
            return []
        f = state.field
        row = f.distance_row(state.ball)
        return [
            t
            for t in range(f.size)
            if state.beyond(self.team, state.row(t), state.row(state.ball)) and row[t] <= 4
        ]

    def _distances(self, state: State) -> range:
        base = 12 + wind(state, self.team)
        extra = 2 if state.kind_of(kicker_of(state, self.team)) == "halfling" else 0
        return range(base, base + extra + 1)

    def ends(self, state: State) -> tuple[list[int], bool]:
        """The hexes a kickoff path may end on, and whether a longer one leaves the field
        (a kick 'deep' for a touchback)."""
        f = state.field
        ball = state.ball
        row = f.distance_row(ball)
        ends: list[int] = []
        deep = False
        for n in self._distances(state):
            r = state.row(ball) + n * state.forward(self.team)
            if not 0 <= r < f.height:
                deep = True
                continue
            ends += [c for c in range(r * f.width, (r + 1) * f.width) if row[c] == n]
        return ends, deep

    def legal_actions(self, state: State) -> list[Action]:
        acts = state.actions
        ends, deep = self.ends(state)
        out: list[Action] = [acts.kick[c] for c in ends]
        if deep:
            out.append(acts.words["deep"])
        out.append(acts.words["onside"])
        out += [acts.punt[t] for t in self._punts(state)]
        if state.kind_of(kicker_of(state, self.team)) == "halfling":
            out += [acts.words["onside+1"], acts.words["onside+2"]]
        return out

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, Kick):
            cell = cell_of(state, action.cell)
            if cell not in self.ends(state)[0]:
                n = list(self._distances(state))
                raise IllegalActionError(
                    f"{action.cell} is not the end of a kickoff path of {n[0]}"
                    f"{'..' + str(n[-1]) if len(n) > 1 else ''} hexes that never goes "
                    "laterally or backward"
                )
            return
        super(KickoffKick, self).check(state, action)

    def apply(self, state: State, action: Action) -> Transition:
        team = self.team
        if isinstance(action, Punt):
            state.emit(FreeKickPunted(team))
            return (FLOW.step("Play"), StartPhase(team), PuntKick(cell_of(state, action.cell)))
        state.first_phase = team  # MW-KICK-2: +2 on the kicking team's first phase
        if isinstance(action, Kick):
            state.ball = cell_of(state, action.cell)
            state.ball_state = "kick"
            state.last_dir = state.ahead(team)
            state.emit(KickedOff(team, action.cell))
            return (FLOW.step("Play"), StartPhase(team), KickLanding(team))
        assert isinstance(action, Word)
        if action.word == "deep":
            state.emit(Touchback("deep"))
            state.dead = "touchback"
            return (FLOW.step("Play"),)
        state.kind = "onside"
        bonus = 0 if action.word == "onside" else int(action.word[-1])
        state.emit(OnsideTried(team))
        return (FLOW.step("Play"), StartPhase(team), OnsideRoll(team, bonus))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s kickoff"


@dataclass(frozen=True, slots=True)
class KickLanding(DieRoll):
    """MW-KICK-3/6: the direction modifier at the end of the path; out of bounds is a re-kick
    5 yards back, beyond the end zone a touchback."""

    team: int
    rule = "MW-KICK-6"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        col, row = state.direction_target(state.ball, state.ahead(self.team), int(action.value))
        f = state.field
        if not state.on_board(col, row):
            if 0 <= row < f.height:
                state.emit(BallOut("kickoff"))
                state.dead = "rekick"
            else:
                state.emit(Touchback("kickoff"))
                state.dead = "touchback"
            return ()
        state.ball = row * f.width + col
        state.receivable = 1 - self.team
        state.emit(KickLanded(int(action.value), f.name(state.ball)))
        return ()

    def describe(self) -> str:
        return "the kickoff coming down"


@dataclass(frozen=True, slots=True)
class OnsideRoll(DieRoll):
    """MW-KICK-8/11: an onside kick goes d6 hexes (+ the halfling's declared 1 or 2)
    straight toward the receivers; the kickers may recover it only past midfield."""

    team: int
    bonus: int
    rule = "MW-KICK-8"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        f = state.field
        n = int(action.value) + self.bonus + wind(state, self.team)
        row = state.row(state.ball) + n * state.forward(self.team)
        row = max(0, min(f.height - 1, row))
        state.ball = row * f.width + state.col(state.ball)
        state.ball_state = "loose"
        state.last_dir = state.ahead(self.team)
        state.onside_ok = past_midfield(state, self.team)
        state.bounces = 1  # MW-KICK-10: one direction modifier if nobody recovers
        state.emit(OnsideRolled(n, f.name(state.ball)))
        return ()

    def describe(self) -> str:
        return "an onside kick"
