"""The Up Call (HM-UP): the throw, aim, catch, and how it ends (catch, score, turnover, stall)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE
from monsterball.core.geometry import iter_bits, mask_of
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    KEEP,
    REROLL,
    ROLL,
    STRATEGY,
    ThrowTo,
    ViaCell,
    player_name,
)
from monsterball.games.huck_monster.field import team_of
from monsterball.games.huck_monster.matchup import (
    CATCH,
    CATCH_MARK,
    CHALLENGE,
    DICE,
    INTERCEPT,
    MARK,
    THROW,
    is_hammer,
    light_effect,
    offense_count,
)
from monsterball.games.huck_monster.rules.bid import new_bid, strategy_open
from monsterball.games.huck_monster.rules.common import (
    FLOW,
    State,
    claim_if_next_to,
    finish_game,
    is_all_star,
    is_uncontested,
    must_dump,
    nearest_open_next_to,
    receivers,
    rotate_coaches,
    star_bonus,
    star_spent,
    stealth_bonus,
    strategy_outcomes,
    team_dice_outcomes,
)
from monsterball.games.huck_monster.rules.kits.all_stars import UpMove
from monsterball.games.huck_monster.rules.kits.potholes import Potholes
from monsterball.games.huck_monster.rules.pro import (
    ContinueChoice,
    ContinueRoll,
    DoubleTeam,
    RethrowChoice,
    continuers,
)
from monsterball.games.huck_monster.state import NOBODY


@dataclass(frozen=True, slots=True)
class UpCall(Procedure[State]):
    """HM-UP-1: from the throw to a catch or a turnover. This controller stays under the
    steps it starts; ``stage`` says where it resumes."""

    stage: str
    rule = "HM-UP-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        return _STAGES[self.stage](self, state)

    def _start(self, state: State) -> Transition:
        cap = state.options.max_up_calls
        if cap and state.up_calls >= cap:
            return finish_game(state, by_cap=True)
        state.up_calls += 1
        state.strategy_used = [False, False]  # HM-SD-1: once per Up Call
        state.up_moved = False  # HM-R43: one Up Move per Up Call
        state.poach = False
        state.clear_action()
        state.emit(ev.UpCallStarted(state.up_calls, state.holder))
        rotate_coaches(state, state.offense, "throw")
        return (UpCall("aim"), OffenseAction(THROW, "declare"))

    def _aim(self, state: State) -> Transition:
        marks = state.next_to_disc(state.defense)
        if state.options.double_team and len(marks) > 1:
            return (UpCall("aim-now"), DoubleTeam("call", ()))  # HM-DT-1
        return self._aim_now(state)

    def _aim_now(self, state: State) -> Transition:
        light = light_effect(state.light, THROW)
        count = offense_count(state.base, light, THROW, False)
        aim = Aim(count)
        targets = receivers(state, count, light)
        _AIMED[:] = [(aim, state, _aim_key(state), targets)]  # Aim's legal list: the same
        if not targets:
            reason = (
                "no Dump receiver behind the disc"
                if must_dump(state, light)
                else "no Receiver within the Throw count"
            )
            state.emit(ev.Stalled(count, reason))
            state.outcome = "stall"
            return (UpCall("end"),)
        return (UpCall("up-move"), aim)

    def _up_move(self, state: State) -> Transition:
        star = state.defense * 7
        if is_all_star(state, star) and not state.bidders >> star & 1 and not state.up_moved:
            return (UpCall("fly"), UpMove())  # HM-STAR-4 / HM-R43: one Up Move per Up Call
        return self._fly(state)

    def _fly(self, state: State) -> Transition:
        if state.outcome:
            return (UpCall("end"),)
        travel = offense_count(state.base, state.light, THROW, state.halved)
        if len(state.path) > travel:
            # HM-R19: a Footer halved the count below the path's length.
            stop = state.path[travel - 1] if travel > 0 else state.disc
            while travel > 1 and state.all_occupied() >> stop & 1:
                # It cannot fall on a defender it was passing over: the space before him.
                travel -= 1
                stop = state.path[travel - 1]
            if state.all_occupied() >> stop & 1:
                stop = state.disc
            state.disc = stop
            state.emit(ev.FellShort(state.field.name(stop)))
            state.outcome = "short"
            return (UpCall("end"),)
        defense = state.defense
        if state.progress < 0:
            ring = state.adjacent(state.disc)
            if state.marks < 0:
                # HM-MARK-3: "Only one Mark may roll against a single Handler Throw" (HM-R26):
                # who marks is fixed once, as the disc is about to leave, so a defender a
                # strategy result moves beside the disc later (a Monster, a Match) never
                # makes a second Mark, and none marks twice. HM-DT-4: an uncalled double
                # team: every defender then beside the disc rolls.
                marks = state.players_in(ring, defense)
                if state.options.mark_waits:  # HM-R11: one who guards the catch waits for it
                    guards = state.catch_guards(state.path[-1], state.receiver)
                    marks = [p for p in marks if not guards >> state.pos[p] & 1]
                if not state.options.double_team:
                    marks = marks[:1]
                state.marks = sum(1 << p for p in marks)
            for p in iter_bits(state.marks):
                state.marks &= ~(1 << p)
                if not state.bidders >> p & 1 and ring >> state.pos[p] & 1:
                    return (UpCall("fly"), new_bid(state, p, MARK))
        path = state.path
        final = path[-1]
        guards = state.catch_guards(final, state.receiver)
        # (Nobody moves and nobody bids while the disc flies through this loop.)
        defenders, bidders = state.defender_cells(), state.bidders
        neighbours = state.field.neighbour_mask
        continues = state.options.continues != "off"  # (continuers' own first test)
        for i in range(max(state.progress, 0), len(path) - 1):
            cell = path[i]
            # HM-BEAT-1: a defender the disc is about to pass over must bid (and be beaten)
            # first, even one who would otherwise wait for the catch.
            ahead = 1 << path[i + 1] & defenders
            near = (ahead | (neighbours[cell] & ~guards)) & defenders
            for p in state.players_in(near, defense) if near else ():
                if bidders >> p & 1:
                    continue
                state.progress = i
                if not state.all_occupied() >> cell & 1:
                    state.disc = cell  # (over a hammered defender it stays in the air)
                return (UpCall("fly"), new_bid(state, p, INTERCEPT))
            if continues and i >= state.continue_from and continuers(state, i):
                state.progress = i
                state.disc = cell
                return (UpCall("continue"), ContinueChoice())  # HM-PRO-1
        state.progress = len(state.path) - 1
        state.disc = final
        return (UpCall("catch"),)

    def _catch(self, state: State) -> Transition:
        star = state.defense * 7
        if (
            state.options.up_move == "any-time"
            and is_all_star(state, star)
            and not state.bidders >> star & 1
            and not state.up_moved
        ):
            return (UpCall("catch-now"), UpMove())  # HM-R43: "at any time", before the catch
        return self._catch_now(state)

    def _catch_now(self, state: State) -> Transition:
        rotate_coaches(state, state.offense, "catch")
        if not self._guards(state):
            state.emit(ev.Caught(state.receiver, False))  # HM-CATCH-2: no roll
            state.outcome = "catch"
            return (UpCall("end"),)
        return (UpCall("guarded"), OffenseAction(CATCH, "declare"))

    def _guards(self, state: State) -> list[tuple[int, str]]:
        """Defenders who bid on the catch, in order: Marks (next to the disc), then
        Challenges (next to the receiver only) (HM-CATCH-3, HM-CHAL-1, HM-R11)."""
        ring = state.adjacent(state.disc)
        around = state.adjacent(state.pos[state.receiver])
        out = []
        for p in state.players_in(ring, state.defense):
            if not state.bidders >> p & 1:
                out.append((p, CATCH_MARK))
        for p in state.players_in(around & ~ring, state.defense):
            if not state.bidders >> p & 1:
                out.append((p, CHALLENGE))
        return out

    def _guarded(self, state: State) -> Transition:
        if state.outcome:
            return (UpCall("end"),)
        guards = self._guards(state)
        if not guards:
            state.emit(ev.Caught(state.receiver, True))
            state.outcome = "catch"
            return (UpCall("end"),)
        player, role = guards[0]
        return (UpCall("guarded"), new_bid(state, player, role))

    def _continue(self, state: State) -> Transition:
        """After the offense's Continue decision (HM-PRO-1, HM-R48/R49)."""
        if state.outcome:
            return (UpCall("end"),)
        if state.holder == NOBODY:
            return self._fly(state)  # declined: the disc flies on
        if state.options.continues == "rethrow":
            return (UpCall("continue-start"),)
        return (UpCall("aim-now"), ContinueRoll(1))

    def _continue_start(self, state: State) -> Transition:
        """HM-RETHROW-1/2 for a Continue: a new Up Call at once, no team moves; the Continue
        rolls 3 team dice, without strategy dice (HM-R49)."""
        cap = state.options.max_up_calls
        if cap and state.up_calls >= cap:
            return finish_game(state, by_cap=True)
        state.up_calls += 1
        state.strategy_used = [False, False]
        state.up_moved = False
        state.poach = False
        state.clear_action()
        state.continuing = True
        state.action = THROW
        state.emit(ev.UpCallStarted(state.up_calls, state.holder))
        rotate_coaches(state, state.offense, "throw")
        return (UpCall("aim-now"), ContinueRoll(3))

    def _end(self, state: State) -> Transition:
        outcome = state.outcome
        if outcome == "catch":
            return _complete_catch(state)
        callahans = state.options.callahans or state.style == "hot-hex"
        if outcome == "intercepted" and callahans and _is_callahan(state):
            return _callahan(state)
        if outcome == "contested":
            return _contested(state)
        return _turnover(state)

    def describe(self) -> str:
        return "the Up Call"


