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
        _up_call_row(view["up_calls"]),
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
    if opts.strategy_dice and view["up_calls"]:
        panel.append(_strategy_row(view["strategy_used"]))
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


UP_CALL_HINT = (
    "An Up Call is one throw played out: from the throw until the receiver catches the disc "
    "or the defence turns it over."
)
STRATEGY_HINT = (
    "Each team may roll its strategy die once per Up Call, with its team dice: the offence's "
    "may double its count, and the defence may answer with its own."
)  # HM-SD-1


def _up_call_row(played: int) -> list[str]:
    """The Up Call count in words: a bare "0" before the first throw told a newcomer nothing."""
    return ["Up Call", f"no. {played} of the game" if played else "none yet", UP_CALL_HINT]


def _strategy_row(used: list[bool]) -> list[str]:
    """Who has rolled a strategy die in this Up Call, in words ("Strategy used none" did not)."""
    rolled = [t for t, on in zip("AB", used, strict=True) if on]
    if not rolled:
        words = "neither team has rolled it yet this Up Call"
    elif len(rolled) == 2:
        words = "both teams have rolled theirs this Up Call"
    else:
        words = f"team {rolled[0]} has rolled its die this Up Call"
    return ["Strategy die", words, STRATEGY_HINT]


def _title(name: str, flags: list[str]) -> str:
    return " ".join([name, *(f"({f})" for f in flags)])


def _target(opts: HuckMonsterOptions) -> str:
    if opts.cone_push:
        return f"first to {CONE_PUSH_TARGET} cones"  # HM-R53: points_to_win does not apply
    return f"to {opts.points_to_win}" + (", win by 2" if opts.win_by == 2 else "")
