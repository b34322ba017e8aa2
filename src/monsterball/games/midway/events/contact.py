"""Contact: blocks, tackles and the ettin turning on his own teammate (the Block and Tackle
Results tables, in words)."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Event
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.events.common import modified_roll

_BLOCK_MEANS = {
    "blocker injured for game": "{b} is out for the rest of the game",
    "blocker injured for next play": "{b} is out for the next play",
    "blocker defeated": "the block fails",
    "neutralize": "{d} may not move in his next phase",
    "successful block": "{d} may not move in his next phase nor tackle until it is over",
    "defender injured for next play": "{d} is out for the next play",
    "defender injured for game": "{d} is out for the rest of the game",
}


@dataclass(frozen=True, slots=True)
class BlockRolled(Event):
    """Block Results table: d6 plus the size modifier (blocker's size against the
    defender's)."""

    blocker: int
    defender: int
    roll: int
    modifier: int
    total: int
    result: str  # the table's words

    def describe(self) -> str:
        b, d = player_name(self.blocker), player_name(self.defender)
        means = _BLOCK_MEANS.get(self.result, "").format(b=b, d=d)
        return (
            f"{b} blocks {d}: he {modified_roll(self.roll, self.modifier, self.total, 'size')}: "
            f"{self.result}" + (f" ({means})." if means else ".")
        )

    def in_brief(self) -> str:
        return self.result


@dataclass(frozen=True, slots=True)
class SecondBlockOff(Event):
    defender: int

    def describe(self) -> str:
        return f"The second block on {player_name(self.defender)} is called off."


_TACKLE_MEANS = {
    "ball carrier injured for game": "{c} is out for the rest of the game; the play is over",
    "ball carrier injured for next play": "{c} is out for the next play; the play is over",
    "ball carrier tackled": "the play is over",
    "ball carrier slowed (-2)": "{c} has 2 fewer hexes to move",
    "ball carrier slowed (-1)": "{c} has 1 fewer hex to move",
    "miss": "{c} runs on",
    "tackler injured for next play": "{t} is out for the next play",
    "tackler injured for game": "{t} is out for the rest of the game",
}


@dataclass(frozen=True, slots=True)
class TackleRolled(Event):
    """Tackle Results table: d6 plus the size modifier (carrier's size against the
    tackler's; a treant carrier counts 1 less)."""

    tackler: int
    carrier: int
    roll: int
    modifier: int
    total: int
    result: str  # the table's words

    def describe(self) -> str:
        t, c = player_name(self.tackler), player_name(self.carrier)
        means = _TACKLE_MEANS.get(self.result, "").format(t=t, c=c)
        return (
            f"{t} tackles {c}: he {modified_roll(self.roll, self.modifier, self.total, 'size')}: "
            f"{self.result}" + (f" ({means})." if means else ".")
        )

    def in_brief(self) -> str:
        return self.result


@dataclass(frozen=True, slots=True)
class EttinTurns(Event):
    ettin: int
    mate: int

    def describe(self) -> str:
        return (
            f"The ettin {player_name(self.ettin)} turns on his own teammate "
            f"{player_name(self.mate)}!"
        )


@dataclass(frozen=True, slots=True)
class EttinAttacked(Event):
    ettin: int
    mate: int
    tackle: bool  # tackles the carrier, rather than blocks
    roll: int
    modifier: int
    total: int
    succeeded: bool

    def describe(self) -> str:
        what = "tackles" if self.tackle else "blocks"
        said = modified_roll(self.roll, self.modifier, self.total, "size")
        mate = player_name(self.mate)
        verdict = (
            f"it succeeds; {mate} can do nothing this phase"
            if self.succeeded
            else f"it fails; {mate} shrugs it off"
        )
        return f"{player_name(self.ettin)} {what} {mate}: he {said}: {verdict}."

    def in_brief(self) -> str:
        return "it succeeds" if self.succeeded else "it fails"
