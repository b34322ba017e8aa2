"""Dice nobody alone decides (docs/web.md, "Fair dice"): the server commits to its secret seed
first; each human chair of an online room then contributes a random nonce before the first
die; the dice are HMAC-SHA256 in counter mode keyed by both (core/dice.py); the end reveals the
seed, and the record holds the nonces, so anyone can check that no single party chose them.

The server never waits long: the first die waits for the missing nonces at most
``Limits.nonce_seconds`` from when it is due, then rolls with those missing recorded as
empty (no contribution). Bots are the server's own players and contribute nothing; hot-seat
and bot games (one person, or none, against the server) roll the same HMAC dice from the seed
alone; games whose creator chose the seed keep the legacy stream, so a practice seed gives
the same game as ``monsterball play --seed``.
"""

from __future__ import annotations

from typing import Any, Protocol

from monsterball.core.dice import (
    CONTRIBUTED_DICE,
    HmacSampler,
    SeededSampler,
    is_nonce,
    sampler_for,
)
from monsterball.web.store import GameRow, store_nonces

__all__ = [
    "contributors",
    "dice_sampler",
    "new_dice",
    "open_for_nonces",
    "refusal",
    "store_nonces",
    "summary",
    "wait_for_nonces",
]


class DiceGame(Protocol):
    row: GameRow
    dice_started: bool
    nonce_deadline: float | None


def new_dice(mode: str, seeded: bool, shared: bool) -> tuple[str | None, dict[str, str] | None]:
    """A new game's dice scheme and nonces ({}: asked of its human chairs). Servers sharing
    PostgreSQL ask none (a nonce would reach any server, the dice only the lease holder)."""
    if seeded:
        return None, None
    return CONTRIBUTED_DICE, ({} if mode == "online" and not shared else None)


def contributors(row: GameRow) -> list[str]:
    """The chairs asked for a nonce, in the game's order."""
    if row.dice != CONTRIBUTED_DICE or row.dice_nonces is None:
        return []
    return [c["name"] for c in row.chairs if c.get("kind") == "human"]


def contributions(row: GameRow) -> list[tuple[str, str]]:
    nonces = row.dice_nonces or {}
    return [(name, nonces.get(name, "")) for name in contributors(row)]


def dice_sampler(row: GameRow) -> SeededSampler | HmacSampler:
    return sampler_for(row.dice, row.game_seed, contributions(row))


def open_for_nonces(game: DiceGame) -> bool:
    """Nonces are still taken: asked for, some missing, no die rolled yet."""
    row = game.row
    missing = [name for name, nonce in contributions(row) if not nonce]
    return bool(missing) and not game.dice_started


def wait_for_nonces(game: DiceGame, now: float, limit: float) -> float | None:
    """Seconds the due first die still waits for nonces, or None: roll now."""
    if limit <= 0 or not open_for_nonces(game):
        return None
    if game.nonce_deadline is None:
        game.nonce_deadline = now + limit
    left = game.nonce_deadline - now
    return left if left > 0 else None


def refusal(game: DiceGame, chair: Any, nonce: object) -> str | None:
    """Why a chair's nonce is not taken (None: it is)."""
    if not is_nonce(nonce):
        return "a nonce is 1 to 64 lowercase hex digits (crypto.getRandomValues, as hex)"
    if chair is None or chair.name not in contributors(game.row):
        return "only a human chair of an online room contributes to its dice"
    if game.dice_started:
        return "too late: the dice have started (the first die waits a few seconds at most)"
    if (game.row.dice_nonces or {}).get(chair.name):
        return f"{chair.name} has contributed its nonce already"
    return None


def summary(game: DiceGame) -> dict[str, Any]:
    """What every state message says of the dice: the scheme, the nonces so far, whether more
    are taken."""
    row = game.row
    return {
        "dice": row.dice,
        "dice_nonces": dict(contributions(row)) if contributors(row) else None,
        "dice_open": open_for_nonces(game),
    }