# UpCall.resolve's steps by stage, built once (not a dict of bound methods per step).
_STAGES: dict[str, Callable[[UpCall, State], Transition]] = {
    "start": UpCall._start,
    "aim": UpCall._aim,
    "aim-now": UpCall._aim_now,
    "up-move": UpCall._up_move,
    "fly": UpCall._fly,
    "catch": UpCall._catch,
    "catch-now": UpCall._catch_now,
    "guarded": UpCall._guarded,
    "continue": UpCall._continue,
    "continue-start": UpCall._continue_start,
    "end": UpCall._end,
}


def _complete_catch(state: State) -> Transition:
    receiver = state.receiver
    state.holder = receiver
    state.clear_action()
    if state.scoring_zone(state.offense) >> state.pos[receiver] & 1:
        # HM-R51: the hex is common to both teams, so nobody switches ends after a Hot Hex
        # point; the scorer pulls from the end it defended.
        return _score(state, receiver, switch_ends=state.style != "hot-hex")
    return (FLOW.step("TeamMoves", "catch", 1, 0),)


def _contested(state: State) -> Transition:
    """HM-PRO-2 / HM-R50: a forgotten count stops the disc where the Continue took it: the Up
    Call ends there, "partially completed", and the player acting on the disc, the Continue,
    keeps it. It is not a catch (no point, no pivot); team moves follow."""
    state.holder = state.receiver
    state.clear_action()
    return (FLOW.step("TeamMoves", "normal", 1, 0),)


