"""Game clocks (docs/web.md, "Clocks"): time controls, and each side's time as the server keeps it.

A clock belongs to a side (a seat: a team, shared by its coaches when they rotate). It runs
only while that side has a decision to make, never during dice, a bot's turn or the other
side's turn. Times are whole milliseconds of server wall-clock time (``now_ms``), and the
state is plain JSON, stored with every move, so a restarted server goes on from the stored
figures with the time it was down counted. Nothing here reads a clock itself or trusts a
client: the room passes the server's time in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MINUTE_MS = 60_000
DAY_MS = 86_400_000
MAX_MINUTES = 180.0
MAX_INCREMENT = 60.0  # seconds
MAX_DAYS = 14
# A real-time side that has not made its first move this long after its clock started loses
# the game as abandoned (unless its clock runs out first): a stranger who never plays does
# not hold the other side for the whole time control.
FIRST_MOVE_GRACE_MS = 60_000


class BadClock(ValueError):
    """A time control a client sent that is not one (the message says what is wrong)."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    kind: str  # "realtime" or "correspondence"
    minutes: float = 0.0  # realtime: per side for the whole game
    increment: float = 0.0  # realtime: seconds added after each of the side's moves
    days: int = 0  # correspondence: per move

    @property
    def allowance_ms(self) -> int:
        """A side's time at the start (realtime) or for each move (correspondence)."""
        if self.kind == "realtime":
            return round(self.minutes * MINUTE_MS)
        return self.days * DAY_MS

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "realtime":
            return {"kind": "realtime", "minutes": self.minutes, "increment": self.increment}
        return {"kind": "correspondence", "days": self.days}

    def describe(self) -> str:
        if self.kind == "realtime":
            return f"{self.minutes:g} min + {self.increment:g} s"
        return f"{self.days} day{'s' if self.days != 1 else ''} per move"

    @classmethod
    def parse(cls, data: Any, *, min_seconds: float = 30.0) -> TimeControl | None:
        """A time control from JSON (None: no clock); BadClock in one line if it is not one.
        ``min_seconds``: the shortest real-time control the server allows (tests go lower)."""
        if data is None:
            return None
        if not isinstance(data, Mapping):
            raise BadClock("clock must be an object like {kind: realtime, minutes, increment}")
        kind = data.get("kind")
        if kind == "realtime":
            _only(data, {"kind", "minutes", "increment"})
            minutes = _number(data, "minutes", min_seconds / 60, MAX_MINUTES)
            increment = _number(data, "increment", 0.0, MAX_INCREMENT, default=0.0)
            return cls("realtime", minutes=minutes, increment=increment)
        if kind == "correspondence":
            _only(data, {"kind", "days"})
            days = data.get("days")
            if type(days) is not int or not 1 <= days <= MAX_DAYS:
                raise BadClock(f"clock.days must be a whole number from 1 to {MAX_DAYS}")
            return cls("correspondence", days=days)
        raise BadClock(f"clock.kind must be 'realtime' or 'correspondence', not {kind!r}")


def _only(data: Mapping[str, Any], keys: set[str]) -> None:
    extra = sorted(str(k) for k in set(data) - keys)
    if extra:
        raise BadClock(f"clock has unknown field(s) {', '.join(extra)}")


