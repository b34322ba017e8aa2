"""The ball in the air and on the ground: passes, hand-offs, catches and interceptions, fumbles
and the loose ball, the ball out of bounds and touchbacks."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.events.common import roll_needed, team_text


@dataclass(frozen=True, slots=True)
class PassThrown(Event):
    thrower: int
    cell: str

    def describe(self) -> str:
        return f"{player_name(self.thrower)} throws a pass to {self.cell}."


@dataclass(frozen=True, slots=True)
class HandedOff(Event):
    giver: int
    taker: int

    def describe(self) -> str:
        return f"{player_name(self.giver)} hands the ball to {player_name(self.taker)}."


_CATCHES = {
    "pass": "to catch the pass",
    "intercept": "to intercept the pass",
    "kick": "to catch the kick",
    "punt": "to catch the punt",
}


@dataclass(frozen=True, slots=True)
class CatchTried(Event):
    """A catch or an interception: the d6 must be at most ``need`` (Pass Reception table,
    which counts the opponents in the hex and the catcher's receiving modifier)."""

    player: int
    purpose: str  # pass, intercept, kick or punt
    roll: int
    need: int
    caught: bool

    def describe(self) -> str:
        if self.caught:
            verdict = "caught" if self.purpose != "intercept" else "caught: an interception"
        else:
            verdict = "missed" + ("" if self.purpose in ("pass", "intercept") else ": a fumble")
        return (
            f"{player_name(self.player)} tries {_CATCHES[self.purpose]}: he "
            f"{roll_needed(self.roll, self.need)}: {verdict}."
        )

    def in_brief(self) -> str:
        return "caught" if self.caught else "missed"


@dataclass(frozen=True, slots=True)
class LateralDropped(Event):
    def describe(self) -> str:
        return (
            "Nobody catches the lateral (a pass sideways or back): it is a fumble, the ball "
            "is loose."
        )


@dataclass(frozen=True, slots=True)
class PassIncomplete(Event):
    def describe(self) -> str:
        return (
            "The pass is incomplete: the play is over and the ball goes back to where it was "
            "snapped."
        )


@dataclass(frozen=True, slots=True)
class KickUncaught(Event):
    def describe(self) -> str:
        return "Nobody tries to catch the kickoff: it is a loose ball."


@dataclass(frozen=True, slots=True)
class Scramble(Event):
    cell: str

    def describe(self) -> str:
        return f"The players on {self.cell} scramble for the loose ball."


@dataclass(frozen=True, slots=True)
class RecoveryTried(Event):
    """Fumble Recovery table: the more players in the hex, the smaller the roll needed."""

    player: int
    roll: int
    need: int
    crowd: int  # players in the hex

    @property
    def recovered(self) -> bool:
        return self.roll <= self.need

    def describe(self) -> str:
        verdict = "he has the ball" if self.recovered else "missed"
        return (
            f"{player_name(self.player)} dives for the loose ball: he "
            f"{roll_needed(self.roll, self.need)} with {self.crowd} in the hex: {verdict}."
        )

    def in_brief(self) -> str:
        return "recovered" if self.recovered else "missed"


@dataclass(frozen=True, slots=True)
class Scattered(Event):
    roll: int
    cell: str

    def describe(self) -> str:
        return (
            f"The loose ball bounces: the direction die shows {self.roll}, and the ball stops "
            f"on {self.cell}."
        )

    def in_brief(self) -> str:
        return f"the ball stops on {self.cell}"


_OUT = {
    "bounce": "The loose ball bounces out of bounds: the play is over.",
    "end-line": "The loose ball goes out over the end line: the play is over.",
    "punt": "The punt goes out of bounds: the play is over.",
    "kickoff": (
        "The kickoff lands out of bounds: a 5-yard penalty, and the kicking team kicks again."
    ),
}


@dataclass(frozen=True, slots=True)
class BallOut(Event):
    how: str  # bounce, end-line, punt or kickoff

    def describe(self) -> str:
        return _OUT[self.how]


@dataclass(frozen=True, slots=True)
class SteppedOut(Event):
    player: int

    def describe(self) -> str:
        return f"{player_name(self.player)} steps out of bounds with the ball: the play is over."


_TOUCHBACK = {
    "punt": "The punt goes out of the end zone: a touchback.",
    "deep": "The kickoff sails beyond the end zone: a touchback.",
    "kickoff": "The kickoff goes beyond the end zone: a touchback.",
}


@dataclass(frozen=True, slots=True)
class Touchback(Event):
    """A touchback (``how``: punt, deep, kickoff, downed) or where it puts the ball
    (``how`` "spot": ``team`` starts at its own 20)."""

    how: str
    player: int = -1  # downed: the carrier
    team: int = -1  # spot: the team that gets the ball

    def describe(self) -> str:
        if self.how == "downed":
            return f"{player_name(self.player)} downs the ball in his end zone: a touchback."
        if self.how == "spot":
            return f"Touchback: {team_text(self.team)} takes the ball at its own 20."
        return _TOUCHBACK[self.how]
