"""The rule steps of Paper Ultimate, each named after the rulebook's words.

Flow of one point (``->`` is the transition a step returns)::

    CoinToss -> StartPoint -> SetUp(receiver) -> SetUp(puller) -> HandDisc -> Pull
    Pull -> Running(offense) -> Running(defense) -> Throwing(offense)
                    ^                                  |  pass: catch
                    |   MonsterDefense -> MonsterDie <-+  (a defender next to the catcher)
                    +-- (next cycle) <-----------------+
    Throwing: no free receiver -> turn -> [NextPlayer] -> Running(new offense) ...
    a catch in the attacking end zone -> point -> StartPoint (scorer pulls) or game over

The steps live in one module per chapter of the rulebook, each importing the chapters below
it: ``setting`` (the coin toss, the set-up, the pull) > ``running`` (Running, Marking, Steps
of playing) > ``throwing`` > ``monster`` ("monster Defense") > ``turn`` > ``scoring``, over
``common``. The one hand-back upward, scoring's next point (``StartPoint``) and next running
step (``Running``), goes through ``common.FLOW``, wired here.

Imports: core, and this game's ``actions``, ``events``, ``options`` and ``state``.
"""

from __future__ import annotations

from monsterball.core.procedures import Procedure
from monsterball.games.paper_ultimate.options import TEAM_NAMES, PaperUltimateOptions
from monsterball.games.paper_ultimate.rules.common import FLOW, State
from monsterball.games.paper_ultimate.rules.monster import MonsterDefense, MonsterDie
from monsterball.games.paper_ultimate.rules.running import Running
from monsterball.games.paper_ultimate.rules.setting import (
    CoinToss,
    HandDisc,
    Pull,
    SetUp,
    StartPoint,
)
from monsterball.games.paper_ultimate.rules.throwing import Throwing
from monsterball.games.paper_ultimate.rules.turn import NextPlayer


def first_steps(options: PaperUltimateOptions) -> tuple[Procedure[State], ...]:
    if options.first_receiver == "toss":
        return (CoinToss(),)
    return (StartPoint(TEAM_NAMES.index(options.first_receiver)),)


ALL_STEPS: tuple[type[Procedure[State]], ...] = (
    CoinToss,
    StartPoint,
    SetUp,
    HandDisc,
    Pull,
    Running,
    Throwing,
    MonsterDefense,
    MonsterDie,
    NextPlayer,
)

FLOW.wire(ALL_STEPS)

__all__ = ["ALL_STEPS", "first_steps"]
