"""The public Python API: start, play, record and read games of the three monster sports.

Everything here is reachable from the package itself (``monsterball.new_game``, ...), loaded
on first use so ``import monsterball`` stays cheap. A :class:`Game` is one game being
played: its rules state (:class:`~monsterball.core.game.GameState`), its seeded dice and
its record, written as it is played.

>>> import monsterball
>>> game = monsterball.new_game("paper-ultimate", preset="small", seed=7)
>>> game.is_chance()  # the game starts with the coin toss
True
>>> game.roll()  # the seeded dice decide; the events say what happened
[TossWon(receiver=1), PointStarted(receiver=1, north_team=0)]
>>> game.apply("place c13")  # notation, checked against the rules
[Placed(player=4, cell='c13')]

Imports: the layers below (games, bots, records); nothing imports this but the package.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from monsterball.bots.protocol import DEFAULT_MAX_PLIES, Bot
from monsterball.core.actions import Action, Event
from monsterball.core.board import Board
from monsterball.core.dice import SeededSampler
from monsterball.core.errors import PositionError
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.record import GameRecord, Recorder, initial_state
from monsterball.core.record import read_record as parse_record
from monsterball.core.record import replay as replay_record
from monsterball.games import get_game

__all__ = ["Game", "from_position", "load_game", "new_game", "read_record", "write_record"]


class Game:
    """One game being played: the rules state, the dice and the record.

    Build one with :func:`new_game`, :func:`from_position` or :func:`load_game`. Decisions
    go in with :meth:`apply` (an action or its notation, checked against the rules); at a
    chance node :meth:`roll` rolls the seeded dice (or :meth:`apply` a chosen outcome, like
    ``"d6=4"``, for analysis). Every action is recorded: :attr:`record`,
    :func:`write_record`. :attr:`state` is the engine's own state, for search and analysis
    (clone it before changing it).
    """

    def __init__(
        self,
        state: GameState,
        *,
        seed: int | None = None,
        players: Mapping[str, str] | None = None,
    ):
        """Play ``state`` on from here with dice seeded by ``seed`` (None: a fresh random
        seed, written in the record so the game can be replayed)."""
        self.state = state
        self.seed = secrets.randbits(63) if seed is None else seed
        self._dice = SeededSampler(self.seed)
        self._recorder = Recorder(state, seed=self.seed, players=players)

    # -- what the game is -------------------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        """The game's registry entry: id, title, seat names, options."""
        return self.state.spec

    @property
    def record(self) -> GameRecord:
        """Everything played so far, as a record (:func:`write_record` saves it)."""
        return self._recorder.record

    @property
    def ply(self) -> int:
        """How many actions (dice included) have been played since the start."""
        return self.state.ply

    # -- whose turn, and what may happen ----------------------------------------------------

    def current_player(self) -> int:
        """The seat to act (0 for team A, 1 for team B), or ``CHANCE`` (-1: the dice) or
        ``TERMINAL`` (-2: the game is over)."""
        return self.state.current_player()

    def is_chance(self) -> bool:
        """Whether the dice (or a coin toss, a card) decide next."""
        return self.state.is_chance()

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

    def legal_actions(self) -> list[Action]:
        """The decisions the seat to act may take (at a chance node: the outcomes)."""
        return self.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node, each outcome with its exact probability; otherwise []."""
        return self.state.chance_outcomes()

    # -- playing ----------------------------------------------------------------------------

    def apply(self, action: Action | str, *, seat: int | None = None) -> list[Event]:
        """Play ``action`` (an action or its notation, like ``"A3-e5"`` or ``"end"``), by
        ``seat`` if given, and return the events it caused.

        An illegal action raises :class:`~monsterball.core.errors.IllegalActionError` (bad
        notation: :class:`~monsterball.core.errors.NotationError`) with a one-line reason,
        and changes nothing. A chance outcome chosen by hand is recorded as such: the
        record then no longer claims its dice came from the seed."""
        move = self.spec.parse_action(action) if isinstance(action, str) else action
        chance = self.state.is_chance()
        events = self._recorder.apply(move, seat=seat)
        if chance:
            self.record.seed = None  # the dice no longer follow the seed
        return events

    def roll(self) -> list[Event]:
        """Roll the seeded dice at a chance node and return the events; the same seed and
        decisions always give the same rolls."""
        if not self.state.is_chance():
            raise ValueError(f"no dice to roll: {self._to_act()} is to act")
        outcome = self._dice.choose(self.state.chance_outcomes())
        return self._recorder.apply(outcome, checked=False)

    def play(self, bots: Bot | Sequence[Bot | None], *, max_plies: int = DEFAULT_MAX_PLIES) -> int:
        """Let bots play: roll the dice and ask each seat's bot (``bots[seat]``, or one bot
        for every seat) until the game ends or a seat without a bot (None) is to act.
        Returns the number of actions played; raises RuntimeError past ``max_plies``."""
        seats = [bots] * self.spec.num_seats if not isinstance(bots, Sequence) else list(bots)
        if len(seats) != self.spec.num_seats:
            raise ValueError(f"{self.spec.id} has {self.spec.num_seats} seats, got {len(seats)}")
        played = 0
        while not self.state.is_terminal():
            if played >= max_plies:
                raise RuntimeError(f"the game did not end within {max_plies} actions")
            actor = self.state.current_player()
            if actor == CHANCE:
                self.roll()
            else:
                bot = seats[actor]
                if bot is None:
                    break
                self._recorder.apply(bot.choose(self.state, actor), checked=False)
            played += 1
        return played

    # -- results and views ------------------------------------------------------------------

    def returns(self) -> tuple[float, ...]:
        """Per seat: +1 win, -1 loss, 0 draw or not finished."""
        return self.state.returns()

    def result_text(self) -> str:
        """The score and, once it is over, who won (``"team A wins, A 3 - B 1"``)."""
        return self.state.result_text()

    def render(self, seat: int | None = None) -> str:
        """The field as text, as ``seat`` may see it (None: the public view)."""
        return self.state.render(seat)

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see, as JSON-ready data (None: spectators' view)."""
        return self.state.view(seat)

    def board(self, seat: int | None = None) -> Board:
        """The board drawing user interfaces draw (docs/web.md's shared board format)."""
        return self.state.board(seat)

    def to_position(self) -> dict[str, Any]:
        """The whole position as JSON-ready data (docs/record-format.md); read it back
        with :func:`from_position`."""
        return self.state.to_position()

    def _to_act(self) -> str:
        actor = self.state.current_player()
        if self.state.is_terminal():
            return "nobody (the game is over)"
        return f"team {self.spec.seat_name(actor)}"

    def __repr__(self) -> str:
        return f"<Game {self.spec.id} ply={self.ply} {self.result_text()}>"


