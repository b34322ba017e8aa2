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

__all__ = ["CHECKPOINT_EVERY", "EXTEND_FREE", "HISTORIES_KEPT", "Histories", "Replay", "replayed"]

CHECKPOINT_EVERY = 64
HISTORIES_KEPT = 32  # replays kept in memory (a long game's is a few hundred kB)
# A kept replay extended by at most this many new moves costs the asker nothing from its
# rebuild allowance: a small part of a long game's build, and a game's extensions together
# apply each of its moves once. A longer one is charged as a build (it may cost as much).
EXTEND_FREE = CHECKPOINT_EVERY


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


def replayed(row: GameRow, moves: Sequence[StoredMove], since: Replay | None = None) -> Replay:
    """The game of ``row`` with ``moves`` replayed: all of its stored moves, or those after the
    ones ``since`` holds (it is left as it is: another request may be reading it)."""
    if since is None:
        live = LiveGame.start(row)
        checkpoints, actions = [live.state.clone()], []
    else:
        # The game as LiveGame.start(row) and the moves so far would make it, from the newer
        # row (its status, ending, clock): the same state, log and checkpoints.
        live = LiveGame(row, since.live.state.clone(), fair_dice.dice_sampler(row))
        live.log = list(since.live.log)
        checkpoints, actions = list(since.checkpoints), list(since.actions)
    for move in moves:
        live.commit(live.spec.parse_action(move.action))
        actions.append(move.action)
        if len(actions) % CHECKPOINT_EVERY == 0:
            checkpoints.append(live.state.clone())
    return Replay(live, checkpoints, actions)


class Histories:
    """The replays of the last HISTORIES_KEPT games asked for, keyed by (game, move count)."""

    def __init__(self, store: Store, counts: Counter[str]):
        self.store = store
        self.counts = counts  # the rooms' (/api/server): histories_built, histories_extended
        self.kept: OrderedDict[tuple[str, int], Replay] = OrderedDict()

    async def get(self, game_id: str, before_building: Callable[[], None] | None = None) -> Replay:
        """The game's stored moves replayed, with checkpoints. Kept for the last few games
        asked for, keyed by their move count, so stepping through a replay does not replay
        the whole game at every step; a game still being played is extended as it grows
        (only its new moves are read and applied). ``before_building``: called when it must
        be built, or extended by more than EXTEND_FREE moves (the asker's limit:
        web/hardening/limits.py)."""
        row = await anyio.to_thread.run_sync(self.store.get, game_id)
        if row is None:
            raise Rejected("not-found", f"no game '{game_id}'")
        key = (game_id, row.plies)
        cached = self.kept.get(key)
        if cached is not None:
            self.kept.move_to_end(key)
            return cached
        replay = await self._extended(row, before_building)
        if replay is None:
            if before_building is not None:
                before_building()
            self.counts["histories_built"] += 1
            moves = await anyio.to_thread.run_sync(self.store.moves, game_id)
            replay = await anyio.to_thread.run_sync(replayed, row, moves)
        self.forget(game_id)  # its replays at fewer moves: nobody asks for them again
        # Keyed by the moves it holds (the row's count, unless a move was stored meanwhile).
        self.kept[(game_id, len(replay.actions))] = replay
        while len(self.kept) > HISTORIES_KEPT:
            self.kept.popitem(last=False)
        return replay

    async def _extended(
        self, row: GameRow, before_building: Callable[[], None] | None
    ) -> Replay | None:
        """The game's replay kept at fewer moves, extended by the moves stored since (None:
        none is kept, or the store's moves do not follow it: it must be built)."""
        kept = [r for (g, n), r in self.kept.items() if g == row.id and n < row.plies]
        if not kept:
            return None
        since = max(kept, key=lambda r: len(r.actions))
        done = len(since.actions)
        moves = await anyio.to_thread.run_sync(self.store.moves, row.id, done)
        if [m.ply for m in moves] != list(range(done + 1, row.plies + 1)):
            return None  # a move stored meanwhile (or taken back): built from the store
        if len(moves) > EXTEND_FREE and before_building is not None:
            before_building()  # charged once: it is not built after this
        self.counts["histories_extended"] += 1
        return await anyio.to_thread.run_sync(replayed, row, moves, since)

    def forget(self, game_id: str) -> None:
        """Drop the game's replays (a move was taken back: web/live/takeback.py)."""
        for key in [k for k in self.kept if k[0] == game_id]:
            del self.kept[key]
