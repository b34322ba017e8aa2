"""Every game as an OpenSpiel Python game (``open-spiel`` package).

Registered as ``python_monsterball_<game>`` (``-`` becomes ``_``), with the parameters
``preset`` (a preset name, "" for the defaults) and ``max_game_length`` (plies, chance
outcomes included; the game is cut there, as a draw). ``openspiel_game(...)`` also takes any
of the game's options.

- Actions, decisions and chance outcomes alike, are the integers of the game's
  ``ActionTable``; ``chance_outcomes()`` gives the rules' exact probabilities (as floats,
  which is all OpenSpiel carries).
- ``observation_tensor(player)`` is the seat's planes from :mod:`monsterball.rl.encode`,
  flattened; ``observation_string`` the seat's text render.
- ``information_state_string(player)`` is perfect recall: every action of the game in order,
  the other seat's secret choices as it was told them (Midway's ``public_text``).
  ``information_state_tensor`` is the seat's current observation planes (a fixed-size
  summary, not perfect recall: a game is thousands of plies).
- Midway is an imperfect-information game: ``resample_from_infostate`` draws the other
  side's secrets with the game's own ``determinize``. The other two are perfect information.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from monsterball.core.actions import Action
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.games import all_games, get_game
from monsterball.rl.encode import Encoder, encoder_for

DEFAULT_MAX_GAME_LENGTH = 3000
_DEFAULT_PARAMS: dict[str, Any] = {
    "preset": "",
    "max_game_length": DEFAULT_MAX_GAME_LENGTH,
    "options": "",
}
HIDDEN_INFORMATION = {"midway"}


def short_name(spec: GameSpec) -> str:
    return "python_monsterball_" + spec.id.replace("-", "_")


def _game_type(spec: GameSpec) -> Any:
    info = pyspiel.GameType.Information
    hidden = spec.id in HIDDEN_INFORMATION
    return pyspiel.GameType(
        short_name=short_name(spec),
        long_name=f"Python monsterball {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if hidden else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.num_seats,
        min_num_players=spec.num_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULT_PARAMS),
    )


class Context:
    """What a game's states and observers share, built once per parameter set. OpenSpiel
    copies games and states without calling ``__init__``, so nothing lives on them but this
    (shared, never copied)."""

    def __init__(self, game_id: str, params: dict[str, Any]):
        self.spec = get_game(game_id)
        preset = str(params.get("preset", "")) or None
        self.max_length = int(params.get("max_game_length", DEFAULT_MAX_GAME_LENGTH))
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be at least 1 (got {self.max_length})")
        extra = json.loads(str(params.get("options", "") or "{}"))
        self.options: GameOptions = self.spec.options(preset, **extra)
        self.table = self.spec.action_table(self.options)
        self.encoder: Encoder = encoder_for(self.spec, self.options)

    def __deepcopy__(self, memo: Any) -> Context:
        return self


_CONTEXTS: dict[tuple[str, str], Context] = {}


def context(game_id: str, params: dict[str, Any]) -> Context:
    key = (game_id, json.dumps(params, sort_keys=True, default=str))
    if key not in _CONTEXTS:
        _CONTEXTS[key] = Context(game_id, params)
    return _CONTEXTS[key]


class MonsterballGame(pyspiel.Game):  # type: ignore[misc]
    """One game with fixed options; subclassed per registered game (``game_id``)."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**_DEFAULT_PARAMS, **(params or {})}
        ctx = context(self.game_id, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(ctx.table),
            max_chance_outcomes=len(ctx.table),
            num_players=ctx.spec.num_seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=ctx.max_length,
        )
        super().__init__(_game_type(ctx.spec), info, params)

    @property
    def ctx(self) -> Context:
        return context(self.game_id, {**_DEFAULT_PARAMS, **self.get_parameters()})

    def new_initial_state(self) -> MonsterballState:
        return MonsterballState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"observer parameters are not supported (got {params})")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return PerfectRecallObserver(self.ctx)
        return Observer(self.ctx)


class Play:
    """A state's own data. OpenSpiel copies a Python state with ``copy.deepcopy``; this
    makes that one ``GameState.clone`` (actions and procedures are immutable and shared)
    instead of a walk through every object of the game."""

    __slots__ = ("inner", "plies", "seen")

    def __init__(
        self, inner: GameState, plies: int = 0, seen: list[tuple[int, Action]] | None = None
    ):
        self.inner = inner
        self.plies = plies
        self.seen = seen if seen is not None else []  # (actor, action) of every ply, in order

    def __deepcopy__(self, memo: Any) -> Play:
        return Play(self.inner.clone(), self.plies, list(self.seen))


