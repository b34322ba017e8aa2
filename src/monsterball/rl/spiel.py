"""Every game as an OpenSpiel Python game (``open-spiel`` package).

Registered as ``python_monsterball_<game>`` (``-`` becomes ``_``) and under its versioned
name (``rl.ids.spiel_names``) by ``import monsterball.rl``. Parameters: ``preset`` (a preset
name, "" for the defaults), ``max_game_length`` (plies, chance outcomes included; the game is
cut there, with returns (0, 0); by default twice the game's decision cut), ``observation``
(``full`` or ``compact``: the compact planes then the scalars, flattened) and every option
of the game under its own name (a ``,`` inside a text option is written ``;``). A game's
string lists the options it resolved to (``preset=`` empty), so ``str(game)`` loads back
the same game. An option parameter equal to the game's default leaves the preset's value.

States pickle and serialize (``state.serialize()``, ``game.deserialize_state``,
``pyspiel.serialize_game_and_state``) as their position, ply count and history.

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
from monsterball.rl import ids
from monsterball.rl.encode import Encoder, encoder_for, legal_numbers

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


def default_max_game_length(spec: GameSpec) -> int:
    """Plies: twice the decision cut, for the dice between decisions."""
    return 2 * ids.default_max_decisions(spec.id)


def default_params(spec: GameSpec) -> dict[str, Any]:
    params: dict[str, Any] = {
        "preset": "",
        "max_game_length": default_max_game_length(spec),
        "observation": "full",
    }
    for name, value in spec.options().to_dict().items():
        params[name] = _to_param(value)
    return params


def _to_param(value: Any) -> Any:
    # OpenSpiel's game strings split on ",": a text option writes it as ";".
    return value.replace(",", ";") if isinstance(value, str) else value


def _from_param(value: Any, default: Any) -> Any:
    if isinstance(default, str):
        return str(value).replace(";", ",")
    if isinstance(default, float):
        return float(value)
    return value


def short_name(spec: GameSpec) -> str:
    return ids.spiel_names(spec)[0]


def _game_type(spec: GameSpec, name: str) -> Any:
    info = pyspiel.GameType.Information
    hidden = spec.hidden_information
    return pyspiel.GameType(
        short_name=name,
        long_name=f"Python monsterball {spec.title} ({ids.version(spec.id)})",
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
        parameter_specification=default_params(spec),
    )


class Context:
    """What a game's states and observers share, built once per parameter set. OpenSpiel
    copies games and states without calling ``__init__``, so nothing lives on them but this
    (shared, never copied; pickled as its parameters)."""

    def __init__(self, game_id: str, params: dict[str, Any]):
        self.spec = get_game(game_id)
        self.params = dict(params)
        preset = str(params.get("preset", "")) or None
        defaults = self.spec.options().to_dict()
        self.max_length = int(params.get("max_game_length", default_max_game_length(self.spec)))
        if self.max_length < 1:
            raise ValueError(f"max_game_length must be at least 1 (got {self.max_length})")
        self.observation = str(params.get("observation", "full"))
        if self.observation not in ("full", "compact"):
            raise ValueError(f"observation must be full or compact (got {self.observation!r})")
        overrides = {}
        for name, default in defaults.items():
            if name in params:
                value = _from_param(params[name], default)
                if value != default:
                    overrides[name] = value
        self.options: GameOptions = self.spec.options(preset, **overrides)
        self.table = self.spec.action_table(self.options)
        self.encoder: Encoder = encoder_for(self.spec, self.options)
        # The parameters a game string shows: the resolved options, no preset.
        self.resolved = {
            "preset": "",
            "max_game_length": self.max_length,
            "observation": self.observation,
            **{k: _to_param(v) for k, v in self.options.to_dict().items()},
        }
        enc = self.encoder
        if self.observation == "compact":
            self.tensor_size = int(np.prod(enc.compact_shape)) + len(enc.scalars)
        else:
            self.tensor_size = int(np.prod(enc.shape))

        self._tensor_of: tuple[Any, int, int, np.ndarray] | None = None

    def legal_mask(self, state: GameState) -> np.ndarray:
        """The legal decisions as an int8 mask (``encode.LegalMasks``)."""
        return self.encoder.masks.of(state)

    def __deepcopy__(self, memo: Any) -> Context:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (context, (self.spec.id, self.params))

    def tensor(self, state: GameState, player: int, out: np.ndarray) -> None:
        """Fill ``out`` (flat float32, ``tensor_size``) with the seat's observation (the last
        one is kept: OpenSpiel asks twice for one tensor)."""
        last = self._tensor_of
        if last is not None and last[0] is state and last[1] == state.ply and last[2] == player:
            out[:] = last[3]
            return
        self._fill(state, player, out)
        self._tensor_of = (state, state.ply, player, out.copy())

    def _fill(self, state: GameState, player: int, out: np.ndarray) -> None:
        enc = self.encoder
        if self.observation == "compact":
            planes = enc.compact_from(enc.board_values(state, player)).reshape(-1)
            out[: planes.size] = planes
            out[planes.size :] = enc.scalar_values(state, player)
        else:
            enc.encode_into(state, player, out.reshape(len(enc.planes), enc.cells))


_CONTEXTS: dict[tuple[str, str], Context] = {}


def context(game_id: str, params: dict[str, Any]) -> Context:
    key = (game_id, json.dumps(params, sort_keys=True, default=str))
    if key not in _CONTEXTS:
        _CONTEXTS[key] = Context(game_id, params)
    return _CONTEXTS[key]


class MonsterballGame(pyspiel.Game):  # type: ignore[misc]
    """One game with fixed options; subclassed per registered game (``game_id``)."""

    game_id = ""
    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        spec = get_game(self.game_id)
        ctx = context(self.game_id, {**default_params(spec), **(params or {})})
        info = pyspiel.GameInfo(
            num_distinct_actions=len(ctx.table),
            max_chance_outcomes=len(ctx.table),
            num_players=ctx.spec.num_seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=ctx.max_length,
        )
        super().__init__(_game_type(ctx.spec, self.short_name), info, ctx.resolved)

    @property
    def ctx(self) -> Context:
        # Kept on the game (OpenSpiel asks for an observer, so for this, at every tensor);
        # a game OpenSpiel copied without __init__ finds it again from its parameters.
        ctx: Context | None = self.__dict__.get("_ctx")
        if ctx is None:
            params = {**default_params(get_game(self.game_id)), **self.get_parameters()}
            ctx = self.__dict__["_ctx"] = context(self.game_id, params)
        return ctx

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
    instead of a walk through every object of the game. It pickles (and so serializes) as
    the position, the ply count and the history's notation."""

    __slots__ = ("inner", "legal", "plies", "seen")

    def __init__(
        self, inner: GameState, plies: int = 0, seen: list[tuple[int, Action]] | None = None
    ):
        self.inner = inner
        self.plies = plies
        self.seen = seen if seen is not None else []  # (actor, action) of every ply, in order
        # (ply, legal mask) of the last legal_actions(): an action it allows is applied
        # without listing the legal actions again.
        self.legal: tuple[int, np.ndarray | None] = (-1, None)

    def __deepcopy__(self, memo: Any) -> Play:
        return Play(self.inner.clone(), self.plies, list(self.seen))

    def __reduce__(self) -> tuple[Any, ...]:
        history = [(actor, action.notation()) for actor, action in self.seen]
        return (_play_from, (self.inner.spec.id, self.inner.to_position(), self.plies, history))


