"""Huck + Monster's field layout: the teams' numbering, where each kit's cones and the
Stealth Spaces start, and the path searches the throw uses. Pure functions of the options and
the field, below the state.

Imports: core and this game's ``options``.
"""

from __future__ import annotations

from monsterball.core.geometry import Grid
from monsterball.games.huck_monster.options import PLAYERS_PER_TEAM, HuckMonsterOptions


def team_of(player: int) -> int:
    return player // PLAYERS_PER_TEAM


def team_players(team: int) -> range:
    if 0 <= team < 2:
        return _TEAM_PLAYERS[team]  # built once: this is called in every hot loop
    return range(team * PLAYERS_PER_TEAM, (team + 1) * PLAYERS_PER_TEAM)


_TEAM_PLAYERS = tuple(range(t * PLAYERS_PER_TEAM, (t + 1) * PLAYERS_PER_TEAM) for t in (0, 1))


CONE_PUSH_CONES = 7  # "Place 7 cones along the center line"
CONE_PUSH_TARGET = 4  # "Win the match by pushing 4 cones into your opponent's end zone"
MAX_CONES = 8  # "The 8 mini cones in the Mini Cone Gamekit"


def stealth_spaces(field: Grid, options: HuckMonsterOptions) -> int:
    """HM-STEALTH-1 / HM-R40: the Midnight field's darker spaces. Their places are not
    published; the default pattern is two staggered rows of 4, a third of the way in from each
    line, the same when the field is turned round (teams switch ends)."""
    depth, length, width = options.end_zone_depth, options.length, options.width
    first = depth + (length - 2 * depth) // 3
    last = length - 1 - first
    mask = 0
    for col in range(1, width, 2):
        mask |= 1 << field.cell(col, first)
        mask |= 1 << field.cell(width - 1 - col, last)
    return mask


def pothole_start(field: Grid, options: HuckMonsterOptions) -> int:
    """HM-CONE-1 / HM-R45: the "orange end zone positions" are not published; the engine puts
    one cone in each back corner of both end zones (4 cones), clear of the lines (none when the
    end zones are a single row)."""
    if options.end_zone_depth < 2:
        return 0  # one-row end zones are all line: no corner is free of the line-up
    last_row, last_col = options.length - 1, options.width - 1
    corners = ((0, 0), (last_col, 0), (0, last_row), (last_col, last_row))
    return sum(1 << field.cell(c, r) for c, r in corners)


def hot_hex(field: Grid, options: HuckMonsterOptions) -> tuple[int, int]:
    """HM-KIT-1 / HM-R51: Hot Hex's six cones "in the center of the board in the shape of a
    hex ... with one space between each point": the corners of the ring 2 spaces from the
    centre space (on a square field, the 6 corners that are not straight ahead or behind).
    The scoring area is inside the ring: the centre and its neighbours. Returns (cones, zone)."""
    centre = field.cell(options.width // 2, options.length // 2)
    rays = field.rays[centre]
    if options.grid == "square":
        # 8 directions: drop the two straight up and down the field (same column)
        col = options.width // 2
        rays = tuple(r for r in rays if not r or field.coords(r[0])[0] != col)
    cones = 0
    for ray in rays:
        if len(ray) >= 2:
            cones |= 1 << ray[1]
    zone = field.neighbour_mask[centre] | 1 << centre
    return cones, zone


def cone_push_start(field: Grid, options: HuckMonsterOptions) -> int:
    """HM-KIT-4 / HM-R54: the 7 cones on the centre row, centred (on an even width the last
    space is left open)."""
    row = options.length // 2
    first = (options.width - CONE_PUSH_CONES) // 2
    return sum(1 << field.cell(first + i, row) for i in range(CONE_PUSH_CONES))
