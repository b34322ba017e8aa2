"""The draft panels the pages draw (``spec.views``): the draft chart, what each team has
drafted and every drafted player's type (public: both coaches see the draft screen), and
what a learner drafting now may still afford. What each type is good at is the lessons
data's words (``good_at`` in this game's data/lessons.json).

Imports: core and this game's modules.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from monsterball.core.game import GameState
from monsterball.games.midway.actions import player_name
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.draft import Draft, affordable, draft_left
from monsterball.games.midway.state import MidwayState


@cache
def good_at() -> dict[str, str]:
    source = resources.files("monsterball.games.midway").joinpath("data/lessons.json")
    data = json.loads(source.read_text("utf-8"))
    return dict(data.get("good_at", {}))


def roster(state: GameState) -> dict[str, Any]:
    """The draft chart, each team's picks and points left, and every drafted player's type."""
    assert isinstance(state, MidwayState)
    chart = state.chart
    words = good_at()
    top = state.stack[-1] if state.stack else None
    team = top.team if isinstance(top, Draft) else None
    ok = set(affordable(state, team)) if team is not None else set()
    per_team = chart.team_size
    teams = []
    for side, name in enumerate(TEAM_NAMES):
        slots, points = draft_left(state, side)
        picked = [k for k in state.roster[side * per_team : (side + 1) * per_team] if k]
        teams.append({"team": name, "slots": slots, "points": points, "picked": picked})
    return {
        "drafting": TEAM_NAMES[team] if team is not None else None,
        "max_points": chart.max_points,
        "types": [
            {
                "type": name,
                "points": row.points,
                "mv": row.mv,
                "size": row.size,
                "qb": row.qb_range,
                "rec": row.rec_mod,
                "magic": row.magic,
                "affordable": name in ok,
                "good_at": words.get(name, ""),
            }
            for name, row in ((n, chart.types[n]) for n in chart.names)
        ],
        "teams": teams,
        "players": {player_name(p): kind for p, kind in enumerate(state.roster) if kind},
    }


def draft_help(state: GameState, seat: int) -> dict[str, Any] | None:
    """While ``seat`` drafts: its points and picks left, and what each type it may still
    afford is good at, cheapest first (None when it does not draft now)."""
    panel = roster(state)
    if panel["drafting"] != state.spec.seat_name(seat):
        return None
    team = panel["teams"][seat]
    types = sorted(panel["types"], key=lambda t: (t["points"], t["type"]))
    return {
        "points": team["points"],
        "slots": team["slots"],
        "max_points": panel["max_points"],
        "types": [
            {"type": t["type"], "points": t["points"], "good_at": t["good_at"]}
            for t in types
            if t["affordable"]
        ],
    }
