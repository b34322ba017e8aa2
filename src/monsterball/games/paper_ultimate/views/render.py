"""Text rendering of a Paper Ultimate state: a pure function of the state."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from monsterball.core.game import CHANCE, TERMINAL
from monsterball.core.geometry import COLUMN_LETTERS
from monsterball.games.paper_ultimate.actions import player_name
from monsterball.games.paper_ultimate.options import TEAM_NAMES

if TYPE_CHECKING:
    from monsterball.games.paper_ultimate.state import PaperUltimateState


def render_text(state: PaperUltimateState) -> str:
    """North at the top. ``A1`` a player, ``A1*`` the player holding the disc, ``()`` the
    disc on the ground, ``:`` an empty end-zone field, ``.`` an empty field."""
    opts = state.options
    width = opts.width
    zones = state.end_zone(state.north_team) | state.end_zone(1 - state.north_team)
    shown: dict[int, str] = {}  # the disc, then the players over it
    if state.disc >= 0:
        shown[state.disc] = "() "
    for p, c in enumerate(state.pos):
        if c >= 0:
            shown[c] = player_name(p) + ("*" if p == state.holder else " ")
    lines = []
    north = TEAM_NAMES[1 - state.north_team]
    south = TEAM_NAMES[state.north_team]
    lines.append(f"     north end zone: team {north} defends")
    tokens = list(_background(width, opts.length, zones))
    size = len(tokens)
    for c, token in shown.items():
        if 0 <= c < size:
            tokens[c] = token
    for row in range(opts.length - 1, -1, -1):
        cells = tokens[row * width : (row + 1) * width]
        lines.append(f"{row + 1:>3} " + "".join(cells))
        if row in (opts.end_zone_depth, opts.length - opts.end_zone_depth):
            lines.append("    " + "===" * opts.width)
    lines.append("    " + "".join(f" {COLUMN_LETTERS[c]} " for c in range(opts.width)))
    lines.append(f"     south end zone: team {south} defends")
    a, b = state.score
    to_act = state.current_player()
    if to_act == TERMINAL:
        status = state.result_text()
    elif to_act == CHANCE:
        status = f"chance: {state.stack[-1].describe()}"
    else:
        status = f"team {TEAM_NAMES[to_act]} to act: {state.stack[-1].describe()}"
    lines.append(
        f"Score A {a} - B {b} (to {opts.points_to_win}) | offense: "
        f"{TEAM_NAMES[state.offense]} | throws: {state.throws}"
    )
    lines.append(status)
    return "\n".join(lines)


@lru_cache(maxsize=64)
def _background(width: int, length: int, zones: int) -> tuple[str, ...]:
    """Every field's token when nobody stands on it: end zone or field."""
    return tuple(" : " if zones >> c & 1 else " . " for c in range(width * length))
