"""The golden replays: one fixed-seed random game per preset of every game, their seeds and
caps (``GAMES``), and the generator that writes them.

Each game is played by two bots that pick uniformly from ``legal_actions`` with
``random.Random(seed)``, with every chance event rolled by ``SeededSampler(seed)``, and kept as
a record (``core.record.Recorder``) in ``tests/golden/<game>.<preset>.jsonl``.
``tests/games/test_golden.py`` replays the same games in-process and compares them byte for byte, so
any change in behaviour, notation or record format shows up as a diff to review.

Run ``make golden`` (``python -m tests.helpers.golden`` from the repository) after an
intended change, and read the diff before committing. ``--check`` only reports which files
would change.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from monsterball.core.dice import SeededSampler
from monsterball.core.record import Recorder
from monsterball.games import all_games, get_game
from tests.helpers import TESTS

GOLDEN_DIR = TESTS / "golden"

# (game, preset) -> (seed, option overrides). Caps keep the long games small on disk.
GAMES: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {
    ("paper-ultimate", "standard"): (101, {"max_throws": 60}),
    ("paper-ultimate", "no-monster"): (102, {"max_throws": 60}),
    ("paper-ultimate", "coins"): (103, {"max_throws": 60}),
    ("paper-ultimate", "quick"): (104, {"max_throws": 60}),
    ("paper-ultimate", "open-field"): (105, {"max_throws": 60}),
    ("paper-ultimate", "small"): (106, {}),
    ("huck-monster", "starting-7"): (201, {"max_up_calls": 40}),
    ("huck-monster", "scrimmage"): (202, {"max_up_calls": 40}),
    ("huck-monster", "basic"): (203, {"max_up_calls": 40}),
    ("huck-monster", "straight-throws"): (204, {"max_up_calls": 40}),
    ("huck-monster", "square-field"): (205, {"max_up_calls": 40}),
    ("huck-monster", "small"): (206, {}),
    ("huck-monster", "pro"): (207, {"max_up_calls": 40}),
    ("huck-monster", "midnight-pickup"): (208, {"max_up_calls": 40}),
    ("huck-monster", "emergency-pickup"): (209, {"max_up_calls": 40}),
    ("huck-monster", "game-disc"): (210, {"max_up_calls": 40}),
    ("huck-monster", "all-stars"): (211, {"max_up_calls": 40}),
    ("huck-monster", "pothole"): (212, {"max_up_calls": 40}),
    ("huck-monster", "hot-hex"): (213, {"max_up_calls": 40}),
    ("huck-monster", "pro-continue"): (214, {"max_up_calls": 40}),
    ("huck-monster", "cone-push"): (215, {"max_up_calls": 40}),
    # Midway: few plays and capped phases keep the files small.
    ("midway", "standard"): (201, {"plays": 3, "max_phases": 16}),
    ("midway", "compass"): (202, {"plays": 3, "max_phases": 16}),
    ("midway", "short"): (203, {}),
    ("midway", "exhibition"): (204, {}),
    ("midway", "match"): (205, {"plays": 3}),
}
MAX_PLIES = 200_000


def all_presets() -> list[tuple[str, str]]:
    return [(spec.id, preset) for spec in all_games() for preset in spec.options_type.PRESETS]


def golden_path(key: tuple[str, str]) -> Path:
    game, preset = key
    return GOLDEN_DIR / f"{game}.{preset}.jsonl"


def play_golden(key: tuple[str, str]) -> str:
    """The record text of the golden game for ``(game, preset)``."""
    game, preset = key
    spec = get_game(game)
    seed, overrides = GAMES[key]
    state = spec.new_game(spec.options(preset, **overrides))
    recorder = Recorder(state, seed=seed, players={"A": "random", "B": "random"})
    bot = random.Random(seed)
    dice = SeededSampler(seed)
    for _ in range(MAX_PLIES):
        if state.is_terminal():
            break
        if state.is_chance():
            recorder.apply(dice.choose(state.chance_outcomes()))
        else:
            recorder.apply(bot.choice(state.legal_actions()))
    else:
        raise RuntimeError(f"golden game {key} did not end in {MAX_PLIES} plies")
    return recorder.record.to_text()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report changes, write nothing")
    args = parser.parse_args(argv)
    missing = sorted(set(all_presets()) - set(GAMES))
    if missing:
        print(f"no golden game defined for: {missing}", file=sys.stderr)
        return 2
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    changed = 0
    for key in sorted(GAMES):
        path = golden_path(key)
        text = play_golden(key)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        status = "same" if old == text else "new" if old is None else "changed"
        if status != "same":
            changed += 1
            if not args.check:
                path.write_bytes(text.encode("utf-8"))
        lines = text.count("\n")
        print(f"{status:>7}  {path.name}  {lines} lines, {len(text.encode()) // 1024} KB")
    if args.check:
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
