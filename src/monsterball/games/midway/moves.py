"""Queries the movement phases ask: where a player may move, who may tackle or block, and
the sizes the Size Modifier chart reads (with the special abilities applied)."""

from __future__ import annotations

from typing import Any

from monsterball.core.geometry import Grid, HexGrid, grid, iter_bits
from monsterball.games.midway.actions import LENGTH, PER_TEAM, WIDTH
from monsterball.games.midway.chart import size_modifier
from monsterball.games.midway.state import (
    KERNELS,
    NOBODY,
    MidwayState,
    cells_mask,
    team_of,
    team_players,
)

State = MidwayState

# The compiled ring growth for the Midway field, when built (see state.FAST).
FIELD = grid("hex", WIDTH, LENGTH)
FAST_RINGS: Any = KERNELS.HexRings(FIELD) if KERNELS is not None else None


def ball_team(state: State) -> int:
    """The team holding the ball, or -1 when nobody does (loose, in flight, kicked)."""
    return team_of(state.carrier) if state.carrier >= 0 else NOBODY


def counters_of(state: State, team: int) -> int:
    """Hexes where ``team`` shows a counter the other side may touch: visible players and
    mirror images."""
    pos = state.pos
    mask = cells_mask(pos, team * PER_TEAM, (team + 1) * PER_TEAM)
    hidden = state.invisible
    if hidden >= 0 and team_of(hidden) == team:
        c = pos[hidden]
        if c >= 0 and pos[team * PER_TEAM : (team + 1) * PER_TEAM].count(c) == 1:
            mask &= ~(1 << c)  # no teammate shows a counter there
    if state.caster >= 0 and team_of(state.caster) == team:
        for c in state.images:
            mask |= 1 << c
    return mask


_MAGIC: dict[tuple[str, ...], tuple[int, int, int]] = {}
# The rosters of the last call and its answer.
_LAST_MAGIC: list[tuple[list[str], tuple[int, int, int]]] = [([], (0, 0, 0))]


def magic_users(state: State) -> tuple[int, int, int]:
    """Bitmasks of the players whose chart type casts a spell (MW-MAGIC-1), of those whose
    spell is lycanthropy and of those whose spell is change self. They depend on the
    rosters only (of the one draft chart), so they are cached by roster."""
    roster = state.roster
    last_roster, last = _LAST_MAGIC[0]
    if roster == last_roster:  # the same rosters as the last call: no tuple to build and hash
        return last
    key = tuple(roster)
    found = _MAGIC.get(key)
    if found is None:
        types = state.chart.types
        users = were = change = 0
        for p, kind in enumerate(key):
            magic = types[kind].magic if kind else ""
            if magic:
                users |= 1 << p
                were |= (magic == "were") << p
                change |= (magic == "change") << p
        if len(_MAGIC) >= 4096:  # a long run of drafts: start again rather than grow
            _MAGIC.clear()
        found = _MAGIC[key] = (users, were, change)
    _LAST_MAGIC[0] = (roster[:], found)  # a copy: the draft fills rosters in place
    return found


def contact_targets(state: State, player: int) -> int:
    """Occupied hexes ``player`` may enter (see :func:`contact_mask`)."""
    return contact_mask(state, team_of(player))


