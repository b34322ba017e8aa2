"""Options of Paper Ultimate. Every gap in the rulebook that players could settle either way is
an option here, with the ruling id that explains the default (docs/rules/paper-ultimate.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from monsterball.core.options import GameOptions, option

TEAM_NAMES = ("A", "B")


@dataclass(frozen=True, kw_only=True)
class PaperUltimateOptions(GameOptions):
    """Options for Paper Ultimate (rulebook 001)."""

    width: int = option(9, "Pitch width in boxes (rulebook: 9).", minimum=5, maximum=26)
    length: int = option(18, "Pitch length in boxes (rulebook: 18).", minimum=10, maximum=40)
    end_zone_depth: int = option(
        2,
        "Rows in each end zone (the rulebook leaves it open).",
        minimum=1,
        maximum=4,
        ruling="PU-R1",
    )
    points_to_win: int = option(
        5,
        "Points that win the game (the rulebook leaves it open).",
        minimum=1,
        maximum=99,
        ruling="PU-R3",
    )
    run_distance: int = option(
        4, "Fields each player may run per step (rulebook: 0 to 4).", minimum=1, maximum=8
    )
    run_through_players: bool = option(
        False,
        "Runners may pass through occupied fields (they never stop on one).",
        ruling="PU-R4",
    )
    monster_defense: str = option(
        "die",
        "The 'monster Defense' rule: 'die' (1 or 6 is a turn), 'coins' (two heads is a "
        "turn) or 'off' (the rulebook suggests omitting it as a variant).",
        choices=("die", "coins", "off"),
        ruling="PU-R8",
    )
    turn_pickup: str = option(
        "nearest",
        "Who gets the disc on a turn: 'nearest' defender to the disc (ties: the new "
        "offense chooses) or 'any' player the new offense chooses.",
        choices=("nearest", "any"),
        ruling="PU-R5",
    )
    first_receiver: str = option(
        "toss",
        "Which team receives the first pull: 'toss' (a coin flip), 'A' or 'B'.",
        choices=("toss", "A", "B"),
        ruling="PU-R7",
    )
    switch_ends: bool = option(
        True, "Teams switch ends after each point, as in Ultimate.", ruling="PU-R9"
    )
    catch_markers: str = option(
        "stay",
        "Defenders next to a player who catches (or picks up) the disc: 'stay' (they may "
        "remain) or 'depart' (as after a turn, the surplus markers leave at the next step).",
        choices=("stay", "depart"),
        ruling="PU-R11",
    )
    pull_stall: int = option(
        3,
        "Offensive running steps a pulled disc may lie loose; after that many it is a stall "
        "and the pulling team's nearest player takes it (0: no limit).",
        minimum=0,
        maximum=50,
        ruling="PU-R14",
    )
    max_throws: int = option(
        0,
        "End the game after this many throws (0: no limit); the higher score wins, "
        "level scores draw. Not a rulebook rule: a cap for simulations.",
        minimum=0,
        maximum=100_000,
        ruling="PU-R10",
    )

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        "no-monster": {"monster_defense": "off"},
        "coins": {"monster_defense": "coins"},
        "quick": {"points_to_win": 3},
        "open-field": {"run_through_players": True, "turn_pickup": "any"},
        "small": {"width": 7, "length": 14, "points_to_win": 3},
    }

    def can_draw(self) -> bool:
        """First to so many points never ends level; only the simulations' cap can
        (``max_throws``, PU-R10: level scores at the cap draw)."""
        return self.max_throws > 0

    PRESET_DOCS: ClassVar[dict[str, str]] = {
        "standard": "The rulebook's game: first to 5, with the monster-defence die.",
        "no-monster": "Without the monster-defence die: a throw is only stopped by the "
        "defenders in its way.",
        "coins": "The monster defence with two coins instead of a die (two heads: the "
        "throw is lost).",
        "quick": "The standard game, first to 3 points.",
        "open-field": "Runners may pass through occupied boxes, and after a turnover the new "
        "offence picks who takes the disc.",
        "small": "A 7 x 14 pitch, first to 3: a quick game, good for a first try.",
    }
