"""Every game as a PettingZoo AEC environment.

Agents are the seats (``a_0``, ``b_1``: the seat's name and number, the form PettingZoo's
``api_test`` recommends). An action is the integer of the game's ``ActionTable``; the
observation is ``{"observation": planes, "action_mask": int8 mask}`` where the mask is all
zeros for a seat that is not to act. Dice are rolled inside ``step`` (and ``reset``) from a
``SeededSampler`` seeded by ``reset(seed=...)``, with the rules' exact probabilities, so the
same seed and actions give the same game. Rewards are the game's returns (+1 / -1 / 0) when it
ends; ``max_steps`` decisions truncate it with reward 0 (a per-game default, see
``SPEC.rl.max_decisions``; None: never).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, GameState
from monsterball.core.learning import SPATIAL
from monsterball.games import get_game
from monsterball.rl import ids
from monsterball.rl.encode import ENCODER_VERSION, encoder_for, legal_numbers

DEFAULT = "default"  # max_steps: the game's default cut


def max_steps_for(game: str, max_steps: int | str | None, per: int = 1) -> int | None:
    """A max_steps argument checked: ``"default"`` is the game's cut (divided by ``per``
    for an env counting one seat's decisions), None never cuts."""
    if max_steps == DEFAULT:
        return ids.default_max_decisions(game) // per
    if max_steps is None:
        return None
    if not isinstance(max_steps, int) or isinstance(max_steps, bool) or max_steps < 1:
        raise ValueError(f"max_steps must be at least 1, None or 'default' (got {max_steps!r})")
    return max_steps


def agent_names(seat_names: tuple[str, ...]) -> list[str]:
    return [f"{name.lower()}_{i}" for i, name in enumerate(seat_names)]


OBSERVATIONS = ("full", "compact")


class Core:
    """What the AEC, Gymnasium and vector environments share: the game, its table, the
    encoder, the dice, and one state played forward through chance nodes.

    Observations and masks are cached per ply (several readers of one position pay once);
    the legal actions the mask was built from are kept for checking the next action. A core
    pickles as its game, options, position and dice (issue 37): the tables are rebuilt."""

    def __init__(
        self,
        game: str,
        preset: str | None,
        options: dict[str, Any],
        observation: str = "full",
    ):
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of full, compact (got {observation!r})")
        self.spec = get_game(game)
        self.preset = preset
        self.overrides = dict(options)
        self.observation = observation
        self.options = self.spec.options(preset, **options)
        self._tables()
        self.state: GameState = self.spec.new_game(self.options)
        self.sampler = SeededSampler(0)
        self.games = 0  # games started
        self.dice_rolled = 0  # chance outcomes applied (so plies - dice = decisions)

    def _tables(self) -> None:
        self.table = self.spec.action_table(self.options)
        self.encoder = encoder_for(self.spec, self.options)
        self.num_actions = len(self.table)
        self._key: tuple[Any, int] = (None, -1)
        self._actor = -1  # the seat the cached mask is for (-1: none)
        self._mask = np.zeros(self.num_actions, np.int8)
        self._obs: dict[int, dict[str, np.ndarray]] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {
            "game": self.spec.id,
            "preset": self.preset,
            "overrides": self.overrides,
            "observation": self.observation,
            "position": self.state.to_position(),
            "sampler": self.sampler,
            "games": self.games,
            "dice_rolled": self.dice_rolled,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["game"], data["preset"], data["overrides"], data["observation"])  # type: ignore[misc]
        self.state = self.spec.from_position(data["position"])
        self.sampler = data["sampler"]
        self.games = data["games"]
        self.dice_rolled = data.get("dice_rolled", 0)

    def new_game(self, seed: int) -> None:
        self.sampler = SeededSampler(seed)
        self.state = self.spec.new_game(self.options)
        self.games += 1
        self.roll_dice()

    def roll_dice(self) -> None:
        state = self.state
        while state.current_player() == CHANCE:
            state.apply_unchecked(self.sampler.choose(state.chance_outcomes()))
            self.dice_rolled += 1

    def _fresh(self) -> None:
        """Forget the caches when the position moved on (or the state was replaced)."""
        key = self._key
        state = self.state
        if key[0] is not state or key[1] != state.ply:
            self._key = (state, state.ply)
            self._obs = {}
            actor = -1 if state.is_terminal() else state.current_player()
            self._actor = actor if actor >= 0 else -1
            if self._actor >= 0:
                self._mask = self.encoder.masks.of(state)
            else:
                self._mask = np.zeros(self.num_actions, np.int8)

    def legal_numbers(self) -> list[int]:
        """The numbers of the legal actions of the seat to act, ascending (empty at the end)."""
        self._fresh()
        return legal_numbers(self._mask)

    def mask(self, seat: int) -> np.ndarray:
        """The seat's legal actions as an int8 mask (all zeros when it is not to act); a new
        array, the caller's to keep."""
        self._fresh()
        if seat == self._actor:
            return self._mask.copy()
        return np.zeros(self.num_actions, dtype=np.int8)

    def decode(self, number: Any, seat: int) -> Any:
        """The legal action numbered ``number`` for ``seat``; ValueError naming the problem."""
        try:
            index = int(number)
        except (TypeError, ValueError):
            raise ValueError(f"action must be an integer, got {number!r}") from None
        if not 0 <= index < self.num_actions:
            raise ValueError(f"action {index} is outside 0..{self.num_actions - 1}")
        action = self.table.actions[index]
        self._fresh()
        if seat != self._actor or not self._mask[index]:
            raise ValueError(
                f"action {index} ('{action}') is not legal for seat "
                f"{self.spec.seat_name(seat)} now ({self.state.view(seat)['step']})"
            )
        return action

    def play(self, number: Any, seat: int) -> None:
        self.state.apply_unchecked(self.decode(number, seat))
        self.roll_dice()

    def observation_space(self) -> spaces.Dict:
        mask = spaces.Box(0, 1, (self.num_actions,), dtype=np.int8)
        enc = self.encoder
        if self.observation == "compact":
            return spaces.Dict(
                {
                    "planes": spaces.Box(0, enc.compact_high, enc.compact_shape, dtype=np.uint8),
                    "scalars": spaces.Box(0.0, 1.0, (len(enc.scalars),), dtype=np.float32),
                    "action_mask": mask,
                }
            )
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, enc.shape, dtype=np.float32),
                "action_mask": mask,
            }
        )

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """The seat's observation (cached for the ply: the same arrays until the next move,
        so a caller that keeps them across steps keeps what it was given)."""
        self._fresh()
        cached = self._obs.get(seat)
        if cached is None:
            cached = self._obs[seat] = self._encode(seat)
        return cached

    def observe_into(self, seat: int, out: dict[str, np.ndarray], row: int) -> None:
        """The seat's observation written into row ``row`` of the batched arrays ``out``
        (the vector env's), without arrays of its own."""
        self._fresh()
        cached = self._obs.get(seat)
        if cached is not None:
            for key, value in cached.items():
                out[key][row] = value
            return
        enc, state = self.encoder, self.state
        if seat == self._actor:
            out["action_mask"][row] = self._mask
        else:
            out["action_mask"][row] = 0
        if self.observation == "compact":
            out["planes"][row] = enc.compact_from(enc.board_values(state, seat))
            out["scalars"][row] = enc.scalar_list(state, seat)
        else:
            planes = out["observation"][row]
            assert planes.flags.c_contiguous  # so the reshape is a view, written in place
            enc.encode_into(state, seat, planes.reshape(len(enc.planes), enc.cells))

    def _encode(self, seat: int) -> dict[str, np.ndarray]:
        enc, state = self.encoder, self.state
        if self.observation == "compact":
            return {
                "planes": enc.compact_from(enc.board_values(state, seat)),
                "scalars": enc.scalar_values(state, seat),
                "action_mask": self.mask(seat),
            }
        return {"observation": enc.encode(state, seat), "action_mask": self.mask(seat)}

    def ansi(self, seat: int | None = None) -> str:
        return f"{self.state.render(seat)}\n{self.state.result_text()}\n"

    def rgb(self, seat: int = 0, scale: int = 16) -> np.ndarray:
        """A cheap picture from the planes: end zones grey, own pieces blue, the other
        team's red, the ball yellow (a hex grid is drawn as its offset rows)."""
        planes = self.encoder.encode(self.state, seat)
        ix = {name: i for i, name in enumerate(SPATIAL)}
        rows, cols = planes.shape[1:]
        img = np.full((rows, cols, 3), 40, dtype=np.uint8)
        img[:, :] = (34, 110, 50)
        zone = (planes[ix["own_end_zone"]] + planes[ix["opp_end_zone"]]) > 0
        img[zone] = (90, 140, 95)
        img[planes[ix["cone"]] > 0] = (255, 140, 0)
        img[planes[ix["own_pieces"]] > 0] = (40, 80, 230)
        img[planes[ix["opp_pieces"]] > 0] = (220, 40, 40)
        img[planes[ix["image"]] > 0] = (180, 180, 180)
        img[planes[ix["ball"]] > 0] = (250, 230, 40)
        img = img[::-1]  # row 0 at the bottom, as the text render draws it
        return np.repeat(np.repeat(img, scale, axis=0), scale, axis=1)


class MonsterballEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment for one game with fixed options."""

    metadata = {  # noqa: RUF012 - PettingZoo reads it as a class attribute
        "render_modes": ["ansi", "rgb_array"],
        "name": "monsterball",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        preset: str | None = None,
        *,
        max_steps: int | str | None = DEFAULT,
        render_mode: str | None = None,
        observation: str = "full",
        **options: Any,
    ):
        super().__init__()
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(f"render_mode must be one of ansi, rgb_array (got {render_mode!r})")
        self.core = Core(game, preset, options, observation)
        self.max_steps = max_steps_for(self.core.spec.id, max_steps)
        self.render_mode = render_mode
        self.possible_agents = agent_names(self.core.spec.seat_names)
        self.seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        space = self.core.observation_space()
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.core.num_actions) for a in self.possible_agents
        }
        self.metadata = dict(
            self.metadata,
            name=ids.env_name(game),
            rules_version=ids.rules_version(self.core.spec),
            encoder_version=ENCODER_VERSION,
        )
        self.version = ids.version(game)
        self._seeds = np.random.default_rng()
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state_now(self) -> GameState:
        """The game's state (the truth: for analysis, not for a seat's policy)."""
        return self.core.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(0, 2**62))
        self.core.new_game(game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        self._select()

    def _select(self) -> None:
        actor = self.core.state.current_player()
        if actor >= 0:
            self.agent_selection = self.possible_agents[actor]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.core.observe(self.seat_of[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.core.play(action, self.seat_of[agent])
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        state = self.core.state
        if state.is_terminal():
            for a, value in zip(self.possible_agents, state.returns(), strict=True):
                if a in self.rewards:
                    self.rewards[a] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self.core.ansi(self.seat_of.get(self.agent_selection))
        return self.core.rgb(self.seat_of.get(self.agent_selection, 0))

    def close(self) -> None:
        pass
