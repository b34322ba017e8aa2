"""A game as a Gymnasium single-agent environment: one seat against a bot.

The observation is the same ``Dict`` as the AEC environment's (planes and the int8 mask);
``info["action_mask"]`` repeats the mask for libraries that read it there. The opponent plays
inside ``step`` (and ``reset``, when it moves first) until the learner must act again, so
each ``step`` is one decision of the learner. Reward: the learner's return when the game ends.

An action the mask forbids either raises ValueError (``illegal_action="raise"``) or, by
default (``"lose"``), ends the episode as a loss (reward -1, ``info["illegal_action"]``) and
leaves the game as it was, like PettingZoo's TerminateIllegalWrapper: Gymnasium's checker
and unmasked learners send such actions.

``opponent="self"``: no bot; each step is a decision of whichever seat is to act
(``info["seat"]``), and the reward at the end is that of the seat that made the last move.

``reward_points=x`` adds ``x`` per point the learner's lead grows (and takes it per point it
shrinks) to the reward: a dense signal for long games; 0 (the default) gives the game's
result only.

``action_masks()`` gives the mask as sb3-contrib's MaskablePPO asks for it (no wrapper
needed). ``seat="alternate"`` plays seat A, then B, then A... from each ``reset(seed=...)``
on; ``info["seat"]`` says which. ``max_steps`` counts the learner's decisions; the default
is half the game's cut (``SPEC.rl.max_decisions``), where the episode is
*truncated* (reward 0), not terminated.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from monsterball.bots.protocol import Bot, bot_seed
from monsterball.bots.registry import make_bot
from monsterball.rl import ids
from monsterball.rl.aec import DEFAULT, Core, max_steps_for


class MonsterballGym(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        preset: str | None = None,
        *,
        opponent: str | Bot = "random",
        seat: int | str = 0,
        max_steps: int | str | None = DEFAULT,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        observation: str = "full",
        reward_points: float = 0.0,
        **options: Any,
    ):
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise' (got {illegal_action!r})")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of ansi, rgb_array (got {render_mode!r})")
        self.core = Core(game, preset, options, observation)
        seats = self.core.spec.num_seats
        if seat != "alternate" and seat not in range(seats):
            raise ValueError(f"seat must be 0..{seats - 1} or 'alternate' (got {seat!r})")
        self.alternate = seat == "alternate"
        self.seat: int = 0 if self.alternate else int(seat)
        self._episodes = 0
        self.opponent_spec = opponent
        self.self_play = opponent == "self"
        if self.self_play and seat != 0:
            raise ValueError("seat does not apply to opponent='self' (the learner plays both)")
        self.opponent: Bot | None = self._make_opponent(0)
        # Self-play counts every decision; against a bot, the learner's (about half).
        per = 1 if self.self_play else 2
        self.max_steps = max_steps_for(self.core.spec.id, max_steps, per=per)
        self.version = ids.version(game)
        self.reward_points = float(reward_points)
        if self.reward_points and self.self_play:
            raise ValueError("reward_points needs a bot opponent (self-play has no one lead)")
        self._lead = 0
        self.render_mode = render_mode
        self.observation_space = self.core.observation_space()
        self.action_space = gymnasium.spaces.Discrete(self.core.num_actions)
        self.steps = 0

    def _make_opponent(self, game_seed: int) -> Bot | None:
        if self.self_play:
            return None
        if isinstance(self.opponent_spec, str):
            return make_bot(self.opponent_spec, bot_seed(game_seed, 1 - self.seat))
        return self.opponent_spec

    def _obs(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        obs = self.core.observe(self.seat)
        return obs, {"action_mask": obs["action_mask"], "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a bool array (sb3-contrib's MaskablePPO reads this)."""
        mask: np.ndarray = self.core.mask(self.seat).astype(bool)
        return mask

    def _opponent_moves(self) -> None:
        state = self.core.state
        if self.opponent is None:  # self-play: the learner is the seat to act
            if not state.is_terminal():
                self.seat = state.current_player()
            return
        other = 1 - self.seat
        while not state.is_terminal() and state.current_player() == other:
            state.apply_unchecked(self.opponent.choose(state, other))
            self.core.roll_dice()
            state = self.core.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        self._start(seed)
        return self._obs()

    def _start(self, seed: int | None) -> None:
        """``reset`` without the observation (the vector env writes it into its batch)."""
        super().reset(seed=seed)
        if seed is not None:
            self._episodes = 0
        if self.alternate:
            self.seat = self._episodes % 2
        self._episodes += 1
        game_seed = int(self.np_random.integers(0, 2**62))
        self.opponent = self._make_opponent(game_seed)
        self.core.new_game(game_seed)
        self.steps = 0
        self._opponent_moves()
        self._lead = self._score_lead()

    def _score_lead(self) -> int:
        score: Any = getattr(self.core.state, "score", (0, 0))
        return int(score[self.seat] - score[1 - self.seat])

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        reward, terminated, truncated, extra = self._advance(action)
        obs, info = self._obs()
        if "illegal_action" in extra:
            # The position did not move: new arrays, not the ones the last call returned.
            obs = {key: value.copy() for key, value in obs.items()}
            info["action_mask"] = obs["action_mask"]
        info.update(extra)
        return obs, reward, terminated, truncated, info

    def _advance(self, action: Any) -> tuple[float, bool, bool, dict[str, Any]]:
        """``step`` without the observation: reward, terminated, truncated and the info
        beyond the mask and the seat (``illegal_action``, ``result``)."""
        try:
            chosen = self.core.decode(action, self.seat)
        except ValueError as exc:
            if self.illegal_action == "raise":
                raise
            return -1.0, True, False, {"illegal_action": str(exc)}
        self.core.state.apply_unchecked(chosen)
        self.core.roll_dice()
        self.steps += 1
        mover = self.seat
        self._opponent_moves()
        state = self.core.state
        terminated = state.is_terminal()
        reward = float(state.returns()[mover]) if terminated else 0.0
        if self.reward_points:
            lead = self._score_lead()
            reward += self.reward_points * (lead - self._lead)
            self._lead = lead
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        if terminated:
            return reward, True, False, {"result": float(state.returns()[mover])}  # no points
        return reward, False, truncated, {}

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return self.core.ansi(self.seat)
        if self.render_mode == "rgb_array":
            return self.core.rgb(self.seat)
        return None
