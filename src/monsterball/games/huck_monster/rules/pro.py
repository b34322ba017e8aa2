"""The Pro rules: Continue, The Rethrow, Double Team and the Pivot (HM-PRO, HM-DT, HM-PIVOT)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import CHANCE
from monsterball.core.geometry import mask_of
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    DOUBLE_TEAM,
    END,
    KEEP,
    PLAY_ON,
    REROLL,
    RETHROW,
    ContinueBy,
    EndMove,
    MoveTo,
    PivotTo,
    player_name,
)
from monsterball.games.huck_monster.matchup import (
    THROW,
    offense_count,
)
from monsterball.games.huck_monster.rules.common import (
    FLOW,
    State,
    is_all_star,
    is_uncontested,
    rotate_coaches,
    star_bonus,
    star_spent,
    stealth_bonus,
    team_dice_outcomes,
)


@dataclass(frozen=True, slots=True)
class Pivot(Procedure[State]):
    """HM-PIVOT-1..3 / HM-R33: after a catch, before the defense moves, the new Handler may
    pivot the disc to an open space beside him (``pivot e9``) or leave it (``end``)."""

    rule = "HM-PIVOT-1"

    def actor(self, state: State) -> int:
        return state.offense

    def legal_actions(self, state: State) -> list[Action]:
        return [*state.actions.pivot_by_mask.select(state.pivot_spaces()), END]

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, EndMove):
            return
        if not isinstance(action, PivotTo):
            raise wrong_kind(self, action)
        if not state.pivot_spaces() >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"the disc cannot pivot to {action.cell}: only to an open space beside the "
                "Handler, around him without passing a player, and not into an end zone"
            )

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, PivotTo):
            state.disc = action_cell(state.field, action.cell)
            state.emit(ev.Pivoted(state.holder, action.cell))
        return ()

    def describe(self) -> str:
        return "the Handler's pivot"


@dataclass(frozen=True, slots=True)
class RethrowChoice(Procedure[State]):
    """HM-RETHROW-1..4 / HM-R34: after a qualifying Intercept its team may rethrow at once;
    then the other team may still 'play on' (either coach may opt out)."""

    stage: str
    rule = "HM-RETHROW-1"

    def actor(self, state: State) -> int:
        return state.offense if self.stage == "first" else state.defense

    def legal_actions(self, state: State) -> list[Action]:
        return [RETHROW, PLAY_ON]

    def apply(self, state: State, action: Action) -> Transition:
        if action == PLAY_ON:
            state.emit(ev.RethrowDecided(self.actor(state), False))
            return (FLOW.step("TeamMoves", "normal", 1, 0),)
        if self.stage == "first":
            return (RethrowChoice("second"),)
        state.emit(ev.RethrowDecided(state.offense, True))
        return (FLOW.step("UpCall", "start"),)

    def describe(self) -> str:
        who = "the Intercept's team" if self.stage == "first" else "the other team"
        return f"the rethrow: {who} may rethrow or play on"


@dataclass(frozen=True, slots=True)
class DoubleTeam(Procedure[State]):
    """HM-DT-1..5 / HM-R35: with several defenders next to the disc after the throw roll the
    Handler may call 'double team' (or 'play on': every Mark bids); on a call each of them
    moves to an open space 2 from the disc, then the Handler keeps or re-rolls the throw."""

    stage: str
    moved: tuple[int, ...]
    rule = "HM-DT-1"

    def actor(self, state: State) -> int:
        if self.stage == "redice":
            return CHANCE
        return state.defense if self.stage == "move" else state.offense

    def _pending(self, state: State) -> list[int]:
        return [p for p in state.next_to_disc(state.defense) if p not in self.moved]

    def _spots(self, state: State, player: int) -> int:
        """HM-DT-2 / HM-R35: "move at least 2 spaces away from the disc": open spaces 2 or
        more from it that he reaches in 1..2 steps; if none, any open space exactly 2 away."""
        dist = state.field.distance_row(state.disc)
        size = state.field.size
        # (A call after the first Mark's roll comes once the path is known: not onto it.)
        open_ = state.open_spaces() & ~mask_of(state.path[state.progress + 1 :])
        far = sum(1 << c for c in range(size) if dist[c] >= 2) & open_
        near = state.move_reach(player, 2) & far
        return near or sum(1 << c for c in range(size) if dist[c] == 2) & open_

    def legal_actions(self, state: State) -> list[Action]:
        if self.stage == "call":
            return [DOUBLE_TEAM, PLAY_ON]
        if self.stage == "keep":
            return [KEEP, REROLL]
        out: list[Action] = []
        for p in self._pending(state):
            out.extend(state.actions.move_by_mask[p].select(self._spots(state, p)))
        return out

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return team_dice_outcomes(state, 3)

    def check(self, state: State, action: Action) -> None:
        if self.stage == "move" and isinstance(action, MoveTo):
            if action.player not in self._pending(state):
                raise IllegalActionError(
                    f"{player_name(action.player)} is not a double-teaming defender to move"
                )
            if not self._spots(state, action.player) >> action_cell(state.field, action.cell) & 1:
                raise IllegalActionError(
                    f"{player_name(action.player)} must move to an open space at least 2 from "
                    "the disc, within 2 steps"
                )
            return
        Procedure.check(self, state, action)

    def apply(self, state: State, action: Action) -> Transition:
        if self.stage == "call":
            if action == PLAY_ON:
                return ()
            state.emit(ev.DoubleTeamCalled(tuple(self._pending(state))))
            return (DoubleTeam("move", ()),)
        if self.stage == "move":
            assert isinstance(action, MoveTo)
            state.move_player(action.player, action_cell(state.field, action.cell))
            state.emit(ev.Moved(action.player, action.cell, 0, 0))
            nxt = DoubleTeam("move", (*self.moved, action.player))
            return (nxt,) if nxt._pending(state) else (DoubleTeam("keep", ()),)
        if self.stage == "keep":
            return (DoubleTeam("redice", ()),) if action == REROLL else ()
        assert isinstance(action, Roll)
        # HM-DT-3 "re-roll 3 team dice for a new Throw count": a new count as the first was
        # made, Stealth Space and All-Star stats included (HM-STEALTH-1, HM-STAR-2).
        bonus = stealth_bonus(state, state.holder)
        state.base = int(action.value) + bonus + star_bonus(state, state.holder, THROW)
        state.emit(ev.DiceRolled(state.offense, THROW, state.base, True, bonus))
        return ()

    def describe(self) -> str:
        return {
            "call": "more than one Mark: call 'double team' or 'play on'",
            "move": "double team: the Marks move 2 spaces from the disc",
            "keep": "double team: keep or re-roll the throw",
        }.get(self.stage, "double team: the new throw roll")


def continuers(state: State, index: int) -> list[int]:
    """HM-PRO-1 / HM-R48: offensive players who may Continue the throw at ``path[index]``:
    next to that space, "unguarded by Mark, Intercept, or Challenge players" (no defender
    beside them), neither the thrower nor the Receiver. None over a crossed defender."""
    if state.options.continues == "off":
        return []
    cell = state.path[index]
    if state.all_occupied() >> cell & 1:
        return []
    near = state.players_in(state.adjacent(cell), state.offense)
    return [
        p
        for p in near
        if p not in (state.thrower, state.receiver)
        and is_uncontested(state, p)
        and not star_spent(state, p)  # HM-STAR-6
    ]


def remaining_count(state: State) -> int:
    """The incoming throw's count left when the disc reaches ``path[progress]``: the count
    it flies with (strategy result included) less the spaces it has entered (HM-R48)."""
    travel = offense_count(state.base, state.light, THROW, state.halved)
    return max(0, travel - (state.progress + 1))


def _take_continue(state: State, player: int, base: int) -> None:
    """The Continue holds the disc where he took it: a new throw starts from there, with no
    strategy dice; an All-Star who acted keeps his one action per Up Call (HM-STAR-6)."""
    star_bid = state.bidders & (1 | 1 << 7) if state.options.all_stars else 0  # both All-Stars
    same_up_call = state.options.continues == "one-die"
    state.clear_action()
    state.holder = player
    state.base = base
    state.action = THROW
    state.continuing = True
    state.bidders = star_bid if same_up_call else 0


@dataclass(frozen=True, slots=True)
class ContinueChoice(Procedure[State]):
    """HM-PRO-1 / HM-R48: the disc passes an unguarded offensive player: the offense may
    Continue (``continue A3``; with the contested count, ``continue A3 5``) or let it fly on
    (``end``)."""

    rule = "HM-PRO-1"

    def actor(self, state: State) -> int:
        return state.offense

    def _counted(self, state: State) -> bool:
        return state.options.contested_count and state.options.continues == "one-die"

    def legal_actions(self, state: State) -> list[Action]:
        out: list[Action] = []
        for p in continuers(state, state.progress):
            if self._counted(state):
                out.extend(state.actions.cont_count[p])
            else:
                out.append(state.actions.cont[p])
        return [*out, END]

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, ContinueBy) and action.player not in continuers(
            state, state.progress
        ):
            raise IllegalActionError(
                f"{player_name(action.player)} cannot Continue: only an offensive player next "
                "to the disc, with no defender beside him, who did not throw it and is not "
                "the Receiver"
            )
        if isinstance(action, ContinueBy) and self._counted(state) and action.count is None:
            raise IllegalActionError(
                "the contested count is in play: state the remaining count, "
                f"'continue {player_name(action.player)} N'"
            )
        Procedure.check(self, state, action)

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, EndMove):
            state.continue_from = state.progress + 1
            return ()
        assert isinstance(action, ContinueBy)
        player = action.player
        rotate_coaches(state, state.offense, "catch")  # the co-coach "acts to receive Continues"
        remaining = remaining_count(state)
        if self._counted(state) and action.count != remaining:
            state.emit(ev.CountContested(player, action.count or 0, remaining))
            state.receiver = player
            state.outcome = "contested"
            return ()
        state.emit(ev.Continued(player, state.field.name(state.disc)))
        if is_all_star(state, player):
            state.bidders |= 1 << player  # HM-STAR-6: his one action in this Up Call
        if state.options.continues == "rethrow":
            return (ContinueOptOut(player),)
        _take_continue(state, player, remaining)
        return ()

    def describe(self) -> str:
        return "the Continue: 'continue A3' or 'end' (the disc flies on)"


@dataclass(frozen=True, slots=True)
class ContinueOptOut(Procedure[State]):
    """HM-RETHROW-3 / HM-R49: the offense chose to Continue (its rethrow); the defense may
    still 'play on', and the Continue is then a standard completed catch."""

    player: int
    rule = "HM-RETHROW-3"

    def actor(self, state: State) -> int:
        return state.defense

    def legal_actions(self, state: State) -> list[Action]:
        return [RETHROW, PLAY_ON]

    def apply(self, state: State, action: Action) -> Transition:
        if action == PLAY_ON:
            state.emit(ev.RethrowDecided(state.defense, False))
            state.receiver = self.player
            state.emit(ev.Caught(self.player, False))
            state.outcome = "catch"
            return ()
        state.emit(ev.RethrowDecided(state.offense, True))
        _take_continue(state, self.player, 0)
        return ()

    def describe(self) -> str:
        return "the Continue's rethrow: the defense may let it happen or play on"


@dataclass(frozen=True, slots=True)
class ContinueRoll(Procedure[State]):
    """HM-PRO-1 / HM-R48/R49: the Continue's roll: 1 die added to the remaining count, or
    (The Rethrow) 3 team dice. A Team Pin spin counts half, rounded up (HM-TPIN-2); an
    All-Star adds Continue +3 (HM-STAR-3); a Stealth Space +1."""

    dice: int
    rule = "HM-PRO-1"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return team_dice_outcomes(state, self.dice)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        value = int(action.value)
        if state.options.team_pins:
            value = (value + 1) // 2
        bonus = stealth_bonus(state, state.holder)
        state.base += value + bonus + star_bonus(state, state.holder, "continue")
        state.emit(ev.DiceRolled(state.offense, "continue", state.base, False, bonus))
        return ()

    def describe(self) -> str:
        return f"the Continue's {self.dice}d6"
