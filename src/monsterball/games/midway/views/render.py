"""Text picture of a Midway position as one seat may see it.

Each hex is two characters: a counter is its team letter and number (``A3``; ``A0`` is
A10), the ball carrier's number is replaced by ``*``; ``()`` is a ball nobody holds, ``--``
the line of a punt in the air, ``??`` a mirror-image counter the seat cannot identify,
``im`` one of its own images, ``[]`` where an opposing player turned invisible; ``~~`` end
zones, ``:`` the hash-mark columns. Rows are numbered on the left, yard lines on the right.
A line under the score names the carrier whose ``*`` the field shows (when the seat sees
him). Sizes and speeds are listed under the field.
"""

from __future__ import annotations

from functools import cache

from monsterball.games.midway.actions import NUM_PLAYERS, player_name
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.draft import affordable, draft_left
from monsterball.games.midway.state import MidwayState, team_of


def render_text(state: MidwayState, seat: int | None) -> str:
    if state.stack and type(state.stack[-1]).__name__ in ("Draft", "DraftRandom"):
        return draft_screen(state)
    f = state.field
    hidden = state.hidden_from(seat)
    cells: dict[int, str] = {}
    if state.ball_state == "punt":
        for name in state.punt_line():
            cells[f.parse_cell(name)] = "--"  # the punt's announced line
    for c in state.images:
        cells[c] = "??" if state.caster in hidden else "im"
    if state.caster >= 0 and state.caster in hidden:
        cells[state.pos[state.caster]] = "??"
    if state.invisible >= 0 and state.invisible in hidden and state.vanish >= 0:
        cells[state.vanish] = "[]"  # the blank counter where he vanished (MW-MAGIC-7)
    for p in range(NUM_PLAYERS):
        where = state.pos[p]
        if where < 0 or p in hidden:
            continue
        num = p % 10 + 1
        tag = TEAM_NAMES[team_of(p)] + (str(num) if num < 10 else "0")
        cells[where] = tag
    width = f.width
    by_row: dict[int, list[tuple[int, str]]] = {}
    for cell, text in cells.items():
        r, c = divmod(cell, width)
        by_row.setdefault(r, []).append((c, text))
    ball, seen = state.ball, state.carrier not in hidden
    lines = []
    for r in range(f.height - 1, -1, -1):
        indent = " " if r % 2 else ""
        background = _background(width, state.in_end_zone(r))
        row = list(background)
        for c, text in by_row.get(r, ()):
            row[c] = text
        if ball >= 0 and ball // width == r:
            c = ball - r * width
            on_ball = cells.get(ball)
            if on_ball is None or on_ball == "--":  # the punt itself outranks its line
                row[c] = "()" if seen else background[c]
            elif state.carrier >= 0 and seen:
                row[c] = on_ball[0] + "*"
        lines.append(f"{r + 1:>2} {indent}{' '.join(row)}{'' if r % 2 else ' '} {yard_label(r)}")
    letters = "  ".join(chr(ord("a") + c) for c in range(f.width))
    lines.append(f"   {letters}")
    a, b = state.score
    step = state.stack[-1].describe() if state.stack else "game over"
    lines.append(
        f"Score A {a} - B {b}   play {state.plays}/{state.options.plays}   "
        f"down {state.down}   offense {TEAM_NAMES[state.offense]}   "
        f"wind: {TEAM_NAMES[state.north_team]} (defends north)   now: {step}"
    )
    if state.carrier >= 0 and seen:  # a two-character hex shows 'A*': say whose '*' it is
        carrier = player_name(state.carrier)
        lines.append(f"{carrier[0]}* on the field: {carrier} carries the ball.")
    roster = []
    for t in (0, 1):
        names = []
        for p in range(t * 10, t * 10 + 10):
            if state.roster[p]:
                ty = state.mtype(p)
                flag = "" if state.available(p) else " (out)"
                names.append(f"{player_name(p)} {state.kind_of(p)} {ty.size}{ty.mv}{flag}")
        if names:
            roster.append(f"{TEAM_NAMES[t]}: " + ", ".join(names))
    return "\n".join(lines + roster)


@cache
def _background(width: int, end_zone: bool) -> tuple[str, ...]:
    """A row's empty hexes: end zone, or the field with its two hash-mark columns."""
    if end_zone:
        return ("~~",) * width
    return tuple(": " if c in (1, width - 2) else ". " for c in range(width))


@cache
def yard_label(row: int) -> str:
    """The yard line at the north edge of a row (G: goal line, EZ: end zone)."""
    if row <= 1 or row >= 22:
        return "EZ"
    y = 5 * (row - 1)
    return "G" if y == 100 else str(min(y, 100 - y))


def draft_screen(state: MidwayState) -> str:
    """The draft: the chart, each team so far, and the points and places left."""
    chart = state.chart
    team = state.stack[-1].team  # type: ignore[attr-defined]
    lines = [
        f"Draft chart ({chart.team_size} players, at most {chart.max_points} points; "
        "house rows are a reconstruction, ruling MW-R1)",
        "  type          pts  mv size qb  rec  magic",
    ]
    ok = set(affordable(state, team))
    for name in chart.names:
        row = chart.types[name]
        mark = " " if name in ok else "x"
        lines.append(
            f"{mark} {name:<13} {row.points:>3}  {row.mv:>2}  {row.size}  {row.qb_range:>2}  "
            f"{row.rec_mod:+d}  {row.magic}"
        )
    for side in (0, 1):
        slots, points = draft_left(state, side)
        picked = [state.roster[p] for p in range(side * 10, side * 10 + 10) if state.roster[p]]
        lines.append(
            f"Team {TEAM_NAMES[side]}: {', '.join(picked) or '-'}  ({slots} to pick, "
            f"{points} points left)"
        )
    lines.append(
        f"Team {TEAM_NAMES[team]} to pick: 'draft orc', 'draft best', 'draft random' "
        "(x: would leave too few points)"
    )
    return "\n".join(lines)
