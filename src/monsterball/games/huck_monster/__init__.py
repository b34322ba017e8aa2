"""Huck + Monster: Ultimate Frisbee on a hex field with dice (rulebook 000), standard game.

This package ``__init__`` is the game's top layer: it wires the state to the modules above it
(step kinds, first steps, text view, position checks) and defines ``SPEC``. The layers inside
the game are drawn in docs/architecture.md and checked by tests/architecture/test_layers.py.
Imports: core and this game's modules only (never another game, never a layer above games)."""

from __future__ import annotations

import sys
from typing import Any, cast

from monsterball.core.actions import ActionTable
from monsterball.core.contract import Calculator, GameDocs, OddsHooks, RLHooks, ViewHooks
from monsterball.core.fastinit import fast_inits, module_dataclasses
from monsterball.core.game import GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.core.procedures import stack_kinds
from monsterball.games.huck_monster.actions import action_table, parse_decision
from monsterball.games.huck_monster.analysis.heuristic import BOT
from monsterball.games.huck_monster.analysis.odds import catch_odds
from monsterball.games.huck_monster.analysis.throw_odds import odds_targets
from monsterball.games.huck_monster.options import HuckMonsterOptions
from monsterball.games.huck_monster.rules.flow import ALL_STEPS, first_steps
from monsterball.games.huck_monster.state import HuckMonsterState, Wiring, bind
from monsterball.games.huck_monster.validate import validate_position
from monsterball.games.huck_monster.views.board import board_view
from monsterball.games.huck_monster.views.coaching import acting_coach
from monsterball.games.huck_monster.views.render import render_text

RULES_VERSION = "huck-monster/1.4.2"


def _new_state(options: GameOptions) -> GameState:
    return HuckMonsterState(cast(HuckMonsterOptions, options))


def _action_table(options: GameOptions) -> ActionTable:
    return action_table(cast(HuckMonsterOptions, options))


HuckMonsterState.procedure_kinds = stack_kinds(ALL_STEPS)

