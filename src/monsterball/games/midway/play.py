"""The steps of a play once the ball is live: movement phases, tackles, blocks, passes,
receptions, fumbles and recoveries, punts in the air, and magic.

A play is a ``Play`` marker at the bottom with phases above it::

    [Play] [StartPhase(A)] -> [Play] [Phase(A)] -> [Play] [EndPhase(A)] -> [Play] [StartPhase(B)]
                                      ^ sub-steps (TackleRound, TackleRoll, RecoveryRoll, ...)

When something ends the play (a tackle, a touchdown, an incomplete pass) the step sets
``state.dead``; every in-play step then resolves to nothing, the stack unwinds to ``Play``,
and ``Play`` settles the result (see :mod:`monsterball.games.midway.procedures`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError, NotationError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway import chart
from monsterball.games.midway.actions import (
    DIRECTIONS,
    PER_TEAM,
    AtHex,
    Cast,
    Hand,
    Move,
    Name,
    Punt,
    Shift,
    Tackle,
    Throw,
    Word,
    player_name,
)
from monsterball.games.midway.events import Happened
from monsterball.games.midway.moves import (
    MoveContext,
    ball_team,
    block_modifier,
    contact_targets,
    counters_of,
    destination_mask,
    eligible_tacklers,
    group_cells,
    move_cost,
    tackle_modifier,
)
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.state import FOREVER, NOBODY, MidwayState, team_of, team_players

State = MidwayState
TWO_D6 = [(n, Fraction(6 - abs(n - 7), 36)) for n in range(2, 13)]


def note(state: State, what: str, text: str) -> None:
    state.emit(Happened(what, text))


def cell_of(state: State, name: str) -> int:
    try:
        return state.field.parse_cell(name)
    except NotationError as exc:
        raise IllegalActionError(str(exc)) from None


def wrong(step: Procedure[State], action: Action) -> IllegalActionError:
    return IllegalActionError(f"'{action}' is not possible during {step.describe()}")


def injure(state: State, player: int, game: bool) -> None:
    """Off the field now; out for the next play, or the game (kobolds and orcs: one play,
    MW-SPEC-7)."""
    if game and state.kind_of(player) not in ("kobold", "orc"):
        state.out_through[player] = FOREVER
    else:
        state.out_through[player] = state.play_no + 1
    if player == state.carrier:
        # An injured carrier is down where he stands; he leaves with the rest at the whistle.
        state.dead = state.dead or "tackle"
        return
    state.remove(player)


def check_score(state: State) -> None:
    """MW-SCORE-1: a carrier in the end zone his team attacks scores a touchdown."""
    if state.carrier < 0 or state.dead:
        return
    team = team_of(state.carrier)
    if state.own_end_zone(1 - team, state.row(state.ball)):
        state.dead = "td"
        note(
            state,
            "touchdown",
            f"Touchdown! {player_name(state.carrier)} scores for {TEAM_NAMES[team]}.",
        )


def take_ball(state: State, player: int) -> None:
    state.carrier = player
    state.ball = state.pos[player]
    state.ball_state = "held"
    state.poss = team_of(player)
    state.receivable = NOBODY
    state.bounces = 0
    if state.kind == "conversion" and team_of(player) != state.offense:
        state.dead = "stopped"  # MW-SCORE-5: a defensive recovery ends a conversion
        return
    if state.kind == "punt" and state.punt_path and team_of(player) == state.offense:
        state.dead = "downed"  # MW-PUNT-9: the punting team downs its own punt
        return
    check_score(state)


class InPlay(Procedure[State]):
    """Base of in-play steps: once the play is dead they resolve to nothing."""

    __slots__ = ()

    def actor(self, state: State) -> int:
        if state.dead:
            return AUTO
        return self.who(state)

    def who(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        if state.dead:
            return ()
        return self.auto(state)

    def auto(self, state: State) -> Transition:
        raise NotImplementedError


# -- phases ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartPhase(InPlay):
    """MW-MOVE-1: a movement phase begins: spells run down, punts come down, ettins rage,
    and each player's movement factor for the phase is set."""

    team: int
    rule = "MW-MOVE-1"

    def auto(self, state: State) -> Transition:
        cap = state.options.max_phases
        if cap and state.phases >= cap:
            state.dead = "cap"
            note(state, "cap", f"The play is stopped after {cap} phases (simulation cap).")
            return ()
        state.phases += 1
        state.dazed = 0
        state.phase_over = False
        team = self.team
        if ball_team(state) == team:
            state.tried = 0  # a new set of offensive and defensive phases
        pre: list[Procedure[State]] = []
        # Spells that run down at the start of a phase.
        if state.caster >= 0:
            state.image_phases -= 1
            if state.image_phases <= 0:
                end_mirror(state, "The mirror image spell runs out.")
        if state.invisible >= 0:
            reappear(state)
        for p in team_players(team):
            if state.form[p]:
                state.form_left[p] -= 1
                if state.form_left[p] <= 0:
                    state.form[p] = ""
                    note(state, "change", f"{player_name(p)} changes back.")
        # Movement factors.
        left = [0] * len(state.pos)
        for p in team_players(team):
            if state.pos[p] < 0 or state.frozen >> p & 1:
                continue
            mv = state.mtype(p).mv
            if state.first_phase == team:
                if state.kind in ("kickoff", "onside"):
                    mv += 2  # MW-KICK-2: a running start
                else:
                    mv = max(1, mv - 2)  # MW-MOVE-3: the offense after the snap
            if p == state.carrier and state.slowed:
                mv = max(0, mv - state.slowed)
                state.slowed = 0
            left[p] = mv
        state.frozen &= ~_team_bits(team)
        if state.first_phase == team:
            state.first_phase = NOBODY
        # Things that happen at the start of this team's phase.
        if state.ball_state == "punt" and team == state.offense and state.punt_travel > 0:
            if state.receivable == NOBODY:
                pre.append(PuntCarry())
        elif (
            state.bounces > 0
            and state.ball_state == "loose"
            and team == state.offense
            and state.phases > 1
        ):
            state.bounces -= 1
            pre.append(Scatter("bounce", state.last_dir, 1 - team))
        for p in team_players(team):
            if state.pos[p] >= 0 and state.kind_of(p) == "ettin":
                mates = [
                    q
                    for q in team_players(team)
                    if q != p
                    and state.pos[q] >= 0
                    and state.field.distance(state.pos[p], state.pos[q]) <= 1
                ]
                if mates:
                    pre.append(EttinRoll(p, min(mates)))
        return (Phase(team, tuple(left), 0), *reversed(pre))

    def describe(self) -> str:
        return f"the start of team {TEAM_NAMES[self.team]}'s movement phase"


