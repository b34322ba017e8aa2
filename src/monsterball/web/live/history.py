"""Replays of stored games: a game's moves replayed from the store, with a checkpoint every
CHECKPOINT_EVERY moves, for the replay viewer, the moves list, the chances graph and the record
download (web/api/games.py, web/api/ui.py). :class:`Histories` keeps the last few asked for; the
rooms (web/live/rooms.py) hand them out and drop a game's when a move is taken back."""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import anyio

from monsterball.core.game import GameState
from monsterball.core.record import GameRecord, Recorder
from monsterball.web.live import fair_dice
from monsterball.web.live.game import LiveGame, Rejected
from monsterball.web.store.games import GameRow, Store, StoredMove

__all__ = ["CHECKPOINT_EVERY", "HISTORIES_KEPT", "Histories", "Replay", "replayed"]

CHECKPOINT_EVERY = 64
HISTORIES_KEPT = 32  # replays kept in memory (a long game's is a few hundred kB)


@dataclass
class Replay:
    """A game's history for the replay viewer: the state every CHECKPOINT_EVERY moves."""

    live: LiveGame
    checkpoints: list[GameState]
    actions: list[str]

    def state_at(self, step: int) -> GameState:
        """The state after ``step`` of the game's moves (0: its start)."""
        step = max(0, min(step, len(self.actions)))
        base = step // CHECKPOINT_EVERY
        state = self.checkpoints[base].clone()
        for text in self.actions[base * CHECKPOINT_EVERY : step]:
            state.apply_unchecked(state.spec.parse_action(text))
        return state

    def record(self, row: GameRow) -> GameRecord:
        """The game's record, as `monsterball play --save` would have written it."""
        live = self.live
        kinds: dict[str, str] = {}
        for chair in live.chairs:
            who = (chair.bot or "bot") if chair.kind == "bot" else "human"
            name = live.spec.seat_name(chair.seat)
            kinds[name] = who if name not in kinds else f"{kinds[name]}, {who}"
        # The seed is only in the end line, so a record of a game in progress never holds it.
        recorder = Recorder(
            self.checkpoints[0].clone(),
            seed=None,
            committed_seed=row.game_seed,
            players=kinds,
            dice=row.dice,
            dice_nonces=dict(fair_dice.contributions(row)),
        )
        for text in self.actions:
            recorder.apply(live.spec.parse_action(text), checked=False)
        if recorder.state.is_terminal():
            recorder.finish()
        elif live.ending is not None and "loser" not in live.ending:  # agreed: format 3
            recorder.agree_draw()
        elif live.ending is not None:  # lost on time, resigned: a format 2 end line
            loser = live.spec.seat_names.index(live.ending["loser"])
            recorder.forfeit(loser, live.ending["termination"])
        return recorder.record


def replayed(row: GameRow, moves: Sequence[StoredMove]) -> Replay:
    """The game of ``row`` with ``moves`` (all of its stored moves) replayed."""
    live = LiveGame.start(row)
    checkpoints = []
    for i, move in enumerate(moves):
        if i % CHECKPOINT_EVERY == 0:
            checkpoints.append(live.state.clone())
        live.commit(live.spec.parse_action(move.action))
    if len(moves) % CHECKPOINT_EVERY == 0:
        checkpoints.append(live.state.clone())
    return Replay(live, checkpoints, [m.action for m in moves])


class Histories:
    """The replays of the last HISTORIES_KEPT games asked for, keyed by (game, move count)."""

    def __init__(self, store: Store, counts: Counter[str]):
        self.store = store
        self.counts = counts  # the rooms' counters (/api/server): histories_built
        self.kept: OrderedDict[tuple[str, int], Replay] = OrderedDict()

    async def get(self, game_id: str, before_building: Callable[[], None] | None = None) -> Replay:
        """The game's stored moves replayed, with checkpoints. Kept for the last few games
        asked for, keyed by their move count, so stepping through a replay does not replay
        the whole game at every step, and a game still being played is rebuilt as it grows.
        ``before_building``: called when it must be built (the asker's limit:
        web/hardening/limits.py)."""
        row = await anyio.to_thread.run_sync(self.store.get, game_id)
        if row is None:
            raise Rejected("not-found", f"no game '{game_id}'")
        key = (game_id, row.plies)
        cached = self.kept.get(key)
        if cached is not None:
            self.kept.move_to_end(key)
            return cached
        if before_building is not None:
            before_building()
        self.counts["histories_built"] += 1
        moves = await anyio.to_thread.run_sync(self.store.moves, game_id)
        replay = await anyio.to_thread.run_sync(replayed, row, moves)
        self.kept[key] = replay
        while len(self.kept) > HISTORIES_KEPT:
            self.kept.popitem(last=False)
        return replay

    def forget(self, game_id: str) -> None:
        """Drop the game's replays (a move was taken back: web/live/takeback.py)."""
        for key in [k for k in self.kept if k[0] == game_id]:
            del self.kept[key]
