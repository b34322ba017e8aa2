"""The flow of a game of Monsters of the Midway, step by step in the rulebook's order.

::

    Draft(A) -> Draft(B) -> CoinToss -> TossChoice -> StartKickoff
    StartKickoff -> SetUp(kickers) -> SetUp(receivers) -> KickoffKick -> [Play ... phases]
    Play (dead) -> settle: touchdown -> Conversion -> StartKickoff
                           otherwise  -> StartScrimmage -> SetUp(offense) -> SetUp(defense)
                                         -> ShiftStep -> Adjust -> SnapStep -> [Play ...]
    after the last play -> GameOver

The in-play steps (phases, tackles, passes, ...) are in :mod:`monsterball.games.midway.play`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway import chart
from monsterball.games.midway.actions import (
    LENGTH,
    NUM_PLAYERS,
    DraftPick,
    Kick,
    Move,
    Name,
    Place,
    Punt,
    Snap,
    Word,
    player_name,
)
from monsterball.games.midway.moves import hobgoblin_filter, hobgoblin_setup_filter
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.play import (
    AppearPick,
    BlockRoll,
    BounceCount,
    CatchRoll,
    DesignateBlock,
    EndPhase,
    EttinAttack,
    EttinRoll,
    InterceptOrder,
    MirrorRoll,
    PassResolution,
    Phase,
    PickReal,
    PlaceImage,
    PuntCarry,
    PuntKick,
    RecoveryRoll,
    Scatter,
    StartPhase,
    TackleRoll,
    TackleRound,
    cell_of,
    note,
    wrong,
)
from monsterball.games.midway.state import (
    MID_COL,
    NOBODY,
    MidwayState,
    team_of,
    team_players,
)

State = MidwayState


def first_steps(state: State) -> tuple[Procedure[Any], ...]:
    return (Draft(0),)


# -- the draft ---------------------------------------------------------------------------------


def _draft_left(state: State, team: int) -> tuple[int, int]:
    """(slots left, points left) for ``team``'s draft."""
    picked = [state.roster[p] for p in team_players(team) if state.roster[p]]
    spent = sum(state.chart.types[k].points for k in picked)
    return state.chart.team_size - len(picked), state.chart.max_points - spent


def affordable(state: State, team: int) -> list[str]:
    """MW-DRAFT-1: types that keep a full team of 10 within 210 points possible."""
    slots, points = _draft_left(state, team)
    if slots <= 0:
        return []
    cheapest = state.chart.cheapest()
    return [
        k
        for k in state.chart.names
        if state.chart.types[k].points + (slots - 1) * cheapest <= points
    ]


def rating(state: State, kind: str) -> float:
    """A rough playing value for the 'best value' draft: speed, size, arm, hands, magic."""
    t = state.chart.types[kind]
    return (
        3.0 * t.mv
        + 3.0 * chart.SIZES.index(t.size)
        + 0.8 * t.qb_range
        + 1.0 * t.rec_mod
        + (4.0 if t.magic else 0.0)
    )


def best_pick(state: State, team: int) -> str:
    """The 'best value' draft: the highest-rated type that fits this pick's share of the
    points left (1.5 times the average), the best value per point otherwise."""
    slots, points = _draft_left(state, team)
    options = affordable(state, team)
    share = 1.5 * points / slots
    have = [state.roster[p] for p in team_players(team)]
    varied = [k for k in options if have.count(k) < 3] or options  # at most 3 of a kind
    fits = [k for k in varied if state.chart.types[k].points <= share] or varied
    return max(fits, key=lambda k: (rating(state, k), -state.chart.types[k].points, k))


def _assign(state: State, team: int, kind: str) -> None:
    p = next(q for q in team_players(team) if not state.roster[q])
    state.roster[p] = kind
    note(state, "draft", f"Team {TEAM_NAMES[team]} drafts {player_name(p)}: {kind}.")


