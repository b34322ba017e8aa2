"""Live games on the server: the authoritative state, who may act, and what each client sees.

Nothing here knows FastAPI: :class:`LiveGame` takes actions from tokens and produces the
message each chair (or a spectator) should see, so the rules of the room are tested without a
network. The state changes only after its move is stored (see :mod:`monsterball.web.store.games`).
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any, cast

from monsterball.bots.protocol import Bot
from monsterball.bots.registry import DIFFICULTIES, bot_for_difficulty, make_bot
from monsterball.core.actions import Action, Event
from monsterball.core.board import Board
from monsterball.core.dice import HmacSampler, SeededSampler, derive_seed, seed_commitment
from monsterball.core.errors import MonsterballError
from monsterball.core.game import CHANCE, TERMINAL, GameSpec, GameState, ending_result
from monsterball.core.seating import Seating
from monsterball.games import get_game
from monsterball.web.live import fair_dice
from monsterball.web.live.delta import diff, dumps
from monsterball.web.live.time_control import Clock
from monsterball.web.store.games import GameRow, StoredMove

MODES = ("hotseat", "bot", "online")
LOG_TAIL = 40
BOT_LEVELS = DIFFICULTIES  # easy: random, medium: heuristic, hard: search (bots/registry.py)
_CELL = re.compile(r"^[a-z]{1,2}\d{1,2}$")
_SPLIT = re.compile(r"[\s\-@>]+")


def wall_ms() -> int:
    """The server's time in milliseconds (what clocks count in)."""
    return time.time_ns() // 1_000_000


class Rejected(Exception):
    """An action the room refuses; ``code`` is machine-readable, the message is for people;
    ``retry_after``: seconds to wait before asking again (a limit was reached)."""

    def __init__(self, code: str, message: str, *, retry_after: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


@dataclass
class Chair:
    """A coach's place at the table: which seat (team) it acts for, and who sits in it.

    Only the SHA-256 of the chair's secret token is kept (and stored), so a copy of the
    database acts for no seat; ``token`` holds the token itself only in a new game's chairs,
    to hand out once."""

    name: str
    seat: int
    kind: str  # "human" or "bot"
    bot: str | None
    token_hash: str
    token: str | None = None
    # The account seated here (web/store/people.py): its session acts for this chair, no link
    # needed.
    account: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "seat": self.seat,
            "kind": self.kind,
            "bot": self.bot,
            "token_hash": self.token_hash,
        }
        if self.account is not None:
            data["account"] = self.account
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Chair:
        # Games stored before tokens were hashed hold the token itself.
        digest = data["token_hash"] if "token_hash" in data else hash_token(data["token"])
        return cls(
            data["name"],
            data["seat"],
            data["kind"],
            data.get("bot"),
            digest,
            account=data.get("account"),
        )

    def holds(self, token: str) -> bool:
        """``token`` is this chair's (compared in constant time)."""
        return secrets.compare_digest(self.token_hash, hash_token(token))


def new_token() -> str:
    return secrets.token_urlsafe(18)


def hash_token(token: str) -> str:
    # The token has 144 random bits: a plain hash is enough (nothing to guess from).
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def make_chairs(spec: GameSpec, coaches: int, bots: Mapping[str, str]) -> list[Chair]:
    """Chairs for a game: one per seat, or (four-coach games) several per seat in rotation
    order. ``bots`` maps a seat name to a bot level; a bot fills every chair of that seat."""
    if coaches not in spec.coaches:
        allowed = ", ".join(str(c) for c in spec.coaches)
        raise Rejected("bad-request", f"{spec.id} is played by {allowed} coaches, not {coaches}")
    per_seat = coaches // spec.num_seats
    for seat_name, level in bots.items():
        if seat_name not in spec.seat_names:
            raise Rejected("bad-request", f"no seat '{seat_name}' in {spec.id}")
        new_bot(spec.id, level, 0)
    chairs = []
    for turn in range(per_seat):
        for seat, seat_name in enumerate(spec.seat_names):
            chair_name = seat_name if per_seat == 1 else f"{seat_name}-{turn + 1}"
            bot_level = bots.get(seat_name)
            kind = "bot" if bot_level else "human"
            token = new_token()
            chairs.append(Chair(chair_name, seat, kind, bot_level, hash_token(token), token))
    return chairs


