"""The arithmetic of a Huck + Monster matchup, in one place.

The engine (procedures) and the exact-odds calculator (:mod:`odds`) both decide bids with
these functions, so a ruling about ties, strategy faces or cancelling results changes both at
once. Everything here is pure and works on plain ints and strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

# Strategy die faces (rulebook "Offensive Outcomes: Light Dice" / "Defensive Outcomes: Dark
# Dice"), in the rulebook's order. The light die belongs to the offense, the dark to the defense.
LIGHT_FACES = ("huck", "break", "strip", "layout", "hammer", "dump")
DARK_FACES = ("monster", "poach", "hot-bid", "beat", "footer", "no-big")

# Offensive actions and defensive bids, with the team dice each rolls (HM-UP-2, HM-UP-3).
THROW, CATCH = "throw", "catch"
MARK, INTERCEPT, CATCH_MARK, CHALLENGE = "mark", "intercept", "catch-mark", "challenge"
DICE = {THROW: 3, CATCH: 3, MARK: 3, INTERCEPT: 2, CATCH_MARK: 3, CHALLENGE: 2}
MARKS = (MARK, CATCH_MARK)

# Which action each light face can change (HM-SD-6..11); rolled elsewhere it is spent for
# nothing (HM-R23).
LIGHT_APPLIES = {
    "huck": (THROW, CATCH),
    "break": (THROW, CATCH),
    "strip": (THROW, CATCH),
    "layout": (CATCH,),
    "hammer": (THROW, CATCH),
    "dump": (THROW,),
}
# Which bids each dark face can change (HM-SD-12..17).
DARK_APPLIES = {
    "monster": (MARK, INTERCEPT, CATCH_MARK, CHALLENGE),
    "poach": (MARK, INTERCEPT, CATCH_MARK, CHALLENGE),
    "hot-bid": (MARK, INTERCEPT, CATCH_MARK, CHALLENGE),
    "beat": (MARK, INTERCEPT, CATCH_MARK, CHALLENGE),
    "footer": (MARK, INTERCEPT, CATCH_MARK, CHALLENGE),
    "no-big": MARKS,
}

# The Strategy Playmaker Pin (HM-PIN-2/3): 9 light and 9 dark outcomes on one shared spinner,
# each a word and a number. Names carry a "pin-" prefix: several words repeat dice faces with
# other effects (a dice Footer halves; a pin Footer adds 1).
PIN_LIGHT = (
    "pin-huck", "pin-push", "pin-brush", "pin-flick", "pin-hammer",
    "pin-doink", "pin-scoober", "pin-float", "pin-dump",
)  # fmt: skip
PIN_DARK = (
    "pin-monster", "pin-footer", "pin-layout", "pin-strike", "pin-hot-bid",
    "pin-flash", "pin-match", "pin-markd", "pin-beat",
)  # fmt: skip
PIN_MODIFIER = {
    "pin-push": 1, "pin-brush": -1, "pin-flick": 3, "pin-hammer": 4, "pin-doink": -10,
    "pin-scoober": 3, "pin-float": -3, "pin-dump": 1,
    "pin-footer": 1, "pin-layout": 3, "pin-strike": -5, "pin-hot-bid": 3, "pin-flash": 1,
    "pin-markd": 2, "pin-beat": -5,
}  # fmt: skip
# "may be used by Handlers, or Continues, but not Receivers" (Huck, Hammer). Doink and Dump
# have no such exclusion: on a catch their numbers apply, and only their throw sentences
# (the stall, the direction) have nothing to act on (HM-R37).
PIN_THROW_ONLY = ("pin-huck", "pin-hammer")
SPIN_FACES = {"dice": (LIGHT_FACES, DARK_FACES), "pin": (PIN_LIGHT + PIN_DARK,) * 2,
              "game-disc": (PIN_LIGHT, PIN_DARK)}  # fmt: skip


def strategy_faces(equipment: str, offense: bool) -> tuple[str, ...]:
    """What a team's strategy roll or spin can show (HM-PIN-4: one shared pin; HM-R39: each
    Strategy Game Disc shows only its own side's outcomes)."""
    light, dark = SPIN_FACES[equipment]
    return light if offense else dark


def is_hammer(face: str) -> bool:
    return face in ("hammer", "pin-hammer")


def is_dump(face: str) -> bool:
    return face in ("dump", "pin-dump")


def is_monster(face: str) -> bool:
    return face in ("monster", "pin-monster")


# HM-R21: results that contradict each other in one matchup cancel ("Guaranteed Throw vs.
# Guaranteed Mark"): a doubled against a halved count, and a guaranteed Mark against an
# offensive result that stops that Mark from bidding.
CONFLICTS = frozenset(
    {("huck", "footer"), ("break", "no-big"), ("layout", "no-big"), ("hammer", "no-big")}
)


