"""The defenders' bids and the strategy dice in the Up Call (HM-BID, HM-SD)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE
from monsterball.core.geometry import iter_bits, mask_of
from monsterball.core.procedures import Procedure, Transition, action_cell
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    DOUBLE_TEAM,
    KEEP,
    PLAY_ON,
    REROLL,
    ROLL,
    STAY,
    STRATEGY,
    MonsterMove,
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
    bid_blocked,
    conflicts,
    dark_effect,
    is_monster,
    light_effect,
    resolve_bid,
)
from monsterball.games.huck_monster.rules.common import (
    MONSTER_MOVE,
    State,
    is_all_star,
    rotate_coaches,
    star_bonus,
    stealth_bonus,
    strategy_outcomes,
    team_dice_outcomes,
)
from monsterball.games.huck_monster.rules.pro import DoubleTeam


def new_bid(state: State, player: int, role: str) -> Bid:
    """A new defender joins the play: the defense's coach rotates (HM-4P-3)."""
    rotate_coaches(state, state.defense, "bid")
    return Bid(player, role, "declare", "", 0)


def _match(state: State) -> None:
    """HM-PIN-5 Match / HM-R41: "move each to the closest offensive player", 1:1. Pairs are
    made closest first: of all defender-attacker pairs not yet taken, the one the fewest spaces
    apart (ties: the lower-numbered defender, then the lower-numbered attacker). Then each
    defender, in player order, goes onto the open space beside his man nearest where he stood
    (not on the disc's path ahead); one already beside his man stays."""
    field = state.field
    ahead = mask_of(state.path[state.progress + 1 :])
    pairs = sorted(
        (field.distance(state.pos[d], state.pos[a]), d, a)
        for d in state.roster(state.defense)
        for a in state.roster(state.offense)
    )
    man: dict[int, int] = {}
    for _, d, a in pairs:
        if d not in man and a not in man.values():
            man[d] = a
    for d in sorted(man):
        mate = man[d]
        if state.adjacent(state.pos[mate]) >> state.pos[d] & 1:
            continue
        spots = state.adjacent(state.pos[mate]) & state.open_spaces() & ~ahead
        if spots:
            dist = field.distance_row(state.pos[d])
            spot = min(iter_bits(spots), key=lambda c: (dist[c], c))
            state.move_player(d, spot)
            state.emit(ev.Matched(d, field.name(spot)))


def _intercept_on_path(state: State, player: int) -> None:
    """HM-TO-3: "takes control of the game disc as it moves along its Throw path": the disc
    stops on the first open space of the path still ahead beside the Intercept (where it
    already is, unless a Monster or a Match moved him further along)."""
    ring = state.adjacent(state.pos[player])
    if state.disc >= 0 and ring >> state.disc & 1 and state.progress >= 0:
        return
    occupied = state.all_occupied()
    for cell in state.path[max(state.progress, 0) : -1]:
        if ring >> cell & 1 and not occupied >> cell & 1:
            state.disc = cell
            return


def role_at(state: State, player: int) -> str:
    """The bid a defender's space gives him at this point of the play (HM-R11, HM-R22): at
    the catch a Mark (next to the disc) or a Challenge (next to the Receiver); on a throw the
    Mark (next to the disc before it moves), else an Intercept (next to the path still ahead),
    except that one who will guard the catch waits for it. '' for none."""
    ring = state.adjacent(state.pos[player])
    if state.action == CATCH:
        if ring >> state.disc & 1:
            return CATCH_MARK
        return CHALLENGE if ring >> state.pos[state.receiver] & 1 else ""
    if state.progress < 0 and ring >> state.disc & 1:
        waits = state.options.mark_waits and state.path  # HM-R11: he waits for the catch
        guards = state.catch_guards(state.path[-1], state.receiver) if waits else 0
        if not guards >> state.pos[player] & 1:
            return MARK
    if (
        not state.path
        or state.catch_guards(state.path[-1], state.receiver) >> state.pos[player] & 1
    ):
        return ""
    ahead = state.path[max(state.progress, 0) : -1]
    return INTERCEPT if any(ring >> c & 1 for c in ahead) else ""


def strategy_open(state: State, team: int) -> bool:
    # "Neither team may roll strategy dice during Continues" (HM-PRO-1).
    return state.options.strategy_dice and not state.strategy_used[team] and not state.continuing