def new_bot(game_id: str, level: str, seed: int) -> Bot:
    """The bot for a difficulty level, or a bot named as in `monsterball play --bot`
    (``mcts:300``, ``heuristic``)."""
    try:
        if level in DIFFICULTIES:
            return bot_for_difficulty(game_id, level, seed)
        return make_bot(level, seed)
    except ValueError as exc:
        known = ", ".join(DIFFICULTIES)
        raise Rejected("bad-request", f"unknown bot level '{level}' ({known}): {exc}") from None


@dataclass
class LogEntry:
    ply: int
    seat: int  # -1 for chance
    by: str
    notation: str
    public: str
    events: list[str] = field(default_factory=list)
    banner: str = ""  # the headline of the action: its score's, else its first event's
    scored_at: int | None = None  # the index in events of the score it made, if it scored
    _views: dict[bool, dict[str, Any]] | None = field(default=None, repr=False, compare=False)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        own = seat is not None and seat == self.seat
        return {
            "ply": self.ply,
            "by": self.by,
            "action": self.notation if own else self.public,
            "events": self.events,
            "banner": self.banner,
            "scored_at": self.scored_at,
        }

    def view(self, seat: int | None) -> dict[str, Any]:
        """``for_seat``, built once per entry and view (the acting seat's or everyone's) and
        shared between the messages that show it: not to be changed by its readers. Where
        the acting seat sees what everyone sees, both views are one (deltas compare it once)."""
        own = seat is not None and seat == self.seat
        views = self._views
        if views is None:
            views = self._views = {}
        made = views.get(own)
        if made is None:
            made = views[own] = self.for_seat(seat)
            if self.notation == self.public:
                views[not own] = made
        return made


def log_entry(
    ply: int, seat: int, by: str, notation: str, public: str, events: Sequence[Event]
) -> LogEntry:
    """The log's line for one action: its events told, and the banner and score a UI marks
    it with, taken from the events themselves (the client parses none of the sentences)."""
    scored_at = next((i for i, e in enumerate(events) if e.is_score()), None)
    headlines = [e.headline() for e in events]
    banner = headlines[scored_at] if scored_at is not None else next(filter(None, headlines), "")
    told = [e.describe() for e in events]
    return LogEntry(ply, seat, by, notation, public, told, banner, scored_at)


@functools.lru_cache(maxsize=65536)
def _notation_tokens(notation: str) -> tuple[tuple[str, ...], str | None]:
    """The words of an action's notation that may name a piece, and the last cell it names."""
    words = tuple(_SPLIT.split(notation))
    cells = [w for w in words if _CELL.match(w)]
    return words, (cells[-1] if cells else None)


def action_hint(notation: str, pieces: Set[str]) -> dict[str, Any]:
    """How a click UI reaches an action: the piece it names first and the cell it names last
    (either may be missing: those actions become buttons). Only the seat that may act gets
    these, so the full notation (secrets included) is its own to see."""
    words, cell = _notation_tokens(notation)
    piece = next((w for w in words if w in pieces), None)
    return {"a": notation, "piece": piece, "cell": cell}


@functools.lru_cache(maxsize=1 << 15)
def _shared_hint(notation: str, pieces: frozenset[str]) -> dict[str, Any]:
    """``action_hint``, made once for every room and ply where the same action is legal with
    the same pieces on the board: shared, not to be changed by its readers."""
    return action_hint(notation, pieces)


# Hints by the set of pieces on the board, then by action (equal actions have equal
# notations); all forgotten at once past HINTS_KEPT, so memory stays bounded.
HINTS_KEPT = 1 << 16
_hints: dict[frozenset[str], dict[Action, dict[str, Any]]] = {}
_hints_kept = [0]


def shared_hints(actions: Sequence[Action], pieces: frozenset[str]) -> list[dict[str, Any]]:
    """The click hints of legal actions with these pieces on the board, shared (see
    ``_shared_hint``): looked up by the action itself (one C-level pass over the list), and
    only the new ones written."""
    known = _hints.get(pieces)
    if known is None:
        known = _hints[pieces] = {}
    try:
        hints = list(map(known.get, actions))
    except TypeError:  # an action with an unhashable field
        return [_shared_hint(a.notation(), pieces) for a in actions]
    if None in hints:
        if _hints_kept[0] > HINTS_KEPT:
            _hints.clear()
            _hints_kept[0] = 0
            known = _hints[pieces] = {}
        for i, hint in enumerate(hints):
            if hint is None:
                action = actions[i]
                hints[i] = known[action] = _shared_hint(action.notation(), pieces)
                _hints_kept[0] += 1
    return cast(list[dict[str, Any]], hints)


