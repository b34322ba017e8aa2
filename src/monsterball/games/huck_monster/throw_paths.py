"""Where a throw may stop and the path it takes, as functions of the field and space masks
(HM-THROW-2, HM-R9, HM-BEAT-1..3): the searches behind ``HuckMonsterState.throw_targets``
and ``HuckMonsterState.best_path``, kept apart from the board they are asked about.
``Grid.hop_finals``, ``Grid.quiet_path`` and ``Grid.shortest_segment`` (compiled in
``core._fastgeo`` when built) answer the common cases; these cover the rest."""

from __future__ import annotations

from itertools import combinations

from monsterball.core.geometry import Grid, iter_bits, mask_of


def beaten_finals(field: Grid, disc: int, count: int, open_: int, defenders: int) -> int:
    """HM-BEAT-1..3: the path may pass over defenders (who must bid first and be beaten),
    never two side by side, and never over an offensive player."""
    seen_open = f_open = 1 << disc
    seen_def = f_def = 0
    for _ in range(count - 1):
        g_open = field.dilate(f_open | f_def) & open_ & ~seen_open
        g_def = field.dilate(f_open) & defenders & ~seen_def
        if not (g_open or g_def):
            break
        seen_open |= g_open
        seen_def |= g_def
        f_open, f_def = g_open, g_def
    return field.dilate(seen_open | seen_def) & open_


def straight_finals(
    field: Grid, disc: int, count: int, open_: int, blockers: int, hammer: bool, beaten: bool
) -> int:
    """The spaces a straight-line throw (option ``throw_path=straight``) may stop on."""
    finals = 0
    for ray in field.rays[disc]:
        crossed = False
        previous_defender = False
        for cell in ray[:count]:
            bit = 1 << cell
            if open_ & bit:
                finals |= bit
                previous_defender = False
            elif beaten and blockers & bit and not previous_defender:
                previous_defender = True
            elif hammer and not crossed and blockers & bit:
                crossed = True
            else:
                break
    return finals


def path_search(
    field: Grid,
    start: int,
    final: int,
    count: int,
    hammer: bool,
    everyone: int,
    waiting: int,
    *,
    open_: int,
    defenders: int,
    beaten: bool,
) -> tuple[int, ...]:
    """``best_path``'s search for every kind of throw: each set of exposed defenders
    (fewest first), with a Hammer each defender to cross, with beaten defenders the
    crossable ones. Without either it is ``Grid.quiet_path`` (one compiled call)."""
    candidates = list(iter_bits(everyone))
    vias: list[int | None] = [None]
    if hammer:
        vias += list(iter_bits(defenders))
    best: tuple[int, tuple[int, ...]] | None = None
    for size in range(len(candidates) + 1):
        for exposed in combinations(candidates, size):
            shunned = everyone  # the candidates not exposed
            for c in exposed:
                shunned &= ~(1 << c)
            near = field.dilate(shunned)
            inter = open_ & ~near
            crossable = defenders & ~near if beaten else 0
            for via in vias:
                if via is not None and shunned >> via & 1:
                    continue
                path = route(field, start, final, inter, count, via, crossable)
                if path is None:
                    continue
                bidders = size - (via is not None and via in exposed)
                bidders -= via is not None and bool(waiting >> via & 1)
                if best is None or (bidders, len(path)) < (best[0], len(best[1])):
                    best = (bidders, path)
        if best is not None and best[0] <= size:
            break
    assert best is not None, "best_path called for an unreachable space"
    return best[1]


def route(
    field: Grid,
    start: int,
    final: int,
    inter: int,
    count: int,
    via: int | None,
    crossable: int = 0,
) -> tuple[int, ...] | None:
    """Shortest path start -> final within ``count`` steps whose intermediate spaces are
    in ``inter`` (plus ``via``, which the path must cross, and ``crossable`` defenders,
    never two in a row), entering no space twice."""
    if not crossable and start != final and (via is None or via not in (start, final)):
        # Most routes tried do not exist or are too long: the bitmask BFS distance (the
        # length the path search below would find) rules them out first.
        steps = field.steps_to
        if via is None:
            need = steps(start, final, inter | 1 << final)
        else:
            a, b = steps(start, via, inter | 1 << via), steps(via, final, inter | 1 << final)
            need = -1 if a < 0 or b < 0 else a + b
        if need < 0 or need > count:
            return None
    if via is None:
        first = segment(field, start, final, inter, crossable)
        return first if first is not None and len(first) <= count else None
    to_via = segment(field, start, via, inter, crossable)
    if to_via is None:
        return None
    # HM-R9: the disc never enters a space twice ("subtracting from the Throw count for
    # every new space"), so a Hammer cannot touch a defender's space and come back to
    # silence him; the way on from him avoids the spaces already flown over.
    if final in to_via:
        return None
    flown = ~mask_of(to_via)
    rest = segment(field, via, final, inter & flown, crossable & flown)
    if rest is None or len(to_via) + len(rest) > count:
        return None
    return to_via + rest


def segment(
    field: Grid, start: int, target: int, inter: int, crossable: int = 0
) -> tuple[int, ...] | None:
    """BFS from ``start`` through ``inter`` (and ``crossable`` spaces, never two in a
    row) into ``target``; the spaces entered."""
    if not crossable:  # the same search with plain cells for nodes (the common case)
        return field.shortest_segment(start, target, inter)
    # A node is (space, entered a crossable space last).
    root = (start, False)
    parent: dict[tuple[int, bool], tuple[int, bool]] = {root: root}
    frontier = [root]
    while frontier:
        nxt = []
        for node in frontier:
            cell, crossed = node
            for n in field.neighbours[cell]:
                if n == target:
                    path = [n]
                    back = node
                    while back != root:
                        path.append(back[0])
                        back = parent[back]
                    return tuple(reversed(path))
                if inter >> n & 1:
                    child = (n, False)
                elif crossable >> n & 1 and not crossed:
                    child = (n, True)
                else:
                    continue
                if child not in parent:
                    parent[child] = node
                    nxt.append(child)
        frontier = nxt
    return None