def _team_bits(team: int) -> int:
    return ((1 << PER_TEAM) - 1) << (team * PER_TEAM)


def end_mirror(state: State, text: str) -> None:
    state.caster = NOBODY
    state.images = []
    state.image_phases = 0
    note(state, "mirror-end", text)


def reappear(state: State) -> None:
    """MW-MAGIC-8: the invisible player reappears where his coach chose (in secret), or,
    if that hex has been taken meanwhile, on the nearest free hex (ruling MW-R11)."""
    p = state.invisible
    state.invisible = NOBODY
    occupied = state.counters_mask() & ~(1 << state.pos[p])
    target = state.appear_at if state.appear_at >= 0 else state.vanish
    if occupied >> target & 1:
        f = state.field
        free = [c for c in range(f.size) if not occupied >> c & 1]
        target = min(free, key=lambda c: (f.distance(state.vanish, c), c))
    state.pos[p] = target
    if p == state.carrier:
        state.ball = target
    state.vanish = NOBODY
    state.appear_at = NOBODY
    note(state, "appear", f"{player_name(p)} reappears on {state.field.name(target)}.")
    check_score(state)


@dataclass(frozen=True, slots=True)
class Phase(InPlay):
    """MW-MOVE-1/2: a team's movement phase. ``left`` is each player's movement left,
    ``acted`` who has begun to act (magic only before moving; a pass only before anyone
    moves, MW-PASS-1)."""

    team: int
    left: tuple[int, ...]
    acted: int
    rule = "MW-MOVE-1"

    def who(self, state: State) -> int:
        return AUTO if state.phase_over else self.team

    def auto(self, state: State) -> Transition:
        return (EndPhase(self.team, self.acted),)

    # -- what is open ------------------------------------------------------------------------

    def movers(self, state: State) -> list[int]:
        out = []
        for p in team_players(self.team):
            if (
                state.pos[p] >= 0
                and self.left[p] > 0
                and not state.dazed >> p & 1
                and p != state.invisible
                and p != state.caster
            ):
                out.append(p)
        return out

    def legal_actions(self, state: State) -> list[Action]:
        acts = state.actions
        out: list[Action] = [] if self._must_leave(state) else [acts.words["end"]]
        ctx = MoveContext(state, self.team)
        for p in self.movers(state):
            mask = destination_mask(state, p, self.left[p], ctx)
            if mask:
                out += acts.move_by_mask[p].select(mask)
        c = state.caster
        if c >= 0 and team_of(c) == self.team and self.left[c] > 0 and not state.dazed >> c & 1:
            out += [acts.shift[d] for d in self._shifts(state)]
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
        here = state.pos[state.caster]
        free = state.field.full_mask & ~state.counters_mask()
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
        f = state.field
        return [
            q
            for q in team_players(self.team)
            if q != c
            and state.pos[q] >= 0
            and q not in (state.caster, state.invisible)
            and f.distance(state.pos[q], state.ball) == 1
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
        """MW-MAGIC-1: magic at the start of the caster's action in the phase."""
        acts = state.actions
        out: list[Action] = []
        snapped = state.kind in ("scrimmage", "conversion", "punt", "field goal")
        for p in team_players(self.team):
            if state.pos[p] < 0 or self.acted >> p & 1 or state.dazed >> p & 1:
                continue
            if p in (state.caster, state.invisible):
                continue
            magic = state.chart.types[state.roster[p]].magic
            if magic == "bolt":
                if state.ball_state in ("held", "pass", "loose", "kick", "punt"):
                    out.append(acts.casts[Cast(p, "bolt", "ball")])
                for q in team_players(1 - self.team):
                    if state.pos[q] >= 0 and q not in state.hidden_from(self.team):
                        out.append(acts.casts[Cast(p, "bolt", player_name(q))])
            elif magic == "mirror" and snapped and state.caster < 0:
                out.append(acts.casts[Cast(p, "mirror")])
            elif magic == "invisible" and state.invisible < 0:
                out.append(acts.casts[Cast(p, "invisible")])
            elif magic == "change":
                if state.form[p]:
                    out.append(acts.casts[Cast(p, "revert")])
                else:
                    out += [acts.casts[Cast(p, "change", k)] for k in state.chart.change_self_into]
            elif magic == "were":
                word = "human" if state.were >> p & 1 else "were"
                out.append(acts.casts[Cast(p, word)])
        return out

    # -- checking --------------------------------------------------------------------------

    def _must_leave(self, state: State) -> bool:
        """MW-PASS-8: a carrier sharing a hex with a teammate (after an interception) moves
        to another hex at the first opportunity: the phase may not end before."""
        c = state.carrier
        if c < 0 or c not in self.movers(state):
            return False
        if not any(team_of(q) == self.team for q in state.players_at(state.ball) if q != c):
            return False
        return bool(destination_mask(state, c, self.left[c]))

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, Word) and action.word == "end":
            if self._must_leave(state):
                raise IllegalActionError(
                    f"{player_name(state.carrier)} must first leave the hex he shares with a "
                    "teammate"
                )
            return
        if isinstance(action, Move):
            p = action.player
            name = player_name(p)
            if team_of(p) != self.team:
                raise IllegalActionError(f"{name} is not in team {TEAM_NAMES[self.team]}")
            if state.pos[p] < 0:
                raise IllegalActionError(f"{name} is not on the field")
            if p == state.caster:
                raise IllegalActionError(
                    f"{name} is hidden among mirror images: move the counters with 'shift DIR'"
                )
            if p == state.invisible:
                raise IllegalActionError(f"{name} is invisible this phase and reappears next")
            if state.dazed >> p & 1:
                raise IllegalActionError(f"{name} can take no more action in this phase")
            if self.left[p] <= 0:
                raise IllegalActionError(f"{name} has no movement left in this phase")
            cell = cell_of(state, action.cell)
            if not destination_mask(state, p, self.left[p]) >> cell & 1:
                raise IllegalActionError(_unreachable(state, p, cell, self.left[p]))
            return
        if action in self.legal_actions(state):
            return
        raise IllegalActionError(f"'{action}' is not legal during {self.describe()}")

    # -- applying ----------------------------------------------------------------------------

    def apply(self, state: State, action: Action) -> Transition:
        acted = self.acted
        left = list(self.left)
        if isinstance(action, Word):
            if action.word == "end":
                note(state, "phase-end", f"Team {TEAM_NAMES[self.team]} ends its movement phase.")
                return (EndPhase(self.team, acted),)
            if action.word == "out":
                note(state, "out", f"{player_name(state.carrier)} steps out of bounds.")
                state.dead = "out"
                return ()
            if action.word == "touchback":
                note(state, "touchback", f"{player_name(state.carrier)} downs the ball: touchback.")
                state.dead = "touchback"
                return ()
        if isinstance(action, Move):
            return self._move(state, action, left, acted)
        if isinstance(action, Shift):
            return self._shift(state, DIRECTIONS.index(action.direction), left, acted)
        if isinstance(action, Hand):
            giver = state.carrier
            take_ball(state, action.player)
            state.tried = 0  # MW-TACK-4: tacklers may try the new carrier
            note(
                state, "handoff", f"{player_name(giver)} hands off to {player_name(action.player)}."
            )
            return (Phase(self.team, tuple(left), acted | 1 << giver | 1 << action.player),)
        if isinstance(action, Throw):
            target = cell_of(state, action.cell)
            thrower = state.carrier
            state.passed = True
            state.throw_phase = state.phases
            state.thrower_row = state.row(state.ball)
            start = state.ball
            state.carrier = NOBODY
            state.ball = target
            state.ball_state = "pass"
            state.last_dir = _travel_dir(state, start, target, self.team)
            note(state, "pass", f"{player_name(thrower)} passes to {action.cell}.")
            return (Phase(self.team, tuple(left), acted | 1 << thrower),)
        if isinstance(action, Punt):
            punter = state.carrier
            left[punter] = 0
            rushers = [q for q in state.players_at(state.ball) if team_of(q) != self.team]
            if rushers:
                # MW-PUNT-3 (ruling MW-R9): a defender already in the punter's hex blocks it.
                return (
                    Phase(self.team, tuple(left), acted),
                    _blocked_kick(state, "punt", rushers[0]),
                )
            return (
                Phase(self.team, tuple(left), acted | 1 << punter),
                PuntKick(cell_of(state, action.cell)),
            )
        if isinstance(action, Cast):
            return self._cast(state, action, left, acted)
        raise wrong(self, action)

    def _move(self, state: State, action: Move, left: list[int], acted: int) -> Transition:
        p = action.player
        cell = cell_of(state, action.cell)
        cost = move_cost(state, p, cell)
        start = state.pos[p]
        contact = bool(state.counters_mask() >> cell & 1)
        loose_ball = cell == state.ball and (
            state.ball_state in ("loose", "kick")
            or (state.ball_state == "punt" and state.receivable == team_of(p))
        )
        left[p] = 0 if contact or loose_ball else left[p] - cost
        acted |= 1 << p
        if p == state.punter:
            state.punter = NOBODY  # MW-PUNT-3: a player who moved may not punt
        state.pos[p] = cell
        subs: list[Procedure[State]] = []
        if p == state.carrier:
            state.ball = cell
            note(state, "move", f"{player_name(p)} carries the ball to {action.cell}.")
            check_score(state)
            if not state.dead and eligible_tacklers(state):
                subs.append(TackleRound(1 - self.team, False, True))
        else:
            note(state, "move", f"{player_name(p)} moves {state.field.name(start)}-{action.cell}.")
            if (
                not state.passed
                and team_of(p) == state.offense
                and state.kind in ("scrimmage", "conversion")
                and not state.linemen >> p & 1
                and state.beyond(state.offense, state.row(cell), state.los_row)
            ):
                state.crossed = True  # MW-PASS-3: a back crossed the line; no pass now
            self._touch_counters(state, p, cell)
            if loose_ball and not state.dazed >> p & 1:
                subs.append(_ball_contact(state, p))
        return (Phase(self.team, tuple(left), acted), *subs)

    def _touch_counters(self, state: State, p: int, cell: int) -> None:
        """MW-MAGIC-3: touching a mirror-image counter turns it over."""
        if state.caster < 0 or team_of(state.caster) == team_of(p):
            return
        if cell in state.images:
            state.images.remove(cell)
            state.dazed |= 1 << p
            note(
                state,
                "image",
                f"The counter on {state.field.name(cell)} was only a mirror image; "
                f"{player_name(p)} can do nothing more this phase.",
            )
        elif cell == state.pos[state.caster]:
            end_mirror(
                state,
                f"{player_name(p)} touches the real {player_name(state.caster)}: "
                "the images vanish.",
            )

    def _shift(self, state: State, d: int, left: list[int], acted: int) -> Transition:
        """MW-MAGIC-2: the caster moves one hex and every image mirrors the move; an image
        pushed off the field or into an opponent is removed."""
        caster = state.caster
        f = state.field
        moved: list[int] = []
        opp = counters_of(state, 1 - self.team) | state.team_mask(self.team)
        for c in state.images:
            c2, r2 = state.step_coords(state.col(c), state.row(c), d)
            if state.on_board(c2, r2):
                n = r2 * f.width + c2
                if not opp >> n & 1:
                    moved.append(n)
                    continue
            note(state, "image", f"A mirror image leaves play at {f.name(c)}.")
        c2, r2 = state.step_coords(state.col(state.pos[caster]), state.row(state.pos[caster]), d)
        target = r2 * f.width + c2
        state.pos[caster] = target
        state.images = sorted(set(moved) - {target})
        left[caster] -= 1
        acted |= 1 << caster
        note(state, "shift", f"The mirror-image counters move {DIRECTIONS[d].upper()}.")
        subs: list[Procedure[State]] = []
        if caster == state.carrier:
            state.ball = target
            check_score(state)
            if not state.dead and eligible_tacklers(state):
                subs.append(TackleRound(1 - self.team, False, True))
        return (Phase(self.team, tuple(left), acted), *subs)

    def _cast(self, state: State, action: Cast, left: list[int], acted: int) -> Transition:
        p = action.player
        name = player_name(p)
        acted |= 1 << p
        here = Phase(self.team, tuple(left), acted)
        if action.spell == "bolt":
            if action.target == "ball":
                note(state, "bolt", f"{name}'s lightning bolt strikes the ball dead.")
                state.dead = "incomplete"  # MW-MAGIC-4: as an incomplete pass
                return ()
            from monsterball.games.midway.actions import parse_player

            q = parse_player(action.target)
            note(state, "bolt", f"{name}'s lightning bolt stuns {action.target}.")
            state.out_through[q] = state.play_no + 1
            if q == state.carrier:
                state.dead = "tackle"  # no fumble: the carrier is down where he stood
                return ()
            state.remove(q)
            return () if state.dead else (here,)
        if action.spell == "mirror":
            note(state, "mirror", f"{name} casts mirror image.")
            return (here, MirrorRoll(p))
        if action.spell == "invisible":
            state.invisible = p
            state.vanish = state.pos[p]
            left[p] = 0
            note(state, "invisible", f"{name} turns invisible.")
            return (Phase(self.team, tuple(left), acted), AppearPick(p))
        if action.spell == "change":
            state.form[p] = action.target
            state.form_left[p] = 2
            note(state, "change", f"{name} changes into a {action.target}.")
            left[p] = min(left[p], state.mtype(p).mv) if self.left[p] else 0
            return (Phase(self.team, tuple(left), acted),)
        if action.spell == "revert":
            state.form[p] = ""
            note(state, "change", f"{name} changes back.")
            return (here,)
        if action.spell in ("were", "human"):
            if action.spell == "were":
                state.were |= 1 << p
            else:
                state.were &= ~(1 << p)
            note(state, "were", f"{name} takes {action.spell} form.")
            left[p] = min(left[p], state.mtype(p).mv)
            return (Phase(self.team, tuple(left), acted),)
        raise wrong(self, action)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s movement phase"


