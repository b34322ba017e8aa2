"""A ball nobody holds: passes arriving and interceptions (MW-PASS-*), catches, fumbles and
recoveries (MW-FUM-*), direction modifiers, and punts in the air (MW-PUNT-*)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway import chart
from monsterball.games.midway.actions import (
    Name,
    Word,
)
from monsterball.games.midway.events.ball import (
    BallOut,
    CatchTried,
    KickUncaught,
    LateralDropped,
    PassIncomplete,
    RecoveryTried,
    Scattered,
    Scramble,
    Touchback,
)
from monsterball.games.midway.events.kicks import KickBlocked, PuntBounced, PuntCarried, Punted
from monsterball.games.midway.events.magic import MirrorEnded, Reappeared
from monsterball.games.midway.moves import group_cells, hidden_may_tackle
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.contact import BlockRoll, DesignateBlock, TackleRound
from monsterball.games.midway.rules.inplay import (
    FLOW,
    InPlay,
    InPlayRoll,
    State,
    end_mirror,
    past_midfield,
    recovery_order,
    seen_at,
    take_ball,
    travel_dir,
)
from monsterball.games.midway.state import NOBODY, team_of

TWO_D6 = [(n, Fraction(6 - abs(n - 7), 36)) for n in range(2, 13)]


@dataclass(frozen=True, slots=True)
class PassResolution(InPlay):
    """MW-PASS-5..8: after both teams have moved, the intended receiver (a lineman in the
    ball's hex) tries to catch; if he fails, defenders there try to intercept; otherwise
    the pass is incomplete (a lateral or backward pass is a fumble). Stage 0: the receiver;
    1: the seen defenders in ``queue``; 2: the hidden defender has been asked (MW-R21)."""

    stage: int
    queue: tuple[int, ...]
    rule = "MW-PASS-5"

    def auto(self, state: State) -> Transition:
        offense = state.offense
        here = state.players_at(state.ball)
        # A hidden caster never tries on his own: his coach is asked last (ruling MW-R21).
        defenders = tuple(p for p in here if team_of(p) != offense and p != state.caster)
        if self.stage == 0:
            receivers = [
                p
                for p in here
                if team_of(p) == offense and state.linemen >> p & 1 and p != state.caster
            ]
            if receivers:
                return (PassResolution(1, defenders), CatchRoll(receivers[0], "pass", ()))
            if hidden_receiver(state):
                return (PassResolution(1, defenders), HiddenIntercept(state.caster, "pass"))
            return PassResolution(1, defenders).auto(state)
        if state.carrier >= 0:
            team = team_of(state.carrier)
            if team == offense:
                # Whether the defense is asked may not depend on where a hidden caster is
                # (ruling MW-R10), and the receiver's blocker takes on a seen defender.
                seen = tuple(p for p in defenders if p != state.caster)
                if not seen and not hidden_may_tackle(state, True):
                    return (FLOW.step("StartPhase", offense),)
                steps: list[Procedure[State]] = [
                    FLOW.step("StartPhase", offense),
                    TackleRound(1 - offense, True, False),
                ]
                mates = [p for p in here if team_of(p) == offense and p != state.carrier]
                if mates and len(seen) >= 2:
                    steps.append(DesignateBlock(mates[0]))
                elif mates and seen:
                    steps.append(BlockRoll((mates[0], seen[0])))
                return tuple(steps)
            return (FLOW.step("StartPhase", team),)  # MW-PASS-8: the interceptors move next
        if self.queue:
            return self._intercept(self.queue)
        if self.stage == 1:
            hidden = hidden_interceptor(state)
            if hidden >= 0:
                return (PassResolution(2, ()), HiddenIntercept(hidden, "intercept"))
        return self._incomplete(state)

    @staticmethod
    def _intercept(queue: tuple[int, ...]) -> Transition:
        """MW-PASS-8: the defenders try in the order their coach picks."""
        if len(queue) == 1:
            return (PassResolution(1, ()), CatchRoll(queue[0], "intercept", ()))
        return (InterceptOrder(queue),)

    def _incomplete(self, state: State) -> Transition:
        if not state.beyond(state.offense, state.row(state.ball), state.thrower_row):
            state.emit(LateralDropped())
            state.ball_state = "loose"
            return (
                FLOW.step("StartPhase", state.offense),
                Scatter("fumble", state.last_dir, 1 - state.offense),
            )
        state.emit(PassIncomplete())
        state.dead = "incomplete"
        return ()

    def describe(self) -> str:
        return "the pass arriving"


@dataclass(frozen=True, slots=True)
class InterceptOrder(InPlay):
    """MW-PASS-8: several defenders in the ball's hex: their coach names the next one to
    try for the interception ('intercept B3')."""

    queue: tuple[int, ...]
    rule = "MW-PASS-8"

    def who(self, state: State) -> int:
        return team_of(self.queue[0])

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.intercept[p] for p in self.queue]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Name)
        rest = tuple(p for p in self.queue if p != action.player)
        return (PassResolution(1, rest), CatchRoll(action.player, "intercept", ()))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[team_of(self.queue[0])]} choosing who tries to intercept"


def hidden_interceptor(state: State) -> int:
    """The hidden defender who may, for all the offense's coach can see, stand on the hex
    where the pass came down (ruling MW-R21): the defending mirror-image caster when any
    counter of his group is on it, the invisible defender when it lies within his movement
    of the hex where he vanished. His coach is asked whether he tries whether or not he is
    really there, so the question reveals nothing. NOBODY when there is none, or with
    hidden_contact=barred (hidden players then never try)."""
    if state.options.hidden_contact == "barred":
        return NOBODY
    defense = 1 - state.offense
    p = state.caster
    if p >= 0 and team_of(p) == defense and state.ball in group_cells(state):
        return p
    p = state.invisible
    if (
        p >= 0
        and team_of(p) == defense
        and state.vanish >= 0
        and state.field.distance(state.vanish, state.ball) <= state.vanish_reach
    ):
        return p
    return NOBODY


def hidden_receiver(state: State) -> bool:
    """Whether the offense's hidden mirror-image caster, an eligible receiver (a lineman),
    may for all the defense sees stand where the pass came down: any counter of his group
    is on the ball's hex (ruling MW-R21)."""
    p = state.caster
    return (
        p >= 0
        and team_of(p) == state.offense
        and bool(state.linemen >> p & 1)
        and state.options.hidden_contact != "barred"
        and state.ball in group_cells(state)
    )


@dataclass(frozen=True, slots=True)
class HiddenIntercept(InPlay):
    """Ruling MW-R21: the pass came down where a hidden player may stand; his coach says
    whether he tries to intercept (``intercept B1``; ``catch A1`` for the offense's hidden
    receiver, ``purpose`` 'pass') or not (``no``). When he is not really there (the counter
    is an image: "A mirror-image counter cannot ... receive a pass", MW-MAGIC-3), ``no`` is
    the only answer. Trying shows where he is: the spell ends."""

    player: int
    purpose: str
    rule = "MW-PASS-8"

    def who(self, state: State) -> int:
        return team_of(self.player)

    def _there(self, state: State) -> bool:
        p = self.player
        if p == state.caster:
            return state.pos[p] == state.ball
        return p == state.invisible and state.appear_at == state.ball

    def legal_actions(self, state: State) -> list[Action]:
        acts = state.actions
        no = acts.words["no"]
        if not self._there(state):
            return [no]
        tries = acts.catch if self.purpose == "pass" else acts.intercept
        return [tries[self.player], no]

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Word):
            return ()
        assert isinstance(action, Name)
        p = self.player
        hexname = state.field.name(state.ball)
        if p == state.caster:
            why = "catch" if self.purpose == "pass" else "intercept"
            end_mirror(state, MirrorEnded(why, caster=p))
        else:
            # He shows himself on the ball's hex now, not at the start of the next phase.
            state.pos[p] = state.ball
            state.invisible = state.vanish = state.appear_at = NOBODY
            state.vanish_reach = 0
            state.emit(Reappeared(p, hexname, "intercept"))
        return (CatchRoll(p, self.purpose, ()),)

    def describe(self) -> str:
        what = "catch" if self.purpose == "pass" else "interception"
        return f"team {TEAM_NAMES[team_of(self.player)]} deciding on a hidden {what}"