def contact_mask(state: State, team: int, own: int = -1, opp: int = -1) -> int:
    """Occupied hexes a player of ``team`` may enter (MW-MOVE-2): to block (the team with
    the ball into an opponent's hex), to tackle (the carrier's hex, or any counter of a
    mirror group that may hide him), to contest a loose or thrown ball; at most two of a
    team per hex, and one would-be tackler except in the carrier's hex. ``own``, ``opp``:
    the two teams' :func:`counters_of`, if the caller has them."""
    other = 1 - team
    if own < 0:
        own = counters_of(state, team)
    if opp < 0:
        opp = counters_of(state, other)
    holder = team_of(state.carrier) if state.carrier >= 0 else NOBODY  # ball_team
    mask = 0
    if holder == team:
        mask |= opp  # blocks
        if state.carrier >= 0:
            mask &= ~(1 << state.pos[state.carrier])
    elif holder == other:
        carrier_hex = 1 << state.ball
        mask |= carrier_hex
        if state.caster >= 0 and team_of(state.caster) == other:
            mask |= opp & _group_mask(state)  # the carrier may hide among the counters
    elif state.ball_state == "pass" and state.offense == team:
        mask |= opp  # blocks while a pass is in the air
    elif state.kind == "onside" and state.ball_state == "loose":
        mask |= opp  # MW-KICK-12: either team may block around a loose onside kick
    # A kickoff in the air is the receivers' alone (MW-KICK-7: "On a regular kickoff, there
    # will be no defenders ... in the hex").
    if (
        state.ball >= 0
        and state.ball_state in ("loose", "pass", "kick", "punt")
        and (state.ball_state != "kick" or team == state.receivable)
    ):
        mask |= 1 << state.ball
    if state.caster >= 0 and team_of(state.caster) == other:
        mask |= _group_mask(state)  # touching a counter reveals it
    # Team limits (ruling MW-R27): two blockers per hex ("Two blockers (but not three or
    # more)"), and two of a team on a kick or punt; the team without the ball: one would-be
    # tackler a hex, any number in the carrier's hex ("No hex can be occupied by more than
    # one would-be tackler unless it is the hex containing the ball carrier") and in a
    # pass's hex (defending against a pass has no limit). Around a loose onside kick "any
    # number of players from either team may move into" its hex, and around any loose ball
    # (ruling MW-R22: the Fumble Recovery Table counts "5+").
    scrum = (
        state.ball_state == "loose"
        and state.ball >= 0
        and (state.kind == "onside" or state.options.loose_ball == "contest")
    )
    if scrum or (state.ball_state == "pass" and team != state.offense and state.ball >= 0):
        open_hex = 1 << state.ball
    elif holder == other:
        open_hex = 1 << state.ball  # the carrier's hex
    else:
        open_hex = 0
    crowded = mask & own & ~open_hex
    team_cells = state.pos[team * PER_TEAM : (team + 1) * PER_TEAM] if crowded else []
    for cell in iter_bits(crowded):
        mine = team_cells.count(cell)
        if mine >= 2 or (holder == other and mine >= 1):
            mask &= ~(1 << cell)
    return mask


def _group_mask(state: State) -> int:
    mask = 0
    for c in state.images:
        mask |= 1 << c
    if state.caster >= 0 and state.pos[state.caster] >= 0:
        mask |= 1 << state.pos[state.caster]
    return mask


def group_cells(state: State) -> list[int]:
    return sorted({*state.images, state.pos[state.caster]}) if state.caster >= 0 else []


class MoveContext:
    """What every move of one team in one position shares, computed once per legal list."""

    __slots__ = ("contact", "free", "opp_beyond")

    def __init__(self, state: State, team: int):
        f = state.field
        own, opp = counters_of(state, team), counters_of(state, 1 - team)
        occupied = own | opp  # state.counters_mask(): the images too, whoever casts them
        for c in state.images:
            occupied |= 1 << c
        free = f.full_mask & ~occupied
        if state.ball_state == "kick" and state.receivable >= 0 and team != state.receivable:
            free &= ~(1 << state.ball)  # the kickers may not touch a kick before the receivers
        self.free = free
        self.contact = contact_mask(state, team, own, opp)
        self.opp_beyond = 0
        if state.passed and state.throw_phase == state.phases and team == state.offense:
            # MW-PASS-9: no blocks beyond the line in the phase after the throw.
            self.opp_beyond = opp & state.beyond_mask(state.offense, state.los_row)


def destination_mask(state: State, player: int, budget: int, ctx: MoveContext | None = None) -> int:
    """Bitmask of every hex ``player`` may end a move on with ``budget`` movement.

    Paths run through empty hexes; the last step may enter an occupied hex it is allowed
    to contact (which ends the move). The ball carrier moves one hex at a time (ruling
    MW-R5) and never into an occupied hex. Computed by growing rings of bitmasks, so no
    per-hex work is done for the whole legal list.
    """
    start = state.pos[player]
    if budget <= 0 or start < 0:
        return 0
    if ctx is None:
        ctx = MoveContext(state, team_of(player))
    f = state.field
    free = ctx.free
    if player == state.carrier:
        out = f.neighbour_mask[start] & free
    else:
        found = None
        if FAST_RINGS is not None and f is FIELD:
            found = FAST_RINGS.destination_rings(start, budget, free, ctx.contact, ctx.opp_beyond)
        if found is None:
            found = destination_rings(f, start, budget, free, ctx.contact, ctx.opp_beyond)
        out = found
    if (state.form[player] or state.roster[player]) == "hobgoblin":  # kind_of, inlined
        out = hobgoblin_filter(state, player, out)
    return out


def destination_rings(
    f: HexGrid, start: int, budget: int, free: int, contact: int, barred: int
) -> int:
    """The hexes reached from ``start`` through ``free`` hexes in 1..budget steps, plus the
    ``contact`` hexes next to the start or to a hex reached with a step to spare, minus
    ``barred``. The reference of the compiled twin (``_fastmw.HexRings``)."""
    seen = 1 << start
    frontier = seen
    inner = seen  # hexes reached with at least one step to spare
    for step in range(budget):
        grown = f.dilate(frontier) & free & ~seen
        seen |= grown
        frontier = grown
        if step < budget - 1:
            inner |= grown
        if not grown:
            break
    out = seen & ~(1 << start)
    contact &= ~(1 << start)
    if contact:
        out |= f.dilate(inner) & contact
    return out & ~barred


