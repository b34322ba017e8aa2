"""The fuzz campaign's ledger (scripts/ledgers/fuzz.json): every finished chunk of
``scripts/fuzz.py --ledger FILE`` adds one entry per game x preset, so runs made in parts,
on several days and machines, add up.

An entry holds the chunk's totals for one game x preset: actions checked, games, mutation
cases by kind, failures by kind (with up to five reproducers), the base seed (which fixes
every game and case the chunk played), seconds, the code version (git commit) and the
game's rules version. A chunk whose seed is already in the ledger for that game x preset
is refused: it would replay the same games. The report adds entries up per game x preset
x rules version, so figures gathered under different rules are never summed together.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from monsterball.lab.fuzz.play import Tally

FORMAT = 1
GOAL = 1_000_000  # checked actions per game x preset (issue 13)
FIRST_SEED = 100  # ledger seeds start here, clear of the ad-hoc runs in CHANGELOG.md 0.1.0
# The harness's version, written into every entry: bump it when a change makes checked play
# faster or slower, so that the time to go is worked out at the new rate. Entries written
# before it existed are version 1; version 2 is the harness that shares each ply's work
# (orjson, notations learnt once per action object, faster position reading and pictures).
HARNESS = 2


class LedgerError(Exception):
    """The ledger file is unreadable, or a chunk would count the same games twice."""


def code_version(root: Path) -> str:
    """The git commit of ``root``, with ``+dirty`` if src/ or scripts/ have changes (the
    ledgers under scripts/ledgers/ aside: a campaign writes them as it goes)."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "src", "scripts", ":(exclude)scripts/ledgers"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")


def empty() -> dict[str, Any]:
    return {"format": FORMAT, "goal": GOAL, "chunks": []}