def new_game(
    game: str,
    preset: str | None = None,
    *,
    seed: int | None = None,
    players: Mapping[str, str] | None = None,
    **options: Any,
) -> Game:
    """A new game of ``game`` (an id or alias: ``"huck-monster"``, ``"hm"``), with a preset
    (``monsterball rules GAME`` lists them) and option overrides by name, dice seeded by
    ``seed``. ``players`` names who plays each team, for the record.

    Raises :class:`~monsterball.core.errors.UnknownGameError` or
    :class:`~monsterball.core.errors.OptionsError` naming what is wrong."""
    spec = get_game(game)
    return Game(spec.new_game(spec.options(preset, **options)), seed=seed, players=players)


def from_position(position: Mapping[str, Any] | str, *, seed: int | None = None) -> Game:
    """A game that starts from a position (:meth:`Game.to_position`'s data, or its JSON
    text); the record keeps the position as its start. Raises
    :class:`~monsterball.core.errors.PositionError` naming the field that is wrong."""
    data = _position_data(position)
    game = data.get("game")
    if not isinstance(game, str):
        raise PositionError("position 'game' must be a game id")
    return Game(get_game(game).from_position(data), seed=seed)


def _position_data(position: Mapping[str, Any] | str) -> Mapping[str, Any]:
    if isinstance(position, str):
        try:
            position = json.loads(position)
        except json.JSONDecodeError as exc:
            raise PositionError(f"a position must be JSON: {exc}") from None
    if not isinstance(position, Mapping):
        raise PositionError("a position must be a JSON object")
    return position


def read_record(source: str | os.PathLike[str] | IO[str]) -> GameRecord:
    """Read a game record (docs/record-format.md) from a file path or an open text file.
    Raises :class:`~monsterball.core.errors.RecordError` naming the line and field that are
    wrong (and ``OSError`` if the file cannot be read)."""
    if isinstance(source, str | os.PathLike):
        source = Path(source)
    return parse_record(source)


def write_record(record: GameRecord | Game, path: str | os.PathLike[str]) -> None:
    """Write a record (or a game's record so far) to ``path`` as JSON Lines."""
    if isinstance(record, Game):
        record = record.record
    Path(path).write_text(record.to_text(), encoding="utf-8")


def load_game(record: GameRecord | str | os.PathLike[str], *, verify: bool = True) -> Game:
    """Replay a record (or the record file at a path) and return the game where it stands,
    to play on with the same dice. With ``verify`` the replay first checks every hash and
    every die against the record's seed, and raises
    :class:`~monsterball.core.errors.RecordError` at the first divergence."""
    if not isinstance(record, GameRecord):
        record = read_record(record)
    if verify:
        report = replay_record(record, verify=True)
        if report.divergence is not None:
            raise report.divergence
    _, state = initial_state(record)
    seeded = record.dice_seed
    game = Game(state, seed=seeded, players=record.players)
    for entry in record.actions:
        action = game.spec.parse_action(entry.action)
        if seeded is not None and game.is_chance():
            rolled = game._dice.choose(game.chance_outcomes())  # the seed's stream goes on
            if rolled == action:
                game._recorder.apply(rolled, checked=False)
                continue
        game.apply(action)
    if seeded is None:
        game.record.seed = None  # its dice did not come from a seed we know
    return game