@dataclass(frozen=True, slots=True)
class Draft(Procedure[State]):
    """MW-DRAFT-1: a coach drafts 10 players for at most 210 points ('draft orc', or
    'draft random' / 'draft best'). A saved roster (options roster_a/b) skips this."""

    team: int
    rule = "MW-DRAFT-1"

    def actor(self, state: State) -> int:
        return self.team if affordable(state, self.team) else AUTO

    def resolve(self, state: State) -> Transition:
        roster = ",".join(state.roster[p] for p in team_players(self.team))
        key = "roster_a" if self.team == 0 else "roster_b"
        note(
            state,
            "roster",
            f"Team {TEAM_NAMES[self.team]}'s roster (reuse with --opt {key}={roster}).",
        )
        if self.team == 0:
            return (Draft(1),)
        return (CoinToss(),)

    def legal_actions(self, state: State) -> list[Action]:
        d = state.actions.draft
        out: list[Action] = [d[k] for k in affordable(state, self.team)]
        return [*out, d["random"], d["best"]]

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, DraftPick):
            raise wrong(self, action)
        if action.kind in ("random", "best"):
            return
        if action.kind not in state.chart.types:
            raise IllegalActionError(
                f"'{action.kind}' is not on the draft chart ({', '.join(state.chart.names)})"
            )
        if action.kind not in affordable(state, self.team):
            slots, points = _draft_left(state, self.team)
            raise IllegalActionError(
                f"a {action.kind} costs {state.chart.types[action.kind].points}: with {points} "
                f"points for {slots} players the team could not be completed"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, DraftPick)
        if action.kind == "random":
            return (self, DraftRandom(self.team))
        kind = best_pick(state, self.team) if action.kind == "best" else action.kind
        _assign(state, self.team, kind)
        return (self,)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s draft"


@dataclass(frozen=True, slots=True)
class DraftRandom(Procedure[State]):
    """A random legal pick, as a recorded chance event (pick=orc)."""

    team: int
    rule = "MW-DRAFT-1"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform([state.actions.pick[k] for k in affordable(state, self.team)])

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        _assign(state, self.team, action.value)
        return ()

    def describe(self) -> str:
        return "a random draft pick"