def move_cost(state: State, player: int, cell: int, occupied: int | None = None) -> int:
    """Movement a legal move to ``cell`` spends: the shortest path through empty hexes (the
    last step may enter the contacted hex). ``occupied``: ``state.counters_mask()`` if the
    caller has it."""
    f = state.field
    if occupied is None:
        occupied = state.counters_mask()
    steps = f.steps_to(state.pos[player], cell, (f.full_mask & ~occupied) | 1 << cell)
    if steps < 0:
        raise ValueError(f"{f.name(cell)} cannot be reached")  # pragma: no cover - checked first
    return max(steps, 1)  # (the start itself is never a legal move's end)


def move_price(state: State, player: int, cell: int) -> int:
    """-1 if ``cell`` holds a counter (a move there makes contact and ends), otherwise
    :func:`move_cost`: one compiled call when built."""
    if FAST_RINGS is not None and state.field is FIELD:
        found: int | None = FAST_RINGS.move_price(state, player, cell)
        if found is not None:
            return found
    return move_price_py(state, player, cell)


def move_price_py(state: State, player: int, cell: int) -> int:
    """:func:`move_price`, the reference."""
    occupied = state.counters_mask()
    if occupied >> cell & 1:
        return -1
    return move_cost(state, player, cell, occupied)


def defending_team(state: State) -> int:
    """The team on defense now (ruling MW-R29, MW-SPEC-5's "cover or chase"): the team
    without the ball; before the snap and while a pass is in the air or loose, the team
    without the downs; on a kick nobody holds, the kicking team (its players are the
    kick's "defenders", MW-KICK-7)."""
    if state.carrier >= 0:
        return 1 - team_of(state.carrier)
    if state.kind in ("kickoff", "onside", "punt"):
        return state.offense
    return 1 - state.poss


def hobgoblin_setup_filter(state: State, player: int, cells: int) -> int:
    """MW-SPEC-5 in formations: a defending hobgoblin sets up as near as the formation
    allows to the nearest opposing elf already on the field ("regardless of ... the
    original formations")."""
    if state.kind_of(player) != "hobgoblin" or not cells:
        return cells
    if team_of(player) != defending_team(state):
        return cells  # ruling MW-R29: covering and chasing are the defense's
    elves = [
        state.pos[q]
        for q in team_players(1 - team_of(player))
        if state.pos[q] >= 0 and state.kind_of(q) == "elf" and q not in state.hidden_from(None)
    ]
    if not elves:
        return cells
    # The hexes at the least distance from any elf: grow balls around the elves until
    # they meet ``cells`` (a ball of radius ``size`` holds the whole field).
    f = state.field
    for radius in range(f.size + 1):
        near = 0
        for e in elves:
            near |= within(f, e, radius)
        if near & cells:
            return near & cells
    raise AssertionError("unreachable: the balls cover the field")  # pragma: no cover


def hobgoblin_filter(state: State, player: int, out: int) -> int:
    """MW-SPEC-5: a hobgoblin always chases the nearest opposing elf: it may not end a
    move farther from that elf than it started."""
    if state.kind_of(player) != "hobgoblin":
        return out
    keep = hobgoblin_keep(state, player)
    return out if keep is None else out & keep


def hobgoblin_keep(state: State, player: int) -> int | None:
    """The hexes hobgoblin ``player`` may end a move on (MW-SPEC-5): those no farther from
    the nearest visible opposing elf than he stands; ``None`` when he sees no elf or his
    team is not defending (ruling MW-R29)."""
    if "elf" not in state.roster and "elf" not in state.form:
        return None
    if team_of(player) != defending_team(state):
        return None
    hidden = state.hidden_from(None)
    elves = [
        state.pos[q]
        for q in team_players(1 - team_of(player))
        if state.pos[q] >= 0 and state.kind_of(q) == "elf" and q not in hidden
    ]
    if not elves:
        return None
    f = state.field
    here = state.pos[player]
    target = min(elves, key=lambda c: (f.distance(here, c), c))
    return within(f, target, f.distance(here, target))


_WITHIN: dict[tuple[Grid, int, int], int] = {}


