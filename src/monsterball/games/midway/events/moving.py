"""Moving: a player's steps, the end of a movement phase and a play that stalls."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.events.common import team_title


@dataclass(frozen=True, slots=True)
class Moved(Event):
    player: int
    start: str
    end: str
    carrying: bool

    def describe(self) -> str:
        if self.carrying:
            return f"{player_name(self.player)} carries the ball to {self.end}."
        return f"{player_name(self.player)} moves from {self.start} to {self.end}."


@dataclass(frozen=True, slots=True)
class PhaseEnded(Event):
    team: int

    def describe(self) -> str:
        return f"{team_title(self.team)} ends its movement phase."


@dataclass(frozen=True, slots=True)
class PlayStalled(Event):
    phases: int
    cap: bool  # stopped by the simulation cap, rather than for nobody acting

    def describe(self) -> str:
        if self.cap:
            return f"The play is stopped after {self.phases} phases (a limit for simulations)."
        return f"Nobody has acted for {self.phases} phases: the play is over."
