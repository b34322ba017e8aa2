"""Movement phases (MW-MOVE-*): the start of a phase (spells running down, punts coming
down, ettins), the phase itself (moves, handoffs, passes, punts, magic) and its end (blocks,
tackles, passes arriving)."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO
from monsterball.core.procedures import Procedure, Transition
from monsterball.games.midway.actions import (
    DIRECTIONS,
    PER_TEAM,
    Cast,
    Hand,
    Move,
    Punt,
    Shift,
    Throw,
    Word,
    player_name,
)
from monsterball.games.midway.events.ball import HandedOff, PassThrown, SteppedOut, Touchback
from monsterball.games.midway.events.magic import (
    BoltStruck,
    Changed,
    CountersShifted,
    FormTaken,
    ImageLeft,
    ImageTouched,
    MirrorEnded,
    Reappeared,
    SpellCast,
)
from monsterball.games.midway.events.moving import Moved, PhaseEnded, PlayStalled
from monsterball.games.midway.moves import (
    ball_team,
    contact_targets,
    counters_of,
    destination_mask,
    move_price,
    tackle_question,
)
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.ball import (
    BounceCount,
    CatchRoll,
    KickCatch,
    LooseBallRound,
    PassResolution,
    PuntCarry,
    PuntKick,
    RecoveryRoll,
    Scatter,
    blocked_kick,
    kick_catchers,
)
from monsterball.games.midway.rules.contact import EttinRoll, TackleRound, block_step
from monsterball.games.midway.rules.inplay import (
    InPlay,
    State,
    cell_of,
    check_score,
    end_mirror,
    reappear,
    recovery_order,
    take_ball,
    team_bits,
    travel_dir,
    wrong,
)
from monsterball.games.midway.rules.magic import AppearPick, MirrorRoll
from monsterball.games.midway.rules.phase_open import PhaseOpen
from monsterball.games.midway.state import NOBODY, team_of, team_players


@dataclass(frozen=True, slots=True)
class StartPhase(InPlay):
    """MW-MOVE-1: a movement phase begins: spells run down, punts come down, ettins rage,
    and each player's movement factor for the phase is set."""

    team: int
    rule = "MW-MOVE-1"

    def auto(self, state: State) -> Transition:
        stall = state.options.stall_phases
        if stall and state.idle >= stall:
            # Ruling MW-R23: a play nobody plays on is over, the ball dead where it is.
            state.dead = "stall"
            state.emit(PlayStalled(stall, cap=False))
            return ()
        cap = state.options.max_phases
        if cap and state.phases >= cap:
            state.dead = "cap"
            state.emit(PlayStalled(cap, cap=True))
            return ()
        state.phases += 1
        state.dazed = 0
        # MW-BLOCK-9: a successful block bars tackles through the following movement phase.
        state.no_tackle, state.no_tackle_next = state.no_tackle_next, 0
        state.phase_over = False
        team = self.team
        if ball_team(state) == team:
            state.tried = state.retry = 0  # a new set of offensive and defensive phases
        pre: list[Procedure[State]] = []
        # Spells that run down at the start of a phase.
        if state.caster >= 0:
            state.image_phases -= 1
            if state.image_phases <= 0:
                end_mirror(state, MirrorEnded("expired"))
        if state.invisible >= 0:
            reappear(state)
        own_only = state.options.change_self_count == "own"
        for p in range(len(state.form)) if any(state.form) else ():
            # MW-MAGIC-6 (ruling MW-R20): "up to two movement phases", whichever team moves.
            if state.form[p] and not (own_only and team_of(p) != team):
                state.form_left[p] -= 1
                if state.form_left[p] <= 0:
                    state.form[p] = ""
                    state.emit(Changed(p, ""))
        # Movement factors.
        mod = 0
        if state.first_phase == team:
            if state.kind in ("kickoff", "onside"):
                mod = 2  # MW-KICK-2: a running start
            elif state.kind != "conversion" or state.options.conversion_snap == "penalty":
                # MW-MOVE-3: the offense after the snap, "any play except a kickoff or a
                # point-after-touchdown attempt" (ruling MW-R26: not the 2-point try)
                mod = -2
        left = [0] * len(state.pos)
        for p in team_players(team):
            if state.pos[p] < 0 or state.frozen >> p & 1:
                continue
            mv = allowance(state.mtype(p).mv, mod)
            mv = max(0, mv - (state.slowed >> 2 * p & 3))  # MW-TACK-8: the slowed player
            left[p] = mv
        state.frozen &= ~team_bits(team)
        state.slowed &= ~(((1 << 2 * PER_TEAM) - 1) << (2 * PER_TEAM * team))
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
        ettins = "ettin" in state.roster or "ettin" in state.form
        for p in team_players(team) if ettins else ():
            if state.pos[p] >= 0 and state.kind_of(p) == "ettin":
                # A hidden caster is no counter the ettin can be seen next to: a roll
                # for him would show the other coach which counter is real.
                pos, near = state.pos, state.field.distance_row(state.pos[p])
                mates = [
                    q
                    for q in team_players(team)
                    if q != p and q != state.caster and pos[q] >= 0 and near[pos[q]] <= 1
                ]
                if mates:
                    pre.append(EttinRoll(p, min(mates)))
        state.phase_mod = mod
        return (Phase(team, tuple(left), 0), *reversed(pre))

    def describe(self) -> str:
        return f"the start of team {TEAM_NAMES[self.team]}'s movement phase"


