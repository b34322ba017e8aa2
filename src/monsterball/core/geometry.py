"""Board geometry shared by every game: square and hex grids with precomputed tables.

Cells are integers ``row * width + col``; sets of cells are Python ints used as bitmasks
(bit ``i`` set = cell ``i`` in the set), which makes "every cell a runner can reach in four
steps around the other players" a handful of shifts instead of a search.

Cell names read like chess squares: a column letter (``a`` is column 0) and a 1-based row
number, so ``e1`` is column 4 of row 0. Row numbers grow toward the "north" end of the field.

Square grid (8 neighbours, king moves)::

    row 2   a3 b3 c3 ...        directions, clockwise from north:
    row 1   a2 b2 c2 ...          NW  N  NE        7 0 1
    row 0   a1 b1 c1 ...          W   .   E        6 . 2
                                  SW  S  SE        5 4 3

Hex grid (6 neighbours): pointy-top hexes in rows, odd rows shifted half a hex east
("odd-r" offset coordinates). Rows run across the field, so a row of hexes is a yard line
or a team's line, and every row has the same width::

    row 2    a3  b3  c3  d3          directions, clockwise from north-east:
    row 1      a2  b2  c2  d2          NW 5   0 NE
    row 0    a1  b1  c1  d1          W 4   .   1 E
                                       SW 3   2 SE

    neighbours of (c, r):   even r: NE (c, r+1)  NW (c-1, r+1)  SE (c, r-1)  SW (c-1, r-1)
                            odd r:  NE (c+1, r+1) NW (c, r+1)   SE (c+1, r-1) SW (c, r-1)
                            both:   E (c+1, r)    W (c-1, r)

Hex distance converts to cube coordinates: ``x = c - (r - (r & 1)) // 2``, ``z = r``,
``y = -x - z``; the distance is the largest of the three coordinate differences.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Generic, TypeVar

from monsterball.core import kernels
from monsterball.core.errors import NotationError

COLUMN_LETTERS = string.ascii_lowercase
T = TypeVar("T")


def iter_bits(mask: int) -> Iterator[int]:
    """Cells in a bitmask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cells: Iterable[int]) -> int:
    """The bitmask of ``cells``; a cell listed twice (a path that comes back) counts once."""
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def popcount(mask: int) -> int:
    return mask.bit_count()


class MaskSelector(Generic[T]):
    """Turns a cell bitmask into the list of per-cell items (e.g. action objects) fast.

    Walking a mask bit by bit costs a Python step per cell, and movement masks hold up to
    ~80 cells. Here the mask is read a byte at a time and each byte value maps to a cached
    tuple of items, so the cost is per byte (at most ``size / 8`` steps).
    """

    __slots__ = ("_chunks", "_items")

    def __init__(self, items: Sequence[T]):
        self._items = tuple(items)
        count = (len(self._items) + 7) // 8
        self._chunks: list[list[tuple[T, ...] | None]] = [[None] * 256 for _ in range(count)]

    def select(self, mask: int) -> list[T]:
        out: list[T] = []
        chunks = self._chunks
        k = 0
        while mask:
            byte = mask & 0xFF
            if byte:
                found = chunks[k][byte]
                if found is None:
                    found = self._fill(k, byte)
                out += found
            mask >>= 8
            k += 1
        return out

    def nth(self, mask: int, n: int) -> T:
        """``select(mask)[n]`` without building the list (random play draws one item)."""
        k = 0
        while True:
            byte = mask & 0xFF
            count = byte.bit_count()
            if n < count:
                found = self._chunks[k][byte]
                if found is None:
                    found = self._fill(k, byte)
                return found[n]
            n -= count
            mask >>= 8
            k += 1

    def _fill(self, k: int, byte: int) -> tuple[T, ...]:
        items = self._items
        base = 8 * k
        found = tuple(items[base + i] for i in range(8) if byte >> i & 1)
        self._chunks[k][byte] = found
        return found


