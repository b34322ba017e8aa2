"""Helpers shared by Huck + Monster's rule steps: dice outcomes, All-Star stats, coach
rotation, claiming a loose disc, the end of a game, and ``FLOW``, the step table by name that
lets a step start a step of a chapter above it."""

from __future__ import annotations

from fractions import Fraction

from monsterball.core.actions import Action
from monsterball.core.flow import Flow
from monsterball.core.game import uniform
from monsterball.core.geometry import iter_bits
from monsterball.core.procedures import Transition
from monsterball.games.huck_monster import events as ev
from monsterball.games.huck_monster.field import team_of
from monsterball.games.huck_monster.matchup import (
    all_star_stat,
    is_dump,
    is_hammer,
    strategy_faces,
    team_roll,
)
from monsterball.games.huck_monster.state import NOBODY, HuckMonsterState

State = HuckMonsterState
# Steps by name, wired by the package once every chapter is loaded (see core.flow).
FLOW: Flow[State] = Flow()


MONSTER_MOVE = 5  # HM-SD-12: "up to 5 spaces"


def team_dice_outcomes(state: State, dice: int) -> list[tuple[Action, Fraction]]:
    """Team dice as one chance event per total; a Team Pin spin instead (HM-TPIN-1)."""
    pins = state.options.team_pins
    table = state.actions.spin if pins else state.actions.sums[dice]
    key = (id(table), dice, pins)
    found = _SUMS.get(key)
    if found is None or found[0] is not table:
        found = _SUMS[key] = (table, tuple((table[v], p) for v, p in team_roll(dice, pins)))
    return list(found[1])


# (the action table, its outcomes) by (id of the table, dice, pins): the table is kept, so its
# id stays its own; one entry per options' table, a handful in any process.
_SUMS: dict[tuple[int, int, bool], tuple[object, tuple[tuple[Action, Fraction], ...]]] = {}


def strategy_outcomes(state: State, offense: bool) -> list[tuple[Action, Fraction]]:
    """The strategy die's faces, or the Playmaker Pin / Game Disc outcomes (HM-PIN-4)."""
    equipment = state.options.strategy_equipment
    faces = strategy_faces(equipment, offense)
    if equipment == "dice":
        table = state.actions.light if offense else state.actions.dark
    else:
        by_face = {a.value: a for a in state.actions.pin}
        table = tuple(by_face[f] for f in faces)
    return uniform(table)


def stealth_bonus(state: State, player: int) -> int:
    """HM-STEALTH-1: +1 to the count of a player acting from a Stealth Space."""
    return 1 if player >= 0 and state.stealth >> state.pos[player] & 1 else 0


def is_all_star(state: State, player: int) -> bool:
    """HM-R42: A1 and B1 are the Sideline All-Stars when the kit is in play."""
    return state.options.all_stars and player >= 0 and player % 7 == 0


def star_spent(state: State, player: int) -> bool:
    """HM-STAR-6: "All-Stars may only act once per Up Call, and cannot be involved in the same
    Up Call twice": an All-Star who has thrown, Continued or bid in this Up Call is marked in
    ``bidders`` (kept across a one-die Continue, which stays in the same Up Call)."""
    return is_all_star(state, player) and bool(state.bidders >> player & 1)


def must_dump(state: State, light: str) -> bool:
    """HM-SD-11 / HM-PIN-3 / HM-R37: this throw must go backward: a Dump rolled or spun for
    it, or (``pin_dump=next``) a pin Dump spun for the team's throw before."""
    later = light == "pin-dump" and state.options.pin_dump == "next"
    return state.dump_next or (is_dump(light) and not later)


def receivers(state: State, count: int, light: str) -> dict[int, int]:
    """HM-THROW-2: where the throw may go, per Receiver; an All-Star who has already acted in
    this Up Call cannot receive it (HM-STAR-6)."""
    targets = state.throw_targets(count, dump=must_dump(state, light), hammer=is_hammer(light))
    if not state.options.all_stars:
        return targets  # (star_spent needs the All-Stars kit: a fresh dict, nothing to drop)
    return {r: m for r, m in targets.items() if not star_spent(state, r)}


def star_bonus(state: State, player: int, action: str) -> int:
    """HM-STAR-2..4: an All-Star adds his stat for ``action`` in his team's current role."""
    if not is_all_star(state, player):
        return 0
    return all_star_stat(action, team_of(player) == state.offense)


def rotate_coaches(state: State, team: int, moment: str) -> None:
    """Four-coach rotation (HM-4P-1..4, HM-R28): counts turn units per team; the seating
    layer maps them to coaches. 'rulebook' switches the offense at each catch and the defense
    at each new defender; 'every-action' at every team action."""
    if state.options.coach_rotation == "every-action":
        if moment in ("move", "throw", "catch", "bid"):
            state.coach_turn[team] += 1
    elif moment in ("catch", "bid"):
        state.coach_turn[team] += 1


def claim_if_next_to(state: State) -> None:
    """HM-POSS-2: an offensive player next to the loose disc takes possession."""
    if state.holder != NOBODY:
        return
    near = state.next_to_disc(state.offense)
    if near:
        state.holder = near[0]
        state.emit(ev.Claimed(near[0]))


def nearest_open_next_to(state: State, player: int, near: int, within: int) -> int:
    """The open space next to ``player`` nearest ``near`` (inside ``within`` if given)."""
    disc, state.disc = state.disc, NOBODY
    ring = state.adjacent(state.pos[player]) & state.open_spaces()
    state.disc = disc
    if within:
        ring = ring & within or ring
    if not ring:
        return NOBODY
    dist = state.field.distance_row(near)
    return min(iter_bits(ring), key=lambda c: (dist[c], c))


def is_uncontested(state: State, player: int) -> bool:
    """No player of the other team beside ``player`` (HM-CALL-3, HM-RETHROW-1)."""
    return not state.players_in(state.adjacent(state.pos[player]), 1 - team_of(player))


def finish_game(state: State, *, by_cap: bool) -> Transition:
    if by_cap:
        a, b = state.score
        state.winner = 0 if a > b else 1 if b > a else 2
    state.emit(ev.GameOver(state.result_text()))
    return ()
