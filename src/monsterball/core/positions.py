"""Reading a board from position data: the checks every game's ``_board_from_dict`` needs,
each raising :class:`PositionError` naming the field that is wrong."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from monsterball.core.errors import PositionError


def check_keys(data: Mapping[str, Any], expected: Collection[str]) -> None:
    """The board has exactly the ``expected`` keys."""
    missing = set(expected) - set(data)
    if missing:
        raise PositionError(f"board is missing {', '.join(sorted(missing))}")
    extra = set(data) - set(expected)
    if extra:
        raise PositionError(f"board has unknown field(s) {', '.join(sorted(extra))}")


def parse_name(parser: Callable[[str], int], value: Any, where: str) -> int:
    """A player or space name read with ``parser`` (which raises ValueError on bad text)."""
    if not isinstance(value, str):
        raise PositionError(f"'{where}' must be a string, got {value!r}")
    try:
        return parser(value)
    except ValueError as exc:
        raise PositionError(f"'{where}': {exc}") from exc


def parse_team(value: Any, names: Sequence[str], where: str) -> int:
    if value not in names:
        raise PositionError(f"'{where}' must be one of {', '.join(names)}, got {value!r}")
    return list(names).index(value)


def place_players(
    players: Any,
    count: int,
    *,
    parse_player: Callable[[str], int],
    player_name: Callable[[int], str],
    parse_cell: Callable[[str], int],
    place: Callable[[int, int], None],
    what: str,
) -> None:
    """Read the ``players`` mapping (name -> space or None) and ``place`` each player,
    refusing unknown or repeated players and two players on one space."""
    if not isinstance(players, Mapping) or len(players) != count:
        raise PositionError(f"board 'players' must map {what}")
    seen: set[int] = set()
    taken: set[int] = set()
    for name, cell in players.items():
        player = parse_name(parse_player, name, "players")
        if player in seen:
            raise PositionError(f"player {player_name(player)} is listed twice")
        seen.add(player)
        if cell is not None:
            space = parse_name(parse_cell, cell, f"players.{name}")
            if space in taken:
                raise PositionError(f"two players stand on {cell}")
            taken.add(space)
            place(player, space)


def parse_counts(value: Any, n: int, where: str) -> list[int]:
    """A board field of ``n`` non-negative integers (a score, counters per team)."""
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)
    ):
        raise PositionError(f"board '{where}' must be {n} non-negative integer(s)")
    return list(value)
