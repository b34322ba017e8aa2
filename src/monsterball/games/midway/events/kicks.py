"""Kicks in flight: the kickoff, the onside kick, punts (the wind, the carry, the bounce) and
a blocked kick."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.events.common import team_title


@dataclass(frozen=True, slots=True)
class KickedOff(Event):
    team: int
    cell: str

    def describe(self) -> str:
        return f"{team_title(self.team)} kicks off, aiming at {self.cell}."


@dataclass(frozen=True, slots=True)
class OnsideTried(Event):
    team: int

    def describe(self) -> str:
        return f"{team_title(self.team)} tries an onside kick: a short kick it may recover itself."


@dataclass(frozen=True, slots=True)
class OnsideRolled(Event):
    hexes: int
    cell: str

    def describe(self) -> str:
        return f"The onside kick rolls {self.hexes} hexes, to {self.cell}."

    def in_brief(self) -> str:
        return f"the onside kick rolls to {self.cell}"


@dataclass(frozen=True, slots=True)
class KickLanded(Event):
    roll: int
    cell: str

    def describe(self) -> str:
        return (
            f"The kick drifts: the direction die shows {self.roll}, and the ball comes down "
            f"on {self.cell}."
        )

    def in_brief(self) -> str:
        return f"the kick comes down on {self.cell}"


@dataclass(frozen=True, slots=True)
class Punted(Event):
    hexes: int
    wind: int  # 1: the wind carries it one hex further
    toward: str

    def describe(self) -> str:
        wind = ", plus 1 for the wind" if self.wind else ""
        return f"The punt flies {self.hexes} hexes{wind}, toward {self.toward}."

    def in_brief(self) -> str:
        return f"the punt flies {self.hexes + self.wind} hexes toward {self.toward}"


@dataclass(frozen=True, slots=True)
class FreeKickPunted(Event):
    team: int

    def describe(self) -> str:
        return f"{team_title(self.team)} punts its free kick."


@dataclass(frozen=True, slots=True)
class PuntCarried(Event):
    hexes: int

    def describe(self) -> str:
        return f"The punt carries {self.hexes} more hexes before it comes down."

    def in_brief(self) -> str:
        return f"the punt carries {self.hexes} more hexes"


@dataclass(frozen=True, slots=True)
class PuntBounced(Event):
    phases: int

    def describe(self) -> str:
        return f"The punt hits the ground and bounces on for {self.phases} phases."

    def in_brief(self) -> str:
        return f"the punt bounces {self.phases} phases"


@dataclass(frozen=True, slots=True)
class KickBlocked(Event):
    blocker: int
    kick: str  # punt or kick

    def describe(self) -> str:
        return f"{player_name(self.blocker)} blocks the {self.kick}! The ball is loose."
