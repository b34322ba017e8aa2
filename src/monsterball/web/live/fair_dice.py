"""Dice nobody alone decides (docs/web.md, "Fair dice"): the server commits to its secret seed
first; each human chair of an online room then contributes a random nonce before the first
die; the dice are HMAC-SHA256 in counter mode keyed by both (core/dice.py); the end reveals the
seed, and the record holds the nonces, so anyone can check that no single party chose them.

The server never waits long: the first die waits for the missing nonces at most
``Limits.nonce_seconds`` from when it is due, then rolls with those missing recorded as
empty (no contribution). The nonces and that deadline are kept with the game in the store
(web/store/games.py ``add_nonce``, ``settle_nonces``, under the game row's lock), so on servers
sharing PostgreSQL a nonce sent to any server reaches the dice of the one that rolls them,
and a restart keeps both. Bots are the server's own players and contribute nothing; hot-seat
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
from monsterball.web.store.games import TOO_LATE, GameRow, closed

__all__ = [
    "contributors",
    "dice_sampler",
    "new_dice",
    "open_for_nonces",
    "refusal",
    "summary",
]


class DiceGame(Protocol):
    row: GameRow
    dice_started: bool


def new_dice(mode: str, seeded: bool) -> tuple[str | None, dict[str, str] | None]:
    """A new game's dice scheme and nonces ({}: asked of its human chairs)."""
    if seeded:
        return None, None
    return CONTRIBUTED_DICE, ({} if mode == "online" else None)


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
    """Nonces are still taken: asked for, not closed (web/store/games.py ``closed``), no die rolled
    yet (as far as this server knows: the store decides)."""
    asked = contributors(game.row)
    return bool(asked) and not closed(game.row.dice_nonces or {}, asked) and not game.dice_started


def refusal(game: DiceGame, chair: Any, nonce: object) -> str | None:
    """Why a chair's nonce is not taken, as far as this server knows (None: ask the store)."""
    if not is_nonce(nonce):
        return "a nonce is 1 to 64 lowercase hex digits (crypto.getRandomValues, as hex)"
    if chair is None or chair.name not in contributors(game.row):
        return "only a human chair of an online room contributes to its dice"
    if game.dice_started:
        return TOO_LATE
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
