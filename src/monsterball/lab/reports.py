"""A self-contained HTML report of a balance sweep: plots as embedded PNG, tables
(matplotlib is the optional ``report`` extra); the luck section explains itself with the
luck report's words (:mod:`monsterball.records.luck`).
"""

from __future__ import annotations

import base64
import html
import io
import statistics
from typing import Any

from monsterball.records.luck import LUCK_EXPLAINED


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _number(value: float, digits: int = 2) -> str:
    """Readable: thousands separated, never e-notation; '-' for nothing measured."""
    if value != value:
        return "-"
    return f"{value:,.{digits}f}"


def _ci(e: Any, pct: bool = False, digits: int = 2) -> str:
    if getattr(e, "n", 1) == 0:
        return "-"
    if pct:
        return f"{e.mean:.1%} [{e.low:.1%}, {e.high:.1%}]"
    return f"{_number(e.mean, digits)} [{_number(e.low, digits)}, {_number(e.high, digits)}]"


def _signed(e: Any, pct: bool) -> str:
    if pct:
        return f"{e.mean * 100:+.1f} pts [{e.low * 100:+.1f}, {e.high * 100:+.1f}]"
    return f"{e.mean:+,.2f} [{e.low:+,.2f}, {e.high:+,.2f}]"


def _axes(sweep: Any) -> dict[str, list[str]]:
    """The swept keys and their values, in the order first seen."""
    axes: dict[str, list[str]] = {}
    for s in sweep.settings:
        for key, value in s.setting.items():
            values = axes.setdefault(key, [])
            if str(value) not in values:
                values.append(str(value))
    return {k: v for k, v in axes.items() if len(v) > 1}


def _numeric(values: list[str]) -> list[float] | None:
    try:
        return [float(v) for v in values]
    except ValueError:
        return None


def _series(sweep: Any, x_key: str) -> dict[str, list[tuple[float, Any]]]:
    """Settings grouped into lines over ``x_key``: one line per combination of the other
    swept keys."""
    others = [k for k in _axes(sweep) if k != x_key]
    lines: dict[str, list[tuple[float, Any]]] = {}
    for s in sweep.settings:
        name = ", ".join(f"{k}={s.setting.get(k)}" for k in others) or "all"
        lines.setdefault(name, []).append((float(s.setting[x_key]), s))
    return {k: sorted(v, key=lambda p: p[0]) for k, v in lines.items()}


FIGURES: list[tuple[str, str, bool]] = [
    # (title, what, is a rate)
    ("Win rate of the first offense", "first_offense_win", True),
    ("Points per possession", "points_per_possession", False),
    ("Game length (plies)", "plies", False),
]


