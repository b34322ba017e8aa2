"""The printed table of a chunk and its JSON summary (``--json``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from typing import Any

from monsterball.games import get_game
from monsterball.lab.fuzz.play import Failure, Tally


def signature(failure: Failure) -> str:
    text = failure.message
    for digit in "0123456789":
        text = text.replace(digit, "#")
    return f"{failure.kind} {failure.game} {text[:120]}"


def report(tallies: list[Tally], elapsed: float) -> dict[str, Any]:
    failures = [f for t in tallies for f in t.failures]
    real = [f for f in failures if not f.known]
    print(
        f"{'game':14} {'preset':18} {'actions':>9} {'games':>6} {'act/s':>7} "
        f"{'plain/s':>8} {'ratio':>7} {'fail':>5}"
    )
    for t in tallies:
        rate = t.actions / t.seconds if t.seconds else 0.0
        ratio = f"{rate / t.plain_rate:7.4f}" if t.plain_rate else f"{'-':>7}"
        bad = sum(1 for f in t.failures if not f.known)
        print(
            f"{t.game:14} {t.preset:18} {t.actions:9d} {t.games:6d} {rate:7.0f} "
            f"{t.plain_rate:8.0f} {ratio} {bad:5d}"
        )
    actions = sum(t.actions for t in tallies)
    games = sum(t.games for t in tallies)
    mutations = sum(sum(t.mutations.values()) for t in tallies)
    print(f"total: {actions} actions, {games} games, {mutations} mutation cases, {elapsed:.0f} s")
    hidden: dict[str, Counter[str]] = {}  # twins compared, by game (its checks' label)
    for t in tallies:
        if t.hidden:
            hidden.setdefault(t.game, Counter()).update(t.hidden)
    for game, counts in hidden.items():
        hooks = get_game(game).checks
        label = hooks.label if hooks is not None else "hidden-information twins compared"
        print(f"{label}: " + ", ".join(f"{what} {n}" for what, n in sorted(counts.items())))
    by_kind = Counter(f.kind for f in real)
    print(
        "failures by kind: " + (", ".join(f"{k} {n}" for k, n in sorted(by_kind.items())) or "none")
    )
    groups: dict[str, list[Failure]] = {}
    for failure in failures:
        groups.setdefault(signature(failure), []).append(failure)
    for group in groups.values():
        first = group[0]
        label = f"KNOWN ({first.known})" if first.known else "FAIL"
        print(f"{label} x{len(group)} [{first.kind}] {first.game}/{first.preset}: {first.message}")
        for failure in group[:3]:
            print(f"    {failure.reproducer}")
    return {
        "elapsed_seconds": elapsed,
        "actions": actions,
        "games": games,
        "mutation_cases": mutations,
        "failures_by_kind": dict(by_kind),
        "known": sum(1 for f in failures if f.known),
        "per_preset": [
            {
                "game": t.game,
                "preset": t.preset,
                "actions": t.actions,
                "games": t.games,
                "seconds": t.seconds,
                "actions_per_second": t.actions / t.seconds if t.seconds else 0.0,
                "plain_actions_per_second": t.plain_rate,
                "mutations": dict(t.mutations),
                "hidden_twins": dict(t.hidden),
            }
            for t in tallies
        ],
        "failures": [{**asdict(f), "reproducer": f.reproducer} for f in failures],
    }