def light_effect(face: str, action: str) -> str:
    """The face if it changes ``action``, else '' (spent without effect). A pin outcome
    meant for the defense is "invalid" for the offense (HM-PIN-4)."""
    if face.startswith("pin-"):
        if face not in PIN_LIGHT or (face in PIN_THROW_ONLY and action != THROW):
            return ""
        return face
    return face if face and action in LIGHT_APPLIES[face] else ""


def dark_effect(face: str, bid: str) -> str:
    if face.startswith("pin-"):
        return face if face in PIN_DARK else ""
    return face if face and bid in DARK_APPLIES[face] else ""


def conflicts(light: str, dark: str) -> bool:
    return (light, dark) in CONFLICTS


def bid_blocked(light: str, action: str, bid: str, hammered: bool) -> bool:
    """Whether the offense's face stops this bid (before any cancelling dark face).

    Break stops Marks on Throws and Catches (HM-SD-7); Layout stops Marks and Challenges on a
    Catch (HM-SD-9); Hammer stops the defender the disc passes over, or on a Catch the first
    defender guarding it (HM-R20)."""
    face = light_effect(light, action)
    if face == "break":
        return bid in MARKS
    if face == "layout":
        return bid in (CATCH_MARK, CHALLENGE)
    if face == "hammer":
        return hammered
    return False


@dataclass(frozen=True, slots=True)
class BidResult:
    defense_wins: bool
    offense_count: int
    defense_count: int
    cancelled: bool
    halves: bool  # a Footer that halves the offense for the rest of the action


def offense_count(base: int, light: str, action: str, halved: bool) -> int:
    """The offensive count before this bid: Huck doubles it (HM-SD-6), an earlier Footer in
    the same action halves it, rounding down (HM-R19)."""
    face = light_effect(light, action)
    # Huck doubles; a pin outcome adds its number (HM-PIN-2).
    doubled = face in ("huck", "pin-huck")
    count = base * 2 if doubled else max(0, base + PIN_MODIFIER.get(face, 0))
    return count // 2 if halved else count


def resolve_bid(
    *,
    base: int,
    light: str,
    action: str,
    halved: bool,
    bid: str,
    roll: int,
    dark: str,
    ties: str,
) -> BidResult:
    """Decide one matchup: the offense's action count against one defender's bid.

    ``base`` is the offense's team-dice total for the action, ``light`` its strategy face (or
    ''), ``halved`` whether a Footer already halved this action, ``roll`` the defender's
    team-dice total and ``dark`` its face. Ties go to the offense unless ``ties`` says
    'defense' (HM-R12)."""
    light_now = light_effect(light, action)
    dark_now = dark_effect(dark, bid)
    cancelled = bool(light_now and dark_now and conflicts(light_now, dark_now))
    if cancelled:
        light_now = dark_now = ""
    off = offense_count(base, light_now, action, halved)
    halves = dark_now == "footer"
    if halves and not halved:
        off //= 2
    if dark_now == "beat":
        return BidResult(False, off, 0, cancelled, halves)
    if dark_now == "no-big":
        return BidResult(True, off, roll, cancelled, halves)
    bid_count = max(0, roll + PIN_MODIFIER.get(dark_now, 0))
    wins = bid_count > off or (ties == "defense" and bid_count == off)
    return BidResult(wins, off, bid_count, cancelled, halves)


# Sideline All-Stars (HM-STAR-3/4): the designated Handler's stats on offense (and for the
# pull), the designated Monster's on defense; "up-move" is the Monster's move in an Up Call.
HANDLER_STATS = {"move": 3, "pull": 2, "throw": 3, "continue": 3, "catch": 1}
MONSTER_STATS = {
    "move": 5,
    "mark": 1,
    "catch-mark": 1,
    "intercept": 2,
    "challenge": 1,
    "up-move": 5,
}


def all_star_stat(action: str, on_offense: bool) -> int:
    """What an All-Star adds to ``action`` in his current role (HM-STAR-2, HM-R42)."""
    stats = HANDLER_STATS if on_offense else MONSTER_STATS
    return stats.get(action, 0)


TEAM_PIN = tuple(range(1, 19))  # HM-TPIN-1: "18 numerical outcomes" (HM-R38: 1..18, even)


def team_roll(dice: int, team_pins: bool) -> tuple[tuple[int, Fraction], ...]:
    """The distribution of a team-dice total, or of a Team Pin spin (HM-TPIN-1/2)."""
    if team_pins:
        return tuple((v, Fraction(1, 18)) for v in TEAM_PIN)
    return dice_sum(dice)


@cache
def dice_sum(n: int) -> tuple[tuple[int, Fraction], ...]:
    """Exact distribution of the total of ``n`` six-sided dice."""
    dist = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / 6
        dist = nxt
    return tuple(sorted(dist.items()))
