"""Names, versions and default cuts of the learning environments (docs/rl.md, "Ids").

An environment's version is derived, never written by hand: the game's rules version
(``GameSpec.rules_version``, bumped by whoever changes the rules) and the observation
encoder's version (``encode.ENCODER_VERSION``). So a result reported against an id is
comparable with another against the same id, and a rules change gives a new id.

- Gymnasium: ``monsterball/<Game>-r<rules>-v<encoder>``, e.g.
  ``monsterball/PaperUltimate-r1.0.0-v2``, registered by ``import monsterball.rl``
  (``gymnasium.make(id, preset="small", observation="compact")``).
- PettingZoo: ``env.metadata["name"]`` is ``monsterball_<game>_r<rules>_v<encoder>`` with
  ``_`` for ``.`` and ``-`` (PettingZoo's ``_vN`` style).
- OpenSpiel: ``python_monsterball_<game>`` (the current rules) and the versioned
  ``python_monsterball_<game>_r<rules>_v<encoder>``, both registered by ``import
  monsterball.rl`` when ``open-spiel`` is installed.
"""

from __future__ import annotations

from monsterball.core.contract import RLHooks
from monsterball.core.game import GameSpec
from monsterball.games import all_games, get_game
from monsterball.rl.encode import ENCODER_VERSION


def rules_version(spec: GameSpec) -> str:
    """``paper-ultimate/1.0.0`` -> ``1.0.0``."""
    return spec.rules_version.rpartition("/")[2]


def camel(spec: GameSpec) -> str:
    return "".join(part.title() for part in spec.id.split("-"))


def gym_id(game: str) -> str:
    spec = get_game(game)
    return f"monsterball/{camel(spec)}-r{rules_version(spec)}-v{ENCODER_VERSION}"


def _snake(text: str) -> str:
    return text.replace("-", "_").replace(".", "_")


def env_name(game: str) -> str:
    """The PettingZoo-style versioned name."""
    spec = get_game(game)
    return f"monsterball_{_snake(spec.id)}_r{_snake(rules_version(spec))}_v{ENCODER_VERSION}"


def version(game: str) -> str:
    """The version string envs report: ``rules 1.0.0, observations v2``."""
    return f"rules {rules_version(get_game(game))}, observations v{ENCODER_VERSION}"


def spiel_names(spec: GameSpec) -> tuple[str, str]:
    """The OpenSpiel short names: current and versioned."""
    plain = "python_monsterball_" + _snake(spec.id)
    return plain, f"{plain}_r{_snake(rules_version(spec))}_v{ENCODER_VERSION}"


def default_max_decisions(game: str) -> int:
    """The game's default cut in decisions (both seats): ``SPEC.rl.max_decisions``."""
    spec = get_game(game)
    return spec.rl.max_decisions if spec.rl is not None else RLHooks().max_decisions


def register_gymnasium() -> None:
    """Register every game's Gymnasium id (once; ``gymnasium.make`` kwargs go to
    :class:`monsterball.rl.single.MonsterballGym`)."""
    import gymnasium

    for spec in all_games():
        env_id = gym_id(spec.id)
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point="monsterball.rl.single:MonsterballGym",
            kwargs={"game": spec.id},
            disable_env_checker=True,  # tests/test_rl*.py run the checker, mask-sampled
        )


def all_gym_ids() -> list[str]:
    return [gym_id(spec.id) for spec in all_games()]
