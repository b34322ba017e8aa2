"""What happens in a game of Huck + Monster, as typed records in the rulebook's words."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.huck_monster.actions import player_name
from monsterball.games.huck_monster.options import TEAM_NAMES

ROLE_NAMES = {
    "throw": "Throw",
    "catch": "Catch",
    "mark": "Mark",
    "intercept": "Intercept",
    "catch-mark": "Mark at the catch",
    "challenge": "Challenge",
    "continue": "Continue",
}


def _role(role: str) -> str:
    return ROLE_NAMES.get(role, role)


def _team(team: int) -> str:
    return f"team {TEAM_NAMES[team]}"


def _Team(team: int) -> str:
    return f"Team {TEAM_NAMES[team]}"


@dataclass(frozen=True, slots=True)
class OffenseChosen(Event):
    team: int
    tossed: bool

    def describe(self) -> str:
        how = "wins the toss for" if self.tossed else "has"
        return f"{_Team(self.team)} {how} the Huck bag and starts on offense."


@dataclass(frozen=True, slots=True)
class PointStarted(Event):
    offense: int
    north_team: int
    restart: bool

    def describe(self) -> str:
        start = "The point starts over" if self.restart else "New point"
        return (
            f"{start}: {_team(self.offense)} receives, {_team(1 - self.offense)} pulls; "
            f"{_team(self.north_team)} attacks north."
        )


@dataclass(frozen=True, slots=True)
class Placed(Event):
    player: int
    cell: str

    def describe(self) -> str:
        return f"{player_name(self.player)} lines up on {self.cell}."


@dataclass(frozen=True, slots=True)
class DiscPlaced(Event):
    cell: str

    def describe(self) -> str:
        return f"The disc is placed on the line at {self.cell}."


@dataclass(frozen=True, slots=True)
class Pulled(Event):
    team: int
    count: int
    cell: str

    def describe(self) -> str:
        return f"{_Team(self.team)} pulls {self.count}: the disc lands on {self.cell}."


@dataclass(frozen=True, slots=True)
class Claimed(Event):
    player: int

    def describe(self) -> str:
        return f"{player_name(self.player)} takes possession of the disc."


@dataclass(frozen=True, slots=True)
class MoveRolled(Event):
    team: int
    count: int

    def describe(self) -> str:
        return f"{_Team(self.team)} rolls {self.count} to move."


@dataclass(frozen=True, slots=True)
class Moved(Event):
    player: int
    cell: str
    cost: int
    left: int

    def describe(self) -> str:
        spaces = "space" if self.cost == 1 else "spaces"
        return (
            f"{player_name(self.player)} moves {self.cost} {spaces} to {self.cell} "
            f"({self.left} left to move)."
        )


@dataclass(frozen=True, slots=True)
class MoveEnded(Event):
    team: int
    left: int

    def describe(self) -> str:
        spare = f", {self.left} unused" if self.left else ""
        return f"{_Team(self.team)} ends its move{spare}."


@dataclass(frozen=True, slots=True)
class UpCallStarted(Event):
    number: int
    handler: int

    def describe(self) -> str:
        return f"Up Call {self.number}: {player_name(self.handler)} is the Handler."


@dataclass(frozen=True, slots=True)
class StrategyRolled(Event):
    team: int
    face: str
    effective: bool

    def describe(self) -> str:
        note = "" if self.effective else " (no effect on this action)"
        return f"{_Team(self.team)} rolls its strategy die: {self.face}{note}."


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    team: int
    role: str
    total: int
    again: bool
    stealth: int = 0

    def describe(self) -> str:
        verb = "re-rolls" if self.again else "rolls"
        extra = " (+1 from a Stealth Space)" if self.stealth else ""
        return f"{_Team(self.team)} {verb} {self.total}{extra} for the {_role(self.role)}."


@dataclass(frozen=True, slots=True)
class BestRollKept(Event):
    team: int
    role: str
    total: int

    def describe(self) -> str:
        role = _role(self.role)
        return f"Strip: {_team(self.team)} keeps the better roll, {self.total}, for the {role}."


@dataclass(frozen=True, slots=True)
class Thrown(Event):
    receiver: int
    cell: str
    path: tuple[str, ...]

    def describe(self) -> str:
        route = " ".join(self.path)
        return f"The disc flies toward {player_name(self.receiver)} at {self.cell} ({route})."


@dataclass(frozen=True, slots=True)
class Stalled(Event):
    count: int
    reason: str

    def describe(self) -> str:
        return f"Stall: {self.reason} (count {self.count}); turnover."

    def headline(self) -> str:
        return "Turnover"


@dataclass(frozen=True, slots=True)
class FellShort(Event):
    cell: str

    def describe(self) -> str:
        return f"The halved count runs out: the disc falls at {self.cell}; turnover."

    def headline(self) -> str:
        return "Turnover"


@dataclass(frozen=True, slots=True)
class MonsterMoved(Event):
    player: int
    cell: str

    def describe(self) -> str:
        return f"Monster! {player_name(self.player)} moves to {self.cell}."


@dataclass(frozen=True, slots=True)
class Matched(Event):
    player: int
    cell: str

    def describe(self) -> str:
        return f"Match: {player_name(self.player)} moves to {self.cell}."


@dataclass(frozen=True, slots=True)
class BidPrevented(Event):
    player: int
    role: str
    reason: str

    def describe(self) -> str:
        return f"{player_name(self.player)} may not roll as the {_role(self.role)}: {self.reason}."


@dataclass(frozen=True, slots=True)
class BidDecided(Event):
    player: int
    role: str
    offense: int
    defense: int
    defense_wins: bool
    cancelled: bool

    def describe(self) -> str:
        note = " (the strategy dice cancel out)" if self.cancelled else ""
        winner = "the defence wins" if self.defense_wins else "the offence wins"
        return (
            f"{player_name(self.player)} tries the {_role(self.role)}: a count of "
            f"{self.defense} for the defence against {self.offense} for the offence: "
            f"{winner}{note}."
        )


@dataclass(frozen=True, slots=True)
class Caught(Event):
    player: int
    guarded: bool

    def describe(self) -> str:
        how = "" if self.guarded else ", unguarded"
        return f"{player_name(self.player)} catches the disc{how}."


@dataclass(frozen=True, slots=True)
class TurnedOver(Event):
    team: int
    player: int
    kind: str

    def describe(self) -> str:
        who = f": {player_name(self.player)} has it" if self.player >= 0 else ""
        return f"{self.kind.capitalize()} turnover: {_team(self.team)} takes the disc{who}."

    def headline(self) -> str:
        return "Turnover"


END_ZONE_TURNOVER = "End-zone turnover"  # the DiscMoved reason of HM-R15


@dataclass(frozen=True, slots=True)
class DiscMoved(Event):
    cell: str
    handler: int
    handler_cell: str
    reason: str

    def describe(self) -> str:
        return (
            f"{self.reason}: {player_name(self.handler)} goes to {self.handler_cell}, the disc "
            f"to {self.cell}."
        )

    def headline(self) -> str:
        return "Turnover" if self.reason == END_ZONE_TURNOVER else ""


@dataclass(frozen=True, slots=True)
class Scored(Event):
    team: int
    player: int
    score: tuple[int, int]

    def describe(self) -> str:
        a, b = self.score
        return f"Point for {_team(self.team)} ({player_name(self.player)} scores)! A {a} - B {b}."

    def headline(self) -> str:
        return "Point!"

    def is_score(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    result: str

    def describe(self) -> str:
        return f"Game over: {self.result}."


@dataclass(frozen=True, slots=True)
class CallahanScored(Event):
    player: int

    def describe(self) -> str:
        return f"Callahan! {player_name(self.player)} intercepts in his own end zone."

    def headline(self) -> str:
        return "Point!"

    def is_score(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Pivoted(Event):
    player: int
    cell: str

    def describe(self) -> str:
        return f"{player_name(self.player)} pivots: the disc moves to {self.cell}."


@dataclass(frozen=True, slots=True)
class RethrowDecided(Event):
    team: int
    rethrow: bool

    def describe(self) -> str:
        if self.rethrow:
            return f"{_Team(self.team)} rethrows at once: no team moves."
        return f"{_Team(self.team)} plays on: teams move."


@dataclass(frozen=True, slots=True)
class DoubleTeamCalled(Event):
    players: tuple[int, ...]

    def describe(self) -> str:
        names = ", ".join(player_name(p) for p in self.players)
        return f"Double team called: {names} must move 2 spaces from the disc."


@dataclass(frozen=True, slots=True)
class ConePlaced(Event):
    team: int
    cell: str

    def describe(self) -> str:
        return f"{_Team(self.team)} puts a cone on {self.cell}."


@dataclass(frozen=True, slots=True)
class StyleChosen(Event):
    team: int
    style: str

    def describe(self) -> str:
        return f"{_Team(self.team)} chooses the game style for this point: {self.style}."


@dataclass(frozen=True, slots=True)
class Continued(Event):
    player: int
    cell: str

    def describe(self) -> str:
        return f"{player_name(self.player)} Continues the throw from {self.cell}."


@dataclass(frozen=True, slots=True)
class CountContested(Event):
    player: int
    said: int
    count: int

    def describe(self) -> str:
        return (
            f"{player_name(self.player)}'s coach says the count is {self.said}, but it is "
            f"{self.count}: a contested count, the disc stops where he took it."
        )


@dataclass(frozen=True, slots=True)
class ConePushed(Event):
    team: int
    source: str
    cell: str
    cones: int
    cost: int
    left: int

    def describe(self) -> str:
        what = "the cone" if self.cones == 1 else f"the stack of {self.cones} cones"
        return (
            f"{_Team(self.team)} throws at {what} on {self.source} and pushes it to {self.cell} "
            f"(count {self.cost}, {self.left} left)."
        )


@dataclass(frozen=True, slots=True)
class ConesScored(Event):
    team: int
    cones: int
    score: tuple[int, int]

    def describe(self) -> str:
        a, b = self.score
        n = "a cone" if self.cones == 1 else f"{self.cones} cones"
        return f"{_Team(self.team)} pushes {n} into the end zone! A {a} - B {b}."

    def headline(self) -> str:
        return "Point!"

    def is_score(self) -> bool:
        return True
