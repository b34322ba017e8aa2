"""Spells that need their own steps: mirror image (MW-MAGIC-2/3) and invisibility
(MW-MAGIC-7/8). Lightning bolt, change self and lycanthropy act at once (see phases)."""

from __future__ import annotations

from dataclasses import dataclass

from monsterball.core.actions import Action, Roll
from monsterball.core.game import AUTO
from monsterball.core.procedures import Transition
from monsterball.games.midway.actions import (
    AtHex,
)
from monsterball.games.midway.events.magic import (
    CountersStand,
    ImagePlaced,
    MirrorRolled,
    MovedUnseen,
)
from monsterball.games.midway.moves import (
    group_cells,
)
from monsterball.games.midway.options import TEAM_NAMES
from monsterball.games.midway.rules.inplay import (
    InPlay,
    InPlayRoll,
    State,
    cell_of,
)
from monsterball.games.midway.state import team_of


@dataclass(frozen=True, slots=True)
class MirrorRoll(InPlayRoll):
    """MW-MAGIC-2: d6 / 2 (rounded up) mirror images."""

    caster: int
    rule = "MW-MAGIC-2"

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, Roll)
        n = (int(action.value) + 1) // 2
        if state.options.mirror_count == "literal":
            # Ruling MW-R10's option: "this number of blank counters, including one ...
            # that will represent the actual player".
            n -= 1
            if n == 0:
                state.emit(MirrorRolled(int(action.value), 0))
                return ()
        state.caster = self.caster
        state.images = []
        state.image_phases = 4
        state.emit(MirrorRolled(int(action.value), n))
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
        state.emit(ImagePlaced(action.cell))
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
        state.emit(CountersStand(len(group)))
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[self.team]} choosing the real counter"


def unseen_blocks(state: State, player: int) -> list[int]:
    """Ruling MW-R11: the invisible player "can perform as a blocker": while his team holds
    the ball (and he does not), his unseen move may end in a seen opponent's hex within his
    reach that holds fewer than two of his teammates; he shows himself there to block at
    the end of the phase. None with option hidden_contact=barred."""
    team = team_of(player)
    if (
        state.options.hidden_contact == "barred"
        or state.carrier < 0
        or team_of(state.carrier) != team
        or state.carrier == player
    ):
        return []
    f = state.field
    row = f.distance_row(state.vanish)
    out = []
    for c in range(f.size):
        if not 0 < row[c] <= state.vanish_reach:
            continue
        here = state.players_at(c)
        mates = sum(1 for q in here if team_of(q) == team)
        if mates < 2 and any(team_of(q) != team and q != state.caster for q in here):
            out.append(c)
    return out


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
        mv = state.vanish_reach
        occupied = state.counters_mask()
        row = f.distance_row(state.vanish)
        out: list[Action] = [
            state.actions.appear[c] for c in range(f.size) if row[c] <= mv and not occupied >> c & 1
        ]
        out += [state.actions.appear[c] for c in unseen_blocks(state, self.player)]
        # With no movement this phase and a player sharing his hex, he stays where he is.
        return out or [state.actions.appear[state.vanish]]

    def apply(self, state: State, action: Action) -> Transition:
        assert isinstance(action, AtHex)
        state.appear_at = cell_of(state, action.cell)
        state.emit(MovedUnseen())
        return ()

    def describe(self) -> str:
        return f"team {TEAM_NAMES[team_of(self.player)]} moving an invisible player"
