"""Exact odds of an Up Call: the probability that a throw is caught, given the bids it meets.

Computed by enumerating every team-dice total and strategy face with exact fractions, deciding
each matchup with the same :func:`rules.resolve_bid` the engine uses. Choices are made the way a
coach maximising the catch (offense) or the turnover (defense) would make them: Strip keeps a
roll only if keeping is at least as good as re-rolling; a Hot Bid re-rolls a losing bid.

What the abstract count model cannot know is geometry: a Monster's move and a Dump's direction
are treated as having no effect on the count, and a Hammer is assumed to pass over the
strongest bidder on the throw (the Mark if there is one, else an Intercept) — an upper bound
for the offense.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from monsterball.games.huck_monster.matchup import (
    CATCH,
    CATCH_MARK,
    CHALLENGE,
    DICE,
    INTERCEPT,
    MARK,
    THROW,
    all_star_stat,
    bid_blocked,
    conflicts,
    dark_effect,
    is_hammer,
    light_effect,
    offense_count,
    resolve_bid,
    strategy_faces,
    team_roll,
)

OFFENSE_STRATEGY = ("none", THROW, CATCH)
DEFENSE_STRATEGY = ("none", MARK, INTERCEPT, CATCH_MARK, CHALLENGE)


@dataclass(frozen=True)
class UpCallSetup:
    """The bids a throw meets. ``throw_count`` fixes the throw total (None: roll 3 dice).

    ``offense_strategy`` adds the light die to the throw or the catch; ``defense_strategy``
    adds the dark die to the first bid of that kind. ``path_length`` is how many spaces the
    disc must fly (it matters only when a Footer halves the count).

    ``continue_dice`` makes the throw a Continue's (HM-PRO-1, HM-R48/R49): 1 die added to the
    ``remaining`` count of the incoming throw, or (The Rethrow) 3 fresh team dice; a Team Pin
    spin counts half, rounded up; ``all_star_throw`` then adds his Continue +3; and neither
    team may use strategy dice."""

    mark: bool = False
    intercepts: int = 0
    catch_marks: int = 0
    challenges: int = 0
    throw_count: int | None = None
    offense_strategy: str = "none"
    defense_strategy: str = "none"
    ties: str = "offense"
    path_length: int = 1
    equipment: str = "dice"
    team_pins: bool = False
    stealth_offense: bool = False
    stealth_defense: bool = False
    all_star_throw: bool = False
    all_star_catch: bool = False
    all_star_bid: str = "none"
    continue_dice: int = 0
    remaining: int = 0

    def __post_init__(self) -> None:
        if self.offense_strategy not in OFFENSE_STRATEGY:
            raise ValueError(f"offense strategy must be one of {', '.join(OFFENSE_STRATEGY)}")
        if self.defense_strategy not in DEFENSE_STRATEGY:
            raise ValueError(f"defense strategy must be one of {', '.join(DEFENSE_STRATEGY)}")
        if min(self.intercepts, self.catch_marks, self.challenges) < 0:
            raise ValueError("bidder counts cannot be negative")
        if self.intercepts + self.catch_marks + self.challenges + self.mark > 7:
            raise ValueError("a team has only 7 defenders")
        if self.throw_count is not None and not 1 <= self.throw_count <= 18:
            raise ValueError("a throw count is 3..18 (1..18 with Team Pins)")
        if self.ties not in ("offense", "defense"):
            raise ValueError("ties must be 'offense' or 'defense'")
        if self.all_star_bid not in DEFENSE_STRATEGY:
            raise ValueError(f"all-star bid must be one of {', '.join(DEFENSE_STRATEGY)}")
        if self.equipment not in ("dice", "pin", "game-disc"):
            raise ValueError("equipment must be 'dice', 'pin' or 'game-disc'")
        if self.continue_dice not in (0, 1, 3):
            raise ValueError("continue dice are 0 (no Continue), 1 or 3 (The Rethrow)")
        if self.continue_dice and self.throw_count is not None:
            raise ValueError("a Continue rolls its count: give 'remaining', not 'throw_count'")
        if self.continue_dice and (self.offense_strategy, self.defense_strategy) != (
            "none",
            "none",
        ):
            raise ValueError("neither team may roll strategy dice during Continues")
        if not 0 <= self.remaining <= 36 or (self.remaining and self.continue_dice != 1):
            raise ValueError("'remaining' (0..36) is the count a one-die Continue adds to")


Cont = Callable[[bool, str], Fraction | int]


def _run_bids(
    bids: list[tuple[str, bool]],
    *,
    base: int,
    light: str,
    action: str,
    pending: str,
    setup: UpCallSetup,
    then: Cont,
) -> Fraction:
    """P(the offense survives every bid in ``bids`` and then ``then``).

    The value is positively homogeneous in the end values ``then(halved, pending)`` (sums of
    them, and a Hot Bid's "is it worth re-rolling" test, which scaling by a positive number
    leaves alone), so it is computed for the ends divided by their largest and scaled back:
    the bids' part is then shared by every query with the same bids, count and proportions
    of ends (e.g. the same throw bids whatever the catch phase is worth)."""
    ends = tuple(then(h, p) for h in (False, True) for p in (pending, "none"))
    top = max(ends)
    if not top:
        return Fraction(0)
    value = _bids_value(
        tuple(bids),
        base,
        light,
        action,
        pending,
        setup.equipment,
        setup.team_pins,
        setup.ties,
        int(setup.stealth_defense),
        setup.all_star_bid,
        ends if top == 1 else tuple(Fraction(e) / top for e in ends),
    )
    return value if top == 1 else top * value


@lru_cache(maxsize=1 << 12)  # ~1 KiB each; a team's plain combinations need ~800
def _bids_value(
    bids: tuple[tuple[str, bool], ...],
    base: int,
    light: str,
    action: str,
    pending: str,
    equipment: str,
    team_pins: bool,
    ties: str,
    stealth_defense: int,
    all_star_bid: str,
    end_values: tuple[Fraction | int, ...],
) -> Fraction:
    """:func:`_run_bids` for fixed end values (``end_values[2 * halved + (pending is
    "none")]``), from only the setup's fields the bids depend on (so it can be cached).

    With the offense's count fixed, each bid depends only on whether a Footer has halved the
    count and whether the dark die is still to be used, so the recursion is memoised on that.
    It runs on integers: the value after bid ``i`` is a numerator over ``dens[i]``, a common
    denominator fixed in advance (the bid's roll, squared where a Hot Bid may re-roll it,
    times the dark die's faces where it may be used), so no Fraction is built until the end."""
    light_now = light_effect(light, action)
    faces = _face_table(equipment, False)
    count = len(faces)
    ends = {
        (h, p): end_values[2 * h + i]
        for h in (False, True)
        for i, p in enumerate((pending, "none"))
    }
    end_den = math.lcm(*(v.denominator for v in ends.values()))
    ends_num = {k: v.numerator * (end_den // v.denominator) for k, v in ends.items()}
    steps, product, first = _chain_shape(bids, pending, team_pins, count)
    memo: dict[tuple[int, bool, str], int] = {}

    def from_bid(index: int, halved: bool, pending: str) -> int:
        key = (index, halved, pending)
        found = memo.get(key)
        if found is None:
            found = memo[key] = _from_bid(index, halved, pending)
        return found

    def _from_bid(index: int, halved: bool, pending: str) -> int:
        if index == len(bids):
            return ends_num[halved, pending]
        bid, hammered = bids[index]
        star = all_star_stat(bid, False) if all_star_bid == bid and index == first[bid] else 0
        use = pending == bid
        rest = "none" if use else pending
        # Each face weighs 1 / count when the die is rolled here: scale = dens ratio * p_face.
        scale = steps[index] // count if use else steps[index]
        total = 0
        for face, _ in faces if use else (("", None),):
            dark = dark_effect(face, bid)
            cancel = bool(dark and light_now and conflicts(light_now, dark))
            if bid_blocked(light, action, bid, hammered) and not cancel:
                total += scale * from_bid(index + 1, halved, rest)
                continue

            if dark in ("beat", "no-big") and not cancel:
                r = resolve_bid(
                    base=base,
                    light=light,
                    action=action,
                    halved=halved,
                    bid=bid,
                    roll=stealth_defense + star,
                    dark=face,
                    ties=ties,
                )
                if not r.defense_wins:
                    total += scale * from_bid(index + 1, halved or r.halves, rest)
                continue
            # The bid's rolls fall in three classes: the defense wins, the offense survives,
            # the offense survives halved by a Footer (see _matchup).
            den, keep, halve = _matchup(
                base, light, action, halved, bid, stealth_defense + star, face,
                ties, team_pins,
            )  # fmt: skip
            v_keep = from_bid(index + 1, halved, rest) if keep else 0
            v_halve = from_bid(index + 1, True, rest) if halve else 0
            survive = keep * v_keep + halve * v_halve  # over den * dens[index + 1]
            if dark == "hot-bid":
                # A losing bid is re-rolled once; the second roll stands: each surviving
                # class is worth the re-roll's value, survive / den (over den ** 2 here).
                total += (
                    (keep * bool(v_keep) + halve * bool(v_halve)) * survive * (scale // (den * den))
                )
            else:
                total += survive * (scale // den)
        return total

    return Fraction(from_bid(0, False, pending), end_den * product)


@cache
def _chain_shape(
    bids: tuple[tuple[str, bool], ...], pending: str, team_pins: bool, faces: int
) -> tuple[tuple[int, ...], int, dict[str, int]]:
    """What a chain of bids needs whatever the count: per bid the step of the common
    denominator (``dens[i] // dens[i + 1]``: the bid's roll, squared and times the dark die's
    faces where the dark die may be used on it), their product, and the index of the first
    bid of each kind (the All-Star's, HM-STAR-4). Read only: it is shared."""
    steps = []
    for bid, _ in bids:
        den = _roll_den(DICE[bid], team_pins)
        steps.append(faces * den * den if bid == pending else den)
    first = {b: i for i, (b, _) in reversed(list(enumerate(bids)))}
    return tuple(steps), math.prod(steps), first


@cache
def _roll_den(dice: int, team_pins: bool) -> int:
    """The common denominator of a team roll's probabilities."""
    return math.lcm(*(p.denominator for _, p in team_roll(dice, team_pins)))


@cache
def _matchup(
    base: int,
    light: str,
    action: str,
    halved: bool,
    bid: str,
    bonus: int,
    dark: str,
    ties: str,
    team_pins: bool,
) -> tuple[int, int, int]:
    """One bid against a fixed offensive count, over the bid's team roll (the precomputed
    matchup table): ``(den, keep, halve)``, the integer weights out of ``den`` of the rolls
    the offense survives as it is and survives halved by a Footer (the rest the defense
    wins), each decided by the engine's :func:`resolve_bid`."""
    dist = team_roll(DICE[bid], team_pins)
    den = math.lcm(*(p.denominator for _, p in dist))
    keep = halve = 0
    for roll, p in dist:
        r = resolve_bid(
            base=base,
            light=light,
            action=action,
            halved=halved,
            bid=bid,
            roll=roll + bonus,
            dark=dark,
            ties=ties,
        )
        if r.defense_wins:
            continue
        weight = p.numerator * (den // p.denominator)
        if halved or not r.halves:
            keep += weight
        else:
            halve += weight
    return den, keep, halve


def _faces(setup: UpCallSetup, *, offense: bool) -> list[tuple[str, Fraction]]:
    return list(_face_table(setup.equipment, offense))


@cache
def _face_table(equipment: str, offense: bool) -> tuple[tuple[str, Fraction], ...]:
    faces = strategy_faces(equipment, offense)
    return tuple((f, Fraction(1, len(faces))) for f in faces)


def _with_roll(
    value: Callable[[int], Fraction],
    strip: bool,
    fixed: int | None,
    setup: UpCallSetup,
    action: str,
) -> Fraction:
    """Expected value over a 3-dice roll or Team Pin spin (or a fixed total), plus a Stealth
    Space and an All-Star's stat; Strip keeps the better of the roll and a re-roll's
    expectation."""
    star = setup.all_star_throw if action == THROW else setup.all_star_catch
    stat = "continue" if action == THROW and setup.continue_dice else action
    bonus = int(setup.stealth_offense) + (all_star_stat(stat, True) if star else 0)
    roll = team_roll(3, setup.team_pins)
    if action == THROW and setup.continue_dice:
        roll = continue_roll(setup)
    dist = roll if fixed is None else ((fixed, Fraction(1)),)
    if not strip:
        return sum((p * value(t + bonus) for t, p in dist), Fraction(0))
    reroll = sum((p * value(t + bonus) for t, p in roll), Fraction(0))
    return sum((p * max(value(t + bonus), reroll) for t, p in dist), Fraction(0))


def continue_roll(setup: UpCallSetup) -> tuple[tuple[int, Fraction], ...]:
    """A Continue's count before bonuses: the count left plus 1 die, or 3 fresh dice; a Team
    Pin spin counts half, rounded up (HM-TPIN-2, HM-R48)."""
    dist: dict[int, Fraction] = {}
    for value, p in team_roll(setup.continue_dice, setup.team_pins):
        count = setup.remaining + ((value + 1) // 2 if setup.team_pins else value)
        dist[count] = dist.get(count, Fraction(0)) + p
    return tuple(sorted(dist.items()))


def catch_probability(setup: UpCallSetup) -> Fraction:
    """Exact probability that the throw is completed (caught) under ``setup``.

    The throw phase's value is positively homogeneous in what the catch phase is worth (sums
    and maxima of it), so where the catch phase is worth the same whether or not the dark die
    is still to be used, P(catch) = P(the throw phase survives, with a sure catch) x P(the
    catch phase survives): each factor depends on only its own bidders and fields, and is
    cached, so a team's bidder combinations share them (the precomputed tables)."""
    catch = _catch_side(setup)
    unused = _catch_phase(catch, "none")
    kept = _catch_phase(catch, setup.defense_strategy)
    if kept == unused:
        return unused * _throw_phase(_throw_side(setup), 1, 1)
    return _throw_phase(setup, kept, unused)


def _catch_side(setup: UpCallSetup) -> UpCallSetup:
    """The fields the catch phase depends on (its dark die comes as ``pending``)."""
    return UpCallSetup(
        catch_marks=setup.catch_marks,
        challenges=setup.challenges,
        offense_strategy=CATCH if setup.offense_strategy == CATCH else "none",
        ties=setup.ties,
        equipment=setup.equipment,
        team_pins=setup.team_pins,
        stealth_offense=setup.stealth_offense,
        stealth_defense=setup.stealth_defense,
        all_star_catch=setup.all_star_catch,
        all_star_bid=setup.all_star_bid,
    )


def _throw_side(setup: UpCallSetup) -> UpCallSetup:
    """``setup`` without what only the catch phase reads (its bidders, a catch's strategy
    face, a dark die for the catch bids, the All-Star catcher)."""
    return dataclasses.replace(
        setup,
        catch_marks=0,
        challenges=0,
        all_star_catch=False,
        offense_strategy=THROW if setup.offense_strategy == THROW else "none",
        defense_strategy=(
            setup.defense_strategy if setup.defense_strategy in (MARK, INTERCEPT) else "none"
        ),
    )


@lru_cache(maxsize=1 << 12)
def _catch_phase(setup: UpCallSetup, pending: str) -> Fraction:
    """P(the catch survives every catch bid), the dark die still to be used on ``pending``."""
    guards = [(CATCH_MARK, False)] * setup.catch_marks + [(CHALLENGE, False)] * setup.challenges
    if not guards:
        return Fraction(1)
    faces = _faces(setup, offense=True) if setup.offense_strategy == CATCH else [("", Fraction(1))]
    total = Fraction(0)
    for face, p_face in faces:
        marked = list(guards)
        if is_hammer(light_effect(face, CATCH)):
            marked[0] = (marked[0][0], True)

        def value(
            count: int, face: str = face, marked: list[tuple[str, bool]] = marked
        ) -> Fraction:
            return _run_bids(
                marked,
                base=count,
                light=face,
                action=CATCH,
                pending=pending,
                setup=setup,
                then=lambda _h, _p: 1,
            )

        strip = light_effect(face, CATCH) == "strip"
        total += p_face * _with_roll(value, strip, None, setup, CATCH)
    return total


@lru_cache(maxsize=1 << 12)
def _throw_phase(setup: UpCallSetup, kept: Fraction | int, unused: Fraction | int) -> Fraction:
    """P(the throw survives every throw bid and reaches the catcher) times the catch phase's
    value, ``kept`` with the dark die still to be used, ``unused`` without."""
    throw_bids = [(MARK, False)] * setup.mark + [(INTERCEPT, False)] * setup.intercepts
    faces = _faces(setup, offense=True) if setup.offense_strategy == THROW else [("", Fraction(1))]
    total = Fraction(0)
    for face, p_face in faces:
        bids = list(throw_bids)
        if is_hammer(light_effect(face, THROW)) and bids:
            bids[0] = (bids[0][0], True)

        def value(count: int, face: str = face, bids: list[tuple[str, bool]] = bids) -> Fraction:
            def after_throw(halved: bool, pending: str) -> Fraction | int:
                if offense_count(count, face, THROW, halved) < setup.path_length:
                    return 0  # a Footer left the disc short
                return unused if pending == "none" else kept

            return _run_bids(
                bids,
                base=count,
                light=face,
                action=THROW,
                pending=setup.defense_strategy,
                setup=setup,
                then=after_throw,
            )

        strip = light_effect(face, THROW) == "strip"
        total += p_face * _with_roll(value, strip, setup.throw_count, setup, THROW)
    return total


def clear_setup_caches() -> None:
    """Forget every cached phase and bid chain (keeping the rule tables built from the dice
    faces alone), so the next query is computed from scratch: for benchmarks."""
    for fn in (_bids_value, _catch_phase, _throw_phase):
        fn.cache_clear()


def catch_odds(**settings: Any) -> Fraction:
    """The terminal's calculator (``spec.odds.calculator``, ``monsterball odds``): the exact
    catch chance of the throw :class:`UpCallSetup` describes by these settings (ValueError
    naming a bad one)."""
    names = {f.name for f in dataclasses.fields(UpCallSetup)}
    unknown = sorted(set(settings) - names)
    if unknown:
        raise ValueError(f"unknown setting(s) {', '.join(unknown)}")
    return catch_probability(UpCallSetup(**settings))