def _travel_dir(state: State, start: int, end: int, team: int) -> int:
    """The last step's direction of the line start -> end (MW-R3's 'straight ahead')."""
    path = state.line(start, end, state.field.distance(start, end))
    if len(path) >= 2:
        (c1, r1), (c2, r2) = path[-2], path[-1]
        for d in range(6):
            if state.step_coords(c1, r1, d) == (c2, r2):
                return d
    if path:
        c2, r2 = path[-1]
        for d in range(6):
            if state.step_coords(state.col(start), state.row(start), d) == (c2, r2):
                return d
    return state.ahead(team)


def _unreachable(state: State, player: int, cell: int, budget: int) -> str:
    name, target = player_name(player), state.field.name(cell)
    if player == state.carrier:
        return f"the ball carrier moves one hex at a time into an empty hex; {target} is not one"
    if state.counters_mask() >> cell & 1 and not contact_targets(state, player) >> cell & 1:
        return (
            f"{name} may not enter {target}: it is occupied and not open to a block, tackle or ball"
        )
    return f"{name} cannot reach {target} with {budget} movement left"


def _ball_contact(state: State, p: int) -> Procedure[State]:
    """A player entered the hex of a ball nobody holds: a catch attempt on a kick or punt in
    the air (MW-KICK-7, MW-PUNT-6), otherwise a recovery attempt (MW-FUM-2)."""
    if state.ball_state in ("kick", "punt") and state.receivable == team_of(p):
        return CatchRoll(p, state.ball_state, ())
    return RecoveryRoll(recovery_order(state, p))


