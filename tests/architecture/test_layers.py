"""The layers are folders and imports flow down them (docs/architecture.md): core -> games ->
bots/records/guides/ratings -> the top (lab, rl, terminal, web; cli outermost), with no
import circle anywhere and each game's modules in layers of their own.

Every import counts: module level, inside functions (lazy) and under ``TYPE_CHECKING``.
Importing ``a.b.c`` from outside package ``a.b`` counts as importing ``a.b`` too (Python runs
the package's ``__init__`` first).
"""

from __future__ import annotations

import ast
import re
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

from tests.helpers import ROOT

SRC = ROOT / "src"

# The folders (packages) of ``monsterball`` by layer, lowest first. A module may import its
# own layer (without a circle) and the layers below, never a layer above. Every module lives
# in one of these folders but the few loose modules of LOOSE.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("settings", frozenset({"settings"})),  # the defaults everyone reads; imports nothing
    ("core", frozenset({"core"})),
    ("games", frozenset({"games"})),
    ("bots and records", frozenset({"bots", "records", "guides", "ratings"})),
    ("top", frozenset({"lab", "rl", "terminal", "web", "cli", "api", "monsterball"})),
)
# The loose modules: the public API's front, ``__init__`` (``monsterball.new_game``, ...,
# its names loaded on first use, so ``import monsterball`` alone imports none of the engine)
# and ``api`` (the Game those names come from), at the top like the package itself; and
# ``settings``, the defaults every layer reads, at the bottom (it imports nothing).
LOOSE = frozenset({"__init__", "api", "settings"})

# The command line is the outermost shell: nothing else imports it.
OUTERMOST = "cli"

# Inside the web app, its folders by layer, lowest first (docs/architecture.md, "The web
# app"); the modules at web/'s top (app.py's wiring, workers.py) sit above them all.
WEB_LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("store", frozenset({"store"})),
    ("live rooms", frozenset({"live"})),
    ("cluster and hardening", frozenset({"cluster", "hardening"})),
    ("routes", frozenset({"api"})),
)

# Inside each game, module-name patterns by layer, lowest first (the same rule as above).
GAME_LAYERS: dict[str, tuple[tuple[str, str], ...]] = {
    "huck_monster": (
        ("data", r"matchup|options|actions|events|field|throw_paths"),
        ("state", r"state"),
        ("checks and views", r"validate|views\.(render|board)"),
        ("rule steps", r"rules(\..+)?"),
        ("views and analysis", r"views(\.coaching)?|analysis(\..+)?"),
    ),
    "midway": (
        ("data: tables and chart", r"chart|options|actions|events(\..+)?"),
        ("kernels", r"_fastmw"),
        ("state and geometry", r"state|moves"),
        ("rule steps", r"rules(\..+)?"),
        ("checks, views and analysis", r"validate|(views|analysis)(\..+)?"),
    ),
    "paper_ultimate": (
        ("data", r"options|actions|events"),
        ("state", r"state"),
        ("rule steps", r"rules(\..+)?"),
        ("views and analysis", r"(views|analysis)(\..+)?"),
    ),
}


