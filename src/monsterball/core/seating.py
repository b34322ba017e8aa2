"""Who of several coaches acts for a seat: a layer above the rules.

The rules speak only of seats (teams). A game for four coaches (Huck + Monster co-coaches)
gives each seat two coaches who take turns; servers and UIs ask this layer which coach must
act now. The rotation counts *turn units* chosen by the game (a team move, an Up Call, a
single decision), supplied by the caller, so the rules never know how many humans play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from monsterball.core.errors import OptionsError

if TYPE_CHECKING:
    from monsterball.core.game import GameState


@dataclass(frozen=True, slots=True)
class Seating:
    """Coaches per seat, in rotation order."""

    coaches: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, *per_seat: Sequence[str]) -> Seating:
        seats = tuple(tuple(names) for names in per_seat)
        if not seats or any(not names for names in seats):
            raise OptionsError("every seat needs at least one coach")
        everyone = [name for names in seats for name in names]
        if len(set(everyone)) != len(everyone):
            raise OptionsError("a coach may sit at only one seat")
        return cls(seats)

    @property
    def num_coaches(self) -> int:
        return sum(len(names) for names in self.coaches)

    def coach_for(self, seat: int, turn_unit: int) -> str:
        """The coach acting for ``seat`` during its ``turn_unit``-th unit (0-based)."""
        names = self.coaches[seat]
        return names[turn_unit % len(names)]

    def seat_of(self, coach: str) -> int:
        for seat, names in enumerate(self.coaches):
            if coach in names:
                return seat
        raise OptionsError(f"'{coach}' is not seated in this game")


# Hot-seat play: a UI hides the board between two seats that may see different things.
def sees_differently(state: GameState, one: int, other: int) -> bool:
    """Whether seat ``one`` sees something seat ``other`` may not, or the reverse."""
    return _seen(state, one) != _seen(state, other)


def _seen(state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` sees, less whose view it is: equal for two seats unless one of them
    sees something the other may not."""
    view = dict(state.view(seat))
    view.pop("seat", None)
    return view