def _number(
    data: Mapping[str, Any], key: str, low: float, high: float, default: float | None = None
) -> float:
    value = data.get(key, default)
    ok = type(value) in (int, float) and math.isfinite(value) and low <= value <= high
    if not ok:
        raise BadClock(f"clock.{key} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


@dataclass(slots=True)
class Clock:
    """Each side's time left, as of ``since`` for the running side (None: no clock runs)."""

    control: TimeControl
    left_ms: list[int]
    running: int | None = None
    since_ms: int | None = None
    moved: list[bool] = field(default_factory=list)  # the side has made a move of its own
    started_ms: int | None = None  # when the running side's current decision began

    @classmethod
    def new(cls, control: TimeControl, sides: int) -> Clock:
        return cls(control, [control.allowance_ms] * sides, moved=[False] * sides)

    # -- reading -------------------------------------------------------------------------

    def left(self, side: int, now_ms: int) -> int:
        """The side's time left now (negative: past its flag)."""
        if side == self.running and self.since_ms is not None:
            return self.left_ms[side] - (now_ms - self.since_ms)
        return self.left_ms[side]

    def deadline(self) -> tuple[int, str] | None:
        """When the running side loses if it has not moved, and how ("time", or "abandoned":
        a real-time side's first move not made within the grace); None: no clock runs."""
        if self.running is None or self.since_ms is None:
            return None
        side = self.running
        flag = self.since_ms + self.left_ms[side]
        if self.control.kind == "realtime" and not self.moved[side]:
            began = self.started_ms if self.started_ms is not None else self.since_ms
            grace = began + FIRST_MOVE_GRACE_MS
            if grace < flag:
                return grace, "abandoned"
        return flag, "time"

    def flagged(self, now_ms: int) -> tuple[int, str] | None:
        """(the side, how) if the running side is out of time at ``now_ms``."""
        due = self.deadline()
        if due is None or now_ms < due[0]:
            return None
        assert self.running is not None
        return self.running, due[1]

    # -- changing (each returns a new clock: the room stores it before keeping it) --------

    def after_move(self, side: int, now_ms: int, *, turn_over: bool) -> Clock:
        """The clock once ``side`` has made a move at ``now_ms``: its time is charged, and no
        clock runs until ``run`` says whose decision is next. Real time: the increment is
        added when ``turn_over`` (the side's run of decisions ended: the next decision is the
        other side's or the dice's), so a set-up of seven placements earns one increment, not
        seven. Correspondence: every move gives the side its days again."""
        clock = self.copy()
        if clock.running == side and clock.since_ms is not None:
            clock.left_ms[side] -= max(0, now_ms - clock.since_ms)
        if self.control.kind == "realtime":
            if turn_over:
                clock.left_ms[side] += round(self.control.increment * 1000)
        else:
            clock.left_ms[side] = self.control.allowance_ms
        clock.moved[side] = True
        clock.running = clock.since_ms = clock.started_ms = None
        return clock

    def run(self, side: int | None, now_ms: int) -> Clock:
        """The clock with ``side``'s time running from ``now_ms`` (None: nobody's), the
        side that was running charged up to then."""
        if side == self.running:
            return self
        clock = self.copy()
        if clock.running is not None and clock.since_ms is not None:
            clock.left_ms[clock.running] -= max(0, now_ms - clock.since_ms)
        clock.running = side
        clock.since_ms = clock.started_ms = None if side is None else now_ms
        return clock

    def copy(self) -> Clock:
        return Clock(
            self.control,
            list(self.left_ms),
            self.running,
            self.since_ms,
            list(self.moved),
            self.started_ms,
        )

    # -- storing and showing ------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "control": self.control.to_dict(),
            "left_ms": list(self.left_ms),
            "running": self.running,
            "since_ms": self.since_ms,
            "moved": list(self.moved),
            "started_ms": self.started_ms,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Clock:
        control = TimeControl.parse(data["control"], min_seconds=0.0)
        assert control is not None
        return cls(
            control,
            [int(v) for v in data["left_ms"]],
            data.get("running"),
            data.get("since_ms"),
            [bool(v) for v in data.get("moved", [])],
            data.get("started_ms"),
        )

    def view(self, seat_names: Sequence[str]) -> dict[str, Any]:
        """What clients are sent (with the server's time added per message): each side's
        time left as of ``since_ms`` (server time, ms) for the running side."""
        due = self.deadline()
        return {
            "control": self.control.to_dict(),
            "describe": self.control.describe(),
            "sides": [
                {"side": name, "left_ms": self.left_ms[i]} for i, name in enumerate(seat_names)
            ],
            "running": None if self.running is None else seat_names[self.running],
            "since_ms": self.since_ms,
            "flag_ms": None if due is None else due[0],
        }
