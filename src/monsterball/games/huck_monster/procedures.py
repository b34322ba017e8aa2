"""The rule steps of Huck + Monster, each named after the rulebook's words.

Flow of one point (``->`` is the transition a step returns; controllers stay below the steps
they start and resume when those finish)::

    ChooseOffense -> StartPoint -> SetUp(offense) -> SetUp(defense) -> PlaceTheDisc
    -> PullRoll -> PullLanding -> TeamMoves('loose')
    TeamMoves: MoveRoll(offense) -> Moving(offense) -> MoveRoll(defense) -> Moving(defense)
               -> UpCall('start')       (a loose disc unclaimed twice: StartPoint again)
    UpCall: OffenseAction(throw) -> Aim -> Bid(mark) -> Bid(intercept)... -> OffenseAction(
            catch) -> Bid(catch-mark / challenge)... -> 'end': a catch (TeamMoves, or a point),
            a turnover (TeamMoves; a Poach: UpCall at once) or a stall (TeamMoves('stall'))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.geometry import iter_bits
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    DOUBLE_TEAM,
    END,
    KEEP,
    PLAY_ON,
    REROLL,
    RETHROW,
    ROLL,
    STAY,
    STRATEGY,
    ChooseStyle,
    ConeMove,
    ConeTo,
    ContinueBy,
    EndMove,
    MonsterMove,
    MoveTo,
    PivotTo,
    Place,
    PlaceDisc,
    PullTo,
    ThrowTo,
    player_name,
)
from monsterball.games.huck_monster.options import TEAM_NAMES, HuckMonsterOptions
from monsterball.games.huck_monster.rules import (
    CATCH,
    CATCH_MARK,
    CHALLENGE,
    DARK_FACES,
    DICE,
    INTERCEPT,
    LIGHT_FACES,
    MARK,
    THROW,
    all_star_stat,
    bid_blocked,
    conflicts,
    dark_effect,
    is_dump,
    is_hammer,
    is_monster,
    light_effect,
    offense_count,
    resolve_bid,
    strategy_faces,
    team_roll,
)
from monsterball.games.huck_monster.state import (
    CONE_PUSH_TARGET,
    MAX_CONES,
    NOBODY,
    HuckMonsterState,
    cone_push_start,
    pothole_start,
    team_of,
    team_players,
)

State = HuckMonsterState
MONSTER_MOVE = 5  # HM-SD-12: "up to 5 spaces"


def _sum_outcomes(state: State, dice: int) -> list[tuple[Action, Fraction]]:
    """Team dice as one chance event per total; a Team Pin spin instead (HM-TPIN-1)."""
    if state.options.team_pins:
        return [(state.actions.spin[v], p) for v, p in team_roll(dice, True)]
    table = state.actions.sums[dice]
    return [(table[v], p) for v, p in team_roll(dice, False)]


def _strategy_outcomes(state: State, offense: bool) -> list[tuple[Action, Fraction]]:
    """The strategy die's faces, or the Playmaker Pin / Game Disc outcomes (HM-PIN-4)."""
    equipment = state.options.strategy_equipment
    faces = strategy_faces(equipment, offense)
    if equipment == "dice":
        table = state.actions.light if offense else state.actions.dark
    else:
        by_face = {a.value: a for a in state.actions.pin}
        table = tuple(by_face[f] for f in faces)
    return uniform(table)


def _stealth(state: State, player: int) -> int:
    """HM-STEALTH-1: +1 to the count of a player acting from a Stealth Space."""
    return 1 if player >= 0 and state.stealth >> state.pos[player] & 1 else 0


def is_all_star(state: State, player: int) -> bool:
    """HM-R42: A1 and B1 are the Sideline All-Stars when the kit is in play."""
    return state.options.all_stars and player >= 0 and player % 7 == 0


def star_spent(state: State, player: int) -> bool:
    """HM-STAR-6: "All-Stars may only act once per Up Call, and cannot be involved in the same
    Up Call twice": an All-Star who has thrown, Continued or bid in this Up Call is marked in
    ``bidders`` (kept across a one-die Continue, which stays in the same Up Call)."""
    return is_all_star(state, player) and bool(state.bidders >> player & 1)


def must_dump(state: State, light: str) -> bool:
    """HM-SD-11 / HM-PIN-3 / HM-R37: this throw must go backward: a Dump rolled or spun for
    it, or (``pin_dump=next``) a pin Dump spun for the team's throw before."""
    later = light == "pin-dump" and state.options.pin_dump == "next"
    return state.dump_next or (is_dump(light) and not later)


def receivers(state: State, count: int, light: str) -> dict[int, int]:
    """HM-THROW-2: where the throw may go, per Receiver; an All-Star who has already acted in
    this Up Call cannot receive it (HM-STAR-6)."""
    targets = state.throw_targets(count, dump=must_dump(state, light), hammer=is_hammer(light))
    return {r: m for r, m in targets.items() if not star_spent(state, r)}


def _star(state: State, player: int, action: str) -> int:
    """HM-STAR-2..4: an All-Star adds his stat for ``action`` in his team's current role."""
    if not is_all_star(state, player):
        return 0
    return all_star_stat(action, team_of(player) == state.offense)


def _rotate(state: State, team: int, moment: str) -> None:
    """Four-coach rotation (HM-4P-1..4, HM-R28): counts turn units per team; the seating
    layer maps them to coaches. 'rulebook' switches the offense at each catch and the defense
    at each new defender; 'every-action' at every team action."""
    if state.options.coach_rotation == "every-action":
        if moment in ("move", "throw", "catch", "bid"):
            state.coach_turn[team] += 1
    elif moment in ("catch", "bid"):
        state.coach_turn[team] += 1


# -- the start of a game and of a point ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChooseOffense(Procedure[State]):
    """HM-SET-5 / HM-R3: the team with the 'Huck' bag starts on offense."""

    rule = "HM-SET-5"

    def actor(self, state: State) -> int:
        return CHANCE if state.options.first_offense == "toss" else AUTO

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return uniform(state.actions.toss)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        return self._start(state, TEAM_NAMES.index(action.value), tossed=True)

    def resolve(self, state: State) -> Transition:
        return self._start(state, TEAM_NAMES.index(state.options.first_offense), tossed=False)

    def _start(self, state: State, team: int, *, tossed: bool) -> Transition:
        state.emit(ev.OffenseChosen(team, tossed))
        # The first offense defends the south end zone and attacks north.
        state.north_team = team
        if state.style == "cone-push":
            state.offense = team
            state.cones = cone_push_start(state.field, state.options)
            return (ConePushSetUp(team),)
        return (StartPoint(team, False),)

    def describe(self) -> str:
        return "choosing the Huck bag"


