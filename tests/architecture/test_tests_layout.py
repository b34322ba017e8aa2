"""The tests mirror the source (docs/architecture.md, "Tests mirror the source"): every folder
under ``tests/`` is the folder of the same path under ``src/monsterball/`` whose code its tests
exercise (``tests/web/live/`` tests ``web/live/``, ``tests/games/midway/`` tests
``games/midway/``), unless it is one of the few folders below that test no one source folder,
each with its reason. A test of a new sub-package goes in its mirror folder, so a reader finds
the tests of a module where the module is, and a folder nobody mirrors shows up here.

The folders are packages (``from tests.helpers.web import ...``, ``from tests.web.api.test_api
import tokens``), so two test files of the same name in different folders never collide.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import ROOT, TESTS

SRC = ROOT / "src" / "monsterball"

# Folders of tests/ that mirror no folder of src/monsterball/, and why. Everything under one of
# them is exempt too.
NOT_MIRRORED = {
    "architecture": "rules about the whole source tree (layers, the game contract, this rule)",
    "docs": "the documentation: its commands, examples and pages",
    "scripts": "the maintainer's scripts under scripts/, not the package",
    "helpers": "what the tests share: scenario builders, the web, browser and terminal harnesses",
    "golden": "data: the golden records tests/games/test_golden.py replays",
    "js": "the browser client's unit tests, run by Node (`make js`), not pytest",
    "games/toygame": "a test-only game that plugs in from outside (tests/games/test_toygame.py)",
}


def folders() -> list[Path]:
    """Every folder under tests/, as a path relative to it (caches left out)."""
    return sorted(
        p.relative_to(TESTS)
        for p in TESTS.rglob("*")
        if p.is_dir() and "__pycache__" not in p.parts and not p.name.startswith(".")
    )


def exempt(folder: Path) -> bool:
    return any(folder == Path(n) or Path(n) in folder.parents for n in NOT_MIRRORED)


def test_every_test_folder_mirrors_a_source_folder():
    unmirrored = [
        f"tests/{folder}/ has no src/monsterball/{folder}/"
        for folder in folders()
        if not exempt(folder) and not (SRC / folder).is_dir()
    ]
    assert not unmirrored, (
        "move these tests to the folder of the source they test, or list the folder in "
        "NOT_MIRRORED with its reason:\n" + "\n".join(unmirrored)
    )


def test_the_exemptions_are_folders_that_mirror_nothing():
    for name, reason in NOT_MIRRORED.items():
        assert (TESTS / name).is_dir(), f"tests/{name}/ is gone: drop it from NOT_MIRRORED"
        assert not (SRC / name).is_dir(), (
            f"src/monsterball/{name}/ exists, so tests/{name}/ mirrors it ({reason!r} is stale)"
        )


def test_every_folder_of_python_tests_is_a_package():
    """Without ``__init__.py`` pytest imports a test by its file name alone, and
    ``tests/web/live/test_x.py`` would collide with any other ``test_x.py``."""
    missing = [
        f"tests/{folder}/__init__.py"
        for folder in [Path("."), *folders()]
        if any((TESTS / folder).glob("*.py")) and not (TESTS / folder / "__init__.py").is_file()
    ]
    assert not missing, "add: " + ", ".join(missing)
