"""Issue 38, "One game contract": everything the layers above need from a game is declared on
its ``SPEC`` (core/contract.py), so no file outside ``src/monsterball/games/`` names a game:
no game id or alias as a string, no import of a game's modules. tests/games/test_toygame.py proves
the other half: a game nobody above knows plays through the CLI, the web API, the RL
environments and the lab."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import monsterball
from monsterball.core.contract import BotHooks
from monsterball.games import all_games

SRC = Path(monsterball.__file__).resolve().parent  # wherever this test file lives
GAMES = SRC / "games"

# Files outside games/ that may still name a game, each with why. Keep it empty where you can.
ALLOWED: dict[str, str] = {}


def _packages() -> set[str]:
    """The game packages' own names (``huck_monster``), from the registry."""
    return {spec.state_type.__module__.split(".")[2] for spec in all_games()}


def _names() -> set[str]:
    """Every registered game's id, alias and package name."""
    names = {name for spec in all_games() for name in (spec.id, *spec.aliases)}
    return names | _packages()


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes (words for readers, not code that picks a game)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def leaks(path: Path, names: set[str], packages: set[str]) -> list[str]:
    """Where ``path`` names a game: a string that is a game's id, alias or package (or a
    path or module name into a game's package), or an import of a game's module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skip = _docstrings(tree)
    modules = {f"monsterball.games.{p}" for p in packages}
    inside = [*modules, *(f"games/{p}" for p in packages)]
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
            if text.strip().lower() in names or any(m in text for m in inside):
                found.append(f"{line}: the string {text!r}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(alias.name == m or alias.name.startswith(m + ".") for m in modules):
                    found.append(f"{line}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            module = node.module
            if any(module == m or module.startswith(m + ".") for m in modules):
                found.append(f"{line}: from {module} import ...")
            elif module == "monsterball.games":
                found += [f"{line}: from {module} import {a.name}" for a in node.names
                          if a.name in packages]  # fmt: skip
    return found


def test_no_file_outside_the_games_names_a_game() -> None:
    names, packages = _names(), _packages()
    assert names >= {"midway", "huck-monster", "paper-ultimate", "huck_monster"}
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if GAMES in path.parents:
            continue
        where = path.relative_to(SRC).as_posix()
        if where in ALLOWED:
            continue
        found += [f"{where}:{leak}" for leak in leaks(path, names, packages)]
    assert not found, "game knowledge outside games/ (declare it on the SPEC):\n" + "\n".join(found)


def test_the_web_client_names_no_game() -> None:
    """The browser's scripts read what a game offers from the state message's ``hooks``
    (its spec's), never by a quoted game id (comments aside)."""
    quoted = re.compile(r"""["'`]([a-z+_ -]+)["'`]""")
    found = []
    for path in sorted((SRC / "web" / "static").glob("*.js")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            hits = [m for m in quoted.findall(code) if m.strip().lower() in _names()]
            found += [f"{path.name}:{n}: {hit!r}" for hit in hits]
    assert not found, "\n".join(found)


def test_the_allow_list_names_only_files_that_still_need_it() -> None:
    names, packages = _names(), _packages()
    for where in ALLOWED:
        path = SRC / where
        assert path.is_file() and leaks(path, names, packages), f"{where}: drop it from ALLOWED"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('if spec.id != "midway":\n    pass\n', ["1: the string 'midway'"]),
        ("x = {'HM': 1, 'pu': 2}\n", ["1: the string 'HM'", "1: the string 'pu'"]),
        ("from monsterball.games.midway.rules.draft import Draft\n", ["1: from monsterball"]),
        ("import monsterball.games.huck_monster.analysis.odds\n", ["1: import monsterball"]),
        ("from monsterball.games import paper_ultimate\n", ["1: from monsterball.games"]),
        ('p = "monsterball.games.midway"\n', ["1: the string"]),
        ('"""Midway\'s draft, as ``monsterball.games.midway`` draws it."""\n', []),
        ("from monsterball.games import get_game\nget_game(name)\n", []),
    ],
)
def test_the_leak_finder_finds_each_kind_of_leak(
    tmp_path: Path, source: str, expected: list[str]
) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source)
    found = leaks(path, _names(), _packages())
    assert len(found) == len(expected)
    for leak, start in zip(found, expected, strict=True):
        assert leak.startswith(start)


def test_each_game_declares_its_hidden_information_once_and_consistently() -> None:
    """``spec.hidden_information`` is the one declaration; a game that hides something must
    let the bots sample it (``bot.determinize``), and one that hides nothing must not."""
    for spec in all_games():
        bot = spec.bot
        assert isinstance(bot, BotHooks) and bot.game == spec.id
        assert bot.hidden_information == spec.hidden_information, spec.id
        state = spec.new_game()
        seats = [None, *range(spec.num_seats)]
        if not spec.hidden_information:
            assert all(state.hidden_from(seat) == set() for seat in seats)
            boards = [state.board(seat) for seat in seats]
            assert all(b == boards[0] for b in boards), spec.id  # drawn once for every seat


def test_every_game_declares_its_documents() -> None:
    for spec in all_games():
        assert spec.docs.rules_file
        assert (SRC.parents[1] / "docs" / "rules" / spec.docs.rules_file).is_file(), spec.id
        assert spec.docs.rulebook_title
        assert spec.docs.lessons_package == spec.state_type.__module__.rsplit(".", 1)[0]


def test_the_scoreboard_and_the_offense_are_read_through_the_contract() -> None:
    """``scores()`` and ``possession()`` (the lab's possessions, the generic evaluation):
    the three games keep a score and an offense; a game without them says None."""
    import math

    from monsterball.core.contract import score_evaluate
    from monsterball.games import get_game

    state = get_game("paper-ultimate").new_game()
    assert state.scores() == (0.0, 0.0) and state.possession() == state.offense  # type: ignore[attr-defined]
    state.score = [2, 0]  # type: ignore[attr-defined]
    assert score_evaluate(state) == math.tanh(2 / 3)
    for spec in all_games():
        fresh = spec.new_game()
        assert fresh.scores() == (0.0,) * spec.num_seats and fresh.possession() in (0, 1)
