"""A name written ``_like_this`` is private to its module (docs/architecture.md): no other
module of ``src/`` imports it (``from m import _x``) or reaches it through an imported
name (``m._x``, ``SomeClass._x``). What another module needs is made public with a name
that says what it is, or moves to the module that uses it.

The one exception is a compiled kernel, a module built from a ``.pyx`` (``core._fastgeo``,
``games.midway._fastmw``): its leading underscore marks the optional build product that
its pure-Python twin stands in for, so importing the module itself is allowed (never a
private name from it).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers import ROOT

SRC = ROOT / "src"


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def modules(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in [*root.rglob("*.py"), *root.rglob("*.pyx")]:
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def private_crossings(root: Path) -> list[str]:
    """``file:line: what`` for each private name one module takes from another."""
    mods = modules(root)
    kernels = {m for m, p in mods.items() if p.suffix == ".pyx"}
    bad: list[str] = []
    for mod, path in sorted(mods.items()):
        if path.suffix != ".py":
            continue
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        tree = ast.parse(path.read_text(), str(path))
        where = path.relative_to(root)
        imported: set[str] = set()  # local names bound to the project's modules and names

        def check_module(name: str, line: int, where: Path = where) -> None:
            parts = name.split(".")
            for i, part in enumerate(parts):
                if private(part) and ".".join(parts[: i + 1]) not in kernels:
                    bad.append(f"{where}:{line}: imports private module {name}")
                    return

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in mods:
                        check_module(alias.name, node.lineno)
                        imported.add(alias.asname or alias.name.split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                if base.split(".")[0] not in mods:
                    continue  # the standard library's or another package's business
                check_module(base, node.lineno)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    imported.add(alias.asname or alias.name)
                    if full in mods:
                        check_module(full, node.lineno)
                    elif private(alias.name) and base != mod:
                        bad.append(f"{where}:{node.lineno}: imports {alias.name} from {base}")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and private(node.attr)
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
                and f"{mod}.{node.value.id}" not in mods  # (not the module's own submodule)
            ):
                bad.append(f"{where}:{node.lineno}: reaches {node.value.id}.{node.attr}")
    return bad


def test_no_module_takes_another_modules_private_names() -> None:
    assert private_crossings(SRC) == []


def test_the_check_catches_each_way_of_crossing(tmp_path: Path) -> None:
    pkg = tmp_path / "monsterball"
    (pkg / "core").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "core" / "__init__.py").write_text("")
    (pkg / "core" / "_kernel.pyx").write_text("def f(): pass\n")
    (pkg / "core" / "_hidden.py").write_text("x = 1\n")
    (pkg / "core" / "common.py").write_text(
        "def _fail(): pass\nclass Grid:\n    _steps = ()\n_fail()\nGrid._steps\n"
    )
    (pkg / "core" / "user.py").write_text(
        "from monsterball.core.common import _fail, Grid\n"
        "from . import _kernel\n"  # allowed: a compiled kernel
        "from monsterball.core import _hidden\n"
        "import monsterball.core.common as common\n"
        "import os\n"
        "def g():\n"
        "    from .common import _fail as again\n"
        "    os._exit(0)\n"  # not the project's
        "    return Grid._steps, common._fail\n"
    )
    assert private_crossings(tmp_path) == [
        "monsterball/core/user.py:1: imports _fail from monsterball.core.common",
        "monsterball/core/user.py:3: imports private module monsterball.core._hidden",
        "monsterball/core/user.py:7: imports _fail from monsterball.core.common",
        "monsterball/core/user.py:9: reaches Grid._steps",
        "monsterball/core/user.py:9: reaches common._fail",
    ]