@dataclass(frozen=True, slots=True)
class StartPoint(Procedure[State]):
    """HM-SET-1 / HM-END-5: every point starts with both teams on their lines."""

    offense: int
    restart: bool
    rule = "HM-SET-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        for p in range(len(state.pos)):
            state.move_player(p, NOBODY)
        state.disc = NOBODY
        state.holder = NOBODY
        state.offense = self.offense
        state.clear_action()
        state.poach = False
        state.dump_next = False
        state.strategy_used = [False, False]
        state.emit(ev.PointStarted(self.offense, state.north_team, self.restart))
        if state.options.style_each_point:
            return (SetUp(self.offense), ChooseGameStyle(self.offense))
        _lay_cones(state)
        return (SetUp(self.offense),)

    def describe(self) -> str:
        return "the start of a point"


def _lay_cones(state: State) -> None:
    """HM-CONE-1 / HM-KIT-1: a Pothole Markers or Hot Hex point starts with its cones."""
    if state.style == "pothole":
        state.cones = pothole_start(state.field, state.options)
    else:
        state.cones = state.hex_cones if state.style == "hot-hex" else 0


@dataclass(frozen=True, slots=True)
class ChooseGameStyle(Procedure[State]):
    """HM-CONE-5 / HM-R47: "The new offensive team has the option to change game styles at the
    end of every point. Select the game type before the initial Pull"."""

    team: int
    rule = "HM-CONE-5"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        return list(state.actions.style)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, ChooseStyle)
        state.style = action.style
        _lay_cones(state)
        state.emit(ev.StyleChosen(self.team, action.style))
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} choosing the game style"


@dataclass(frozen=True, slots=True)
class SetUp(Procedure[State]):
    """HM-SET-1/2: a team lines its 7 players up on its line, one at a time (HM-R2)."""

    team: int
    rule = "HM-SET-2"

    def actor(self, state: State) -> int:
        return self.team

    def _free(self, state: State) -> int:
        return state.field.row_mask(state.line_row(self.team)) & state.open_spaces()

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.place_by_mask.select(self._free(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, Place):
            raise wrong_kind(self, action)
        cell = action_cell(state.field, action.cell)
        if not self._free(state) >> cell & 1:
            raise IllegalActionError(
                f"{action.cell} is not an open space on team {TEAM_NAMES[self.team]}'s line"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Place)
        player = next(p for p in state.roster(self.team) if state.pos[p] == NOBODY)
        state.move_player(player, action_cell(state.field, action.cell))
        state.emit(ev.Placed(player, action.cell))
        if any(state.pos[p] == NOBODY for p in state.roster(self.team)):
            return (self,)
        if self.team == state.offense:
            return (SetUp(1 - self.team),)
        return (PlaceTheDisc(self.team),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} lining up"


@dataclass(frozen=True, slots=True)
class PlaceTheDisc(Procedure[State]):
    """HM-SET-3: the disc goes on an open space of the defensive line."""

    team: int
    rule = "HM-SET-3"

    def actor(self, state: State) -> int:
        return self.team

    def _free(self, state: State) -> int:
        return state.field.row_mask(state.line_row(self.team)) & state.open_spaces()

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.disc_by_mask.select(self._free(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, PlaceDisc):
            raise wrong_kind(self, action)
        if not self._free(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(f"{action.cell} is not an open space on the defensive line")

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, PlaceDisc)
        state.disc = action_cell(state.field, action.cell)
        state.emit(ev.DiscPlaced(action.cell))
        return (PullRoll(),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} placing the disc"


# -- the pull -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PullRoll(Procedure[State]):
    """HM-PULL-1: the defense rolls 3 team dice to pull."""

    rule = "HM-PULL-1"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return _sum_outcomes(state, 3)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        # HM-STAR-3: the pulling team's All-Star adds his Pull stat (HM-R42).
        star = all_star_stat("pull", True) if state.options.all_stars else 0
        return (PullLanding(int(action.value) + star),)

    def describe(self) -> str:
        return "the pull roll"


@dataclass(frozen=True, slots=True)
class PullLanding(Procedure[State]):
    """HM-PULL-2..4 / HM-R4: the disc travels the full count toward the offense; the
    defensive coach steers it, and it stays where it lands."""

    count: int
    rule = "HM-PULL-2"

    def actor(self, state: State) -> int:
        return state.defense

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.pull_by_mask.select(state.pull_landings(self.count))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, PullTo):
            raise wrong_kind(self, action)
        if not state.pull_landings(self.count) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"a pull of {self.count} cannot land on {action.cell}: it moves the full count, "
                "one open space at a time toward the receiving team"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, PullTo)
        state.disc = action_cell(state.field, action.cell)
        state.emit(ev.Pulled(state.defense, self.count, action.cell))
        _claim_if_next_to(state)
        return (TeamMoves("loose", 1, 0),)

    def describe(self) -> str:
        return f"steering a pull of {self.count}"


def _claim_if_next_to(state: State) -> None:
    """HM-POSS-2: an offensive player next to the loose disc takes possession."""
    if state.holder != NOBODY:
        return
    near = state.next_to_disc(state.offense)
    if near:
        state.holder = near[0]
        state.emit(ev.Claimed(near[0]))


