"""What requests send, typed once for every router: an option's value, bot seats, and a clock
(one tagged union: the game API, challenges and quick pairing take the same)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from monsterball.web.live.game import Rejected
from monsterball.web.live.time_control import BadClock, TimeControl

# option name -> value: options are flags, numbers and words, never nested
OptionValue = (
    bool
    | Annotated[int, Field(ge=-(2**53), le=2**53)]
    | float
    | Annotated[str, Field(max_length=400)]
    | None
)
# seat name -> bot level
BotSeats = dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=40)]]


class Realtime(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["realtime"]
    # Checked again by TimeControl.parse against the server's shortest control.
    minutes: float = Field(gt=0, le=180)
    increment: int = Field(ge=0, le=60)  # seconds added after each move


class Correspondence(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["correspondence"]
    days: int = Field(ge=1, le=14)  # per move


ClockInput = Annotated[Realtime | Correspondence, Field(discriminator="kind")]


def time_control(clock: Realtime | Correspondence | None, min_seconds: float) -> TimeControl | None:
    """The clock as the rooms take it, checked against the server's shortest control."""
    try:
        return TimeControl.parse(clock.model_dump() if clock else None, min_seconds=min_seconds)
    except BadClock as exc:
        raise Rejected("bad-request", str(exc)) from None
