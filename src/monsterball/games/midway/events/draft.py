"""The draft and the coin toss: who plays for whom, who kicks, which end."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.events.common import team_text, team_title
from monsterball.games.midway.options import TEAM_NAMES


@dataclass(frozen=True, slots=True)
class Drafted(Event):
    team: int
    player: int
    kind: str

    def describe(self) -> str:
        return f"{team_title(self.team)} drafts {player_name(self.player)}, a {self.kind}."


@dataclass(frozen=True, slots=True)
class RosterComplete(Event):
    team: int
    roster: tuple[str, ...]

    def describe(self) -> str:
        team = TEAM_NAMES[self.team]
        return (
            f"Team {team}'s roster is complete: {', '.join(self.roster)}. To play it again, "
            f"paste {','.join(self.roster)} into a new game's saved roster for team {team}."
        )


@dataclass(frozen=True, slots=True)
class TossWon(Event):
    team: str  # the team's letter, as the coin shows it

    def describe(self) -> str:
        return f"Team {self.team} wins the coin toss and chooses first."


@dataclass(frozen=True, slots=True)
class TossChosen(Event):
    team: int
    choice: str  # receive or kickoff

    def describe(self) -> str:
        if self.choice == "receive":
            return f"{team_title(self.team)} chooses to receive the kickoff."
        return f"{team_title(self.team)} chooses to kick off."


@dataclass(frozen=True, slots=True)
class EndChosen(Event):
    team: int
    end: str  # north or south
    wind: int  # the team with the wind at its back

    def describe(self) -> str:
        return (
            f"{team_title(self.team)} defends the {self.end} end zone; {team_text(self.wind)} "
            "has the wind at its back (its kicks fly one hex further)."
        )