def load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return empty()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LedgerError(f"cannot read the ledger {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LedgerError(f"{path} is not a fuzz ledger of format {FORMAT}")
    if not isinstance(data.get("chunks"), list):
        raise LedgerError(f"{path} has no list of chunks")
    return data


def dumps(ledger: dict[str, Any]) -> str:
    """One chunk entry a line: diffs and merges of the ledger stay readable."""
    head = {k: v for k, v in ledger.items() if k != "chunks"}
    lines = [json.dumps(e, sort_keys=True, ensure_ascii=True) for e in ledger["chunks"]]
    body = "".join(f"\n  {line}," for line in lines)[:-1] + "\n" if lines else ""
    inner = json.dumps(head, sort_keys=True)[1:-1]
    return "{" + inner + ', "chunks": [' + body + "]}\n"


def used_seeds(ledger: dict[str, Any], game: str, preset: str) -> set[int]:
    return {int(e["seed"]) for e in ledger["chunks"] if e["game"] == game and e["preset"] == preset}


def clashes(ledger: dict[str, Any], pairs: Iterable[tuple[str, str]], seed: int) -> list[str]:
    """The game x presets for which ``seed`` is already in the ledger."""
    return [f"{g}/{p}" for g, p in pairs if seed in used_seeds(ledger, g, p)]


def next_seed(ledger: dict[str, Any], start: int = FIRST_SEED) -> int:
    """The smallest seed from ``start`` that no chunk in the ledger has used, for any game x
    preset. Machines running at the same time take seeds from different starts (blocks)."""
    seeds = {int(e["seed"]) for e in ledger["chunks"]}
    seed = start
    while seed in seeds:
        seed += 1
    return seed


def counted(ledger: dict[str, Any], game: str, preset: str, rules: str) -> int:
    """Actions checked so far for a game x preset under the given rules version."""
    return sum(
        e["actions"]
        for e in ledger["chunks"]
        if e["game"] == game and e["preset"] == preset and e["rules_version"] == rules
    )


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Serialise writers on this machine (a second run appending at the same moment)."""
    with open(str(path) + ".lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def add_chunk(path: Path, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Append a finished chunk's entries, all or none; refuse seeds already recorded."""
    with locked(path):
        ledger = load(path)
        for entry in entries:
            if entry["seed"] in used_seeds(ledger, entry["game"], entry["preset"]):
                raise LedgerError(
                    f"seed {entry['seed']} is already in {path} for "
                    f"{entry['game']}/{entry['preset']}: the chunk would count the same games "
                    "twice (use another --seed, or --seed next)"
                )
        ledger["chunks"].extend(entries)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(dumps(ledger), encoding="utf-8")
        os.replace(temporary, path)
    return ledger


def _kinds(counts: Counter[str]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(counts.items()) if n) or "none"


def _row() -> dict[str, Any]:
    return {
        "actions": 0,
        "games": 0,
        "mutations": Counter[str](),
        "failures": Counter[str](),
        "cpu": 0.0,
        "chunks": 0,
        "commits": [],
        "repro": [],
        "by_harness": {},  # harness version -> [actions, CPU seconds]
    }


def harness(entry: dict[str, Any]) -> int:
    """The harness version an entry was written by (1: before versions were written)."""
    version = entry.get("harness", 1)
    return version if type(version) is int else 1


def _rates(
    rows: dict[tuple[str, str, str], dict[str, Any]], current: dict[str, str]
) -> tuple[int, dict[str, float], dict[str, float]]:
    """Checked actions per CPU second under the current rules, measured by the newest
    harness in the ledger: (that version, per game x preset "game/preset", per game)."""
    counted = [(g, p, row) for (g, p, r), row in rows.items() if current.get(g) == r]
    newest = max((v for _, _, row in counted for v in row["by_harness"]), default=1)
    own: dict[str, float] = {}
    game: dict[str, list[float]] = {}
    for g, p, row in counted:
        done, cpu = row["by_harness"].get(newest, (0, 0.0))
        if cpu:
            own[f"{g}/{p}"] = done / cpu
            game.setdefault(g, [0.0, 0.0])
            game[g][0] += done
            game[g][1] += cpu
    return newest, own, {g: done / cpu for g, (done, cpu) in game.items()}


def report(
    ledger: dict[str, Any],
    current: dict[str, str],
    presets: Iterable[tuple[str, str]] = (),
    goal: int = GOAL,
) -> str:
    """The totals as a markdown table, one row per game x preset x rules version.

    ``current``: each game's rules version in this engine; ``presets``: the game x presets
    to show even with nothing in the ledger yet. Rows under another rules version are shown
    but not counted toward the goal. Core-hours to go use the rate (checked actions per CPU
    second of play) that the newest harness in the ledger measured: each preset's own, else
    its game's; where that harness has not run the game yet, every chunk's."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for game, preset in presets:
        rows[(game, preset, current[game])] = _row()
    seen: set[tuple[str, str, int]] = set()
    twice = 0
    for e in ledger["chunks"]:
        if (e["game"], e["preset"], e["seed"]) in seen:
            twice += 1  # two ledgers merged, each with this seed: the same games, once
            continue
        seen.add((e["game"], e["preset"], e["seed"]))
        key = (e["game"], e["preset"], e["rules_version"])
        row = rows.setdefault(key, _row())
        row["actions"] += e["actions"]
        row["games"] += e["games"]
        row["mutations"].update(e["mutations"])
        row["failures"].update(e["failures"])
        row["cpu"] += e["cpu_seconds"]
        row["chunks"] += 1
        part = row["by_harness"].setdefault(harness(e), [0, 0.0])
        part[0] += e["actions"]
        part[1] += e["cpu_seconds"]
        if e["commit"] not in row["commits"]:
            row["commits"].append(e["commit"])
        row["repro"].extend(e.get("reproducers", []))
    out = [
        f"| game | preset | rules version | checked actions | games | mutation cases "
        f"| failures by kind | chunks | CPU s | to {goal:,} | est. core-h to go |",
        "| --- | --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    total = {"actions": 0, "games": 0, "mutations": 0, "cpu": 0.0, "togo_h": 0.0, "done": 0}
    failures: Counter[str] = Counter()
    stale = unknown = 0
    game_rate: dict[str, list[float]] = {}  # every chunk's, where the newest has no rate
    for (game, _, rules), row in rows.items():
        if rules == current.get(game) and row["cpu"]:
            game_rate.setdefault(game, [0.0, 0.0])
            game_rate[game][0] += row["actions"]
            game_rate[game][1] += row["cpu"]
    newest, newest_own, newest_game = _rates(rows, current)
    order = sorted(rows, key=lambda k: (k[0], k[1], k[2] != current.get(k[0]), k[2]))
    for game, preset, rules in order:
        row = rows[(game, preset, rules)]
        mutations = sum(row["mutations"].values())
        if rules != current.get(game):
            stale += row["actions"]
            togo, hours = "older rules: not counted", "-"
        else:
            left = max(0, goal - row["actions"])
            rate = newest_own.get(f"{game}/{preset}") or newest_game.get(game) or 0.0
            if not rate:
                done, cpu = (
                    (row["actions"], row["cpu"]) if row["cpu"] else game_rate.get(game, (0, 0))
                )
                rate = done / cpu if cpu else 0.0
            need = left / rate / 3600 if rate else 0.0
            togo, hours = f"{left:,}", f"{need:.2f}" if rate or not left else "?"
            unknown += bool(left and not rate)
            total["actions"] += row["actions"]
            total["games"] += row["games"]
            total["mutations"] += mutations
            total["cpu"] += row["cpu"]
            total["togo_h"] += need
            total["done"] += left == 0
            failures.update(row["failures"])
        out.append(
            f"| {game} | {preset} | {rules} | {row['actions']:,} | {row['games']:,} "
            f"| {mutations:,} | {_kinds(row['failures'])} | {row['chunks']} "
            f"| {row['cpu']:,.0f} | {togo} | {hours} |"
        )
    counted_rows = sum(1 for g, p, r in rows if current.get(g) == r)
    out.append(
        f"| **all ({counted_rows} game x presets, current rules)** | | | "
        f"**{total['actions']:,}** | **{total['games']:,}** | **{total['mutations']:,}** "
        f"| **{_kinds(failures)}** | | **{total['cpu']:,.0f}** "
        f"| {total['done']} at goal | **{total['togo_h']:.1f}**{'+' if unknown else ''} |"
    )
    out.append("")
    out.append(
        f"Core-hours to go: at the rate the newest harness in the ledger (version {newest}) "
        "measured, each preset's own, else its game's (every chunk's where it has not run "
        "the game)."
    )
    out.append("")
    out.append(
        "Rules versions counted: "
        + ", ".join(f"{g} {v}" for g, v in sorted(current.items()))
        + (f". Actions under older rules, not counted: {stale:,}." if stale else ".")
        + (f" {unknown} game x presets have no measured rate yet (?)." if unknown else "")
        + (f" Entries repeating a seed already counted, left out: {twice}." if twice else "")
    )
    for row in rows.values():
        for line in row["repro"][:3]:
            out.append(f"    {line}")
    return "\n".join(out)


def entry(tally: Tally, seed: int, commit: str, rules: str, window: int) -> dict[str, Any]:
    """A ledger entry from a finished Tally."""
    real = [f for f in tally.failures if not f.known]
    return {
        "game": tally.game,
        "preset": tally.preset,
        "rules_version": rules,
        "seed": seed,
        "window": window,
        "actions": tally.actions,
        "games": tally.games,
        "mutations": dict(tally.mutations),
        "hidden_twins": dict(tally.hidden),
        "failures": dict(Counter(f.kind for f in real)),
        "known": len(tally.failures) - len(real),
        "reproducers": [f.reproducer for f in real[:5]],
        "seconds": round(tally.seconds, 1),
        "cpu_seconds": round(tally.cpu_seconds, 2),
        "commit": commit,
        "harness": HARNESS,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
