# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twins of the hot bitmask kernels of ``core.geometry`` (built by
``scripts/build_fast.py``; ``make setup`` runs it). Boards of up to 384 cells are held in
six 64-bit words instead of Python big integers. Each function computes exactly what its
pure-Python original in geometry.py computes; for an argument that does not fit (negative,
2**384 or more, a cell off the board) it calls that original, so results never differ
(``team_moves`` returns None instead: its caller has the Python path). Kept here: the
breadth-first kernels (``reachable``, ``team_moves``, ``steps_to``, ``step_distances``), the
throw's (``hop_finals``, ``shortest_segment``, ``quiet_path``) and ``MaskSelector.select``.
A hex grid's ``reachable`` steps run on the board's own words only (three for Huck +
Monster's 136 cells), all shifts of a step in one pass per word. tests/core/test_fast_paths.py
and tests/games/huck_monster/test_fast_kernels.py check the two against each other.
"""

from libc.stdint cimport uint64_t
from cpython.list cimport PyList_New
from cpython.tuple cimport PyTuple_GET_ITEM

from monsterball.core._bitwords cimport _clz, _ctz, _popcount, mb_from_words, mb_to_words

cdef extern from *:
    """
    #include <string.h>
    #include "_bitwords.h"
    /* Word i of (a << k) and of (a >> k) for an n-word a, 0 < k < 64. */
    static inline uint64_t mb_shl_at(const uint64_t* a, int i, int k) {
        return (a[i] << k) | (i ? a[i - 1] >> (64 - k) : 0);
    }
    static inline uint64_t mb_shr_at(const uint64_t* a, int i, int n, int k) {
        return (a[i] >> k) | (i + 1 < n ? a[i + 1] << (64 - k) : 0);
    }
    /* HexGrid.reachable on the n low words (the rest must be 0 in fr and pa, and are 0 in
       seen): a hex step's ten shifts fused into one pass per word (1 < w < 63). */
    static void mb_hex_reach(int start, int budget, const uint64_t* fr, const uint64_t* pa,
                             uint64_t* seen, int n, int w, const uint64_t* nf,
                             const uint64_t* nl, const uint64_t* even) {
        uint64_t front[6], grown[6], e[6], o[6], g, more;
        int i, step;
        memset(seen, 0, 6 * sizeof(uint64_t));
        seen[start >> 6] = (uint64_t)1 << (start & 63);
        for (i = 0; i < n; i++) front[i] = seen[i];
        for (step = 0; step < budget; step++) {
            for (i = 0; i < n; i++) {
                e[i] = front[i] & even[i];
                o[i] = front[i] ^ e[i];
            }
            more = 0;
            for (i = 0; i < n; i++) {
                g = front[i] | (mb_shl_at(front, i, 1) & nf[i])
                    | (mb_shr_at(front, i, n, 1) & nl[i])
                    | mb_shl_at(front, i, w) | mb_shr_at(front, i, n, w)
                    | ((mb_shl_at(e, i, w - 1) | mb_shr_at(e, i, n, w + 1)) & nl[i])
                    | ((mb_shl_at(o, i, w + 1) | mb_shr_at(o, i, n, w - 1)) & nf[i]);
                g &= pa[i] & ~seen[i];
                grown[i] = g;
                more |= g;
            }
            if (!more) break;
            for (i = 0; i < n; i++) {
                seen[i] |= grown[i];
                front[i] = grown[i];
            }
        }
        seen[start >> 6] &= ~((uint64_t)1 << (start & 63));
        for (i = 0; i < n; i++) seen[i] &= fr[i];
    }
    /* Store row[base + b] for each set bit b of word, lowest first, into the new list's
       slots from ``at`` on (each a new reference); the next free slot. The caller has
       checked that the list has room and the row is long enough. */
    static Py_ssize_t mb_fill(PyObject* list, Py_ssize_t at, PyObject* row, int base,
                              uint64_t word) {
        while (word) {
            PyObject* item = PyTuple_GET_ITEM(row, base + mb_ctz(word));
            Py_INCREF(item);
            PyList_SET_ITEM(list, at, item);
            at++;
            word &= word - 1;
        }
        return at;
    }
    """
    Py_ssize_t mb_fill(object lst, Py_ssize_t at, object row, int base, uint64_t word)
    void mb_hex_reach(int start, int budget, const uint64_t* fr, const uint64_t* pa,
                      uint64_t* seen, int n, int w, const uint64_t* nf, const uint64_t* nl,
                      const uint64_t* even) noexcept nogil

DEF N = 6
DEF CELLS = 384
DEF TEAM_MAX = 32  # team_moves: players per call held in C (more: the Python path)


cdef inline void shl(const uint64_t* a, int k, uint64_t* o) noexcept nogil:
    cdef int i
    if k == 0:
        for i in range(N):
            o[i] = a[i]
        return
    for i in range(N - 1, 0, -1):
        o[i] = (a[i] << k) | (a[i - 1] >> (64 - k))
    o[0] = a[0] << k


cdef inline void shr(const uint64_t* a, int k, uint64_t* o) noexcept nogil:
    cdef int i
    if k == 0:
        for i in range(N):
            o[i] = a[i]
        return
    for i in range(N - 1):
        o[i] = (a[i] >> k) | (a[i + 1] << (64 - k))
    o[N - 1] = a[N - 1] >> k


cdef inline void bit(int cell, uint64_t* o) noexcept nogil:
    cdef int i
    for i in range(N):
        o[i] = 0
    o[cell >> 6] = (<uint64_t>1) << (cell & 63)


cdef class FastGrid:
    """The kernels for one grid; ``py`` is the pure-Python grid (tables and fallback)."""

    cdef uint64_t full[N]
    cdef uint64_t nf[N]
    cdef uint64_t nl[N]
    cdef uint64_t even[N]
    cdef uint64_t odd[N]
    cdef int w, size, nw  # nw: the words the board's cells take
    cdef bint hexk
    cdef object py
    cdef object py_type
    cdef int nb[CELLS][8]  # the neighbour table, in the grid's order
    cdef int nbn[CELLS]

    def __init__(self, py_grid):
        self.py = py_grid
        self.py_type = type(py_grid)
        self.w = py_grid.width
        self.size = py_grid.size
        self.nw = (self.size + 63) // 64
        self.hexk = py_grid.kind == "hex"
        if self.size > CELLS or self.w >= 63:
            raise ValueError("grid too large for the compiled kernels")
        for mask, words in (
            (py_grid.full_mask, 0), (py_grid.not_first_col, 1), (py_grid.not_last_col, 2),
            (getattr(py_grid, "even_rows", 0), 3), (getattr(py_grid, "odd_rows", 0), 4),
        ):
            self._set(words, mask)
        cdef int c, k
        for c in range(self.size):
            row = py_grid.neighbours[c]
            if len(row) > 8:
                raise ValueError("more than 8 neighbours")
            self.nbn[c] = len(row)
            for k in range(len(row)):
                self.nb[c][k] = row[k]

    cdef int _set(self, int which, object mask) except -1:
        cdef uint64_t* dst
        if which == 0:
            dst = self.full
        elif which == 1:
            dst = self.nf
        elif which == 2:
            dst = self.nl
        elif which == 3:
            dst = self.even
        else:
            dst = self.odd
        if mb_to_words(mask, dst) < 0:
            raise ValueError("mask does not fit")
        return 0

    cdef void _dilate(self, const uint64_t* m, uint64_t* out) noexcept nogil:
        cdef uint64_t t[N]
        cdef uint64_t e[N]
        cdef uint64_t o[N]
        cdef uint64_t row[N]
        cdef int i, w = self.w
        if self.hexk:
            for i in range(N):
                e[i] = m[i] & self.even[i]
                o[i] = m[i] & self.odd[i]
                out[i] = m[i]
            shl(m, 1, t)
            for i in range(N):
                out[i] |= t[i] & self.nf[i]
            shr(m, 1, t)
            for i in range(N):
                out[i] |= t[i] & self.nl[i]
            self._hex_rows(e, o, out)
            for i in range(N):
                out[i] &= self.full[i]
        else:
            shl(m, 1, t)
            for i in range(N):
                row[i] = m[i] | (t[i] & self.nf[i])
            shr(m, 1, t)
            for i in range(N):
                row[i] |= t[i] & self.nl[i]
                out[i] = row[i]
            shl(row, w, t)
            for i in range(N):
                out[i] |= t[i]
            shr(row, w, t)
            for i in range(N):
                out[i] = (out[i] | t[i]) & self.full[i]

    cdef inline void _hex_rows(self, const uint64_t* e, const uint64_t* o, uint64_t* out) noexcept nogil:
        # The four diagonal neighbours and the two straight ones of even and odd rows.
        cdef uint64_t t[N]
        cdef int i, w = self.w
        shl(e, w, t)
        for i in range(N):
            out[i] |= t[i]
        shl(e, w - 1, t)
        for i in range(N):
            out[i] |= t[i] & self.nl[i]
        shr(e, w, t)
        for i in range(N):
            out[i] |= t[i]
        shr(e, w + 1, t)
        for i in range(N):
            out[i] |= t[i] & self.nl[i]
        shl(o, w + 1, t)
        for i in range(N):
            out[i] |= t[i] & self.nf[i]
        shl(o, w, t)
        for i in range(N):
            out[i] |= t[i]
        shr(o, w - 1, t)
        for i in range(N):
            out[i] |= t[i] & self.nf[i]
        shr(o, w, t)
        for i in range(N):
            out[i] |= t[i]

    def dilate(self, mask):
        cdef uint64_t m[N]
        cdef uint64_t out[N]
        if mb_to_words(mask, m) < 0:
            return self.py_type.dilate(self.py, mask)
        self._dilate(m, out)
        return mb_from_words(out)

    cdef inline void _grow(self, const uint64_t* front, uint64_t* grown) noexcept nogil:
        """One breadth-first step of ``reachable``: the front and its neighbours (a hex
        grid unmasked, as HexGrid.reachable: the passable cells bound it)."""
        cdef uint64_t e[N]
        cdef uint64_t o[N]
        cdef uint64_t t[N]
        cdef int i
        if self.hexk:
            for i in range(N):
                e[i] = front[i] & self.even[i]
                o[i] = front[i] ^ e[i]
                grown[i] = front[i]
            shl(front, 1, t)
            for i in range(N):
                grown[i] |= t[i] & self.nf[i]
            shr(front, 1, t)
            for i in range(N):
                grown[i] |= t[i] & self.nl[i]
            self._hex_rows(e, o, grown)
        else:
            self._dilate(front, grown)

    cdef void _reach(
        self, int start, int budget, const uint64_t* fr, const uint64_t* pa, uint64_t* seen
    ) noexcept nogil:
        """``reachable`` on words: the cells of ``fr`` within ``budget`` steps through ``pa``."""
        cdef uint64_t front[N]
        cdef uint64_t grown[N]
        cdef uint64_t s[N]
        cdef int i, step
        cdef bint more
        if self.hexk and self.w > 1:
            more = False  # (here: some bits above the board's words)
            for i in range(self.nw, N):
                if fr[i] or pa[i]:
                    more = True
            if not more:
                mb_hex_reach(start, budget, fr, pa, seen, self.nw, self.w, self.nf, self.nl,
                             self.even)
                return
        bit(start, s)
        for i in range(N):
            seen[i] = s[i]
            front[i] = s[i]
        for step in range(budget):
            self._grow(front, grown)
            more = False
            for i in range(N):
                grown[i] &= pa[i] & ~seen[i]
                if grown[i]:
                    more = True
            if not more:
                break
            for i in range(N):
                seen[i] |= grown[i]
                front[i] = grown[i]
        for i in range(N):
            seen[i] &= fr[i] & ~s[i]

    def reachable(self, int start, int budget, free, *, through=None):
        cdef uint64_t fr[N]
        cdef uint64_t pa[N]
        cdef uint64_t seen[N]
        passable = free if through is None else through
        if (
            not 0 <= start < self.size
            or mb_to_words(free, fr) < 0
            or mb_to_words(passable, pa) < 0
        ):
            return self.py_type.reachable(self.py, start, budget, free, through=through)
        self._reach(start, budget, fr, pa, seen)
        return mb_from_words(seen)

    def team_moves(
        self, list pos, int lo, int hi, int holder, int budget, int star, int star_budget,
        free, forbid, int exempt, tuple items
    ):
        """Huck + Monster's ``Moving`` list in one call: for each player ``lo <= p < hi``
        on the field but the ``holder``, the cells ``reachable`` within his budget
        (``star_budget`` for the player ``star``) through ``free``, less ``forbid`` unless
        he is ``exempt``; the items ``items[p][cell]`` in player then cell order. None
        when an argument does not fit: the caller's Python path then answers."""
        cdef uint64_t fr[N]
        cdef uint64_t fb[N]
        cdef uint64_t masks[TEAM_MAX][N]
        cdef int players[TEAM_MAX]
        cdef uint64_t word
        cdef int i, j, p, b, cell, found = 0
        cdef long start
        cdef Py_ssize_t count, total = 0, at = 0
        if mb_to_words(free, fr) < 0 or mb_to_words(forbid, fb) < 0:
            return None
        if lo < 0 or hi > len(pos) or hi > len(items) or hi - lo > TEAM_MAX:
            return None
        # First every player's cells (checking what they index), then the list, built at
        # its final size: appending item by item was most of the cost of a long list.
        for p in range(lo, hi):
            start = pos[p]
            if p == holder or start < 0:
                continue
            if start >= self.size:
                return None
            b = star_budget if p == star else budget
            if b <= 0:
                continue
            self._reach(<int>start, b, fr, fr, masks[found])
            if p != exempt:
                for i in range(N):
                    masks[found][i] &= ~fb[i]
            row = items[p]
            if not isinstance(row, tuple):
                return None
            count = len(<tuple>row)
            for i in range(N):
                word = masks[found][i]
                if word:
                    if i * 64 + 63 - _clz(word) >= count:
                        return None
                    total += _popcount(word)
            players[found] = p
            found += 1
        out = PyList_New(total)
        for j in range(found):
            row = items[players[j]]
            for i in range(N):
                if masks[j][i]:
                    at = mb_fill(out, at, row, i * 64, masks[j][i])
        return out

    def hop_finals(self, int start, int count, free, hop):
        """Grid.hop_finals (Huck + Monster's throw) on words."""
        cdef uint64_t fr[N]
        cdef uint64_t hp[N]
        cdef uint64_t seen0[N]
        cdef uint64_t seen1[N]
        cdef uint64_t f0[N]
        cdef uint64_t f1[N]
        cdef uint64_t g0[N]
        cdef uint64_t g1[N]
        cdef uint64_t t[N]
        cdef int i, k
        cdef bint more
        if not 0 <= start < self.size or mb_to_words(free, fr) < 0 or mb_to_words(hop, hp) < 0:
            return self.py_type.hop_finals(self.py, start, count, free, hop)
        bit(start, seen0)
        for i in range(N):
            f0[i] = seen0[i]
            seen1[i] = 0
            f1[i] = 0
        for k in range(count - 1):
            self._dilate(f0, g0)
            self._dilate(f1, t)
            more = False
            for i in range(N):
                g1[i] = (t[i] & fr[i] & ~seen1[i]) | (g0[i] & hp[i] & ~seen1[i])
                g0[i] &= fr[i] & ~seen0[i]
                if g0[i] or g1[i]:
                    more = True
            if not more:
                break
            for i in range(N):
                seen0[i] |= g0[i]
                seen1[i] |= g1[i]
                f0[i] = g0[i]
                f1[i] = g1[i]
        for i in range(N):
            t[i] = seen0[i] | seen1[i]
        self._dilate(t, g0)
        for i in range(N):
            g0[i] &= fr[i]
        return mb_from_words(g0)

    cdef int _segment(self, int start, int target, const uint64_t* inter, int limit, int* path):
        """Grid.shortest_segment on words (start != target, both on the board): the cells
        entered, into ``path``, and their number; 0 if there is no path, or none of at most
        ``limit`` cells (the path is then not traced)."""
        cdef uint64_t it[N]
        cdef uint64_t layers[CELLS + 1][N]
        cdef uint64_t seen[N]
        cdef uint64_t back[N]
        cdef uint64_t g[N]
        cdef int parent[CELLS]
        cdef int frontier[CELLS]
        cdef int nxt[CELLS]
        cdef int nf, nn, i, j, k, cell, n, depth = 0, length
        cdef bint hit, more
        for i in range(N):
            it[i] = inter[i]
        # on_shortest_paths: layers out to the target, then back.
        bit(start, layers[0])
        for i in range(N):
            seen[i] = layers[0][i]
        hit = False
        while True:
            self._dilate(layers[depth], g)
            if (g[target >> 6] >> (target & 63)) & 1:
                hit = True
                break
            more = False
            for i in range(N):
                g[i] &= it[i] & ~seen[i]
                if g[i]:
                    more = True
            if not more:
                break
            depth += 1
            for i in range(N):
                seen[i] |= g[i]
                layers[depth][i] = g[i]
        if not hit or depth + 1 > limit:
            return 0
        for i in range(N):
            seen[i] = 0
        bit(target, back)
        for k in range(depth, 0, -1):
            self._dilate(back, g)
            for i in range(N):
                back[i] = g[i] & layers[k][i]
                seen[i] |= back[i]
        for i in range(N):
            it[i] &= seen[i]
        # plain_segment
        for i in range(self.size):
            parent[i] = -1
        parent[start] = start
        frontier[0] = start
        nf = 1
        while nf:
            nn = 0
            for j in range(nf):
                cell = frontier[j]
                for k in range(self.nbn[cell]):
                    n = self.nb[cell][k]
                    if n == target:
                        length = 1
                        i = cell
                        while i != start:
                            length += 1
                            i = parent[i]
                        path[length - 1] = n
                        i = cell
                        k = length - 2
                        while i != start:
                            path[k] = i
                            k -= 1
                            i = parent[i]
                        return length
                    if (it[n >> 6] >> (n & 63)) & 1 and parent[n] < 0:
                        parent[n] = cell
                        nxt[nn] = n
                        nn += 1
            for j in range(nn):
                frontier[j] = nxt[j]
            nf = nn
        return 0  # (not reached: the layers found a path)

    def shortest_segment(self, int start, int target, inter):
        """Grid.shortest_segment on words and a C breadth-first search: the same cells in
        the same order, so the same path."""
        cdef uint64_t it[N]
        cdef int path[CELLS + 1]
        cdef int length
        if (
            start == target
            or not 0 <= start < self.size
            or not 0 <= target < self.size
            or mb_to_words(inter, it) < 0
        ):
            return self.py_type.shortest_segment(self.py, start, target, inter)
        length = self._segment(start, target, it, CELLS + 1, path)
        return _cells(path, length) if length else None

    def quiet_path(self, int start, int final, int count, free, guards):
        """Grid.quiet_path (Huck + Monster's throw, HM-R9) on words: the subsets of guards
        in the reference's order, a search each, the path traced only when shorter."""
        cdef uint64_t fr[N]
        cdef uint64_t gd[N]
        cdef uint64_t shunned[N]
        cdef uint64_t near[N]
        cdef uint64_t inter[N]
        cdef uint64_t word
        cdef int cand[16]
        cdef int idx[16]
        cdef int path[CELLS + 1]
        cdef int best[CELLS + 1]
        cdef int k = 0, size, i, j, length, best_len, limit
        if (
            start == final
            or not 0 <= start < self.size
            or not 0 <= final < self.size
            or mb_to_words(free, fr) < 0
            or mb_to_words(guards, gd) < 0
        ):
            return self.py_type.quiet_path(self.py, start, final, count, free, guards)
        for i in range(N):
            word = gd[i]
            while word:
                if k == 16:
                    return self.py_type.quiet_path(self.py, start, final, count, free, guards)
                cand[k] = i * 64 + _ctz(word)
                k += 1
                word &= word - 1
        for size in range(k + 1):
            best_len = 0
            for i in range(size):  # the first combination: 0, 1, .., size - 1
                idx[i] = i
            while True:
                for i in range(N):
                    shunned[i] = gd[i]
                for i in range(size):
                    j = cand[idx[i]]
                    shunned[j >> 6] &= ~((<uint64_t>1) << (j & 63))
                self._dilate(shunned, near)
                for i in range(N):
                    inter[i] = fr[i] & ~near[i]
                limit = count if best_len == 0 else min(count, best_len - 1)
                length = self._segment(start, final, inter, limit, path)
                if length:
                    best_len = length
                    for i in range(length):
                        best[i] = path[i]
                # The next combination in lexicographic order (itertools.combinations').
                i = size - 1
                while i >= 0 and idx[i] == i + k - size:
                    i -= 1
                if i < 0:
                    break
                idx[i] += 1
                for j in range(i + 1, size):
                    idx[j] = idx[j - 1] + 1
            if best_len:
                return _cells(best, best_len)
        return None

    def steps_to(self, int start, int target, passable):
        cdef uint64_t pa[N]
        cdef uint64_t seen[N]
        cdef uint64_t front[N]
        cdef uint64_t grown[N]
        cdef int i, steps = 0
        cdef bint more = True
        if (
            not 0 <= start < self.size
            or not 0 <= target < CELLS
            or mb_to_words(passable, pa) < 0
        ):
            return self.py_type.steps_to(self.py, start, target, passable)
        bit(start, seen)
        bit(start, front)
        while more:
            if (seen[target >> 6] >> (target & 63)) & 1:
                return steps
            steps += 1
            self._dilate(front, grown)
            more = False
            for i in range(N):
                front[i] = grown[i] & pa[i] & ~seen[i]
                seen[i] |= front[i]
                if front[i]:
                    more = True
        return -1

    def step_distances(self, int start, passable, limit=None):
        cdef uint64_t pa[N]
        cdef uint64_t seen[N]
        cdef uint64_t front[N]
        cdef uint64_t grown[N]
        cdef uint64_t word
        cdef long cap = 0
        cdef int i, steps = 0
        cdef bint more = True, capped = limit is not None
        if not 0 <= start < self.size or mb_to_words(passable, pa) < 0:
            return self.py_type.step_distances(self.py, start, passable, limit)
        if capped:
            cap = limit
        out = {start: 0}
        bit(start, seen)
        bit(start, front)
        while more and (not capped or steps < cap):
            steps += 1
            self._dilate(front, grown)
            more = False
            for i in range(N):
                front[i] = grown[i] & pa[i] & ~seen[i]
                seen[i] |= front[i]
                word = front[i]
                if word:
                    more = True
                while word:
                    out[i * 64 + _ctz(word)] = steps
                    word &= word - 1
        return out


cdef tuple _cells(const int* path, int length):
    return tuple([path[i] for i in range(length)])


def mask_select(self, mask):
    """``MaskSelector.select``: the items of the mask's cells, lowest cell first."""
    cdef uint64_t m[N]
    cdef uint64_t word
    cdef int i, cell
    items = self._items
    if not isinstance(items, tuple) or mb_to_words(mask, m) < 0:
        return self._select_py(mask)
    cdef Py_ssize_t count = len(<tuple>items)
    out = []
    for i in range(N):
        word = m[i]
        while word:
            cell = i * 64 + _ctz(word)
            if cell >= count:
                return self._select_py(mask)
            out.append(<object>PyTuple_GET_ITEM(items, cell))
            word &= word - 1
    return out


# -- The learning environments' masks and observation planes (core/planes.py has the numpy
# originals, which the tests hold equal: tests/rl/test_planes.py). ---------------------------

def bits_into(signed char[::1] out, Py_ssize_t offset, object bits):
    """``out[offset + i] = 1`` for every set bit ``i`` of the board mask ``bits``; False
    (nothing written) when it does not fit in the words or in ``out``."""
    cdef uint64_t w[N]
    cdef uint64_t word
    cdef int k
    cdef Py_ssize_t n = out.shape[0]
    if offset < 0 or mb_to_words(bits, w) < 0:
        return False
    for k in range(N - 1, -1, -1):  # the highest bit first: a bound check before any write
        if w[k]:
            if offset + k * 64 + 63 - _clz(w[k]) >= n:
                return False
            break
    for k in range(N):
        word = w[k]
        while word:
            out[offset + k * 64 + _ctz(word)] = 1
            word &= word - 1
    return True


def numbers_into(signed char[::1] out, list legal, dict by_id):
    """``out[number] = 1`` for every action of ``legal`` found in ``by_id`` (its table
    number by the object's identity); the actions not found, as a list (empty: all were)."""
    cdef object number
    cdef Py_ssize_t i, n = out.shape[0]
    missing = []
    for action in legal:
        number = by_id.get(id(action))
        if number is None:
            missing.append(action)
            continue
        i = number
        if 0 <= i < n:
            out[i] = 1
        else:
            raise IndexError(f"action number {i} outside the mask")
    return missing


cdef int _marks(float* flat, Py_ssize_t size, list ones, list at, list values,
                const float* scale, Py_ssize_t cells, list masks) except -1:
    cdef Py_ssize_t i, j, plane
    cdef uint64_t w[N]
    cdef uint64_t word
    cdef int k
    for item in ones:
        i = item
        if not 0 <= i < size:
            raise IndexError(f"plane index {i} outside the board planes")
        flat[i] = 1.0
    for j in range(len(at)):
        i = at[j]
        if not 0 <= i < size:
            raise IndexError(f"plane index {i} outside the board planes")
        flat[i] = <float>values[j] * scale[i // cells]
    for plane_mask in masks:
        plane = plane_mask[0]
        if mb_to_words(plane_mask[1], w) < 0:
            raise ValueError("a plane's mask does not fit the board words")
        for k in range(N):
            word = w[k]
            while word:
                i = k * 64 + _ctz(word)
                if i >= cells or not 0 <= plane * cells + i < size:
                    raise IndexError(f"mask bit {i} of plane {plane} outside the board")
                flat[plane * cells + i] = 1.0
                word &= word - 1
    return 0


def compose_full(float[:, ::1] out, const float[:, ::1] template, list ones, list at,
                 list values, const float[::1] scale, list masks, list scalars):
    """The full observation in place: ``out[:nb] = template``; 1 at the flat board indices
    ``ones``; ``values[j] * scale[plane]`` at ``at[j]``; the cells of each ``(plane, mask)``
    of ``masks`` set to 1; then row ``nb + s`` filled with ``scalars[s]``."""
    cdef Py_ssize_t nb = template.shape[0], cells = template.shape[1]
    cdef Py_ssize_t s, c, rows = out.shape[0]
    cdef float v
    cdef float* flat = &out[0, 0]
    if out.shape[1] != cells or rows != nb + len(scalars) or scale.shape[0] != nb:
        raise ValueError("compose_full: shapes do not match")
    for s in range(nb):
        for c in range(cells):
            flat[s * cells + c] = template[s, c]
    _marks(flat, nb * cells, ones, at, values, &scale[0], cells, masks)
    for s in range(rows - nb):
        v = scalars[s]
        for c in range(cells):
            flat[(nb + s) * cells + c] = v
    return None


def compose_board(float[:, ::1] out, const float[:, ::1] template, list ones, list at,
                  list values, const float[::1] scale, list masks):
    """The board planes alone (as ``compose_full`` without the scalars)."""
    cdef Py_ssize_t nb = template.shape[0], cells = template.shape[1]
    cdef Py_ssize_t s, c
    cdef float* flat = &out[0, 0]
    if out.shape[0] != nb or out.shape[1] != cells or scale.shape[0] != nb:
        raise ValueError("compose_board: shapes do not match")
    for s in range(nb):
        for c in range(cells):
            flat[s * cells + c] = template[s, c]
    _marks(flat, nb * cells, ones, at, values, &scale[0], cells, masks)
    return None
