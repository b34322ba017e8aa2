"""Huck + Monster drawn in the shared board format (:mod:`monsterball.core.board`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from monsterball.core import board as b
from monsterball.core.game import GameState
from monsterball.games.huck_monster.field import CONE_PUSH_TARGET
from monsterball.games.huck_monster.options import HuckMonsterOptions

if TYPE_CHECKING:
    from monsterball.games.huck_monster.state import HuckMonsterState


def board_view(state: GameState, seat: int | None = None) -> b.Board:
    hm: HuckMonsterState = state  # type: ignore[assignment]
    view = hm.view(seat)
    opts = hm.options
    north = view["north_team"]
    south = "B" if north == "A" else "A"
    holder, receiver = view["holder"], view["receiver"]
    # (an offensive All-Star who acted is kept in "bidders" too: HM-STAR-6; not a bidder)
    bidders = {n for n in view["bidders"] if n[0] != view["offense"]}
    pieces = []
    for name, cell in view["players"].items():
        if cell is None:
            continue
        flags = [
            flag
            for flag, on in (
                ("holder", name == holder),
                ("receiver", name == receiver),
                ("bidder", name in bidders),
            )
            if on
        ]
        pieces.append(b.piece(name, name[0], cell, title=_title(name, flags), flags=flags))
    marks = b.marks("cone", view["cones"]) + b.marks("stealth", b.cell_names(hm.field, hm.stealth))
    if view["path"]:
        marks += b.marks("path", view["path"][max(view["progress"], -1) + 1 :])
    score = view["score"]
    panel = [
        ["Score", f"A {score[0]} - B {score[1]} ({_target(opts)})"],
        ["Offense", view["offense"]],
        ["Up Call", str(view["up_calls"])],
    ]
    if view["action"] and opts.contested_count and opts.continues == "one-die":
        # HM-R50: the coach states the count from memory, so the panel does not show it.
        panel.append(["Play", f"{view['action']} (count: from memory)"])
    elif view["action"]:
        count = f"{view['action']} {view['base']}"
        if view["light"]:
            count += f" + {view['light']}"
        if view["halved"]:
            count += " (halved)"
        panel.append(["Play", count])
    if bidders:
        panel.append(["Bidding", ", ".join(sorted(bidders))])
    if view["dump_next"]:
        panel.append(["Next throw", "a Dump (pin Dump, HM-R37)"])
    used = [t for t, on in zip("AB", view["strategy_used"], strict=True) if on]
    panel.append(["Strategy used", ", ".join(used) or "none"])
    panel.append(["Now", view["step"]])
    disc = view["disc"]
    return b.board(
        grid="hex" if opts.grid == "hex" else "square",
        cols=opts.width,
        rows=opts.length,
        zones=b.end_zones(opts.end_zone_depth, opts.length, north, south),
        lines=[hm.line_row(0), hm.line_row(1)],
        pieces=pieces,
        ball={"cell": disc, "kind": "disc", "held": holder is not None} if disc else None,
        panel=panel,
        north_team=north,
        board_marks=marks,
    )


def _title(name: str, flags: list[str]) -> str:
    return " ".join([name, *(f"({f})" for f in flags)])


def _target(opts: HuckMonsterOptions) -> str:
    if opts.cone_push:
        return f"first to {CONE_PUSH_TARGET} cones"  # HM-R53: points_to_win does not apply
    return f"to {opts.points_to_win}" + (", win by 2" if opts.win_by == 2 else "")
