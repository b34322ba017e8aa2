"""How often Midway's heuristic (medium) bot ends a movement phase without moving while a
move that gains ground existed (issue 14, item 8).

Plays seeded heuristic-vs-heuristic games in which every kickoff is an onside kick (the
position the issue reports), and at every decision that opens a team's movement phase
(nobody has acted yet) records whether the bot played 'end' and whether some move would
have gained ground:

* its own ball carrier can move to a hex nearer the goal it attacks;
* otherwise some player can move nearer the ball (a carrier to tackle, a loose or kicked
  ball to recover, a pass to reach) from two or more hexes away (one hex away is already
  next to a carrier; a loose ball counts from one hex away). A pass counts for the
  defense only if a receiver stands in its hex: otherwise it falls incomplete at the end
  of the defense's phase whatever anyone does.

Run as ``python scripts/midway_idle.py`` (the heuristic bot against itself);
tests/games/midway/test_heuristic_active.py holds its figures to a bound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.games.midway.actions import Move, Word
from monsterball.games.midway.analysis.heuristic import field_progress
from monsterball.games.midway.rules.phases import Phase
from monsterball.games.midway.state import MidwayState, team_of


class Chooser(Protocol):
    """A bot, as ``monsterball.bots`` defines one (only what is asked of it here)."""

    def choose(self, state: GameState, seat: int, /) -> Action: ...


def gaining_move_exists(state: MidwayState, team: int, legal: Sequence[Action]) -> bool:
    """Whether some legal move gains ground for ``team`` (the module docstring says how)."""
    f = state.field
    ball = state.ball
    if ball < 0:
        return False
    carrier = state.carrier
    if (
        state.ball_state == "pass"
        and team != state.offense
        and not any(team_of(q) == state.offense for q in state.players_at(ball))
    ):
        # The pass comes down at the end of this (the defense's) phase with no receiver in
        # its hex: it is incomplete whatever the defense does (MW-PASS-5), so closing on
        # it gains nothing. (Counted, the offense's throwaways read as idle defenses.)
        return False
    dist = f.distance_row(ball)
    own_carrier = carrier >= 0 and team_of(carrier) == team
    held = carrier >= 0
    for a in legal:
        if not isinstance(a, Move):
            continue
        c = f.parse_cell(a.cell)
        if own_carrier:
            if a.player == carrier and field_progress(state, c, team) > field_progress(
                state, ball, team
            ):
                return True
            continue
        here = dist[state.pos[a.player]]
        if here > (1 if held else 0) and dist[c] < here:
            return True
    return False


def measure(
    spec: GameSpec,
    games: int,
    preset: str,
    seed: int,
    bots: Callable[[int], Sequence[Chooser]],
    *,
    onside: bool = True,
    max_plies: int = 60_000,
) -> dict[str, int]:
    """Counts over ``games`` seeded games of ``spec`` (Midway's; game ``g`` from ``seed`` to
    ``seed + games - 1``) between ``bots(g)``, the two seats' bots (handed in, as the spec
    is: the bots' layer and the registry are above this module; scripts/midway_idle.py
    plays the heuristic bot)."""
    options = spec.options(preset=preset) if preset else spec.options()
    counts = {"phases": 0, "idle": 0, "idle_with_gain": 0, "onside_phases": 0, "onside_idle": 0}
    for g in range(seed, seed + games):
        state = spec.new_game(options)
        assert isinstance(state, MidwayState)
        players = bots(g)
        sampler = SeededSampler(g)
        plies = 0
        while not state.is_terminal() and plies < max_plies:
            actor = state.current_player()
            if actor == CHANCE:
                state.apply_unchecked(sampler.choose(state.chance_outcomes()))
                plies += 1
                continue
            legal = state.legal_actions()
            kick = next((a for a in legal if isinstance(a, Word) and a.word == "onside"), None)
            # The position: with ``onside`` every kickoff is an onside kick.
            action = kick if onside and kick is not None else players[actor].choose(state, actor)
            top = state.stack[-1]
            if isinstance(top, Phase) and top.acted == 0 and top.moving < 0:
                counts["phases"] += 1
                is_onside = state.kind == "onside"
                counts["onside_phases"] += is_onside
                if isinstance(action, Word) and action.word == "end":
                    counts["idle"] += 1
                    counts["onside_idle"] += is_onside
                    if gaining_move_exists(state, actor, legal):
                        counts["idle_with_gain"] += 1
            state.apply_unchecked(action)
            plies += 1
    return counts