def within(f: Grid, cell: int, radius: int) -> int:
    """The hexes at most ``radius`` from ``cell`` (cached: a field has few of them)."""
    key = (f, cell, radius)
    found = _WITHIN.get(key)
    if found is None:
        row = f.distance_row(cell)
        found = 0
        for c in range(f.size):
            if row[c] <= radius:
                found |= 1 << c
        _WITHIN[key] = found
    return found


# -- sizes --------------------------------------------------------------------------------------


def blocker_size(state: State, blocker: int, defender: int) -> str:
    """MW-SPEC-1/4: dwarves and gnomes block giants as giants; minotaurs block as G."""
    kind = state.kind_of(blocker)
    size = state.mtype(blocker).size
    if kind == "minotaur":
        return "G"
    if kind in ("dwarf", "gnome") and target_size(state, defender) == "G":
        return "G"
    return size


def target_size(state: State, player: int) -> str:
    """MW-SPEC-2/3/6: how big a player counts when a block or tackle is tried on him."""
    kind = state.kind_of(player)
    if kind == "elf":
        return "S"
    if kind in ("goblin", "kobold"):
        return "M"
    if kind == "treant":
        return "G"
    return state.mtype(player).size


def block_modifier(state: State, blocker: int, defender: int) -> int:
    return size_modifier(blocker_size(state, blocker, defender), target_size(state, defender))


def tackle_modifier(state: State, carrier: int, tackler: int) -> int:
    """Offense (the carrier) down the left, defense (the tackler) across the top; a treant
    carrier adds -1 (MW-SPEC-6)."""
    mod = size_modifier(target_size(state, carrier), state.mtype(tackler).size)
    if state.kind_of(carrier) == "treant":
        mod -= 1
    return mod


# -- tackles ------------------------------------------------------------------------------------


def tackle_targets(state: State) -> list[int]:
    """Hexes a tackle may be aimed at: the carrier's, or every counter of his mirror group."""
    if state.carrier < 0 or state.carrier == state.invisible:
        return []
    if state.carrier == state.caster:
        return group_cells(state)
    return [state.ball]


def eligible_tacklers(state: State, same_hex_only: bool = False) -> list[tuple[int, int]]:
    """(tackler, target hex) pairs open now (MW-TACK-1..3). A hidden player tackles too
    (MW-MAGIC-7: "can perform as a blocker or tackler"; rulings MW-R10, MW-R11): the
    invisible one from the hex he is moving to unseen. With the option
    hidden_contact=barred hidden players do not tackle."""
    targets = tackle_targets(state)
    if not targets:
        return []
    f = state.field
    team = 1 - team_of(state.carrier)
    blocked = state.tried | state.no_tackle | state.dazed  # no_tackle: MW-BLOCK-9
    barred = state.options.hidden_contact == "barred"
    reach = 0 if same_hex_only else 1
    out = []
    for p in team_players(team):
        here = state.pos[p]
        if here < 0 or blocked >> p & 1:
            continue
        if p == state.invisible or p == state.caster:
            if barred:
                continue
            if p == state.invisible and state.appear_at >= 0:
                here = state.appear_at
        for t in targets:
            if f.distance(here, t) <= reach:
                out.append((p, t))
    return out


def hidden_may_tackle(state: State, same_hex_only: bool = False) -> bool:
    """Whether, from what the carrier's coach can see, a hidden player of the other team
    might be able to tackle now: a counter of the hidden caster's group within reach of
    the carrier, or the carrier within the invisible player's movement of the hex where he
    vanished. The tacklers' coach is asked whenever this holds, whether or not the hidden
    player really can, so the question shows nothing (rulings MW-R10, MW-R11)."""
    if (state.caster < 0 and state.invisible < 0) or state.carrier < 0:
        return False
    if state.options.hidden_contact == "barred":
        return False
    team = 1 - team_of(state.carrier)
    targets = tackle_targets(state)
    if not targets:
        return False
    f = state.field
    reach = 0 if same_hex_only else 1
    blocked = state.tried | state.no_tackle | state.dazed
    for p, cells, extra in (
        (state.caster, group_cells(state), 0),
        (state.invisible, [state.vanish], 0),
    ):
        if p < 0 or team_of(p) != team or blocked >> p & 1 or state.pos[p] < 0:
            continue
        if p == state.invisible:
            extra = state.vanish_reach
        if any(f.distance(c, t) <= reach + extra for c in cells if c >= 0 for t in targets):
            return True
    return False


def tackle_question(state: State, same_hex_only: bool = False) -> bool:
    """Whether the tacklers' coach is asked now: someone can tackle, or a hidden player
    might (see :func:`hidden_may_tackle`)."""
    return bool(eligible_tacklers(state, same_hex_only)) or hidden_may_tackle(state, same_hex_only)