@dataclass(frozen=True, slots=True)
class Bid(Procedure[State]):
    """HM-MARK-1 / HM-INT-1 / HM-CHAL-1 / HM-CATCH-3: one defender bids against the
    offense's count, with 3 dice as a Mark and 2 as an Intercept or Challenge, and may add
    the dark strategy die (HM-SD-1). Bids are never harmful, so they are made
    automatically (HM-R13); only the strategy die is a choice."""

    player: int
    role: str
    stage: str
    face: str
    roll: int
    rule = "HM-MARK-1"

    def actor(self, state: State) -> int:
        if self.stage in ("face", "dice", "redice", "offense-redice"):
            return CHANCE
        if self.stage in ("monster", "hotbid"):
            return state.defense
        if self.stage in ("hotbid-offense", "late-call"):
            return state.offense
        if self.stage == "declare" and strategy_open(state, state.defense):
            return state.defense
        return AUTO

    def _blocked(self, state: State) -> bool:
        return bid_blocked(state.light, state.action, self.role, self.player == state.hammered)

    def legal_actions(self, state: State) -> list[Action]:
        if self.stage == "declare":
            return [ROLL, STRATEGY]
        if self.stage in ("hotbid", "hotbid-offense"):
            return [KEEP, REROLL]
        if self.stage == "late-call":
            return [DOUBLE_TEAM, PLAY_ON]
        return self._monster_moves(state)

    def _monster_spots(self, state: State, player: int) -> int:
        ahead = mask_of(state.path[state.progress + 1 :])
        return state.move_reach(player, MONSTER_MOVE) & ~ahead

    def _monster_movers(self, state: State) -> list[int]:
        # HM-R41: the pin's "The acting player may move up to 5 spaces": the spinner only;
        # the dice face moves "the defensive player of your choosing" (HM-R22).
        return [self.player] if self.face == "pin-monster" else list(state.roster(state.defense))

    def _monster_moves(self, state: State) -> list[Action]:
        out: list[Action] = [STAY]
        for p in self._monster_movers(state):
            out.extend(state.actions.monster_by_mask[p].select(self._monster_spots(state, p)))
        return out

    def check(self, state: State, action: Action) -> None:
        if self.stage == "monster" and isinstance(action, MonsterMove):
            if team_of(action.player) != state.defense:
                raise IllegalActionError(f"{player_name(action.player)} is not a defender")
            if action.player not in self._monster_movers(state):
                raise IllegalActionError(
                    "a pin Monster moves only the acting player, "
                    f"{player_name(self.player)}: 'monster {player_name(self.player)} ...'"
                )
            if (
                not self._monster_spots(state, action.player)
                >> action_cell(state.field, action.cell)
                & 1
            ):
                raise IllegalActionError(
                    f"the Monster {player_name(action.player)} cannot reach {action.cell}: up "
                    "to 5 spaces through open spaces, not onto the disc's path"
                )
            return
        Procedure.check(self, state, action)

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        if self.stage == "face":
            return strategy_outcomes(state, offense=False)
        if self.stage == "offense-redice":
            return team_dice_outcomes(state, DICE[state.action])
        return team_dice_outcomes(state, DICE[self.role])

    def _with(self, stage: str, face: str | None = None, roll: int | None = None) -> Bid:
        return Bid(
            self.player,
            self.role,
            stage,
            self.face if face is None else face,
            self.roll if roll is None else roll,
        )

    def resolve(self, state: State) -> Transition:
        if self.stage == "declare":
            return self._declared(state, strategy=False)
        if self.stage == "decide" and self._late_call_open(state):
            return (self._with("late-call"),)
        return self._decide(state)

    def _late_call_open(self, state: State) -> bool:
        """HM-DT-4 / HM-R35: "If ... neither player audibly calls "double team" after the
        offensive, and the first defensive team dice roll": the Handler may still call it
        once he has seen the first Mark's roll, while several defenders mark the disc."""
        if not state.options.double_team or self.role != MARK or state.progress >= 0:
            return False
        team = state.defense * 7
        others = (state.bidders >> team & 0x7F) & ~(1 << self.player - team)
        if state.hammered >= 0:
            others &= ~(1 << state.hammered - team)
        return not others and len(state.next_to_disc(state.defense)) > 1

    def _declared(self, state: State, *, strategy: bool) -> Transition:
        state.bidders |= 1 << self.player
        if strategy:
            state.strategy_used[state.defense] = True
            return (self._with("face"),)
        if self._blocked(state):
            return self._prevented(state)
        return (self._with("dice"),)

    def _prevented(self, state: State) -> Transition:
        face = light_effect(state.light, state.action)
        state.emit(ev.BidPrevented(self.player, self.role, f"the offense rolled {face}"))
        return ()

    def _after_face(self, state: State) -> Transition:
        dark = dark_effect(self.face, self.role)
        light = light_effect(state.light, state.action)
        if self._blocked(state) and not (dark and conflicts(light, dark)):
            return self._prevented(state)
        if dark in ("beat", "no-big") and not (light and conflicts(light, dark)):
            return (self._with("decide"),)  # HM-R25: no team dice needed
        return (self._with("dice"),)

    def apply(self, state: State, action: Action) -> Transition:
        stage = self.stage
        if stage == "declare":
            return self._declared(state, strategy=action == STRATEGY)
        if stage == "face":
            assert isinstance(action, Roll)
            face = "" if action.value in state.options.disabled_outcomes else action.value
            effective = bool(dark_effect(face, self.role))
            state.emit(ev.StrategyRolled(state.defense, action.value, effective))
            nxt = self._with("face-done", face=face)
            if is_monster(dark_effect(face, self.role)):
                return (nxt._with("monster"),)
            if dark_effect(face, self.role) == "pin-match":
                where = state.pos[self.player]
                _match(state)
                if state.pos[self.player] != where:
                    return nxt._moved_self(state)  # his role follows his new space (HM-R41)
            return nxt._after_face(state)
        if stage == "monster":
            if isinstance(action, MonsterMove):
                state.move_player(action.player, action_cell(state.field, action.cell))
                state.emit(ev.MonsterMoved(action.player, action.cell))
                if self.face == "pin-monster" and not is_all_star(state, action.player):
                    # HM-R41: a pin Monster may act twice in the same play (an All-Star
                    # still acts once per Up Call, HM-STAR-6).
                    state.bidders &= ~(1 << action.player)
                if action.player == self.player:
                    return self._moved_self(state)
            return self._after_face(state)
        if stage in ("dice", "redice"):
            assert isinstance(action, Roll)
            bonus = stealth_bonus(state, self.player)
            roll = int(action.value) + bonus + star_bonus(state, self.player, self.role)
            state.emit(ev.DiceRolled(state.defense, self.role, roll, stage == "redice", bonus))
            if stage == "dice" and dark_effect(self.face, self.role) == "hot-bid":
                return (self._with("hotbid", roll=roll),)
            return (self._offense_hot_bid(state, roll, hot=stage == "redice"),)
        if stage == "offense-redice":
            assert isinstance(action, Roll)
            # HM-R18 (hot_bid=both): the offense's second roll stands for this action.
            actor = state.thrower if state.action == THROW else state.receiver
            bonus = stealth_bonus(state, actor)
            state.base = int(action.value) + bonus + star_bonus(state, actor, state.action)
            state.emit(ev.DiceRolled(state.offense, state.action, state.base, True, bonus))
            return (self._with("decide"),)
        if stage == "late-call":
            if action == PLAY_ON:
                return (self._with("final"),)
            # The call voids this Mark's roll; the Marks move away and "may still roll to
            # defend Throws as other player positions", so none has bid yet.
            marks = state.next_to_disc(state.defense)
            state.emit(ev.DoubleTeamCalled(tuple(marks)))
            for p in marks:
                state.bidders &= ~(1 << p)
            state.marks = 0
            return (DoubleTeam("move", ()),)
        if action == REROLL:
            return (self._with("offense-redice" if stage == "hotbid-offense" else "redice"),)
        if stage == "hotbid":
            return (self._offense_hot_bid(state, self.roll, hot=True),)
        return (self._with("decide"),)

    def _offense_hot_bid(self, state: State, roll: int, *, hot: bool) -> Bid:
        """HM-SD-14 / HM-R18: after a Hot Bid, with ``hot_bid=both`` the offense "may choose
        to re-roll team dice results" as well."""
        both = hot and state.options.hot_bid == "both"
        return self._with("hotbid-offense" if both else "decide", roll=roll)

    def _moved_self(self, state: State) -> Transition:
        """HM-SD-12 / HM-R22: "Roll team dice to take any appropriate player action once the
        designated Monster has reached their destination": the bidder who moved himself bids
        in the role his new space gives him (a Mark "must be next to the game disc"), and with
        no role there he does not bid now (he may still bid later in this throw)."""
        role = role_at(state, self.player)
        if not role:
            state.emit(ev.BidPrevented(self.player, self.role, "no action from his new space"))
            state.bidders &= ~(1 << self.player)  # he has not acted yet
            return ()
        return Bid(self.player, role, "face-done", self.face, 0)._after_face(state)

    def _decide(self, state: State) -> Transition:
        result = resolve_bid(
            base=state.base,
            light=state.light,
            action=state.action,
            halved=state.halved,
            bid=self.role,
            roll=self.roll,
            dark=self.face,
            ties=state.options.ties,
        )
        if result.halves:
            state.halved = True
        state.emit(
            ev.BidDecided(
                self.player,
                self.role,
                result.offense_count,
                result.defense_count,
                result.defense_wins,
                result.cancelled,
            )
        )
        if result.defense_wins:
            state.outcome = "intercepted" if self.role == INTERCEPT else "turnover"
            state.taker = self.player
            if self.role == INTERCEPT:
                _intercept_on_path(state, self.player)
            state.poach = dark_effect(self.face, self.role) == "poach"
        else:
            state.poach = False
        return ()

    def describe(self) -> str:
        what = {
            "declare": "rolling",
            "face": "the strategy die",
            "monster": "Monster: move a defender up to 5 spaces",
            "hotbid": "Hot Bid: keep or re-roll",
            "hotbid-offense": "Hot Bid: the offense keeps or re-rolls its count",
            "late-call": "the first Mark has rolled: call 'double team' or 'play on'",
        }.get(self.stage, "team dice")
        return f"{player_name(self.player)}'s bid as the {self.role}: {what}"