class Grid:
    """A rectangular board of ``width`` columns and ``height`` rows.

    Subclasses define the directions and neighbour rule; everything else is precomputed here.
    """

    kind = "grid"
    direction_names: tuple[str, ...] = ()

    def __init__(self, width: int, height: int):
        if not 1 <= width <= len(COLUMN_LETTERS):
            raise ValueError(f"width must be 1..{len(COLUMN_LETTERS)}")
        if height < 1:
            raise ValueError("height must be positive")
        self.width = width
        self.height = height
        self.size = width * height
        self.full_mask = (1 << self.size) - 1
        col0 = sum(1 << (r * width) for r in range(height))
        self.not_first_col = self.full_mask & ~col0
        self.not_last_col = self.full_mask & ~(col0 << (width - 1))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(self._neighbours(c)) for c in range(self.size)
        )
        self.neighbour_mask: tuple[int, ...] = tuple(
            sum(1 << n for n in ns) for ns in self.neighbours
        )
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self._ray(c, d) for d in range(len(self.direction_names)))
            for c in range(self.size)
        )
        self._distance = [
            [self._distance_uncached(a, b) for b in range(self.size)] for a in range(self.size)
        ]
        self.names: tuple[str, ...] = tuple(
            f"{COLUMN_LETTERS[c % width]}{c // width + 1}" for c in range(self.size)
        )
        self._by_name = {n: i for i, n in enumerate(self.names)}

    # -- coordinates ------------------------------------------------------------------------

    def cell(self, col: int, row: int) -> int:
        if not self.on_board(col, row):
            raise ValueError(f"({col}, {row}) is off the {self.width}x{self.height} board")
        return row * self.width + col

    def coords(self, cell: int) -> tuple[int, int]:
        return cell % self.width, cell // self.width

    def on_board(self, col: int, row: int) -> bool:
        return 0 <= col < self.width and 0 <= row < self.height

    def row_mask(self, row: int) -> int:
        return ((1 << self.width) - 1) << (row * self.width)

    def rows_mask(self, rows: range) -> int:
        if isinstance(rows, range) and rows.step == 1 and rows.start >= 0:
            if rows.stop <= rows.start:
                return 0
            return ((1 << (self.width * (rows.stop - rows.start))) - 1) << (rows.start * self.width)
        mask = 0
        for r in rows:
            mask |= self.row_mask(r)
        return mask

    def name(self, cell: int) -> str:
        return self.names[cell]

    def parse_cell(self, text: str) -> int:
        cell = self._by_name.get(text.strip().lower())
        if cell is None:
            last = f"{COLUMN_LETTERS[self.width - 1]}{self.height}"
            raise NotationError(f"'{text}' is not a cell of this field (a1 .. {last})")
        return cell

    # -- measures ---------------------------------------------------------------------------

    def distance(self, a: int, b: int) -> int:
        """Steps between two cells on an empty board."""
        return self._distance[a][b]

    def distance_row(self, a: int) -> list[int]:
        return self._distance[a]

    def ray(self, cell: int, direction: int) -> tuple[int, ...]:
        """Cells in a straight line from ``cell`` (not included) to the edge."""
        return self.rays[cell][direction]

    def direction_between(self, a: int, b: int) -> int | None:
        """The direction of the straight line from a to b, if they share one."""
        for d, ray in enumerate(self.rays[a]):
            if b in ray:
                return d
        return None

    # -- movement ---------------------------------------------------------------------------

    def dilate(self, mask: int) -> int:
        """The cells of ``mask`` and every neighbour of them."""
        raise NotImplementedError

    def reachable(self, start: int, budget: int, free: int, *, through: int | None = None) -> int:
        """Cells a piece on ``start`` can reach in 1..budget steps, ending on a ``free`` cell.

        Each step must enter a cell of ``through`` (default: ``free``), so pieces cannot pass
        through occupied cells unless the caller says they may. ``start`` is not included.
        """
        passable = free if through is None else through
        seen = 1 << start
        frontier = seen
        for _ in range(budget):
            grown = self.dilate(frontier) & passable & ~seen
            if not grown:
                break
            seen |= grown
            frontier = grown
        return seen & free & ~(1 << start)

    def team_moves(
        self,
        pos: list[int],
        lo: int,
        hi: int,
        holder: int,
        budget: int,
        star: int,
        star_budget: int,
        free: int,
        forbid: int,
        exempt: int,
        items: Sequence[Sequence[T]],
    ) -> list[T] | None:
        """A team's moves in one call (Huck + Monster's ``Moving``): for each player
        ``lo <= p < hi`` on the board but the ``holder``, the ``reachable`` cells within his
        budget (``star_budget`` for the player ``star``) through ``free``, less ``forbid``
        unless he is ``exempt``; ``items[p][cell]`` in player, then cell order. The
        reference of the compiled twin (which returns None for arguments it cannot hold)."""
        out: list[T] = []
        for p in range(lo, hi):
            start = pos[p]
            if p == holder or start < 0:
                continue
            b = star_budget if p == star else budget
            if b <= 0:
                continue
            mask = self.reachable(start, b, free)
            if p != exempt:
                mask &= ~forbid
            row = items[p]
            out += [row[c] for c in iter_bits(mask)]
        return out

    def hop_finals(self, start: int, count: int, free: int, hop: int) -> int:
        """Where a thrown piece may stop: the ``free`` cells next to a path of 0..count-1
        steps from ``start`` through ``free`` cells, which may pass over one ``hop`` cell
        (Huck + Monster's throw, HM-THROW-2 and the Hammer, HM-SD-10)."""
        seen0 = f0 = 1 << start
        seen1 = f1 = 0
        for _ in range(count - 1):
            g0 = self.dilate(f0)
            g1 = (self.dilate(f1) & free & ~seen1) | (g0 & hop & ~seen1)
            g0 &= free & ~seen0
            if not (g0 or g1):
                break
            seen0 |= g0
            seen1 |= g1
            f0, f1 = g0, g1
        return self.dilate(seen0 | seen1) & free

    def shortest_segment(self, start: int, target: int, inter: int) -> tuple[int, ...] | None:
        """The cells entered by the first shortest path (breadth-first, neighbour order)
        from ``start`` into ``target`` whose intermediate cells lie in ``inter``."""
        if start != target:
            inter &= on_shortest_paths(self, start, target, inter)
        return plain_segment(self.neighbours, start, target, inter)

    def quiet_path(
        self, start: int, final: int, count: int, free: int, guards: int
    ) -> tuple[int, ...] | None:
        """Huck + Monster's throw path (HM-R9, no Hammer, no beaten defenders): the first
        shortest path of at most ``count`` steps from ``start`` into ``final`` through
        ``free`` cells next to the fewest ``guards``. For k = 0, 1, .. guards in turn, each
        k-subset of them (``itertools.combinations`` order) is let near the path, the others
        kept a space away; the first shortest path of the smallest k wins."""
        candidates = list(iter_bits(guards))
        for size in range(len(candidates) + 1):
            best: tuple[int, ...] | None = None
            for exposed in combinations(candidates, size):
                shunned = guards
                for c in exposed:
                    shunned &= ~(1 << c)
                inter = free & ~self.dilate(shunned)
                if start != final:
                    need = self.steps_to(start, final, inter | 1 << final)
                    if need < 0 or need > count:
                        continue  # (the search below would find none, or too long a one)
                path = self.shortest_segment(start, final, inter)
                if path is None or len(path) > count:
                    continue
                if best is None or len(path) < len(best):
                    best = path
            if best is not None:
                return best
        return None

    def step_distances(self, start: int, passable: int, limit: int | None = None) -> dict[int, int]:
        """Steps from ``start`` to every cell reachable through ``passable`` cells."""
        out = {start: 0}
        frontier = 1 << start
        seen = frontier
        steps = 0
        while frontier and (limit is None or steps < limit):
            steps += 1
            grown = self.dilate(frontier) & passable & ~seen
            for c in iter_bits(grown):
                out[c] = steps
            seen |= grown
            frontier = grown
        return out

    def steps_to(self, start: int, target: int, passable: int) -> int:
        """Fewest steps from ``start`` to ``target`` through ``passable`` cells (-1: none):
        a breadth-first search that stops as soon as it arrives."""
        goal = 1 << target
        seen = frontier = 1 << start
        steps = 0
        while frontier:
            if seen & goal:
                return steps
            steps += 1
            frontier = self.dilate(frontier) & passable & ~seen
            seen |= frontier
        return -1

    # -- per-kind rules ---------------------------------------------------------------------

    def _neighbours(self, cell: int) -> list[int]:
        out = []
        for d in range(len(self.direction_names)):
            nxt = self._step(cell, d)
            if nxt is not None:
                out.append(nxt)
        return out

    def _ray(self, cell: int, direction: int) -> tuple[int, ...]:
        out = []
        cur: int | None = self._step(cell, direction)
        while cur is not None:
            out.append(cur)
            cur = self._step(cur, direction)
        return tuple(out)

    def _step(self, cell: int, direction: int) -> int | None:
        raise NotImplementedError

    def _distance_uncached(self, a: int, b: int) -> int:
        raise NotImplementedError


