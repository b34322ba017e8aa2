"""The package build (setup.py + pyproject): a wheel built from the source distribution, as
``python -m build`` makes it, installs into a fresh virtualenv and runs the compiled kernels;
it carries the rules documents, the web app's files and ``py.typed``. And the editable
install of ``make setup`` runs the compiled kernels wherever there is a C compiler.

The fresh virtualenv gets the wheel alone (``--no-deps``) and sees the dev environment's
installed dependencies through a path file added after the install, so the test builds and
installs only monsterball (about a minute, most of it the C compiler).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import monsterball
from tests.helpers import ROOT

HAS_COMPILER = bool(shutil.which("cc") or shutil.which("gcc"))


def _run(*args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.skipif(not HAS_COMPILER, reason="no C compiler: the pure-Python engine runs")
def test_the_editable_install_runs_the_compiled_kernels() -> None:
    """make setup's install (pip install -e) compiled both kernels: nothing is left to a
    separate build step, and ``monsterball.fast`` agrees with the engine itself."""
    if os.environ.get("MONSTERBALL_PURE"):
        pytest.skip("MONSTERBALL_PURE is set")
    assert monsterball.kernels() == {
        "monsterball.core._fastgeo": True,
        "monsterball.games.midway._fastmw": True,
    }
    assert monsterball.fast is True


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clean copy of the tracked files, as a fresh clone has them (no built kernels)."""
    src = tmp_path_factory.mktemp("src") / "monsterball"
    files = _run("git", "ls-files", "-z", cwd=ROOT).split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    return src


def _build(source: Path, out: Path, env: dict[str, str] | None = None) -> tuple[Path, str]:
    """``python -m build`` (the sdist, then the wheel from it) with this environment's
    setuptools and Cython (the build requirements): the wheel and what the build said."""
    said = _run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, source, env=env)
    (built,) = out.glob("monsterball-*.whl")
    return built, said


@pytest.fixture(scope="module")
def wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build(source, tmp_path_factory.mktemp("dist"))[0]


@pytest.mark.slow  # a build without a compiler: cythonize and package, about 10 s
def test_without_a_c_compiler_the_build_says_so_once_and_still_builds(
    source: Path, tmp_path: Path
) -> None:
    env = {**os.environ, "CC": str(tmp_path / "no-such-cc")}
    built, said = _build(source, tmp_path, env)
    assert said.count("monsterball: compiled kernels not built") == 1, said
    names = zipfile.ZipFile(built).namelist()
    assert not [n for n in names if n.endswith(".so")]
    assert "monsterball/rules_docs/monsters-of-the-midway.md" in names


@pytest.mark.slow  # the wheel build compiles both kernels: 20 - 60 s
def test_the_wheel_holds_the_kernels_the_rules_and_the_web_files(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for kernel in ("monsterball/core/_fastgeo", "monsterball/games/midway/_fastmw"):
        assert kernel + suffix in names
    for doc in ("huck-monster.md", "paper-ultimate.md", "monsters-of-the-midway.md"):
        assert f"monsterball/rules_docs/{doc}" in names
    assert "monsterball/py.typed" in names
    assert "monsterball/web/static/app.js" in names
    assert "monsterball/games/midway/data/draft_chart.json" in names
    assert not [n for n in names if n.endswith(".c")]  # generated C stays out


@pytest.mark.slow
def test_the_wheel_installs_into_a_fresh_virtualenv_and_runs_compiled(
    wheel: Path, tmp_path: Path
) -> None:
    if not HAS_COMPILER:
        pytest.skip("no C compiler: the wheel holds no kernels")
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel)
    # The dependencies from the dev environment, after the wheel's own directory on the path.
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = Path(_run(python, "-c", where).strip())
    (site / "dev_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("MONSTERBALL_PURE", "PYTHONPATH")}
    probe = (
        "import monsterball, monsterball.core.geometry as g\n"
        "from monsterball.guides.rulebooks import rules_document\n"
        "game = monsterball.new_game('midway', preset='short', seed=1)\n"
        "game.play(monsterball.bots.make('random'))\n"
        "print(g.__file__, monsterball.fast, monsterball.kernels(),"
        " rules_document('midway') is not None, game.ply, game.state.state_hash())\n"
    )
    where, fast, *rest = _run(python, "-c", probe, cwd=tmp_path, env=env).split(" ", 2)
    assert where.startswith(str(site))  # the installed wheel, not the source tree
    assert fast == "True"
    assert "'monsterball.games.midway._fastmw': True" in rest[0]
    # The same game, move for move, as the source tree plays it here.
    here = monsterball.new_game("midway", preset="short", seed=1)
    here.play(monsterball.bots.make("random"))
    assert rest[0].split()[-3:] == ["True", str(here.ply), here.state.state_hash()]
    version = _run(venv / "bin" / "monsterball", "--version", cwd=tmp_path, env=env)
    assert version.strip() == f"monsterball {monsterball.__version__}, compiled kernels"
    pure = _run(python, "-c", probe, cwd=tmp_path, env={**env, "MONSTERBALL_PURE": "1"})
    assert pure.split(" ", 2)[1] == "False"
