"""Monsters of the Midway drawn in the shared board format (:mod:`monsterball.core.board`).

Built from ``view(seat)`` only, so a hidden caster or invisible player is drawn exactly as the
seat may see it: images as unidentified counters, the vanishing hex as a blank counter.
"""

from __future__ import annotations

from monsterball.core import board as b
from monsterball.core.game import GameState
from monsterball.games.midway.views.render import yard_label

SIZE_RADIUS = {"S": 0.75, "M": 0.9, "L": 1.05, "G": 1.2}
END_ZONE_DEPTH = 2


def board_view(state: GameState, seat: int | None = None) -> b.Board:
    view = state.view(seat)
    north_defender = view["north_team"]
    attacks_north = "B" if north_defender == "A" else "A"
    carrier = view["carrier"]
    pieces = []
    for name, info in view["players"].items():
        if info["hex"] is None:
            continue
        flags = [flag for flag, on in (("holder", name == carrier), ("out", info["out"])) if on]
        pieces.append(
            b.piece(
                name,
                name[0],
                info["hex"],
                title=f"{name} {info['type']} (size {info['size']}, move {info['mv']})",
                size=SIZE_RADIUS.get(info["size"], 1.0),
                flags=flags,
            )
        )
    marks = b.marks("image", view["counters"]) + b.marks("punt", view["punt_line"])
    if view["vanished_at"]:
        marks += b.marks("vanished", [view["vanished_at"]])
    ball = view["ball"]
    rows = view["length"]
    score = view["score"]
    return b.board(
        grid="hex",
        cols=view["width"],
        rows=rows,
        zones=b.end_zones(END_ZONE_DEPTH, rows, attacks_north, north_defender),
        row_labels={r: yard_label(r) for r in range(END_ZONE_DEPTH, rows - END_ZONE_DEPTH)},
        hash_cols=[1, view["width"] - 2],
        pieces=pieces,
        ball=(
            {"cell": ball, "kind": "ball", "held": carrier is not None}
            if ball and ball != "hidden"
            else None
        ),
        panel=[
            ["Score", f"A {score['A']} - B {score['B']}"],
            ["Offense", view["offense"]],
            ["Down", str(view["down"])],
            ["Play", f"{view['plays']} ({view['plays_left']} left)"],
            ["Ball", "carried by a hidden player" if ball == "hidden" else view["ball_state"]],
            ["Now", view["step"]],
        ],
        north_team=attacks_north,
        board_marks=marks,
    )
