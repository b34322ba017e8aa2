"""Paper Ultimate drawn in the shared board format (:mod:`monsterball.core.board`)."""

from __future__ import annotations

from typing import Any, cast

from monsterball.core import board as b
from monsterball.core.game import GameState
from monsterball.games.paper_ultimate.options import TEAM_NAMES, PaperUltimateOptions
from monsterball.games.paper_ultimate.rules.running import Running


def board_view(state: GameState, seat: int | None = None) -> b.Board:
    view = state.view(seat)
    north = view["north_team"]
    south = "B" if north == "A" else "A"
    holder = view["holder"]
    pieces = [
        b.piece(
            name,
            name[0],
            cell,
            title=f"{name}" + (" (holds the disc)" if name == holder else ""),
            flags=["holder"] if name == holder else [],
        )
        for name, cell in view["players"].items()
        if cell is not None
    ]
    disc = view["disc"]
    score = view["score"]
    return b.board(
        grid="square",
        cols=view["width"],
        rows=view["length"],
        zones=b.end_zones(view["end_zone_depth"], view["length"], north, south),
        pieces=pieces,
        ball={"cell": disc, "kind": "disc", "held": holder is not None} if disc else None,
        panel=[
            ["Score", f"A {score['A']} - B {score['B']}"],
            ["Offense", view["offense"]],
            ["Throws", str(view["throws"])],
            ["Now", view["step"]],
        ],
        north_team=north,
        tip=_tip(state, view),
    )


def _tip(state: GameState, view: dict[str, Any]) -> str:
    """A loose disc is picked up by running onto it (PU-RUN-1): nothing else on the page says
    so, and a newcomer who runs away from it stalls the pull (issue 33)."""
    step = state.stack[-1] if state.stack else None
    disc = view["disc"]
    if not isinstance(step, Running) or view["holder"] is not None or disc is None:
        return ""
    offense = view["offense"]
    if TEAM_NAMES[step.team] == offense:
        reach = cast(PaperUltimateOptions, state.options).run_distance
        return (
            f"The disc is loose on {disc}: run a team {offense} player onto it to pick it up "
            f"(a player up to {reach} fields away can reach it)."
        )
    return (
        f"The disc is loose on {disc}: only team {offense} may pick it up, by running onto it. "
        "Run your players to where they can mark."
    )
