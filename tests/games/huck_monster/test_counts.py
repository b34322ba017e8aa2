"""Huck + Monster legal-action counts from fixed positions, with a divide per player or kind.

Small counts are worked out by hand in the comments; larger ones are checked against an
independent reference written here from hex arithmetic (cube coordinates and a plain BFS), not
with the engine's geometry module.
"""

from __future__ import annotations

from collections import Counter

import pytest

from monsterball.games.huck_monster import HuckMonsterState
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.moves import Moving, TeamMoves
from monsterball.games.huck_monster.rules.point import PullLanding
from monsterball.games.huck_monster.rules.upcall import UpCall
from tests.helpers.huck_monster import SPEC, legal, options, play, position

W, H = 8, 17


def cell(name: str) -> tuple[int, int]:
    return "abcdefgh".index(name[0]), int(name[1:]) - 1


def cname(col: int, row: int) -> str:
    return f"{'abcdefgh'[col]}{row + 1}"


def hex_neighbours(col: int, row: int) -> list[tuple[int, int]]:
    """Odd rows shifted right (odd-r), from the cube-coordinate definition."""
    x = col - (row - (row & 1)) // 2
    z = row
    out = []
    for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
        nx, nz = x + dx, z + dz
        ncol = nx + (nz - (nz & 1)) // 2
        if 0 <= ncol < W and 0 <= nz < H:
            out.append((ncol, nz))
    return out


def reach(start: str, budget: int, blocked: set[str]) -> set[str]:
    """Spaces within ``budget`` steps through unblocked spaces (start excluded)."""
    seen = {cell(start)}
    frontier = [cell(start)]
    for _ in range(budget):
        nxt = []
        for c in frontier:
            for n in hex_neighbours(*c):
                if n not in seen and cname(*n) not in blocked:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return {cname(*c) for c in seen} - {start}


def divide(state: HuckMonsterState) -> dict[str, int]:
    out: Counter[str] = Counter()
    for a in legal(state):
        key = a.split("-")[0] if "-" in a and not a.startswith(("monster", "hot")) else a.split()[0]
        out[key] += 1
    return dict(sorted(out.items()))


def occupied(state: HuckMonsterState) -> set[str]:
    taken = {state.field.name(c) for c in state.pos if c >= 0}
    if state.disc >= 0:
        taken.add(state.field.name(state.disc))
    return taken


def test_counts_setup_disc_and_up_call_decisions() -> None:
    state = SPEC.new_game(options())
    assert len(legal(state)) == 8  # 1: the 8 spaces of A's line
    play(state, *(f"place {c}3" for c in "abcdefg"))
    assert len(legal(state)) == 8  # 2: B's 8 line spaces
    play(state, *(f"place {c}15" for c in "abcdefg"))
    assert legal(state) == {"disc h15"}  # 3: the one open line space
    lane = position(
        {"A1": "e7", "A2": "e12", "B1": "f8"},
        disc="e8",
        stack=[UpCall("fly"), Bid(7, "mark", "hotbid", "hot-bid", 6)],
        action="throw",
        base=9,
        receiver="A2",
        path=["e9", "e10", "e11"],
    )
    assert legal(lane) == {"keep", "reroll"}  # 4: Hot Bid


def test_counts_pull_landings() -> None:
    state = position({}, disc="d15", stack=[PullLanding(4)])
    # 5: four forward steps from d15 fan out to 5 neighbouring spaces of row 11.
    assert legal(state) == {f"pull {c}11" for c in "bcdef"}
    far = position({}, disc="d15", stack=[PullLanding(10)])
    # 6: ten steps reach row 5; the fan (11 wide) is clipped by the field's 8 columns.
    assert legal(far) == {f"pull {c}5" for c in "abcdefgh"}


@pytest.mark.parametrize("left", [1, 2, 3])
def test_counts_team_move_in_open_field(left: int) -> None:
    players = {"A1": "e7", "A2": "b11", "A3": "g11", "B1": "h17"}
    state = position(
        players, disc="e8", holder="A1", stack=[TeamMoves("normal", 1, 2), Moving(0, left)]
    )
    taken = occupied(state)
    expected = {p: len(reach(c, left, taken)) for p, c in players.items() if p.startswith("A")}
    expected.pop("A1")  # the Handler does not move
    for parked in ("A4", "A5", "A6", "A7"):
        c = state.field.name(state.pos[int(parked[1]) - 1])
        expected[parked] = len(reach(c, left, taken))
    # 7-9: a lone player in open field reaches 6, 18 and 36 spaces with 1, 2 and 3.
    assert len(reach("d9", left, set())) == {1: 6, 2: 18, 3: 36}[left]
    assert divide(state) == dict(sorted({**expected, "end": 1}.items()))


def test_counts_chase_and_one_mark_rules() -> None:
    chase = position(
        {"A1": "e6", "A2": "b5"}, disc="e10", stack=[TeamMoves("loose", 1, 1), Moving(0, 4)]
    )
    assert divide(chase) == {"A1": 4}  # 10: e9, f9, d10, f10; no 'end'
    mark = position(
        {"A1": "e7", "B1": "f8", "B2": "c10"},
        disc="e8",
        holder="A1",
        stack=[TeamMoves("normal", 1, 2), Moving(1, 2)],
    )
    taken = occupied(mark)
    ring = {"f9", "f8", "f7", "e7", "d8", "e9"}
    # 11: B2 may not join B1 next to the disc; B1 may move anywhere it reaches.
    assert divide(mark)["B2"] == len(reach("c10", 2, taken) - ring)
    assert divide(mark)["B1"] == len(reach("f8", 2, taken))


def test_counts_throw_targets_and_monster_moves() -> None:
    state = position(
        {"A1": "e7", "A2": "e12", "A3": "b9", "B1": "h15"},
        disc="e8",
        holder="A1",
        stack=[UpCall("start")],
        opts=options(strategy_dice=False),
    )
    play(state, "3d6=4")
    taken = occupied(state)
    # 12: the disc flies 1..4 spaces through open spaces (3 to reach a space, then the stop).
    flight = reach("e8", 3, taken) | {"e8"}
    stops = {n for f in flight for n in reach(f, 1, taken)} - {"e8"}
    expected = {p: len(stops & reach(c, 1, set())) for p, c in (("A2", "e12"), ("A3", "b9"))}
    got = Counter(a.split()[1] for a in legal(state))
    assert dict(got) == {k: v for k, v in expected.items() if v}


def test_counts_monster_moves_avoid_the_path() -> None:
    path = ["e9", "d10", "d11"]
    state = position(
        {"A1": "e7", "A2": "d12", "B1": "f8", "B2": "d9"},
        disc="e8",
        receiver="A2",
        path=path,
        action="throw",
        base=10,
        stack=[UpCall("fly"), Bid(7, "mark", "monster", "monster", 0)],
    )
    taken = occupied(state)
    expected = {"monster": 1}  # 'monster stay'
    for p in range(7, 14):
        c = state.field.name(state.pos[p])
        n = len(reach(c, 5, taken) - set(path))
        if n:
            expected[f"B{p - 6}"] = n
    got = Counter(a.split()[1] if a != "monster stay" else "monster" for a in legal(state))
    assert dict(sorted(got.items())) == dict(sorted(expected.items()))