# -- team moves -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamMoves(Procedure[State]):
    """HM-MOVE-1: after the pull, a catch or a turnover each team rolls 3 dice and moves,
    offense first. ``kind`` is 'normal', 'loose' (after a pull) or 'stall'."""

    kind: str
    round: int
    stage: int
    rule = "HM-MOVE-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        if self.stage == 0:
            _rotate(state, state.offense, "move")
            return (TeamMoves(self.kind, self.round, 1), MoveRoll(state.offense))
        if self.stage == 1:
            if state.holder == NOBODY and self.kind == "stall":
                _nearest_takes(state)
            elif state.holder == NOBODY and self.kind == "loose" and self.round == 2:
                # HM-POSS-4: no offensive player next to the disc after the second move.
                return (StartPoint(state.offense, True),)
            if self.kind == "catch" and state.options.handler_pivot and state.pivot_spaces():
                return (TeamMoves(self.kind, self.round, 3), Pivot())  # HM-PIVOT-2
        if self.stage in (1, 3):
            _rotate(state, state.defense, "move")
            return (TeamMoves(self.kind, self.round, 2), MoveRoll(state.defense))
        if state.holder == NOBODY:
            return (TeamMoves(self.kind, self.round + 1, 0),)  # HM-POSS-3: move again
        return (UpCall("start"),)

    def describe(self) -> str:
        return "team moves"


def _nearest_takes(state: State) -> None:
    """HM-R8: after a stall the new offense could not reach the disc: its player nearest
    the disc takes it, and the disc goes to the open space next to him nearest its spot."""
    dist = state.field.distance_row(state.disc)
    player = min(state.roster(state.offense), key=lambda p: (dist[state.pos[p]], p))
    spot = _nearest_open_next_to(state, player, state.disc, 0)
    if spot != NOBODY:
        state.disc = spot
    state.holder = player
    state.emit(ev.Claimed(player))


def _nearest_open_next_to(state: State, player: int, near: int, within: int) -> int:
    """The open space next to ``player`` nearest ``near`` (inside ``within`` if given)."""
    disc, state.disc = state.disc, NOBODY
    ring = state.adjacent(state.pos[player]) & state.open_spaces()
    state.disc = disc
    if within:
        ring = ring & within or ring
    if not ring:
        return NOBODY
    dist = state.field.distance_row(near)
    return min(iter_bits(ring), key=lambda c: (dist[c], c))


@dataclass(frozen=True, slots=True)
class MoveRoll(Procedure[State]):
    """HM-MOVE-1: a team rolls its 3 team dice for its move count (2 in Cone Push, HM-KIT-5)."""

    team: int
    dice: int = 3
    rule = "HM-MOVE-1"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return _sum_outcomes(state, self.dice)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        count = int(action.value)
        state.emit(ev.MoveRolled(self.team, count))
        free = _star(state, self.team * 7, "move")  # HM-STAR-5: the guaranteed move stat
        return (Moving(self.team, count, free),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} rolling to move"


@dataclass(frozen=True, slots=True)
class Moving(Procedure[State]):
    """HM-MOVE-2..4: the count is split across any players, one space at a time, never
    through players or the disc; the Handler in possession does not move. The count is a
    limit (HM-R5). A loose disc must be chased (HM-POSS-1, HM-R6); only one defender may be
    next to the Handler's disc (HM-MARK-3, HM-R26)."""

    team: int
    left: int
    free: int = 0  # an All-Star's guaranteed move stat, spent before the count (HM-STAR-5)
    rule = "HM-MOVE-2"

    def actor(self, state: State) -> int:
        return self.team

    def _budget(self, state: State, player: int) -> int:
        return self.left + (self.free if is_all_star(state, player) else 0)

    # The legal destinations of each player, with the rule that restricts them.
    def _allowed(self, state: State) -> tuple[dict[int, int], str]:
        reach = {
            p: state.move_reach(p, self._budget(state, p))
            for p in team_players(self.team)
            if p != state.holder and state.pos[p] >= 0
        }
        if self.team == state.offense and state.style == "hot-hex":
            reach = _one_inside_the_hex(state, reach)
        reach = {p: m for p, m in reach.items() if m}
        if state.disc < 0:
            return reach, ""
        ring = state.adjacent(state.disc)
        if self.team == state.offense and state.holder == NOBODY:
            if state.options.pickup == "strict":
                return _chase(state, reach, ring)
            return reach, ""
        if self.team == state.defense and state.holder != NOBODY and not state.options.double_team:
            marks = state.players_in(ring, self.team)
            if len(marks) > 1:
                leave = {p: reach.get(p, 0) & ~ring for p in marks}
                leave = {p: m for p, m in leave.items() if m}
                if leave:
                    return leave, "only one Mark may stand next to the disc: move the others away"
            out = {}
            for p, m in reach.items():
                if any(q != p for q in marks):
                    m &= ~ring
                if m:
                    out[p] = m
            return out, ""
        return reach, ""

    def _must_move(self, state: State) -> str:
        allowed, why = self._allowed(state)
        return why if why and allowed else ""

    def legal_actions(self, state: State) -> list[Action]:
        allowed, why = self._allowed(state)  # once: it is most of the cost
        out: list[Action] = []
        for p, mask in allowed.items():
            out.extend(state.actions.move_by_mask[p].select(mask))
        if not (why and allowed):  # as in _must_move
            out.append(END)
        return out

    def sample_legal(self, state: State, rng: random.Random) -> Action:
        # The n-th item of legal_actions() without building it: count each player's cells.
        allowed, why = self._allowed(state)
        counts = [m.bit_count() for m in allowed.values()]
        total = sum(counts) + (0 if why and allowed else 1)
        n = rng.randrange(total)
        for (p, mask), count in zip(allowed.items(), counts, strict=True):
            if n < count:
                return state.actions.move_by_mask[p].nth(mask, n)
            n -= count
        return END

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, EndMove):
            why = self._must_move(state)
            if why:
                raise IllegalActionError(f"the move cannot end yet: {why}")
            return
        if not isinstance(action, MoveTo):
            raise wrong_kind(self, action)
        name = player_name(action.player)
        if team_of(action.player) != self.team:
            raise IllegalActionError(f"{name} is not on team {TEAM_NAMES[self.team]}")
        if action.player == state.holder:
            raise IllegalActionError(f"{name} is in possession of the disc and cannot move")
        cell = action_cell(state.field, action.cell)
        budget = self._budget(state, action.player)
        if not state.move_reach(action.player, budget) >> cell & 1:
            raise IllegalActionError(
                f"{name} cannot reach {action.cell} with {budget} left through open spaces"
            )
        allowed, why = self._allowed(state)
        if not allowed.get(action.player, 0) >> cell & 1:
            raise IllegalActionError(f"{name} may not move to {action.cell}: {why or _RULE}")

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, EndMove):
            state.emit(ev.MoveEnded(self.team, self.left))
            return ()
        assert isinstance(action, MoveTo)
        cell = action_cell(state.field, action.cell)
        cost = state.field.steps_to(state.pos[action.player], cell, state.open_spaces())
        state.move_player(action.player, cell)
        free = self.free
        if is_all_star(state, action.player):
            used = min(cost, free)
            free -= used
            cost -= used
        left = self.left - cost
        state.emit(ev.Moved(action.player, action.cell, cost, left))
        chasing = self.team == state.offense and state.holder == NOBODY and state.disc >= 0
        if chasing and state.adjacent(state.disc) >> cell & 1:
            state.holder = action.player
            state.emit(ev.Claimed(action.player))
        star_free = free and state.holder != self.team * 7
        if left == 0 and not star_free:
            return ()
        return (Moving(self.team, left, free if star_free else 0),)

    def describe(self) -> str:
        extra = f", All-Star {self.free} free" if self.free else ""
        return f"team {TEAM_NAMES[self.team]} moving ({self.left} left{extra})"