# -- starting the game -------------------------------------------------------------------------


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
        note(state, "toss", f"Team {action.value} wins the coin toss.")
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
        if self.kicker < 0:
            out += [w["receive"], w["kickoff"]]
        if not self.ends_set:
            out += [w["north"], w["south"]]
        return out

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Word)
        kicker, ends = self.kicker, self.ends_set
        name = TEAM_NAMES[self.team]
        if action.word in ("receive", "kickoff"):
            kicker = 1 - self.team if action.word == "receive" else self.team
            note(state, "toss", f"Team {name} chooses to {action.word}.")
        else:
            state.north_team = self.team if action.word == "north" else 1 - self.team
            ends = True
            note(
                state,
                "toss",
                f"Team {name} defends the {action.word} end zone; team "
                f"{TEAM_NAMES[state.north_team]} has the wind at its back.",
            )
        if kicker >= 0 and ends:
            return (StartKickoff(kicker, state.yard_row(kicker, 40), True),)
        return (TossChoice(1 - self.team, kicker, ends),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s choice after the coin toss"


# -- kickoffs ----------------------------------------------------------------------------------


def _new_play(state: State, kind: str, counts: bool) -> None:
    """Clear the field for the next play (MW-GEN-4: kicks count, conversions do not)."""
    state.play_no += 1
    if counts:
        state.plays += 1
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
    state.phases = 0
    state.first_phase = NOBODY
    state.receivable = NOBODY
    state.punter = NOBODY
    state.punt_path = []
    state.punt_travel = 0
    state.bounces = 0
    state.no_recover = NOBODY
    state.onside_ok = False
    state.tried = state.frozen = state.no_tackle = state.dazed = 0
    state.slowed = 0
    state.images = []
    state.caster = NOBODY
    state.image_phases = 0
    state.invisible = state.vanish = state.appear_at = NOBODY
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
        _new_play(state, "kickoff", self.counts)
        state.offense = state.poss = self.team
        state.ball = self.row * state.field.width + MID_COL
        state.spot = state.ball
        state.los_row = self.row
        state.down = 1
        note(
            state,
            "kickoff",
            f"Play {state.plays}: team {TEAM_NAMES[self.team]} kicks off from "
            f"{state.field.name(state.ball)}.",
        )
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
        placed = len(state.on_field(self.team))
        waiting = sum(1 for p in team_players(self.team) if state.pos[p] < 0 and state.available(p))
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
            for r in range(f.height):
                if not state.beyond(team, r, brow):
                    rows |= f.row_mask(r)
            return rows & free & ~(1 << ball)
        if self.mode == "receive":
            half = range(12, f.height) if state.forward(team) < 0 else range(0, 12)
            return f.rows_mask(half) & free
        if self.mode == "defense":
            for r in range(f.height):
                if state.beyond(1 - team, r, brow):
                    rows |= f.row_mask(r)
            return rows & free
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
            note(state, "setup", f"Team {TEAM_NAMES[self.team]} sets up ({self.mode}).")
            return ()
        assert isinstance(action, Place)
        state.pos[action.player] = cell_of(state, action.cell)
        return (self,) if self._needed(state) > 0 else ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s {self.mode} formation"


def _kicker(state: State, team: int) -> int:
    behind = state.ball - state.forward(team) * state.field.width
    return next((p for p in team_players(team) if state.pos[p] == behind), NOBODY)


def _wind(state: State, team: int) -> int:
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
        base = 12 + _wind(state, self.team)
        extra = 2 if state.kind_of(_kicker(state, self.team)) == "halfling" else 0
        return range(base, base + extra + 1)

    def _ends(self, state: State) -> tuple[list[int], bool]:
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
        ends, deep = self._ends(state)
        out: list[Action] = [acts.kick[c] for c in ends]
        if deep:
            out.append(acts.words["deep"])
        out.append(acts.words["onside"])
        out += [acts.punt[t] for t in self._punts(state)]
        if state.kind_of(_kicker(state, self.team)) == "halfling":
            out += [acts.words["onside+1"], acts.words["onside+2"]]
        return out

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, Kick):
            cell = cell_of(state, action.cell)
            if cell not in self._ends(state)[0]:
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
            note(state, "punt", f"Team {TEAM_NAMES[team]} punts the free kick.")
            return (Play(), StartPhase(team), PuntKick(cell_of(state, action.cell)))
        state.first_phase = team  # MW-KICK-2: +2 on the kicking team's first phase
        if isinstance(action, Kick):
            state.ball = cell_of(state, action.cell)
            state.ball_state = "kick"
            state.last_dir = state.ahead(team)
            note(state, "kick", f"Team {TEAM_NAMES[team]} kicks off toward {action.cell}.")
            return (Play(), StartPhase(team), KickLanding(team))
        assert isinstance(action, Word)
        if action.word == "deep":
            note(state, "touchback", "The kickoff sails beyond the end zone: touchback.")
            state.dead = "touchback"
            return (Play(),)
        state.kind = "onside"
        bonus = 0 if action.word == "onside" else int(action.word[-1])
        note(state, "kick", f"Team {TEAM_NAMES[team]} tries an onside kick.")
        return (Play(), StartPhase(team), OnsideRoll(team, bonus))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s kickoff"


@dataclass(frozen=True, slots=True)
class KickLanding(Procedure[State]):
    """MW-KICK-3/6: the direction modifier at the end of the path; out of bounds is a re-kick
    5 yards back, beyond the end zone a touchback."""

    team: int
    rule = "MW-KICK-6"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.d6)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        col, row = state.direction_target(state.ball, state.ahead(self.team), int(action.value))
        f = state.field
        if not state.on_board(col, row):
            if 0 <= row < f.height:
                note(state, "out", "The kickoff lands out of bounds: 5-yard penalty, kick again.")
                state.dead = "rekick"
            else:
                note(state, "touchback", "The kickoff goes beyond the end zone: touchback.")
                state.dead = "touchback"
            return ()
        state.ball = row * f.width + col
        state.receivable = 1 - self.team
        note(
            state,
            "kick",
            f"Direction modifier {action.value}: the kick comes down on {f.name(state.ball)}.",
        )
        return ()

    def describe(self) -> str:
        return "the kickoff coming down"


