"""Scoring and the end of plays and of the game: touchdowns, field goals, extra points and
conversions, the score, turnovers on downs, a forfeit and the final whistle."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.events.common import roll_needed, score_text, team_text, team_title
from monsterball.games.midway.options import TEAM_NAMES


@dataclass(frozen=True, slots=True)
class Touchdown(Event):
    player: int
    team: int

    def describe(self) -> str:
        return f"Touchdown! {player_name(self.player)} scores for {TEAM_NAMES[self.team]}."

    def headline(self) -> str:
        return "Touchdown!"

    def is_score(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class FieldGoalRolled(Event):
    distance: int
    roll: int
    need: int

    @property
    def good(self) -> bool:
        return self.roll <= self.need

    def describe(self) -> str:
        return (
            f"Field goal try from {self.distance} hexes: the kicker "
            f"{roll_needed(self.roll, self.need)}: {'good' if self.good else 'no good'}."
        )

    def in_brief(self) -> str:
        return "good" if self.good else "no good"


@dataclass(frozen=True, slots=True)
class KickBlockTried(Event):
    blocker: int
    blocked: bool

    def describe(self) -> str:
        if self.blocked:
            return f"{player_name(self.blocker)} blocks the kick!"
        return f"{player_name(self.blocker)} fails to block the kick."


@dataclass(frozen=True, slots=True)
class StunnedByKick(Event):
    blocker: int

    def describe(self) -> str:
        return f"{player_name(self.blocker)} is stunned by the kick: out for the next play."


@dataclass(frozen=True, slots=True)
class ExtraPointRolled(Event):
    """An extra point kick (``roll`` 0: a halfling kicker, who never misses)."""

    kicker: int
    roll: int
    good: bool

    def describe(self) -> str:
        if not self.roll:
            name = player_name(self.kicker)
            return f"{name}, a halfling, kicks the extra point: he never misses."
        verdict = "good" if self.good else "missed"
        return f"Extra point kick: {player_name(self.kicker)} rolls a {self.roll}: {verdict}."

    def in_brief(self) -> str:
        return "good" if self.good else "missed"


_SCORED = {
    "touchdown": "Touchdown team {team}: 6 points. {score}.",
    "field-goal": "Field goal: 3 points for team {team}. {score}.",
    "extra-point": "Extra point: 1 point for team {team}. {score}.",
    "conversion": "Two-point conversion good: 2 points for team {team}. {score}.",
    "safety": "Safety! 2 points for team {team}. {score}.",
}
# The scores a banner announces and a UI holds the position of: those scored in play, not
# the extra point or conversion kicked or run after a touchdown.
_HEADLINES = {"touchdown": "Touchdown!", "field-goal": "Field goal!", "safety": "Safety!"}


@dataclass(frozen=True, slots=True)
class Scored(Event):
    how: str  # touchdown, field-goal, extra-point, conversion or safety
    team: int
    score: tuple[int, int]

    def describe(self) -> str:
        return _SCORED[self.how].format(team=TEAM_NAMES[self.team], score=score_text(self.score))

    def headline(self) -> str:
        return _HEADLINES.get(self.how, "")

    def is_score(self) -> bool:
        return self.how in _HEADLINES


@dataclass(frozen=True, slots=True)
class ConversionFailed(Event):
    team: int

    def describe(self) -> str:
        return f"{team_title(self.team)}'s two-point try fails."


@dataclass(frozen=True, slots=True)
class TurnoverOnDowns(Event):
    team: int  # the team that takes over

    def describe(self) -> str:
        return (
            "Four downs without a score: the ball changes hands, "
            f"{team_text(self.team)} takes over."
        )


@dataclass(frozen=True, slots=True)
class Forfeited(Event):
    team: int

    def describe(self) -> str:
        return f"{team_title(self.team)} has no fit player left for the game."


@dataclass(frozen=True, slots=True)
class FinalWhistle(Event):
    result: str

    def describe(self) -> str:
        return f"Final whistle: {self.result}."