def recovery_order(state: State, mover: int) -> tuple[int, ...]:
    """MW-FUM-3: everyone eligible in the hex rolls; the offense first on its own side of the
    line of scrimmage, the defense first beyond it; on an onside kick the receivers first."""
    here = state.players_at(state.ball)
    ok = []
    for p in here:
        if p == state.no_recover or (state.dazed >> p & 1 and p != mover):
            continue
        if state.kind == "onside" and team_of(p) == state.offense and not state.onside_ok:
            continue  # MW-KICK-10: the kick has not gone 10 yards
        if state.ball_state == "punt" and team_of(p) == state.offense:
            continue  # a punt in the air is the receivers' to catch
        ok.append(p)
    if state.kind == "onside" or state.beyond(state.offense, state.row(state.ball), state.los_row):
        first = 1 - state.offense
    else:
        first = state.offense
    ok.sort(key=lambda p: (team_of(p) != first, p))
    return tuple(ok)


# -- end of a phase ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EndPhase(InPlay):
    """MW-BLOCK-1 (blocks at the end of the team with the ball's phase), MW-TACK-3 (tackles at
    the end of the other team's phase), MW-PASS-4 (a pass is settled after both teams have
    moved) and the hand-over to the other team's phase."""

    team: int
    acted: int
    rule = "MW-BLOCK-1"

    def auto(self, state: State) -> Transition:
        team = self.team
        nxt: list[Procedure[State]] = [StartPhase(1 - team)]
        state.no_tackle &= ~_team_bits(team)
        if state.no_recover >= 0 and team_of(state.no_recover) == team and not state.phase_over:
            state.no_recover = NOBODY  # the blocked punter's next phase is over
        holder = ball_team(state)
        if state.receivable == team:
            state.receivable = NOBODY
            if state.ball_state == "punt" and state.punt_travel == 0:
                # MW-PUNT-7: nobody tried to catch it: the punt hits the ground and bounces.
                nxt = [StartPhase(1 - team), BounceCount()]
            elif state.ball_state == "kick":
                state.ball_state = "loose"
        if state.ball_state == "pass" and team != state.offense:
            return (PassResolution(0, ()),)
        onside_scrum = state.kind == "onside" and state.ball_state == "loose"
        if holder == team or (state.ball_state == "pass" and team == state.offense) or onside_scrum:
            pairs = block_pairs(state, team, self.acted)
            if pairs:
                nxt.append(BlockRoll(pairs))
        elif holder == 1 - team and eligible_tacklers(state):
            nxt.append(TackleRound(team, False, False))
        return tuple(nxt)

    def describe(self) -> str:
        return f"the end of team {TEAM_NAMES[self.team]}'s movement phase"


