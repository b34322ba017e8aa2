"""What is open in a movement phase (MW-MOVE-*): the moves, handoffs, passes, punts,
stepping out, touchbacks and spells a team may choose, and whether a carrier must first
leave a teammate's hex (MW-PASS-8). A mixin of
:class:`~monsterball.games.midway.rules.phases.Phase`, kept apart so the phase's flow
(applying and checking actions) reads on its own; the compiled kernels take the phase
itself (``FAST_RINGS.phase_moves``, ``KERNELS.casts``)."""

from __future__ import annotations

from monsterball.core.actions import Action
from monsterball.core.geometry import iter_bits
from monsterball.games.midway.moves import (
    FAST_RINGS,
    FIELD,
    MoveContext,
    counters_of,
    destination_mask,
    magic_users,
)
from monsterball.games.midway.rules.inplay import State, team_bits
from monsterball.games.midway.state import KERNELS, team_of, team_players


class PhaseOpen:
    """The queries of :class:`Phase` that list what its team may do; the fields are
    :class:`Phase`'s."""

    __slots__ = ()

    team: int
    left: tuple[int, ...]
    acted: int
    moving: int
    paused: int

    def _barred(self, state: State) -> int:
        """Players of the team who may not move now: the dazed, the hidden (the caster moves
        his counters by shifting) and a carrier waiting for a handoff."""
        barred = state.dazed
        for p in (state.invisible, state.caster, self.paused):
            if p >= 0:
                barred |= 1 << p
        return barred

    def movers(self, state: State) -> list[int]:
        barred = self._barred(state)
        pos, left = state.pos, self.left
        return [
            p
            for p in team_players(self.team)
            if pos[p] >= 0 and left[p] > 0 and not barred >> p & 1
        ]

    def add_moves(self, state: State, out: list[Action]) -> int:
        """Append every move open to the movers to ``out``, in player then cell order, and
        return the carrier's destinations (0: none, or he is not moving): one compiled call
        when built, the move context included."""
        if FAST_RINGS is not None and state.field is FIELD:
            n = len(out)
            found: int | None = FAST_RINGS.phase_moves(state, self, out)
            if found is not None:
                return found
            del out[n:]
        moves, carrier_mask = self.team_moves_py(state, MoveContext(state, self.team))
        out += moves
        return carrier_mask

    def team_moves_py(self, state: State, ctx: MoveContext) -> tuple[list[Action], int]:
        """The moves :meth:`add_moves` appends and the carrier's destinations: the
        reference."""
        moves: list[Action] = []
        carrier_mask = 0
        left, carrier, by_mask = self.left, state.carrier, state.actions.move_by_mask
        for p in self.movers(state):
            mask = destination_mask(state, p, left[p], ctx)
            if mask:
                moves += by_mask[p].select(mask)
                if p == carrier:
                    carrier_mask = mask
        return moves, carrier_mask

    def legal_actions(self, state: State) -> list[Action]:
        acts = state.actions
        carrier = state.carrier
        out: list[Action] = [acts.words["end"]]
        carrier_mask = self.add_moves(state, out)
        if carrier_mask and self._must_leave(state, carrier_mask):
            del out[0]  # MW-PASS-8: no ending the phase yet
        c = state.caster
        if c >= 0 and team_of(c) == self.team and self.left[c] > 0 and not state.dazed >> c & 1:
            out += [acts.shift[d] for d in self._shifts(state)]
        if carrier >= 0 and team_of(carrier) == self.team:  # what only the ball's team may do
            out += [acts.hand[q] for q in self._handoffs(state)]
            if self._may_pass(state):
                out += [acts.throw[t] for t in self._pass_targets(state)]
            if self._may_punt(state):
                out += [acts.punt[t] for t in self._punt_targets(state)]
            if self._may_step_out(state):
                out.append(acts.words["out"])
            if self._may_touchback(state):
                out.append(acts.words["touchback"])
        out += self._casts(state)
        return out

    def _shifts(self, state: State) -> list[int]:
        """Directions the caster's counters may shift: into an empty hex, or (the caster
        not carrying the ball) into an opponent's hex to block or tackle, which makes
        contact and ends the spell (MW-MAGIC-7's "blocker or tackler", ruling MW-R10)."""
        here = state.pos[state.caster]
        free = state.field.full_mask & ~state.counters_mask()
        if state.options.hidden_contact != "barred" and state.caster != state.carrier:
            ctx = MoveContext(state, self.team)
            free |= ctx.contact & counters_of(state, 1 - self.team) & ~ctx.opp_beyond
        col, row = state.col(here), state.row(here)
        out = []
        for d in range(6):
            c2, r2 = state.step_coords(col, row, d)
            if state.on_board(c2, r2) and free >> (r2 * state.field.width + c2) & 1:
                out.append(d)
        return out

    def _handoffs(self, state: State) -> list[int]:
        """MW-RUSH-2: to a teammate in an adjacent hex, at no cost."""
        c = state.carrier
        if c < 0 or team_of(c) != self.team or c in (state.caster, state.invisible):
            return []
        pos, near = state.pos, state.field.distance_row(state.ball)
        return [
            q
            for q in team_players(self.team)
            if q != c
            and pos[q] >= 0
            and q not in (state.caster, state.invisible)
            and near[pos[q]] == 1
        ]

    def _may_pass(self, state: State) -> bool:
        """MW-PASS-1/7/10: a carrier who may throw, at the start of his team's phase, on a
        play from scrimmage, not past the line, no backfield player across it, once a play."""
        c = state.carrier
        return (
            c >= 0
            and team_of(c) == self.team == state.offense
            and self.acted == 0
            and state.kind in ("scrimmage", "conversion")
            and not state.passed
            and not state.crossed
            and state.mtype(c).qb_range > 0
            and not state.beyond(self.team, state.row(state.ball), state.los_row)
            and c not in (state.caster, state.invisible)
        )

    def _pass_targets(self, state: State) -> list[int]:
        rng = state.mtype(state.carrier).qb_range
        f = state.field
        row = f.distance_row(state.ball)
        return [t for t in range(f.size) if 0 < row[t] <= rng]

    def _may_punt(self, state: State) -> bool:
        """MW-PUNT-2: the snap receiver who has not moved, from his team's second phase, as
        its first action."""
        return (
            state.punter >= 0
            and state.carrier == state.punter
            and team_of(state.punter) == self.team
            and self.acted == 0
            and state.kind == "scrimmage"
            and state.first_phase != self.team
            and state.phases > 1
        )

    def _punt_targets(self, state: State) -> list[int]:
        f = state.field
        here = state.ball
        return [
            t
            for t in range(f.size)
            if state.beyond(self.team, state.row(t), state.row(here)) and f.distance(here, t) <= 4
        ]

    def _may_step_out(self, state: State) -> bool:
        c = state.carrier
        return (
            c >= 0
            and team_of(c) == self.team
            and state.col(state.ball) in (0, state.field.width - 1)
            and c not in (state.caster, state.invisible)
        )

    def _may_touchback(self, state: State) -> bool:
        c = state.carrier
        return (
            c >= 0
            and team_of(c) == self.team
            and self.acted == 0
            and state.kind in ("kickoff", "onside", "punt")
            and team_of(c) != state.offense
            and state.own_end_zone(self.team, state.row(state.ball))
        )

    def _casts(self, state: State) -> list[Action]:
        """MW-MAGIC-1: magic at the start of the caster's action in the phase (one compiled
        call when built)."""
        if KERNELS is not None:
            found: list[Action] | None = KERNELS.casts(
                state, self.team, self.acted, magic_users(state)
            )
            if found is not None:
                return found
        return self._casts_py(state)

    def _casts_py(self, state: State) -> list[Action]:
        """:meth:`_casts`, the reference."""
        users, were, change = magic_users(state)
        users &= team_bits(self.team) & ~self.acted & ~state.dazed
        for p in (state.caster, state.invisible):
            if p >= 0:
                users &= ~(1 << p)
        used_up = users & state.spent & ~were  # lycanthropy is at will
        if used_up and state.options.spell_limit != "none":
            for p in iter_bits(used_up & change):
                if state.form[p]:
                    used_up &= ~(1 << p)  # a changed player may always change back
            users &= ~used_up  # MW-R18: these spells are used up
        if not users:
            return []
        acts = state.actions
        out: list[Action] = []
        snapped = mirror_open(state)
        for p in iter_bits(users):
            if state.pos[p] < 0:
                continue
            magic = state.chart.types[state.roster[p]].magic
            if magic == "bolt":
                bolts = acts.bolts[p]
                if state.ball_state in ("held", "pass", "loose", "kick", "punt"):
                    out.append(bolts[-1])
                hidden = state.hidden_from(self.team)
                for q in team_players(1 - self.team):
                    if state.pos[q] >= 0 and q not in hidden:
                        out.append(bolts[q])
            elif magic == "mirror" and snapped and state.caster < 0:
                if not _meets_opponent(state, p):
                    out.append(acts.spells[p]["mirror"])
            elif magic == "invisible" and state.invisible < 0:
                out.append(acts.spells[p]["invisible"])
            elif magic == "change":
                if state.form[p]:
                    out.append(acts.spells[p]["revert"])
                else:
                    out += acts.changes[p]
            elif magic == "were":
                out.append(acts.spells[p]["human" if state.were >> p & 1 else "were"])
        return out

    def _must_leave(self, state: State, carrier_mask: int | None = None) -> bool:
        """MW-PASS-8: a carrier sharing a hex with a teammate (after an interception) moves
        to another hex at the first opportunity: the phase may not end before.
        ``carrier_mask``: the carrier's destinations if the caller has them (0: none)."""
        c = state.carrier
        if carrier_mask is None:
            if c < 0 or c not in self.movers(state):
                return False
        elif not carrier_mask:
            return False
        if state.pos.count(state.ball) < 2:
            return False  # the carrier is alone in his hex
        if not any(team_of(q) == self.team for q in state.players_at(state.ball) if q != c):
            return False
        return carrier_mask is not None or bool(destination_mask(state, c, self.left[c]))


def mirror_open(state: State) -> bool:
    """MW-MAGIC-3 (ruling MW-R10): "This spell cannot be cast before the ball is snapped":
    open once a play from scrimmage is snapped (a blocked kick was snapped too) and, unless
    option mirror_kickoff is 'never', once a kickoff is kicked (a kickoff's snap)."""
    kind = state.kind
    if kind in ("scrimmage", "conversion", "punt", "field goal", "blocked"):
        return True
    return kind in ("kickoff", "onside") and state.options.mirror_kickoff == "after_kick"


def _meets_opponent(state: State, p: int) -> bool:
    """Whether a seen opponent shares ``p``'s hex (ruling MW-R10: a player in contact may
    not cast mirror image; an unseen invisible opponent does not count, or the refusal
    would show where he is)."""
    return any(team_of(q) != team_of(p) for q in state.players_at(state.pos[p]))
