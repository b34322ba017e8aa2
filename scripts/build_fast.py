"""Build the compiled geometry kernels (src/monsterball/core/_fastgeo.pyx) in place.

Needs Cython (the ``fast`` extra, also in ``dev``) and a C compiler; ``make setup`` runs this.
Without the built module the engine uses the pure-Python kernels, which give the same
results (tests/test_fast_paths.py); ``MONSTERBALL_PURE=1`` forces them.

    python scripts/build_fast.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Games' own kernels (each used only when core/_fastgeo is, so MONSTERBALL_PURE=1 covers all).
MORE = [("monsterball.games.midway._fastmw", "src/monsterball/games/midway/_fastmw.pyx")]


def main() -> int:
    try:
        from Cython.Build import cythonize
        from setuptools import Extension, setup
    except ImportError as exc:
        print(f"compiled kernels not built ({exc}); the pure-Python ones will be used")
        return 1
    root = Path(__file__).resolve().parent.parent
    os.chdir(root)
    # Both include core/_bitwords.h (declared for Cython in core/_bitwords.pxd).
    shared = {"extra_compile_args": ["-O3"], "include_dirs": ["src/monsterball/core"]}
    exts = [
        Extension("monsterball.core._fastgeo", ["src/monsterball/core/_fastgeo.pyx"], **shared),
        *(Extension(name, [src], **shared) for name, src in MORE),
    ]
    try:
        setup(
            name="monsterball-fastgeo",
            ext_modules=cythonize(
                exts,
                quiet=True,
                include_path=["src"],
                compiler_directives={"language_level": 3},
            ),
            package_dir={"": "src"},
            script_args=["build_ext", "--inplace", "--build-temp", "build/fastgeo"],
        )
    except (Exception, SystemExit) as exc:  # no compiler, or it failed: say so, stay usable
        print(f"compiled kernels not built: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