def block_pairs(state: State, team: int, acted: int) -> tuple[int, ...]:
    """(blocker, defender) pairs flattened: every player who moved this phase into a hex
    with an opponent blocks the first opponent there (ruling MW-R6: both blockers try when
    the first fails)."""
    out: list[int] = []
    for p in team_players(team):
        if not acted >> p & 1 or state.pos[p] < 0 or p == state.carrier:
            continue
        there = [q for q in state.players_at(state.pos[p]) if team_of(q) != team]
        if there:
            out += [p, min(there)]
    return tuple(out)


@dataclass(frozen=True, slots=True)
class BlockRoll(InPlay):
    """MW-BLOCK-2..8: the offensive coach rolls d6 + size modifier for the first pair."""

    pairs: tuple[int, ...]
    rule = "MW-BLOCK-2"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return (BlockRoll(self.pairs[2:]),) if len(self.pairs) > 2 else ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        blocker, defender = self.pairs[0], self.pairs[1]
        rest = self.pairs[2:]
        if state.pos[blocker] < 0 or state.pos[defender] != state.pos[blocker]:
            return (BlockRoll(rest),) if rest else ()
        mod = block_modifier(state, blocker, defender)
        total = chart.clamp_roll(int(action.value) + mod)
        result = chart.BLOCK_RESULTS[total]
        note(
            state,
            "block",
            f"{player_name(blocker)} blocks {player_name(defender)}: d6 {action.value} "
            f"{mod:+d} = {total}, {result}.",
        )
        bit = 1 << defender
        if result == "blocker injured for game":
            injure(state, blocker, True)
        elif result == "blocker injured for next play":
            injure(state, blocker, False)
        elif result == "neutralize":
            state.frozen |= bit
        elif result == "successful block":
            state.frozen |= bit
            state.no_tackle |= bit
        elif result == "defender injured for next play":
            injure(state, defender, False)
        elif result == "defender injured for game":
            injure(state, defender, True)
        if total >= 3 and len(rest) >= 2 and rest[1] == defender:
            rest = rest[2:]  # the second block on this defender is called off
        return (BlockRoll(rest),) if rest else ()

    def describe(self) -> str:
        return "a block"


@dataclass(frozen=True, slots=True)
class TackleRound(InPlay):
    """MW-TACK-1..5: the defending coach names tacklers one at a time, in any order, or
    'no'. ``offer``: during the offensive phase, when the carrier has just come adjacent."""

    team: int
    same_hex: bool
    offer: bool
    rule = "MW-TACK-3"

    def who(self, state: State) -> int:
        return self.team if eligible_tacklers(state, self.same_hex) else AUTO

    def auto(self, state: State) -> Transition:
        return ()

    def legal_actions(self, state: State) -> list[Action]:
        t = state.actions.tackle
        out: list[Action] = [t[p][c] for p, c in eligible_tacklers(state, self.same_hex)]
        out.append(state.actions.words["no"])
        return out

    def check(self, state: State, action: Action) -> None:
        if action in self.legal_actions(state):
            return
        if isinstance(action, Tackle):
            raise IllegalActionError(
                f"{player_name(action.player)} cannot tackle at {action.cell} now: no counter "
                "he may tackle is there within reach, or he has already tried in this set"
            )
        raise wrong(self, action)

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Word):
            return ()
        assert isinstance(action, Tackle)
        cell = cell_of(state, action.cell)
        p = action.player
        state.tried |= 1 << p
        if state.caster >= 0 and state.carrier == state.caster:
            if cell in state.images:
                state.images.remove(cell)
                state.dazed |= 1 << p
                note(
                    state,
                    "image",
                    f"{player_name(p)} tackles the counter on {action.cell}: only a mirror image.",
                )
                return (self,)
            end_mirror(state, f"{player_name(p)} finds the real ball carrier on {action.cell}.")
        return (self, TackleRoll(p))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s tackle attempts"


