"""A drawing of a position in one format shared by every game, for UIs (docs/web.md).

The rules speak in states; a UI wants "a field of this shape, these zones and lines, these
pieces here, the ball there". Each game builds this picture from what a seat may *see*
(its ``view``), so a drawing can never leak hidden information that the view does not. The web
client draws any game from it without knowing the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, TypedDict

from monsterball.core.geometry import Grid


class Piece(TypedDict):
    id: str  # the name actions use ("A3")
    team: str  # seat name ("A" / "B")
    cell: str  # cell name ("e7")
    label: str  # short text drawn on the piece
    title: str  # longer text shown on hover
    size: float  # relative radius, 1.0 = a normal piece
    flags: list[str]  # e.g. "holder", "out", "hidden", "receiver", "bidder"


class Mark(TypedDict):
    cell: str
    kind: str  # "cone", "stealth", "pothole", "path", "image", "vanished", "punt"


class Zone(TypedDict):
    rows: list[int]  # first and last row (0-based, inclusive)
    kind: str  # "end-zone"
    team: str  # the seat defending it
    label: str


class Board(TypedDict):
    grid: Literal["square", "hex"]
    cols: int
    rows: int
    zones: list[Zone]
    lines: list[int]  # rows drawn as a line across the field
    row_labels: dict[str, str]  # row index -> label drawn at the side (yard lines)
    hash_cols: list[int]  # columns drawn as hash marks
    pieces: list[Piece]
    ball: dict[str, Any] | None  # {"cell": name, "kind": "disc" | "ball", "held": bool}
    marks: list[Mark]
    panel: list[list[str]]  # [label, value] or [label, value, hint] rows for the side panel
    tip: str  # what the side to act needs told in plain words about this position ("": nothing)
    teams: dict[str, str]  # seat name -> which end it attacks ("north" / "south")


def piece(
    id: str,
    team: str,
    cell: str,
    *,
    label: str | None = None,
    title: str = "",
    size: float = 1.0,
    flags: Iterable[str] = (),
) -> Piece:
    return {
        "id": id,
        "team": team,
        "cell": cell,
        "label": label if label is not None else id[1:],
        "title": title or id,
        "size": size,
        "flags": list(flags),
    }


def marks(kind: str, cells: Iterable[str]) -> list[Mark]:
    return [{"cell": c, "kind": kind} for c in cells]


def end_zones(depth: int, rows: int, north_team: str, other_team: str) -> list[Zone]:
    """End zones of ``depth`` rows at both ends; ``north_team`` attacks north, so it defends
    the south zone."""
    return [
        {"rows": [0, depth - 1], "kind": "end-zone", "team": north_team, "label": north_team},
        {
            "rows": [rows - depth, rows - 1],
            "kind": "end-zone",
            "team": other_team,
            "label": other_team,
        },
    ]


def cell_names(grid: Grid, mask: int) -> list[str]:
    return [grid.name(c) for c in range(grid.size) if mask >> c & 1]


def board(
    *,
    grid: Literal["square", "hex"],
    cols: int,
    rows: int,
    zones: Sequence[Zone],
    pieces: Sequence[Piece],
    ball: dict[str, Any] | None,
    panel: Sequence[Sequence[str]],
    north_team: str,
    seat_names: Sequence[str] = ("A", "B"),
    lines: Sequence[int] = (),
    row_labels: dict[int, str] | None = None,
    hash_cols: Sequence[int] = (),
    board_marks: Sequence[Mark] = (),
    tip: str = "",
) -> Board:
    return {
        "grid": grid,
        "cols": cols,
        "rows": rows,
        "zones": list(zones),
        "lines": list(lines),
        "row_labels": {str(r): text for r, text in (row_labels or {}).items()},
        "hash_cols": list(hash_cols),
        "pieces": list(pieces),
        "ball": ball,
        "marks": list(board_marks),
        "panel": [list(row) for row in panel],
        "tip": tip,
        "teams": {name: ("north" if name == north_team else "south") for name in seat_names},
    }