def _one_inside_the_hex(state: State, reach: dict[int, int]) -> dict[int, int]:
    """HM-KIT-1 / HM-R52: "Only one offensive players is allowed inside the hex per team
    move": no offensive player may step into the hex while a teammate stands inside it."""
    inside = state.players_in(state.hex_zone, state.offense)
    return {p: m if not [q for q in inside if q != p] else m & ~state.hex_zone
            for p, m in reach.items()}  # fmt: skip


_RULE = (
    "a loose disc must be chased as closely as the count allows, and only one defender may "
    "stand next to the Handler's disc"
)


def _chase(state: State, reach: dict[int, int], ring: int) -> tuple[dict[int, int], str]:
    """HM-R6 (strict): until the loose disc is claimed, the offense's moves must bring a
    player as close to it as the count allows; other moves open once nothing gets closer."""
    claim = {p: m & ring for p, m in reach.items() if m & ring}
    if claim:
        return claim, "move a player next to the loose disc first"
    dist = state.field.distance_row(state.disc)
    now = min(
        (dist[state.pos[p]] for p in team_players(state.offense) if state.pos[p] >= 0),
        default=99,
    )
    best = min((dist[c] for m in reach.values() for c in iter_bits(m)), default=99)
    if best >= now:
        return reach, ""
    closest = {}
    for p, m in reach.items():
        keep = sum(1 << c for c in iter_bits(m) if dist[c] == best)
        if keep:
            closest[p] = keep
    return closest, f"bring a player as close to the loose disc as possible ({best} away)"


# -- the Up Call ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UpCall(Procedure[State]):
    """HM-UP-1: from the throw to a catch or a turnover. This controller stays under the
    steps it starts; ``stage`` says where it resumes."""

    stage: str
    rule = "HM-UP-1"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        stages = {
            "start": self._start,
            "aim": self._aim,
            "aim-now": self._aim_now,
            "up-move": self._up_move,
            "fly": self._fly,
            "catch": self._catch,
            "guarded": self._guarded,
            "continue": self._continue,
            "continue-start": self._continue_start,
            "end": self._end,
        }
        return stages[self.stage](state)

    def _start(self, state: State) -> Transition:
        cap = state.options.max_up_calls
        if cap and state.up_calls >= cap:
            return _finish(state, by_cap=True)
        state.up_calls += 1
        state.strategy_used = [False, False]  # HM-SD-1: once per Up Call
        state.poach = False
        state.clear_action()
        state.emit(ev.UpCallStarted(state.up_calls, state.holder))
        _rotate(state, state.offense, "throw")
        return (UpCall("aim"), OffenseAction(THROW, "declare"))

    def _aim(self, state: State) -> Transition:
        marks = state.next_to_disc(state.defense)
        if state.options.double_team and len(marks) > 1:
            return (UpCall("aim-now"), DoubleTeam("call", ()))  # HM-DT-1
        return self._aim_now(state)

    def _aim_now(self, state: State) -> Transition:
        light = light_effect(state.light, THROW)
        count = offense_count(state.base, light, THROW, False)
        targets = receivers(state, count, light)
        if not targets:
            reason = (
                "no Dump receiver behind the disc"
                if must_dump(state, light)
                else "no Receiver within the Throw count"
            )
            state.emit(ev.Stalled(count, reason))
            state.outcome = "stall"
            return (UpCall("end"),)
        return (UpCall("up-move"), Aim(count))

    def _up_move(self, state: State) -> Transition:
        star = state.defense * 7
        if is_all_star(state, star) and not state.bidders >> star & 1:
            return (UpCall("fly"), UpMove())  # HM-STAR-4 / HM-R43
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
            marks = state.players_in(state.adjacent(state.disc), defense)
            if not state.options.double_team:
                marks = marks[:1]  # HM-MARK-3: only one Mark rolls (HM-R26)
            for p in marks:  # HM-DT-4: an uncalled double team: every Mark rolls
                if not state.bidders >> p & 1:
                    return (UpCall("fly"), _bid(state, p, MARK))
        final = state.path[-1]
        guards = state.catch_guards(final, state.receiver)
        for i in range(max(state.progress, 0), len(state.path) - 1):
            cell = state.path[i]
            # HM-BEAT-1: a defender the disc is about to pass over must bid (and be beaten)
            # first, even one who would otherwise wait for the catch.
            ahead = 1 << state.path[i + 1] & state.defender_cells()
            for p in state.players_in(ahead | (state.adjacent(cell) & ~guards), defense):
                if state.bidders >> p & 1:
                    continue
                state.progress = i
                if not state.all_occupied() >> cell & 1:
                    state.disc = cell  # (over a hammered defender it stays in the air)
                return (UpCall("fly"), _bid(state, p, INTERCEPT))
            if i >= state.continue_from and continuers(state, i):
                state.progress = i
                state.disc = cell
                return (UpCall("continue"), ContinueChoice())  # HM-PRO-1
        state.progress = len(state.path) - 1
        state.disc = final
        return (UpCall("catch"),)

    def _catch(self, state: State) -> Transition:
        _rotate(state, state.offense, "catch")
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
        return (UpCall("guarded"), _bid(state, player, role))

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
            return _finish(state, by_cap=True)
        state.up_calls += 1
        state.strategy_used = [False, False]
        state.poach = False
        state.clear_action()
        state.continuing = True
        state.action = THROW
        state.emit(ev.UpCallStarted(state.up_calls, state.holder))
        _rotate(state, state.offense, "throw")
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


