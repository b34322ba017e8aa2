"""Text rendering of a Huck + Monster state: a pure function of the state."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from monsterball.core.game import CHANCE, TERMINAL
from monsterball.core.geometry import COLUMN_LETTERS, iter_bits
from monsterball.games.huck_monster.actions import player_name
from monsterball.games.huck_monster.options import TEAM_NAMES

if TYPE_CHECKING:
    from monsterball.games.huck_monster.state import HuckMonsterState


def render_text(state: HuckMonsterState) -> str:
    """North at the top; on a hex field odd rows are drawn half a space to the right.
    ``A1`` a player, ``A1*`` the Handler, ``()`` the disc, ``::`` an empty end-zone space,
    ``=`` a line space, ``..`` an empty field space, ``~~`` the disc's path in the air,
    ``/\\`` a cone (``/3`` a stack of 3), ``**`` a Stealth Space."""
    opts = state.options
    width = opts.width
    hexes = opts.grid == "hex"
    zones = state.any_end_zone()
    lines_rows = {state.line_row(0), state.line_row(1)}
    # What stands on a space, written from the least to the most visible, so that each
    # space shows the most visible: player, disc, path, cone stack, cone, Stealth Space.
    shown: dict[int, str] = {c: "** " for c in iter_bits(state.stealth)}
    shown.update((c, "/\\ ") for c in iter_bits(state.cones))
    shown.update((c, f"/{n} ") for c, n in state.cone_stacks.items())  # a Cone Push stack
    if state.path:
        shown.update((c, "~~ ") for c in state.path[state.progress + 1 :])
    if state.disc >= 0:
        shown[state.disc] = "() "
    for p, c in enumerate(state.pos):
        if c >= 0:
            shown[c] = player_name(p) + ("*" if p == state.holder else " ")
    north = TEAM_NAMES[1 - state.north_team]
    south = TEAM_NAMES[state.north_team]
    out = [f"      north end zone: team {north} defends"]
    tokens = list(_background(width, opts.length, zones, tuple(sorted(lines_rows))))
    size = len(tokens)
    for c, token in shown.items():
        if 0 <= c < size:
            tokens[c] = token
    for row in range(opts.length - 1, -1, -1):
        cells = tokens[row * width : (row + 1) * width]
        indent = " " if hexes and row % 2 else ""
        out.append(f"{row + 1:>3}  {indent}" + "".join(cells))
        if row in (opts.end_zone_depth, opts.length - opts.end_zone_depth):
            out.append("     " + "---" * opts.width)
    out.append("     " + "".join(f" {COLUMN_LETTERS[c]} " for c in range(opts.width)))
    out.append(f"      south end zone: team {south} defends")
    a, b = state.score
    if state.style == "cone-push":
        out.append(f"Cones A {a} - B {b} (to 4) | team {TEAM_NAMES[state.offense]}'s turn")
    else:
        out.append(
            f"Score A {a} - B {b} (to {opts.points_to_win}"
            + (", win by 2" if opts.win_by == 2 else "")
            + f") | offense: {TEAM_NAMES[state.offense]} | Up Call {state.up_calls}"
        )
    out.append(_up_call_line(state))
    to_act = state.current_player()
    if to_act == TERMINAL:
        out.append(state.result_text())
    elif to_act == CHANCE:
        out.append(f"dice: {state.stack[-1].describe()}")
    else:
        out.append(f"team {TEAM_NAMES[to_act]} to act: {state.stack[-1].describe()}")
    return "\n".join(out)


@lru_cache(maxsize=256)
def _background(
    width: int, length: int, zones: int, lines_rows: tuple[int, ...]
) -> tuple[str, ...]:
    """Every space's token when nothing stands on it: line, end zone or field."""
    return tuple(
        "== " if c // width in lines_rows else ":: " if zones >> c & 1 else ".. "
        for c in range(width * length)
    )


def _up_call_line(state: HuckMonsterState) -> str:
    used = [TEAM_NAMES[t] for t in (0, 1) if state.strategy_used[t]]
    parts = []
    if state.action:
        count = f"{state.action} count {state.base}"
        if state.light:
            count += f" + {state.light}"
        if state.halved:
            count += " (halved)"
        parts.append(count)
    if state.receiver >= 0:
        parts.append(f"to {player_name(state.receiver)}")
    parts.append("strategy used: " + (", ".join(used) if used else "none"))
    return " | ".join(parts)