@dataclass(frozen=True, slots=True)
class CatchRoll(InPlayRoll):
    """Pass Reception (or Interception) table: d6 against the opponents in the hex, with the
    receiving modifier widening the range (ruling MW-R7). ``purpose``: pass, intercept,
    kick or punt (a failed kick or punt catch is a fumble, MW-FUM-1)."""

    player: int
    purpose: str
    rest: tuple[int, ...]
    rule = "MW-PASS-6"

    def target(self, state: State) -> int:
        p = self.player
        opponents = sum(1 for q in seen_at(state, state.ball) if team_of(q) != team_of(p))
        mod = state.mtype(p).rec_mod
        if state.options.roll_modifiers == "literal":
            mod = -mod  # added to the roll (ruling MW-R7's option): a bonus narrows the range
        return chart.reception_target(opponents) + mod

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        p = self.player
        need = self.target(state)
        ok = int(action.value) <= need
        state.emit(CatchTried(p, self.purpose, int(action.value), need, ok))
        if ok:
            take_ball(state, p)
            if self.purpose in ("kick", "punt"):
                state.phase_over = True
            return ()
        if self.purpose in ("kick", "punt"):
            state.ball_state = "loose"
            state.receivable = NOBODY
            return (Scatter("fumble", state.last_dir, state.offense),)
        return ()

    def describe(self) -> str:
        return "a catch attempt"


