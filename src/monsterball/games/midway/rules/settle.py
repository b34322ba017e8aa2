"""The end of a play: scores, touchbacks, safeties, spots, downs and possession (MW-GEN-2,
MW-GEN-4), conversions (MW-SCORE-5) and the end of the game."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action
from monsterball.core.game import AUTO
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway.actions import (
    Name,
)
from monsterball.games.midway.events.ball import Touchback
from monsterball.games.midway.events.scoring import (
    ConversionFailed,
    ExtraPointRolled,
    FinalWhistle,
    Forfeited,
    Scored,
    TurnoverOnDowns,
)
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.inplay import score_of
from monsterball.games.midway.rules.kickoff import StartKickoff
from monsterball.games.midway.rules.scoring import PatRoll, pat_block_or_score
from monsterball.games.midway.rules.scrimmage import StartScrimmage
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
                state.emit(ExtraPointRolled(action.player, 0, True))
                return (
                    AfterConversion(self.team),
                    *pat_block_or_score(state, self.team, action.player),
                )
            return (AfterConversion(self.team), PatRoll(action.player))
        f = state.field
        row = state.yard_row(1 - self.team, 5)
        state.spot = row * f.width + MID_COL
        return (AfterConversion(self.team), StartScrimmage(True))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s conversion choice"


@dataclass(frozen=True, slots=True)
class AfterConversion(Procedure[State]):
    """After the conversion: the scoring team kicks off (General Rule 1), or the game ends."""

    team: int
    rule = "MW-GEN-4"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        return next_kickoff_or_end(state, self.team, state.yard_row(self.team, 40))


def short_handed(state: State) -> bool:
    """Ruling MW-R15: a team whose players are all out for the game cannot go on."""
    for team in (0, 1):
        if not any(state.out_through[p] < FOREVER for p in team_players(team) if state.roster[p]):
            state.emit(Forfeited(team))
            return True
    return False


def next_kickoff_or_end(state: State, kicker: int, row: int, safety: bool = False) -> Transition:
    if state.plays >= state.options.plays or short_handed(state):
        return (GameOver(),)
    return (StartKickoff(kicker, row, True, safety),)


@dataclass(frozen=True, slots=True)
class GameOver(Procedure[State]):
    """MW-GEN-4: after 25 plays the higher score wins; level scores draw."""

    rule = "MW-GEN-4"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        a, b = state.score
        state.winner = 0 if a > b else 1 if b > a else 2
        fit = [any(state.out_through[p] < FOREVER for p in team_players(t)) for t in (0, 1)]
        if fit[0] != fit[1]:
            state.winner = 0 if fit[0] else 1  # MW-R15: the side that cannot play loses
        state.emit(FinalWhistle(state.result_text()))
        return ()


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
            state.emit(Scored("conversion", offense, score_of(state)))
        else:
            state.emit(ConversionFailed(offense))
        return ()  # AfterConversion below takes over
    if reason == "rekick":
        row = state.row(state.spot) - state.forward(offense)
        state.plays -= 1  # the same kickoff, kicked over
        return (StartKickoff(offense, row, True),)
    if reason == "td":
        state.score[team] += 6
        state.emit(Scored("touchdown", team, score_of(state)))
        return (Conversion(team),)
    if reason == "fg-good":
        state.score[offense] += 3
        state.emit(Scored("field-goal", offense, score_of(state)))
        return next_kickoff_or_end(state, offense, state.yard_row(offense, 40))
    if reason == "bolt":
        # MW-R19: the bolt ends the play "just as if an incomplete pass had occurred" for
        # the team that snapped the ball and still has it; it "cannot bring about a change
        # of possession unless ... a change of possession would have occurred at that point
        # anyway": a ball another team holds (an interceptor, a kick returner) or would get
        # (a punt, a blocked kick) is dead where it is, as if downed there.
        holder = team_of(carrier) if carrier >= 0 else state.poss
        if kind in ("kickoff", "onside") and carrier < 0:
            return next_kickoff_or_end(state, offense, state.row(state.spot))  # kicked again
        if kind == "scrimmage" and holder == offense:
            kind, reason, carrier = "scrimmage", "incomplete", NOBODY
        elif kind == "scrimmage" and carrier < 0:
            change(state, holder, state.hash_spot(state.ball))  # a loose ball it last held
            return next_scrimmage(state)
        else:
            reason = "tackle"
    if kind == "punt" and reason in ("downed", "punt-out", "ball-out", "tackle"):
        # A punt downed, out or struck dead in the receivers' end zone is a touchback, as
        # their own returner downed there (MW-R13); never the receivers' ball on their 5.
        loose = carrier < 0 or reason == "downed"  # downed: a punting player holds it
        if loose and state.ball >= 0 and state.own_end_zone(1 - offense, state.row(state.ball)):
            reason = "touchback"
    if reason in ("tackle", "out", "cap", "stall") and carrier >= 0:
        t = team_of(carrier)
        if state.own_end_zone(t, state.row(state.ball)):
            if t != offense:
                # A kick returner or an interceptor downed in his own end zone: a touchback
                # (MW-R13); a safety is a tackle of the offense's carrier (MW-SCORE-9).
                reason = "touchback"
            else:
                state.score[1 - t] += 2
                state.emit(Scored("safety", 1 - t, score_of(state)))
                return next_kickoff_or_end(state, t, state.yard_row(t, 20), safety=True)
    if reason == "end-line":
        # A loose ball out over an end line (MW-R13): a safety if the team that last held it
        # put it out of its own end zone, otherwise a touchback to the team defending it.
        defender = (
            state.north_team if state.row(state.ball) >= f.height // 2 else 1 - state.north_team
        )
        if defender == state.poss:
            state.score[1 - defender] += 2
            state.emit(Scored("safety", 1 - defender, score_of(state)))
            return next_kickoff_or_end(state, defender, state.yard_row(defender, 20), safety=True)
        team, reason = defender, "touchback-to"
    if reason in ("touchback", "touchback-to"):
        receiver = team if reason == "touchback-to" else 1 - offense  # kickers' opponents
        state.offense = receiver
        state.down = 1
        state.spot = state.yard_row(receiver, 20) * f.width + MID_COL
        state.emit(Touchback("spot", team=receiver))
        return next_scrimmage(state)
    spot = state.hash_spot(state.ball) if state.ball >= 0 else state.spot
    if reason in ("incomplete", "fg-miss"):
        spot = state.spot
    if kind == "blocked":
        new = offense if reason == "td" else 1 - offense
        change(state, new, spot)
    elif kick_play:
        holder = team_of(carrier) if carrier >= 0 else 1 - offense
        if reason in ("downed", "punt-out", "ball-out"):
            holder = 1 - offense if kind == "punt" else holder
        change(state, holder, spot)
    elif reason == "fg-miss" or (carrier >= 0 and team_of(carrier) != offense):
        change(state, 1 - offense if reason == "fg-miss" else team_of(carrier), spot)
    else:
        state.spot = spot
        state.down += 1
        if state.down > 4:
            state.emit(TurnoverOnDowns(1 - offense))
            change(state, 1 - offense, spot)
    return next_scrimmage(state)


def change(state: State, team: int, spot: int) -> None:
    state.offense = team
    state.down = 1
    state.spot = spot


def next_scrimmage(state: State) -> Transition:
    if state.plays >= state.options.plays or short_handed(state):
        return (GameOver(),)
    return (StartScrimmage(False),)


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