@dataclass(frozen=True, slots=True)
class Phase(PhaseOpen, InPlay):
    """MW-MOVE-1/2: a team's movement phase. ``left`` is each player's movement left,
    ``acted`` who has begun to act (magic only before moving; a pass only before anyone
    moves, MW-PASS-1)."""

    team: int
    left: tuple[int, ...]
    acted: int
    moving: int = NOBODY  # the player whose move is under way (MW-RUSH-3)
    paused: int = NOBODY  # a ball carrier waiting, mid-move, for a teammate's handoff
    rule = "MW-MOVE-1"

    def who(self, state: State) -> int:
        return AUTO if state.phase_over else self.team

    def actor(self, state: State) -> int:
        # InPlay.actor with who() inlined: asked several times a decision.
        return AUTO if state.dead or state.phase_over else self.team

    def _then(
        self, left: list[int], acted: int, moving: int | None = None, paused: int | None = None
    ) -> Phase:
        return Phase(
            self.team,
            tuple(left),
            acted,
            self.moving if moving is None else moving,
            self.paused if paused is None else paused,
        )

    def _begin(self, state: State, p: int, left: list[int]) -> tuple[int, int]:
        """MW-RUSH-3: players move one at a time. When ``p`` starts to act, the player who
        was moving has finished his move, except a ball carrier, who may wait for a
        teammate coming to take a handoff (a third player acting ends his wait too)."""
        moving, paused = self.moving, self.paused
        if moving < 0 or moving == p:
            return p, paused
        if paused >= 0 and paused != p:
            left[paused] = 0
            paused = NOBODY
        if moving == state.carrier and team_of(p) == self.team:
            paused = moving
        else:
            left[moving] = 0
        return p, paused

    def auto(self, state: State) -> Transition:
        return (EndPhase(self.team, self.acted),)

    # -- checking --------------------------------------------------------------------------

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
            if p == self.paused:
                raise IllegalActionError(
                    f"{name} stopped for a handoff: hand off, or his move is over"
                )
            if self.left[p] <= 0:
                raise IllegalActionError(f"{name} has no movement left in this phase")
            cell = cell_of(state, action.cell)
            if not destination_mask(state, p, self.left[p]) >> cell & 1:
                raise IllegalActionError(unreachable_reason(state, p, cell, self.left[p]))
            return
        if action in self.legal_actions(state):
            return
        raise IllegalActionError(self._why_not(state, action))

    def _why_not(self, state: State, action: Action) -> str:
        """A reason for a refused pass, handoff, punt or spell (moves are checked above)."""
        c = state.carrier
        mine = c >= 0 and team_of(c) == self.team
        if isinstance(action, (Throw, Hand, Punt)) and not mine:
            return f"team {TEAM_NAMES[self.team]} has no ball carrier to do that"
        if isinstance(action, Throw):
            if state.passed:
                return "only one forward pass may be thrown on a play"
            if self.acted:
                return "a pass may only be thrown at the start of the phase, before anyone acts"
            if state.crossed:
                return "a back crossed the line of scrimmage: this must be a rushing play"
            if state.mtype(c).qb_range == 0:
                return f"a {state.kind_of(c)} may not throw passes"
            if state.kind not in ("scrimmage", "conversion") or self.team != state.offense:
                return "passes are thrown only by the offense on a play from scrimmage"
            if state.beyond(self.team, state.row(state.ball), state.los_row):
                return "the ball carrier is beyond the line of scrimmage"
            rng = state.mtype(c).qb_range
            return f"{action.cell} is out of {player_name(c)}'s range of {rng} hexes"
        if isinstance(action, Hand):
            return f"{player_name(action.player)} is not a teammate next to the ball carrier"
        if isinstance(action, Punt):
            if c != state.punter:
                return "only the snap receiver who has not moved may punt"
            if self.acted or state.first_phase == self.team or state.phases <= 1:
                return "the punt is the first action of the punting team's second phase"
            return f"{action.cell} is not ahead of the punter within 4 hexes"
        if isinstance(action, Cast):
            if state.spent >> action.player & 1:
                return f"{player_name(action.player)} has used his spell (once per play)"
            if self.acted >> action.player & 1:
                return "magic is used at the start of the caster's action, before he moves"
            return f"'{action}' is not a spell {player_name(action.player)} can cast now"
        return f"'{action}' is not legal during {self.describe()}"

    # -- applying ----------------------------------------------------------------------------

    def apply(self, state: State, action: Action) -> Transition:
        acted = self.acted
        left = list(self.left)
        if isinstance(action, Move):  # the common case first
            return self._move(state, action, left, acted)
        if isinstance(action, Word):
            if action.word == "end":
                state.emit(PhaseEnded(self.team))
                return (EndPhase(self.team, acted),)
            if action.word == "out":
                state.emit(SteppedOut(state.carrier))
                state.dead = "out"
                return ()
            if action.word == "touchback":
                state.emit(Touchback("downed", player=state.carrier))
                state.dead = "touchback"
                return ()
        if isinstance(action, Shift):
            return self._shift(state, DIRECTIONS.index(action.direction), left, acted)
        if isinstance(action, Hand):
            giver = state.carrier
            take_ball(state, action.player)
            # MW-TACK-3's exception: a defender who tried the old carrier may try the new
            # one "at the end of the current defensive movement phase", not before.
            state.retry |= state.tried
            state.emit(HandedOff(giver, action.player))
            # Both keep what movement they have left; neither is moving now.
            return (self._then(left, acted | 1 << giver | 1 << action.player, NOBODY, NOBODY),)
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
            state.last_dir = travel_dir(state, start, target, self.team)
            state.emit(PassThrown(thrower, action.cell))
            return (self._then(left, acted | 1 << thrower),)
        if isinstance(action, Punt):
            punter = state.carrier
            left[punter] = 0
            rushers = [q for q in state.players_at(state.ball) if team_of(q) != self.team]
            if rushers:
                # MW-PUNT-3 (ruling MW-R9): a defender already in the punter's hex blocks it.
                return (
                    self._then(left, acted),
                    blocked_kick(state, "punt", rushers[0]),
                )
            return (
                self._then(left, acted | 1 << punter),
                PuntKick(cell_of(state, action.cell)),
            )
        if isinstance(action, Cast):
            return self._cast(state, action, left, acted)
        raise wrong(self, action)

    def _move(self, state: State, action: Move, left: list[int], acted: int) -> Transition:
        moving, paused = self._begin(state, action.player, left)
        p = action.player
        cell = cell_of(state, action.cell)
        start = state.pos[p]
        cost = move_price(state, p, cell)  # -1: the hex holds a counter
        loose_ball = cell == state.ball and (
            state.ball_state in ("loose", "kick")
            or (state.ball_state == "punt" and state.receivable == team_of(p))
        )
        # Contact or the loose ball ends the move.
        left[p] = 0 if cost < 0 or loose_ball else left[p] - cost
        acted |= 1 << p
        if p == state.punter:
            state.punter = NOBODY  # MW-PUNT-3: a player who moved may not punt
        state.pos[p] = cell
        subs: list[Procedure[State]] = []
        if p == state.carrier:
            state.ball = cell
            state.emit(Moved(p, state.field.names[start], action.cell, carrying=True))
            check_score(state)
            if not state.dead and tackle_question(state):
                subs.append(TackleRound(1 - self.team, False, True))
        else:
            state.emit(Moved(p, state.field.names[start], action.cell, carrying=False))
            if (
                not state.passed
                and team_of(p) == state.offense
                and state.kind in ("scrimmage", "conversion")
                and not state.linemen >> p & 1
                and state.beyond(state.offense, state.row(cell), state.los_row)
            ):
                state.crossed = True  # MW-PASS-3: a back crossed the line; no pass now
            if state.caster >= 0:
                self._touch_counters(state, p, cell)
            if loose_ball and not state.dazed >> p & 1:
                subs.append(ball_contact(state, p))
        return (self._then(left, acted, moving, paused), *subs)

    def _touch_counters(self, state: State, p: int, cell: int) -> None:
        """MW-MAGIC-3: touching a mirror-image counter turns it over."""
        if state.caster < 0 or team_of(state.caster) == team_of(p):
            return
        if cell in state.images:
            state.images.remove(cell)
            state.dazed |= 1 << p
            state.emit(ImageTouched(p, state.field.name(cell), tackled=False))
        elif cell == state.pos[state.caster]:
            end_mirror(state, MirrorEnded("touched", player=p, caster=state.caster))

    def _shift(self, state: State, d: int, left: list[int], acted: int) -> Transition:
        moving, paused = self._begin(state, state.caster, left)
        """MW-MAGIC-2: the caster moves one hex and every image mirrors the move; an image
        pushed off the field or into an opponent is removed."""
        caster = state.caster
        f = state.field
        moved: list[int] = []
        # Images stop at opponents and seen teammates, as the caster's own step does, and
        # not at the hex the caster is leaving: it may not matter which counter is real.
        opp = counters_of(state, 1 - self.team)
        for q in team_players(self.team):
            if state.pos[q] >= 0 and q not in (caster, state.invisible):
                opp |= 1 << state.pos[q]
        for c in state.images:
            c2, r2 = state.step_coords(state.col(c), state.row(c), d)
            if state.on_board(c2, r2):
                n = r2 * f.width + c2
                if not opp >> n & 1:
                    moved.append(n)
                    continue
            state.emit(ImageLeft(f.name(c)))
        c2, r2 = state.step_coords(state.col(state.pos[caster]), state.row(state.pos[caster]), d)
        target = r2 * f.width + c2
        state.pos[caster] = target
        state.images = sorted(set(moved) - {target})
        left[caster] -= 1
        acted |= 1 << caster
        state.emit(CountersShifted(DIRECTIONS[d]))
        if counters_of(state, 1 - self.team) >> target & 1:
            left[caster] = 0  # MW-MOVE-2: entering an occupied hex ends the move
            end_mirror(state, MirrorEnded("contact", caster=caster, cell=f.name(target)))
        subs: list[Procedure[State]] = []
        if caster == state.carrier:
            state.ball = target
            check_score(state)
            if not state.dead and tackle_question(state):
                subs.append(TackleRound(1 - self.team, False, True))
        return (self._then(left, acted, moving, paused), *subs)

    def _cast(self, state: State, action: Cast, left: list[int], acted: int) -> Transition:
        moving, paused = self._begin(state, action.player, left)
        p = action.player
        acted |= 1 << p
        here = self._then(left, acted, moving, paused)
        if action.spell in ("bolt", "mirror", "invisible", "change"):
            state.spent |= 1 << p  # MW-R18
        if action.spell == "bolt":
            if action.target == "ball":
                state.emit(BoltStruck(p, ""))
                state.dead = "bolt"  # MW-MAGIC-5: as an incomplete pass (ruling MW-R19)
                return ()
            from monsterball.games.midway.actions import parse_player

            q = parse_player(action.target)
            state.emit(BoltStruck(p, action.target))
            state.out_through[q] = state.play_no + 1
            if q == state.carrier:
                state.dead = "tackle"  # no fumble: the carrier is down where he stood
                return ()
            state.remove(q)
            return () if state.dead else (here,)
        if action.spell == "mirror":
            state.emit(SpellCast(p, "mirror"))
            return (here, MirrorRoll(p))
        if action.spell == "invisible":
            state.invisible = p
            state.vanish = state.pos[p]
            # Ruling MW-R11: "within range" is his movement in this phase (none when
            # neutralized, 2 less after the snap), which both coaches know.
            state.vanish_reach = left[p]
            left[p] = 0
            state.emit(SpellCast(p, "invisible"))
            return (self._then(left, acted, moving, paused), AppearPick(p))
        old_mv = state.mtype(p).mv
        if action.spell == "change":
            state.form[p] = action.target
            state.form_left[p] = 2
            state.emit(Changed(p, action.target))
        elif action.spell == "revert":
            state.form[p] = ""
            state.emit(Changed(p, ""))
        elif action.spell in ("were", "human"):
            if action.spell == "were":
                state.were |= 1 << p
            else:
                state.were &= ~(1 << p)
            state.emit(FormTaken(p, action.spell))
        else:
            raise wrong(self, action)
        # Ruling MW-R28: the new form's movement factor, with this phase's kickoff or snap
        # change and any slowing ("Abilities include size and movement factor"); one who
        # may not move this phase still may not.
        if left[p] > 0:
            mod = state.phase_mod
            lost = max(0, allowance(old_mv, mod) - left[p])
            left[p] = max(0, allowance(state.mtype(p).mv, mod) - lost)
        return (self._then(left, acted, moving, paused),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s movement phase"


def allowance(mv: int, mod: int) -> int:
    """A movement factor in a phase that adds ``mod``: +2 on the kicking team's first
    phase (MW-KICK-2), -2 "down to a minimum of 1" after the snap (MW-MOVE-3)."""
    if mod < 0:
        return max(1, mv + mod)
    return mv + mod


def unreachable_reason(state: State, player: int, cell: int, budget: int) -> str:
    name, target = player_name(player), state.field.name(cell)
    if player == state.carrier:
        return f"the ball carrier moves one hex at a time into an empty hex; {target} is not one"
    if state.counters_mask() >> cell & 1 and not contact_targets(state, player) >> cell & 1:
        return (
            f"{name} may not enter {target}: it is occupied and not open to a block, tackle or ball"
        )
    return f"{name} cannot reach {target} with {budget} movement left"


def ball_contact(state: State, p: int) -> Procedure[State]:
    """A player entered the hex of a ball nobody holds: a catch attempt on a kick or punt in
    the air (MW-KICK-7, MW-PUNT-6), otherwise a recovery attempt (MW-FUM-2)."""
    if state.ball_state in ("kick", "punt") and state.receivable == team_of(p):
        return CatchRoll(p, state.ball_state, ())
    return RecoveryRoll(recovery_order(state, p))


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
        # MW-R23: nobody acted and no ball in the air: one more idle phase.
        flying = state.ball_state in ("pass", "kick", "punt")
        state.idle = 0 if self.acted or flying else state.idle + 1
        nxt: list[Procedure[State]] = [StartPhase(1 - team)]
        barred = NOBODY
        if state.no_recover >= 0 and team_of(state.no_recover) == team and not state.phase_over:
            barred = state.no_recover  # still barred in the scramble that ends this phase
            state.no_recover = NOBODY  # the blocked punter's next phase is over
        holder = ball_team(state)
        if state.ball_state == "loose":
            # MW-FUM-2 (ruling MW-R22): after the blocks, those on the ball try for it.
            nxt.append(LooseBallRound(team, self.acted, barred))
        if state.receivable == team:
            landed = state.ball_state == "kick" or (
                state.ball_state == "punt" and state.punt_travel == 0
            )
            catchers = kick_catchers(state, team) if landed else ()
            if catchers:
                # Ruling MW-R24: receivers standing on it try a reception, or let it fall.
                return (StartPhase(1 - team), KickCatch(team, catchers))
            state.receivable = NOBODY
            if state.ball_state == "punt" and state.punt_travel == 0:
                # MW-PUNT-7: nobody tried to catch it: the punt hits the ground and bounces.
                nxt = [StartPhase(1 - team), BounceCount()]
            elif state.ball_state == "kick":
                state.ball_state = "loose"
        if state.ball_state == "pass" and team != state.offense:
            return (PassResolution(0, ()),)
        onside_scrum = state.kind == "onside" and state.ball_state == "loose"
        if holder == team:
            unseen_blocker(state, team)
        if holder == team or (state.ball_state == "pass" and team == state.offense) or onside_scrum:
            pairs = block_pairs(state, team, self.acted)
            if pairs:
                nxt.append(block_step(state, pairs))
        elif holder == 1 - team:
            state.tried &= ~state.retry  # MW-TACK-3: the handoff's exception
            state.retry = 0
            if tackle_question(state):
                nxt.append(TackleRound(team, False, False))
        return tuple(nxt)

    def describe(self) -> str:
        return f"the end of team {TEAM_NAMES[self.team]}'s movement phase"


def unseen_blocker(state: State, team: int) -> None:
    """Ruling MW-R11: an invisible player of ``team`` whose unseen move ended in an
    opponent's hex shows himself there, to block with the others (unless two teammates
    have come in meanwhile: then he reappears as usual next phase)."""
    p = state.invisible
    if p < 0 or team_of(p) != team or state.appear_at < 0 or state.carrier == p:
        return
    target = state.appear_at
    here = state.players_at(target)
    if not any(team_of(q) != team for q in here):
        return
    if sum(1 for q in here if team_of(q) == team) >= 2:
        return
    state.pos[p] = target
    state.invisible = state.vanish = state.appear_at = NOBODY
    state.vanish_reach = 0
    state.emit(Reappeared(p, state.field.name(target), "block"))


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
