"""Options of Monsters of the Midway; each gap the rulebook leaves open names its ruling
(docs/rules/monsters-of-the-midway.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from monsterball.core.errors import OptionsError
from monsterball.core.options import GameOptions, option
from monsterball.games.midway.chart import default_chart

TEAM_NAMES = ("A", "B")


def parse_roster(text: str) -> tuple[str, ...]:
    """A saved roster: 10 chart types separated by commas (``orc,orc,elf,...``)."""
    names = tuple(n.strip().lower() for n in text.split(",") if n.strip())
    chart = default_chart()
    for n in names:
        if n not in chart.types:
            raise OptionsError(
                f"roster: '{n}' is not on the draft chart ({', '.join(chart.names)})"
            )
    if len(names) != chart.team_size:
        raise OptionsError(
            f"roster: a team has exactly {chart.team_size} players, got {len(names)}"
        )
    cost = sum(chart.types[n].points for n in names)
    if cost > chart.max_points:
        raise OptionsError(f"roster: costs {cost} points, more than {chart.max_points}")
    return names


@dataclass(frozen=True, kw_only=True)
class MidwayOptions(GameOptions):
    """Options for Monsters of the Midway (rulebook 002)."""

    plays: int = option(
        25,
        "Plays in a game (rulebook: 25; kicks count, conversions do not).",
        minimum=1,
        maximum=200,
    )
    roster_a: str = option(
        "",
        "Saved roster for team A (10 comma-separated chart types); empty: draft it.",
    )
    roster_b: str = option(
        "",
        "Saved roster for team B (10 comma-separated chart types); empty: draft it.",
    )
    direction: str = option(
        "travel",
        "Direction modifier numbering: 'travel' (1 = straight ahead along the ball's travel, "
        "then clockwise) or 'compass' (1 = north-east, then clockwise).",
        choices=("travel", "compass"),
        ruling="MW-R3",
    )
    spell_limit: str = option(
        "play",
        "How often a spell user may cast: once per 'play', once per 'game', or 'none' "
        "(no limit). Lycanthropy is always at will.",
        choices=("play", "game", "none"),
        ruling="MW-R18",
    )
    hidden_contact: str = option(
        "allowed",
        "Whether an invisible player or a hidden mirror-image caster may block, tackle and "
        "intercept: 'allowed' (the rulebook: he 'can perform as a blocker or tackler if the "
        "opportunity presents itself'; his coach is asked wherever any of his counters could "
        "act, so the question reveals nothing) or 'barred' (hidden players neither block, "
        "tackle nor intercept until seen again: fewer questions).",
        choices=("allowed", "barred"),
        ruling="MW-R10",
    )
    change_self_count: str = option(
        "all",
        "Which movement phases Change Self's 'up to two movement phases' counts: 'all' "
        "(every phase, whichever team moves) or 'own' (the caster's team's phases only, so "
        "the caster may cancel it at the start of his next phase).",
        choices=("all", "own"),
        ruling="MW-R20",
    )
    loose_ball: str = option(
        "contest",
        "How players contest a loose ball (a fumble, a bounced punt or onside kick): "
        "'contest' (the rulebook's 'enter or occupy': those in its hex try again at the end "
        "of every phase in which nobody entered it, and any number may enter it) or 'enter' "
        "(before 0.4.0: only a player moving in makes those there roll, two of a team at "
        "most; a ball can then lie among players for ever, so set max_phases).",
        choices=("contest", "enter"),
        ruling="MW-R22",
    )
    stall_phases: int = option(
        3,
        "End a play when this many movement phases in a row pass with nobody acting (no "
        "move, pass, handoff, punt, spell, tackle or recovery attempt): the ball is dead where "
        "it is, as though its carrier were downed (0: never, the rulebook's letter, under "
        "which two idle teams play one play for ever).",
        minimum=0,
        maximum=1000,
        ruling="MW-R23",
    )
    mirror_kickoff: str = option(
        "after_kick",
        "Mirror image on kickoffs ('This spell cannot be cast before the ball is snapped'): "
        "'after_kick' (the kick starts a kickoff as the snap starts other plays) or 'never' "
        "(a kickoff has no snap; before 0.7.0).",
        choices=("after_kick", "never"),
        ruling="MW-R10",
    )
    conversion_snap: str = option(
        "free",
        "The snap's -2 movement on a two-point try: 'free' (the rulebook: the penalty is for "
        "'any play except a kickoff or a point-after-touchdown attempt') or 'penalty' (the "
        "try is 'run exactly as a play from scrimmage', penalty included; before 0.7.0).",
        choices=("free", "penalty"),
        ruling="MW-R26",
    )
    max_phases: int = option(
        0,
        "End a play after this many movement phases with the ball dead where it is "
        "(0: no limit). Not a rulebook rule: a cap for simulations.",
        minimum=0,
        maximum=1000,
        ruling="MW-R14",
    )

    def validate(self) -> None:
        for text in (self.roster_a, self.roster_b):
            if text:
                parse_roster(text)

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        "compass": {"direction": "compass"},
        "short": {"plays": 6, "max_phases": 12},
        "match": {"plays": 16, "max_phases": 16},
        "exhibition": {
            "roster_a": "human,human,elf,orc,orc,bugbear,bugbear,dwarf,gnome,halfling",
            "roster_b": "brownie,pixie,werebear,gnoll,gnoll,hobgoblin,goblin,kobold,orc,orc",
            "plays": 8,
            "max_phases": 16,
        },
    }
    PRESET_DOCS: ClassVar[dict[str, str]] = {
        "standard": "The rulebook with this project's rulings: draft, 25 plays.",
        "compass": "Direction modifiers numbered by compass instead of by travel.",
        "short": "6 plays, each at most 12 movement phases: a quick game.",
        "match": "16 plays, plays capped at 16 phases: long enough for each side to have "
        "the ball a few times, short enough for bot matches.",
        "exhibition": "Two saved rosters (no draft), 8 plays, with magic users on team B.",
    }