@dataclass(frozen=True, slots=True)
class KickCatch(InPlay):
    """MW-KICK-7/MW-PUNT-6 (ruling MW-R24): a kick or punt in the air lies on the hex of
    receivers who stood there (the kick came down on them): at the end of their team's
    phase their coach names one to try the reception ('catch A3'), as for a pass, or lets
    the ball fall ('no'): a kickoff is then loose, a punt hits the ground and bounces
    (MW-PUNT-7: "The receiver may choose to let the punt hit the ground")."""

    team: int
    queue: tuple[int, ...]
    rule = "MW-PUNT-6"

    def who(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        return [*(state.actions.catch[p] for p in self.queue), state.actions.words["no"]]

    def apply(self, state: State, action: Action) -> Transition:
        purpose = "kick" if state.ball_state == "kick" else "punt"
        if isinstance(action, Name):
            return (CatchRoll(action.player, purpose, ()),)
        state.receivable = NOBODY
        if purpose == "punt":
            return (BounceCount(),)
        state.emit(KickUncaught())
        state.ball_state = "loose"
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} deciding whether to catch the kick"


def kick_catchers(state: State, team: int) -> tuple[int, ...]:
    """Seen players of ``team`` standing where a kick or punt in the air lies (ruling
    MW-R24); the hidden (an invisible player, a mirror-image caster) are not counted, so
    the question depends only on what both coaches see."""
    return tuple(
        p
        for p in state.players_at(state.ball)
        if team_of(p) == team and p != state.caster and not state.dazed >> p & 1
    )


@dataclass(frozen=True, slots=True)
class RecoveryRoll(InPlay):
    """Fumble Recovery Table: each eligible player in the hex rolls in turn (MW-FUM-2/3)."""

    order: tuple[int, ...]
    rule = "MW-FUM-2"

    def who(self, state: State) -> int:
        return CHANCE if self.order else AUTO

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead or not self.order else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        p = self.order[0]
        state.idle = 0  # a dive for the ball is play (MW-R23)
        count = len(seen_at(state, state.ball))
        need = chart.recovery_target(count)
        ok = int(action.value) <= need
        state.emit(RecoveryTried(p, int(action.value), need, count))
        if ok:
            moving = state.stack[-2] if len(state.stack) >= 2 else None
            take_ball(state, p)
            if FLOW.is_kind(moving, "Phase") and getattr(moving, "team", NOBODY) == team_of(p):
                state.phase_over = True  # MW-KICK-14: a recovery ends that team's phase
            return ()
        return (RecoveryRoll(self.order[1:]),) if len(self.order) > 1 else ()

    def describe(self) -> str:
        return "a fumble recovery"


@dataclass(frozen=True, slots=True)
class LooseBallRound(InPlay):
    """MW-FUM-2 (ruling MW-R22): players who "occupy" a loose ball's hex try for it at the
    end of every movement phase in which nobody entered the hex (whoever enters makes all
    there roll at once), so a ball lying among players is not left there for ever.
    ``barred``: a blocked punter whose no-recovery phase this is (MW-PUNT-3)."""

    team: int
    acted: int
    barred: int = NOBODY
    rule = "MW-FUM-2"

    def auto(self, state: State) -> Transition:
        ball = state.ball
        if state.ball_state != "loose" or ball < 0 or state.options.loose_ball != "contest":
            return ()
        here = seen_at(state, ball)
        if any(team_of(p) == self.team and self.acted >> p & 1 for p in here):
            return ()  # someone entered it this phase: everyone there has rolled
        order = tuple(p for p in recovery_order(state, NOBODY) if p != self.barred)
        if not order:
            return ()
        state.emit(Scramble(state.field.name(ball)))
        return (RecoveryRoll(order),)

    def describe(self) -> str:
        return "the scramble for a loose ball"