def _complete_catch(state: State) -> Transition:
    receiver = state.receiver
    state.holder = receiver
    state.clear_action()
    if state.scoring_zone(state.offense) >> state.pos[receiver] & 1:
        # HM-R51: the hex is common to both teams, so nobody switches ends after a Hot Hex
        # point; the scorer pulls from the end it defended.
        return _score(state, receiver, switch_ends=state.style != "hot-hex")
    return (TeamMoves("catch", 1, 0),)


def _contested(state: State) -> Transition:
    """HM-PRO-2 / HM-R50: a forgotten count stops the disc where the Continue took it: the Up
    Call ends there, "partially completed", and the player acting on the disc, the Continue,
    keeps it. It is not a catch (no point, no pivot); team moves follow."""
    state.holder = state.receiver
    state.clear_action()
    return (TeamMoves("normal", 1, 0),)


def _score(state: State, player: int, *, switch_ends: bool) -> Transition:
    """HM-END-1/3/5: a point; the scorer pulls the next one. After a catch it stays at the
    end it scored in, so teams switch ends; a Callahan scorer already defends that end."""
    team = team_of(player)
    state.score[team] += 1
    state.emit(ev.Scored(team, player, (state.score[0], state.score[1])))
    opts = state.options
    mine, theirs = state.score[team], state.score[1 - team]
    if mine >= opts.points_to_win and mine - theirs >= opts.win_by:
        state.winner = team
        return _finish(state, by_cap=False)
    if switch_ends:
        state.north_team = 1 - state.north_team
    return (StartPoint(1 - team, False),)


def _uncontested(state: State, player: int) -> bool:
    """No player of the other team beside ``player`` (HM-CALL-3, HM-RETHROW-1)."""
    return not state.players_in(state.adjacent(state.pos[player]), 1 - team_of(player))


def _is_callahan(state: State) -> bool:
    """HM-CALL-1/3: an uncontested Intercept inside its own end zone; in Hot Hex ("Callahans
    count", HM-R51) inside the common hex, with or without the Pro option."""
    taker = state.taker
    zone = state.hex_zone if state.style == "hot-hex" else state.end_zone(team_of(taker))
    return bool(zone >> state.pos[taker] & 1) and _uncontested(state, taker)


def _callahan(state: State) -> Transition:
    """HM-CALL-2 / HM-R32: 1 point, and the Callahan team pulls the next point."""
    state.emit(ev.CallahanScored(state.taker))
    taker = state.taker
    state.clear_action()
    return _score(state, taker, switch_ends=False)


def _finish(state: State, *, by_cap: bool) -> Transition:
    if by_cap:
        a, b = state.score
        state.winner = 0 if a > b else 1 if b > a else 2
    state.emit(ev.GameOver(state.result_text()))
    return ()


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
        and (rethrow == "any" or (rethrow == "uncontested" and _uncontested(state, taker)))
    )
    poach = state.poach
    old_spot = state.disc
    state.offense = state.defense
    state.dump_next = False  # a pending pin Dump binds only the team that spun it
    state.holder = NOBODY
    state.clear_action()
    state.emit(ev.TurnedOver(state.offense, taker, "defensive" if taker >= 0 else "stall"))
    if taker == NOBODY:
        _claim_if_next_to(state)
        return (TeamMoves("stall", 1, 0),)
    state.holder = taker
    zone = next(
        (t for t in (0, 1) if state.end_zone(t) >> old_spot & 1),
        NOBODY,
    )
    if zone != NOBODY:
        _end_zone_turnover(state, taker, zone)
    elif not state.adjacent(state.disc) >> state.pos[taker] & 1:
        spot = _nearest_open_next_to(state, taker, state.disc, 0)
        if spot == NOBODY:
            state.holder = NOBODY  # HM-R14: nowhere to put it: the disc is loose
            _claim_if_next_to(state)
            return (TeamMoves("stall", 1, 0),)
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
    return (TeamMoves("normal", 1, 0),)


def _end_zone_turnover(state: State, taker: int, zone: int) -> None:
    """HM-END-4 / HM-R15: the disc and the new Handler move to the closest available
    end-zone line spaces."""
    field = state.field
    line = field.row_mask(state.line_row(zone))
    disc, state.disc = state.disc, NOBODY
    open_line = line & state.open_spaces() | (line & 1 << state.pos[taker])
    state.disc = disc
    home = state.pos[taker]
    dist = field.distance_row(home)
    spots = sorted(iter_bits(open_line), key=lambda c: (dist[c], c))
    for spot in spots:
        state.move_player(taker, spot)
        disc_spot = _nearest_open_next_to(state, taker, spot, line)
        if disc_spot != NOBODY:
            state.disc = disc_spot
            state.emit(
                ev.DiscMoved(field.name(disc_spot), taker, field.name(spot), "End-zone turnover")
            )
            return
    state.move_player(taker, home)  # no line space with room for both: stay put


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
        hammer = is_hammer(light_effect(state.light, THROW))
        path = state.best_path(action.receiver, cell, self.count, hammer=hammer)
        state.receiver = action.receiver
        state.thrower = state.holder
        # HM-R37, pin_dump=next: a pin Dump binds the team's next throw (this one is free).
        light = light_effect(state.light, THROW)
        state.dump_next = light == "pin-dump" and state.options.pin_dump == "next"
        if is_all_star(state, state.holder):
            state.bidders |= 1 << state.holder  # his one action in this Up Call (HM-STAR-6)
        state.holder = NOBODY  # the disc is in the air
        state.path = path
        state.progress = -1
        names = tuple(state.field.name(c) for c in path)
        state.emit(ev.Thrown(action.receiver, action.cell, names))
        for c in path[:-1]:
            if hammer and state.defender_cells() >> c & 1 and state.hammered < 0:
                # HM-R20: the disc passes over him, so he makes no bid on this throw.
                state.hammered = state.player_at(c)
                state.bidders |= 1 << state.hammered
                state.emit(ev.BidPrevented(state.hammered, "defender passed over", "hammer"))
        return ()

    def describe(self) -> str:
        return f"aiming a throw of {self.count}"


