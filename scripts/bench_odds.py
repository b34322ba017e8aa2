"""Exact-odds speed: mean time of one `odds.catch_probability` over every combination of
bidders a team of 7 can put up (204), without strategy dice and with each pair of strategy
dice (offense: throw or catch; defense: mark, intercept, catch-mark or challenge).

Reported in CPU time of this process (``time.process_time``), which a busy machine affects
less than the wall clock; the first pass builds the matchup tables and the phases' caches
(cold: later combinations reuse the throw or catch phase of earlier ones), the second finds
them built (warm). "isolated" clears the per-setup caches before every query (the rule
tables, which depend only on the dice faces, stay built): one query on its own.

    python scripts/bench_odds.py [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from monsterball.games.huck_monster.analysis.odds import (
    UpCallSetup,
    catch_probability,
    clear_setup_caches,
)


def bidders() -> list[dict[str, Any]]:
    out = []
    for mark in (False, True):
        for intercepts in range(8):
            for catch_marks in range(8):
                for challenges in range(8):
                    if mark + intercepts + catch_marks + challenges <= 7:
                        out.append(
                            {
                                "mark": mark,
                                "intercepts": intercepts,
                                "catch_marks": catch_marks,
                                "challenges": challenges,
                            }
                        )
    return out


def mean_ms(extras: list[dict[str, Any]], *, isolated: bool = False) -> float:
    combos = bidders()
    start = time.process_time()
    for extra in extras:
        for who in combos:
            if isolated:
                clear_setup_caches()
            catch_probability(UpCallSetup(**who, **extra))
    return (time.process_time() - start) / (len(combos) * len(extras)) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    plain = [{}]
    strategy = [
        {"offense_strategy": o, "defense_strategy": d}
        for o in ("throw", "catch")
        for d in ("mark", "intercept", "catch-mark", "challenge")
    ]
    rows = {}
    for label, extras in (("no strategy dice", plain), ("strategy dice", strategy)):
        clear_setup_caches()
        cold, warm = mean_ms(extras), mean_ms(extras)
        alone = mean_ms(extras, isolated=True)
        rows[label] = {
            "cold_ms": cold,
            "warm_ms": warm,
            "isolated_ms": alone,
            "matchups": 204 * len(extras),
        }
        print(
            f"{label:<17} {cold:8.2f} ms per matchup cold, {warm:8.2f} ms warm,"
            f" {alone:8.2f} ms isolated (CPU time)"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