@dataclass(frozen=True, slots=True)
class OnsideRoll(Procedure[State]):
    """MW-KICK-9/10: an onside kick goes d6 hexes (+ the halfling's declared 1 or 2)
    straight toward the receivers; the kickers may recover it only past midfield."""

    team: int
    bonus: int
    rule = "MW-KICK-9"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.d6)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        f = state.field
        n = int(action.value) + self.bonus + _wind(state, self.team)
        row = state.row(state.ball) + n * state.forward(self.team)
        row = max(0, min(f.height - 1, row))
        state.ball = row * f.width + state.col(state.ball)
        state.ball_state = "loose"
        state.last_dir = state.ahead(self.team)
        state.onside_ok = past_midfield(state, self.team)
        state.bounces = 1  # MW-KICK-11: one direction modifier if nobody recovers
        note(state, "kick", f"The onside kick rolls {n} hexes to {f.name(state.ball)}.")
        return ()

    def describe(self) -> str:
        return "an onside kick"


def past_midfield(state: State, team: int) -> bool:
    row = state.row(state.ball)
    return row >= 12 if state.forward(team) > 0 else row <= 11


# -- plays from scrimmage ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartScrimmage(Procedure[State]):
    """MW-SCRIM-1..5: the five-step sequence before a play from scrimmage."""

    conversion: bool
    rule = "MW-SCRIM-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        _new_play(state, "conversion" if self.conversion else "scrimmage", not self.conversion)
        state.poss = state.offense
        state.ball = state.spot
        state.los_row = state.row(state.spot)
        o = state.offense
        if self.conversion:
            note(state, "conversion", f"Team {TEAM_NAMES[o]} tries a two-point conversion.")
        else:
            note(
                state,
                "scrimmage",
                f"Play {state.plays}: team {TEAM_NAMES[o]}, down {state.down}, ball on "
                f"{state.field.name(state.spot)}.",
            )
        return (
            SnapStep(o),
            Adjust(1 - o, 0),
            ShiftStep(o),
            SetUp(1 - o, "defense"),
            SetUp(o, "offense"),
        )

    def describe(self) -> str:
        return "the start of a play from scrimmage"


@dataclass(frozen=True, slots=True)
class ShiftStep(Procedure[State]):
    """MW-SCRIM-3: the offense may shift one player laterally or away from the line, up to
    its movement factor ('A4-f9'), or not ('end')."""

    team: int
    rule = "MW-SCRIM-3"

    def actor(self, state: State) -> int:
        return self.team

    def _moves(self, state: State) -> dict[int, int]:
        f = state.field
        free = f.full_mask & ~state.counters_mask()
        out: dict[int, int] = {}
        for p in state.on_field(self.team):
            here = state.pos[p]
            if here == state.ball:
                continue  # the snapper stays on the ball
            mask = f.reachable(here, state.mtype(p).mv, free)
            keep = 0
            for c in range(f.size):
                if mask >> c & 1 and not state.beyond(self.team, state.row(c), state.row(here)):
                    keep |= 1 << c
            out[p] = hobgoblin_filter(state, p, keep)
        return out

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = [state.actions.words["end"]]
        for p, mask in self._moves(state).items():
            out += state.actions.move_by_mask[p].select(mask)
        return out

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Move):
            state.pos[action.player] = cell_of(state, action.cell)
            note(state, "shift", f"{player_name(action.player)} goes in motion to {action.cell}.")
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s shift or motion"


