# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twins of Monsters of the Midway's hottest queries (built by
``scripts/build_fast.py`` next to ``core/_fastgeo.pyx``): the rings of hexes a player may
reach, a phase's whole move list with its move context, the spell list and ``cells_mask``.
Masks of the field (14 x 24 hexes, 336 cells) cross as six 64-bit words; the rings grow a
row at a time. Each function computes exactly what its pure-Python reference in
games/midway/moves.py, phases.py and state.py computes; for an argument that does not fit
it returns ``None`` and the caller uses the reference. tests/games/midway/test_fast.py checks the
two against each other.
"""

from libc.stdint cimport uint32_t, uint64_t

from monsterball.core._bitwords cimport _ctz, mb_from_words, mb_to_words

# The version of these functions' signatures: state.py passes over a build without it (a
# stale module built from an older source), so the references run instead of a crash.
API = 4

DEF N = 6
DEF CELLS = 384
DEF PER = 10  # players a team (actions.PER_TEAM)
DEF PLAYERS = 20
DEF MAXR = 192  # rows: CELLS / the narrowest width


cdef class HexRings:
    """The ring-growing queries for one hex grid (``py``: the pure-Python HexGrid, read for
    its masks). Rings grow a row at a time (a row of up to 32 hexes is one word, its
    neighbours in the rows above and below are two shifts away), over the rows they have
    reached only; masks come and go as six 64-bit words."""

    cdef uint64_t full[N]
    cdef unsigned char dist[CELLS][CELLS]  # steps between two hexes on an empty field
    cdef uint32_t fullrow
    cdef bint even[MAXR]  # rows whose hexes touch columns c and c-1 of the next rows
    cdef int w, h, size

    def __init__(self, py_grid):
        cdef int r, a, b
        if py_grid.kind != "hex" or py_grid.size > CELLS or not 2 <= py_grid.width <= 32:
            raise ValueError("grid unsuited to the compiled Midway kernels")
        self.w = py_grid.width
        self.size = py_grid.size
        self.h = self.size // self.w
        if self.w * self.h != self.size or self.h > MAXR:
            raise ValueError("grid unsuited to the compiled Midway kernels")
        self.fullrow = <uint32_t>((<uint64_t>1 << self.w) - 1)
        for r in range(self.h):
            self.even[r] = (py_grid.even_rows >> (r * self.w)) & 1
        if mb_to_words(py_grid.full_mask, self.full) < 0:
            raise ValueError("grid masks do not fit")
        for a in range(self.size):
            row = py_grid.distance_row(a)
            for b in range(self.size):
                self.dist[a][b] = min(<int>row[b], 255)  # below size: never cut on a field

    cdef void _rows(self, const uint64_t* m, uint32_t* rows) noexcept nogil:
        """Six words to one word a row."""
        cdef int r, off, i, b, w = self.w
        cdef uint64_t v
        for r in range(self.h):
            off = r * w
            i = off >> 6
            b = off & 63
            v = m[i] >> b
            if b + w > 64:
                v |= m[i + 1] << (64 - b)
            rows[r] = <uint32_t>v & self.fullrow

    cdef void _words(self, const uint32_t* rows, uint64_t* m) noexcept nogil:
        """One word a row to six words."""
        cdef int r, off, i, b, w = self.w
        for i in range(N):
            m[i] = 0
        for r in range(self.h):
            off = r * w
            i = off >> 6
            b = off & 63
            m[i] |= (<uint64_t>rows[r]) << b
            if b + w > 64:
                m[i + 1] |= (<uint64_t>rows[r]) >> (64 - b)

    cdef inline uint32_t _down(self, const uint32_t* m, int s) noexcept nogil:
        """The hexes of rows s-1 and s+1 next to those of row s (s's parity decides)."""
        if self.even[s]:
            return m[s] | (m[s] >> 1)
        return (m[s] | (m[s] << 1)) & self.fullrow

    cdef inline uint32_t _grow(self, const uint32_t* m, int r) noexcept nogil:
        """Row r of HexGrid.dilate(m): the hexes of m in row r and their neighbours."""
        cdef uint32_t out = (m[r] | (m[r] << 1) | (m[r] >> 1)) & self.fullrow
        if r > 0:
            out |= self._down(m, r - 1)
        if r < self.h - 1:
            out |= self._down(m, r + 1)
        return out

    cdef void _rings(
        self, int start, int budget, const uint32_t* fr, const uint32_t* co,
        const uint32_t* ba, uint32_t* seen, int* span
    ) noexcept nogil:
        """destination_rings into ``seen`` (rows), ``span`` the rows it may touch."""
        cdef uint32_t front[MAXR]
        cdef uint32_t inner[MAXR]
        cdef uint32_t grown[MAXR]
        cdef uint32_t bit
        cdef int r, step, r0 = start // self.w, lo, hi
        cdef bint more
        for r in range(self.h):
            seen[r] = 0
            front[r] = 0
            inner[r] = 0
        bit = (<uint32_t>1) << (start - r0 * self.w)
        seen[r0] = front[r0] = inner[r0] = bit
        lo = hi = r0
        for step in range(budget):
            lo = lo - 1 if lo > 0 else 0
            hi = hi + 1 if hi < self.h - 1 else hi
            for r in range(lo, hi + 1):
                grown[r] = self._grow(front, r) & fr[r] & ~seen[r]
            more = False
            for r in range(lo, hi + 1):
                seen[r] |= grown[r]
                front[r] = grown[r]
                if grown[r]:
                    more = True
            if step < budget - 1:
                for r in range(lo, hi + 1):
                    inner[r] |= grown[r]
            if not more:
                break
        seen[r0] &= ~bit
        lo = lo - 1 if lo > 0 else 0
        hi = hi + 1 if hi < self.h - 1 else hi
        for r in range(lo, hi + 1):
            # Contact hexes next to one reached with a step to spare (never the start).
            seen[r] |= self._grow(inner, r) & co[r] & ~(bit if r == r0 else 0)
            seen[r] &= ~ba[r]
        span[0] = lo
        span[1] = hi

    def destination_rings(self, int start, int budget, free, contact, barred):
        """moves.destination_rings: hexes reached through ``free`` hexes in 1..budget steps,
        plus ``contact`` hexes next to one reached with a step to spare (or to the start),
        minus ``barred``; ``None`` if an argument does not fit."""
        cdef uint64_t m[N]
        cdef uint32_t fr[MAXR]
        cdef uint32_t co[MAXR]
        cdef uint32_t ba[MAXR]
        cdef uint32_t out[MAXR]
        cdef int span[2]
        if not 0 <= start < self.size:
            return None
        if mb_to_words(free, m) < 0:
            return None
        self._rows(m, fr)
        if mb_to_words(contact, m) < 0:
            return None
        self._rows(m, co)
        if mb_to_words(barred, m) < 0:
            return None
        self._rows(m, ba)
        self._rings(start, budget, fr, co, ba, out, span)
        self._words(out, m)
        return mb_from_words(m)

    cdef object _moves(
        self, list pos, tuple left, int lo, int hi, unsigned long long sk, long carrier,
        const uint64_t* free, const uint64_t* contact, const uint64_t* barred, tuple items,
        unsigned long long kept, const uint32_t* keeps, list out
    ):
        """Phase.team_moves_py's moves appended to ``out`` (players lo..hi-1 not in ``sk``
        with movement left, in player then cell order: the carrier stepping to a free
        neighbour, the others by ``destination_rings``, those in ``kept`` cut to their rows
        ``keeps[(p - lo) * MAXR:]``); the carrier's destinations (or 0), or ``None`` if an
        argument does not fit."""
        cdef uint64_t words[N]
        cdef uint32_t fr[MAXR]
        cdef uint32_t co[MAXR]
        cdef uint32_t ba[MAXR]
        cdef uint32_t one[MAXR]
        cdef uint32_t m[MAXR]
        cdef uint32_t bits
        cdef int span[2]
        cdef long start, budget
        cdef Py_ssize_t count
        cdef int r, p, cell, w = self.w
        cdef bint found
        if (
            not 0 <= lo <= hi <= len(pos)
            or hi > len(left)
            or hi > len(items)
            or hi > 64
        ):
            return None
        self._rows(free, fr)
        self._rows(contact, co)
        self._rows(barred, ba)
        carrier_mask = 0
        for p in range(lo, hi):
            start = pos[p]
            budget = left[p]
            if start < 0 or budget <= 0 or (sk >> p) & 1:
                continue
            if start >= self.size:
                return None
            if p == carrier:  # one hex into an empty one: the start's neighbours
                r = start // w
                for cell in range(self.h):
                    one[cell] = 0
                    m[cell] = 0
                one[r] = (<uint32_t>1) << (start - r * w)
                span[0] = r - 1 if r > 0 else 0
                span[1] = r + 1 if r < self.h - 1 else r
                for cell in range(span[0], span[1] + 1):
                    m[cell] = self._grow(one, cell) & fr[cell]
                m[r] &= ~one[r]
            else:
                self._rings(<int>start, <int>budget, fr, co, ba, m, span)
            if (kept >> p) & 1:
                for r in range(span[0], span[1] + 1):
                    m[r] &= keeps[(p - lo) * MAXR + r]
            row = items[p]
            count = len(row)
            found = False
            for r in range(span[0], span[1] + 1):
                bits = m[r]
                while bits:
                    cell = r * w + _ctz(bits)
                    if cell >= count:
                        return None
                    out.append(row[cell])
                    found = True
                    bits &= bits - 1
            if found and p == carrier:
                self._words(m, words)
                carrier_mask = mb_from_words(words)
        return carrier_mask

    def move_price(self, state, int player, int cell):
        """moves.move_price: -1 if ``cell`` holds a counter (state.counters_mask), else the
        fewest steps from ``player``'s hex to it through empty hexes (at least 1); ``None``
        if the position does not fit or the hex cannot be reached."""
        cdef uint64_t occ[N]
        cdef uint32_t fr[MAXR]
        cdef uint32_t seen[MAXR]
        cdef uint32_t front[MAXR]
        cdef uint32_t grown[MAXR]
        cdef list pos = state.pos
        cdef long c, start, invisible = state.invisible
        cdef int i, n, r, r0, rc, lo, hi, steps = 0, w = self.w
        cdef uint32_t goal
        cdef bint more
        if len(pos) != PLAYERS or not 0 <= player < PLAYERS or not 0 <= cell < self.size:
            return None
        start = pos[player]
        if not 0 <= start < self.size:
            return None
        for i in range(N):
            occ[i] = 0
        for i in range(PLAYERS):
            c = pos[i]
            if c >= 0:
                if c >= CELLS:
                    return None
                _put(occ, c)
        if invisible >= PLAYERS:
            return None
        if invisible >= 0:
            c = pos[invisible]
            if c >= 0:
                n = 0
                for i in range(PLAYERS):
                    if <long>pos[i] == c:
                        n += 1
                if n == 1:
                    _drop(occ, c)  # nobody else shows a counter there
        for x in state.images:
            c = x
            if not 0 <= c < CELLS:
                return None
            _put(occ, c)
        if (occ[cell >> 6] >> (cell & 63)) & 1:
            return -1
        for i in range(N):
            occ[i] = self.full[i] & ~occ[i]
        self._rows(occ, fr)
        r0, rc = start // w, cell // w
        goal = (<uint32_t>1) << (cell - rc * w)
        fr[rc] |= goal
        for r in range(self.h):
            seen[r] = 0
            front[r] = 0
        seen[r0] = front[r0] = (<uint32_t>1) << (start - r0 * w)
        lo = hi = r0
        while True:  # the breadth-first search of HexGrid.steps_to, a row at a time
            if seen[rc] & goal:
                return steps if steps > 0 else 1
            steps += 1
            lo = lo - 1 if lo > 0 else 0
            hi = hi + 1 if hi < self.h - 1 else hi
            for r in range(lo, hi + 1):
                grown[r] = self._grow(front, r) & fr[r] & ~seen[r]
            more = False
            for r in range(lo, hi + 1):
                seen[r] |= grown[r]
                front[r] = grown[r]
                if grown[r]:
                    more = True
            if not more:
                return None

    # -- the move context (moves.MoveContext, counters_of, contact_mask) ------------------

    cdef int _context(
        self, state, int team, uint64_t* free, uint64_t* contact, uint64_t* beyond
    ) except -2:
        """moves.MoveContext(state, team) into three masks: 0, or -1 if the position does
        not fit (a cell off the six words, a player missing): the caller uses the
        reference, which raises whatever it raises."""
        cdef list pos = state.pos
        cdef list images = state.images
        cdef long invisible = state.invisible, caster = state.caster
        cdef long carrier = state.carrier, ball = state.ball, receivable = state.receivable
        cdef uint64_t own[N]
        cdef uint64_t opp[N]
        cdef uint64_t grp[N]
        cdef uint64_t crowded[N]
        cdef uint64_t word
        cdef int i, other = 1 - team, holder, lo = team * PER, mine
        cdef long c
        cdef bint scrum, opp_casts
        if (
            len(pos) != PLAYERS
            or not 0 <= team <= 1
            or _counters_of(pos, team, invisible, caster, images, own) < 0
            or _counters_of(pos, other, invisible, caster, images, opp) < 0
        ):
            return -1
        for i in range(N):
            free[i] = own[i] | opp[i]
        for x in images:  # every image, whoever casts them (state.counters_mask)
            c = x
            if not 0 <= c < CELLS:
                return -1
            free[c >> 6] |= (<uint64_t>1) << (c & 63)
        for i in range(N):
            free[i] = self.full[i] & ~free[i]
        ball_state = state.ball_state
        if ball_state == "kick" and receivable >= 0 and team != receivable:
            if not 0 <= ball < CELLS:
                return -1
            _drop(free, ball)  # the kickers may not touch a kick before the receivers
        # contact_mask
        holder = carrier // PER if carrier >= 0 else -1
        opp_casts = caster >= 0 and caster // PER == other
        if opp_casts:
            for i in range(N):
                grp[i] = 0
            for x in images:
                _put(grp, x)  # checked above
            c = pos[caster]
            if c >= 0:
                if c >= CELLS:
                    return -1
                _put(grp, c)
        for i in range(N):
            contact[i] = 0
        if holder == team:
            c = pos[carrier]
            if not 0 <= c < CELLS:
                return -1
            for i in range(N):
                contact[i] = opp[i]  # blocks
            _drop(contact, c)
        elif holder == other:
            if not 0 <= ball < CELLS:
                return -1
            _put(contact, ball)
            if opp_casts:
                for i in range(N):
                    contact[i] |= opp[i] & grp[i]
        elif (ball_state == "pass" and state.offense == team) or (
            state.kind == "onside" and ball_state == "loose"
        ):
            for i in range(N):
                contact[i] = opp[i]
        if ball >= 0 and ball_state in ("loose", "pass", "kick", "punt"):
            if ball >= CELLS:
                return -1
            if ball_state != "kick" or team == receivable:  # a kickoff is the receivers'
                _put(contact, ball)
        if opp_casts:
            for i in range(N):
                contact[i] |= grp[i]
        scrum = (
            ball_state == "loose"
            and ball >= 0
            and (state.kind == "onside" or state.options.loose_ball == "contest")
        )
        for i in range(N):
            crowded[i] = contact[i] & own[i]
        # Ruling MW-R27: no limit in a loose ball's scrum, the carrier's hex (for the team
        # without the ball) or a pass's hex (for the defense).
        if (
            scrum or holder == other or (ball_state == "pass" and team != state.offense)
        ) and 0 <= ball < CELLS:
            _drop(crowded, ball)
        for i in range(N):
            word = crowded[i]
            while word:
                c = i * 64 + _ctz(word)
                word &= word - 1
                mine = 0
                for p in range(lo, lo + PER):
                    if <long>pos[p] == c:
                        mine += 1
                if mine >= 2 or (holder == other and mine >= 1):
                    _drop(contact, c)
        for i in range(N):
            beyond[i] = 0
        if state.passed and state.throw_phase == state.phases and team == state.offense:
            # MW-PASS-9: no blocks beyond the line in the phase after the throw.
            if mb_to_words(state.beyond_mask(state.offense, state.los_row), beyond) < 0:
                return -1
            for i in range(N):
                beyond[i] &= opp[i]
        return 0

    def move_context(self, state, int team):
        """moves.MoveContext(state, team) as (free, contact, opp_beyond); ``None`` if the
        position does not fit."""
        cdef uint64_t fr[N]
        cdef uint64_t co[N]
        cdef uint64_t ba[N]
        if self._context(state, team, fr, co, ba) < 0:
            return None
        return mb_from_words(fr), mb_from_words(co), mb_from_words(ba)

    def phase_moves(self, state, phase, list out):
        """Phase.team_moves_py with its move context, in one call: appends to ``out`` the
        moves of ``phase``'s team (the dazed, the hidden and a carrier paused for a handoff
        stay; a hobgoblin's cut as moves.hobgoblin_keep cuts them) and returns the
        carrier's destinations, or ``None`` if the position does not fit."""
        cdef uint64_t fr[N]
        cdef uint64_t co[N]
        cdef uint64_t ba[N]
        cdef uint32_t keeps[PER * MAXR]
        cdef int elves[PER]
        cdef int team = phase.team, p, lo, n_elves = -1, i, r, col, best, far
        cdef long defending
        cdef long who, here, c, caster = state.caster, invisible = state.invisible
        cdef unsigned long long barred, kept = 0
        cdef uint32_t bits
        cdef list pos = state.pos
        cdef list form = state.form
        cdef list roster = state.roster
        if not 0 <= team <= 1 or len(form) < PLAYERS or len(roster) < PLAYERS:
            return None
        lo = team * PER
        try:
            barred = state.dazed  # Phase._barred
        except OverflowError:
            return None
        for who in (invisible, caster, phase.paused):
            if who >= 0:
                if who >= 64:
                    return None
                barred |= (<unsigned long long>1) << who
        if self._context(state, team, fr, co, ba) < 0:
            return None
        # moves.defending_team (ruling MW-R29): only a defending hobgoblin chases an elf.
        if state.carrier >= 0:
            defending = 1 - <long>state.carrier // PER
        elif state.kind in ("kickoff", "onside", "punt"):
            defending = state.offense
        else:
            defending = 1 - <long>state.poss
        for p in range(lo, lo + PER if defending == team else lo):
            # MW-SPEC-5 (moves.hobgoblin_keep): a hobgoblin may not end a move farther from
            # the nearest visible opposing elf (the lowest hex of the nearest) than he stands.
            here = pos[p]
            if here < 0 or (form[p] or roster[p]) != "hobgoblin":  # kind_of
                continue
            if here >= self.size:
                return None
            if n_elves < 0:
                n_elves = 0
                for who in range((1 - team) * PER, (2 - team) * PER):
                    c = pos[who]
                    if c < 0 or who == caster or who == invisible:
                        continue  # off the field, or hidden (state.hidden_from(None))
                    if (form[who] or roster[who]) == "elf":
                        if c >= self.size:
                            return None
                        elves[n_elves] = c
                        n_elves += 1
            if n_elves == 0:
                continue
            best, far = elves[0], self.dist[here][elves[0]]
            for i in range(1, n_elves):
                c = elves[i]
                if self.dist[here][c] < far or (self.dist[here][c] == far and c < best):
                    best, far = c, self.dist[here][c]
            for r in range(self.h):  # moves.within(field, best, far)
                bits = 0
                for col in range(self.w):
                    if self.dist[best][r * self.w + col] <= far:
                        bits |= (<uint32_t>1) << col
                keeps[(p - lo) * MAXR + r] = bits
            kept |= (<unsigned long long>1) << p
        return self._moves(
            pos, phase.left, lo, lo + PER, barred, state.carrier, fr, co, ba,
            state.actions.move, kept, keeps, out
        )


cdef inline void _put(uint64_t* m, long c) noexcept nogil:
    m[c >> 6] |= (<uint64_t>1) << (c & 63)


cdef inline void _drop(uint64_t* m, long c) noexcept nogil:
    m[c >> 6] &= ~((<uint64_t>1) << (c & 63))


cdef int _counters_of(
    list pos, int team, long invisible, long caster, list images, uint64_t* out
) except -2:
    """moves.counters_of: 0, or -1 if a cell does not fit."""
    cdef int i, lo = team * PER, n
    cdef long c
    for i in range(N):
        out[i] = 0
    for i in range(lo, lo + PER):
        c = pos[i]
        if c >= 0:
            if c >= CELLS:
                return -1
            _put(out, c)
    if invisible >= 0 and invisible // PER == team:
        c = pos[invisible]
        if c >= 0:
            n = 0
            for i in range(lo, lo + PER):
                if <long>pos[i] == c:
                    n += 1
            if n == 1:
                _drop(out, c)  # no teammate shows a counter there
    if caster >= 0 and caster // PER == team:
        for x in images:
            c = x
            if not 0 <= c < CELLS:
                return -1
            _put(out, c)
    return 0


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
    return mb_from_words(w) | extra if extra else mb_from_words(w)


def casts(state, int team, long long acted, tuple magic):
    """phases.Phase._casts: the spells open to ``team``'s players who have not ``acted``
    (MW-MAGIC-1), ``magic`` being moves.magic_users(state); ``None`` if a mask does not
    fit 63 bits."""
    cdef long long users, were, change, dazed, spent, used_up, bits
    cdef long caster = state.caster, invisible = state.invisible, q
    cdef int p, other = 1 - team
    cdef list pos = state.pos
    cdef list form = state.form
    if not 0 <= team <= 1 or not -1 <= caster < 63 or not -1 <= invisible < 63:
        return None
    try:
        users, were, change = magic
        dazed, spent = state.dazed, state.spent
    except OverflowError:
        return None
    users &= ((<long long>1 << PER) - 1) << (team * PER)
    users &= ~acted & ~dazed
    if caster >= 0:
        users &= ~(<long long>1 << caster)
    if invisible >= 0:
        users &= ~(<long long>1 << invisible)
    used_up = users & spent & ~were  # lycanthropy is at will
    if used_up and state.options.spell_limit != "none":
        bits = used_up & change
        while bits:
            p = _ctz(<uint64_t>bits)
            bits &= bits - 1
            if form[p]:
                used_up &= ~(<long long>1 << p)  # a changed player may always change back
        users &= ~used_up  # MW-R18: these spells are used up
    if not users:
        return []
    acts = state.actions
    types = state.chart.types
    cdef list roster = state.roster
    ball_state = state.ball_state
    kind = state.kind  # phase_open.mirror_open
    snapped = kind in ("scrimmage", "conversion", "punt", "field goal", "blocked") or (
        kind in ("kickoff", "onside") and state.options.mirror_kickoff == "after_kick"
    )
    out = []
    while users:
        p = _ctz(<uint64_t>users)
        users &= users - 1
        if <long>pos[p] < 0:
            continue
        magic_ = types[roster[p]].magic
        if magic_ == "bolt":
            bolts = acts.bolts[p]
            if ball_state in ("held", "pass", "loose", "kick", "punt"):
                out.append(bolts[PLAYERS])  # the ball: the last bolt
            for q in range(other * PER, other * PER + PER):
                # Hidden opponents (an opposing caster or invisible player) are no targets.
                if <long>pos[q] >= 0 and q != caster and q != invisible:
                    out.append(bolts[q])
        elif magic_ == "mirror":
            if snapped and caster < 0:
                # Ruling MW-R10: not while a seen opponent shares his hex.
                for q in range(other * PER, other * PER + PER):
                    if <long>pos[q] == <long>pos[p] and q != invisible:
                        break
                else:
                    out.append(acts.spells[p]["mirror"])
        elif magic_ == "invisible":
            if invisible < 0:
                out.append(acts.spells[p]["invisible"])
        elif magic_ == "change":
            if form[p]:
                out.append(acts.spells[p]["revert"])
            else:
                out.extend(acts.changes[p])
        elif magic_ == "were":
            out.append(acts.spells[p]["human" if state.were >> p & 1 else "were"])
    return out