def _score(state: State, player: int, *, switch_ends: bool) -> Transition:
    """HM-END-1/3/5: a point; the scorer pulls the next one. After a catch it stays at the
    end it scored in, so teams switch ends; a Callahan scorer already defends that end."""
    team = team_of(player)
    state.score[team] += 1
    state.emit(ev.Scored(team, player, (state.score[0], state.score[1])))
    if state.options.wins(state.score[team], state.score[1 - team]):
        state.winner = team
        return finish_game(state, by_cap=False)
    if switch_ends:
        state.north_team = 1 - state.north_team
    return (FLOW.step("StartPoint", 1 - team, False),)


def _is_callahan(state: State) -> bool:
    """HM-CALL-1/3: an uncontested Intercept inside its own end zone; in Hot Hex ("Callahans
    count", HM-R51) inside the common hex, with or without the Pro option."""
    taker = state.taker
    zone = state.hex_zone if state.style == "hot-hex" else state.end_zone(team_of(taker))
    return bool(zone >> state.pos[taker] & 1) and is_uncontested(state, taker)


def _callahan(state: State) -> Transition:
    """HM-CALL-2 / HM-R32: 1 point, and the Callahan team pulls the next point."""
    state.emit(ev.CallahanScored(state.taker))
    taker = state.taker
    state.clear_action()
    return _score(state, taker, switch_ends=False)