@dataclass(frozen=True, slots=True)
class Adjust(Procedure[State]):
    """MW-SCRIM-4: the defense may move any players up to their movement factors, without
    crossing the line of scrimmage; 'end' when done."""

    team: int
    moved: int
    rule = "MW-SCRIM-4"

    def actor(self, state: State) -> int:
        return self.team

    def _mask(self, state: State, p: int) -> int:
        f = state.field
        free = f.full_mask & ~state.counters_mask()
        side = 0
        for r in range(f.height):
            if state.beyond(1 - self.team, r, state.los_row):
                side |= f.row_mask(r)
        reach = f.reachable(state.pos[p], state.mtype(p).mv, free & side)
        return hobgoblin_filter(state, p, reach)

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = [state.actions.words["end"]]
        for p in state.on_field(self.team):
            if not self.moved >> p & 1:
                out += state.actions.move_by_mask[p].select(self._mask(state, p))
        return out

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Move):
            state.pos[action.player] = cell_of(state, action.cell)
            return (Adjust(self.team, self.moved | 1 << action.player),)
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s defensive adjustment"


def _fg_distance(state: State, team: int) -> int:
    """MW-SCORE-6: from one hex behind the line to the goal posts at the back of the end
    zone, less one for the wind."""
    rear = LENGTH - 1 if state.forward(team) > 0 else 0
    return abs(rear - state.los_row) + 1 - _wind(state, team)


@dataclass(frozen=True, slots=True)
class SnapStep(Procedure[State]):
    """MW-SCRIM-5: the snap, at most two open hexes from the center and away from the line
    ('snap A4'), or an announced field goal ('fg', MW-SCORE-6)."""

    team: int
    rule = "MW-SCRIM-5"

    def actor(self, state: State) -> int:
        return self.team

    def receivers(self, state: State) -> list[int]:
        f = state.field
        out = [
            p
            for p in state.on_field(self.team)
            if state.pos[p] != state.ball
            and f.distance(state.ball, state.pos[p]) <= 3
            and state.beyond(1 - self.team, state.row(state.pos[p]), state.los_row)
        ]
        if not out:  # a team cut to one back by injuries snaps to the center himself
            out = [p for p in state.on_field(self.team) if state.pos[p] == state.ball]
        return out

    def holder_kicker(self, state: State) -> tuple[int, int] | None:
        if state.kind == "conversion":
            return None
        d = _fg_distance(state, self.team)
        if chart.field_goal_target(d) == 0:
            return None
        f = state.field
        for h in self.receivers(state):
            behind = state.pos[h] - state.forward(self.team) * f.width
            for k in state.on_field(self.team):
                if state.pos[k] == behind:
                    return h, k
        return None

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = [state.actions.snap[p] for p in self.receivers(state)]
        if self.holder_kicker(state):
            out.append(state.actions.words["fg"])
        return out

    def apply(self, state: State, action: Action) -> Transition:
        state.linemen = 0
        for p in state.on_field(self.team):
            if state.row(state.pos[p]) == state.los_row:
                state.linemen |= 1 << p
        if isinstance(action, Word):
            hk = self.holder_kicker(state)
            assert hk is not None
            state.kind = "field goal"
            note(state, "fg", f"Team {TEAM_NAMES[self.team]} tries a field goal.")
            return (Play(), FieldGoalRoll(hk[1], _fg_distance(state, self.team)))
        assert isinstance(action, Snap)
        p = action.player
        state.carrier = p
        state.ball = state.pos[p]
        state.ball_state = "held"
        state.punter = p
        state.first_phase = self.team
        note(state, "snap", f"The ball is snapped to {player_name(p)}.")
        return (Play(), StartPhase(self.team))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s snap"


# -- kicks at the goal -------------------------------------------------------------------------


def _big_blockers(state: State, team: int, on_field: bool) -> list[int]:
    out = []
    for p in team_players(team):
        if not state.available(p) or (on_field and state.pos[p] < 0):
            continue
        if state.mtype(p).size in ("L", "G"):
            out.append(p)
    return out


