"""Paper Ultimate drawn in the shared board format (:mod:`monsterball.core.board`)."""

from __future__ import annotations

from monsterball.core import board as b
from monsterball.core.game import GameState


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
    )