def _turnover(state: State) -> Transition:
    """HM-TO-*, then (Pothole Markers) the new defense's cone (HM-CONE-2/3)."""
    after = _change_possession(state)
    if state.style == "pothole" and after:
        return (*after, Potholes())
    return after


def _change_possession(state: State) -> Transition:
    """HM-TO-1..5: possession changes; the defender who won becomes the Handler. A stall or
    a throw that falls short leaves the disc loose for the new offense to take (HM-TO-4)."""
    kind = state.outcome
    taker = state.taker if kind in ("turnover", "intercepted") else NOBODY
    rethrow = state.options.rethrow
    offer_rethrow = (
        kind == "intercepted"
        and not state.poach
        and (rethrow == "any" or (rethrow == "uncontested" and is_uncontested(state, taker)))
    )
    poach = state.poach
    old_spot = state.disc
    state.offense = state.defense
    state.dump_next = False  # a pending pin Dump binds only the team that spun it
    state.holder = NOBODY
    state.clear_action()
    state.emit(ev.TurnedOver(state.offense, taker, "defensive" if taker >= 0 else "stall"))
    if taker == NOBODY:
        claim_if_next_to(state)
        return (FLOW.step("TeamMoves", "stall", 1, 0),)
    state.holder = taker
    zone = next(
        (t for t in (0, 1) if state.end_zone(t) >> old_spot & 1),
        NOBODY,
    )
    if zone != NOBODY:
        _end_zone_turnover(state, taker, zone)
    elif not state.adjacent(state.disc) >> state.pos[taker] & 1:
        spot = nearest_open_next_to(state, taker, state.disc, 0)
        if spot == NOBODY:
            state.holder = NOBODY  # HM-R14: nowhere to put it: the disc is loose
            claim_if_next_to(state)
            return (FLOW.step("TeamMoves", "stall", 1, 0),)
        state.disc = spot
        state.emit(
            ev.DiscMoved(
                state.field.name(spot),
                taker,
                state.field.name(state.pos[taker]),
                "The Challenge takes the disc",
            )
        )
    if poach:
        return (UpCall("start"),)  # HM-SD-13: rethrow at once, no team moves
    if offer_rethrow:
        return (RethrowChoice("first"),)  # HM-RETHROW-1..4
    return (FLOW.step("TeamMoves", "normal", 1, 0),)


def _end_zone_turnover(state: State, taker: int, zone: int) -> None:
    """HM-END-4 / HM-R15: the disc and the new Handler move to the closest available
    end-zone line spaces: the Handler to the open line space nearest him (ties: the one
    nearest the disc), the disc to the open line space beside him nearest where it lies, so
    a Handler and disc already on the line stay where they are."""
    field = state.field
    line = field.row_mask(state.line_row(zone))
    disc, state.disc = state.disc, NOBODY
    open_line = line & state.open_spaces() | (line & 1 << state.pos[taker])
    state.disc = disc
    home = state.pos[taker]
    dist, from_disc = field.distance_row(home), field.distance_row(disc)
    spots = sorted(iter_bits(open_line), key=lambda c: (dist[c], from_disc[c], c))
    for spot in spots:
        state.move_player(taker, spot)
        disc_spot = nearest_open_next_to(state, taker, disc, line)
        if disc_spot != NOBODY:
            state.disc = disc_spot
            if (spot, disc_spot) != (home, disc):
                state.emit(
                    ev.DiscMoved(
                        field.name(disc_spot), taker, field.name(spot), ev.END_ZONE_TURNOVER
                    )
                )
            return
    state.move_player(taker, home)  # no line space with room for both: stay put


def _aim_key(state: State) -> tuple[object, ...]:
    """Everything :func:`receivers` reads besides the count and the options."""
    return (
        state.disc,
        state.holder,
        state.offense,
        state.cones,
        state.bidders,
        state.light,
        state.dump_next,
        tuple(state.pos),
    )


