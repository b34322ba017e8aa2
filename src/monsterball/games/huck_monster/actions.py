"""Huck + Monster actions and their notation.

========================  ==================  ===========================================
action                    notation            meaning
========================  ==================  ===========================================
:class:`Place`            ``place c15``       set up the team's next player on a line space
:class:`PlaceDisc`        ``disc d15``        the defense puts the disc on its open line space
:class:`PullTo`           ``pull e5``         where the pull lands (among the legal ends)
:class:`MoveTo`           ``A3-e7``           team move: a player moves, the engine counts
                                              the spaces of the shortest open path
:class:`EndMove`          ``end``             the team's move is over
:class:`RollDice`         ``roll``            roll team dice for the current action or bid
:class:`RollStrategy`     ``strategy``        ... and add the team's strategy die
:class:`Reroll` / Keep    ``reroll``/``keep`` after Strip or Hot Bid
:class:`ThrowTo`          ``throw A4 e9``     the disc flies to e9 for receiver A4
:class:`MonsterMove`      ``monster B3 e7``   the Monster face: move a defender up to 5
:class:`MonsterStay`      ``monster stay``    ... or let it stand
:class:`PivotTo`          ``pivot e9``        Pro: the new Handler pivots the disc (``end``: not)
:class:`ViaCell`          ``via e9``          ``steer``: the disc's next space (HM-R9)
:class:`ConeTo`           ``cone e9``         Pothole Markers: add a cone on e9
:class:`ConeMove`         ``cone e9 f9``      ... or move the cone on e9 to f9
:class:`ChooseStyle`      ``style pothole``   the receiving team picks the point's game style
:class:`CallDoubleTeam`   ``double team``     Pro: the Handler calls a double team
:class:`Rethrow` / PlayOn ``rethrow`` / ``play on``  Pro: after an Intercept or a Continue
:class:`ContinueBy`       ``continue A3``     Pro: A3 Continues the throw (``continue A3 5``:
                                              with the remembered count, HM-R50)
chance                    ``3d6=11``, ``2d6=7``, ``1d6=4``, ``light=huck``, ``dark=no-big``,
                          ``toss=A``,
                          ``pin=pin-flick`` (Playmaker Pin), ``spin=14`` (Team Pin)
========================  ==================  ===========================================

Players are ``A1..A7`` and ``B1..B7``; internally player ``i`` is team ``i // 7``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from monsterball.core.actions import Action, ActionTable, Roll
from monsterball.core.errors import NotationError
from monsterball.core.geometry import Grid, MaskSelector, grid
from monsterball.games.huck_monster.matchup import (
    DARK_FACES,
    LIGHT_FACES,
    PIN_DARK,
    PIN_LIGHT,
    TEAM_PIN,
    dice_sum,
)
from monsterball.games.huck_monster.options import (
    PLAYERS_PER_TEAM,
    TEAM_NAMES,
    HuckMonsterOptions,
)

NUM_PLAYERS = 2 * PLAYERS_PER_TEAM


def player_name(player: int) -> str:
    if 0 <= player < NUM_PLAYERS:
        return _NAMES[player]  # every position writes each name: looked up, not formatted
    return f"{TEAM_NAMES[player // PLAYERS_PER_TEAM]}{player % PLAYERS_PER_TEAM + 1}"


def parse_player(text: str) -> int:
    player = _PLAYERS.get(text)  # a name as written ("A3"); anything else is parsed
    if player is not None:
        return player
    match = re.fullmatch(r"([abAB])([1-7])", text.strip())
    if not match:
        # Shown as the coach wrote a player (the decision parser lowers the words).
        shown = text.strip().upper() if re.fullmatch(r"[a-zA-Z]\d+", text.strip()) else text
        raise NotationError(f"'{shown}' is not a player (A1..A7, B1..B7)")
    team = TEAM_NAMES.index(match.group(1).upper())
    return team * PLAYERS_PER_TEAM + int(match.group(2)) - 1


_NAMES = tuple(
    f"{TEAM_NAMES[p // PLAYERS_PER_TEAM]}{p % PLAYERS_PER_TEAM + 1}" for p in range(NUM_PLAYERS)
)
_PLAYERS = {name: p for p, name in enumerate(_NAMES)}


@dataclass(frozen=True, slots=True)
class Place(Action):
    cell: str

    def notation(self) -> str:
        return f"place {self.cell}"


@dataclass(frozen=True, slots=True)
class PlaceDisc(Action):
    cell: str

    def notation(self) -> str:
        return f"disc {self.cell}"


@dataclass(frozen=True, slots=True)
class PullTo(Action):
    cell: str

    def notation(self) -> str:
        return f"pull {self.cell}"


@dataclass(frozen=True, slots=True)
class MoveTo(Action):
    player: int
    cell: str

    def notation(self) -> str:
        return f"{player_name(self.player)}-{self.cell}"


@dataclass(frozen=True, slots=True)
class EndMove(Action):
    def notation(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class RollDice(Action):
    def notation(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class RollStrategy(Action):
    def notation(self) -> str:
        return "strategy"


@dataclass(frozen=True, slots=True)
class Reroll(Action):
    def notation(self) -> str:
        return "reroll"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    def notation(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class ThrowTo(Action):
    receiver: int
    cell: str

    def notation(self) -> str:
        return f"throw {player_name(self.receiver)} {self.cell}"


@dataclass(frozen=True, slots=True)
class MonsterMove(Action):
    player: int
    cell: str

    def notation(self) -> str:
        return f"monster {player_name(self.player)} {self.cell}"


@dataclass(frozen=True, slots=True)
class MonsterStay(Action):
    def notation(self) -> str:
        return "monster stay"


@dataclass(frozen=True, slots=True)
class PivotTo(Action):
    cell: str

    def notation(self) -> str:
        return f"pivot {self.cell}"


@dataclass(frozen=True, slots=True)
class ViaCell(Action):
    cell: str

    def notation(self) -> str:
        return f"via {self.cell}"


@dataclass(frozen=True, slots=True)
class ConeTo(Action):
    cell: str

    def notation(self) -> str:
        return f"cone {self.cell}"


@dataclass(frozen=True, slots=True)
class ConeMove(Action):
    source: str
    cell: str

    def notation(self) -> str:
        return f"cone {self.source} {self.cell}"


@dataclass(frozen=True, slots=True)
class ChooseStyle(Action):
    style: str

    def notation(self) -> str:
        return f"style {self.style}"


GAME_STYLES = ("standard", "pothole", "hot-hex")
MAX_COUNT = 36  # the highest count a coach can state for a contested count (HM-R50)


@dataclass(frozen=True, slots=True)
class ContinueBy(Action):
    """Pro: ``player`` Continues the throw; ``count`` is the remaining throw count the coach
    states from memory under the contested-count rule (None without it)."""

    player: int
    count: int | None = None

    def notation(self) -> str:
        said = "" if self.count is None else f" {self.count}"
        return f"continue {player_name(self.player)}{said}"


@dataclass(frozen=True, slots=True)
class CallDoubleTeam(Action):
    def notation(self) -> str:
        return "double team"


@dataclass(frozen=True, slots=True)
class Rethrow(Action):
    def notation(self) -> str:
        return "rethrow"


@dataclass(frozen=True, slots=True)
class PlayOn(Action):
    def notation(self) -> str:
        return "play on"


END = EndMove()
DOUBLE_TEAM = CallDoubleTeam()
RETHROW = Rethrow()
PLAY_ON = PlayOn()
ROLL = RollDice()
STRATEGY = RollStrategy()
REROLL = Reroll()
KEEP = Keep()
STAY = MonsterStay()

_CELL = r"([a-zA-Z])([0-9]{1,2})"  # ASCII digits only (\d takes any script's)
_PLAYER = r"([abAB][1-7])"
_WORDS = {
    "end": END,
    "roll": ROLL,
    "strategy": STRATEGY,
    "reroll": REROLL,
    "keep": KEEP,
    "double team": DOUBLE_TEAM,
    "rethrow": RETHROW,
    "play on": PLAY_ON,
}


def _cell(text: str) -> str:
    if not re.fullmatch(_CELL, text):
        raise NotationError(f"'{text}' is not a space name (like e5)")
    return text.lower()


def parse_decision(text: str) -> Action:
    """Read a coach's action. Spaces are checked against the field by the state, not here."""
    t = " ".join(text.strip().split())
    low = t.lower()
    if low in _WORDS:
        return _WORDS[low]
    if low in ("monster stay", "stay"):
        return STAY
    move = re.fullmatch(_PLAYER + r"\s*[- ]\s*" + _CELL, t)
    if move:
        return MoveTo(parse_player(move.group(1)), f"{move.group(2).lower()}{move.group(3)}")
    word, _, rest = low.partition(" ")
    if word == "place":
        return Place(_cell(rest))
    if word == "disc":
        return PlaceDisc(_cell(rest))
    if word == "pull":
        return PullTo(_cell(rest))
    if word == "pivot":
        return PivotTo(_cell(rest))
    if word == "via":
        return ViaCell(_cell(rest))
    if word == "style":
        if rest not in GAME_STYLES:
            raise NotationError(f"'{rest}' is not a game style ({', '.join(GAME_STYLES)})")
        return ChooseStyle(rest)
    if word == "continue":
        parts = rest.split(" ")
        # ASCII digits only: isdigit() takes '²' and isdecimal() '٣', which int() mishandles.
        if len(parts) not in (1, 2) or (
            len(parts) == 2 and not re.fullmatch("[0-9]{1,3}", parts[1])
        ):
            raise NotationError(f"'{text}' needs a player and maybe a count: 'continue A3 5'")
        count = int(parts[1]) if len(parts) == 2 else None
        return ContinueBy(parse_player(parts[0]), count)
    if word == "cone":
        cells = rest.split(" ")
        if len(cells) == 1:
            return ConeTo(_cell(cells[0]))
        if len(cells) == 2:
            return ConeMove(_cell(cells[0]), _cell(cells[1]))
        raise NotationError(f"'{text}' needs one or two spaces, e.g. 'cone e9' or 'cone e9 f9'")
    if word in ("throw", "monster"):
        parts = rest.split(" ")
        if len(parts) != 2:
            raise NotationError(f"'{text}' needs a player and a space, e.g. '{word} A4 e9'")
        player, cell = parse_player(parts[0]), _cell(parts[1])
        return ThrowTo(player, cell) if word == "throw" else MonsterMove(player, cell)
    raise NotationError(
        f"'{text}' is not an action; try e.g. 'A3-e7', 'end', 'roll', 'strategy', "
        "'throw A4 e9', 'place c15', 'disc d15', 'pull e5', 'reroll', 'keep', "
        "'monster B3 e7', 'monster stay', 'pivot e9', 'double team', 'rethrow', 'play on', "
        "'continue A3', 'via e9'"
    )


