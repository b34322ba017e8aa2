"""Issue 35 item 13: ``--version`` and Tab completion start without the games or the web
stack (their speed is measured by scripts/bench_startup.py, docs/benchmarks.md), and the
completion offers game names, presets and bots, not file names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from monsterball.cli import completion
from monsterball.games import all_games

HEAVY = ("fastapi", "uvicorn", "sqlalchemy", "textual", "monsterball.games", "monsterball.web")
PROBE = (
    "import os, sys\n"
    "from monsterball.cli import main\n"
    "sys.argv = ['monsterball', *sys.argv[1:]]\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    f"print('HEAVY', [m for m in {HEAVY!r} if m in sys.modules])\n"
)


def run(*args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    return done.stdout


def complete(words: str) -> list[str]:
    cword = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    out = run(env={"_MONSTERBALL_COMPLETE": "complete_bash", "COMP_WORDS": words,
                   "COMP_CWORD": cword})  # fmt: skip
    assert "HEAVY []" in out, out
    return [line for line in out.splitlines() if line and not line.startswith("HEAVY")]


def test_version_imports_neither_the_games_nor_the_web_stack() -> None:
    out = run("--version")
    assert out.startswith("monsterball ") and "HEAVY []" in out, out


@pytest.mark.slow
def test_tab_completes_games_presets_and_bots(tmp_path: Path) -> None:
    (tmp_path / "pu-notes.txt").write_text("", encoding="utf-8")
    assert complete("monsterball play p") == ["paper-ultimate", "pu", "paper"]
    assert complete("monsterball simulate hm --preset s") == [
        "starting-7", "scrimmage", "straight-throws", "square-field", "small",
    ]  # fmt: skip
    assert "exhibition" in complete("monsterball play midway --preset ")
    assert complete("monsterball play pu --bot h") == ["heuristic", "hard"]


def test_the_completion_tables_are_the_registry() -> None:
    """completion.GAMES is read from games/names.json (importing the games would cost the
    start-up); it must name every game, alias and preset the registry has, in its order."""
    from monsterball.bots.registry import DIFFICULTIES
    from monsterball.cli.play import DIFFICULTIES as PLAY_DIFFICULTIES

    assert {
        spec.id: (tuple(spec.aliases), tuple(spec.options_type.PRESETS)) for spec in all_games()
    } == completion.GAMES
    assert PLAY_DIFFICULTIES == DIFFICULTIES


@pytest.mark.parametrize("name", ["hm", "Huck_Monster", "motm", "PU"])
def test_completion_knows_the_registry_names(name: str) -> None:
    from monsterball.games import get_game

    assert completion.game_id(name) == get_game(name).id