# -- rolling for an action or a bid ---------------------------------------------------------


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
        if self.stage == "declare" and not _strategy_open(state, state.offense):
            return AUTO
        return state.offense

    def legal_actions(self, state: State) -> list[Action]:
        if self.stage == "declare":
            return [ROLL, STRATEGY]
        return [KEEP, REROLL]

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        if self.stage == "face":
            return _strategy_outcomes(state, offense=True)
        return _sum_outcomes(state, DICE[self.kind])

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
            bonus = _stealth(state, actor)
            state.base = int(action.value) + bonus + _star(state, actor, self.kind)
            again = self.stage == "redice"
            state.emit(ev.DiceRolled(state.offense, self.kind, state.base, again, bonus))
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


def _bid(state: State, player: int, role: str) -> Bid:
    """A new defender joins the play: the defense's coach rotates (HM-4P-3)."""
    _rotate(state, state.defense, "bid")
    return Bid(player, role, "declare", "", 0)


def _match(state: State) -> None:
    """HM-PIN-5 Match / HM-R41: "move each to the closest offensive player", 1:1. Pairs are
    made closest first: of all defender-attacker pairs not yet taken, the one the fewest spaces
    apart (ties: the lower-numbered defender, then the lower-numbered attacker). Then each
    defender, in player order, goes onto the open space beside his man nearest where he stood
    (not on the disc's path ahead); one already beside his man stays."""
    field = state.field
    ahead = sum(1 << c for c in state.path[state.progress + 1 :])
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
        return MARK
    if (
        not state.path
        or state.catch_guards(state.path[-1], state.receiver) >> state.pos[player] & 1
    ):
        return ""
    ahead = state.path[max(state.progress, 0) : -1]
    return INTERCEPT if any(ring >> c & 1 for c in ahead) else ""


def _strategy_open(state: State, team: int) -> bool:
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
        if self.stage == "hotbid-offense":
            return state.offense
        if self.stage == "declare" and _strategy_open(state, state.defense):
            return state.defense
        return AUTO

    def _blocked(self, state: State) -> bool:
        return bid_blocked(state.light, state.action, self.role, self.player == state.hammered)

    def legal_actions(self, state: State) -> list[Action]:
        if self.stage == "declare":
            return [ROLL, STRATEGY]
        if self.stage in ("hotbid", "hotbid-offense"):
            return [KEEP, REROLL]
        return self._monster_moves(state)

    def _monster_spots(self, state: State, player: int) -> int:
        ahead = sum(1 << c for c in state.path[state.progress + 1 :])
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
            return _strategy_outcomes(state, offense=False)
        if self.stage == "offense-redice":
            return _sum_outcomes(state, DICE[state.action])
        return _sum_outcomes(state, DICE[self.role])

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
        return self._decide(state)

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
                _match(state)
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
            bonus = _stealth(state, self.player)
            roll = int(action.value) + bonus + _star(state, self.player, self.role)
            state.emit(ev.DiceRolled(state.defense, self.role, roll, stage == "redice", bonus))
            if stage == "dice" and dark_effect(self.face, self.role) == "hot-bid":
                return (self._with("hotbid", roll=roll),)
            return (self._offense_hot_bid(state, roll, hot=stage == "redice"),)
        if stage == "offense-redice":
            assert isinstance(action, Roll)
            # HM-R18 (hot_bid=both): the offense's second roll stands for this action.
            actor = state.thrower if state.action == THROW else state.receiver
            bonus = _stealth(state, actor)
            state.base = int(action.value) + bonus + _star(state, actor, state.action)
            state.emit(ev.DiceRolled(state.offense, state.action, state.base, True, bonus))
            return (self._with("decide"),)
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
        }.get(self.stage, "team dice")
        return f"{player_name(self.player)}'s bid as the {self.role}: {what}"


# -- Pro rules ------------------------------------------------------------------------------


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
            return (TeamMoves("normal", 1, 0),)
        if self.stage == "first":
            return (RethrowChoice("second"),)
        state.emit(ev.RethrowDecided(state.offense, True))
        return (UpCall("start"),)

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
        """Open spaces exactly 2 from the disc, reached in 1..2 steps if possible."""
        dist = state.field.distance_row(state.disc)
        two = sum(1 << c for c in range(state.field.size) if dist[c] == 2) & state.open_spaces()
        near = state.move_reach(player, 2) & two
        return near or two

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
        return _sum_outcomes(state, 3)

    def check(self, state: State, action: Action) -> None:
        if self.stage == "move" and isinstance(action, MoveTo):
            if action.player not in self._pending(state):
                raise IllegalActionError(
                    f"{player_name(action.player)} is not a double-teaming defender to move"
                )
            if not self._spots(state, action.player) >> action_cell(state.field, action.cell) & 1:
                raise IllegalActionError(
                    f"{player_name(action.player)} must move to an open space 2 from the disc"
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
        state.base = int(action.value)
        state.emit(ev.DiceRolled(state.offense, THROW, state.base, True))
        return ()

    def describe(self) -> str:
        return {
            "call": "more than one Mark: call 'double team' or 'play on'",
            "move": "double team: the Marks move 2 spaces from the disc",
            "keep": "double team: keep or re-roll the throw",
        }.get(self.stage, "double team: the new throw roll")


@dataclass(frozen=True, slots=True)
class UpMove(Procedure[State]):
    """HM-STAR-4 / HM-R43: the defense's All-Star, as designated Monster, may move up to 5
    spaces once the throw's path is known (``monster B1 e7`` or ``monster stay``)."""

    rule = "HM-STAR-4"

    def actor(self, state: State) -> int:
        return state.defense

    def _spots(self, state: State) -> int:
        ahead = sum(1 << c for c in state.path[state.progress + 1 :])
        distance = all_star_stat("up-move", False)
        return state.move_reach(state.defense * 7, distance) & ~ahead

    def legal_actions(self, state: State) -> list[Action]:
        star = state.defense * 7
        return [STAY, *state.actions.monster_by_mask[star].select(self._spots(state))]

    def check(self, state: State, action: Action) -> None:
        if action == STAY:
            return
        if not isinstance(action, MonsterMove):
            raise wrong_kind(self, action)
        if action.player != state.defense * 7:
            raise IllegalActionError(f"only the All-Star {player_name(state.defense * 7)} may move")
        if not self._spots(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"the All-Star cannot reach {action.cell}: up to 5 open spaces, not onto the path"
            )

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, MonsterMove):
            state.move_player(action.player, action_cell(state.field, action.cell))
            state.emit(ev.MonsterMoved(action.player, action.cell))
        return ()

    def describe(self) -> str:
        return "the All-Star Monster's Up Move"