def _plots(sweep: Any) -> list[tuple[str, str, str]]:
    """(title, caption, base64 PNG) for each plot."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError(
            "the HTML report needs matplotlib: pip install 'monsterball[report]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, PercentFormatter

    axes = _axes(sweep)
    numeric = [k for k, v in axes.items() if _numeric(v) is not None]
    out = []
    for title, attr, rate in FIGURES:
        fig, ax = plt.subplots(figsize=(6.5, 3.4))
        if numeric:
            x_key = numeric[0]
            for name, points in _series(sweep, x_key).items():
                xs = [x for x, _ in points]
                es = [getattr(s, attr) for _, s in points]
                ax.plot(xs, [e.mean for e in es], marker="o", label=name)
                ax.fill_between(xs, [e.low for e in es], [e.high for e in es], alpha=0.2)
            ax.set_xlabel(x_key)
            ax.set_xticks(sorted({float(v) for v in axes[x_key]}))
            if len(_series(sweep, x_key)) > 1:
                ax.legend(fontsize=7)
            caption = f"Mean with its 95% interval (band), over {x_key}."
        else:
            labels = [s.label for s in sweep.settings]
            es = [getattr(s, attr) for s in sweep.settings]
            ys = list(range(len(labels)))
            ax.errorbar(
                [e.mean for e in es], ys, fmt="o", capsize=4,
                xerr=[[e.mean - e.low for e in es], [e.high - e.mean for e in es]],
            )  # fmt: skip
            ax.set_yticks(ys, labels, fontsize=8)
            ax.invert_yaxis()
            caption = "Mean with its 95% interval, per setting."
        if rate:
            line = ax.axhline if numeric else ax.axvline
            line(0.5, color="grey", linestyle="--", linewidth=1)
            formatter: Any = PercentFormatter(1.0)
            caption += " The dashed line is 50%: no advantage."
        else:
            formatter = FuncFormatter(lambda v, _p: f"{v:,.0f}" if abs(v) >= 100 else f"{v:g}")
        (ax.yaxis if numeric else ax.xaxis).set_major_formatter(formatter)
        ax.grid(alpha=0.3)
        out.append((title, caption, _png(fig)))
        plt.close(fig)
    effects = sensitivity(sweep)
    if effects:
        fig, ax = plt.subplots(figsize=(6.5, 0.6 + 0.45 * len(effects)))
        names = [k for k, _ in effects]
        ax.barh(names, [v * 100 for _, v in effects], color="#4a7ab8")
        ax.invert_yaxis()
        ax.set_xlabel("spread of the first offense's win rate (percentage points)")
        ax.grid(axis="x", alpha=0.3)
        out.append((
            "Sensitivity: which rule moves the result most",
            "For each swept rule, how far apart its values put the first offense's win rate "
            "(highest minus lowest mean, averaged over the other swept rules).",
            _png(fig),
        ))  # fmt: skip
        plt.close(fig)
    kinds = sorted({k for s in sweep.settings for k in s.turnovers_per_game})
    if kinds:
        fig, ax = plt.subplots(figsize=(6.5, 0.8 + 0.45 * len(sweep.settings)))
        left = [0.0] * len(sweep.settings)
        labels = [s.label for s in sweep.settings]
        for kind in kinds:
            vals = [
                s.turnovers_per_game[kind].mean if kind in s.turnovers_per_game else 0.0
                for s in sweep.settings
            ]
            ax.barh(labels, vals, left=left, label=kind)
            left = [a + b for a, b in zip(left, vals, strict=True)]
        ax.invert_yaxis()
        ax.tick_params(axis="y", labelsize=8)
        ax.set_xlabel("turnovers per game")
        ax.legend(fontsize=7, loc="lower right")
        out.append((
            "Turnovers by kind",
            "Mean turnovers per game, split by the event that ended the possession.",
            _png(fig),
        ))  # fmt: skip
        plt.close(fig)
    return out


def sensitivity(sweep: Any) -> list[tuple[str, float]]:
    """Swept keys ranked by the spread of the first offense's mean win rate across their
    values (each value's mean over the settings that have it)."""
    effects = []
    for key, values in _axes(sweep).items():
        means = []
        for value in values:
            rates = [
                s.first_offense_win.mean
                for s in sweep.settings
                if str(s.setting.get(key)) == value and s.first_offense_win.n
            ]
            if rates:
                means.append(sum(rates) / len(rates))
        if len(means) > 1:
            effects.append((key, max(means) - min(means)))
    return sorted(effects, key=lambda kv: -kv[1])


def sweep_html(sweep: Any, title: str | None = None) -> str:
    """A self-contained HTML page (no external files) for a :class:`lab.SweepResult`."""
    esc = html.escape
    heading = title or f"Balance report: {sweep.game}"
    seats = list(sweep.seat_names)
    head = ["setting", "games", *(f"{s} wins" for s in seats), "draws", "mean score",
            "first offense wins", "points per possession", "plies"]  # fmt: skip
    rows = []
    for s in sweep.settings:
        cells = [
            s.label,
            s.games,
            *(_ci(s.seat_wins[seat], pct=True) for seat in seats),
            s.draws,
            " - ".join(_number(s.mean_score[seat].mean) for seat in seats),
            _ci(s.first_offense_win, pct=True),
            _ci(s.points_per_possession, digits=3),
            _ci(s.plies, digits=0),
        ]
        rows.append("<tr>" + "".join(f"<td>{esc(str(c))}</td>" for c in cells) + "</tr>")
    table = (
        "<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>"
        + "".join(rows) + "</table>"
    )  # fmt: skip
    paired = ""
    if sweep.baseline is not None:
        base = sweep.settings[sweep.baseline]
        names = [f"{seats[0]} wins", "first offense wins", "points per possession", "plies"]
        names += sorted(k for k in base.metrics if k != "luck")
        body = []
        for s in sweep.settings:
            if s is base:
                continue
            cells = [
                _signed(s.versus_baseline[n], "wins" in n) if n in s.versus_baseline else "-"
                for n in names
            ]
            body.append(
                f"<tr><td>{esc(s.label)}</td>"
                + "".join(f"<td>{esc(c)}</td>" for c in cells)
                + "</tr>"
            )
        paired = (
            f"<h2>Against the baseline ({esc(base.label)})</h2><p>Paired differences: "
            "every setting plays game <i>i</i> with the same dice and bot seeds as the "
            "baseline, so each game gives one difference; the interval is the 95% interval "
            "of their mean. It is narrower than comparing two separate intervals because "
            "the luck both games share cancels. An interval that excludes 0 is a real "
            "effect at the 5% level.</p><table><tr><th>setting</th>"
            + "".join(f"<th>Δ {esc(n)}</th>" for n in names)
            + "</tr>" + "".join(body) + "</table>"
        )  # fmt: skip
    images = "\n".join(
        f'<figure><h3>{esc(t)}</h3><img alt="{esc(t)}" src="data:image/png;base64,{b64}">'
        f"<figcaption>{esc(c)}</figcaption></figure>"
        for t, c, b64 in _plots(sweep)
    )
    warning = ""
    if "random" in sweep.bots:
        warning = (
            '<p class="warn"><b>Random bots.</b> Their games mostly measure their own '
            "blunders (throws to nobody, aimless moves), not the rules: prefer heuristic or "
            "mcts bots for balance questions.</p>"
        )
    stopped = f"<p>Sequential run: {esc(sweep.stopped)}.</p>" if sweep.stopped else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(heading)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; max-width: 80em; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
td, th {{ border: 1px solid #bbb; padding: 4px 8px; font-size: 0.9em; text-align: left; }}
th {{ background: #eef; }} figure {{ display: inline-block; margin: 0.5em; vertical-align: top;
max-width: 42em; }} figure h3 {{ font-size: 1em; margin: 0.2em 0; }}
figcaption {{ font-size: 0.85em; color: #555; }} .warn {{ background: #fff3cd; padding: 0.5em; }}
</style></head><body>
<h1>{esc(heading)}</h1>
<p>Game <b>{esc(sweep.game)}</b>, preset {esc(str(sweep.preset or "default"))}, bots
{esc(", ".join(sweep.bots))}, {sweep.games:,} games per setting, seed {sweep.seed}
(the same seeds in every setting), run on {esc(sweep.backend)} in {sweep.wall_time:,.1f} s.
Intervals are 95%: Wilson for rates, normal for means.</p>
{warning}{stopped}
{table}
{paired}
{images}
{_luck_section(sweep)}
</body></html>
"""


def _luck_section(sweep: Any) -> str:
    rows = []
    for s in sweep.settings:
        e = s.metrics.get("luck")
        if e is None or not e.n:
            continue
        games = [g for g in sweep.raw if g.setting == sweep.settings.index(s)]
        lucky = [g for g in games if g.metrics.get("luck", 0.0) > 0]
        won = sum(1 for g in lucky if g.winner == 0)
        share = f"{won / len(lucky):.0%} of {len(lucky)}" if lucky else "-"
        spread = statistics.fmean(abs(g.metrics["luck"]) for g in games if "luck" in g.metrics)
        rows.append(
            f"<tr><td>{html.escape(s.label)}</td><td>{_number(spread, 1)}</td>"
            f"<td>{_ci(e, digits=1)}</td><td>{share}</td></tr>"
        )
    if not rows:
        return ""
    first = html.escape(sweep.seat_names[0]) if sweep.seat_names else "the first seat"
    return (
        f"<h2>Luck</h2><p>{html.escape(LUCK_EXPLAINED)}</p><p>Over the run: the typical size "
        f"of a game's luck (mean absolute, in points), {first}'s mean luck (near 0 when the "
        f"dice are fair to both sides), and how often {first} won the games the dice "
        "favoured it in.</p><table><tr><th>setting</th><th>mean |luck|</th>"
        f"<th>{first}'s luck</th><th>{first} won when lucky</th></tr>"
        + "".join(rows) + "</table>"
    )  # fmt: skip
