"""Blocks and tackles (MW-BLOCK-*, MW-TACK-*), and the ettin's temper (MW-SPEC-8)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from monsterball.core.actions import Action, Roll
from monsterball.core.errors import IllegalActionError
from monsterball.core.game import AUTO, CHANCE, uniform
from monsterball.core.procedures import Transition
from monsterball.games.midway import chart
from monsterball.games.midway.actions import (
    Name,
    Tackle,
    Word,
    player_name,
)
from monsterball.games.midway.events.contact import (
    BlockRolled,
    EttinAttacked,
    EttinTurns,
    SecondBlockOff,
    TackleRolled,
)
from monsterball.games.midway.events.magic import ImageTouched, MirrorEnded
from monsterball.games.midway.moves import (
    block_modifier,
    eligible_tacklers,
    tackle_modifier,
    tackle_question,
)
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.inplay import (
    InPlay,
    InPlayRoll,
    State,
    cell_of,
    end_mirror,
    injure,
    wrong,
)
from monsterball.games.midway.state import team_of


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
        state.emit(BlockRolled(blocker, defender, int(action.value), mod, total, result))
        bit = 1 << defender
        if result == "blocker injured for game":
            injure(state, blocker, True)
        elif result == "blocker injured for next play":
            injure(state, blocker, False)
        elif result == "neutralize":
            state.frozen |= bit
        elif result == "successful block":
            # MW-BLOCK-9: no move in his next phase and no tackle until the following
            # movement phase is over (its end-of-phase tackles included).
            state.frozen |= bit
            state.no_tackle |= bit
            state.no_tackle_next |= bit
        elif result == "defender injured for next play":
            injure(state, defender, False)
        elif result == "defender injured for game":
            injure(state, defender, True)
        if len(rest) >= 2 and rest[1] == defender:
            if state.options.block_order == "coach":
                # Ruling MW-R6: "the coach can call off the second attempt if the first one
                # succeeds or if he decides not to make the second attempt".
                second, rest = rest[:2], rest[2:]
                return (*((BlockRoll(rest),) if rest else ()), SecondBlock(*second))
            if total >= 3:
                rest = rest[2:]  # option block_order=auto: called off after a neutralize
        return (BlockRoll(rest),) if rest else ()

    def describe(self) -> str:
        return "a block"


def block_step(state: State, pairs: tuple[int, ...]) -> InPlay:
    """The blocks at the end of a phase: with two blockers on one defender the offensive
    coach first names who blocks first (ruling MW-R6), unless option block_order=auto."""
    if state.options.block_order == "coach" and _doubled(pairs, 0) >= 0:
        return BlockOrder(pairs, 0)
    return BlockRoll(pairs)


def _doubled(pairs: tuple[int, ...], ordered: int) -> int:
    """The first defender with two blockers in ``pairs`` not yet ordered, or -1."""
    seen: set[int] = set()
    for d in pairs[1::2]:
        if d in seen and not ordered >> d & 1:
            return d
        seen.add(d)
    return -1


@dataclass(frozen=True, slots=True)
class BlockOrder(InPlay):
    """MW-BLOCK-4 (ruling MW-R6): "If a defender is being blocked by two players, the
    offensive coach decides the order in which blocks will be attempted": he names the
    first blocker ('block A3'), one doubled defender at a time."""

    pairs: tuple[int, ...]
    ordered: int
    rule = "MW-BLOCK-4"

    def _blockers(self) -> tuple[int, int]:
        d = _doubled(self.pairs, self.ordered)
        found = [self.pairs[i] for i in range(0, len(self.pairs), 2) if self.pairs[i + 1] == d]
        return found[0], found[1]

    def who(self, state: State) -> int:
        return team_of(self.pairs[0])

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.block[p] for p in self._blockers()]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Name)
        first = action.player
        d = _doubled(self.pairs, self.ordered)
        other = next(b for b in self._blockers() if b != first)
        # The two pairs on this defender in the chosen order, where the first one stood.
        flat = [(self.pairs[i], self.pairs[i + 1]) for i in range(0, len(self.pairs), 2)]
        at = next(i for i, (_, q) in enumerate(flat) if q == d)
        rest = [pq for pq in flat if pq[1] != d]
        rest[at:at] = [(first, d), (other, d)]
        pairs = tuple(x for pq in rest for x in pq)
        return (block_step_after(state, pairs, self.ordered | 1 << d),)

    def describe(self) -> str:
        return f"team {TEAM_NAMES[team_of(self.pairs[0])]} choosing who blocks first"


def block_step_after(state: State, pairs: tuple[int, ...], ordered: int) -> InPlay:
    return BlockOrder(pairs, ordered) if _doubled(pairs, ordered) >= 0 else BlockRoll(pairs)


@dataclass(frozen=True, slots=True)
class SecondBlock(InPlay):
    """Ruling MW-R6: after the first of two blocks on a defender, the offensive coach makes
    the second ('block A4') or calls it off ('no')."""

    blocker: int
    defender: int
    rule = "MW-BLOCK-4"

    def who(self, state: State) -> int:
        here = state.pos[self.blocker]
        return team_of(self.blocker) if here >= 0 and state.pos[self.defender] == here else AUTO

    def auto(self, state: State) -> Transition:
        return ()

    def legal_actions(self, state: State) -> list[Action]:
        return [state.actions.block[self.blocker], state.actions.words["no"]]

    def apply(self, state: State, action: Action) -> Transition:
        if isinstance(action, Name):
            return (BlockRoll((self.blocker, self.defender)),)
        state.emit(SecondBlockOff(self.defender))
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[team_of(self.blocker)]} deciding on a second block"


@dataclass(frozen=True, slots=True)
class TackleRound(InPlay):
    """MW-TACK-1..5: the defending coach names tacklers one at a time, in any order, or
    'no'. ``offer``: during the offensive phase, when the carrier has just come adjacent."""

    team: int
    same_hex: bool
    offer: bool
    rule = "MW-TACK-4"

    def who(self, state: State) -> int:
        return self.team if tackle_question(state, self.same_hex) else AUTO

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
        state.idle = 0  # a tackle tried is play (MW-R23)
        if p == state.caster:
            # A hidden caster who tackles makes contact: the spell ends (MW-MAGIC-2).
            end_mirror(state, MirrorEnded("tackle", player=p))
        if state.caster >= 0 and state.carrier == state.caster:
            if cell in state.images:
                state.images.remove(cell)
                state.dazed |= 1 << p
                state.emit(ImageTouched(p, action.cell, tackled=True))
                return (self,)
            end_mirror(state, MirrorEnded("found", player=p, cell=action.cell))
        return (self, TackleRoll(p))

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]}'s tackle attempts"


@dataclass(frozen=True, slots=True)
class TackleRoll(InPlayRoll):
    """MW-TACK-6..9: the defensive coach rolls d6 + size modifier."""

    tackler: int
    rule = "MW-TACK-5"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        carrier = state.carrier
        mod = tackle_modifier(state, carrier, self.tackler)
        total = chart.clamp_roll(int(action.value) + mod)
        result = chart.TACKLE_RESULTS[total]
        state.emit(TackleRolled(self.tackler, carrier, int(action.value), mod, total, result))
        if result == "ball carrier tackled":
            state.dead = "tackle"
        elif result == "ball carrier injured for game":
            injure(state, carrier, True)
        elif result == "ball carrier injured for next play":
            injure(state, carrier, False)
        elif result == "ball carrier slowed (-2)":
            slow(state, carrier, 2)  # MW-TACK-8: this player's own next phase
        elif result == "ball carrier slowed (-1)":
            slow(state, carrier, 1)
        elif result == "tackler injured for next play":
            injure(state, self.tackler, False)
        elif result == "tackler injured for game":
            injure(state, self.tackler, True)
        return ()

    def describe(self) -> str:
        return "a tackle"


def slow(state: State, player: int, amount: int) -> None:
    """MW-TACK-8: ``player`` loses ``amount`` (the larger of two slowings) in his next phase;
    ``slowed`` holds 2 bits a player."""
    shift = 2 * player
    amount = max(amount, state.slowed >> shift & 3)
    state.slowed = state.slowed & ~(3 << shift) | amount << shift


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
class EttinRoll(InPlayRoll):
    """MW-SPEC-8: an ettin starting a phase next to a teammate attacks him on a 6."""

    ettin: int
    mate: int
    rule = "MW-SPEC-8"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        if action.value != "6":
            return ()
        state.emit(EttinTurns(self.ettin, self.mate))
        return (EttinAttack(self.ettin, self.mate),)

    def describe(self) -> str:
        return "an ettin's temper"


@dataclass(frozen=True, slots=True)
class EttinAttack(InPlayRoll):
    """MW-SPEC-8 (ruling MW-R12): "the ettin will make a block or tackle attempt against his
    teammate. If this attempt succeeds, the teammate can take no further action in the
    current movement phase." A tackle when the teammate carries the ball (the tackling
    column, the carrier's size down the left), a block otherwise. It succeeds on a block
    of neutralize or better, or a tackle short of a miss (injured, tackled or slowed);
    success only takes the teammate's phase away: nobody is hurt and the play goes on."""

    ettin: int
    mate: int
    rule = "MW-SPEC-8"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        tackle = self.mate == state.carrier
        if tackle:
            mod = tackle_modifier(state, self.mate, self.ettin)
        else:
            mod = block_modifier(state, self.ettin, self.mate)
        total = chart.clamp_roll(int(action.value) + mod)
        ok = total <= 5 if tackle else total >= 3
        state.emit(EttinAttacked(self.ettin, self.mate, tackle, int(action.value), mod, total, ok))
        if ok:
            state.dazed |= 1 << self.mate
        return ()

    def describe(self) -> str:
        return "an ettin's attack"