@dataclass(frozen=True, slots=True)
class Potholes(Procedure[State]):
    """HM-CONE-2/3 / HM-R45: after a turnover the new defense adds a cone on an open field
    space beside one of its players (``cone e9``); with all 8 in play it moves a cone from
    beside one of its players to an open space beside one (``cone e9 f9``)."""

    rule = "HM-CONE-2"

    def _near(self, state: State) -> int:
        return state.field.dilate(state.occupied[state.defense]) & ~state.any_end_zone()

    def _targets(self, state: State) -> int:
        return self._near(state) & state.open_spaces()

    def _movable(self, state: State) -> int:
        return state.cones & state.field.dilate(state.occupied[state.defense])

    def _adding(self, state: State) -> bool:
        return bin(state.cones).count("1") < MAX_CONES

    def actor(self, state: State) -> int:
        if not self._targets(state) or (not self._adding(state) and not self._movable(state)):
            return AUTO
        return state.defense

    def resolve(self, state: State) -> Transition:
        return ()  # nowhere to put a cone

    def legal_actions(self, state: State) -> list[Action]:
        targets = self._targets(state)
        if self._adding(state):
            return state.actions.cone_by_mask.select(targets)
        out: list[Action] = []
        for source in iter_bits(self._movable(state)):
            out.extend(state.actions.cone_move_by_mask[source].select(targets))
        return out

    def check(self, state: State, action: Action) -> None:
        adding = self._adding(state)
        if adding and not isinstance(action, ConeTo):
            raise IllegalActionError("add a cone first: 'cone e9' (fewer than 8 are in play)")
        if not adding and not isinstance(action, ConeMove):
            raise IllegalActionError("all 8 cones are in play: move one, e.g. 'cone e9 f9'")
        assert isinstance(action, ConeTo | ConeMove)
        if not self._targets(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"a cone goes on an open field space beside one of your players, not {action.cell}"
            )
        if (
            isinstance(action, ConeMove)
            and not self._movable(state) >> action_cell(state.field, action.source) & 1
        ):
            raise IllegalActionError(
                f"there is no cone beside one of your players on {action.source}"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, ConeTo | ConeMove)
        if isinstance(action, ConeMove):
            state.cones &= ~(1 << action_cell(state.field, action.source))
        state.cones |= 1 << action_cell(state.field, action.cell)
        state.emit(ev.ConePlaced(state.defense, action.cell))
        return ()

    def describe(self) -> str:
        return "Pothole Markers: the new defense places a cone"


# -- the Continue (Pro) --------------------------------------------------------------------


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
        and _uncontested(state, p)
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
        _rotate(state, state.offense, "catch")  # the co-coach "acts to receive Continues"
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
        return _sum_outcomes(state, self.dice)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        value = int(action.value)
        if state.options.team_pins:
            value = (value + 1) // 2
        bonus = _stealth(state, state.holder)
        state.base += value + bonus + _star(state, state.holder, "continue")
        state.emit(ev.DiceRolled(state.offense, "continue", state.base, False, bonus))
        return ()

    def describe(self) -> str:
        return f"the Continue's {self.dice}d6"


# -- Cone Push (Mini Cone kit) --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConePushSetUp(Procedure[State]):
    """HM-KIT-4 / HM-R54: "Place one player anywhere in your end zone": A1 and B1, the first
    offense first."""

    team: int
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return self.team

    def _free(self, state: State) -> int:
        return state.end_zone(self.team) & state.open_spaces()

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.place_by_mask.select(self._free(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, Place):
            raise wrong_kind(self, action)
        if not self._free(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError(
                f"{action.cell} is not an open space of team {TEAM_NAMES[self.team]}'s end zone"
            )

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Place)
        player = self.team * 7
        state.move_player(player, action_cell(state.field, action.cell))
        state.emit(ev.Placed(player, action.cell))
        if self.team == state.offense:
            return (ConePushSetUp(1 - self.team),)
        return (ConeTurn(state.offense, "start"),)

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]} places its player"


@dataclass(frozen=True, slots=True)
class ConeTurn(Procedure[State]):
    """HM-KIT-4: a team's turn: 3 dice of throws at the cones, then 2 dice to move; then the
    other team's turn. ``max_up_calls`` caps the turns (HM-R31)."""

    team: int
    stage: str
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return AUTO

    def resolve(self, state: State) -> Transition:
        if self.stage == "start":
            cap = state.options.max_up_calls
            if cap and state.up_calls >= cap:
                return _finish(state, by_cap=True)
            state.up_calls += 1
            state.offense = self.team
            return (ConeTurn(self.team, "move"), ConeThrowRoll(self.team))
        if self.stage == "move":
            if state.winner != NOBODY:
                return ()
            # "Roll two dice at the end of your turn to move players".
            return (ConeTurn(self.team, "next"), MoveRoll(self.team, 2))
        return (ConeTurn(1 - self.team, "start"),)

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]}'s turn"


@dataclass(frozen=True, slots=True)
class ConeThrowRoll(Procedure[State]):
    """HM-KIT-4: "Take turns rolling 3 dice for throw distance" (an All-Star adds Throw +3)."""

    team: int
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return _sum_outcomes(state, 3)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        count = int(action.value) + _star(state, self.team * 7, THROW)
        state.emit(ev.DiceRolled(self.team, THROW, count, False))
        return (ConeThrows(self.team, count),)

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]} rolls to throw"