@dataclass(frozen=True, slots=True)
class TackleRoll(InPlay):
    """MW-TACK-6..9: the defensive coach rolls d6 + size modifier."""

    tackler: int
    rule = "MW-TACK-6"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        carrier = state.carrier
        mod = tackle_modifier(state, carrier, self.tackler)
        total = chart.clamp_roll(int(action.value) + mod)
        result = chart.TACKLE_RESULTS[total]
        note(
            state,
            "tackle",
            f"{player_name(self.tackler)} tackles {player_name(carrier)}: d6 {action.value} "
            f"{mod:+d} = {total}, {result}.",
        )
        if result == "ball carrier tackled":
            state.dead = "tackle"
        elif result == "ball carrier injured for game":
            injure(state, carrier, True)
        elif result == "ball carrier injured for next play":
            injure(state, carrier, False)
        elif result == "ball carrier slowed (-2)":
            state.slowed = 2
        elif result == "ball carrier slowed (-1)":
            state.slowed = max(state.slowed, 1)
        elif result == "tackler injured for next play":
            injure(state, self.tackler, False)
        elif result == "tackler injured for game":
            injure(state, self.tackler, True)
        return ()

    def describe(self) -> str:
        return "a tackle"


# -- balls in the air and on the ground --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PassResolution(InPlay):
    """MW-PASS-5..8: after both teams have moved, the intended receiver (a lineman in the
    ball's hex) tries to catch; if he fails, defenders there try to intercept; otherwise
    the pass is incomplete (a lateral or backward pass is a fumble)."""

    stage: int
    queue: tuple[int, ...]
    rule = "MW-PASS-5"

    def auto(self, state: State) -> Transition:
        offense = state.offense
        here = state.players_at(state.ball)
        defenders = tuple(p for p in here if team_of(p) != offense)
        if self.stage == 0:
            receivers = [p for p in here if team_of(p) == offense and state.linemen >> p & 1]
            if receivers:
                return (PassResolution(1, defenders), CatchRoll(receivers[0], "pass", ()))
            if defenders:
                return self._intercept(defenders)
            return self._incomplete(state)
        if state.carrier >= 0:
            team = team_of(state.carrier)
            if team == offense:
                if not defenders:
                    return (StartPhase(offense),)
                steps: list[Procedure[State]] = [
                    StartPhase(offense),
                    TackleRound(1 - offense, True, False),
                ]
                mates = [p for p in here if team_of(p) == offense and p != state.carrier]
                if mates and len(defenders) >= 2:
                    steps.append(DesignateBlock(mates[0]))
                elif mates:
                    steps.append(BlockRoll((mates[0], defenders[0])))
                return tuple(steps)
            return (StartPhase(team),)  # MW-PASS-8: the interceptors move next
        if self.queue:
            return self._intercept(self.queue)
        return self._incomplete(state)

    @staticmethod
    def _intercept(queue: tuple[int, ...]) -> Transition:
        """MW-PASS-8: the defenders try in the order their coach picks."""
        if len(queue) == 1:
            return (PassResolution(1, ()), CatchRoll(queue[0], "intercept", ()))
        return (InterceptOrder(queue),)

    def _incomplete(self, state: State) -> Transition:
        if not state.beyond(state.offense, state.row(state.ball), state.thrower_row):
            note(state, "lateral", "The lateral or backward pass is not caught: a fumble.")
            state.ball_state = "loose"
            return (StartPhase(state.offense), Scatter("fumble", state.last_dir, 1 - state.offense))
        note(state, "incomplete", "The pass is incomplete.")
        state.dead = "incomplete"
        return ()

    def describe(self) -> str:
        return "the pass arriving"


@dataclass(frozen=True, slots=True)
class InterceptOrder(InPlay):
    """MW-PASS-8: several defenders in the ball's hex: their coach names the next one to
    try for the interception ('intercept B3')."""

    queue: tuple[int, ...]
    rule = "MW-PASS-8"

    def who(self, state: State) -> int:
        return team_of(self.queue[0])

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.intercept[p] for p in self.queue]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Name)
        rest = tuple(p for p in self.queue if p != action.player)
        return (PassResolution(1, rest), CatchRoll(action.player, "intercept", ()))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[team_of(self.queue[0])]} choosing who tries to intercept"


@dataclass(frozen=True, slots=True)
class DesignateBlock(InPlay):
    """MW-PASS-7: a blocker in the receiver's hex with two or more defenders: the offensive
    coach names the defender he takes on ('block B3'); a successful block keeps that
    defender from tackling."""

    blocker: int
    rule = "MW-PASS-7"

    def who(self, state: State) -> int:
        return team_of(self.blocker)

    def legal_actions(self, state: State) -> list[Action]:
        here = state.players_at(state.pos[self.blocker])
        return [state.actions.block[q] for q in here if team_of(q) != team_of(self.blocker)]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Name)
        return (BlockRoll((self.blocker, action.player)),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[team_of(self.blocker)]} naming the defender to block"


@dataclass(frozen=True, slots=True)
class CatchRoll(InPlay):
    """Pass Reception (or Interception) table: d6 against the opponents in the hex, with the
    receiving modifier widening the range (ruling MW-R7). ``purpose``: pass, intercept,
    kick or punt (a failed kick or punt catch is a fumble, MW-FUM-1)."""

    player: int
    purpose: str
    rest: tuple[int, ...]
    rule = "MW-PASS-6"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def target(self, state: State) -> int:
        p = self.player
        opponents = sum(1 for q in state.players_at(state.ball) if team_of(q) != team_of(p))
        return chart.reception_target(opponents) + state.mtype(p).rec_mod

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        p = self.player
        need = self.target(state)
        ok = int(action.value) <= need
        what = {
            "pass": "catch",
            "intercept": "interception",
            "kick": "kick catch",
            "punt": "punt catch",
        }
        note(
            state,
            "catch" if ok else "drop",
            f"{player_name(p)} tries a {what[self.purpose]}: d6 {action.value} "
            f"(needs 1-{need}): {'caught' if ok else 'missed'}.",
        )
        if ok:
            take_ball(state, p)
            if self.purpose in ("kick", "punt"):
                state.phase_over = True
            return ()
        if self.purpose in ("kick", "punt"):
            state.ball_state = "loose"
            state.receivable = NOBODY
            return (Scatter("fumble", state.last_dir, state.offense),)
        return ()

    def describe(self) -> str:
        return "a catch attempt"