def _play_from(game_id: str, position: dict[str, Any], plies: int, history: Any) -> Play:
    spec = get_game(game_id)
    seen = [(int(actor), spec.parse_action(text)) for actor, text in history]
    return Play(spec.from_position(position), plies, seen)


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

    # OpenSpiel asks these several times a decision: no properties, no calls on the way.
    def current_player(self) -> int:
        play = self.play
        inner = play.inner
        if not inner.stack or play.plies >= self.ctx.max_length:
            return _TERMINAL
        actor = inner.stack[-1].actor(inner)
        return _CHANCE if actor == CHANCE else actor

    def is_terminal(self) -> bool:
        play = self.play
        return not play.inner.stack or play.plies >= self.ctx.max_length

    def _legal_actions(self, player: int) -> list[int]:
        mask = self.ctx.legal_mask(self.inner)
        self.play.legal = (self.inner.ply, mask)
        return legal_numbers(mask)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        # By identity, and a Fraction's float as one division (float() goes through numbers.py).
        number = self.ctx.encoder.masks.number
        outcomes = self.inner.chance_outcomes()
        return sorted([(number(a), p.numerator / p.denominator) for a, p in outcomes])

    def _apply_action(self, action: int) -> None:
        chosen = self.ctx.table.decode(int(action))
        inner = self.inner
        actor = inner.current_player()
        ply, legal = self.play.legal
        if ply == inner.ply and actor != CHANCE and legal is not None and legal[int(action)]:
            inner.apply_unchecked(chosen)
        else:
            inner.apply(chosen)  # checked: raises, naming the problem, for an illegal one
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
        from monsterball.bots.heuristic import heuristic_for

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
        self.ctx = ctx
        self.tensor = np.zeros(ctx.tensor_size, np.float32)
        enc = ctx.encoder
        if ctx.observation == "compact":
            size = int(np.prod(enc.compact_shape))
            self.dict = {
                "planes": self.tensor[:size].reshape(enc.compact_shape),
                "scalars": self.tensor[size:],
            }
        else:
            self.dict = {"observation": self.tensor.reshape(enc.shape)}

    def set_from(self, state: MonsterballState, player: int) -> None:
        self.ctx.tensor(state.inner, player, self.tensor)  # in place: OpenSpiel reads it

    def string_from(self, state: MonsterballState, player: int) -> str:
        return state.inner.render(player)