@dataclass(frozen=True, slots=True)
class FieldGoalRoll(Procedure[State]):
    """Field Goal Success table (halfling kickers +1, ruling MW-R7)."""

    kicker: int
    distance: int
    rule = "MW-SCORE-6"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.d6)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        need = chart.field_goal_target(self.distance)
        if state.kind_of(self.kicker) == "halfling":
            need += 1
        ok = int(action.value) <= need
        note(
            state,
            "fg",
            f"Field goal from {self.distance} hexes: d6 {action.value} (needs 1-{need}): "
            f"{'good' if ok else 'no good'}.",
        )
        if not ok:
            state.dead = "fg-miss"
            return ()
        blockers = _big_blockers(state, 1 - state.offense, on_field=True)
        if blockers:
            return (KickBlock(1 - state.offense, "fg", self.kicker),)
        state.dead = "fg-good"
        return ()

    def describe(self) -> str:
        return "a field goal attempt"


@dataclass(frozen=True, slots=True)
class KickBlock(Procedure[State]):
    """MW-SCORE-3/7: the defending coach may name an L or G player to try to block a kick
    that would be good ('block B3'), or not ('no')."""

    team: int
    what: str  # pat or fg
    kicker: int
    rule = "MW-SCORE-3"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        on_field = self.what == "fg"
        out: list[Action] = [
            state.actions.block[p] for p in _big_blockers(state, self.team, on_field)
        ]
        out.append(state.actions.words["no"])
        return out

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Name):
            return (KickBlockRoll(action.player, self.what, self.kicker),)
        return (PatScore(1),) if self.what == "pat" else _fg_good(state)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s chance to block the kick"


def _fg_good(state: State) -> Transition:
    state.dead = "fg-good"
    return ()


@dataclass(frozen=True, slots=True)
class KickBlockRoll(Procedure[State]):
    """MW-SCORE-3: d6, a 6 blocks the kick; then the kicking coach's d6, a 6 stuns the
    blocker for the next play."""

    blocker: int
    what: str
    kicker: int
    rule = "MW-SCORE-3"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.d6)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        if action.value != "6":
            note(state, "kick-block", f"{player_name(self.blocker)} fails to block the kick.")
            return (PatScore(1),) if self.what == "pat" else _fg_good(state)
        note(state, "kick-block", f"{player_name(self.blocker)} blocks the kick!")
        return (StunRoll(self.blocker, self.what, self.kicker),)

    def describe(self) -> str:
        return "a kick block attempt"


@dataclass(frozen=True, slots=True)
class StunRoll(Procedure[State]):
    """MW-SCORE-4: a 6 stuns the blocker (out of the ensuing kickoff / the next play). A
    blocked field goal is then a loose ball from the kicker's hex (MW-SCORE-8)."""

    blocker: int
    what: str
    kicker: int
    rule = "MW-SCORE-4"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.d6)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        if action.value == "6":
            note(state, "stun", f"{player_name(self.blocker)} is stunned by the kick.")
            state.out_through[self.blocker] = state.play_no + 1
            if self.what == "fg":
                state.remove(self.blocker)
        if self.what == "pat":
            return (PatScore(0),)
        # The blocked field goal: a loose ball; the blocking team moves first (ruling MW-R8).
        state.ball = state.pos[self.kicker]
        state.ball_state = "loose"
        state.kind = "blocked"
        defense = 1 - state.offense
        return (StartPhase(defense), Scatter("block", state.ahead(state.offense), defense))

    def describe(self) -> str:
        return "a stun roll"


# -- conversions -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Conversion(Procedure[State]):
    """MW-SCORE-2/5: after a touchdown, a kick by any player ('pat A3') or a two-point play
    ('two')."""

    team: int
    rule = "MW-SCORE-2"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = [
            state.actions.pat[p] for p in team_players(self.team) if state.available(p)
        ]
        out.append(state.actions.words["two"])
        return out

    def apply(self, state: State, action: Action) -> Transition:
        state.offense = self.team
        if isinstance(action, Name):
            if state.kind_of(action.player) == "halfling":
                note(state, "pat", f"{player_name(action.player)} (halfling) kicks: automatic.")
                return (
                    AfterConversion(self.team),
                    *_pat_block_or_score(state, self.team, action.player),
                )
            return (AfterConversion(self.team), PatRoll(action.player))
        f = state.field
        row = state.yard_row(1 - self.team, 5)
        state.spot = row * f.width + MID_COL
        return (AfterConversion(self.team), StartScrimmage(True))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s conversion choice"


