"""The package build's compiled parts; everything else about the package is in pyproject.toml.

The Cython kernels (core/_fastgeo.pyx, games/midway/_fastmw.pyx, both including the shared
C header core/_bitwords.h declared in core/_bitwords.pxd) are built by every install: a wheel
(``python -m build``), ``pip install .`` and the editable install of ``make setup`` (which
places them next to their sources). Without a C compiler (or without Cython, in a build that
does not install the build requirements) the build says so once and the package is still
built: the engine then runs its pure-Python kernels, which give identical results
(tests/core/test_fast_paths.py). ``monsterball --version`` and ``monsterball.fast`` tell which runs.

The rules documents (docs/rules/*.md) ship inside the package as ``monsterball/rules_docs``:
``monsterball rules GAME --text`` and the web app's "How to play" pages read them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "monsterball"
# Built module -> its Cython source (relative to ROOT).
KERNELS = {
    "monsterball.core._fastgeo": "src/monsterball/core/_fastgeo.pyx",
    "monsterball.games.midway._fastmw": "src/monsterball/games/midway/_fastmw.pyx",
}
# Build products and caches that must never be packaged as data.
NOT_DATA = {".py", ".pyc", ".c", ".so", ".pyd", ".o"}
FALLBACK_NOTE = "monsterball: compiled kernels not built ({why}); the pure-Python engine will run"


def extensions() -> list[Extension]:
    """The compiled kernels, cythonized; [] (after one note) when Cython is missing."""
    try:
        from Cython.Build import cythonize
    except ImportError as exc:
        print(FALLBACK_NOTE.format(why=f"no Cython: {exc}"))
        return []
    shared = {"extra_compile_args": ["-O3"], "include_dirs": ["src/monsterball/core"]}
    exts = [Extension(name, [source], **shared) for name, source in KERNELS.items()]
    return list(
        cythonize(
            exts,
            quiet=True,
            include_path=["src"],
            compiler_directives={"language_level": 3},
        )
    )


class OptionalBuildExt(build_ext):
    """Builds the kernels; if the C compiler is missing or fails, says so once and carries on
    (the package works without them)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler (CompileError, PlatformError, OSError, ...)
            self._give_up(exc)

    def build_extension(self, ext: Extension) -> None:
        if getattr(self, "_gave_up", False):
            return
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._give_up(exc)

    def _give_up(self, exc: BaseException) -> None:
        if not getattr(self, "_gave_up", False):
            self._gave_up = True
            print(FALLBACK_NOTE.format(why=f"{type(exc).__name__}: {exc}"))

    def copy_extensions_to_source(self) -> None:
        if not getattr(self, "_gave_up", False):
            super().copy_extensions_to_source()


class BuildPyWithRules(build_py):
    """Copies docs/rules/*.md into the built package as monsterball/rules_docs/ (an editable
    install reads docs/rules/ in place: monsterball.guides.rulebooks)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "monsterball" / "rules_docs"
        target.mkdir(parents=True, exist_ok=True)
        for doc in sorted((ROOT / "docs" / "rules").glob("*.md")):
            shutil.copyfile(doc, target / doc.name)


def package_data() -> dict[str, list[str]]:
    """Every file under src/monsterball that is not code or a build product (the web app's
    static files and migrations' template, game data, the kernels' sources, py.typed), so a
    file someone adds ships without editing a list."""
    files = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and path.suffix not in NOT_DATA and "__pycache__" not in path.parts
    ]
    return {"monsterball": sorted(files)}


if __name__ == "__main__":  # setuptools' build backend runs this file as __main__
    setup(
        ext_modules=extensions(),
        package_data=package_data(),
        cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithRules},
    )
