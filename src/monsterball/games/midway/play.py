"""The steps of a play once the ball is live, re-exported from their modules.

A play is a ``Play`` marker at the bottom with phases above it::

    [Play] [StartPhase(A)] -> [Play] [Phase(A)] -> [Play] [EndPhase(A)] -> [Play] [StartPhase(B)]
                                      ^ sub-steps (TackleRound, TackleRoll, RecoveryRoll, ...)

When something ends the play (a tackle, a touchdown, an incomplete pass) the step sets
``state.dead``; every in-play step then resolves to nothing, the stack unwinds to ``Play``,
and ``Play`` settles the result (see :mod:`monsterball.games.midway.settle`).

Modules: ``inplay`` (the shared base and bookkeeping), ``phases`` (movement phases),
``contact`` (blocks, tackles, ettins), ``ball`` (passes, catches, fumbles, punts in the air)
and ``magic`` (mirror image, invisibility). ``phases`` builds steps from the other three;
where ``ball`` hands back to a phase step it names it through ``inplay.FLOW``.
"""

from __future__ import annotations

from monsterball.games.midway.ball import (
    TWO_D6,
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
    blocked_kick,
)
from monsterball.games.midway.contact import (
    BlockOrder,
    BlockRoll,
    DesignateBlock,
    EttinAttack,
    EttinRoll,
    SecondBlock,
    TackleRoll,
    TackleRound,
)
from monsterball.games.midway.inplay import (
    InPlay,
    cell_of,
    check_score,
    end_mirror,
    injure,
    past_midfield,
    reappear,
    recovery_order,
    score_of,
    take_ball,
    team_bits,
    travel_dir,
    wrong,
)
from monsterball.games.midway.magic import (
    AppearPick,
    MirrorRoll,
    PickReal,
    PlaceImage,
)
from monsterball.games.midway.phases import (
    EndPhase,
    Phase,
    StartPhase,
    block_pairs,
)

__all__ = [
    "TWO_D6",
    "AppearPick",
    "BlockOrder",
    "BlockRoll",
    "BounceCount",
    "CatchRoll",
    "DesignateBlock",
    "EndPhase",
    "EttinAttack",
    "EttinRoll",
    "HiddenIntercept",
    "InPlay",
    "InterceptOrder",
    "KickCatch",
    "LooseBallRound",
    "MirrorRoll",
    "PassResolution",
    "Phase",
    "PickReal",
    "PlaceImage",
    "PuntCarry",
    "PuntKick",
    "RecoveryRoll",
    "Scatter",
    "SecondBlock",
    "StartPhase",
    "TackleRoll",
    "TackleRound",
    "block_pairs",
    "blocked_kick",
    "cell_of",
    "check_score",
    "end_mirror",
    "injure",
    "past_midfield",
    "reappear",
    "recovery_order",
    "score_of",
    "take_ball",
    "team_bits",
    "travel_dir",
    "wrong",
]
