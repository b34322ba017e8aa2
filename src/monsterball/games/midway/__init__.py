"""Monsters of the Midway: monster football on a 20 x 14 hex field (rulebook 002).

This package ``__init__`` is the game's top layer: it wires the state to the modules above it
(step kinds, first steps, text view, position checks) and defines ``SPEC``. The layers inside
the game are drawn in docs/architecture.md and checked by tests/architecture/test_layers.py.
Imports: core and this game's modules only (never another game, never a layer above games)."""

from __future__ import annotations

from typing import Any, cast

from monsterball.core.actions import ActionTable
from monsterball.core.contract import GameDocs, OddsHooks, RLHooks, ViewHooks
from monsterball.core.game import GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.core.procedures import stack_kinds
from monsterball.games.midway.actions import action_table, parse_decision
from monsterball.games.midway.analysis.heuristic import BOT
from monsterball.games.midway.analysis.twins import CHECKS
from monsterball.games.midway.options import MidwayOptions
from monsterball.games.midway.rules.flow import ALL_STEPS, first_steps
from monsterball.games.midway.state import FAST, MidwayState, Wiring, bind
from monsterball.games.midway.validate import check_board, check_stack
from monsterball.games.midway.views.board import board_view
from monsterball.games.midway.views.render import render_text
from monsterball.games.midway.views.roster import draft_help, roster

RULES_VERSION = "monsters-of-the-midway/0.8.0"


def _new_state(options: GameOptions) -> GameState:
    return MidwayState(cast(MidwayOptions, options))


def _action_table(options: GameOptions) -> ActionTable:
    return action_table()


MidwayState.procedure_kinds = stack_kinds(ALL_STEPS)

RULINGS = {
    "MW-R1": "Draft chart: the printed rows kept, the rest a labelled house chart in "
    "data/draft_chart.json (the treant L, treated as G when blocked or tackled).",
    "MW-R2": "Blocking/tackling rows 6-7 successful block / miss, 8 injured for next play, "
    "9 injured for game (of the defender / tackler).",
    "MW-R3": "Direction modifier: 1 straight ahead along the ball's travel, then clockwise "
    "(option direction=compass).",
    "MW-R4": "Field: 14 x 24 hexes, 20 rows between the goal lines plus two 2-row end zones.",
    "MW-R5": "The ball carrier moves one hex per action, so tackle chances arise hex by hex.",
    "MW-R6": "Blocks: each blocker takes the first opponent in his hex; with two on one "
    "defender the offensive coach names the first and then makes or calls off the second "
    "(option block_order=auto: player order, the second only short of neutralize).",
    "MW-R7": "Receiving and halfling field goal modifiers widen the success range (option "
    "roll_modifiers=literal: added to the d6 result).",
    "MW-R8": "After a blocked field goal the blocking team moves first.",
    "MW-R9": "Punts are not announced: a defender in the punter's hex when he kicks blocks it.",
    "MW-R10": "Mirror image: d6/2 images plus the caster; the caster's coach secretly picks "
    "the real counter; the caster then moves with 'shift DIR'. A hidden caster may block and "
    "tackle (contact ends the spell); his coach is asked wherever any of his counters could "
    "act (option hidden_contact=barred: hidden players never block or tackle). Cast after "
    "the snap, a blocked kick included, or the kickoff's kick (option mirror_kickoff); "
    "option mirror_count=literal: d6/2 counters, the caster's among them.",
    "MW-R11": "Invisibility: the caster's movement for the phase is a secret reappearance hex "
    "within his movement in that phase, revealed at the next phase; he may tackle from "
    "there, and his coach is asked whenever the carrier is within that reach plus one; he "
    "may block by moving unseen into an opponent's hex.",
    "MW-R12": "An ettin's attack on a teammate is a tackle on the ball carrier (succeeds short "
    "of a miss) and a block on anyone else (succeeds on neutralize or better); success only "
    "takes the teammate's phase away.",
    "MW-R13": "A carrier in an edge hex may step out of bounds (basic football); a loose ball "
    "over an end line is a touchback, or a safety if it left the fumbling team's end zone; "
    "a punt downed in the receivers' end zone is a touchback.",
    "MW-R14": "max_phases caps a play for simulations (off by default).",
    "MW-R15": "A team with every player out for the game forfeits; if nobody is fit for one "
    "play only, the stunned players return.",
    "MW-R16": "The kicking team sets up on its own side of the ball.",
    "MW-R17": "After a throw only offensive players beyond the line may not block.",
    "MW-R18": "Each spell user casts once per play (option spell_limit); werebears at will.",
    "MW-R19": "A ball struck dead: the snapping team that still has it loses a down at the "
    "old spot; a ball another team holds or would get is dead where it is; a kickoff nobody "
    "holds is kicked again.",
    "MW-R20": "Change self's two movement phases are the caster's team's, so he may cancel "
    "it in the second (option change_self_count=all: every phase, whichever team moves).",
    "MW-R21": "A pass coming down where a hidden defender may stand (on any counter of a "
    "mirror group, or within an invisible player's reach) asks his coach, after the seen "
    "defenders, whether he tries to intercept; 'no' is the only answer when he is not there "
    "(an image cannot receive a pass); trying shows him; the offense's hidden receiver is "
    "asked alike ('catch A2') (option hidden_contact=barred: he never tries).",
    "MW-R22": "Players occupying a loose ball's hex try for it at the end of every movement "
    "phase in which nobody entered it, and any number may enter it (option "
    "loose_ball=enter: only a player moving in makes them roll, two of a team at most).",
    "MW-R24": "A kick or punt that comes down on receivers: at the end of their phase they "
    "try a reception (Pass Reception table; a miss is a fumble) or let it fall; the kickers "
    "keep off a kickoff's hex.",
    "MW-R25": "A field goal is announced once the offense has set up with a holder and a "
    "kicker, before the defense sets up; an announced kick is the snap.",
    "MW-R26": "No snap penalty on the two-point try (option conversion_snap=penalty).",
    "MW-R27": "Two of the team with the ball in a hex; one would-be tackler a hex, but any "
    "number in the carrier's hex and defending a pass's hex.",
    "MW-R28": "Changing form sets the phase's movement to the new form's, with the phase's "
    "bonus or penalty and any slowing.",
    "MW-R29": "The hobgoblin chases the opposing elf only while his team defends.",
    "MW-R30": "The offense may shift several players, each once, linemen along the line and "
    "backs in the backfield (option shift=one: one player in motion).",
    "MW-R31": "The coin toss winner chooses to receive or an end zone (option "
    "toss_choices=any: or to kick off).",
    "MW-R23": "A play in which nobody acts for three movement phases in a row (option "
    "stall_phases) is over: the ball is dead where it is, as when its carrier is downed.",
}


