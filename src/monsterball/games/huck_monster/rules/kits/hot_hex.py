"""Hot Hex (HM-KIT-1): the one-inside-the-hex limit on offensive moves."""

from __future__ import annotations

from monsterball.games.huck_monster.rules.common import State


def one_inside_the_hex(state: State, reach: dict[int, int], entered: bool) -> dict[int, int]:
    """HM-KIT-1 / HM-R52: "Only one offensive players is allowed inside the hex per team
    move": no offensive player may step into the hex while a teammate stands inside it; with
    ``hex_limit=per-move``, none once a teammate has stepped into it in this team move."""
    inside = state.players_in(state.hex_zone, state.offense)
    if state.options.hex_limit == "per-move":
        if not entered:
            return reach
        return {p: m if p in inside else m & ~state.hex_zone for p, m in reach.items()}
    return {p: m if not [q for q in inside if q != p] else m & ~state.hex_zone
            for p, m in reach.items()}  # fmt: skip
