"""Lining up for a play: the kickoff, the scrimmage and the conversion lines, formations,
shifts, the snap and a called field goal."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.events.common import team_text, team_title


@dataclass(frozen=True, slots=True)
class KickoffLinedUp(Event):
    play: int
    team: int
    cell: str

    def describe(self) -> str:
        return f"Play {self.play}: {team_text(self.team)} kicks off from {self.cell}."


@dataclass(frozen=True, slots=True)
class ScrimmageLinedUp(Event):
    play: int
    team: int
    down: int
    cell: str

    def describe(self) -> str:
        return (
            f"Play {self.play}: {team_text(self.team)} has the ball, down {self.down} of 4, "
            f"on {self.cell}."
        )


@dataclass(frozen=True, slots=True)
class ConversionLinedUp(Event):
    team: int

    def describe(self) -> str:
        return (
            f"{team_title(self.team)} tries a two-point conversion: one play to reach the end zone."
        )


@dataclass(frozen=True, slots=True)
class StunnedReturn(Event):
    team: int

    def describe(self) -> str:
        return (
            f"{team_title(self.team)} has nobody fit to play, so its players injured for a play "
            "come back."
        )


@dataclass(frozen=True, slots=True)
class FormationSet(Event):
    team: int
    formation: str  # kick, receive, offense or defense

    def describe(self) -> str:
        return (
            f"{team_title(self.team)} places the rest of its players in its {self.formation} "
            "formation."
        )


@dataclass(frozen=True, slots=True)
class Shifted(Event):
    player: int
    cell: str
    motion: bool  # in motion (one player) rather than a formation shift

    def describe(self) -> str:
        if self.motion:
            return f"{player_name(self.player)} goes in motion to {self.cell} before the snap."
        return f"{player_name(self.player)} shifts to {self.cell} before the snap."


@dataclass(frozen=True, slots=True)
class Snapped(Event):
    player: int

    def describe(self) -> str:
        return f"The ball is snapped to {player_name(self.player)}: the play is on."


@dataclass(frozen=True, slots=True)
class FieldGoalCalled(Event):
    team: int
    announced: bool  # announced before the snap, rather than kicked now

    def describe(self) -> str:
        if self.announced:
            return f"{team_title(self.team)} announces a field goal attempt for this play."
        return f"{team_title(self.team)} kicks for a field goal."
