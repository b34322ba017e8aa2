"""Fuzz every game x preset: random legal play with invariant checks after every action,
then mutation fuzzers that feed broken records, positions, notation and options to the
readers and require a clean error.

The harness is the package monsterball.lab.fuzz (its docstring lists every check; the
ledger's format is in monsterball.lab.fuzz.ledger); this script is its command line.

    python scripts/fuzz.py [--actions 2000] [--seconds S] [--game G] [--preset P]
                           [--seed 0] [--mutations 50] [--jobs 1] [--json FILE]
    python scripts/fuzz.py --repro KIND:GAME:PRESET:SEED     # rerun one case, traceback
    python scripts/fuzz.py --ledger scripts/ledgers/fuzz.json --seed next [--chunks N]
                           [--skip-done] [--stop-file F]  # a campaign, in chunks
    python scripts/fuzz.py --ledger scripts/ledgers/fuzz.json --report   # its totals (markdown)

Exit status 1 when a failure is found that is not on the KNOWN allow-list
(monsterball.lab.fuzz.play).
"""

from __future__ import annotations

import sys
from pathlib import Path

from monsterball.lab.fuzz.cli import main

if __name__ == "__main__":
    sys.exit(main(root=Path(__file__).resolve().parent.parent))
