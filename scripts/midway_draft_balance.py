"""Check the Monsters of the Midway draft chart (ruling MW-R1) for balance.

1. Variety: how many different legal teams (multisets of 10 chart types, at most 210
   points) exist, and how many use each type.
2. Play: random legal drafts (and some 'best value' drafts) play each other with random
   bots; per type, the win share of teams holding 3 or more of it, and of cheap teams.

The default bots are a plain greedy football bot (run, block, chase, tackle; no passes or
magic), so the check finds gross imbalance in size and speed (a type or a cheap
combination that wins whatever the play); it is a smoke test of the house chart, not a
rating. Usage: ``python scripts/midway_draft_balance.py --games 200 --plays 10``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from functools import cache
from typing import Any

from monsterball.bots.protocol import RandomBot
from monsterball.core.actions import Action
from monsterball.core.dice import SeededSampler, derive_seed
from monsterball.core.game import CHANCE
from monsterball.games import get_game
from monsterball.games.midway.actions import Move, Place, Tackle, Word
from monsterball.games.midway.chart import default_chart
from monsterball.games.midway.rules.draft import affordable, best_pick
from monsterball.games.midway.state import MidwayState


def _count(costs: tuple[int, ...], size: int, budget: int) -> int:
    """Multisets of ``size`` items from ``costs`` (one entry per type) within ``budget``."""

    @cache
    def ways(i: int, left: int, points: int) -> int:
        if left == 0:
            return 1
        if i == len(costs):
            return 0
        total = 0
        for k in range(left + 1):
            if k * costs[i] > points:
                break
            total += ways(i + 1, left - k, points - k * costs[i])
        return total

    return ways(0, size, budget)


def count_teams() -> tuple[int, dict[str, int]]:
    """Legal teams (multisets) in all, and per type how many contain it."""
    chart = default_chart()
    names = chart.names
    size, budget = chart.team_size, chart.max_points
    costs = tuple(chart.types[n].points for n in names)
    total = _count(costs, size, budget)
    with_type = {}
    for i, name in enumerate(names):
        without = _count(costs[:i] + costs[i + 1 :], size, budget)
        with_type[name] = total - without
    return total, with_type


class GreedyBot:
    """A plain football bot for the balance check (it reads the true state, so it sees
    through mirror images): the carrier runs straight for the end zone, teammates block the
    defenders nearest him, defenders chase the ball and always tackle. Other decisions are
    random."""

    name = "greedy"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, state: MidwayState, seat: int) -> Action:
        legal = state.legal_actions()
        words = {a.notation(): a for a in legal if isinstance(a, Word)}
        tackles = [a for a in legal if isinstance(a, Tackle)]
        if tackles:
            return tackles[0]
        for w in ("auto", "onside"):
            if w in words and len(words) == len(legal) - sum(
                1 for a in legal if isinstance(a, Place)
            ):
                return words[w]
        if "auto" in words:
            return words["auto"]
        moves = [a for a in legal if isinstance(a, Move)]
        if "end" in words and top_name(state) == "Phase":
            return self._phase(state, seat, moves) or words["end"]
        if "end" in words and top_name(state) in ("ShiftStep", "Adjust"):
            return words["end"]
        return legal[self.rng.randrange(len(legal))]

    def _phase(self, state: MidwayState, seat: int, moves: list[Move]) -> Action | None:
        f = state.field
        fwd = state.forward(seat)
        if state.carrier >= 0 and state.carrier // 10 == seat:
            mine = [m for m in moves if m.player == state.carrier]
            if mine:
                best = max(
                    mine, key=lambda m: (state.row(f.parse_cell(m.cell)) * fwd, self.rng.random())
                )
                if state.row(f.parse_cell(best.cell)) * fwd > state.row(state.ball) * fwd:
                    return best
            opp = {state.pos[q] for q in range(20) if q // 10 != seat and state.pos[q] >= 0}
            blocks = [m for m in moves if f.parse_cell(m.cell) in opp]
            if blocks:
                return min(blocks, key=lambda m: f.distance(f.parse_cell(m.cell), state.ball))
            return None
        if state.ball < 0:
            return None
        better = [
            m
            for m in moves
            if f.distance(f.parse_cell(m.cell), state.ball)
            < f.distance(state.pos[m.player], state.ball)
        ]
        if better:
            return min(
                better,
                key=lambda m: (f.distance(f.parse_cell(m.cell), state.ball), self.rng.random()),
            )
        return None


def top_name(state: MidwayState) -> str:
    return type(state.stack[-1]).__name__ if state.stack else ""


def random_draft(state: MidwayState, team: int, rng: random.Random, best: bool) -> list[str]:
    kinds = []
    for p in range(team * 10, team * 10 + 10):
        kind = best_pick(state, team) if best else rng.choice(affordable(state, team))
        state.roster[p] = kind
        kinds.append(kind)
    return kinds


def play_one(
    seed: int, plays: int, best_share: float, bot: str
) -> tuple[list[list[str]], list[bool], tuple[int, int]]:
    spec = get_game("midway")
    rng = random.Random(seed)
    probe = spec.new_game(spec.options())
    assert isinstance(probe, MidwayState)
    best = [rng.random() < best_share for _ in (0, 1)]
    teams = [random_draft(probe, t, rng, best[t]) for t in (0, 1)]
    options = spec.options(
        roster_a=",".join(teams[0]), roster_b=",".join(teams[1]), plays=plays, max_phases=30
    )
    state = spec.new_game(options)
    kind = GreedyBot if bot == "greedy" else RandomBot
    bots: list[Any] = [kind(derive_seed(seed, 1)), kind(derive_seed(seed, 2))]
    dice = SeededSampler(seed)
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            state.apply_unchecked(dice.choose(state.chance_outcomes()))
        else:
            state.apply_unchecked(bots[actor].choose(state, actor))
    assert isinstance(state, MidwayState)
    return teams, best, (state.score[0], state.score[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plays", type=int, default=10, help="plays per game (rulebook: 25)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--best-share", type=float, default=0.2, help="share of 'best' drafts")
    parser.add_argument("--bot", choices=("greedy", "random"), default="greedy")
    args = parser.parse_args(argv)
    chart = default_chart()

    total, with_type = count_teams()
    print(f"Legal teams (multisets of {chart.team_size}, <= {chart.max_points} points): {total:,}")
    rare = sorted(with_type.items(), key=lambda kv: kv[1])[:3]
    print("Fewest teams containing a type: " + ", ".join(f"{n} {c:,}" for n, c in rare))

    start = time.perf_counter()
    wins: dict[str, list[float]] = defaultdict(list)
    holds: dict[str, list[float]] = defaultdict(list)
    lacks: dict[str, list[float]] = defaultdict(list)
    cheap: list[float] = []
    dear: list[float] = []
    best_vs_random: list[float] = []
    for g in range(args.games):
        seed = derive_seed(args.seed, g)
        teams, best, (a, b) = play_one(seed, args.plays, args.best_share, args.bot)
        share = (1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.5, 0.5)
        for t in (0, 1):
            counts: dict[str, int] = defaultdict(int)
            for k in teams[t]:
                counts[k] += 1
            for k, n in counts.items():
                if n >= 3:
                    wins[k].append(share[t])
            for k in chart.names:
                (holds if counts.get(k) else lacks)[k].append(share[t])
            cost = sum(chart.types[k].points for k in teams[t])
            (cheap if cost <= 170 else dear).append(share[t])
            if best[t] and not best[1 - t]:
                best_vs_random.append(share[t])
    elapsed = time.perf_counter() - start
    print(f"{args.games} games of {args.plays} plays, {args.bot} bots, {elapsed:.0f} s")
    print("Win share with / without a type (n with):")
    for k in sorted(chart.names, key=lambda k: -sum(holds[k]) / max(1, len(holds[k]))):
        h, w = holds[k], lacks[k]
        if h and w:
            print(f"  {k:<13} n={len(h):>4}  {sum(h) / len(h):.2f} / {sum(w) / len(w):.2f}")
    print("Win share of teams holding 3+ of a type (n, share):")
    for k in sorted(wins, key=lambda k: -sum(wins[k]) / len(wins[k])):
        v = wins[k]
        if len(v) >= 5:
            print(f"  {k:<13} n={len(v):>4}  {sum(v) / len(v):.2f}")
    if cheap:
        print(f"Cheap teams (<= 170 points): n={len(cheap)}, share {sum(cheap) / len(cheap):.2f}")
    if dear:
        print(f"Other teams (> 170 points):  n={len(dear)}, share {sum(dear) / len(dear):.2f}")
    if best_vs_random:
        n = len(best_vs_random)
        print(f"'best' draft vs random draft: n={n}, share {sum(best_vs_random) / n:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
