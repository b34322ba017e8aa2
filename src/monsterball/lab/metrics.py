"""Custom metrics for the balance lab: a function over one finished game's events.

A metric is any function ``metric(trace: GameTrace) -> Mapping[str, float]``; each name it
returns becomes a figure of the lab (mean with a 95% interval per setting, paired
differences against the baseline) and a column of ``--rows``. Return nothing for a game
where the figure is undefined (no throws, say) rather than a 0. The lab never needs
changing to add one::

    # my_metrics.py
    def yards_per_play(trace):
        gains = [e.yards for s in trace.steps for e in s.events if hasattr(e, "yards")]
        return {"yards per play": sum(gains) / len(gains)} if gains else {}

    monsterball simulate midway --metric my_metrics.py:yards_per_play ...

From Python, pass the same text or the function itself (a module-level function, so the
worker processes can import it): ``sweep("hm", settings, 100, metrics=[my_function])``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from monsterball.core.actions import Action, Event
from monsterball.core.game import GameSpec, GameState
from monsterball.core.options import GameOptions


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a game: who took it (CHANCE for dice), what it was, what it caused, and
    which team was on offense before it (None for games without one)."""

    ply: int
    actor: int
    action: Action
    events: list[Event]
    offense: int | None


@dataclass(frozen=True, slots=True)
class GameTrace:
    spec: GameSpec
    options: GameOptions
    seed: int
    steps: tuple[Step, ...]
    final: GameState

    def events(self) -> list[Event]:
        return [e for s in self.steps for e in s.events]


Metric = Callable[[GameTrace], Mapping[str, float]]
MetricRef = str | Metric


def metric_name(ref: MetricRef) -> str:
    return ref if isinstance(ref, str) else f"{ref.__module__}:{ref.__qualname__}"


def load_metric(ref: MetricRef) -> Metric:
    """A metric from ``module:function``, ``path/to/file.py:function`` or the function
    itself; ValueError says what could not be found."""
    if not isinstance(ref, str):
        if not callable(ref):
            raise ValueError(f"a metric must be a function, not {ref!r}")
        return ref
    where, sep, name = ref.rpartition(":")
    if not sep or not where or not name:
        raise ValueError(f"bad metric '{ref}': write module:function or file.py:function")
    try:
        if where.endswith(".py"):
            path = Path(where).resolve()
            module_name = f"_monsterball_metric_{abs(hash(str(path)))}"
            module = sys.modules.get(module_name)
            if module is None:
                spec = importlib.util.spec_from_file_location(module_name, path)
                if spec is None or spec.loader is None or not path.is_file():
                    raise ValueError(f"metric file '{where}' not found")
                module = importlib.util.module_from_spec(spec)
                sys.modules[module_name] = module
                spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
    except ValueError:
        raise
    except Exception as exc:  # a metric file is user code: report, do not crash
        raise ValueError(f"cannot load metric '{ref}': {type(exc).__name__}: {exc}") from None
    function = getattr(module, name, None)
    if not callable(function):
        raise ValueError(f"metric '{ref}': {where} has no function '{name}'")
    return function  # type: ignore[no-any-return]


# -- examples (usable as monsterball.lab.metrics:NAME) -----------------------------------------


def _field(event: Any, name: str) -> Any:
    return getattr(event, name, None)


def catch_rate_by_throw_count(trace: GameTrace) -> dict[str, float]:
    """Huck + Monster: the share of throws caught, by the throw count rolled (3-8, 9-13,
    14-18). A throw's count is the thrower's dice total; the throw ends in a catch
    (``Caught``) or a turnover (``TurnedOver``)."""
    tries: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    bucket: str | None = None
    for event in trace.events():
        kind = type(event).__name__
        if kind == "DiceRolled" and _field(event, "role") == "throw":
            total = int(_field(event, "total"))
            bucket = "3-8" if total <= 8 else "9-13" if total <= 13 else "14-18"
        elif kind == "Caught" and bucket is not None:
            tries[bucket] += 1
            caught[bucket] += 1
            bucket = None
        elif kind == "TurnedOver" and bucket is not None:
            tries[bucket] += 1
            bucket = None
    return {f"catch rate, count {b}": caught[b] / n for b, n in sorted(tries.items())}


def plies_per_point(trace: GameTrace) -> dict[str, float]:
    """Any game with a score: plies played per point scored."""
    score = trace.final.scores()
    if not score or not sum(score):
        return {}
    return {"plies per point": len(trace.steps) / float(sum(score))}


def luck(trace: GameTrace) -> dict[str, float]:
    """Every game: the first seat's luck (the sum of its dice swings, in win-probability
    points; see ``monsterball luck``). The report adds it by itself."""
    from monsterball.bots.heuristic import heuristic_for
    from monsterball.records.luck import chance_swing

    heuristic = heuristic_for(trace.spec)
    state = trace.spec.new_game(trace.options)
    total = 0.0
    for step in trace.steps:
        if step.actor < 0:
            outcomes = state.chance_outcomes()
            if len(outcomes) > 1:
                total += chance_swing(heuristic, state, step.action, outcomes)
        state.apply_unchecked(step.action)
    return {"luck": total}
