"""Options of Huck + Monster, the standard (Starting 7) game. Every gap in the rulebook that
players could settle either way is an option, with the ruling id that explains the default
(docs/rules/huck-monster.md)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from monsterball.core.errors import OptionsError
from monsterball.core.options import GameOptions, option

TEAM_NAMES = ("A", "B")
PLAYERS_PER_TEAM = 7


@dataclass(frozen=True, kw_only=True)
class HuckMonsterOptions(GameOptions):
    """Options for Huck + Monster (rulebook 000), standard game."""

    grid: str = option(
        "hex",
        "Shape of the field's spaces: 'hex' (6 neighbours) or 'square' (8 neighbours).",
        choices=("hex", "square"),
        ruling="HM-R1",
    )
    width: int = option(
        8,
        "Spaces across the field; the line holds 7 players and the disc, so at least 8.",
        minimum=8,
        maximum=16,
        ruling="HM-R1",
    )
    length: int = option(
        17,
        "Rows from end line to end line, end zones included.",
        minimum=11,
        maximum=40,
        ruling="HM-R1",
    )
    end_zone_depth: int = option(
        3, "Rows in each end zone (rulebook: 'the 3 rows of spaces').", minimum=1, maximum=5
    )
    points_to_win: int = option(
        7,
        "Points that win: 7 for a regulation game, 3 for a short game.",
        minimum=1,
        maximum=99,
        ruling="HM-R27",
    )
    win_by: int = option(
        1,
        "Winning margin: 2 for the rulebook's short game ('win by two').",
        minimum=1,
        maximum=2,
        ruling="HM-R27",
    )
    first_offense: str = option(
        "A",
        "Who starts on offense: the team with the 'Huck' bag. 'A' or 'B' pick the bag, "
        "'toss' flips for it.",
        choices=("A", "B", "toss"),
        ruling="HM-R3",
    )
    strategy_dice: bool = option(
        True, "Each team may add its strategy die once per Up Call.", ruling="HM-R16"
    )
    ties: str = option(
        "offense",
        "Who wins a tied bid: 'offense' (a bid must be higher) or 'defense'.",
        choices=("offense", "defense"),
        ruling="HM-R12",
    )
    throw_path: str = option(
        "open",
        "Disc paths: 'open' (any path of open spaces; the engine picks the one passing "
        "fewest defenders) or 'straight' (straight lines only).",
        choices=("open", "straight"),
        ruling="HM-R9",
    )
    steer: bool = option(
        False,
        "The Handler steers the disc 'one space at a time' ('via e9' for each space it "
        "enters, to the stop he named) instead of the engine's quietest path; for open "
        "paths without a Hammer or beaten defenders (straight throws have one path).",
        ruling="HM-R9",
    )
    pickup: str = option(
        "strict",
        "Taking the loose disc: 'strict' (until claimed, every move must bring a player as "
        "close to the disc as the count allows) or 'free' (coaches' honour).",
        choices=("strict", "free"),
        ruling="HM-R6",
    )
    coach_rotation: str = option(
        "rulebook",
        "Four-coach games: 'rulebook' (offense switches coach at each catch, defense at each "
        "new defender) or 'every-action' (switch for every team action).",
        choices=("rulebook", "every-action"),
        ruling="HM-R28",
    )
    strategy_equipment: str = option(
        "dice",
        "Strategy equipment: 'dice' (the Starting 7 strategy dice), 'pin' (the shared Strategy "
        "Playmaker Pin, 18 outcomes) or 'game-disc' (each team's Strategy Game Disc: its own "
        "side's outcomes only).",
        choices=("dice", "pin", "game-disc"),
        ruling="HM-R39",
    )
    team_pins: bool = option(
        False,
        "Team Playmaker Pins (Chilly-O / Electric-D) replace the team dice: every count is a "
        "spin of 1..18.",
        ruling="HM-R38",
    )
    stealth_spaces: bool = option(
        False,
        "Midnight Pickup Stealth Spaces: +1 to the count of a player acting from one.",
        ruling="HM-R40",
    )
    all_stars: bool = option(
        False,
        "Mini Sideline kit: A1 and B1 are Sideline All-Stars, designated Handler on offense "
        "and designated Monster on defense, with their stats.",
        ruling="HM-R42",
    )
    hot_bid: str = option(
        "defense",
        "Hot Bid: 'defense' (the defender may re-roll his bid once) or 'both' (then the "
        "offense may re-roll its count too: 'Offensive team may choose to re-roll').",
        choices=("defense", "both"),
        ruling="HM-R18",
    )
    strip: str = option(
        "reroll",
        "Strip, 'a choice to re-roll Team Dice results, or to select the first roll count': "
        "'reroll' (keep the roll or re-roll; the second roll stands) or 'best' (re-roll and "
        "keep the better of the two counts).",
        choices=("reroll", "best"),
        ruling="HM-R18",
    )
    mark_waits: bool = option(
        False,
        "A Mark who also guards the catch (next to the disc's stop or the Receiver) waits "
        "and bids at the catch instead of on the throw, as an Intercept who guards it does.",
        ruling="HM-R11",
    )
    full_moves: bool = option(
        False,
        "Team moves go on 'until the full move count has been distributed': a team may not "
        "end its move with count left while a player can still move.",
        ruling="HM-R5",
    )
    up_move: str = option(
        "aim",
        "When the All-Star Monster may make his Up Move ('at any time during the offensive Up "
        "Call'): 'aim' (once the throw's path is known, before any bid) or 'any-time' (then "
        "again just before the catch if he has not moved yet).",
        choices=("aim", "any-time"),
        ruling="HM-R43",
    )
    hex_limit: str = option(
        "inside",
        "Hot Hex, 'Only one offensive players is allowed inside the hex per team move': "
        "'inside' (no offensive player moves into the hex while a teammate stands in it) or "
        "'per-move' (the card word for word: one offensive player may move into it per team "
        "move).",
        choices=("inside", "per-move"),
        ruling="HM-R52",
    )
    pin_dump: str = option(
        "this",
        "Pin Dump, 'the following Throw must be toward the offensive end zone': 'this' (the "
        "throw it is spun for, as the dice Dump) or 'next' (the team's next throw while it "
        "keeps the disc).",
        choices=("this", "next"),
        ruling="HM-R37",
    )
    expert_disabled: str = option(
        "",
        "Expert: strategy results the coaches rule out as impossible in real-world Ultimate, "
        "comma-separated (e.g. 'huck,hammer,pin-doink'); they count for nothing when rolled.",
        ruling="HM-R44",
    )
    potholes: bool = option(
        False,
        "Mini Cone kit, Pothole Markers: cones block spaces; each turnover the new defense "
        "adds a cone (up to 8), then moves one.",
        ruling="HM-R45",
    )
    hot_hex: bool = option(
        False,
        "Mini Cone kit, Hot Hex: 5 players a side; six cones in a hex at the centre ring the "
        "common scoring area; one offensive player inside it at a time; Callahans count.",
        ruling="HM-R51",
    )
    cone_push: bool = option(
        False,
        "Mini Cone kit, Cone Push: a match of its own, one player a side; throws of 3 dice "
        "push the 7 centre cones, 2 dice move; first to push 4 cones into the other end zone.",
        ruling="HM-R53",
    )
    style_each_point: bool = option(
        False,
        "Mini Cone kit: before each point's pull the receiving team chooses the game style "
        "('style standard', 'style pothole' or 'style hot-hex').",
        ruling="HM-R47",
    )
    callahans: bool = option(
        False,
        "Pro: an uncontested Intercept inside its own end zone scores (a Callahan).",
        ruling="HM-R32",
    )
    handler_pivot: bool = option(
        False,
        "Pro: after a catch the new Handler may pivot the disc to an open space beside him.",
        ruling="HM-R33",
    )
    rethrow: str = option(
        "off",
        "Pro: after a successful Intercept the new Handler rethrows at once, without team "
        "moves: 'uncontested' (The Rethrow: only an Intercept with no offensive player "
        "beside him), 'any' (the optional Intercept rethrow), or 'off'.",
        choices=("off", "uncontested", "any"),
        ruling="HM-R34",
    )
    beaten_defenders: bool = option(
        False,
        "Pro: the disc may pass over defenders it has beaten (never two side by side).",
        ruling="HM-R46",
    )
    double_team: bool = option(
        False,
        "Pro: several defenders may mark the Handler's disc; the Handler may call "
        "'double team' after the throw roll.",
        ruling="HM-R35",
    )
    continues: str = option(
        "off",
        "Pro: an unguarded offensive player next to the disc's path may Continue it: 'one-die' "
        "(the Up Call rule: 1 die added to the remaining count, rethrown at once from where he "
        "took it), 'rethrow' (The Rethrow: he catches without a roll and rethrows with 3 dice, "
        "a new Up Call without team moves, unless a team plays on) or 'off'.",
        choices=("off", "one-die", "rethrow"),
        ruling="HM-R48",
    )
    contested_count: bool = option(
        False,
        "Pro, 'extremely optional': a coach who Continues ('one-die') must state the "
        "remaining throw count from memory ('continue A3 5'); a wrong count stops the disc "
        "where he took it and the Up Call ends there.",
        ruling="HM-R50",
    )
    max_up_calls: int = option(
        0,
        "End the game after this many Up Calls (0: no limit); the higher score wins, level "
        "scores draw. Not a rulebook rule: a cap for simulations.",
        minimum=0,
        maximum=100_000,
        ruling="HM-R31",
    )

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "starting-7": {},
        "scrimmage": {"points_to_win": 3, "win_by": 2},
        "basic": {"strategy_dice": False},
        "straight-throws": {"throw_path": "straight"},
        "square-field": {"grid": "square"},
        "small": {"length": 13, "end_zone_depth": 2, "points_to_win": 3},
        "midnight-pickup": {"strategy_equipment": "pin", "stealth_spaces": True},
        "emergency-pickup": {"strategy_equipment": "pin", "team_pins": True},
        "game-disc": {"strategy_equipment": "game-disc"},
        "all-stars": {"all_stars": True},
        "pothole": {"potholes": True},
        "hot-hex": {"hot_hex": True},
        "cone-push": {"cone_push": True},
        "pro": {
            "callahans": True,
            "handler_pivot": True,
            "rethrow": "uncontested",
            "double_team": True,
            "beaten_defenders": True,
            "continues": "rethrow",
        },
        "pro-continue": {"continues": "one-die", "contested_count": True},
    }
    PRESET_DOCS: ClassVar[dict[str, str]] = {
        "starting-7": "The Starting 7 Pickup game: first to 7, with strategy dice.",
        "scrimmage": "The rulebook's short game: first to 3, win by two.",
        "basic": "Without strategy dice, for learning the Up Call.",
        "straight-throws": "Discs fly in straight lines only.",
        "square-field": "Square spaces with 8 neighbours instead of hexes.",
        "small": "A 13-row field with 2-row end zones, first to 3: a quick game.",
        "midnight-pickup": "The Midnight Pickup set: the Playmaker Pin pinned to the field "
        "stands in for the strategy dice, and the field has hidden Stealth Spaces.",
        "emergency-pickup": "The Emergency Pickup set: Playmaker Pins stand in for the "
        "strategy dice and for each team's dice.",
        "game-disc": "Strategy Game Discs stand in for the strategy dice.",
        "all-stars": "The Mini Sideline kit: a Sideline All-Star on each team (A1, B1).",
        "pothole": "The Mini Cone kit's Pothole Markers game: cones as obstacles.",
        "hot-hex": "The Mini Cone kit's Hot Hex game: 5 a side, score inside the centre hex.",
        "cone-push": "The Mini Cone kit's Cone Push match: push 4 cones into the other end zone.",
        "pro": "The Pro rules: Callahans, Handler Pivot, The Rethrow (for Intercepts and "
        "Continues), Double Team, Beaten Defenders.",
        "pro-continue": "The Continue as the Up Call describes it (1 extra die, same Up Call), "
        "with the contested count.",
    }

    @property
    def default_style(self) -> str:
        """The game style of a point unless the receiving team picks one (HM-R47)."""
        if self.cone_push:
            return "cone-push"
        return "pothole" if self.potholes else "hot-hex" if self.hot_hex else "standard"

    def can_draw(self) -> bool:
        """First to so many points never ends level; only the simulations' cap can
        (``max_up_calls``, HM-R31: level scores at the cap draw)."""
        return self.max_up_calls > 0

    def wins(self, mine: int, theirs: int) -> bool:
        """Whether a team with ``mine`` points against ``theirs`` has won (HM-R27)."""
        return mine >= self.points_to_win and mine - theirs >= self.win_by

    @property
    def disabled_outcomes(self) -> frozenset[str]:
        return _disabled(self.expert_disabled)  # asked at every strategy roll: parsed once

    def validate(self) -> None:
        from monsterball.games.huck_monster.matchup import (
            DARK_FACES,
            LIGHT_FACES,
            PIN_DARK,
            PIN_LIGHT,
        )

        known = set(LIGHT_FACES + DARK_FACES + PIN_LIGHT + PIN_DARK)
        unknown = sorted(self.disabled_outcomes - known)
        if unknown:
            raise OptionsError(
                f"option 'expert_disabled' names unknown outcome(s) {', '.join(unknown)}; "
                f"known: {', '.join(sorted(known))}"
            )
        games = [n for n in ("potholes", "hot_hex", "cone_push") if getattr(self, n)]
        if len(games) > 1:
            raise OptionsError(
                f"options {' and '.join(repr(g) for g in games)} are different Mini Cone games: "
                "pick one (style_each_point lets the receiving team switch between the first two)"
            )
        if self.cone_push and self.style_each_point:
            raise OptionsError(
                "Cone Push is a match of its own, not the style of a point: it cannot be "
                "combined with 'style_each_point' (HM-R53)"
            )
        if self.length < 2 * self.end_zone_depth + 5:
            raise OptionsError(
                f"length {self.length} leaves too little field between two end zones of "
                f"{self.end_zone_depth} rows (need at least {2 * self.end_zone_depth + 5})"
            )


@cache
def _disabled(text: str) -> frozenset[str]:
    return frozenset(n.strip() for n in text.split(",") if n.strip())
