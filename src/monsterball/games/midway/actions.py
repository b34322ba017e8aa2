"""Monsters of the Midway actions and their notation.

=====================  ======================  =============================================
action                 notation                meaning
=====================  ======================  =============================================
:class:`DraftPick`     ``draft orc``           draft one player (``draft random``, ``draft best``)
:class:`Word`          ``receive`` ``end`` ..  a one-word decision (see ``WORDS``)
:class:`Place`         ``A3@g5``               set a player up on a hex
:class:`Move`          ``A3-g5``               move a player (the ball carrier: one hex)
:class:`Shift`         ``shift ne``            the mirror-image counters move one hex
:class:`Hand`          ``hand A5``             the carrier hands off to an adjacent teammate
:class:`Throw`         ``pass g15``            a forward pass to a target hex
:class:`Punt`          ``punt g20``            punt along the line toward a hex
:class:`Kick`          ``kick g21``            kickoff: the end of the 12-hex path
:class:`Snap`          ``snap A4``             snap to a backfield player
:class:`Tackle`        ``tackle B3 g12``       tackle attempt on the counter at a hex
:class:`Name`          ``block B3`` ``pat A2`` name a player: blocker, PAT kicker or the
                       ``intercept B3``        next defender to try an interception
                       ``catch A3``            a hidden receiver tries (ruling MW-R21)
:class:`Cast`          ``cast A3 bolt B5``     magic at the start of the caster's action
:class:`AtHex`         ``image g12``           place a mirror image, pick the real counter,
                       ``real g12``            or reappear after invisibility
                       ``appear g12``
chance                 ``d6=4`` ``2d6=7`` ``toss=A`` ``pick=orc``
=====================  ======================  =============================================

Players are ``A1..A10`` and ``B1..B10``; internally player ``i`` is team ``i // 10``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from monsterball.core.actions import Action, ActionTable, Roll
from monsterball.core.errors import NotationError
from monsterball.core.geometry import MaskSelector, grid
from monsterball.games.midway.chart import default_chart
from monsterball.games.midway.options import TEAM_NAMES

PER_TEAM = 10
NUM_PLAYERS = 2 * PER_TEAM
WIDTH = 14
LENGTH = 24  # 20 rows of field between the goal lines + two end zones of 2 (ruling MW-R4)
DIRECTIONS = ("ne", "e", "se", "sw", "w", "nw")  # HexGrid direction order, clockwise
WORDS = (
    "receive",  # coin toss winner: receive the kickoff
    "kickoff",  # coin toss winner: kick off
    "north",  # defend the north end zone (the wind at your back)
    "south",
    "end",  # end a movement phase / a set-up / a shift
    "no",  # decline a tackle, a block attempt, a second block
    "auto",  # fill the rest of a formation in a standard pattern
    "onside",
    "onside+1",  # halfling kicker's extra distance
    "onside+2",
    "deep",  # a kickoff path that leaves the far end of the field
    "fg",  # announce a field goal instead of snapping
    "two",  # try a two-point conversion
    "touchback",
    "out",  # the carrier steps out of bounds (ruling MW-R13)
)
SPELLS = ("bolt", "mirror", "invisible", "change", "revert", "were", "human")


def _player_name(player: int) -> str:
    return f"{TEAM_NAMES[player // PER_TEAM]}{player % PER_TEAM + 1}"


PLAYER_NAMES = tuple(_player_name(p) for p in range(NUM_PLAYERS))


def player_name(player: int) -> str:
    """``A1`` .. ``A10``, ``B1`` .. ``B10`` (a negative index counts back, as ever)."""
    return PLAYER_NAMES[player]


def parse_player(text: str) -> int:
    match = re.fullmatch(r"([abAB])(10|[1-9])", text.strip())
    if not match:
        raise NotationError(f"'{text}' is not a player (A1..A10, B1..B10)")
    return TEAM_NAMES.index(match.group(1).upper()) * PER_TEAM + int(match.group(2)) - 1


class MidwayAction(Action):
    __slots__ = ()


@dataclass(frozen=True, slots=True)
class DraftPick(MidwayAction):
    kind: str

    def notation(self) -> str:
        return f"draft {self.kind}"


@dataclass(frozen=True, slots=True)
class Word(MidwayAction):
    word: str

    def notation(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class Place(MidwayAction):
    player: int
    cell: str

    def notation(self) -> str:
        return f"{player_name(self.player)}@{self.cell}"


@dataclass(frozen=True, slots=True)
class Move(MidwayAction):
    player: int
    cell: str

    def notation(self) -> str:
        return f"{player_name(self.player)}-{self.cell}"


@dataclass(frozen=True, slots=True)
class Shift(MidwayAction):
    direction: str

    def notation(self) -> str:
        return f"shift {self.direction}"


@dataclass(frozen=True, slots=True)
class Hand(MidwayAction):
    player: int

    def notation(self) -> str:
        return f"hand {player_name(self.player)}"


@dataclass(frozen=True, slots=True)
class Throw(MidwayAction):
    cell: str

    def notation(self) -> str:
        return f"pass {self.cell}"


@dataclass(frozen=True, slots=True)
class Punt(MidwayAction):
    cell: str

    def notation(self) -> str:
        return f"punt {self.cell}"


@dataclass(frozen=True, slots=True)
class Kick(MidwayAction):
    cell: str

    def notation(self) -> str:
        return f"kick {self.cell}"


@dataclass(frozen=True, slots=True)
class Snap(MidwayAction):
    player: int

    def notation(self) -> str:
        return f"snap {player_name(self.player)}"


@dataclass(frozen=True, slots=True)
class Tackle(MidwayAction):
    player: int
    cell: str

    def notation(self) -> str:
        return f"tackle {player_name(self.player)} {self.cell}"


@dataclass(frozen=True, slots=True)
class Name(MidwayAction):
    role: str  # "block", "pat" (the kicker), "intercept" (who tries next), "catch" (MW-R21)
    player: int

    def notation(self) -> str:
        return f"{self.role} {player_name(self.player)}"


@dataclass(frozen=True, slots=True)
class Cast(MidwayAction):
    player: int
    spell: str
    target: str = ""  # bolt: a player name or "ball"; change: a chart type

    def notation(self) -> str:
        tail = f" {self.target}" if self.target else ""
        return f"cast {player_name(self.player)} {self.spell}{tail}"


@dataclass(frozen=True, slots=True)
class AtHex(MidwayAction):
    verb: str  # "image", "real" (secret) or "appear"
    cell: str

    def notation(self) -> str:
        return f"{self.verb} {self.cell}"

    def public_text(self) -> str:
        # The real mirror-image counter and an invisible player's hex are secret choices.
        if self.verb == "real":
            return "real (the caster's counter is chosen in secret)"
        if self.verb == "appear":
            return "appear (where the invisible player reappears is secret until it does)"
        return self.notation()


_CELL = r"([a-nA-N])(\d{1,2})"
_PLAYER = r"([abAB](?:10|[1-9]))"


def _cell(text: str) -> str:
    if not re.fullmatch(_CELL, text.strip()):
        raise NotationError(f"'{text}' is not a hex name (a1 .. n24)")
    return text.strip().lower()


def parse_decision(text: str) -> Action:
    """Read a coach's action; hexes are checked against the field by the state."""
    t = " ".join(text.strip().split())
    low = t.lower()
    if low in WORDS:
        return catalogue().words[low]
    m = re.fullmatch(_PLAYER + r"\s*@\s*" + _CELL, t)
    if m:
        return Place(parse_player(m.group(1)), f"{m.group(2).lower()}{m.group(3)}")
    m = re.fullmatch(_PLAYER + r"\s*-\s*" + _CELL, t)
    if m:
        return Move(parse_player(m.group(1)), f"{m.group(2).lower()}{m.group(3)}")
    word, _, rest = low.partition(" ")
    if word == "draft" and rest:
        return DraftPick(rest.strip())
    if word == "shift" and rest in DIRECTIONS:
        return Shift(rest)
    if word == "hand":
        return Hand(parse_player(rest))
    if word == "pass":
        return Throw(_cell(rest))
    if word == "punt":
        return Punt(_cell(rest))
    if word == "kick":
        return Kick(_cell(rest))
    if word == "snap":
        return Snap(parse_player(rest))
    if word in ("block", "pat", "intercept", "catch"):
        return Name(word, parse_player(rest))
    if word in ("image", "real", "appear"):
        return AtHex(word, _cell(rest))
    if word == "tackle":
        parts = rest.split()
        if len(parts) == 2:
            return Tackle(parse_player(parts[0]), _cell(parts[1]))
    if word == "cast":
        parts = rest.split()
        if len(parts) in (2, 3) and parts[1] in SPELLS:
            target = parts[2] if len(parts) == 3 else ""
            if target and re.fullmatch(_PLAYER, target):
                target = player_name(parse_player(target))
            return Cast(parse_player(parts[0]), parts[1], target)
    raise NotationError(
        f"'{text}' is not an action; try e.g. 'A3-g12', 'A3@g5', 'end', 'snap A4', "
        "'pass g15', 'hand A5', 'tackle B3 g12', 'kick g21', 'draft orc', 'cast A3 mirror'"
    )


