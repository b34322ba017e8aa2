"""Rebuild the compiled kernels in place after editing a ``.pyx`` (``make fast`` runs this).

The package build itself compiles them (setup.py, the one list of kernels): a wheel, ``pip
install .`` and ``make setup``'s editable install all do. This is the quick rebuild of an
editable install, where editing a kernel does not re-run the install. Needs Cython (the
``dev`` extra) and a C compiler; without them it says so and the pure-Python kernels run,
which give the same results (tests/core/test_fast_paths.py); ``MONSTERBALL_PURE=1`` forces them.

    python scripts/build_fast.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    build = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
    built = subprocess.run([*build, "--build-temp", "build/fastgeo"], cwd=ROOT, check=False)
    if built.returncode != 0:
        print("compiled kernels not rebuilt (see above); the pure-Python ones will be used")
        return built.returncode
    check = "import monsterball, sys; print(monsterball.kernels()); sys.exit(not monsterball.fast)"
    return subprocess.run([sys.executable, "-c", check], cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
