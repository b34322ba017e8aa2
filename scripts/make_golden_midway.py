"""Write the Monsters of the Midway golden replays: one fixed-seed random game per preset.

Like ``scripts/make_golden.py`` (Paper Ultimate): two bots pick uniformly from
``legal_actions`` with ``random.Random(seed)``, ``SeededSampler(seed)`` rolls every die, and
the record goes to ``tests/golden/midway/<preset>.jsonl``. ``tests/test_midway_golden.py``
replays them byte for byte. Run after an intended change and review the diff; ``--check``
only reports.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from monsterball.core.dice import SeededSampler
from monsterball.core.record import Recorder
from monsterball.core.registry import get_game

GAME = "midway"
GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden" / "midway"

# preset -> (seed, option overrides): few plays and capped phases keep the files small.
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "standard": (201, {"plays": 3, "max_phases": 16}),
    "compass": (202, {"plays": 3, "max_phases": 16}),
    "short": (203, {}),
    "exhibition": (204, {}),
}
MAX_PLIES = 200_000


def golden_path(preset: str) -> Path:
    return GOLDEN_DIR / f"{preset}.jsonl"


def play_golden(preset: str) -> str:
    spec = get_game(GAME)
    seed, overrides = GAMES[preset]
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
        raise RuntimeError(f"golden game '{preset}' did not end in {MAX_PLIES} plies")
    return recorder.record.to_text()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report changes, write nothing")
    args = parser.parse_args(argv)
    spec = get_game(GAME)
    missing = sorted(set(spec.options_type.PRESETS) - set(GAMES))
    if missing:
        print(f"no golden game defined for preset(s): {', '.join(missing)}", file=sys.stderr)
        return 2
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    changed = 0
    for preset in sorted(GAMES):
        path = golden_path(preset)
        text = play_golden(preset)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        status = "same" if old == text else "new" if old is None else "changed"
        if status != "same":
            changed += 1
            if not args.check:
                path.write_bytes(text.encode("utf-8"))
        size = len(text.encode()) // 1024
        print(f"{status:>7}  {path.name}  {text.count(chr(10))} lines, {size} KB")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