def _pat_block_or_score(state: State, team: int, kicker: int) -> tuple[Procedure[State], ...]:
    if _big_blockers(state, 1 - team, on_field=False):
        return (KickBlock(1 - team, "pat", kicker),)
    return (PatScore(1),)


@dataclass(frozen=True, slots=True)
class PatRoll(Procedure[State]):
    """MW-SCORE-2: a result of 1-5 on d6 makes the kick."""

    kicker: int
    rule = "MW-SCORE-2"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.d6)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        ok = action.value != "6"
        note(state, "pat", f"Extra point kick: d6 {action.value}: {'good' if ok else 'missed'}.")
        if not ok:
            return (PatScore(0),)
        return _pat_block_or_score(state, team_of(self.kicker), self.kicker)

    def describe(self) -> str:
        return "an extra point kick"


@dataclass(frozen=True, slots=True)
class PatScore(Procedure[State]):
    points: int
    rule = "MW-SCORE-2"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        if self.points:
            state.score[state.offense] += self.points
            note(state, "score", f"Extra point: {_score_text(state)}.")
        return ()


@dataclass(frozen=True, slots=True)
class AfterConversion(Procedure[State]):
    """After the conversion: the scoring team kicks off (General Rule 1), or the game ends."""

    team: int
    rule = "MW-GEN-4"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        return _next_kickoff_or_end(state, self.team, state.yard_row(self.team, 40))


def _short_handed(state: State) -> bool:
    """Ruling MW-R15: a team with no fit player left cannot go on; the game ends."""
    for team in (0, 1):
        if not any(state.available(p) for p in team_players(team)):
            note(state, "forfeit", f"Team {TEAM_NAMES[team]} has no fit player left.")
            return True
    return False


def _next_kickoff_or_end(state: State, kicker: int, row: int, safety: bool = False) -> Transition:
    if state.plays >= state.options.plays or _short_handed(state):
        return (GameOver(),)
    return (StartKickoff(kicker, row, True, safety),)


def _score_text(state: State) -> str:
    return f"A {state.score[0]} - B {state.score[1]}"


@dataclass(frozen=True, slots=True)
class GameOver(Procedure[State]):
    """MW-GEN-4: after 25 plays the higher score wins; level scores draw."""

    rule = "MW-GEN-4"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        a, b = state.score
        state.winner = 0 if a > b else 1 if b > a else 2
        fit = [any(state.available(p) for p in team_players(t)) for t in (0, 1)]
        if fit[0] != fit[1]:
            state.winner = 0 if fit[0] else 1  # MW-R15: the side that cannot play loses
        note(state, "final", f"Final whistle: {state.result_text()}.")
        return ()


# -- the end of a play -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play(Procedure[State]):
    """The bottom of a live play; once the play is dead it settles the result: scores,
    the next spot, downs (MW-GEN-2), possession and the count of plays (MW-GEN-4)."""

    rule = "MW-GEN-2"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        return settle(state)

    def describe(self) -> str:
        return "the end of the play"


