"""Where Monsters of the Midway's random playouts spend their time, per preset: CPU time
(``time.process_time``, so other processes' load counts less than in wall time) per
decision for ``legal_actions()`` and for ``apply_unchecked``, and each procedure's share.
A profiling aid next to scripts/bench.py (whose ratio against python-chess is the figure
that counts).

    python scripts/midway_profile.py [--games 3] [--preset standard --preset exhibition ...]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict

from monsterball.core.dice import SeededSampler, derive_seed
from monsterball.games import get_game


def profile(preset: str, games: int) -> None:
    spec = get_game("midway")
    clock = time.process_time
    legal_t: dict[str, float] = defaultdict(float)
    apply_t: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for g in range(games):
        state = spec.new_game(spec.options(preset))
        sampler, rng = SeededSampler(derive_seed(0, g)), random.Random(g)
        while not state.is_terminal():
            if state.is_chance():
                state.apply_unchecked(sampler.choose(state.chance_outcomes()))
                continue
            kind = type(state.stack[-1]).__name__
            t0 = clock()
            legal = state.legal_actions()
            t1 = clock()
            state.apply_unchecked(legal[rng.randrange(len(legal))])
            t2 = clock()
            legal_t[kind] += t1 - t0
            apply_t[kind] += t2 - t1
            count[kind] += 1
    n = sum(count.values())
    total = sum(legal_t.values()) + sum(apply_t.values())
    print(
        f"{preset:<11} {n:>7,} decisions: legal {sum(legal_t.values()) / n * 1e6:5.1f} us, "
        f"apply {sum(apply_t.values()) / n * 1e6:5.1f} us per decision (CPU time)"
    )
    for kind in sorted(count, key=lambda k: -(legal_t[k] + apply_t[k]))[:4]:
        share = (legal_t[kind] + apply_t[kind]) / total
        print(
            f"    {kind:<12} {share:6.1%} of the time, {count[kind]:>7,} decisions, "
            f"legal {legal_t[kind] / count[kind] * 1e6:6.1f} us, "
            f"apply {apply_t[kind] / count[kind] * 1e6:5.1f} us"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3, help="random games per preset")
    parser.add_argument("--preset", action="append", help="only this preset (repeatable)")
    args = parser.parse_args(argv)
    options = get_game("midway").options_type
    presets = args.preset or list(options.PRESETS)
    for preset in presets:
        profile(preset, args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