def module_names(root: Path) -> dict[str, tuple[Path, bool]]:
    mods: dict[str, tuple[Path, bool]] = {}
    # Compiled kernels (.pyx) are modules too; they import nothing of the project's.
    for path in [*root.rglob("*.py"), *root.rglob("*.pyx")]:
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        mods[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return mods


def _type_only(tree: ast.AST) -> set[int]:
    """The import statements under ``if TYPE_CHECKING:`` (annotations only, never run)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def import_graph(root: Path, *, type_only: bool = True) -> dict[str, set[str]]:
    """Module -> the modules it imports (only modules under ``root``); ``type_only=False``
    leaves out the imports made for annotations alone (a circle needs imports that run)."""
    mods = module_names(root)

    def known(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, (path, is_pkg) in mods.items():
        if path.suffix != ".py":
            continue
        package = mod if is_pkg else mod.rpartition(".")[0]
        tree = ast.parse(path.read_text(), str(path))
        skipped = set() if type_only else _type_only(tree)
        for node in ast.walk(tree):
            names: list[str] = []
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                names = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names
                ]
            for name in names:
                target = known(name)
                if target is None or target == mod:
                    continue
                graph[mod].add(target)
                parent = target.rpartition(".")[0]
                while parent:  # the packages Python imports on the way
                    if parent in mods and parent != mod and not mod.startswith(parent + "."):
                        graph[mod].add(parent)
                    parent = parent.rpartition(".")[0]
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as exc:
        return list(exc.args[1])
    return None


def layer_of(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else parts[0]
    for index, (_, members) in enumerate(LAYERS):
        if top in members:
            return index
    raise AssertionError(f"{module} is in no layer: add it to LAYERS and docs/architecture.md")


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{m} ({LAYERS[layer_of(m)][0]}) imports {t} ({LAYERS[layer_of(t)][0]})"
        for m in sorted(graph)
        for t in sorted(graph[m])
        if layer_of(t) > layer_of(m)
    ]


def game_upward_imports(graph: dict[str, set[str]], game: str) -> list[str]:
    prefix = f"monsterball.games.{game}."
    layers = GAME_LAYERS[game]

    def index(module: str) -> int:
        local = module.removeprefix(prefix)
        for i, (_, pattern) in enumerate(layers):
            if re.fullmatch(pattern, local):
                return i
        raise AssertionError(f"{module} is in none of {game}'s layers (GAME_LAYERS)")

    bad = []
    for m in sorted(graph):
        if not m.startswith(prefix):
            continue
        for t in sorted(graph[m]):
            if t.startswith(prefix) and index(t) > index(m):
                bad.append(f"{m} ({layers[index(m)][0]}) imports {t} ({layers[index(t)][0]})")
    return bad


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(SRC)


def test_no_import_circle() -> None:
    found = cycle(import_graph(SRC, type_only=False))
    assert found is None, "import circle: " + " -> ".join(found or [])


def test_imports_flow_down_the_layers(graph: dict[str, set[str]]) -> None:
    assert upward_imports(graph) == []


def test_every_module_lives_in_a_layers_folder() -> None:
    """The layers are folders: no loose module beside them but the front (LOOSE), and no
    folder outside LAYERS (a new one is placed in a layer here and in docs/architecture.md)."""
    package = SRC / "monsterball"
    loose = sorted(p.stem for p in package.glob("*.py") if p.stem not in LOOSE)
    folders = {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    placed = set().union(*(members for _, members in LAYERS))
    assert loose == [], f"loose modules (move each into its layer's folder): {loose}"
    assert sorted(folders - placed) == [], "folders in no layer: add them to LAYERS"


def test_nothing_imports_the_cli(graph: dict[str, set[str]]) -> None:
    shell = f"monsterball.{OUTERMOST}"
    users = [m for m, ts in graph.items() if not m.startswith(shell) and shell in ts]
    assert users == []


@pytest.mark.parametrize("game", sorted(GAME_LAYERS))
def test_each_game_in_layers(graph: dict[str, set[str]], game: str) -> None:
    assert game_upward_imports(graph, game) == []
    others = {g for g in GAME_LAYERS if g != game}
    prefix = f"monsterball.games.{game}"
    crossing = [
        f"{m} imports {t}"
        for m, ts in graph.items()
        if m.startswith(prefix)
        for t in ts
        if any(t.startswith(f"monsterball.games.{o}") for o in others)
    ]
    assert crossing == []


def test_the_checks_catch_a_circle_and_an_upward_import(tmp_path: Path) -> None:
    """The checker itself: a lazy import that closes a circle, and core importing a game."""
    pkg = tmp_path / "monsterball"
    (pkg / "core").mkdir(parents=True)
    (pkg / "games" / "huck_monster").mkdir(parents=True)
    for init in (pkg, pkg / "core", pkg / "games", pkg / "games" / "huck_monster"):
        (init / "__init__.py").write_text("")
    (pkg / "core" / "game.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import procedures\n"
    )
    (pkg / "core" / "procedures.py").write_text("from monsterball.core.game import x\n")
    (pkg / "core" / "registry.py").write_text(
        "def load():\n    import monsterball.games.huck_monster.state\n"
    )
    (pkg / "games" / "huck_monster" / "state.py").write_text(
        "def first():\n    from monsterball.games.huck_monster.rules.flow import f\n"
    )
    (pkg / "games" / "huck_monster" / "rules").mkdir()
    (pkg / "games" / "huck_monster" / "rules" / "__init__.py").write_text("")
    (pkg / "games" / "huck_monster" / "rules" / "flow.py").write_text(
        "from ...huck_monster.state import State\n"
    )
    graph = import_graph(tmp_path)
    assert set(cycle(graph) or []) in (
        {"monsterball.core.game", "monsterball.core.procedures"},
        {"monsterball.games.huck_monster.state", "monsterball.games.huck_monster.rules.flow"},
    )
    assert upward_imports(graph) == [
        "monsterball.core.registry (core) imports monsterball.games (games)",
        "monsterball.core.registry (core) imports monsterball.games.huck_monster (games)",
        "monsterball.core.registry (core) imports monsterball.games.huck_monster.state (games)",
    ]
    assert game_upward_imports(graph, "huck_monster") == [
        "monsterball.games.huck_monster.state (state) imports "
        "monsterball.games.huck_monster.rules (rule steps)",
        "monsterball.games.huck_monster.state (state) imports "
        "monsterball.games.huck_monster.rules.flow (rule steps)",
    ]


def web_layer_of(module: str) -> int | None:
    """The layer of a module under monsterball.web (None: not in web; the top: len)."""
    parts = module.split(".")
    if parts[:2] != ["monsterball", "web"] or len(parts) == 2:
        return None
    for index, (_, folders) in enumerate(WEB_LAYERS):
        if parts[2] in folders:
            return index
    return len(WEB_LAYERS)


def test_the_web_app_in_layers(graph: dict[str, set[str]]) -> None:
    """store <- live <- cluster, hardening <- api <- app.py: the rooms know no routes, the
    tables know no rooms."""
    names = [*(name for name, _ in WEB_LAYERS), "the wiring"]
    bad = [
        f"{m} ({names[lm]}) imports {t} ({names[lt]})"
        for m, ts in sorted(graph.items())
        if (lm := web_layer_of(m)) is not None
        for t in sorted(ts)
        if (lt := web_layer_of(t)) is not None and lt > lm
    ]
    assert bad == []
    folders = {
        p.name for p in (SRC / "monsterball" / "web").iterdir() if (p / "__init__.py").exists()
    }
    assert folders == set().union(*(f for _, f in WEB_LAYERS)), "a web folder in no layer"
