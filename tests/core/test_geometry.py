"""SquareGrid and HexGrid (core/geometry.py) against references written here.

The references are deliberately naive: neighbours from coordinate deltas (square) and from
cube coordinates (hex), distances and reachability by plain breadth-first search over those
neighbour lists, so a mistake in the engine's bit tricks or tables shows up as a mismatch.
"""

from __future__ import annotations

import itertools
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from monsterball.core.errors import NotationError
from monsterball.core.geometry import (
    COLUMN_LETTERS,
    Grid,
    HexGrid,
    SquareGrid,
    grid,
    iter_bits,
    popcount,
)

# -- references ---------------------------------------------------------------------------

SQUARE_DELTAS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
# Cube (x, y, z) steps of the six hex directions, with z the row (growing north).
HEX_CUBE = {
    "NE": (0, -1, 1),
    "E": (1, -1, 0),
    "SE": (1, 0, -1),
    "SW": (0, 1, -1),
    "W": (-1, 1, 0),
    "NW": (-1, 0, 1),
}


def to_cube(col: int, row: int) -> tuple[int, int, int]:
    x = col - (row - (row & 1)) // 2
    return x, -x - row, row


def from_cube(x: int, y: int, z: int) -> tuple[int, int]:
    assert x + y + z == 0
    return x + (z - (z & 1)) // 2, z


def ref_neighbours(g: Grid, cell: int) -> set[int]:
    col, row = cell % g.width, cell // g.width
    out = set()
    if isinstance(g, HexGrid):
        x, y, z = to_cube(col, row)
        for dx, dy, dz in HEX_CUBE.values():
            c, r = from_cube(x + dx, y + dy, z + dz)
            if 0 <= c < g.width and 0 <= r < g.height:
                out.add(r * g.width + c)
    else:
        for dc, dr in SQUARE_DELTAS.values():
            c, r = col + dc, row + dr
            if 0 <= c < g.width and 0 <= r < g.height:
                out.add(r * g.width + c)
    return out


