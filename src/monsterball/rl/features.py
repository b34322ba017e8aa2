"""A game's features for the encoder: its own, declared as ``SPEC.rl.features`` (planes,
scalars and fast legal masks live in the game's package, games/<game>/learning.py, on the
base of core/learning.py), so this package names no game."""

from __future__ import annotations

from monsterball.core.game import GameSpec
from monsterball.core.learning import GameFeatures
from monsterball.core.options import GameOptions


def has_features(spec: GameSpec) -> bool:
    return spec.rl is not None and spec.rl.features is not None


def game_features(spec: GameSpec, options: GameOptions) -> GameFeatures:
    if spec.rl is None or spec.rl.features is None:
        raise ValueError(f"no observation encoder for game '{spec.id}' (its SPEC has no rl)")
    features: GameFeatures = spec.rl.features(spec, options)
    return features