@dataclass(frozen=True, slots=True)
class RecoveryRoll(InPlay):
    """Fumble Recovery Table: each eligible player in the hex rolls in turn (MW-FUM-2/3)."""

    order: tuple[int, ...]
    rule = "MW-FUM-2"

    def who(self, state: State) -> int:
        return CHANCE if self.order else AUTO

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead or not self.order else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        p = self.order[0]
        count = len(state.players_at(state.ball))
        need = chart.recovery_target(count)
        ok = int(action.value) <= need
        note(
            state,
            "recover" if ok else "no-recover",
            f"{player_name(p)} dives for the loose ball: d6 {action.value} (needs 1-{need}, "
            f"{count} in the hex): {'recovered' if ok else 'missed'}.",
        )
        if ok:
            moving = state.stack[-2] if len(state.stack) >= 2 else None
            take_ball(state, p)
            if isinstance(moving, Phase) and moving.team == team_of(p):
                state.phase_over = True  # MW-KICK-14: a recovery ends that team's phase
            return ()
        return (RecoveryRoll(self.order[1:]),) if len(self.order) > 1 else ()

    def describe(self) -> str:
        return "a fumble recovery"


@dataclass(frozen=True, slots=True)
class Scatter(InPlay):
    """Direction modifier (ruling MW-R3): d6 picks one of the six hexes around the ball,
    numbered clockwise from straight ahead along its travel (or by compass)."""

    reason: str  # fumble, bounce, block, onside, kick
    ahead: int
    roller: int
    rule = "MW-FUM-1"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        col, row = state.direction_target(state.ball, self.ahead, int(action.value))
        f = state.field
        if not state.on_board(col, row):
            if 0 <= row < f.height:
                note(state, "out", "The loose ball bounces out of bounds.")
                state.dead = "ball-out"
            else:
                note(state, "out", "The loose ball goes out over the end line.")
                state.dead = "end-line"
            return ()
        state.ball = row * f.width + col
        state.last_dir = (self.ahead + int(action.value) - 1) % 6
        if state.kind == "onside":
            # MW-KICK-12: a bounce past midfield makes the kickers eligible; once eligible
            # they stay so, since the kick went its 10 yards.
            row = state.row(state.ball)
            past = row >= 12 if state.forward(state.offense) > 0 else row <= 11
            state.onside_ok = state.onside_ok or past
        note(
            state,
            "scatter",
            f"Direction modifier {action.value}: the ball is on {f.name(state.ball)}.",
        )
        if state.players_at(state.ball):
            order = recovery_order(state, NOBODY)
            if order:
                return (RecoveryRoll(order),)
        return ()

    def describe(self) -> str:
        return "a direction modifier"


@dataclass(frozen=True, slots=True)
class BounceCount(InPlay):
    """MW-PUNT-7: the punt hits the ground: d6 is the number of phases it bounces, the
    first bounce now."""

    rule = "MW-PUNT-7"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        state.ball_state = "loose"
        state.bounces = int(action.value) - 1
        note(state, "bounce", f"The punt hits the ground and bounces ({action.value} phases).")
        return (Scatter("bounce", state.last_dir, state.offense),)

    def describe(self) -> str:
        return "the punt bouncing"


@dataclass(frozen=True, slots=True)
class PuntKick(InPlay):
    """MW-PUNT-4: 2d6 hexes along the chosen line in this phase."""

    toward: int
    rule = "MW-PUNT-4"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else [(state.actions.two_d6[n - 2], p) for n, p in TWO_D6]

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        n = int(action.value)
        f = state.field
        wind = 1 if state.offense == state.north_team else 0  # MW-START-2
        path = state.line(state.ball, self.toward, 40)
        state.punt_path = [c * 100 + r for c, r in path]  # (col, row) packed; rows may be off
        state.punter = NOBODY
        state.carrier = NOBODY
        state.kind = "punt"
        state.ball_state = "punt"
        state.punt_travel = n + wind
        state.receivable = NOBODY
        state.last_dir = _travel_dir(state, state.ball, self.toward, state.offense)
        note(
            state,
            "punt",
            f"Punt: {n} hexes{' (+1 wind)' if wind else ''} toward {f.name(self.toward)}.",
        )
        return _place_punt(state, n + wind, landing=False)

    def describe(self) -> str:
        return "a punt"


def _place_punt(state: State, travel: int, landing: bool) -> Transition:
    col, row = divmod(state.punt_path[travel - 1], 100)
    f = state.field
    if not state.on_board(col, row):
        if 0 <= row < f.height:
            note(state, "out", "The punt goes out of bounds.")
            state.dead = "punt-out"
            last = [
                divmod(v, 100)
                for v in state.punt_path[: travel - 1]
                if state.on_board(*divmod(v, 100))
            ]
            if last:
                c, r = last[-1]
                state.ball = r * f.width + c
        else:
            note(state, "touchback", "The punt goes out of the end zone: touchback.")
            state.dead = "touchback"
        return ()
    state.ball = row * f.width + col
    if landing:
        state.punt_travel = 0
        state.receivable = 1 - state.offense
        return (Scatter("punt", state.last_dir, state.offense),)
    return ()


