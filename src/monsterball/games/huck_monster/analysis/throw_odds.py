"""The exact catch odds of each throw a Handler may aim (the web page shows them while the
coach aims): which bidders the engine's path would meet, turned into an
:class:`~monsterball.games.huck_monster.analysis.odds.UpCallSetup` for :func:`catch_probability`.

The bidders follow the Up Call as the procedures run it: the Mark (a defender next to the
disc, HM-MARK-3), Intercepts along the path the engine chooses (HM-R9: the one meeting the
fewest defenders; HM-BEAT-1: a defender about to be passed over bids first), then Marks next
to the disc's stop and Challenges next to the Receiver (HM-CATCH-3, HM-CHAL-1). Each defender
bids once. What the count model leaves out is said in ``caveats``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from monsterball.core.game import GameState
from monsterball.games.huck_monster.actions import ThrowTo
from monsterball.games.huck_monster.analysis.odds import UpCallSetup, catch_probability
from monsterball.games.huck_monster.matchup import THROW, is_hammer, light_effect
from monsterball.games.huck_monster.rules.upcall import Aim
from monsterball.games.huck_monster.state import NO_FACE, HuckMonsterState


@dataclass(frozen=True, slots=True)
class ThrowOdds:
    action: str
    cell: str
    receiver: str
    setup: UpCallSetup
    p_catch: Fraction


def aiming_count(state: HuckMonsterState) -> int | None:
    """The throw count being aimed, or None when the Handler is not aiming."""
    top = state.stack[-1] if state.stack else None
    return top.count if isinstance(top, Aim) else None


def caveats(state: HuckMonsterState) -> list[str]:
    """What the figures do not count, in words (empty: they are exact for this throw)."""
    out = []
    options = state.options
    if state.light != NO_FACE:
        out.append("the offense's strategy die already rolled is not counted")
    if options.strategy_dice:
        out.append("the defense's strategy die is not counted")
    if options.continues != "off":
        out.append("Continues are not counted")
    if options.stealth_spaces:
        out.append("stealth spaces are not counted")
    if options.all_stars:
        out.append("All-Stars are not counted")
    if options.double_team:
        out.append("only one Mark is counted")
    return out


def setup_for(state: HuckMonsterState, action: ThrowTo, count: int) -> UpCallSetup:
    field = state.field
    cell = field.parse_cell(action.cell)
    hammer = is_hammer(light_effect(state.light, THROW))
    path = state.best_path(action.receiver, cell, count, hammer=hammer)
    defense = state.defense
    bidders = state.bidders
    if hammer:  # HM-R20: the first defender passed over makes no bid
        for c in path[:-1]:
            if state.defender_cells() >> c & 1:
                bidders |= 1 << state.player_at(c)
                break
    mark = False
    for p in state.players_in(state.adjacent(state.disc), defense)[:1]:
        if not bidders >> p & 1:
            bidders |= 1 << p
            mark = True
    final = path[-1]
    guards = state.catch_guards(final, action.receiver)
    intercepts = 0
    for i in range(len(path) - 1):
        ahead = 1 << path[i + 1] & state.defender_cells()
        for p in state.players_in(ahead | (state.adjacent(path[i]) & ~guards), defense):
            if not bidders >> p & 1:
                bidders |= 1 << p
                intercepts += 1
    ring = state.adjacent(final)
    around = state.adjacent(state.pos[action.receiver])
    catch_marks = sum(1 for p in state.players_in(ring, defense) if not bidders >> p & 1)
    challenges = sum(1 for p in state.players_in(around & ~ring, defense) if not bidders >> p & 1)
    options = state.options
    return UpCallSetup(
        mark=mark,
        intercepts=intercepts,
        catch_marks=catch_marks,
        challenges=challenges,
        throw_count=count,
        ties=options.ties,
        path_length=len(path),
        equipment=options.strategy_equipment,
        team_pins=options.team_pins,
    )


def throw_odds(state: HuckMonsterState) -> list[ThrowOdds]:
    """P(caught) for every throw the Handler may aim now (empty when not aiming)."""
    count = aiming_count(state)
    if count is None:
        return []
    out = []
    for action in state.legal_actions():
        if not isinstance(action, ThrowTo):
            continue
        setup = setup_for(state, action, count)
        out.append(
            ThrowOdds(
                action.notation(),
                action.cell,
                action.notation().split()[1],
                setup,
                catch_probability(setup),
            )
        )
    return out


def odds_targets(state: GameState) -> dict[str, Any]:
    """The pages' catch odds while the Handler aims (``spec.odds.targets``): each target's
    exact chance and what the figures leave out; no targets when nobody aims."""
    assert isinstance(state, HuckMonsterState)
    targets = throw_odds(state)
    return {
        "ply": state.ply,
        "targets": [
            {
                "action": o.action,
                "cell": o.cell,
                "receiver": o.receiver,
                "p": float(o.p_catch),
                "exact": f"{o.p_catch.numerator}/{o.p_catch.denominator}",
                "count": o.setup.throw_count,
                "mark": o.setup.mark,
                "intercepts": o.setup.intercepts,
                "catch_marks": o.setup.catch_marks,
                "challenges": o.setup.challenges,
            }
            for o in targets
        ],
        "caveats": caveats(state) if targets else [],
    }
