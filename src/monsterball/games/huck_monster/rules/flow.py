"""The rule steps of Huck + Monster, each named after the rulebook's words.

Flow of one point (``->`` is the transition a step returns; controllers stay below the steps
they start and resume when those finish)::

    ChooseOffense -> StartPoint -> SetUp(offense) -> SetUp(defense) -> PlaceTheDisc
    -> PullRoll -> PullLanding -> TeamMoves('loose')
    TeamMoves: MoveRoll(offense) -> Moving(offense) -> MoveRoll(defense) -> Moving(defense)
               -> UpCall('start')       (a loose disc unclaimed twice: StartPoint again)
    UpCall: OffenseAction(throw) -> Aim -> Bid(mark) -> Bid(intercept)... -> OffenseAction(
            catch) -> Bid(catch-mark / challenge)... -> 'end': a catch (TeamMoves, or a point),
            a turnover (TeamMoves; a Poach: UpCall at once) or a stall (TeamMoves('stall'))

The steps live in one module per chapter of the rulebook: ``point`` (choosing offense, the
set-up, the pull), ``moves`` (team moves), ``upcall`` (the Up Call), ``bid`` (bids and
strategy dice), ``pro`` (Continue, The Rethrow, Double Team, Pivot) and ``kits`` (All-Stars,
Potholes, Hot Hex, Cone Push), over ``common`` (shared helpers). A chapter imports the chapters
below it; a step that hands back to a chapter above (a score starts the next point) names it
through ``common.FLOW``, wired here.

Imports: core, and this game's ``actions``, ``events``, ``options``, ``matchup`` and ``state``.
"""

from __future__ import annotations

from monsterball.core.procedures import Procedure
from monsterball.games.huck_monster.options import HuckMonsterOptions
from monsterball.games.huck_monster.rules.bid import Bid
from monsterball.games.huck_monster.rules.common import FLOW, State
from monsterball.games.huck_monster.rules.kits.all_stars import UpMove
from monsterball.games.huck_monster.rules.kits.cone_push import (
    ConeBack,
    ConePushSetUp,
    ConeThrowRoll,
    ConeThrows,
    ConeTurn,
)
from monsterball.games.huck_monster.rules.kits.potholes import Potholes
from monsterball.games.huck_monster.rules.moves import MoveRoll, Moving, TeamMoves
from monsterball.games.huck_monster.rules.point import (
    ChooseGameStyle,
    ChooseOffense,
    PlaceTheDisc,
    PullLanding,
    PullRoll,
    SetUp,
    StartPoint,
)
from monsterball.games.huck_monster.rules.pro import (
    ContinueChoice,
    ContinueOptOut,
    ContinueRoll,
    DoubleTeam,
    Pivot,
    RethrowChoice,
)
from monsterball.games.huck_monster.rules.upcall import Aim, OffenseAction, Steer, UpCall


def first_steps(options: HuckMonsterOptions) -> tuple[Procedure[State], ...]:
    return (ChooseOffense(),)


ALL_STEPS: tuple[type[Procedure[State]], ...] = (
    ChooseOffense,
    StartPoint,
    SetUp,
    PlaceTheDisc,
    PullRoll,
    PullLanding,
    TeamMoves,
    MoveRoll,
    Moving,
    UpCall,
    Aim,
    Steer,
    OffenseAction,
    Bid,
    Pivot,
    RethrowChoice,
    DoubleTeam,
    UpMove,
    Potholes,
    ChooseGameStyle,
    ContinueChoice,
    ContinueOptOut,
    ContinueRoll,
    ConePushSetUp,
    ConeTurn,
    ConeThrowRoll,
    ConeThrows,
    ConeBack,
)

FLOW.wire(ALL_STEPS)

__all__ = ["ALL_STEPS", "first_steps"]