def _rl_features(spec: GameSpec, options: GameOptions) -> Any:
    # Lazy: the learning module imports numpy (the ``rl`` extra).
    from monsterball.games.midway.analysis.learning import features

    return features(spec, options)


# Decisions (both seats) after which an unfinished game is truncated by default: about twice
# the longest of 40 random games with the default options and above every game of
# scripts/ledgers/strength.jsonl (docs/rl.md, "the long-game cut").
RL = RLHooks(features=_rl_features, max_decisions=30_000)

SPEC = GameSpec(
    id="midway",
    title="Monsters of the Midway",
    summary="Monster football, 6 a side on a 20 x 14 hex field: draft 10 monsters for 210 "
    "points, 25 plays, four downs to score, blocks and tackles by size, and magic.",
    rulebook="002_38f176e3cc9769c2.txt",
    rules_version=RULES_VERSION,
    options_type=MidwayOptions,
    state_type=MidwayState,
    seat_names=("A", "B"),
    new_state=_new_state,
    parse_decision=parse_decision,
    action_table=_action_table,
    aliases=("motm", "monsters-of-the-midway", "monsters"),
    rulings=RULINGS,
    board=board_view,
    # Mirror images and invisibility (MW-R10, MW-R11): a coach's secret choices.
    hidden_information=True,
    bot=BOT,
    # The decisions whose die the pages price (the printed tables behind each); moves are
    # left out (a few hundred a phase, and a move only rarely rolls).
    odds=OddsHooks(priced=("tackle", "block", "pass", "fg", "kick", "onside", "punt", "handoff")),
    docs=GameDocs(
        rules_file="monsters-of-the-midway.md",
        rulebook_title="Monsters of the Midway Rulebook",
        lessons_package=__name__,
    ),
    views=ViewHooks(roster=roster, draft_help=draft_help),
    kernels={f"{__name__}._fastmw": FAST},
    rl=RL,
    # The fuzz harness's hidden-information twins (the caster swapped, the invisible moved).
    checks=CHECKS,
)
bind(SPEC, Wiring(first_steps, render_text, check_board, check_stack))

__all__ = ["RULES_VERSION", "SPEC", "MidwayOptions", "MidwayState"]