class PerfectRecallObserver(Observer):
    def string_from(self, state: MonsterballState, player: int) -> str:
        return state.info_text(player)


def _game_class(spec: GameSpec, name: str) -> type[MonsterballGame]:
    cls_name = "".join(part.title() for part in name.split("_")) + "Game"
    cls = type(cls_name, (MonsterballGame,), {"game_id": spec.id, "short_name": name})
    globals()[cls_name] = cls  # found by name, so a game pickles
    return cls


_CLASSES: dict[str, type[MonsterballGame]] = {}


def register_all() -> None:
    """Register every game with pyspiel, under its plain and versioned names (once)."""
    registered = set(pyspiel.registered_names())
    for spec in all_games():
        for name in ids.spiel_names(spec):
            if name not in _CLASSES:
                _CLASSES[name] = _game_class(spec, name)
            if name not in registered:
                pyspiel.register_game(_game_type(spec, name), _CLASSES[name])


def openspiel_game(
    game: str,
    preset: str | None = None,
    *,
    max_game_length: int | None = None,
    observation: str = "full",
    **options: Any,
) -> MonsterballGame:
    """A pyspiel game for ``game`` with a preset and option overrides; registers them all."""
    register_all()
    spec = get_game(game)
    known = spec.options().to_dict()
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)} for {spec.id}")
    params: dict[str, Any] = {
        "preset": preset or "",
        "max_game_length": max_game_length or default_max_game_length(spec),
        "observation": observation,
    }
    # Resolved here (preset and overrides), so an override equal to the default stays.
    resolved = spec.options(preset, **options).to_dict()
    params.update({k: _to_param(v) for k, v in resolved.items()})
    params["preset"] = ""
    return _CLASSES[short_name(spec)](params)