class MonsterballState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: MonsterballGame, play: Play | None = None):
        super().__init__(game)
        self.ctx = game.ctx
        self.play = play if play is not None else Play(self.ctx.spec.new_game(self.ctx.options))

    @property
    def inner(self) -> GameState:
        return self.play.inner

    @property
    def plies(self) -> int:
        return self.play.plies

    @property
    def seen(self) -> list[tuple[int, Action]]:
        return self.play.seen

    # -- the contract -------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        actor = self.inner.current_player()
        return int(pyspiel.PlayerId.CHANCE) if actor == CHANCE else actor

    def is_terminal(self) -> bool:
        return self.inner.is_terminal() or self.plies >= self.ctx.max_length

    def _legal_actions(self, player: int) -> list[int]:
        by_action = self.ctx.table._by_action
        return sorted(by_action[a] for a in self.inner.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        by_action = self.ctx.table._by_action
        return sorted((by_action[a], float(p)) for a, p in self.inner.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        chosen = self.ctx.table.decode(int(action))
        actor = self.inner.current_player()
        self.inner.apply(chosen)
        self.play.seen.append((actor, chosen))
        self.play.plies += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return self.ctx.table.decode(int(action)).notation()

    def returns(self) -> list[float]:
        # A game cut at max_game_length counts as a draw (0, 0), as an unfinished one does.
        return [float(r) for r in self.inner.returns()]

    def __str__(self) -> str:
        return self.inner.render(None)

    # -- imperfect information ----------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MonsterballState:
        """A state the seat cannot tell from this one: the other side's secrets drawn by the
        game's ``determinize`` (Midway); the state itself where nothing is hidden."""
        from monsterball.heuristic import heuristic_for

        seed = int(float(probability_sampler()) * (1 << 53))
        determinize = heuristic_for(self.ctx.spec).determinize
        inner = self.inner.clone()
        if determinize is not None:
            inner = determinize(self.inner, player_id, random.Random(seed))
        return MonsterballState(self.get_game(), Play(inner, self.plies, list(self.seen)))

    def info_text(self, player: int) -> str:
        lines = [f"seat {player}"]
        for actor, action in self.seen:
            if actor in (player, CHANCE):
                lines.append(action.notation())
            else:
                lines.append(getattr(action, "public_text", action.notation)())
        return "\n".join(lines)


class Observer:
    """OpenSpiel's PyObserver: the seat's planes, flattened, and its text render."""

    def __init__(self, ctx: Context):
        self.encoder = ctx.encoder
        self.tensor = np.zeros(int(np.prod(self.encoder.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(self.encoder.shape)}

    def set_from(self, state: MonsterballState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(state.inner, player).reshape(-1)

    def string_from(self, state: MonsterballState, player: int) -> str:
        return state.inner.render(player)


class PerfectRecallObserver(Observer):
    def string_from(self, state: MonsterballState, player: int) -> str:
        return state.info_text(player)


def _game_class(spec: GameSpec) -> type[MonsterballGame]:
    name = "".join(part.title() for part in spec.id.split("-")) + "SpielGame"
    return type(name, (MonsterballGame,), {"game_id": spec.id})


_CLASSES: dict[str, type[MonsterballGame]] = {}


def register_all() -> None:
    """Register every game with pyspiel (once)."""
    for spec in all_games():
        if spec.id in _CLASSES:
            continue
        cls = _game_class(spec)
        _CLASSES[spec.id] = cls
        pyspiel.register_game(_game_type(spec), cls)


def openspiel_game(
    game: str,
    preset: str | None = None,
    *,
    max_game_length: int = DEFAULT_MAX_GAME_LENGTH,
    **options: Any,
) -> MonsterballGame:
    """A pyspiel game for ``game`` with a preset and option overrides; registers them all."""
    register_all()
    spec = get_game(game)
    params = {
        "preset": preset or "",
        "max_game_length": max_game_length,
        "options": json.dumps(options, sort_keys=True) if options else "",
    }
    return _CLASSES[spec.id](params)
