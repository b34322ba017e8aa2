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
conversions, the end of the game); the in-play steps (phases, tackles, passes, ...) are
re-exported by :mod:`monsterball.games.midway.play`. This module lists every step kind for
positions (``ALL_STEPS``) and re-exports the flow steps.
"""

from __future__ import annotations

from typing import Any

from monsterball.core.procedures import Procedure
from monsterball.games.midway.draft import (
    Draft,
    DraftRandom,
    affordable,
    assign,
    best_pick,
    draft_left,
    rating,
)
from monsterball.games.midway.inplay import FLOW
from monsterball.games.midway.kickoff import (
    CoinToss,
    KickLanding,
    KickoffKick,
    OnsideRoll,
    SetUp,
    StartKickoff,
    TossChoice,
    kicker_of,
    new_play,
    wind,
)
from monsterball.games.midway.play import (
    AppearPick,
    BlockOrder,
    BlockRoll,
    BounceCount,
    CatchRoll,
    DesignateBlock,
    EndPhase,
    EttinAttack,
    EttinRoll,
    HiddenIntercept,
    InterceptOrder,
    KickCatch,
    LooseBallRound,
    MirrorRoll,
    PassResolution,
    Phase,
    PickReal,
    PlaceImage,
    PuntCarry,
    PuntKick,
    RecoveryRoll,
    Scatter,
    SecondBlock,
    StartPhase,
    TackleRoll,
    TackleRound,
)
from monsterball.games.midway.scoring import (
    FieldGoalRoll,
    KickBlock,
    KickBlockRoll,
    PatRoll,
    PatScore,
    StunRoll,
    big_blockers,
    fg_good,
    pat_block_or_score,
)
from monsterball.games.midway.scrimmage import (
    Adjust,
    Announce,
    ShiftMore,
    ShiftStep,
    SnapStep,
    StartScrimmage,
    fg_distance,
)
from monsterball.games.midway.settle import (
    AfterConversion,
    Conversion,
    GameOver,
    Play,
    change,
    next_kickoff_or_end,
    next_scrimmage,
    settle,
    short_handed,
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


__all__ = [
    "ALL_STEPS",
    "Adjust",
    "AfterConversion",
    "CoinToss",
    "Conversion",
    "Draft",
    "DraftRandom",
    "FieldGoalRoll",
    "GameOver",
    "KickBlock",
    "KickBlockRoll",
    "KickLanding",
    "KickoffKick",
    "OnsideRoll",
    "PatRoll",
    "PatScore",
    "Play",
    "SetUp",
    "ShiftStep",
    "SnapStep",
    "StartKickoff",
    "StartScrimmage",
    "StunRoll",
    "TossChoice",
    "affordable",
    "assign",
    "best_pick",
    "big_blockers",
    "change",
    "draft_left",
    "fg_distance",
    "fg_good",
    "first_steps",
    "kicker_of",
    "new_play",
    "next_kickoff_or_end",
    "next_scrimmage",
    "pat_block_or_score",
    "rating",
    "settle",
    "short_handed",
    "wind",
]
