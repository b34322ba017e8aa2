"""Reports: the luck report of one game record, and a self-contained HTML report of a
balance sweep (plots as embedded PNG, tables; matplotlib is the optional ``report``
extra).

Luck, for every game through the one contract: at each chance node of the record, the
side's luck is how much the outcome that fell moved the game heuristic's evaluation
against its expectation over every outcome (exact probabilities). The sum over the game is
each side's luck (zero-sum: A's luck is B's bad luck). Rolls with a numeric value are
also tallied per kind of roll (e.g. ``3d6``): mean rolled against the expected mean, with
a z-score.
"""

from __future__ import annotations

import base64
import html
import io
import math
from dataclasses import dataclass, field
from typing import Any

from monsterball.core.actions import Roll
from monsterball.core.errors import RecordError
from monsterball.core.game import CHANCE
from monsterball.core.record import GameRecord, initial_state
from monsterball.heuristic import heuristic_for


@dataclass
class DiceTally:
    label: str
    rolls: int = 0
    total: float = 0.0
    expected: float = 0.0
    variance: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.rolls if self.rolls else 0.0

    @property
    def expected_mean(self) -> float:
        return self.expected / self.rolls if self.rolls else 0.0

    @property
    def z(self) -> float:
        return (self.total - self.expected) / math.sqrt(self.variance) if self.variance else 0.0


@dataclass
class LuckReport:
    game: str
    seats: tuple[str, ...]
    luck: list[float]
    chance_nodes: int
    biggest: list[tuple[int, str, float]] = field(default_factory=list)  # ply, outcome, swing
    dice: dict[str, DiceTally] = field(default_factory=dict)
    result: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "luck": dict(zip(self.seats, self.luck, strict=True)),
            "chance_nodes": self.chance_nodes,
            "biggest_swings": [
                {"ply": p, "outcome": o, "swing_for_first_seat": s} for p, o, s in self.biggest
            ],
            "dice": {
                k: {
                    "rolls": t.rolls,
                    "mean": t.mean,
                    "expected_mean": t.expected_mean,
                    "z": t.z,
                }
                for k, t in self.dice.items()
            },
            "result": self.result,
        }


def luck_report(record: GameRecord, *, top: int = 5) -> LuckReport:
    """Replay ``record`` and measure each side's dice against expectation."""
    spec, state = initial_state(record)
    heuristic = heuristic_for(spec)
    luck = [0.0] * spec.num_seats
    swings: list[tuple[int, str, float]] = []
    dice: dict[str, DiceTally] = {}
    nodes = 0
    for entry in record.actions:
        if state.is_terminal():
            raise RecordError(f"line {entry.line}: an action after the end of the game")
        action = spec.parse_action(entry.action)
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            if action not in [a for a, _ in outcomes]:
                raise RecordError(f"line {entry.line}: '{entry.action}' is not a chance outcome")
            if len(outcomes) > 1:
                nodes += 1
                values = {}
                for a, _ in outcomes:
                    child = state.clone()
                    child.apply_unchecked(a)
                    values[a] = heuristic.value(child, 0)
                expected = sum(float(p) * values[a] for a, p in outcomes)
                swing = values[action] - expected
                luck[0] += swing
                for seat in range(1, spec.num_seats):
                    luck[seat] -= swing
                swings.append((state.ply, entry.action, swing))
                _tally(dice, action, outcomes)
        else:
            if not state.is_legal(action):
                raise RecordError(f"line {entry.line}: '{entry.action}' is not legal here")
        state.apply_unchecked(action)
    swings.sort(key=lambda s: -abs(s[2]))
    return LuckReport(
        spec.id, spec.seat_names, luck, nodes, swings[:top], dice, state.result_text()
    )


def _tally(dice: dict[str, DiceTally], action: Any, outcomes: list[tuple[Any, Any]]) -> None:
    if not isinstance(action, Roll):
        return
    try:
        rolled = float(action.value)
        pairs = [(float(a.value), float(p)) for a, p in outcomes if isinstance(a, Roll)]
    except ValueError:
        return
    mean = sum(v * p for v, p in pairs)
    var = sum(p * (v - mean) ** 2 for v, p in pairs)
    tally = dice.setdefault(action.label, DiceTally(action.label))
    tally.rolls += 1
    tally.total += rolled
    tally.expected += mean
    tally.variance += var


