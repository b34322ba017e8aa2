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
        "own",
        "Which movement phases Change Self's 'up to two movement phases' counts: 'own' (the "
        "caster's team's phases only, so the caster may cancel it at the start of his next "
        "phase, as the text allows) or 'all' (every phase, whichever team moves; the default "
        "before 0.8.0).",
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
    shift: str = option(
        "formation",
        "Step 3 before the snap, 'Offense may shift formation or send one player in "
        "motion': 'formation' (any of its players, each once, laterally or back: linemen "
        "along the line, backs within the backfield) or 'one' (one player only, laterally or "
        "back anywhere; before 0.8.0).",
        choices=("formation", "one"),
        ruling="MW-R30",
    )
    block_order: str = option(
        "coach",
        "Two blockers on one defender: 'coach' (the offensive coach names who blocks first, "
        "then makes the second block or calls it off, as the rulebook says) or 'auto' (in "
        "player order, the second only if the first fell short of neutralize; before 0.8.0).",
        choices=("coach", "auto"),
        ruling="MW-R6",
    )
    mirror_count: str = option(
        "example",
        "How many mirror images d6 / 2 makes: 'example' (that many images besides the "
        "caster, as the rulebook's example of three images and the ball carrier) or "
        "'literal' (that many blank counters, the caster's among them: one fewer image).",
        choices=("example", "literal"),
        ruling="MW-R10",
    )
    roll_modifiers: str = option(
        "widen",
        "The receiving modifier and the halfling's field-goal +1 on charts where low rolls "
        "succeed: 'widen' (they widen the range of rolls that succeed) or 'literal' (they "
        "are added to the d6 result, as printed: 'Adjust the d6 result', so a bonus hurts).",
        choices=("widen", "literal"),
        ruling="MW-R7",
    )
    toss_choices: str = option(
        "rulebook",
        "What the coin toss winner may choose: 'rulebook' (to receive the kickoff, or which "
        "end zone to defend) or 'any' (also to kick off; before 0.8.0).",
        choices=("rulebook", "any"),
        ruling="MW-R31",
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

    def can_draw(self) -> bool:
        """MW-GEN-4: a game of so many plays; level scores at the end draw."""
        return True

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
        "standard": "The rulebook's game: draft your team, then 25 plays.",
        "compass": "The standard game, with the blocking table's directions counted from "
        "north instead of from the way the ball travels (another reading of the rulebook).",
        "short": "6 plays, each stopped after 12 moves a side: a game of a few minutes.",
        "match": "16 plays, each stopped after 16 moves a side: each team has the ball a "
        "few times, in well under the full game's time.",
        "exhibition": "No draft: two ready-made teams (team B with spell casters), 8 plays. "
        "A good first game.",
    }