RULINGS = {
    "HM-R1": "Hex field, 8 wide, 17 long, 3-row end zones (options grid, width, length, "
    "end_zone_depth).",
    "HM-R2": "Each team lines up its 7 players one at a time on its line; the receivers first.",
    "HM-R3": "Seat A has the Huck bag and starts on offense (option first_offense).",
    "HM-R4": "The pull moves one open space per step, each a row nearer the receivers, for the "
    "full count whenever some path can; else as far as any path can; the pulling coach steers.",
    "HM-R5": "A move count is a limit: a team may end its move early (option full_moves: "
    "not while a player can still move).",
    "HM-R6": "Until the loose disc is claimed, offensive moves must get as close to it as "
    "possible (option pickup).",
    "HM-R7": "A pull not claimed after the second offensive move: the point restarts.",
    "HM-R8": "After a stall the new offense must claim the disc; if it cannot, its nearest "
    "player takes it.",
    "HM-R9": "The Handler names receiver and stop space; the disc takes the path meeting the "
    "fewest bidders (option throw_path; option steer: the Handler names each space).",
    "HM-R10": "A throw stops on an open space next to the receiver, 1..count spaces away.",
    "HM-R11": "One bid per defender per throw: Mark, Intercepts in path order, catch Marks, "
    "then Challenges; the first winner takes the disc (option mark_waits: a Mark guarding the "
    "catch bids there).",
    "HM-R12": "Ties go to the offense (option ties).",
    "HM-R13": "Bids are automatic; only adding the strategy die is a choice.",
    "HM-R14": "After a turnover the disc moves next to the new Handler if he is not beside it.",
    "HM-R15": "End-zone turnovers at either end move Handler and disc to the nearest line "
    "spaces, measured from where each is (both already on the line stay).",
    "HM-R16": "Strategy dice apply to throws, catches and bids, not pulls or team moves "
    "(option strategy_dice).",
    "HM-R17": "The strategy face is rolled just before the team dice.",
    "HM-R18": "Strip and Hot Bid: keep the roll or re-roll once; the second roll stands "
    "(option strip=best: Strip keeps the better count; option hot_bid=both: after a Hot Bid "
    "the offense may re-roll too).",
    "HM-R19": "Footer halves (rounding down) for the rest of the action; a path now too long "
    "falls short: a stall turnover.",
    "HM-R20": "Hammer: the path may cross one defender, who does not bid; on a catch the first "
    "guard does not bid.",
    "HM-R21": "Huck/Footer and Break, Layout or Hammer/No Big cancel in their matchup.",
    "HM-R22": "Monster: one defender moves up to 5 open spaces, not onto the disc's path, "
    "before the dice; a bidder who moves himself bids in his new space's role, or not at all.",
    "HM-R23": "A face rolled on an action it does not fit is spent; a Dump must stop behind "
    "the disc's row.",
    "HM-R24": "A winning Poach starts the next Up Call at once.",
    "HM-R25": "Beat and No Big are decided without team dice; No Big only helps Marks.",
    "HM-R26": "Only one defender may stand next to the Handler's disc; extras move away first; "
    "one Mark rolls per throw, whatever a Monster or Match then moves.",
    "HM-R27": "First to 7, win by 1; preset scrimmage: to 3, win by 2.",
    "HM-R28": "Four coaches: the offense switches at each catch, the defense at each new "
    "defender (option coach_rotation).",
    "HM-R29": "Each team's strategy die is available once in each Up Call.",
    "HM-R30": "The lowest-numbered offensive player next to a loose disc takes it.",
    "HM-R31": "max_up_calls caps a game for simulations (off by default).",
    "HM-R32": "Pro Callahan: uncontested = no offensive player beside the Intercept; the "
    "scorer pulls from the end it defended (no switch of ends).",
    "HM-R33": "Pro pivot: offered after the offense's team move, before the defense rolls.",
    "HM-R34": "Pro rethrow: the Intercept's team chooses, then the other team may play on.",
    "HM-R35": "Pro double team: the Handler calls it after the throw roll or after the first "
    "Mark's roll; called Marks move to open spaces at least 2 from the disc; uncalled, every "
    "Mark bids.",
    "HM-R36": "Pin outcomes add their numbers to their side's count (never below 0).",
    "HM-R37": "Pin Huck and Hammer are invalid on a catch (Doink and Dump count); a pin Dump "
    "binds the throw it is spun for (option pin_dump=next: the team's next throw).",
    "HM-R38": "Team Pins: every team-dice roll, moves and pulls included, is a spin of 1..18.",
    "HM-R39": "A Strategy Game Disc shows only its own side's 9 pin outcomes.",
    "HM-R40": "Stealth Spaces: two staggered rows of 4; +1 to throws, catches and bids.",
    "HM-R41": "A pin Monster moves only the spinner, who may bid again later (never twice as "
    "the Mark); Match pairs defenders and attackers closest first (ties: lower numbers); a "
    "moved bidder bids in his new space's role.",
    "HM-R42": "All-Stars are A1 and B1; Handler stats on offense (and the pull), Monster "
    "stats on defense.",
    "HM-R43": "The All-Star Monster makes at most one Up Move per Up Call, offered after the "
    "aim (again on a Continue's throw if he stayed; option up_move=any-time: and before the "
    "catch).",
    "HM-R44": "Expert: coaches list the strategy results they rule out (expert_disabled); "
    "those count for nothing.",
    "HM-R45": "Pothole Markers: 4 cones in the end-zone back corners; after each turnover the "
    "losing team adds one beside its players, moving one once 8 are out.",
    "HM-R46": "Beaten Defenders: a crossed defender bids (once) as the disc reaches him.",
    "HM-R47": "With style_each_point the receiving team picks standard, pothole or hot-hex "
    "before each point.",
    "HM-R48": "Continue: an offensive player with no defender beside him, next to a space the "
    "disc enters (not thrower or Receiver), adds 1 die to the count left and rethrows from "
    "there; no strategy dice; a Team Pin spin counts half, rounded up.",
    "HM-R49": "Under The Rethrow (continues=rethrow) the Continue rolls 3 dice in a new Up "
    "Call; the other team may play on (a completed catch).",
    "HM-R50": "Contested count: the coach states the one-die Continue's remaining count; a "
    "wrong one stops the disc there, the Continue keeps it, the Up Call ends.",
    "HM-R51": "Hot Hex: cones on the corners of the ring 2 from the centre; inside (centre and "
    "neighbours) scores for both teams; 5 a side; Callahans count; no switch of ends.",
    "HM-R52": "Hot Hex: no offensive player moves into the hex while a teammate is inside "
    "(option hex_limit=per-move: one may enter per team move).",
    "HM-R53": "Cone Push (cone_push) is a match of its own to 4 cones, never a point's style.",
    "HM-R54": "Cone Push: a throw pays the disc's flight to a cone plus its straight push; "
    "cones stack; a cone in an end zone scores for the attacker and goes back to the line.",
    "HM-R55": "An All-Star who has thrown, Continued or bid may not act again in that Up Call.",
}


