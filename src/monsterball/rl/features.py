"""Which game features an encoder uses: the game's own (``SPEC.rl.features``: planes,
scalars and fast legal masks live in each game's package, games/<game>/learning.py, on the
base of core/learning.py)."""

from __future__ import annotations

from typing import Any

from monsterball.core.game import GameSpec
from monsterball.core.learning import GameFeatures
from monsterball.core.options import GameOptions


def rl_hooks(spec: GameSpec) -> Any:
    """The game's learning hooks, or None when it declares none."""
    hooks = getattr(spec, "rl", None)
    if hooks is None:  # TEMPORARY until SPEC.rl lands (core/contract.py)
        import importlib

        package = spec.state_type.__module__.rpartition(".")[0]
        try:
            return importlib.import_module(package + ".learning")
        except ImportError:
            return None
    return hooks


def game_features(spec: GameSpec, options: GameOptions) -> GameFeatures:
    hooks = rl_hooks(spec)
    if hooks is None:
        raise ValueError(f"no observation encoder for game '{spec.id}' (its SPEC has no rl)")
    features: GameFeatures = hooks.features(spec, options)
    return features