class LiveGame:
    """One game being played on the server."""

    def __init__(self, row: GameRow, state: GameState, sampler: SeededSampler | HmacSampler):
        self.row = row
        # Contributed dice (web/live/fair_dice.py): a die rolled yet (the wait is the store's).
        self.dice_started = False
        self.id = row.id
        self.spec: GameSpec = state.spec
        self.state = state
        self.sampler = sampler
        self.chairs = [Chair.from_dict(c) for c in row.chairs]
        # The clock as last stored (web/live/time_control.py) and how the game ended off the board.
        self.clock: Clock | None = Clock.from_dict(row.clock) if row.clock else None
        self.ending: dict[str, Any] | None = row.ending
        self.now_ms: Callable[[], int] = wall_ms  # the room's time source (tests inject one)
        self.speed = "max"  # a bots-only room's pace for its watchers (web/live/rooms.py PACES)
        # What every message says of the chairs, and the dice seed's commitment: fixed.
        self._chair_list = [
            {"name": c.name, "seat": c.seat, "kind": c.kind, "bot": c.bot} for c in self.chairs
        ]
        self._commitment = seed_commitment(row.game_seed)
        self._public_view = not self.spec.hidden_information
        # What the page may ask of this game (its spec's hooks, core/contract.py), so the
        # client never names a game: a roster panel, the decisions whose die it prices, the
        # decision whose targets it prices, the word for the ball in the legend.
        self._hooks = {
            "roster": self.spec.views.roster is not None,
            "priced": list(self.spec.odds.priced) if self.spec.odds else [],
            "odds": self.spec.odds.aimed if self.spec.odds and self.spec.odds.targets else "",
            "ball": self.spec.views.ball,
        }
        self.log: list[LogEntry] = []
        # What clients see, built once per ply (cleared by ``commit``) and shared between
        # the messages and recipients that see the same thing: the parts every view has in
        # common, each seat's board, the acting seat's legal hints, and each chair's whole
        # message with its JSON text. Hidden information stays apart: boards are keyed by
        # the seat whose view they are, messages by chair.
        self._shared: dict[str, Any] | None = None
        self._boards: dict[int | None, Board] = {}
        self._legal: list[dict[str, Any]] | None = None
        self._messages: dict[str | None, dict[str, Any]] = {}
        self._texts: dict[str | None, str] = {}
        # Each seat's view of the log tail, with the entry it ends at (see ``_log_view``).
        self._log_views: dict[int | None, tuple[LogEntry, list[dict[str, Any]]]] = {}
        # For sockets that take deltas (web/live/delta.py): the messages of the last ply any were
        # built at (its ply, and each chair's), and each chair's delta from there to now.
        # Marked (ply, views_epoch): the epoch counts every change of what clients see, so a
        # change at the same ply (a flag, a clock kept) is not mistaken for "nothing new".
        self.views_epoch = 0
        self._before: tuple[tuple[int, int], dict[str | None, dict[str, Any]]] | None = None
        self._deltas: dict[str | None, str] = {}
        self._diffs: dict[tuple[str, int, int], list[Any]] = {}  # see delta.diff's memo
        # A room keeps only the recent log (clients get LOG_TAIL entries; replays rebuild the
        # whole log from the store), so a 3,000-move game does not hold 3,000 entries.
        self.log_limit: int | None = None
        self.seating: Seating | None = None
        per_seat = len(self.chairs) // self.spec.num_seats
        if per_seat > 1:
            self.seating = Seating.of(
                *(
                    [c.name for c in self.chairs if c.seat == seat]
                    for seat in range(self.spec.num_seats)
                )
            )

    # -- building ------------------------------------------------------------------------

    @classmethod
    def start(cls, row: GameRow) -> LiveGame:
        spec = get_game(row.game)
        options = spec.options_type.from_dict(row.options)
        state = spec.from_position(row.start) if row.start else spec.new_game(options)
        return cls(row, state, fair_dice.dice_sampler(row))

    @classmethod
    def load(cls, row: GameRow, moves: Sequence[StoredMove]) -> LiveGame:
        """Rebuild a stored game by replaying its moves, checking each die against the seed."""
        live = cls.start(row)
        live.apply_stored(moves)
        return live

    def apply_stored(self, moves: Sequence[StoredMove]) -> None:
        """Apply the next moves as read from the store (a load, or a room catching up with
        moves another server stored), checking each die against the seed."""
        for move in moves:
            if move.ply != self.moves_made + 1:
                raise MonsterballError(f"game {self.id}: stored moves skip to ply {move.ply}")
            action = self.spec.parse_action(move.action)
            if self.state.current_player() == CHANCE:
                self.dice_started = True
                expected = self.sampler.choose(self.state.chance_outcomes())
                if expected != action:
                    raise MonsterballError(
                        f"game {self.id} ply {move.ply}: the seed rolls {expected}, "
                        f"the store has {move.action}"
                    )
            self.commit(action)

    @property
    def first_ply(self) -> int:
        """Ply of the start position (a fork starts part-way through its parent)."""
        return int(self.row.start["ply"]) if self.row.start else 0

    @property
    def moves_made(self) -> int:
        return self.state.ply - self.first_ply

    # -- who acts ------------------------------------------------------------------------

    def acting_chair(self) -> Chair | None:
        actor = self.state.current_player()
        if actor < 0:
            return None
        chairs = [c for c in self.chairs if c.seat == actor]
        if len(chairs) == 1 or self.seating is None:
            return chairs[0]
        coach_of = self.spec.views.acting_coach
        name = coach_of(self.state, self.seating) if coach_of else None
        return next((c for c in chairs if c.name == name), chairs[0])

    def chair_for(self, token: str | None, account: int | None = None) -> Chair | None:
        """The chair of a seat token; without one, the chair of the logged-in ``account``
        (None: a spectator)."""
        if not token:
            return next((c for c in self.chairs if account and c.account == account), None)
        found = [chair for chair in self.chairs if chair.holds(token)]  # no early exit
        if found:
            return found[0]
        raise Rejected("bad-token", "this link's seat token is not valid for this game")

    def is_hotseat(self) -> bool:
        return self.row.mode == "hotseat"

    def may_act(self, chair: Chair | None) -> bool:
        """Hot-seat: any human chair's token acts for whichever human is to act."""
        acting = self.acting_chair()
        # A game ended off the board (time, resignation) has a seat "to act" on its board.
        if chair is None or acting is None or acting.kind != "human" or self.ending is not None:
            return False
        return chair is acting or (self.is_hotseat() and chair.kind == "human")

    # -- moves ---------------------------------------------------------------------------

    def check_submission(self, chair: Chair | None, text: str, based_on: int) -> Action:
        """Everything that may be wrong with a submission, checked before anything changes."""
        if self.over():
            raise Rejected("finished", f"the game is over: {self.result_text()}")
        if chair is None:
            raise Rejected("spectator", "spectators cannot act; open a seat's link to play")
        if based_on != self.state.ply:
            raise Rejected(
                "stale",
                f"the move was based on move {based_on}, but the game is at move "
                f"{self.state.ply}; nothing was changed",
            )
        if not self.may_act(chair):
            acting = self.acting_chair()
            who = acting.name if acting else "the dice"
            raise Rejected("wrong-seat", f"it is not {chair.name}'s turn: {who} is to act")
        try:
            action = self.spec.parse_action(text)
            self.state.check(action, seat=self.state.current_player())
        except MonsterballError as exc:
            raise Rejected("illegal", str(exc)) from None
        return action

    def automatic(self) -> str | Chair | None:
        """Who makes the next move if it is not a human's: "chance", a bot's chair, or None."""
        actor = self.state.current_player()
        if actor == TERMINAL or self.ending is not None:
            return None
        if actor == CHANCE:
            return "chance"
        chair = self.acting_chair()
        return chair if chair is not None and chair.kind == "bot" else None

    def roll(self) -> Action:
        self.dice_started = True
        return self.sampler.choose(self.state.chance_outcomes())

    def bot_seed(self) -> int:
        """The seed of the bot to move now: from the (secret) dice seed and the ply, so nobody
        can predict a bot's move, and a restarted server asks it the same question."""
        return derive_seed(self.row.game_seed, self.state.ply)

    def bot_move(self, chair: Chair) -> Action:
        bot = new_bot(self.spec.id, chair.bot or "easy", self.bot_seed())
        return bot.choose(self.state, chair.seat)

    def stored_move(self, action: Action) -> StoredMove:
        actor = self.state.current_player()
        by = "chance" if actor == CHANCE else self.spec.seat_name(actor)
        return StoredMove(self.moves_made + 1, by, action.notation())

    def commit(self, action: Action) -> None:
        """Apply an action that is checked and already stored, and log it."""
        actor = self.state.current_player()
        chair = self.acting_chair()
        by = "dice" if actor == CHANCE else (chair.name if chair else self.spec.seat_name(actor))
        public = action.public_text()
        events = self.state.apply_unchecked(action)
        self.forget_views()
        self.log.append(log_entry(self.state.ply, actor, by, action.notation(), public, events))
        if self.log_limit is not None and len(self.log) > 2 * self.log_limit:
            del self.log[: -self.log_limit]

    # -- clocks and endings --------------------------------------------------------------

    def over(self) -> bool:
        return self.ending is not None or self.state.is_terminal()

    def result_text(self) -> str:
        if self.ending is not None:
            return ending_result(self.state, self.ending)[0]
        return self.state.result_text()

    def returns(self) -> tuple[float, ...]:
        if self.ending is not None:
            return ending_result(self.state, self.ending)[1]
        return self.state.returns()

    def clock_side(self, state: GameState | None = None) -> int | None:
        """The side whose clock runs in ``state`` (default: now): the seat to decide, if
        people sit in it; never the dice's turn, a bot's or a finished game's."""
        state = state or self.state
        actor = state.current_player()
        if actor < 0 or (state is self.state and self.ending is not None):
            return None
        if all(c.kind == "bot" for c in self.chairs if c.seat == actor):
            return None
        return actor

    def set_clock(self, clock: Clock | None) -> None:
        """Keep a clock that is stored already."""
        self.clock = clock
        self.forget_views()

    def end(self, ending: dict[str, Any], clock: Clock | None) -> None:
        """The game ended off the board (stored already)."""
        self.ending = ending
        self.row.ending = ending
        self.set_clock(clock)

    # -- what clients see ----------------------------------------------------------------

    def status(self) -> str:
        return "finished" if self.over() else "playing"

    def forget_views(self) -> None:
        """Drop what clients were shown (the state changed), keeping the last messages built
        as the base of the next deltas."""
        self._shared = None
        self._boards = {}
        self._legal = None
        if self._messages:
            ply = next(iter(self._messages.values()))["game"]["ply"]
            self._before = ((ply, self.views_epoch), self._messages)
            self._messages = {}
        self.views_epoch += 1
        self._texts = {}
        self._deltas = {}
        self._diffs = {}

    def message_for(self, chair: Chair | None, *, host: bool = False) -> dict[str, Any]:
        """The state message ``chair`` (None: a spectator) sees now. Built once per ply and
        chair, and shared: its readers must not change it."""
        message = self._message(chair)
        if self.clock is not None:  # the server's time as it is sent: clients sync to it
            return {**message, "server_ms": self.now_ms()}
        return message

    def text_for(self, chair: Chair | None) -> str:
        """``message_for`` as JSON text (as Starlette's ``send_json`` writes it), encoded once
        per ply and chair however many of its sockets are told."""
        key = chair.name if chair is not None else None
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = dumps(self._message(chair))
        if self.clock is not None:  # the server's time as it is sent: clients sync to it
            return f'{text[:-1]},"server_ms":{self.now_ms()}}}'
        return text

    def view_mark(self) -> tuple[int, int]:
        """What a socket holding the current messages holds: (ply, views_epoch)."""
        return (self.state.ply, self.views_epoch)

    def text_since(self, chair: Chair | None, seen: tuple[int, int] | None) -> str | None:
        """What a socket that takes deltas is sent now, holding ``chair``'s message of ply
        mark ``seen`` (see ``view_mark``; None: none): a delta from it when that message is the
        base kept, else the whole message (always at the same ply: clients take deltas only
        forward), or None if it holds the current one. Built once per ply and chair. A clocked
        game's delta carries the server's time too (the messages diffed do not)."""
        mark = self.view_mark()
        if seen == mark:
            return None
        key = chair.name if chair is not None else None
        before = self._before
        if (
            seen is None
            or seen[0] == mark[0]
            or before is None
            or before[0] != seen
            or key not in before[1]
        ):
            return self.text_for(chair)
        text = self._deltas.get(key)
        if text is None:
            ops = diff(before[1][key], self._message(chair), self._diffs)
            delta = {"type": "delta", "from": seen[0], "ply": self.state.ply, "ops": ops}
            text = self._deltas[key] = dumps(delta)
        if self.clock is not None:
            return f'{text[:-1]},"server_ms":{self.now_ms()}}}'
        return text

    def _message(self, chair: Chair | None) -> dict[str, Any]:
        key = chair.name if chair is not None else None
        message = self._messages.get(key)
        if message is None:
            message = self._messages[key] = self.build_message(chair)
        return message

    def build_message(self, chair: Chair | None, *, fresh: bool = False) -> dict[str, Any]:
        """The state message, from the per-ply parts (``fresh``: each built anew, to check
        the shared ones against)."""
        state = self.state
        acts = self.may_act(chair)
        seat: int | None
        if acts:
            seat = state.current_player()
        elif chair is not None:
            seat = chair.seat
        else:
            seat = None
        shared = self._build_shared() if fresh else self._shared_parts()
        board = state.board(seat) if fresh else self._board(seat)
        legal: list[dict[str, Any]] = []
        if acts:
            legal = self._build_legal(board, fresh=True) if fresh else self._legal_hints(board)
        log = [e.for_seat(seat) for e in self.log[-LOG_TAIL:]] if fresh else self._log_view(seat)
        return {
            "type": "state",
            "game": shared["game"],
            "chairs": shared["chairs"],
            "you": chair.name if chair else None,
            "to_act": shared["to_act"],
            "prompt": shared["prompt"],
            "clock": shared["clock"],
            "board": board,
            # The text picture is sent only where the board has nothing to draw (the Midway
            # draft, set-up); otherwise clients ask for it (GET .../text).
            "text": state.render(seat) if not board["pieces"] else None,
            "legal": legal,
            "log": log,
        }

    def _log_view(self, seat: int | None) -> list[dict[str, Any]]:
        """The log tail as ``seat`` sees it: the list last made for that seat, slid on by the
        entries logged since (a new list: messages already built keep theirs)."""
        tail = self.log[-LOG_TAIL:]
        made = self._log_views.get(seat)
        if made is not None and tail and made[0] is tail[-1]:
            return made[1]
        views: list[dict[str, Any]] | None = None
        if made is not None:
            last, before = made
            # Where the entry last shown sits now (usually next to last); entries leave only
            # from the front, so the list made then ends with the views of tail[: k + 1].
            for k in range(len(tail) - 2, -1, -1):
                if tail[k] is last:
                    views = before[len(before) - k - 1 :] + [e.view(seat) for e in tail[k + 1 :]]
                    break
        if views is None:
            views = [e.view(seat) for e in tail]
        if tail:
            self._log_views[seat] = (tail[-1], views)
        return views

    def _shared_parts(self) -> dict[str, Any]:
        if self._shared is None:
            self._shared = self._build_shared()
        return self._shared

    def _build_shared(self) -> dict[str, Any]:
        """The parts of the state message that are the same for every chair."""
        state = self.state
        acting = self.acting_chair()
        actor = state.current_player()
        return {
            "game": self.summary(),
            "chairs": self._chair_list,
            "to_act": None
            if self.ending is not None
            else "dice"
            if actor == CHANCE
            else (acting.name if acting else None),
            "prompt": self.result_text()
            if self.ending is not None or not state.stack
            else state.stack[-1].describe(),
            "clock": self.clock.view(self.spec.seat_names) if self.clock else None,
        }

    def _board(self, seat: int | None) -> Board:
        # A game without hidden information (every view the same) is drawn once for all seats.
        key = None if self._public_view else seat
        board = self._boards.get(key)
        if board is None:
            board = self.state.board(seat)
            # A seat that sees what another sees shares its drawing (so deltas diff it once).
            board = next((b for b in self._boards.values() if b == board), board)
            self._boards[key] = board
        return board

    def _legal_hints(self, board: Board) -> list[dict[str, Any]]:
        # Only the seat to act gets hints, always from its own board: one list per ply.
        if self._legal is None:
            self._legal = self._build_legal(board)
        return self._legal

    def _build_legal(self, board: Board, *, fresh: bool = False) -> list[dict[str, Any]]:
        pieces = frozenset(p["id"] for p in board["pieces"])
        if fresh:
            return [action_hint(a.notation(), pieces) for a in self.state.legal_actions()]
        return shared_hints(self.state.legal_actions(), pieces)

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.spec.id,
            "title": self.spec.title,
            "preset": self.row.preset,
            "mode": self.row.mode,
            "status": self.status(),
            "result": self.result_text(),
            "ending": self.ending,
            "rated": bool(self.row.rated),
            "ply": self.state.ply,
            "parent": self.row.parent_id,
            # Fair dice (docs/web.md): the seed's hash from the first message, the seed itself
            # once the game is over; ``seeded``: the creator chose the seed.
            "seeded": self.row.was_seeded,
            "dice_commitment": self._commitment,
            "dice_seed": str(self.row.game_seed) if self.over() else None,
            "speed": self.speed,
            **fair_dice.summary(self),
            "hooks": self._hooks,
        }
