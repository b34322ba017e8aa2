"""Paper Ultimate actions and their notation.

========================  =============  ================================================
action                    notation       meaning
========================  =============  ================================================
:class:`Place`            ``place e2``   set up the next unplaced player of the acting team
:class:`GiveDisc`         ``disc A3``    the pulling team gives the disc to a player
:class:`PullTo`           ``pull e17``   pull into an empty field of the opposing end zone
:class:`RunTo`            ``A2-e5``      a player runs 1..4 fields to a free field
:class:`EndRun`           ``end``        the team's running step is over
:class:`PassTo`           ``pass A3``    the thrower passes to a free teammate
:class:`DeclareTurn`      ``turnover``   no free receiver: the disc goes to the other team
:class:`CallMonster`      ``monster B2`` the defense rolls 'monster Defense' with marker B2
:class:`DeclineMonster`   ``decline``    the defense lets the catch stand
:class:`TakeDisc`         ``take B3``    the new offense names the player who takes the disc
chance                    ``toss=A``, ``d6=4``, ``coins=HT``
========================  =============  ================================================

Players are ``A1..A4`` and ``B1..B4``; internally player ``i`` is team ``i // 4``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from monsterball.core.actions import Action, ActionTable, Roll
from monsterball.core.errors import NotationError
from monsterball.core.geometry import Grid, MaskSelector, grid
from monsterball.games.paper_ultimate.options import TEAM_NAMES, PaperUltimateOptions

PLAYERS_PER_TEAM = 4
NUM_PLAYERS = 2 * PLAYERS_PER_TEAM


_NAMES = tuple(
    f"{TEAM_NAMES[p // PLAYERS_PER_TEAM]}{p % PLAYERS_PER_TEAM + 1}"
    for p in range(len(TEAM_NAMES) * PLAYERS_PER_TEAM)
)
_PLAYERS = {name: p for p, name in enumerate(_NAMES)}


def player_name(player: int) -> str:
    if 0 <= player < len(_NAMES):
        return _NAMES[player]  # every position writes each name: looked up, not formatted
    return f"{TEAM_NAMES[player // PLAYERS_PER_TEAM]}{player % PLAYERS_PER_TEAM + 1}"


def parse_player(text: str) -> int:
    player = _PLAYERS.get(text)  # a name as written ("A3"); anything else is parsed
    if player is not None:
        return player
    match = re.fullmatch(r"([abAB])([1-4])", text.strip())
    if not match:
        raise NotationError(f"'{text}' is not a player (A1..A4, B1..B4)")
    team = TEAM_NAMES.index(match.group(1).upper())
    return team * PLAYERS_PER_TEAM + int(match.group(2)) - 1


@dataclass(frozen=True, slots=True)
class Place(Action):
    cell: str

    def notation(self) -> str:
        return f"place {self.cell}"


@dataclass(frozen=True, slots=True)
class GiveDisc(Action):
    player: int

    def notation(self) -> str:
        return f"disc {player_name(self.player)}"


@dataclass(frozen=True, slots=True)
class PullTo(Action):
    cell: str

    def notation(self) -> str:
        return f"pull {self.cell}"


@dataclass(frozen=True, slots=True)
class RunTo(Action):
    player: int
    cell: str

    def notation(self) -> str:
        return f"{player_name(self.player)}-{self.cell}"


@dataclass(frozen=True, slots=True)
class EndRun(Action):
    def notation(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class PassTo(Action):
    player: int

    def notation(self) -> str:
        return f"pass {player_name(self.player)}"


@dataclass(frozen=True, slots=True)
class DeclareTurn(Action):
    def notation(self) -> str:
        return "turnover"


@dataclass(frozen=True, slots=True)
class CallMonster(Action):
    player: int

    def notation(self) -> str:
        return f"monster {player_name(self.player)}"


@dataclass(frozen=True, slots=True)
class DeclineMonster(Action):
    def notation(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class TakeDisc(Action):
    player: int

    def notation(self) -> str:
        return f"take {player_name(self.player)}"


END = EndRun()
DECLARE_TURN = DeclareTurn()
DECLINE = DeclineMonster()

_CELL = r"([a-zA-Z])([0-9]{1,2})"  # ASCII digits only (\d takes any script's)


def _cell(text: str) -> str:
    if not re.fullmatch(_CELL, text):
        raise NotationError(f"'{text}' is not a field name (like e5)")
    return text.lower()


def parse_decision(text: str) -> Action:
    """Read a coach's action. Cells are checked against the pitch by the state, not here."""
    t = text.strip()
    low = t.lower()
    if low == "end":
        return END
    if low in ("turnover", "turn"):
        return DECLARE_TURN
    if low in ("decline", "no"):
        return DECLINE
    run = re.fullmatch(r"([abAB][1-4])\s*[- ]\s*" + _CELL, t)
    if run:
        return RunTo(parse_player(run.group(1)), f"{run.group(2).lower()}{run.group(3)}")
    word, _, rest = t.partition(" ")
    word = word.lower()
    rest = rest.strip()
    if word == "place":
        return Place(_cell(rest))
    if word == "pull":
        return PullTo(_cell(rest))
    if word == "disc":
        return GiveDisc(parse_player(rest))
    if word == "pass":
        return PassTo(parse_player(rest))
    if word == "monster":
        return CallMonster(parse_player(rest))
    if word == "take":
        return TakeDisc(parse_player(rest))
    raise NotationError(
        f"'{text}' is not an action; try e.g. 'A2-e5', 'end', 'pass A3', 'place e2', "
        "'pull e17', 'disc A1', 'monster B2', 'decline', 'take B3', 'turnover'"
    )


class Catalogue:
    """Every action for one pitch size, built once: legal-move generation hands out these
    shared objects instead of allocating new ones, and their index is the integer encoding."""

    def __init__(self, field: Grid):
        names = field.names
        self.place = tuple(Place(n) for n in names)
        self.give = tuple(GiveDisc(p) for p in range(NUM_PLAYERS))
        self.pull = tuple(PullTo(n) for n in names)
        self.run = tuple(tuple(RunTo(p, n) for n in names) for p in range(NUM_PLAYERS))
        self.pass_to = tuple(PassTo(p) for p in range(NUM_PLAYERS))
        self.monster = tuple(CallMonster(p) for p in range(NUM_PLAYERS))
        self.take = tuple(TakeDisc(p) for p in range(NUM_PLAYERS))
        self.toss = (Roll("toss", "A"), Roll("toss", "B"))
        self.d6 = tuple(Roll("d6", str(v)) for v in range(1, 7))
        self.coins = tuple(Roll("coins", v) for v in ("HH", "HT", "TH", "TT"))
        every: list[Action] = [*self.place, *self.give, *self.pull]
        for row in self.run:
            every.extend(row)
        every += [END, *self.pass_to, DECLARE_TURN, *self.monster, DECLINE, *self.take]
        every += [*self.toss, *self.d6, *self.coins]
        self.table = ActionTable(every)
        # Mask -> actions selectors for legal-move generation (see MaskSelector).
        self.place_by_mask: MaskSelector[Action] = MaskSelector(self.place)
        self.pull_by_mask: MaskSelector[Action] = MaskSelector(self.pull)
        self.run_by_mask: tuple[MaskSelector[Action], ...] = tuple(
            MaskSelector(row) for row in self.run
        )


@cache
def catalogue(width: int, length: int) -> Catalogue:
    return Catalogue(grid("square", width, length))


def action_table(options: PaperUltimateOptions) -> ActionTable:
    return catalogue(options.width, options.length).table
