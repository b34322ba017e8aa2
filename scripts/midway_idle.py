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

Usage: ``PYTHONPATH=src python scripts/midway_idle.py --games 6 --preset match --seed 0``
(``--plan-tries 0`` without the phase planner)
"""

from __future__ import annotations

import argparse
import math

from monsterball.bots.heuristic import HeuristicBot
from monsterball.bots.protocol import bot_seed
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE
from monsterball.games import get_game
from monsterball.games.midway.actions import Move, Word
from monsterball.games.midway.analysis.heuristic import _progress
from monsterball.games.midway.rules.phases import Phase
from monsterball.games.midway.state import MidwayState, team_of


def gaining_move_exists(state: MidwayState, team: int, legal: list[object]) -> bool:
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
            if a.player == carrier and _progress(state, c, team) > _progress(state, ball, team):
                return True
            continue
        here = dist[state.pos[a.player]]
        if here > (1 if held else 0) and dist[c] < here:
            return True
    return False


def measure(
    games: int,
    preset: str,
    seed: int,
    *,
    onside: bool = True,
    max_plies: int = 60_000,
    plan_tries: int | None = None,
) -> dict[str, int]:
    """Counts over ``games`` heuristic-vs-heuristic games; ``plan_tries``: the bots'
    planner play-outs (default: the heuristic bot's own setting)."""
    spec = get_game("midway")
    options = spec.options(preset=preset) if preset else spec.options()
    counts = {"phases": 0, "idle": 0, "idle_with_gain": 0, "onside_phases": 0, "onside_idle": 0}
    for g in range(seed, seed + games):
        state = spec.new_game(options)
        assert isinstance(state, MidwayState)
        tries = {} if plan_tries is None else {"plan_tries": plan_tries}
        bots = [HeuristicBot(bot_seed(g, s), **tries) for s in range(2)]
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
            action = kick if onside and kick is not None else bots[actor].choose(state, actor)
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


def wilson(k: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--preset", default="short")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--bot-kicks", action="store_true", help="let the bots choose their kickoffs"
    )
    parser.add_argument(
        "--plan-tries", type=int, help="the planner's play-outs (default: the bot's own)"
    )
    args = parser.parse_args()
    c = measure(
        args.games, args.preset, args.seed, onside=not args.bot_kicks, plan_tries=args.plan_tries
    )
    n, k = c["phases"], c["idle_with_gain"]
    lo, hi = wilson(k, n)
    print(
        f"{args.games} games ({args.preset}, seeds {args.seed}..{args.seed + args.games - 1}): "
        f"{n} movement phases, {c['idle']} ended without moving, "
        f"{k} of them while a move gained ground: {k / max(n, 1):.1%} "
        f"(95% CI {lo:.1%} - {hi:.1%}); onside-kick plays: "
        f"{c['onside_idle']} idle of {c['onside_phases']} phases"
    )


if __name__ == "__main__":
    main()