@dataclass(frozen=True, slots=True)
class PuntCarry(InPlay):
    """MW-PUNT-5: at the punting team's next phase, d6 more hexes along the line, then a
    direction modifier gives the hex where the punt comes down."""

    rule = "MW-PUNT-5"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        travel = state.punt_travel + int(action.value)
        note(state, "punt", f"The punt carries {action.value} more hexes.")
        return _place_punt(state, travel, landing=True)

    def describe(self) -> str:
        return "the punt coming down"


def _blocked_kick(state: State, what: str, blocker: int) -> Procedure[State]:
    """MW-PUNT-3/MW-SCORE-8: a blocked kick: the blocking coach's direction modifier from the
    kicker's hex; the punter may not recover in the next phase."""
    note(state, "blocked", f"{player_name(blocker)} blocks the {what}!")
    kicker = state.carrier
    state.carrier = NOBODY
    state.ball_state = "loose"
    state.kind = "blocked"
    state.punter = NOBODY
    state.no_recover = kicker
    state.phase_over = True
    return Scatter("block", state.ahead(state.offense), team_of(blocker))


# -- special abilities and magic ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EttinRoll(InPlay):
    """MW-SPEC-8: an ettin starting a phase next to a teammate attacks him on a 6."""

    ettin: int
    mate: int
    rule = "MW-SPEC-8"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        if action.value != "6":
            return ()
        note(
            state,
            "ettin",
            f"The ettin {player_name(self.ettin)} turns on {player_name(self.mate)}!",
        )
        return (EttinAttack(self.ettin, self.mate),)

    def describe(self) -> str:
        return "an ettin's temper"


@dataclass(frozen=True, slots=True)
class EttinAttack(InPlay):
    """The ettin's block (or tackle, on the carrier) against his teammate: neutralize or
    better (a tackle: tackled or slowed, read as stopped) takes the teammate's phase away
    (ruling MW-R12)."""

    ettin: int
    mate: int
    rule = "MW-SPEC-8"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        total = chart.clamp_roll(int(action.value) + block_modifier(state, self.ettin, self.mate))
        ok = total >= 3
        note(
            state,
            "ettin",
            f"d6 {action.value}: {'it succeeds' if ok else 'it fails'}; "
            f"{player_name(self.mate)} {'can do nothing this phase' if ok else 'shrugs it off'}.",
        )
        if ok:
            state.dazed |= 1 << self.mate
        return ()

    def describe(self) -> str:
        return "an ettin's attack"


@dataclass(frozen=True, slots=True)
class MirrorRoll(InPlay):
    """MW-MAGIC-2: d6 / 2 (rounded up) mirror images."""

    caster: int
    rule = "MW-MAGIC-2"

    def who(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return [] if state.dead else uniform(state.actions.d6)

    def auto(self, state: State) -> Transition:
        return ()

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        n = (int(action.value) + 1) // 2
        state.caster = self.caster
        state.images = []
        state.image_phases = 4
        note(state, "mirror", f"d6 {action.value}: {n} mirror image{'s' if n > 1 else ''}.")
        return (PickReal(team_of(self.caster)), PlaceImage(team_of(self.caster), n))

    def describe(self) -> str:
        return "a mirror image spell"


@dataclass(frozen=True, slots=True)
class PlaceImage(InPlay):
    """MW-MAGIC-2: each image goes on an empty hex next to another counter of the group."""

    team: int
    count: int
    rule = "MW-MAGIC-2"

    def who(self, state: State) -> int:
        return self.team if self.count > 0 and self._cells(state) else AUTO

    def auto(self, state: State) -> Transition:
        return ()

    def _cells(self, state: State) -> list[int]:
        f = state.field
        group = 0
        for c in group_cells(state):
            group |= f.neighbour_mask[c]
        free = group & ~state.counters_mask()
        return [c for c in range(f.size) if free >> c & 1]

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.image[c] for c in self._cells(state)]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, AtHex)
        state.images = sorted([*state.images, cell_of(state, action.cell)])
        note(state, "image", f"A mirror image appears on {action.cell}.")
        return (PlaceImage(self.team, self.count - 1),) if self.count > 1 else ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} placing mirror images"


@dataclass(frozen=True, slots=True)
class PickReal(InPlay):
    """MW-MAGIC-2 (ruling MW-R10): the caster's coach secretly picks which counter is real;
    the caster is there, the other counters are images."""

    team: int
    rule = "MW-MAGIC-2"

    def who(self, state: State) -> int:
        return self.team if state.caster >= 0 else AUTO

    def auto(self, state: State) -> Transition:
        return ()

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.real[c] for c in group_cells(state)]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, AtHex)
        cell = cell_of(state, action.cell)
        group = group_cells(state)
        state.pos[state.caster] = cell
        if state.caster == state.carrier:
            state.ball = cell
        state.images = [c for c in group if c != cell]
        note(state, "mirror", f"{len(group)} blank counters stand on the field; one is real.")
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} choosing the real counter"


@dataclass(frozen=True, slots=True)
class AppearPick(InPlay):
    """MW-MAGIC-8 (ruling MW-R11): the invisible player's coach secretly picks the empty hex
    within his movement factor where he reappears at the start of the next phase."""

    player: int
    rule = "MW-MAGIC-8"

    def who(self, state: State) -> int:
        return team_of(self.player) if state.invisible == self.player else AUTO

    def auto(self, state: State) -> Transition:
        return ()

    def legal_actions(self, state: State) -> list[Action]:
        f = state.field
        mv = state.mtype(self.player).mv
        occupied = state.counters_mask()
        row = f.distance_row(state.vanish)
        return [
            state.actions.appear[c] for c in range(f.size) if row[c] <= mv and not occupied >> c & 1
        ]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, AtHex)
        state.appear_at = cell_of(state, action.cell)
        note(state, "invisible", "The invisible player moves unseen.")
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[team_of(self.player)]} moving an invisible player"
