"""Team moves (HM-MOVE): the move dice and moving the players, the loose-disc chase."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE
from monsterball.core.geometry import FAST, iter_bits
from monsterball.core.procedures import Procedure, Transition, action_cell, wrong_kind
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.actions import (
    END,
    EndMove,
    MoveTo,
    player_name,
)
from monsterball.games.huck_monster.field import team_of, team_players
from monsterball.games.huck_monster.options import PLAYERS_PER_TEAM, TEAM_NAMES
from monsterball.games.huck_monster.rules.common import (
    FLOW,
    State,
    is_all_star,
    nearest_open_next_to,
    rotate_coaches,
    star_bonus,
    team_dice_outcomes,
)
from monsterball.games.huck_monster.rules.kits.hot_hex import one_inside_the_hex
from monsterball.games.huck_monster.rules.pro import Pivot
from monsterball.games.huck_monster.rules.upcall import UpCall
from monsterball.games.huck_monster.state import NOBODY


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
            rotate_coaches(state, state.offense, "move")
            return (TeamMoves(self.kind, self.round, 1), MoveRoll(state.offense))
        if self.stage == 1:
            if state.holder == NOBODY and self.kind == "stall":
                _nearest_takes(state)
            elif state.holder == NOBODY and self.kind == "loose" and self.round == 2:
                # HM-POSS-4: no offensive player next to the disc after the second move.
                return (FLOW.step("StartPoint", state.offense, True),)
            if self.kind == "catch" and state.options.handler_pivot and state.pivot_spaces():
                return (TeamMoves(self.kind, self.round, 3), Pivot())  # HM-PIVOT-2
        if self.stage in (1, 3):
            rotate_coaches(state, state.defense, "move")
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
    spot = nearest_open_next_to(state, player, state.disc, 0)
    if spot != NOBODY:
        state.disc = spot
    state.holder = player
    state.emit(ev.Claimed(player))


@dataclass(frozen=True, slots=True)
class MoveRoll(Procedure[State]):
    """HM-MOVE-1: a team rolls its 3 team dice for its move count (2 in Cone Push, HM-KIT-5)."""

    team: int
    dice: int = 3
    rule = "HM-MOVE-1"

    def actor(self, state: State) -> int:
        return CHANCE

    def chance_outcomes(self, state: State) -> list[tuple[Action, Fraction]]:
        return team_dice_outcomes(state, self.dice)

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        count = int(action.value)
        state.emit(ev.MoveRolled(self.team, count))
        free = star_bonus(state, self.team * 7, "move")  # HM-STAR-5: the guaranteed move stat
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
    entered: bool = False  # a player moved into the Hot Hex in this team move (HM-R52)
    rule = "HM-MOVE-2"

    def actor(self, state: State) -> int:
        return self.team

    def _budget(self, state: State, player: int) -> int:
        return self.left + (self.free if is_all_star(state, player) else 0)

    # The legal destinations of each player, with the rule that restricts them.
    def _allowed(self, state: State) -> tuple[dict[int, int], str]:
        # state.move_reach per player, with the open spaces found once (nobody moves here).
        open_ = state.open_spaces()
        reachable = state.field.reachable
        pos, holder, left, free = state.pos, state.holder, self.left, self.free
        reach: dict[int, int] = {}
        for p in team_players(self.team):
            if p != holder and pos[p] >= 0:
                budget = left + free if free and is_all_star(state, p) else left
                reach[p] = reachable(pos[p], budget, open_) if budget > 0 else 0
        if self.team == state.offense and state.style == "hot-hex":
            reach = one_inside_the_hex(state, reach, self.entered)
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
                    names = " and ".join(player_name(p) for p in sorted(marks))
                    return leave, (
                        f"only one Mark may stand next to the disc, and {names} are next to "
                        "it: move all but one of them away"
                    )
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
        return self._end_refused(state, allowed, why)

    def _end_refused(self, state: State, allowed: dict[int, int], why: str) -> str:
        """Why ``end`` is not legal now, or ''."""
        if why and allowed:
            return why
        if self.left and allowed and state.options.full_moves:
            # HM-R5, full_moves: "until the full move count has been distributed".
            return f"{self.left} of the move count is left to distribute"
        return ""

    def _restriction(self, state: State) -> tuple[int, int] | None:
        """``_allowed`` as (forbid, exempt) when it is every player's reach less one mask for
        all but (at most) one player, with nothing to explain: the common case, which
        ``field.team_moves`` lists in one call. None when the rule is any other."""
        if self.team == state.offense:
            forbid, exempt = 0, NOBODY
            per_move = state.options.hex_limit == "per-move"
            if state.style == "hot-hex" and (self.entered or not per_move):  # _one_inside_...
                inside = state.players_in(state.hex_zone, self.team)
                if len(inside) > 1 and per_move:
                    return None  # every one inside may move within it
                if inside:
                    forbid, exempt = state.hex_zone, inside[0] if len(inside) == 1 else NOBODY
                elif per_move:
                    forbid = state.hex_zone
            if state.disc >= 0 and state.holder == NOBODY and state.options.pickup == "strict":
                return None  # _chase
            return forbid, exempt
        if state.disc < 0 or state.holder == NOBODY or state.options.double_team:
            return 0, NOBODY
        ring = state.adjacent(state.disc)
        marks = state.players_in(ring, self.team)
        if not marks:
            return 0, NOBODY
        if len(marks) > 1:
            return None  # the others must move away first (HM-R26)
        return ring, marks[0]

    def legal_actions(self, state: State) -> list[Action]:
        rule = self._restriction(state)
        if rule is not None:
            lo = self.team * PLAYERS_PER_TEAM
            star = lo if self.free and state.options.all_stars else NOBODY  # is_all_star
            moves: list[Action] | None = state.field.team_moves(
                state.pos,
                lo,
                lo + PLAYERS_PER_TEAM,
                state.holder,
                self.left,
                star,
                self.left + self.free,
                state.open_spaces(),
                rule[0],
                rule[1],
                state.actions.move,
            )
            if moves is not None:
                if not (moves and self.left and state.options.full_moves):  # HM-R5
                    moves.append(END)  # no rule to explain: the move may end
                return moves
        return self.legal_actions_py(state)

    def move_masks(self, state: State) -> tuple[list[tuple[int, int]], bool]:
        """:meth:`legal_actions` as masks: (player, destination cells) for each player with a
        move, in player order, and whether ``end`` is legal (the learning env's action mask,
        written from these without listing the moves; tests/games/huck_monster hold the
        two equal)."""
        rule = self._restriction(state)
        if rule is None:
            allowed, why = self._allowed(state)
            return list(allowed.items()), not self._end_refused(state, allowed, why)
        forbid, exempt = rule  # as field.team_moves, in legal_actions
        lo = self.team * PLAYERS_PER_TEAM
        star = lo if self.free and state.options.all_stars else NOBODY
        open_, reachable = state.open_spaces(), state.field.reachable
        pos, holder, left = state.pos, state.holder, self.left
        out = []
        for p in range(lo, lo + PLAYERS_PER_TEAM):
            start = pos[p]
            if p == holder or start < 0:
                continue
            budget = left + self.free if p == star else left
            if budget <= 0:
                continue
            mask = reachable(start, budget, open_)
            if p != exempt:
                mask &= ~forbid
            if mask:
                out.append((p, mask))
        return out, not (out and left and state.options.full_moves)  # HM-R5

    def legal_actions_py(self, state: State) -> list[Action]:
        """:meth:`legal_actions` from ``_allowed``: the reference, and every rare case."""
        allowed, why = self._allowed(state)  # once: it is most of the cost
        out: list[Action] = []
        for p, mask in allowed.items():
            out.extend(state.actions.move_by_mask[p].select(mask))
        if not self._end_refused(state, allowed, why):  # as in _must_move
            out.append(END)
        return out

    def sample_legal(self, state: State, rng: random.Random) -> Action:
        if FAST and self._restriction(state) is not None:
            legal = self.legal_actions(state)  # one compiled call: cheaper than counting
            return legal[rng.randrange(len(legal))]
        # The n-th item of legal_actions() without building it: count each player's cells.
        allowed, why = self._allowed(state)
        counts = [m.bit_count() for m in allowed.values()]
        total = sum(counts) + (0 if self._end_refused(state, allowed, why) else 1)
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
        if state.pos[action.player] < 0:  # a preset that fields fewer players (cone push)
            raise IllegalActionError(f"{name} is not on the field")
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
        field, player = state.field, action.player
        cell = action_cell(field, action.cell)
        start = state.pos[player]
        cost = field.steps_to(start, cell, state.open_spaces())
        state.move_player(player, cell)
        free = self.free
        if free and is_all_star(state, player):  # (nothing to spend when free is 0)
            used = min(cost, free)
            free -= used
            cost -= used
        left = self.left - cost
        state.emit(ev.Moved(player, action.cell, cost, left))
        chasing = self.team == state.offense and state.holder == NOBODY and state.disc >= 0
        if chasing and field.neighbour_mask[state.disc] >> cell & 1:
            state.holder = player
            state.emit(ev.Claimed(player))
        star_free = free and state.holder != self.team * 7
        if left == 0 and not star_free:
            return ()
        # HM-R52 (hex_limit=per-move): an offensive player stepped into the hex this move.
        hexed = state.hex_zone >> cell & 1 and not state.hex_zone >> start & 1
        entered = self.entered or bool(state.style == "hot-hex" and hexed)
        return (Moving(self.team, left, free if star_free else 0, entered),)

    def describe(self) -> str:
        extra = f", All-Star {self.free} free" if self.free else ""
        return f"team {TEAM_NAMES[self.team]} moving ({self.left} left{extra})"


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