def settle(state: State) -> Transition:
    reason = state.dead or "tackle"
    f = state.field
    kind = state.kind
    offense = state.offense
    kick_play = kind in ("kickoff", "onside", "punt")
    if state.invisible >= 0:
        state.pos[state.invisible] = state.vanish
    carrier = state.carrier
    team = state.poss
    if kind == "conversion":
        if reason == "td":
            state.score[offense] += 2
            note(state, "score", f"Two-point conversion good: {_score_text(state)}.")
        else:
            note(state, "conversion", "The two-point try fails.")
        return ()  # AfterConversion below takes over
    if reason == "rekick":
        row = state.row(state.spot) - state.forward(offense)
        state.plays -= 1  # the same kickoff, kicked over
        return (StartKickoff(offense, row, True),)
    if reason == "td":
        state.score[team] += 6
        note(state, "score", f"Touchdown team {TEAM_NAMES[team]}: {_score_text(state)}.")
        return (Conversion(team),)
    if reason == "fg-good":
        state.score[offense] += 3
        note(state, "score", f"Field goal: {_score_text(state)}.")
        return _next_kickoff_or_end(state, offense, state.yard_row(offense, 40))
    if reason in ("tackle", "out", "cap") and carrier >= 0:
        t = team_of(carrier)
        if state.own_end_zone(t, state.row(state.ball)):
            if t != offense:
                # A kick returner or an interceptor downed in his own end zone: a touchback
                # (MW-R13); a safety is a tackle of the offense's carrier (MW-SCORE-9).
                reason = "touchback"
            else:
                state.score[1 - t] += 2
                note(state, "safety", f"Safety! {_score_text(state)}.")
                return _next_kickoff_or_end(state, t, state.yard_row(t, 20), safety=True)
    if reason == "end-line":
        # A loose ball out over an end line: touchback to the team defending it (MW-R13).
        defender = (
            state.north_team if state.row(state.ball) >= f.height // 2 else 1 - state.north_team
        )
        team, reason = defender, "touchback-to"
    if reason in ("touchback", "touchback-to"):
        receiver = team if reason == "touchback-to" else 1 - offense  # kickers' opponents
        state.offense = receiver
        state.down = 1
        state.spot = state.yard_row(receiver, 20) * f.width + MID_COL
        note(state, "touchback", f"Touchback: team {TEAM_NAMES[receiver]} at its 20.")
        return _next_scrimmage(state)
    spot = state.hash_spot(state.ball) if state.ball >= 0 else state.spot
    if reason in ("incomplete", "fg-miss"):
        spot = state.spot
    if kind == "blocked":
        new = offense if reason == "td" else 1 - offense
        _change(state, new, spot)
    elif kick_play:
        holder = team_of(carrier) if carrier >= 0 else 1 - offense
        if reason in ("downed", "punt-out", "ball-out"):
            holder = 1 - offense if kind == "punt" else holder
        _change(state, holder, spot)
    elif reason == "fg-miss" or (carrier >= 0 and team_of(carrier) != offense):
        _change(state, 1 - offense if reason == "fg-miss" else team_of(carrier), spot)
    else:
        state.spot = spot
        state.down += 1
        if state.down > 4:
            note(
                state,
                "downs",
                f"Four downs without a score: team {TEAM_NAMES[1 - offense]} takes over.",
            )
            _change(state, 1 - offense, spot)
    return _next_scrimmage(state)


def _change(state: State, team: int, spot: int) -> None:
    state.offense = team
    state.down = 1
    state.spot = spot


def _next_scrimmage(state: State) -> Transition:
    if state.plays >= state.options.plays or _short_handed(state):
        return (GameOver(),)
    return (StartScrimmage(False),)


ALL_STEPS: tuple[type[Procedure[Any]], ...] = (
    Draft,
    DraftRandom,
    CoinToss,
    TossChoice,
    StartKickoff,
    SetUp,
    KickoffKick,
    KickLanding,
    OnsideRoll,
    StartScrimmage,
    ShiftStep,
    Adjust,
    SnapStep,
    FieldGoalRoll,
    KickBlock,
    KickBlockRoll,
    StunRoll,
    Conversion,
    PatRoll,
    PatScore,
    AfterConversion,
    GameOver,
    Play,
    StartPhase,
    Phase,
    EndPhase,
    BlockRoll,
    TackleRound,
    TackleRoll,
    PassResolution,
    CatchRoll,
    DesignateBlock,
    InterceptOrder,
    RecoveryRoll,
    Scatter,
    BounceCount,
    PuntKick,
    PuntCarry,
    EttinRoll,
    EttinAttack,
    MirrorRoll,
    PlaceImage,
    PickReal,
    AppearPick,
)