class SquareGrid(Grid):
    """Squares with 8 neighbours; distance is the king-move (Chebyshev) distance."""

    kind = "square"
    direction_names = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    _deltas = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

    def _step(self, cell: int, direction: int) -> int | None:
        c, r = self.coords(cell)
        dc, dr = self._deltas[direction]
        if self.on_board(c + dc, r + dr):
            return (r + dr) * self.width + c + dc
        return None

    def _distance_uncached(self, a: int, b: int) -> int:
        (ca, ra), (cb, rb) = self.coords(a), self.coords(b)
        return max(abs(ca - cb), abs(ra - rb))

    def dilate(self, mask: int) -> int:
        row = mask | ((mask << 1) & self.not_first_col) | ((mask >> 1) & self.not_last_col)
        return (row | (row << self.width) | (row >> self.width)) & self.full_mask


class HexGrid(Grid):
    """Pointy-top hexes in odd-r offset rows (see the module diagram); 6 neighbours."""

    kind = "hex"
    direction_names = ("NE", "E", "SE", "SW", "W", "NW")
    # (dc, dr) per direction for even rows and for odd rows.
    even_row_steps = ((0, 1), (1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1))
    odd_row_steps = ((1, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (0, 1))

    def __init__(self, width: int, height: int):
        self.even_rows = 0
        self.odd_rows = 0
        for r in range(height):
            row = ((1 << width) - 1) << (r * width)
            if r % 2:
                self.odd_rows |= row
            else:
                self.even_rows |= row
        super().__init__(width, height)

    def _step(self, cell: int, direction: int) -> int | None:
        c, r = self.coords(cell)
        dc, dr = (self.odd_row_steps if r % 2 else self.even_row_steps)[direction]
        if self.on_board(c + dc, r + dr):
            return (r + dr) * self.width + c + dc
        return None

    @staticmethod
    def cube(col: int, row: int) -> tuple[int, int, int]:
        x = col - (row - (row & 1)) // 2
        z = row
        return x, -x - z, z

    def _distance_uncached(self, a: int, b: int) -> int:
        xa, ya, za = self.cube(*self.coords(a))
        xb, yb, zb = self.cube(*self.coords(b))
        return max(abs(xa - xb), abs(ya - yb), abs(za - zb))

    def dilate(self, mask: int) -> int:
        w = self.width
        nf, nl = self.not_first_col, self.not_last_col
        even = mask & self.even_rows
        odd = mask & self.odd_rows
        out = mask | ((mask << 1) & nf) | ((mask >> 1) & nl)
        out |= (even << w) | ((even << (w - 1)) & nl) | (even >> w) | ((even >> (w + 1)) & nl)
        out |= ((odd << (w + 1)) & nf) | (odd << w) | ((odd >> (w - 1)) & nf) | (odd >> w)
        return out & self.full_mask

    def reachable(self, start: int, budget: int, free: int, *, through: int | None = None) -> int:
        # The hot loop of team moves: ``dilate`` inlined with local names (about 2x faster).
        passable = free if through is None else through
        w, nf, nl = self.width, self.not_first_col, self.not_last_col
        even_rows = self.even_rows
        seen = frontier = 1 << start
        for _ in range(budget):
            even = frontier & even_rows
            odd = frontier ^ even
            grown = frontier | ((frontier << 1) & nf) | ((frontier >> 1) & nl)
            grown |= (even << w) | ((even << (w - 1)) & nl) | (even >> w)
            grown |= ((even >> (w + 1)) & nl) | ((odd << (w + 1)) & nf) | (odd << w)
            grown |= ((odd >> (w - 1)) & nf) | (odd >> w)
            grown &= passable & ~seen
            if not grown:
                break
            seen |= grown
            frontier = grown
        return seen & free & ~(1 << start)


def plain_segment(
    neighbours: tuple[tuple[int, ...], ...], start: int, target: int, inter: int
) -> tuple[int, ...] | None:
    """A breadth-first search from ``start`` through ``inter`` into ``target`` (cells as
    nodes, neighbours in table order): the cells entered, or None."""
    parent = {start: start}
    frontier = [start]
    while frontier:
        nxt = []
        for cell in frontier:
            for n in neighbours[cell]:
                if n == target:
                    path = [n]
                    back = cell
                    while back != start:
                        path.append(back)
                        back = parent[back]
                    return tuple(reversed(path))
                if inter >> n & 1 and n not in parent:
                    parent[n] = cell
                    nxt.append(n)
        frontier = nxt
    return None


def on_shortest_paths(field: Grid, start: int, target: int, inter: int) -> int:
    """The cells of ``inter`` on some shortest path from ``start`` into ``target`` (bitmask
    layers out and back). A breadth-first search kept to them meets the same cells in the
    same order, and so returns the same path: every cell that first reaches one of them
    lies on a shortest path too."""
    goal = 1 << target
    seen = 1 << start
    layers = [seen]
    while True:
        grown = field.dilate(layers[-1])
        if grown & goal:
            break
        grown &= inter & ~seen
        if not grown:
            return 0
        seen |= grown
        layers.append(grown)
    keep = 0
    back = goal
    for layer in reversed(layers[1:]):
        back = field.dilate(back) & layer
        keep |= back
    return keep


# The compiled kernels (core/_fastgeo.pyx, built by the package build), if they may run
# (core.kernels): the functions above stay the reference and the fallback.
_fastgeo = kernels.load("monsterball.core._fastgeo")

FAST = _fastgeo is not None
MaskSelector._select_py = MaskSelector.select  # type: ignore[attr-defined]
if _fastgeo is not None:
    MaskSelector.select = _fastgeo.mask_select  # type: ignore[method-assign]


def accelerate(g: Grid) -> Grid:
    """Point ``g``'s kernels at the compiled ones (when built and the board fits)."""
    if _fastgeo is not None and g.size <= 384 and g.width < 63:
        fast = _fastgeo.FastGrid(g)
        for name in (
            "dilate",
            "reachable",
            "steps_to",
            "step_distances",
            "team_moves",
            "hop_finals",
            "shortest_segment",
            "quiet_path",
        ):
            g.__dict__[name] = getattr(fast, name)
    return g


_CACHE: dict[tuple[str, int, int], Grid] = {}


def grid(kind: str, width: int, height: int) -> Grid:
    """A shared, precomputed grid (grids are immutable after construction)."""
    key = (kind, width, height)
    found = _CACHE.get(key)
    if found is None:
        if kind == "square":
            found = SquareGrid(width, height)
        elif kind == "hex":
            found = HexGrid(width, height)
        else:
            raise ValueError(f"unknown grid kind '{kind}' (square or hex)")
        _CACHE[key] = accelerate(found)
    return found
