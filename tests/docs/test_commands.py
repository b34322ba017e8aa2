"""Every `monsterball` command shown in a ```sh block of README.md or docs/ runs, so the
documentation cannot drift from the program.

Commands run in document order in one temporary directory per document (a later line may
read what an earlier one wrote, e.g. `replay game.jsonl`), in-process, with the sizes cut
down (`-n`/`--games` to 1, search budgets to 10 iterations, one job) so the whole file takes
seconds. Interactive `play` lines get `quit` on stdin. Lines that are not `monsterball`
commands are listed in SKIPPED with the reason; an unknown one fails the test. A block whose
first line is `# run by tests/...` is a recipe that the named test runs whole.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from monsterball.cli import app
from tests.helpers import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

SKIPPED = {
    "make serve": "serves the web app until stopped (the web tests start the server)",
    "make test": "runs the whole test suite",
    "ray start": "starts a Ray cluster (the Ray path is tested on a local instance)",
    "pip install .": "installs the package (tests/test_packaging.py installs the built wheel)",
    "PYTHONPATH=src python examples/openspiel_mcts.py": "tests/rl/test_envs.py plays it (capped)",
    "PYTHONPATH=src nice python examples/train_paper_ultimate.py": (
        "a 20-minute training run; tests/rl/test_envs.py runs its smoke test"
    ),
}


def shell_commands(path: Path) -> list[str]:
    lines, inside, first = [], False, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = first = line.strip() in ("```sh", "```bash", "```shell")
            continue
        if first and line.startswith("# run by tests/"):  # a recipe another test runs whole
            inside = False
        first = False
        if inside and line.strip() and not line.lstrip().startswith("#"):
            if lines and lines[-1].endswith("\\"):  # a command continued on this line
                lines[-1] = lines[-1][:-1].rstrip() + " " + line.strip()
            else:
                lines.append(line.strip())
    return lines


def shrink(args: list[str]) -> list[str]:
    out = []
    for i, arg in enumerate(args):
        previous = args[i - 1] if i else ""
        if previous in ("-n", "--games", "--max-games"):
            arg = "1" if previous != "--max-games" else "2"
        elif previous == "--jobs":
            arg = "1"
        elif previous == "--until-ci":
            arg = "0.9"
        arg = re.sub(r"mcts:\d+", "mcts:10", arg)
        out.append(arg)
    if out and out[0] in ("simulate", "match") and "--jobs" not in out and "--ray" not in out:
        out += ["--jobs", "1"]  # starting worker processes costs more than two games
    return out


def cases() -> list[tuple[Path, list[str]]]:
    return [(doc, shell_commands(doc)) for doc in DOCS if shell_commands(doc)]


@pytest.mark.slow  # about 30 s of games on an idle machine
@pytest.mark.parametrize(
    ("doc", "commands"), cases(), ids=[str(d.relative_to(ROOT)) for d, _ in cases()]
)
def test_documented_commands_run(
    doc: Path, commands: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # match's results file
    ran = skipped = 0
    for line in commands:
        text = line.split("  #")[0].strip()
        if any(text.startswith(prefix) for prefix in SKIPPED):
            skipped += 1
            continue
        words = shlex.split(text)
        assert words[0] in (".venv/bin/monsterball", "monsterball"), (
            f"{doc.name}: '{line}' is neither a monsterball command nor in SKIPPED"
        )
        args = shrink(words[1:])
        stdin = "quit\n" if args[0] == "play" else None
        result = CliRunner().invoke(app, args, input=stdin, env={"COLUMNS": "160"})
        output = result.output
        assert "Traceback" not in output, f"{line}\n{output}"
        if "--ray" in args and args[args.index("--ray") + 1] != "local":
            # No cluster in CI: the documented one-line error, not a traceback.
            assert result.exit_code == 2, output
            assert "Ray" in output and len(output.strip().splitlines()) <= 3, output
        else:
            assert result.exit_code == 0, f"{doc.name}: {line}\n{output}"
        ran += 1
    assert ran + skipped == len(commands) > 0