# The receivers ``UpCall._aim_now`` found for the Aim it pushed, with the state and what
# they rest on: one entry, reused by that Aim's legal list only while nothing has changed
# (they were computed twice per throw).
_AIMED: list[tuple[Aim, State, tuple[object, ...], dict[int, int]]] = []


@dataclass(frozen=True, slots=True)
class Aim(Procedure[State]):
    """HM-THROW-2 / HM-R9: the Handler names the Receiver and where the disc stops (next to
    the Receiver, within the count); the engine flies it along the path that meets the
    fewest defenders."""

    count: int
    rule = "HM-THROW-2"

    def actor(self, state: State) -> int:
        return state.offense

    def _targets(self, state: State) -> dict[int, int]:
        for aim, seen, key, targets in _AIMED:  # found by ``UpCall._aim_now`` just before
            if aim is self and seen is state and key == _aim_key(state):
                return targets
        return receivers(state, self.count, light_effect(state.light, THROW))

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = []
        for r, mask in self._targets(state).items():
            out.extend(state.actions.throw_by_mask[r].select(mask))
        return out

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, ThrowTo):
            raise wrong_kind(self, action)
        cell = action_cell(state.field, action.cell)
        name = player_name(action.receiver)
        if team_of(action.receiver) != state.offense or action.receiver == state.holder:
            raise IllegalActionError(f"{name} cannot receive this throw")
        if star_spent(state, action.receiver):
            raise IllegalActionError(
                f"{name} cannot receive this throw: an All-Star acts once per Up Call and he "
                "has already acted in this Up Call"
            )
        if not self._targets(state).get(action.receiver, 0) >> cell & 1:
            raise IllegalActionError(
                f"the disc cannot reach {action.cell} next to {name} with a count of "
                f"{self.count} through open spaces"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, ThrowTo)
        cell = action_cell(state.field, action.cell)
        light = light_effect(state.light, THROW)
        hammer = is_hammer(light)
        opts = state.options
        # HM-R9, steer: the Handler moves the disc one space at a time himself.
        steer = opts.steer and opts.throw_path == "open" and not hammer
        steer = steer and not opts.beaten_defenders
        path = () if steer else state.best_path(action.receiver, cell, self.count, hammer=hammer)
        state.receiver = action.receiver
        state.thrower = state.holder
        # HM-R37, pin_dump=next: a pin Dump binds the team's next throw (this one is free).
        state.dump_next = light == "pin-dump" and opts.pin_dump == "next"
        if is_all_star(state, state.holder):
            state.bidders |= 1 << state.holder  # his one action in this Up Call (HM-STAR-6)
        state.holder = NOBODY  # the disc is in the air
        state.path = path
        state.progress = -1
        if steer:
            return (Steer(cell, self.count),)
        _announce(state, hammer)
        return ()

    def describe(self) -> str:
        return f"aiming a throw of {self.count}"


def _announce(state: State, hammer: bool) -> None:
    """The throw's path is known: say so, and (HM-R20) the defender a Hammer passes over
    makes no bid on this throw."""
    path = state.path
    cell_names = state.field.names
    names = tuple([cell_names[c] for c in path])
    state.emit(ev.Thrown(state.receiver, names[-1], names))
    for c in path[:-1] if hammer else ():
        if state.defender_cells() >> c & 1 and state.hammered < 0:
            state.hammered = state.player_at(c)
            state.bidders |= 1 << state.hammered
            state.emit(ev.BidPrevented(state.hammered, "defender passed over", "hammer"))


