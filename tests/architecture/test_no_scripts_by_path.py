"""No test loads a script by path (issue 38): code a test needs lives in the package (or in
tests/helpers/), and scripts/ holds command lines over it. A test may run a script as its
users do, in a subprocess; it may not import one, load one from its file
(``importlib.util.spec_from_file_location``, ``SourceFileLoader``, ``runpy``, ``exec`` of its
text) nor put scripts/ (or any folder) on ``sys.path``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT, TESTS

SCRIPTS = ROOT / "scripts"
# Calls that load code from a file or a name outside the package's imports.
LOADERS = frozenset(
    {"spec_from_file_location", "SourceFileLoader", "run_path", "run_module", "load_source"}
)
PATH_CHANGES = frozenset({"insert", "append", "extend"})  # of sys.path
READS = frozenset({"read", "read_text", "read_bytes"})


def _dotted(node: ast.AST) -> str:
    """``a.b.c`` for a name or an attribute chain, else ""."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def loads_by_path(path: Path, scripts: set[str]) -> list[str]:
    """Where ``path`` loads code by path: ``line: what``. ``scripts``: the module names the
    scripts would have on ``sys.path`` (their file names without ``.py``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            found += [f"{line}: import {a.name}" for a in node.names if a.name in scripts]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module in scripts:
            found.append(f"{line}: from {node.module} import ...")
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            last = name.rpartition(".")[2]
            path_change = name.endswith("sys.path." + last) and last in PATH_CHANGES
            if last in LOADERS or path_change or last == "syspath_prepend":
                found.append(f"{line}: {name}(...)")
            elif name == "exec" and any(  # exec of a file's text (not of code built in the test)
                isinstance(n, ast.Attribute) and n.attr in READS
                for arg in node.args
                for n in ast.walk(arg)
            ):
                found.append(f"{line}: exec(...)")
            elif name in ("importlib.import_module", "import_module", "__import__"):
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and first.value in scripts:
                    found.append(f"{line}: {name}({first.value!r})")
        elif isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if _dotted(target) == "sys.path" or (
                    isinstance(target, ast.Subscript) and _dotted(target.value) == "sys.path"
                ):
                    found.append(f"{line}: sys.path changed")
    return found


def _scripts() -> set[str]:
    return {path.stem for path in SCRIPTS.glob("*.py")}


def test_no_test_loads_a_script_by_path() -> None:
    scripts = _scripts()
    assert {"fuzz", "midway_idle", "bench"} <= scripts
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        found += [f"{where}:{hit}" for hit in loads_by_path(path, scripts)]
    assert not found, (
        "tests that load code by path (move what they need into the package or "
        "tests/helpers/, or run the script in a subprocess):\n" + "\n".join(found)
    )


def test_pytest_puts_nothing_of_scripts_on_the_path() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    options = text.split("[tool.pytest.ini_options]", 1)[1].split("\n[", 1)[0]
    assert "pythonpath" not in options


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import fuzz\n", ["1: import fuzz"]),
        ("from fuzz_ledger import load\n", ["1: from fuzz_ledger"]),
        ("import importlib.util\nimportlib.util.spec_from_file_location('f', p)\n", ["2: imp"]),
        ("from importlib.machinery import SourceFileLoader\nSourceFileLoader('f', p)\n", ["2"]),
        ("import runpy\nrunpy.run_path('scripts/fuzz.py')\n", ["2: runpy.run_path"]),
        ("import sys\nsys.path.insert(0, 'scripts')\n", ["2: sys.path.insert"]),
        ("import sys\nsys.path.append(str(ROOT / 'scripts'))\n", ["2: sys.path.append"]),
        ("import sys\nsys.path[:0] = ['scripts']\n", ["2: sys.path changed"]),
        ("def t(monkeypatch):\n    monkeypatch.syspath_prepend('scripts')\n", ["2: monkey"]),
        ("exec(open('scripts/fuzz.py').read())\n", ["1: exec"]),
        ("import importlib\nimportlib.import_module('fuzz')\n", ["2: importlib.import_module"]),
        # Allowed: a subprocess run, code for a subprocess as text, the package's modules.
        ("import subprocess, sys\nsubprocess.run([sys.executable, 'scripts/fuzz.py'])\n", []),
        ("code = 'import sys; sys.path.insert(0, \"src\")'\n", []),
        ("from monsterball.lab.fuzz import ledger\nimport importlib\n", []),
        ("import importlib\nimportlib.import_module('monsterball.games.midway')\n", []),
        ("names = []\nnames.append('x')\nnames.insert(0, 'y')\n", []),
    ],
)
def test_the_finder_finds_each_way_of_loading_by_path(
    tmp_path: Path, source: str, expected: list[str]
) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source)
    found = loads_by_path(path, {"fuzz", "fuzz_ledger"})
    assert len(found) == len(expected), found
    for hit, start in zip(found, expected, strict=True):
        assert hit.startswith(start)