def bfs(g: Grid, start: int, passable: int | None = None) -> dict[int, int]:
    """Steps from start to every cell reachable by entering only ``passable`` cells."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for n in ref_neighbours(g, cur):
            if n in dist:
                continue
            if passable is not None and not passable >> n & 1:
                continue
            dist[n] = dist[cur] + 1
            queue.append(n)
    return dist


def ref_reachable(g: Grid, start: int, budget: int, free: int, through: int | None) -> int:
    passable = free if through is None else through
    out = 0
    for cell, steps in bfs(g, start, passable).items():
        if 1 <= steps <= budget and free >> cell & 1 and cell != start:
            out |= 1 << cell
    return out


KINDS = ("square", "hex")
SIZES = st.tuples(st.sampled_from(KINDS), st.integers(1, 11), st.integers(1, 11))


@st.composite
def grids(draw: st.DrawFn, min_size: int = 1) -> Grid:
    kind, width, height = draw(SIZES.filter(lambda s: s[1] * s[2] >= min_size))
    return grid(kind, width, height)


@st.composite
def grid_and_cells(draw: st.DrawFn, count: int) -> tuple[Grid, list[int]]:
    g = draw(grids())
    cells = [draw(st.integers(0, g.size - 1)) for _ in range(count)]
    return g, cells


def masks(g: Grid) -> st.SearchStrategy[int]:
    return st.integers(0, g.full_mask)


# -- neighbour counts ---------------------------------------------------------------------


def test_square_neighbour_counts_corner_edge_interior() -> None:
    g = SquareGrid(9, 18)
    corners = {g.cell(0, 0), g.cell(8, 0), g.cell(0, 17), g.cell(8, 17)}
    for cell in range(g.size):
        col, row = g.coords(cell)
        on_edge = col in (0, 8) or row in (0, 17)
        expected = 3 if cell in corners else 5 if on_edge else 8
        assert len(g.neighbours[cell]) == expected, g.name(cell)
        assert popcount(g.neighbour_mask[cell]) == expected, g.name(cell)


@pytest.mark.parametrize("width", [4, 5])
def test_hex_neighbour_counts_odd_r(width: int) -> None:
    # Worked out by hand from the odd-r diagram: even rows lean west, odd rows lean east.
    g = HexGrid(width, 4)
    last = width - 1
    expected = {
        (0, 0): 2,  # NE and E only
        (last, 0): 3,  # W, NW, NE
        (0, 1): 5,  # odd row: no W, but NW/SW are straight up/down
        (last, 1): 3,  # odd row: W, NW, SW; NE/E/SE fall off
        (0, 2): 3,  # even row: E, NE, SE
        (last, 2): 5,  # even row: no E
        (0, 3): 3,  # odd top row: E, SE, SW
        (last, 3): 2,  # odd top row: W, SW
        (1, 0): 4,  # bottom edge: E, W, NE, NW
        (1, 1): 6,
        (2, 2): 6,
        (1, 3): 4,  # top edge: E, W, SE, SW
    }
    for (col, row), count in expected.items():
        cell = g.cell(col, row)
        assert len(g.neighbours[cell]) == count, (g.name(cell), g.neighbours[cell])


def test_hex_specific_neighbours() -> None:
    g = HexGrid(5, 5)
    named = {g.name(n) for n in g.neighbours[g.parse_cell("c3")]}  # (2, 2): even row
    assert named == {"b3", "d3", "b4", "c4", "b2", "c2"}
    named = {g.name(n) for n in g.neighbours[g.parse_cell("c2")]}  # (2, 1): odd row
    assert named == {"b2", "d2", "c3", "d3", "c1", "d1"}


@given(grids())
def test_neighbours_match_reference_and_are_symmetric(g: Grid) -> None:
    for cell in range(g.size):
        ns = set(g.neighbours[cell])
        assert ns == ref_neighbours(g, cell), g.name(cell)
        assert cell not in ns
        assert len(ns) == len(g.neighbours[cell])  # no duplicates
        assert g.neighbour_mask[cell] == sum(1 << n for n in ns)
        for n in ns:
            assert cell in g.neighbours[n], (g.name(cell), g.name(n))


def test_direction_names() -> None:
    assert SquareGrid.direction_names == tuple(SQUARE_DELTAS)
    assert HexGrid.direction_names == tuple(HEX_CUBE)


# -- distances ----------------------------------------------------------------------------


@given(grid_and_cells(3))
def test_distance_metric_properties(case: tuple[Grid, list[int]]) -> None:
    g, (a, b, c) = case
    assert g.distance(a, a) == 0
    assert g.distance(a, b) == g.distance(b, a)
    assert (g.distance(a, b) == 0) == (a == b)
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)
    assert (g.distance(a, b) == 1) == (b in g.neighbours[a])
    assert g.distance_row(a)[b] == g.distance(a, b)


@given(grids())
@settings(max_examples=40)
def test_distance_equals_bfs_on_empty_board(g: Grid) -> None:
    for start in range(g.size):
        steps = bfs(g, start)
        assert len(steps) == g.size  # the board is connected
        for cell in range(g.size):
            assert g.distance(start, cell) == steps[cell], (g.name(start), g.name(cell))


def test_distance_known_values() -> None:
    sq = SquareGrid(9, 18)
    assert sq.distance(sq.parse_cell("a1"), sq.parse_cell("i18")) == 17
    assert sq.distance(sq.parse_cell("a1"), sq.parse_cell("e3")) == 4
    hx = HexGrid(9, 9)
    # Along a row hexes are one apart; going up one row costs one step and shifts half a hex.
    assert hx.distance(hx.parse_cell("a1"), hx.parse_cell("e1")) == 4
    assert hx.distance(hx.parse_cell("a1"), hx.parse_cell("a5")) == 4
    assert hx.distance(hx.parse_cell("a1"), hx.parse_cell("c5")) == 4
    assert hx.distance(hx.parse_cell("a1"), hx.parse_cell("d5")) == 5


@given(grid_and_cells(1), st.data())
def test_step_distances_matches_bfs(case: tuple[Grid, list[int]], data: st.DataObject) -> None:
    g, (start,) = case
    passable = data.draw(masks(g))
    limit = data.draw(st.none() | st.integers(0, 6))
    got = g.step_distances(start, passable, limit)
    want = {c: d for c, d in bfs(g, start, passable).items() if limit is None or d <= limit}
    assert got == want


# -- dilate and reachable -----------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("width", [5, 6, 9, 10])
@given(data=st.data())
@settings(max_examples=30)
def test_dilate_is_union_of_neighbour_masks(kind: str, width: int, data: st.DataObject) -> None:
    height = data.draw(st.integers(1, 9))
    g = grid(kind, width, height)
    mask = data.draw(masks(g))
    want = mask
    for cell in iter_bits(mask):
        want |= g.neighbour_mask[cell]
    assert g.dilate(mask) == want


@given(grids())
def test_dilate_single_cells(g: Grid) -> None:
    for cell in range(g.size):
        assert g.dilate(1 << cell) == (1 << cell) | sum(1 << n for n in ref_neighbours(g, cell))
    assert g.dilate(0) == 0
    assert g.dilate(g.full_mask) == g.full_mask


@given(grid_and_cells(1), st.integers(0, 5), st.data())
def test_reachable_matches_bfs(
    case: tuple[Grid, list[int]], budget: int, data: st.DataObject
) -> None:
    g, (start,) = case
    obstacles = data.draw(masks(g))
    free = g.full_mask & ~obstacles
    through = data.draw(st.sampled_from([None, "all", "random"]))
    through_mask = (
        None if through is None else g.full_mask if through == "all" else data.draw(masks(g))
    )
    got = g.reachable(start, budget, free, through=through_mask)
    assert got == ref_reachable(g, start, budget, free, through_mask)
    assert not got >> start & 1
    assert got & ~free == 0


def test_reachable_on_open_square_field() -> None:
    g = SquareGrid(9, 18)
    start = g.parse_cell("e9")
    # King distance 4 around an interior field: a 9x9 block minus the start.
    assert popcount(g.reachable(start, 4, g.full_mask)) == 80
    # A wall on row 10 from a to i, with a gap nowhere: only the south part is reachable.
    wall = g.row_mask(9)
    got = g.reachable(start, 4, g.full_mask & ~wall)
    assert popcount(got) == 9 * 5 - 1
    # Running through the wall (but not stopping on it) reaches the north part again.
    got = g.reachable(start, 4, g.full_mask & ~wall, through=g.full_mask)
    assert popcount(got) == 80 - 9


# -- rays ---------------------------------------------------------------------------------


@given(grids())
def test_rays_are_straight_and_reach_the_edge(g: Grid) -> None:
    is_hex = isinstance(g, HexGrid)
    for cell in range(g.size):
        for d, name in enumerate(g.direction_names):
            ray = g.ray(cell, d)
            path = [cell, *ray]
            for a, b in itertools.pairwise(path):
                assert b in g.neighbours[a]
                if is_hex:
                    ca, cb = to_cube(*g.coords(a)), to_cube(*g.coords(b))
                    step = tuple(q - p for p, q in zip(ca, cb, strict=True))
                    assert step == HEX_CUBE[name], (g.name(a), g.name(b), name)
                else:
                    (xa, ya), (xb, yb) = g.coords(a), g.coords(b)
                    assert (xb - xa, yb - ya) == SQUARE_DELTAS[name]
            # The ray stops only at the edge: one more step leaves the board.
            end = path[-1]
            if is_hex:
                x, y, z = to_cube(*g.coords(end))
                dx, dy, dz = HEX_CUBE[name]
                col, row = from_cube(x + dx, y + dy, z + dz)
            else:
                col, row = g.coords(end)
                col, row = col + SQUARE_DELTAS[name][0], row + SQUARE_DELTAS[name][1]
            assert not g.on_board(col, row)
            for i, c in enumerate(ray):
                assert g.distance(cell, c) == i + 1
                assert g.direction_between(cell, c) == d


def test_square_ray_example() -> None:
    g = SquareGrid(9, 18)
    ne = g.direction_names.index("NE")
    assert [g.name(c) for c in g.ray(g.parse_cell("f15"), ne)] == ["g16", "h17", "i18"]
    assert g.direction_between(g.parse_cell("a1"), g.parse_cell("b3")) is None


def test_hex_ray_example_zigzags_in_offset_coordinates() -> None:
    g = HexGrid(6, 6)
    ne = g.direction_names.index("NE")
    # a1 (even) -> a2 (odd, shifted east) -> b3 -> b4 -> c5 -> c6
    assert [g.name(c) for c in g.ray(g.parse_cell("a1"), ne)] == ["a2", "b3", "b4", "c5", "c6"]


# -- names --------------------------------------------------------------------------------


@given(grids())
def test_cell_names_round_trip(g: Grid) -> None:
    seen = set()
    for cell in range(g.size):
        name = g.name(cell)
        col, row = g.coords(cell)
        assert name == f"{COLUMN_LETTERS[col]}{row + 1}"
        assert g.parse_cell(name) == cell
        assert g.parse_cell(f" {name.upper()} ") == cell
        assert g.cell(col, row) == cell
        seen.add(name)
    assert len(seen) == g.size


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "bad", ["", "a0", "j1", "a19", "z99", "aa1", "1a", "a-1", "a 1", "a1b", "e", "17", "a01"]
)
def test_bad_cell_names_raise_notation_error(kind: str, bad: str) -> None:
    g = grid(kind, 9, 18)
    with pytest.raises(NotationError) as info:
        g.parse_cell(bad)
    assert "i18" in str(info.value)  # the message names the valid range


def test_bad_grid_arguments() -> None:
    with pytest.raises(ValueError):
        SquareGrid(0, 5)
    with pytest.raises(ValueError):
        SquareGrid(27, 5)
    with pytest.raises(ValueError):
        HexGrid(5, 0)
    with pytest.raises(ValueError):
        grid("triangle", 5, 5)
    with pytest.raises(ValueError):
        SquareGrid(5, 5).cell(5, 0)
    assert grid("hex", 7, 7) is grid("hex", 7, 7)


@given(grids(), st.data())
def test_iter_bits_and_popcount(g: Grid, data: st.DataObject) -> None:
    mask = data.draw(masks(g))
    cells = list(iter_bits(mask))
    assert cells == sorted(c for c in range(g.size) if mask >> c & 1)
    assert popcount(mask) == len(cells)


@given(st.integers(1, 80), st.data())
def test_mask_selector_picks_the_items_of_set_bits(count: int, data: st.DataObject) -> None:
    from monsterball.core.geometry import MaskSelector

    items = [f"item{i}" for i in range(count)]
    selector = MaskSelector(items)
    for _ in range(3):  # repeated masks exercise the per-byte cache
        mask = data.draw(st.integers(0, (1 << count) - 1))
        assert selector.select(mask) == [items[i] for i in iter_bits(mask)]