class Catalogue:
    """Every action, built once: legal-move generation hands out these shared objects and
    their index is the integer encoding."""

    def __init__(self) -> None:
        field = grid("hex", WIDTH, LENGTH)
        names = field.names
        chart = default_chart()
        self.draft = {k: DraftPick(k) for k in (*chart.names, "random", "best")}
        self.words = {w: Word(w) for w in WORDS}
        self.place = tuple(tuple(Place(p, n) for n in names) for p in range(NUM_PLAYERS))
        self.move = tuple(tuple(Move(p, n) for n in names) for p in range(NUM_PLAYERS))
        self.tackle = tuple(tuple(Tackle(p, n) for n in names) for p in range(NUM_PLAYERS))
        self.shift = tuple(Shift(d) for d in DIRECTIONS)
        self.hand = tuple(Hand(p) for p in range(NUM_PLAYERS))
        self.throw = tuple(Throw(n) for n in names)
        self.punt = tuple(Punt(n) for n in names)
        self.kick = tuple(Kick(n) for n in names)
        self.snap = tuple(Snap(p) for p in range(NUM_PLAYERS))
        self.block = tuple(Name("block", p) for p in range(NUM_PLAYERS))
        self.pat = tuple(Name("pat", p) for p in range(NUM_PLAYERS))
        self.intercept = tuple(Name("intercept", p) for p in range(NUM_PLAYERS))
        self.catch = tuple(Name("catch", p) for p in range(NUM_PLAYERS))
        self.image = tuple(AtHex("image", n) for n in names)
        self.real = tuple(AtHex("real", n) for n in names)
        self.appear = tuple(AtHex("appear", n) for n in names)
        self.d6 = tuple(Roll("d6", str(v)) for v in range(1, 7))
        self.two_d6 = tuple(Roll("2d6", str(v)) for v in range(2, 13))
        self.toss = (Roll("toss", "A"), Roll("toss", "B"))
        self.pick = {k: Roll("pick", k) for k in chart.names}
        casts: list[Action] = []
        # Per caster: the spells without a target by name, the bolts by target player (the
        # ball last) and the changes in chart order: what legal lists hand out.
        self.spells: tuple[dict[str, Cast], ...] = tuple(
            {s: Cast(p, s) for s in ("mirror", "invisible", "revert", "were", "human")}
            for p in range(NUM_PLAYERS)
        )
        self.bolts = tuple(
            (
                *(Cast(p, "bolt", player_name(q)) for q in range(NUM_PLAYERS)),
                Cast(p, "bolt", "ball"),
            )
            for p in range(NUM_PLAYERS)
        )
        self.changes = tuple(
            tuple(Cast(p, "change", k) for k in chart.change_self_into) for p in range(NUM_PLAYERS)
        )
        for p in range(NUM_PLAYERS):
            casts += self.spells[p].values()
            casts.append(self.bolts[p][NUM_PLAYERS])
            casts += self.bolts[p][:NUM_PLAYERS]
            casts += self.changes[p]
        self.casts = {a: a for a in casts}
        every: list[Action] = [*self.draft.values(), *self.words.values()]
        for rows in (self.place, self.move, self.tackle):
            for row in rows:
                every.extend(row)
        every += [*self.shift, *self.hand, *self.throw, *self.punt, *self.kick, *self.snap]
        every += [*self.block, *self.pat, *self.image, *self.real, *self.appear, *casts]
        every += [*self.d6, *self.two_d6, *self.toss, *self.pick.values(), *self.intercept]
        every += self.catch  # appended last, so the numbers of the others stay
        self.table = ActionTable(every)
        self.place_by_mask = tuple(MaskSelector(row) for row in self.place)
        self.move_by_mask = tuple(MaskSelector(row) for row in self.move)


@cache
def catalogue() -> Catalogue:
    return Catalogue()


def action_table() -> ActionTable:
    return catalogue().table
