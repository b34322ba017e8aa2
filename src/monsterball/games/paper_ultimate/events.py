"""What happens in a game of Paper Ultimate, as typed records in the rulebook's words."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.paper_ultimate.actions import player_name
from monsterball.games.paper_ultimate.options import TEAM_NAMES


@dataclass(frozen=True, slots=True)
class TossWon(Event):
    receiver: int

    def describe(self) -> str:
        return f"Coin toss: team {TEAM_NAMES[self.receiver]} receives the first pull."


@dataclass(frozen=True, slots=True)
class PointStarted(Event):
    receiver: int
    north_team: int

    def describe(self) -> str:
        r = TEAM_NAMES[self.receiver]
        return (
            f"New point: team {r} sets up first and receives; team "
            f"{TEAM_NAMES[1 - self.receiver]} pulls."
        )


@dataclass(frozen=True, slots=True)
class Placed(Event):
    player: int
    cell: str

    def describe(self) -> str:
        return f"{player_name(self.player)} sets up on {self.cell}."


@dataclass(frozen=True, slots=True)
class DiscGiven(Event):
    player: int

    def describe(self) -> str:
        return f"{player_name(self.player)} takes the disc to pull."


@dataclass(frozen=True, slots=True)
class Pulled(Event):
    player: int
    cell: str

    def describe(self) -> str:
        return f"{player_name(self.player)} pulls the disc to {self.cell}."


@dataclass(frozen=True, slots=True)
class Ran(Event):
    player: int
    start: str
    end: str

    def describe(self) -> str:
        return f"{player_name(self.player)} runs from {self.start} to {self.end}."


@dataclass(frozen=True, slots=True)
class PickedUp(Event):
    player: int

    def describe(self) -> str:
        return f"{player_name(self.player)} picks up the disc."


@dataclass(frozen=True, slots=True)
class RunEnded(Event):
    team: int

    def describe(self) -> str:
        return f"Team {TEAM_NAMES[self.team]} has finished running."


@dataclass(frozen=True, slots=True)
class Passed(Event):
    thrower: int
    receiver: int
    start: str
    end: str

    def describe(self) -> str:
        return (
            f"{player_name(self.thrower)} throws from {self.start} to "
            f"{player_name(self.receiver)} on {self.end}, who catches it."
        )


@dataclass(frozen=True, slots=True)
class MonsterCalled(Event):
    marker: int

    def describe(self) -> str:
        return (
            f"Monster defense! {player_name(self.marker)} challenges the catch: a 1 or a 6 "
            "on the die (or two heads on the coins) turns the disc over."
        )


@dataclass(frozen=True, slots=True)
class MonsterRolled(Event):
    outcome: str
    turn: bool
    scoring: bool = False  # the catch is in the attacking end zone (PU-R2)

    def describe(self) -> str:
        if self.turn:
            verdict = "a turn! The defence takes the disc." + (" No point." if self.scoring else "")
        elif self.scoring:
            verdict = "the catch stands."
        else:
            verdict = "the catch stands; only the marker may move next."
        label, _, value = self.outcome.partition("=")
        if label == "coins":
            faces = ", ".join("heads" if c == "H" else "tails" for c in value)
            shown = f"The monster defense coins show {faces}"
        else:
            shown = f"The monster defense die shows {value}"
        return f"{shown}: {verdict}"


@dataclass(frozen=True, slots=True)
class PullStalled(Event):
    steps: int

    def describe(self) -> str:
        return (
            f"Stall: the receiving team left the pull lying for {self.steps} of its running steps."
        )


@dataclass(frozen=True, slots=True)
class Turnover(Event):
    player: int
    reason: str

    def describe(self) -> str:
        return (
            f"A turn ({self.reason}): the disc changes sides, and {player_name(self.player)} "
            "takes it."
        )

    def headline(self) -> str:
        return "Turnover"


@dataclass(frozen=True, slots=True)
class PointScored(Event):
    team: int
    score_a: int
    score_b: int

    def describe(self) -> str:
        return f"Point for team {TEAM_NAMES[self.team]}! A {self.score_a} - B {self.score_b}."

    def headline(self) -> str:
        return "Point!"

    def is_score(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    winner: int
    score_a: int
    score_b: int

    def describe(self) -> str:
        if self.winner == 2:
            return f"Game over: a draw at A {self.score_a} - B {self.score_b}."
        return (
            f"Game over: team {TEAM_NAMES[self.winner]} wins A {self.score_a} - B {self.score_b}."
        )