# -- HTML ---------------------------------------------------------------------------------


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _plots(sweep: Any) -> list[tuple[str, str]]:
    try:
        import matplotlib
    except ImportError:
        raise ValueError(
            "the HTML report needs matplotlib: pip install 'monsterball[report]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [s.label for s in sweep.settings]
    x = list(range(len(labels)))
    out = []
    metrics: list[tuple[str, Any]] = [
        ("Win rate of the first offense", lambda s: s.first_offense_win),
        ("Points per possession", lambda s: s.points_per_possession),
        ("Game length (plies)", lambda s: s.plies),
    ]
    for title, get in metrics:
        fig, ax = plt.subplots(figsize=(6.5, 3.2))
        means = [get(s).mean for s in sweep.settings]
        errs = [
            [get(s).mean - get(s).low for s in sweep.settings],
            [get(s).high - get(s).mean for s in sweep.settings],
        ]
        ax.bar(x, means, yerr=errs, capsize=4, color="#4a7ab8")
        ax.set_xticks(x, labels, rotation=20, ha="right", fontsize=8)
        ax.set_title(f"{title} (95% CI)")
        out.append((title, _png(fig)))
        plt.close(fig)
    kinds = sorted({k for s in sweep.settings for k in s.turnovers_per_game})
    if kinds:
        fig, ax = plt.subplots(figsize=(6.5, 3.2))
        width = 0.8 / len(kinds)
        for i, kind in enumerate(kinds):
            vals = [
                s.turnovers_per_game[kind].mean if kind in s.turnovers_per_game else 0.0
                for s in sweep.settings
            ]
            ax.bar([v + i * width for v in x], vals, width=width, label=kind)
        ax.set_xticks([v + 0.4 - width / 2 for v in x], labels, rotation=20, ha="right", fontsize=8)
        ax.set_title("Turnovers per game by kind")
        ax.legend(fontsize=7)
        out.append(("Turnovers by kind", _png(fig)))
        plt.close(fig)
    return out


def _ci(e: Any, pct: bool = False) -> str:
    if pct:
        return f"{e.mean:.1%} [{e.low:.1%}, {e.high:.1%}]"
    return f"{e.mean:.3g} [{e.low:.3g}, {e.high:.3g}]"


def sweep_html(sweep: Any, title: str | None = None) -> str:
    """A self-contained HTML page (no external files) for a :class:`lab.SweepResult`."""
    esc = html.escape
    heading = title or f"Balance report: {sweep.game}"
    rows = []
    for s in sweep.settings:
        turnovers = "; ".join(f"{k} {_ci(v)}" for k, v in s.turnovers_per_game.items())
        rows.append(
            "<tr>"
            + "".join(
                f"<td>{esc(str(c))}</td>"
                for c in (
                    s.label,
                    s.games,
                    _ci(s.first_offense_win, pct=True),
                    _ci(s.points_per_possession),
                    esc(turnovers) or "-",
                    _ci(s.plies),
                    s.draws,
                )
            )
            + "</tr>"
        )
    images = "\n".join(
        f'<figure><img alt="{esc(t)}" src="data:image/png;base64,{b64}"><figcaption>{esc(t)}'
        "</figcaption></figure>"
        for t, b64 in _plots(sweep)
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(heading)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
td, th {{ border: 1px solid #bbb; padding: 4px 8px; font-size: 0.9em; text-align: left; }}
th {{ background: #eef; }} figure {{ display: inline-block; margin: 0.5em; }}
</style></head><body>
<h1>{esc(heading)}</h1>
<p>Game <b>{esc(sweep.game)}</b>, preset {esc(str(sweep.preset or "default"))}, bots
{esc(", ".join(sweep.bots))}, {sweep.games} games per setting, seed {sweep.seed}
(the same seeds in every setting), run on {esc(sweep.backend)} in {sweep.wall_time:.1f} s.
Intervals are 95%: Wilson for rates, normal for means.</p>
<table><tr><th>setting</th><th>games</th><th>first offense wins</th>
<th>points per possession</th><th>turnovers per game by kind</th><th>plies</th>
<th>draws</th></tr>
{"".join(rows)}
</table>
{images}
</body></html>
"""
