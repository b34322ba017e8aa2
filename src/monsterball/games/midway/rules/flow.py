"""The flow of a game of Monsters of the Midway, step by step in the rulebook's order.

::

    Draft(A) -> Draft(B) -> CoinToss -> TossChoice -> StartKickoff
    StartKickoff -> SetUp(kickers) -> SetUp(receivers) -> KickoffKick -> [Play ... phases]
    Play (dead) -> settle: touchdown -> Conversion -> StartKickoff
                           otherwise  -> StartScrimmage -> SetUp(offense) -> SetUp(defense)
                                         -> ShiftStep -> Adjust -> SnapStep -> [Play ...]
    after the last play -> GameOver

Modules: ``draft``, ``kickoff`` (toss, formations, kickoffs), ``scrimmage`` (the five steps
and the snap), ``scoring`` (field goals and extra points), ``settle`` (the end of a play,
conversions, the end of the game) and the in-play steps: ``inplay`` (the shared base and
bookkeeping), ``phases`` (movement phases), ``contact`` (blocks, tackles, ettins), ``ball``
(passes, catches, fumbles, punts in the air), ``magic`` (mirror image, invisibility). This
module lists every step kind for positions (``ALL_STEPS``) and wires ``inplay.FLOW``; import
a step from the module that defines it.
"""

from __future__ import annotations

from typing import Any

from monsterball.core.procedures import Procedure
from monsterball.games.midway.rules.ball import (
    BounceCount,
    CatchRoll,
    HiddenIntercept,
    InterceptOrder,
    KickCatch,
    LooseBallRound,
    PassResolution,
    PuntCarry,
    PuntKick,
    RecoveryRoll,
    Scatter,
)
from monsterball.games.midway.rules.contact import (
    BlockOrder,
    BlockRoll,
    DesignateBlock,
    EttinAttack,
    EttinRoll,
    SecondBlock,
    TackleRoll,
    TackleRound,
)
from monsterball.games.midway.rules.draft import (
    Draft,
    DraftRandom,
)
from monsterball.games.midway.rules.inplay import FLOW
from monsterball.games.midway.rules.kickoff import (
    CoinToss,
    KickLanding,
    KickoffKick,
    OnsideRoll,
    SetUp,
    StartKickoff,
    TossChoice,
)
from monsterball.games.midway.rules.magic import AppearPick, MirrorRoll, PickReal, PlaceImage
from monsterball.games.midway.rules.phases import EndPhase, Phase, StartPhase
from monsterball.games.midway.rules.scoring import (
    FieldGoalRoll,
    KickBlock,
    KickBlockRoll,
    PatRoll,
    PatScore,
    StunRoll,
)
from monsterball.games.midway.rules.scrimmage import (
    Adjust,
    Announce,
    ShiftMore,
    ShiftStep,
    SnapStep,
    StartScrimmage,
)
from monsterball.games.midway.rules.settle import (
    AfterConversion,
    Conversion,
    GameOver,
    Play,
)
from monsterball.games.midway.state import MidwayState


def first_steps(state: MidwayState) -> tuple[Procedure[Any], ...]:
    return (Draft(0),)


ALL_STEPS: tuple[type[Procedure[Any]], ...] = (
    Draft,
    DraftRandom,
    CoinToss,
    TossChoice,
    StartKickoff,
    SetUp,
    KickoffKick,
    KickLanding,
    OnsideRoll,
    StartScrimmage,
    ShiftStep,
    Adjust,
    SnapStep,
    FieldGoalRoll,
    KickBlock,
    KickBlockRoll,
    StunRoll,
    Conversion,
    PatRoll,
    PatScore,
    AfterConversion,
    GameOver,
    Play,
    StartPhase,
    Phase,
    EndPhase,
    BlockRoll,
    TackleRound,
    TackleRoll,
    PassResolution,
    CatchRoll,
    DesignateBlock,
    InterceptOrder,
    RecoveryRoll,
    LooseBallRound,
    Scatter,
    BounceCount,
    PuntKick,
    PuntCarry,
    EttinRoll,
    EttinAttack,
    MirrorRoll,
    PlaceImage,
    PickReal,
    AppearPick,
    HiddenIntercept,
    KickCatch,
    Announce,
    BlockOrder,
    SecondBlock,
    ShiftMore,
)
FLOW.wire(ALL_STEPS)
