# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twins of Monsters of the Midway's hottest movement queries (built by
``scripts/build_fast.py`` next to ``core/_fastgeo.pyx``). The field (14 x 24 hexes, 336
cells) is held in six 64-bit words. Each function computes exactly what its pure-Python
reference in games/midway/moves.py and state.py computes (``destination_rings`` and
``cells_mask``); for an argument that does not fit it returns ``None`` and the caller uses
the reference. tests/test_fast_paths.py checks the two against each other.
"""

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #include <stdint.h>
    /* Same conversion as core/_fastgeo.pyx: 0 and six little-endian words, or -1 (error
       cleared) if v is not an int in 0 .. 2**384 - 1. */
    static int mw_to_words(PyObject* v, uint64_t* w) {
        if (!PyLong_Check(v)) return -1;
    #if PY_VERSION_HEX >= 0x030D0000
        int r = _PyLong_AsByteArray((PyLongObject*)v, (unsigned char*)w, 48, 1, 0, 1);
    #else
        int r = _PyLong_AsByteArray((PyLongObject*)v, (unsigned char*)w, 48, 1, 0);
    #endif
        if (r < 0) { PyErr_Clear(); return -1; }
        return 0;
    }
    static PyObject* mw_from_words(const uint64_t* w) {
        return _PyLong_FromByteArray((const unsigned char*)w, 48, 1, 0);
    }
    """
    int mw_to_words(object v, uint64_t* w)
    object mw_from_words(const uint64_t* w)

DEF N = 6
DEF CELLS = 384


cdef inline void shl(const uint64_t* a, int k, uint64_t* o) noexcept nogil:
    cdef int i
    for i in range(N - 1, 0, -1):
        o[i] = (a[i] << k) | (a[i - 1] >> (64 - k))
    o[0] = a[0] << k


cdef inline void shr(const uint64_t* a, int k, uint64_t* o) noexcept nogil:
    cdef int i
    for i in range(N - 1):
        o[i] = (a[i] >> k) | (a[i + 1] << (64 - k))
    o[N - 1] = a[N - 1] >> k