def _rl_features(spec: GameSpec, options: GameOptions) -> Any:
    # Lazy: the learning module imports numpy (the ``rl`` extra).
    from monsterball.games.huck_monster.analysis.learning import features

    return features(spec, options)


# Decisions (both seats) after which an unfinished game is truncated by default: about twice
# the longest of 40 random games with the default options and above every game of
# scripts/ledgers/strength.jsonl (docs/rl.md, "the long-game cut").
RL = RLHooks(features=_rl_features, max_decisions=8_000)

SPEC = GameSpec(
    id="huck-monster",
    title="Huck + Monster",
    summary="7 v 7 Ultimate Frisbee on a hex field: pulls, team moves, the Up Call of "
    "throws, marks, intercepts, challenges and catches, and strategy dice.",
    rulebook="000_a5c15c169b753ffc.txt",
    rules_version=RULES_VERSION,
    options_type=HuckMonsterOptions,
    state_type=HuckMonsterState,
    seat_names=("A", "B"),
    new_state=_new_state,
    parse_decision=parse_decision,
    action_table=_action_table,
    aliases=("hm", "huck", "huck-and-monster", "huck+monster"),
    coaches=(2, 4),
    rulings=RULINGS,
    board=board_view,
    bot=BOT,
    odds=OddsHooks(
        targets=odds_targets,
        aimed="throw",
        calculator=Calculator(
            "catch", "Exact probability that a throw is caught against the given bids.", catch_odds
        ),
    ),
    docs=GameDocs(
        rules_file="huck-monster.md",
        rulebook_title="Huck + Monster, the Starting 7 Pickup rulebook with its kits and Pro rules",
        lessons_package=__name__,
        legend="Legend: A1 team A, B1 team B, A1* the Handler, () the disc, :: end zone, "
        "== line space, .. field, ~~ the disc's path, /\\ a cone, ** a Stealth Space. "
        "'board' shows this again.",
    ),
    # Servers and UIs ask which of a team's two coaches acts now (HM-R28).
    views=ViewHooks(acting_coach=acting_coach, ball="disc"),
    rl=RL,
)
bind(SPEC, Wiring(first_steps, render_text, validate_position))
# Steps, events and actions are frozen dataclasses built at nearly every action: give them
# the faster constructor (core.fastinit; the same objects, about 3x quicker to build).
fast_inits(module_dataclasses(*sorted(m for m in sys.modules if m.startswith(__name__ + "."))))

__all__ = ["RULES_VERSION", "SPEC", "HuckMonsterOptions", "HuckMonsterState"]
