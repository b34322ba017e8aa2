"""The documentation site (docs/conf.py, `make docs`): it builds offline with warnings as
errors, its API reference covers every public name, and every Python example on it, in
the README and in the public modules' docstrings runs as a doctest.

Examples are ```pycon blocks (Markdown) or ``>>>`` lines (docstrings); the blocks of one
page share one namespace, in page order, as a reader would type them.
"""

from __future__ import annotations

import doctest
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import pytest

import monsterball
import monsterball.api
import monsterball.bots.registry
from tests.helpers import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
MODULES: list[ModuleType] = [monsterball, monsterball.api, monsterball.bots.registry]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def pycon_blocks(text: str) -> list[tuple[int, str]]:
    """(first line number, source) of each ```pycon block."""
    blocks, inside, start, lines = [], False, 0, []
    for number, line in enumerate(text.splitlines(), 1):
        if not inside and line.strip() == "```pycon":
            inside, start, lines = True, number, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append((start, "\n".join(lines) + "\n"))
        elif inside:
            lines.append(line)
    return blocks


def pages_with_examples() -> list[Path]:
    return [page for page in PAGES if pycon_blocks(page.read_text(encoding="utf-8"))]


def _run(tests: list[doctest.DocTest]) -> None:
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs: dict[str, object] = {}
    for test in tests:
        test.globs = globs  # one namespace per page, as a reader types the examples
        runner.run(test, clear_globs=False)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0, f"{results.failed} example(s) failed (see the output above)"


@pytest.mark.parametrize(
    "page", pages_with_examples(), ids=[str(p.relative_to(ROOT)) for p in pages_with_examples()]
)
def test_page_examples_run(page: Path) -> None:
    parser = doctest.DocTestParser()
    name = str(page.relative_to(ROOT))
    text = page.read_text(encoding="utf-8")
    _run(
        [
            parser.get_doctest(src, {}, f"{name}:{line}", name, line)
            for line, src in pycon_blocks(text)
        ]
    )


def test_the_site_and_the_readme_have_examples() -> None:
    wanted = {"README.md", "docs/api.md", "docs/guide/designers.md", "docs/guide/researchers.md"}
    assert wanted <= {str(p.relative_to(ROOT)) for p in pages_with_examples()}


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_docstring_examples_run(module: ModuleType) -> None:
    finder = doctest.DocTestFinder()
    tests = [t for t in finder.find(module, module.__name__) if t.examples]
    _run(tests)


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for key, value in attrs if key == "id" and value)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    sphinx = Path(sys.executable).with_name("sphinx-build")
    done = subprocess.run(
        [str(sphinx), "-W", "--keep-going", "-q", "-b", "html", "docs", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.mark.slow
def test_the_site_builds_with_every_page(site: Path) -> None:
    for page in ("index", "guide/players", "guide/designers", "guide/researchers", "api"):
        assert (site / f"{page}.html").is_file(), page
    for page in ("rules/huck-monster", "rules/paper-ultimate", "record-format", "benchmarks"):
        assert (site / f"{page}.html").is_file(), page


def test_the_api_reference_covers_every_public_name(site: Path) -> None:
    parser = _Ids()
    parser.feed((site / "reference" / "api.html").read_text(encoding="utf-8"))
    # Sphinx anchors an object at its dotted name, a module at "module-" + its name.
    documented = {
        i.removeprefix("module-").removeprefix("monsterball.")
        for i in parser.ids
        if i.removeprefix("module-").startswith("monsterball.")
    }
    missing = sorted(set(monsterball.__all__) - documented)
    assert missing == [], f"public names without a reference entry: {missing}"
    wanted = {"Game.apply", "Game.roll", "GameState.legal_actions", "bots.make", "lab.sweep"}
    assert wanted <= documented
