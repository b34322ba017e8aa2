"""The rulebook's tables as data: the draft chart (a replaceable JSON file, ruling MW-R1),
the blocking/tackling results (rows 6..9 reconstructed, MW-R2), size modifiers, fumble
recovery, field goal range and pass reception.

Each table names the rulebook section it comes from; nothing here has any state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

SIZES = ("S", "M", "L", "G")


@dataclass(frozen=True, slots=True)
class MonsterType:
    """One row of the draft chart."""

    name: str
    points: int
    mv: int
    size: str
    qb_range: int
    rec_mod: int
    magic: str
    were_mv: int = 0
    were_size: str = ""


@dataclass(frozen=True, slots=True)
class DraftChart:
    types: dict[str, MonsterType]
    team_size: int
    max_points: int
    change_self_into: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self.types))

    def cheapest(self) -> int:
        return min(t.points for t in self.types.values())


def parse_chart(data: dict[str, Any]) -> DraftChart:
    """Read chart data, checking every row (a replaced file gets a clear error)."""
    types: dict[str, MonsterType] = {}
    for name, row in data["types"].items():
        size = row["size"]
        if size not in SIZES:
            raise ValueError(f"draft chart: {name} has size {size!r}, not one of S M L G")
        were = row.get("were_form") or {}
        types[name] = MonsterType(
            name=name,
            points=int(row["points"]),
            mv=int(row["mv"]),
            size=size,
            qb_range=int(row["qb_range"]),
            rec_mod=int(row["rec_mod"] or 0),
            magic=str(row.get("magic") or ""),
            were_mv=int(were.get("mv", 0)),
            were_size=str(were.get("size", "")),
        )
    into = tuple(data.get("change_self_into", ()))
    for name in into:
        if name not in types:
            raise ValueError(f"draft chart: change-self form {name!r} is not a chart row")
    return DraftChart(types, int(data["team_size"]), int(data["max_points"]), into)


@cache
def default_chart() -> DraftChart:
    text = resources.files("monsterball.games.midway").joinpath("data/draft_chart.json")
    return parse_chart(json.loads(text.read_text(encoding="utf-8")))


def load_chart(path: str | Path) -> DraftChart:
    return parse_chart(json.loads(Path(path).read_text(encoding="utf-8")))


# -- Blocking and Tackling Results (rows -2..5 printed; 6..9 ruling MW-R2) ---------------------

BLOCK_RESULTS = {
    -2: "blocker injured for game",
    -1: "blocker injured for next play",
    0: "blocker defeated",
    1: "blocker defeated",
    2: "blocker defeated",
    3: "neutralize",
    4: "neutralize",
    5: "neutralize",
    6: "successful block",
    7: "successful block",
    8: "defender injured for next play",
    9: "defender injured for game",
}

TACKLE_RESULTS = {
    -2: "ball carrier injured for game",
    -1: "ball carrier injured for next play",
    0: "ball carrier tackled",
    1: "ball carrier tackled",
    2: "ball carrier tackled",
    3: "ball carrier tackled",
    4: "ball carrier slowed (-2)",
    5: "ball carrier slowed (-1)",
    6: "miss",
    7: "miss",
    8: "tackler injured for next play",
    9: "tackler injured for game",
}


def clamp_roll(value: int) -> int:
    """Modified rolls beyond the table's ends read the end rows (a treant's extra -1 can
    reach -3)."""
    return max(-2, min(9, value))


def size_modifier(offense: str, defense: str) -> int:
    """Size Modifiers chart: offense down the left, defense across the top."""
    return SIZES.index(offense) - SIZES.index(defense)


# -- Fumble Recovery Table ----------------------------------------------------------------------


def recovery_target(players_in_hex: int) -> int:
    """Highest d6 roll that recovers, by players in the hex (1: 1-5 ... 5+: 1)."""
    return max(1, 6 - max(1, players_in_hex))


# -- Field Goal Success -------------------------------------------------------------------------


def field_goal_target(distance: int) -> int:
    """Highest d6 roll that makes a kick of ``distance`` hexes; 0 when out of range."""
    if distance < 3:
        distance = 3  # closer than the chart starts: read the 3-4 row
    if distance > 12:
        return 0
    return {3: 5, 4: 5, 5: 4, 6: 4, 7: 3, 8: 3, 9: 2, 10: 2, 11: 1, 12: 1}[distance]


# -- Pass Reception (or Interception) -----------------------------------------------------------


def reception_target(opponents: int) -> int:
    """Highest d6 roll that catches, by opponents in the hex (0: 1-4 ... 3+: 1)."""
    return max(1, 4 - opponents)