cdef class HexRings:
    """The ring-growing queries for one hex grid (``py``: the pure-Python HexGrid, read for
    its masks). Widths 2..62 only (every shift is 1..63 bits)."""

    cdef uint64_t full[N]
    cdef uint64_t nf[N]
    cdef uint64_t nl[N]
    cdef uint64_t even[N]
    cdef int w, size

    def __init__(self, py_grid):
        if py_grid.kind != "hex" or py_grid.size > CELLS or not 2 <= py_grid.width < 63:
            raise ValueError("grid unsuited to the compiled Midway kernels")
        self.w = py_grid.width
        self.size = py_grid.size
        if (
            mw_to_words(py_grid.full_mask, self.full) < 0
            or mw_to_words(py_grid.not_first_col, self.nf) < 0
            or mw_to_words(py_grid.not_last_col, self.nl) < 0
            or mw_to_words(py_grid.even_rows, self.even) < 0
        ):
            raise ValueError("grid masks do not fit")

    cdef void _dilate(self, const uint64_t* m, uint64_t* out) noexcept nogil:
        """HexGrid.dilate: the cells of ``m`` and their neighbours, on the board."""
        cdef uint64_t t[N]
        cdef uint64_t e[N]
        cdef uint64_t o[N]
        cdef int i, w = self.w
        for i in range(N):
            e[i] = m[i] & self.even[i]
            o[i] = m[i] ^ e[i]
            out[i] = m[i]
        shl(m, 1, t)
        for i in range(N):
            out[i] |= t[i] & self.nf[i]
        shr(m, 1, t)
        for i in range(N):
            out[i] |= t[i] & self.nl[i]
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
            out[i] = (out[i] | t[i]) & self.full[i]

    cdef void _rings(
        self, int start, int budget, const uint64_t* fr, const uint64_t* contact,
        const uint64_t* ba, uint64_t* seen
    ) noexcept nogil:
        cdef uint64_t co[N]
        cdef uint64_t front[N]
        cdef uint64_t inner[N]
        cdef uint64_t grown[N]
        cdef uint64_t s[N]
        cdef int i, step
        cdef bint more
        for i in range(N):
            s[i] = 0
        s[start >> 6] = (<uint64_t>1) << (start & 63)
        for i in range(N):
            seen[i] = s[i]
            front[i] = s[i]
            inner[i] = s[i]
        for step in range(budget):
            self._dilate(front, grown)
            more = False
            for i in range(N):
                grown[i] &= fr[i] & ~seen[i]
                seen[i] |= grown[i]
                front[i] = grown[i]
                if grown[i]:
                    more = True
            if step < budget - 1:
                for i in range(N):
                    inner[i] |= grown[i]
            if not more:
                break
        more = False
        for i in range(N):
            seen[i] &= ~s[i]
            co[i] = contact[i] & ~s[i]
            if co[i]:
                more = True
        if more:
            self._dilate(inner, grown)
            for i in range(N):
                seen[i] |= grown[i] & co[i]
        for i in range(N):
            seen[i] &= ~ba[i]

    def destination_rings(self, int start, int budget, free, contact, barred):
        """moves.destination_rings: hexes reached through ``free`` hexes in 1..budget steps,
        plus ``contact`` hexes next to one reached with a step to spare (or to the start),
        minus ``barred``; ``None`` if an argument does not fit."""
        cdef uint64_t fr[N]
        cdef uint64_t co[N]
        cdef uint64_t ba[N]
        cdef uint64_t out[N]
        if (
            not 0 <= start < self.size
            or mw_to_words(free, fr) < 0
            or mw_to_words(contact, co) < 0
            or mw_to_words(barred, ba) < 0
        ):
            return None
        self._rings(start, budget, fr, co, ba, out)
        return mw_from_words(out)

    def team_moves(
        self, list pos, tuple left, int lo, int hi, skip, int carrier, free, contact,
        barred, tuple items, dict keep
    ):
        """phases.team_moves: (every move of players lo..hi-1 not in ``skip`` with movement
        left, in player then cell order; the carrier's destinations or 0), the carrier
        stepping to a free neighbour and the others by ``destination_rings``, cut to
        ``keep[p]`` where given (hobgoblins); ``None`` if an argument does not fit."""
        cdef uint64_t kp[N]
        cdef uint64_t fr[N]
        cdef uint64_t co[N]
        cdef uint64_t ba[N]
        cdef uint64_t m[N]
        cdef uint64_t one[N]
        cdef uint64_t word
        cdef unsigned long long sk
        cdef long start, budget
        cdef Py_ssize_t count
        cdef int i, p, cell
        cdef bint found
        if (
            not 0 <= lo <= hi <= len(pos)
            or hi > len(left)
            or hi > len(items)
            or hi > 64
            or not 0 <= skip < (1 << 64)
            or mw_to_words(free, fr) < 0
            or mw_to_words(contact, co) < 0
            or mw_to_words(barred, ba) < 0
        ):
            return None
        sk = skip
        out = []
        carrier_mask = 0
        for p in range(lo, hi):
            start = pos[p]
            budget = left[p]
            if start < 0 or budget <= 0 or (sk >> p) & 1:
                continue
            if start >= self.size:
                return None
            if p == carrier:  # one hex into an empty one: the start's neighbours
                for i in range(N):
                    one[i] = 0
                one[start >> 6] = (<uint64_t>1) << (start & 63)
                self._dilate(one, m)
                for i in range(N):
                    m[i] &= fr[i] & ~one[i]
            else:
                self._rings(<int>start, <int>budget, fr, co, ba, m)
            if keep:
                kept = keep.get(p)
                if kept is not None:
                    if mw_to_words(kept, kp) < 0:
                        return None
                    for i in range(N):
                        m[i] &= kp[i]
            row = items[p]
            count = len(row)
            found = False
            for i in range(N):
                word = m[i]
                while word:
                    cell = i * 64 + _ctz(word)
                    if cell >= count:
                        return None
                    out.append(row[cell])
                    found = True
                    word &= word - 1
            if found and p == carrier:
                carrier_mask = mw_from_words(m)
        return out, carrier_mask


cdef extern from *:
    """
    static inline int mw_ctz(uint64_t x) { return __builtin_ctzll(x); }
    """
    int _ctz "mw_ctz"(uint64_t x) nogil


def cells_mask(list cells, Py_ssize_t lo, Py_ssize_t hi):
    """state.cells_mask: the bitmask of the cells in ``cells[lo:hi]`` that are >= 0."""
    cdef uint64_t w[N]
    cdef Py_ssize_t i
    cdef long c
    extra = 0  # cells past the six words (none on a Midway field), as Python ints
    for i in range(N):
        w[i] = 0
    if lo < 0:
        lo = 0
    if hi > len(cells):
        hi = len(cells)
    for i in range(lo, hi):
        c = cells[i]
        if c < 0:
            continue
        if c >= CELLS:
            extra |= 1 << cells[i]  # a Python int shift: no C overflow
        else:
            w[c >> 6] |= (<uint64_t>1) << (c & 63)
    return mw_from_words(w) | extra if extra else mw_from_words(w)