@dataclass(frozen=True, slots=True)
class Steer(Procedure[State]):
    """HM-R9 with ``steer``: "The game disc moves one space at a time": the Handler picks
    each space the disc enters (``via e9``), through open spaces, never twice the same, each
    one leaving the stop he named within the count; the path ends on that stop."""

    final: int
    count: int
    rule = "HM-THROW-2"

    def actor(self, state: State) -> int:
        return state.offense

    def next_spaces(self, state: State) -> int:
        path = state.path
        open_ = state.open_spaces() & ~mask_of(path)
        left = self.count - len(path)
        if left <= 0 or not open_ >> self.final & 1:
            return 0
        to_final = state.field.step_distances(self.final, open_, left - 1)
        here = path[-1] if path else state.disc
        ring = state.adjacent(here) & open_
        return sum(1 << c for c in iter_bits(ring) if c in to_final)

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.via_by_mask.select(self.next_spaces(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, ViaCell):
            raise wrong_kind(self, action)
        if not self.next_spaces(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"the disc cannot enter {action.cell}: the next space must be an open one "
                f"beside it, not flown over yet, from which {state.field.name(self.final)} "
                f"is still within the count of {self.count}"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, ViaCell)
        cell = action_cell(state.field, action.cell)
        state.path = (*state.path, cell)
        if cell != self.final:
            return (self,)
        _announce(state, False)
        return ()

    def describe(self) -> str:
        return "steering the disc, one space at a time"


@dataclass(frozen=True, slots=True)
class OffenseAction(Procedure[State]):
    """HM-THROW-1 / HM-CATCH-1: the Handler rolls 3 team dice to throw, a guarded Receiver
    3 to catch; either may add the light strategy die (HM-SD-1) and, on Strip, re-roll
    (HM-SD-8, HM-R18)."""

    kind: str
    stage: str
    rule = "HM-THROW-1"

    def actor(self, state: State) -> int:
        if self.stage in ("face", "dice", "redice"):
            return CHANCE
        if self.stage == "declare" and not strategy_open(state, state.offense):
            return AUTO
        return state.offense

    def legal_actions(self, state: State) -> list[Action]:
        if self.stage == "declare":
            return [ROLL, STRATEGY]
        return [KEEP, REROLL]

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        if self.stage == "face":
            return strategy_outcomes(state, offense=True)
        return team_dice_outcomes(state, DICE[self.kind])

    def resolve(self, state: State) -> Transition:
        self._begin(state)
        return (OffenseAction(self.kind, "dice"),)

    def _begin(self, state: State) -> None:
        state.action = self.kind
        state.light = ""
        state.halved = False

    def apply(self, state: State, action: Action) -> Transition:
        if self.stage == "declare":
            self._begin(state)
            if action == STRATEGY:
                state.strategy_used[state.offense] = True
                return (OffenseAction(self.kind, "face"),)
            return (OffenseAction(self.kind, "dice"),)
        if self.stage == "face":
            assert isinstance(action, Roll)
            ruled_out = action.value in state.options.disabled_outcomes  # HM-EXP-1
            state.light = "" if ruled_out else action.value
            state.emit(
                ev.StrategyRolled(
                    state.offense, action.value, bool(light_effect(state.light, self.kind))
                )
            )
            if self.kind == CATCH and is_hammer(light_effect(action.value, CATCH)):
                guards = UpCall("guarded")._guards(state)
                state.hammered = guards[0][0] if guards else NOBODY  # HM-R20
            return (OffenseAction(self.kind, "dice"),)
        if self.stage in ("dice", "redice"):
            assert isinstance(action, Roll)
            actor = state.holder if self.kind == THROW else state.receiver
            bonus = stealth_bonus(state, actor)
            first = state.base
            state.base = int(action.value) + bonus + star_bonus(state, actor, self.kind)
            again = self.stage == "redice"
            state.emit(ev.DiceRolled(state.offense, self.kind, state.base, again, bonus))
            if again and state.options.strip == "best" and first > state.base:
                state.base = first  # HM-R18, strip=best: the better of the two counts
                state.emit(ev.BestRollKept(state.offense, self.kind, first))
            if self.stage == "dice" and light_effect(state.light, self.kind) == "strip":
                return (OffenseAction(self.kind, "strip"),)
            return ()
        if action == REROLL:
            return (OffenseAction(self.kind, "redice"),)
        return ()

    def describe(self) -> str:
        what = {
            "declare": "roll or add strategy",
            "face": "the strategy die",
            "strip": "Strip: keep or re-roll",
        }.get(self.stage, "team dice")
        return f"the {self.kind}: {what}"
