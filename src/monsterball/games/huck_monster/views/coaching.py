"""Which coach must act now in a four-coach game (HM-4P-1..4, HM-R28).

The rules count each team's turn units in ``state.coach_turn`` (when a unit begins is the
rotation rule, see ``procedures.common._rotate``); this module maps the count to a coach through
:class:`monsterball.core.seating.Seating`, for servers and UIs.
"""

from __future__ import annotations

from monsterball.core.game import GameState
from monsterball.core.seating import Seating
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.kits.cone_push import ConeThrowRoll
from monsterball.games.huck_monster.rules.moves import MoveRoll, Moving
from monsterball.games.huck_monster.rules.pro import ContinueRoll
from monsterball.games.huck_monster.rules.upcall import OffenseAction
from monsterball.games.huck_monster.state import HuckMonsterState


def acting_team(state: HuckMonsterState) -> int | None:
    """The team whose coach acts or rolls now (dice belong to a team too), or None."""
    if not state.stack:
        return None
    top = state.stack[-1]
    seat = state.current_player()
    if seat >= 0:
        return seat
    if isinstance(top, (MoveRoll, Moving, ConeThrowRoll)):
        return top.team
    if isinstance(top, (OffenseAction, ContinueRoll)):
        return state.offense
    if isinstance(top, Bid):
        return state.defense
    return None


def acting_coach(state: GameState, seating: Seating) -> str | None:
    """The coach who must act (or roll) now; None while nobody does (set-up bookkeeping)."""
    assert isinstance(state, HuckMonsterState)
    team = acting_team(state)
    if team is None:
        return None
    return seating.coach_for(team, state.coach_turn[team])
