"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
deviation (RD: how unsure it is) and a volatility per player and game.

Each rated game is one rating period for its players, against every other seat's pre-game
rating, as online sites do (a new player's rating moves fast, then settles). A rating with an
RD above PROVISIONAL_RD is shown with "?". Pure: no store, no clock (web/store/ratings.py keeps
the ratings; docs/web.md, "Ratings").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's rating scale factor (the paper's step 2)
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how fast volatility may change (the paper suggests 0.3-1.2)
EPSILON = 1e-6  # convergence of the volatility iteration (the paper's value)
# Above this RD a rating is provisional, shown with "?": its 95% interval is wider than about
# +-300 points. lichess uses 110, but its players meet established ones; here most players
# start together, and two newcomers playing only each other need about 9 games to get below
# 150 (about 15 to get below 110).
PROVISIONAL_RD = 150.0
MIN_RD = 30.0  # no rating is ever treated as exact


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def shown(self) -> str:
        """The rating as players see it: "1623", or "1500?" while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period: ``results`` holds each opponent's
    rating (before the period) and the player's score against it (1 win, 0.5 draw, 0 loss).
    No results: only the RD grows (the paper's step 6 for a player who did not play)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(DEFAULT_RD, grown * SCALE), sigma)
    # Steps 3-4: the estimated variance v and improvement delta.
    inverse_v = 0.0
    total = 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {score}")
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.rd / SCALE
        expected = _e(mu, mu_j, phi_j)
        g = _g(phi_j)
        inverse_v += g * g * expected * (1.0 - expected)
        total += g * (score - expected)
    v = 1.0 / inverse_v
    delta = v * total
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6-8: the new RD and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    new_rd = min(DEFAULT_RD, max(MIN_RD, new_phi * SCALE))
    return Rating(new_mu * SCALE + DEFAULT_RATING, new_rd, new_sigma)


def scores(returns: Sequence[float]) -> list[list[float | None]]:
    """Pairwise scores from a game's returns: ``[i][j]`` is seat i's score against seat j
    (1 more, 0.5 equal, 0 less; None on the diagonal)."""
    n = len(returns)
    table: list[list[float | None]] = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                a, b = returns[i], returns[j]
                table[i][j] = 1.0 if a > b else 0.0 if a < b else 0.5
    return table


def rate_game(before: Sequence[Rating], returns: Sequence[float]) -> list[Rating]:
    """Every seat's rating after one game (its own rating period), each against every other
    seat's rating from before the game."""
    if len(before) != len(returns) or len(before) < 2:
        raise ValueError("a rated game needs a rating and a result for each of its seats")
    table = scores(returns)
    after = []
    for i, player in enumerate(before):
        results = [(before[j], s) for j, s in enumerate(table[i]) if s is not None]
        after.append(update(player, results))
    return after