@dataclass(frozen=True, slots=True)
class Scatter(InPlayRoll):
    """Direction modifier (ruling MW-R3): d6 picks one of the six hexes around the ball,
    numbered clockwise from straight ahead along its travel (or by compass)."""

    reason: str  # fumble, bounce, block, onside, kick
    ahead: int
    roller: int
    rule = "MW-FUM-1"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        state.idle = 0  # a bouncing ball is play (MW-R23)
        col, row = state.direction_target(state.ball, self.ahead, int(action.value))
        f = state.field
        if not state.on_board(col, row):
            if 0 <= row < f.height:
                state.emit(BallOut("bounce"))
                state.dead = "ball-out"
            else:
                state.emit(BallOut("end-line"))
                state.dead = "end-line"
            return ()
        state.ball = row * f.width + col
        state.last_dir = (self.ahead + int(action.value) - 1) % 6
        if state.kind == "onside":
            # MW-KICK-10: a bounce past midfield makes the kickers eligible; once eligible
            # they stay so, since the kick went its 10 yards.
            state.onside_ok = state.onside_ok or past_midfield(state, state.offense)
        state.emit(Scattered(int(action.value), f.name(state.ball)))
        if state.ball_state != "punt" and state.players_at(state.ball):
            # A punt coming down on receivers is theirs to catch (ruling MW-R24), at the
            # end of their phase: no fumble recovery before anyone has touched it.
            order = recovery_order(state, NOBODY)
            if order:
                return (RecoveryRoll(order),)
        return ()

    def describe(self) -> str:
        return "a direction modifier"


@dataclass(frozen=True, slots=True)
class BounceCount(InPlayRoll):
    """MW-PUNT-7: the punt hits the ground: d6 is the number of phases it bounces, the
    first bounce now."""

    rule = "MW-PUNT-7"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        state.ball_state = "loose"
        state.bounces = int(action.value) - 1
        state.emit(PuntBounced(int(action.value)))
        return (Scatter("bounce", state.last_dir, state.offense),)

    def describe(self) -> str:
        return "the punt bouncing"


@dataclass(frozen=True, slots=True)
class PuntKick(InPlay):
    """MW-PUNT-4: 2d6 hexes along the chosen line in this phase."""

    toward: int
    rule = "MW-PUNT-4"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else [(state.actions.two_d6[n - 2], p) for n, p in TWO_D6]

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        n = int(action.value)
        f = state.field
        wind = 1 if state.offense == state.north_team else 0  # MW-START-2
        path = state.line(state.ball, self.toward, 40)
        state.punt_path = [c * 100 + r for c, r in path]  # (col, row) packed; rows may be off
        state.punter = NOBODY
        state.carrier = NOBODY
        state.kind = "punt"
        state.ball_state = "punt"
        state.punt_travel = n + wind
        state.receivable = NOBODY
        state.last_dir = travel_dir(state, state.ball, self.toward, state.offense)
        state.emit(Punted(n, int(wind), f.name(self.toward)))
        return place_punt(state, n + wind, landing=False)

    def describe(self) -> str:
        return "a punt"


def place_punt(state: State, travel: int, landing: bool) -> Transition:
    col, row = divmod(state.punt_path[travel - 1], 100)
    f = state.field
    if not state.on_board(col, row):
        if 0 <= row < f.height:
            state.emit(BallOut("punt"))
            state.dead = "punt-out"
            last = [
                divmod(v, 100)
                for v in state.punt_path[: travel - 1]
                if state.on_board(*divmod(v, 100))
            ]
            if last:
                c, r = last[-1]
                state.ball = r * f.width + c
        else:
            state.emit(Touchback("punt"))
            state.dead = "touchback"
        return ()
    state.ball = row * f.width + col
    if landing:
        state.punt_travel = 0
        state.receivable = 1 - state.offense
        return (Scatter("punt", state.last_dir, state.offense),)
    return ()


@dataclass(frozen=True, slots=True)
class PuntCarry(InPlayRoll):
    """MW-PUNT-5: at the punting team's next phase, d6 more hexes along the line, then a
    direction modifier gives the hex where the punt comes down."""

    rule = "MW-PUNT-5"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        travel = state.punt_travel + int(action.value)
        state.emit(PuntCarried(int(action.value)))
        return place_punt(state, travel, landing=True)

    def describe(self) -> str:
        return "the punt coming down"


def blocked_kick(state: State, what: str, blocker: int) -> Procedure[State]:
    """MW-PUNT-3/MW-SCORE-8: a blocked kick: the blocking coach's direction modifier from the
    kicker's hex; the punter may not recover in the next phase."""
    state.emit(KickBlocked(blocker, what))
    kicker = state.carrier
    state.carrier = NOBODY
    state.ball_state = "loose"
    state.kind = "blocked"
    state.punter = NOBODY
    state.no_recover = kicker
    state.phase_over = True
    return Scatter("block", state.ahead(state.offense), team_of(blocker))