def cone_pushes(state: State, team: int, left: int) -> dict[tuple[int, int], int]:
    """HM-KIT-4 / HM-R54: every push ``(cone, to) -> count`` the thrower can afford: the disc
    flies from him through open spaces onto the cone (or stack), which then moves in a straight
    line, any direction, one count a space, through open spaces; it stops on reaching another
    cone (they stack). Players and the field's edge stop it."""
    field = state.field
    open_ = state.open_spaces()
    dist = field.step_distances(state.pos[team * 7], open_, left)
    out: dict[tuple[int, int], int] = {}
    for source in iter_bits(state.cones):
        reach = [dist[n] for n in field.neighbours[source] if n in dist]
        if not reach:
            continue
        flight = 1 + min(reach)
        if flight >= left:
            continue  # no count left to push it a space (and never a negative slice)
        for ray in field.rays[source]:
            for k, cell in enumerate(ray[: left - flight], start=1):
                if state.cones >> cell & 1:
                    out[(source, cell)] = flight + k
                    break
                if not open_ >> cell & 1:
                    break
                out[(source, cell)] = flight + k
    return out


@dataclass(frozen=True, slots=True)
class ConeThrows(Procedure[State]):
    """HM-KIT-4: "Players may split count into multiple throws per turn": ``cone e9 e12``
    throws at the cone (or stack) on e9 and pushes it to e12; ``end`` stops. "Disc returns to
    player after each throw", so the disc never stays on the field."""

    team: int
    left: int
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return self.team

    def legal_actions(self, state: State) -> list[Action]:
        moves = state.actions.cone_move
        pushes = cone_pushes(state, self.team, self.left)
        return [*(moves[a][b] for a, b in pushes), END]

    def check(self, state: State, action: Action) -> None:
        if isinstance(action, EndMove):
            return
        if not isinstance(action, ConeMove):
            raise wrong_kind(self, action)
        key = (action_cell(state.field, action.source), action_cell(state.field, action.cell))
        if key not in cone_pushes(state, self.team, self.left):
            raise IllegalActionError(
                f"no throw of {self.left} or less pushes a cone from {action.source} to "
                f"{action.cell}: the disc flies to it through open spaces, then it moves in "
                "a straight line through open spaces"
            )

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, EndMove):
            return ()
        assert isinstance(action, ConeMove)
        source = action_cell(state.field, action.source)
        cell = action_cell(state.field, action.cell)
        left = self.left - cone_pushes(state, self.team, self.left)[(source, cell)]
        moved = state.cone_stacks.pop(source, 1)
        state.cones &= ~(1 << source)
        total = moved + (state.cone_stacks.pop(cell, 1) if state.cones >> cell & 1 else 0)
        state.cones |= 1 << cell
        if total > 1:
            state.cone_stacks[cell] = total
        state.emit(
            ev.ConePushed(self.team, action.source, action.cell, moved, self.left - left, left)
        )
        more: Transition = (ConeThrows(self.team, left),) if left else ()
        zone = next((t for t in (0, 1) if state.end_zone(t) >> cell & 1), NOBODY)
        if zone == NOBODY:
            return more
        # A cone in an end zone scores for the team attacking it (an own goal too).
        scorer = 1 - zone
        state.cones &= ~(1 << cell)
        state.cone_stacks.pop(cell, None)
        state.score[scorer] += total
        state.emit(ev.ConesScored(scorer, total, (state.score[0], state.score[1])))
        if state.score[scorer] >= CONE_PUSH_TARGET:
            state.winner = scorer
            return _finish(state, by_cap=False)
        return (*more, ConeBack(zone, total))  # "Defense Moves cone back to the line"

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]} throws ({self.left} left)"


def _line_spaces(state: State) -> int:
    """Open spaces of the centre line; if it is full, of the nearest rows outside the end
    zones (HM-R54)."""
    centre = state.options.length // 2
    field_rows = ~state.any_end_zone()
    for d in range(state.options.length):
        for row in {centre - d, centre + d}:
            if 0 <= row < state.options.length:
                free = state.field.row_mask(row) & state.open_spaces() & field_rows
                if free:
                    return free
    return 0


@dataclass(frozen=True, slots=True)
class ConeBack(Procedure[State]):
    """HM-KIT-4 / HM-R54: "Defense Moves cone back to the line after each score": the team
    scored upon puts each scored cone on an open space of the centre line (``cone e9``)."""

    team: int
    left: int
    rule = "HM-KIT-4"

    def actor(self, state: State) -> int:
        return self.team if _line_spaces(state) else AUTO

    def resolve(self, state: State) -> Transition:
        return ()  # no open space left anywhere: the cone stays out

    def legal_actions(self, state: State) -> list[Action]:
        return state.actions.cone_by_mask.select(_line_spaces(state))

    def check(self, state: State, action: Action) -> None:
        if not isinstance(action, ConeTo):
            raise wrong_kind(self, action)
        if not _line_spaces(state) >> action_cell(state.field, action.cell) & 1:
            raise IllegalActionError("the cone goes back on an open space of the centre line")

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, ConeTo)
        state.cones |= 1 << action_cell(state.field, action.cell)
        state.emit(ev.ConePlaced(self.team, action.cell))
        return (ConeBack(self.team, self.left - 1),) if self.left > 1 else ()

    def describe(self) -> str:
        return f"Cone Push: team {TEAM_NAMES[self.team]} puts a scored cone back on the line"


def first_steps(options: HuckMonsterOptions) -> tuple[Procedure[State], ...]:
    return (ChooseOffense(),)


ALL_STEPS: tuple[type[Procedure[State]], ...] = (
    ChooseOffense,
    StartPoint,
    SetUp,
    PlaceTheDisc,
    PullRoll,
    PullLanding,
    TeamMoves,
    MoveRoll,
    Moving,
    UpCall,
    Aim,
    OffenseAction,
    Bid,
    Pivot,
    RethrowChoice,
    DoubleTeam,
    UpMove,
    Potholes,
    ChooseGameStyle,
    ContinueChoice,
    ContinueOptOut,
    ContinueRoll,
    ConePushSetUp,
    ConeTurn,
    ConeThrowRoll,
    ConeThrows,
    ConeBack,
)

__all__ = ["ALL_STEPS", "DARK_FACES", "LIGHT_FACES", "first_steps"]