class Catalogue:
    """Every action for one field, built once: legal-move generation hands out these shared
    objects, and their index in ``table`` is the integer encoding."""

    def __init__(self, field: Grid):
        names = field.names
        self.place = tuple(Place(n) for n in names)
        self.disc = tuple(PlaceDisc(n) for n in names)
        self.pull = tuple(PullTo(n) for n in names)
        self.pivot = tuple(PivotTo(n) for n in names)
        self.cone = tuple(ConeTo(n) for n in names)
        self.style = tuple(ChooseStyle(name) for name in GAME_STYLES[:2])
        self.cone_move = tuple(tuple(ConeMove(a, b) for b in names) for a in names)
        self.move = tuple(tuple(MoveTo(p, n) for n in names) for p in range(NUM_PLAYERS))
        self.throw = tuple(tuple(ThrowTo(p, n) for n in names) for p in range(NUM_PLAYERS))
        self.monster = tuple(tuple(MonsterMove(p, n) for n in names) for p in range(NUM_PLAYERS))
        self.toss = (Roll("toss", "A"), Roll("toss", "B"))
        self.sums = {n: {v: Roll(f"{n}d6", str(v)) for v, _ in dice_sum(n)} for n in (1, 2, 3)}
        self.light = tuple(Roll("light", f) for f in LIGHT_FACES)
        self.dark = tuple(Roll("dark", f) for f in DARK_FACES)
        self.pin = tuple(Roll("pin", f) for f in PIN_LIGHT + PIN_DARK)
        self.spin = {v: Roll("spin", str(v)) for v in TEAM_PIN}
        every: list[Action] = [*self.place, *self.disc, *self.pull, *self.pivot, *self.cone]
        for moves in self.cone_move:
            every.extend(moves)
        for rows in (self.move, self.throw, self.monster):
            for row in rows:
                every.extend(row)
        every += [END, ROLL, STRATEGY, REROLL, KEEP, STAY, DOUBLE_TEAM, RETHROW, PLAY_ON]
        every += self.style
        every += self.toss
        for n in (2, 3):
            every.extend(self.sums[n].values())
        every += [*self.light, *self.dark, *self.pin, *self.spin.values()]
        # Added with the Continue and Hot Hex, after the rest so older encodings keep their
        # numbers.
        self.style += (ChooseStyle("hot-hex"),)
        self.cont = tuple(ContinueBy(p) for p in range(NUM_PLAYERS))
        self.cont_count = tuple(
            tuple(ContinueBy(p, n) for n in range(MAX_COUNT + 1)) for p in range(NUM_PLAYERS)
        )
        every += [self.style[-1], *self.sums[1].values(), *self.cont]
        for counted in self.cont_count:
            every.extend(counted)
        self.via = tuple(ViaCell(n) for n in names)  # added with ``steer`` (HM-R9)
        every += self.via
        self.table = ActionTable(every)
        self.place_by_mask: MaskSelector[Action] = MaskSelector(self.place)
        self.pull_by_mask: MaskSelector[Action] = MaskSelector(self.pull)
        self.pivot_by_mask: MaskSelector[Action] = MaskSelector(self.pivot)
        self.via_by_mask: MaskSelector[Action] = MaskSelector(self.via)
        self.cone_by_mask: MaskSelector[Action] = MaskSelector(self.cone)
        self.cone_move_by_mask = tuple(MaskSelector(row) for row in self.cone_move)
        self.disc_by_mask: MaskSelector[Action] = MaskSelector(self.disc)
        self.move_by_mask = tuple(MaskSelector(row) for row in self.move)
        self.throw_by_mask = tuple(MaskSelector(row) for row in self.throw)
        self.monster_by_mask = tuple(MaskSelector(row) for row in self.monster)


@cache
def catalogue(kind: str, width: int, length: int) -> Catalogue:
    return Catalogue(grid(kind, width, length))


def action_table(options: HuckMonsterOptions) -> ActionTable:
    return catalogue(options.grid, options.width, options.length).table
