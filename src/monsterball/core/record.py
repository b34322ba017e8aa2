"""Game records: a documented, versioned JSON Lines format (see docs/record-format.md).

::

    {"record": "monsterball", "format": 1, "game": "paper-ultimate", "rules_version": "...",
     "options": {...}, "seed": 42, "start": null, "players": {"A": "human", "B": "random"}}
    {"ply": 1, "by": "chance", "action": "toss=B"}
    {"ply": 2, "by": "B", "action": "place c1"}
    ...
    {"ply": 16, "by": "A", "action": "A2-e5", "hash": "5f0c..."}
    {"end": {"plies": 812, "result": "team A wins, A 5 - B 3", "returns": [1.0, -1.0],
             "hash": "..."}}

A game that ends off the board (a clock ran out, a resignation: docs/web.md) is written in
format 2: its end line adds ``"termination"`` ("time", "abandoned" or "resigned") and
``"loser"`` (a seat name), and the replay stops short of a finished game. A game its
players agreed to draw (where its rules can end level) is written in format 3: its end line
says ``"termination": "agreed"`` and names no loser. Format 1 and 2 records read as before.

A record may commit to its dice instead (games played online): the header carries
``"seed": null`` and ``"dice_commitment"`` (SHA-256 of the seed's decimal text) and the end
line reveals ``"dice_seed"``, so a record of an unfinished game never holds the seed. A header
may name its dice scheme (``"dice": "hmac-sha256/2"``, with ``"dice_nonces"``: each
contributing chair's nonce, core/dice.py); without ``dice`` the dice are the legacy
``random.Random(seed)`` stream, so older records keep verifying.

Line 1 is the header; every following line until ``end`` is one action, numbered from 1 with
no gaps, taken by the seat named in ``by`` (or ``chance``). Every ``hash_every`` plies, and on
the last action, the line carries the state hash after that action. ``seed`` is the seed of
the sampler that rolled the dice, or null when they came from elsewhere (tests, a table); a
seeded record can be verified to have rolled exactly what the seed gives.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import IO, Any

from monsterball.core.actions import Action
from monsterball.core.dice import (
    DICE_SCHEMES,
    HmacSampler,
    SeededSampler,
    is_nonce,
    is_seed_text,
    sampler_for,
    seed_commitment,
)
from monsterball.core.errors import MonsterballError, RecordError
from monsterball.core.game import (
    CHANCE,
    DRAWN_TERMINATIONS,
    TERMINATIONS,
    GameSpec,
    GameState,
    agreed_draw_result,
    ending_result,
    forfeit_result,
)
from monsterball.core.registry import get_game

RECORD_FORMAT = 1
ENDINGS_FORMAT = 2  # the first format whose end line may say how a game ended off the board
DRAWS_FORMAT = 3  # the first whose end line may say the players agreed a draw
READ_FORMATS = (1, 2, 3)
HASH_EVERY = 16
MAX_LINE_BYTES = 1 << 20
# Positions nest a few levels (start -> board -> players -> ...); anything deeper is junk.
MAX_DEPTH = 32


@dataclass(frozen=True, slots=True)
class RecordedAction:
    ply: int
    by: str
    action: str
    hash: str | None = None
    line: int = 0


@dataclass
class GameRecord:
    """A game's record (docs/record-format.md): the header's fields, every action as played
    (``actions``) and, once the game is over, the end line (``end``). ``to_text()`` is the
    JSON Lines file; ``monsterball.write_record`` writes it and ``monsterball.read_record``
    reads one."""

    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int | None
    start: dict[str, Any] | None = None
    players: dict[str, str] = field(default_factory=dict)
    actions: list[RecordedAction] = field(default_factory=list)
    end: dict[str, Any] | None = None
    dice_commitment: str | None = None
    format: int = RECORD_FORMAT
    # The dice scheme (core/dice.py; None: the legacy random.Random stream) and, for the
    # contributed dice, each contributing chair's nonce in the game's order ("" if none came).
    dice: str | None = None
    dice_nonces: dict[str, str] | None = None

    def sampler(self) -> SeededSampler | HmacSampler | None:
        """The dice as the record says they were rolled (None: the seed is not known)."""
        seed = self.dice_seed
        if seed is None:
            return None
        return sampler_for(self.dice, seed, list((self.dice_nonces or {}).items()))

    @property
    def dice_seed(self) -> int | None:
        """The seed the dice were rolled from: the header's, or the one the end line reveals."""
        if self.seed is not None:
            return self.seed
        revealed = (self.end or {}).get("dice_seed")
        return int(revealed) if isinstance(revealed, str) and is_seed_text(revealed) else None

    def header(self) -> dict[str, Any]:
        header: dict[str, Any] = {
            "record": "monsterball",
            "format": self.format,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": self.options,
            "seed": self.seed,
            "start": self.start,
            "players": self.players,
        }
        if self.dice_commitment is not None:
            header["dice_commitment"] = self.dice_commitment
        if self.dice is not None:
            header["dice"] = self.dice
            header["dice_nonces"] = dict(self.dice_nonces or {})
        return header

    def lines(self) -> Iterable[str]:
        yield _dump(self.header())
        for entry in self.actions:
            yield _dump(_action_line(entry))
        if self.end is not None:
            yield _dump({"end": self.end})

    def to_text(self) -> str:
        """The record as JSON Lines text, one line per header, action and end."""
        return "".join(line + "\n" for line in self.lines())


def _dump(data: Mapping[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _action_line(entry: RecordedAction) -> dict[str, Any]:
    data: dict[str, Any] = {"ply": entry.ply, "by": entry.by, "action": entry.action}
    if entry.hash is not None:
        data["hash"] = entry.hash
    return data


def seat_label(state: GameState, actor: int) -> str:
    return "chance" if actor == CHANCE else state.spec.seat_name(actor)


class Recorder:
    """Plays a game and keeps its record; optionally appends each line to a file as it goes,
    flushed, so a crash loses nothing that was played."""

    def __init__(
        self,
        state: GameState,
        *,
        seed: int | None,
        players: Mapping[str, str] | None = None,
        stream: IO[str] | None = None,
        hash_every: int = HASH_EVERY,
        from_start: bool = False,
        committed_seed: int | None = None,
        dice: str | None = None,
        dice_nonces: Mapping[str, str] | None = None,
    ):
        """``committed_seed``: record the dice seed committed to (header ``dice_commitment``)
        and reveal it only on the end line, instead of writing ``seed`` in the header."""
        if seed is not None and committed_seed is not None:
            raise ValueError("a record either names its seed or commits to it, not both")
        self.state = state
        self._reveal = committed_seed
        self.hash_every = hash_every
        self.stream = stream
        start = None if from_start else state.to_position()
        if start is not None and state.ply == 0 and _is_fresh(state):
            start = None
        self.record = GameRecord(
            game=state.spec.id,
            rules_version=state.spec.rules_version,
            options=state.options.to_dict(),
            seed=seed,
            start=start,
            players=dict(players or {}),
            dice_commitment=None if committed_seed is None else seed_commitment(committed_seed),
            dice=dice,
            dice_nonces=dict(dice_nonces or {}) if dice is not None else None,
        )
        self._write(_dump(self.record.header()))

    def _write(self, line: str) -> None:
        if self.stream is not None:
            self.stream.write(line + "\n")
            self.stream.flush()

    def apply(self, action: Action, *, seat: int | None = None, checked: bool = True) -> list[Any]:
        """Apply and record an action. ``checked=False`` is the fast path for actions taken
        from ``legal_actions()`` (bots, simulations); humans and network input stay checked."""
        state = self.state
        actor = state.current_player()
        events = state.apply(action, seat=seat) if checked else state.apply_unchecked(action)
        ply = len(self.record.actions) + 1
        digest = None
        if ply % self.hash_every == 0 or state.is_terminal():
            digest = state.state_hash()
        entry = RecordedAction(ply, seat_label(state, actor), action.notation(), digest)
        self.record.actions.append(entry)
        if self.stream is not None:  # the line is written out only where it goes somewhere
            self._write(_dump(_action_line(entry)))
        if state.is_terminal():
            self.finish()
        return events

    def finish(self) -> None:
        if self.record.end is not None:
            return
        state = self.state
        self.record.end = {
            "plies": len(self.record.actions),
            "result": state.result_text(),
            "returns": list(state.returns()),
            "hash": state.state_hash(),
        }
        self._close()

    def forfeit(self, loser: int, termination: str) -> None:
        """End a game the rules have not ended: ``loser`` lost it off the board (its clock
        ran out). Written in format 2, so only for a record built whole (no stream: the
        header already streamed says format 1)."""
        if self.stream is not None:
            raise ValueError("a streamed record cannot end off the board")
        state = self.state
        if state.is_terminal() or self.record.end is not None:
            raise ValueError("the game is already over")
        result, returns = forfeit_result(state.spec, loser, termination)
        self.record.format = ENDINGS_FORMAT
        self.record.end = {
            "plies": len(self.record.actions),
            "result": result,
            "returns": list(returns),
            "hash": state.state_hash(),
            "termination": termination,
            "loser": state.spec.seat_name(loser),
        }
        self._close()

    def agree_draw(self) -> None:
        """End a game the rules have not ended as a draw its players agreed (format 3; only
        where its rules can end level: ValueError otherwise, or for a streamed record)."""
        if self.stream is not None:
            raise ValueError("a streamed record cannot end off the board")
        if self.record.end is not None:
            raise ValueError("the game is already over")
        state = self.state
        result, returns = agreed_draw_result(state)
        self.record.format = DRAWS_FORMAT
        self.record.end = {
            "plies": len(self.record.actions),
            "result": result,
            "returns": list(returns),
            "hash": state.state_hash(),
            "termination": "agreed",
        }
        self._close()

    def _close(self) -> None:
        end = self.record.end
        assert end is not None
        if self._reveal is not None:
            end["dice_seed"] = str(self._reveal)
        self._write(_dump({"end": end}))


def _is_fresh(state: GameState) -> bool:
    fresh = state.spec.new_game(state.options)
    return fresh.to_position() == state.to_position()


# -- reading ------------------------------------------------------------------------------

HEADER_KEYS = frozenset(
    (
        "record",
        "format",
        "game",
        "rules_version",
        "options",
        "seed",
        "start",
        "players",
        "dice_commitment",
        "dice",
        "dice_nonces",
    )
)
ACTION_KEYS = frozenset(("ply", "by", "action", "hash"))
END_KEYS = frozenset(("plies", "result", "returns", "hash", "dice_seed", "termination", "loser"))


def read_record(source: str | Path | IO[str]) -> GameRecord:
    """Parse a record, checking its structure; raise RecordError naming line and field.

    Lines end at ``\\n`` only (records are written with raw Unicode, so U+2028 or U+0085
    inside a string is text, not a line break), and a file is read line by line, refusing a
    line longer than ``MAX_LINE_BYTES`` before reading the rest of it."""
    if isinstance(source, Path):
        with source.open("rb") as handle:
            return _parse(_binary_lines(handle))
    if isinstance(source, str):
        return _parse(_text_lines(source))
    return _parse(_stream_lines(source))


def _binary_lines(handle: IO[bytes]) -> Iterator[str]:
    for number in count(1):
        chunk = handle.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        body = chunk[:-1] if chunk.endswith(b"\n") else chunk
        if len(body) > MAX_LINE_BYTES:
            raise RecordError(f"line is longer than {MAX_LINE_BYTES} bytes", line=number)
        try:
            yield body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(
                f"not UTF-8 text (byte {exc.start + 1} of the line)", line=number
            ) from None


def _text_lines(text: str) -> Iterator[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    yield from lines


def _stream_lines(stream: IO[str]) -> Iterator[str]:
    # A character is at most 4 bytes, so this limit never cuts a line the byte cap allows.
    for number in count(1):
        chunk = stream.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        body = chunk[:-1] if chunk.endswith("\n") else chunk
        if len(body) > MAX_LINE_BYTES:
            raise RecordError(f"line is longer than {MAX_LINE_BYTES} bytes", line=number)
        yield body


def _parse(lines: Iterator[str]) -> GameRecord:
    first = next(lines, None)
    if first is None or not first.strip():
        raise RecordError("the record is empty", line=1)
    header = _load(first, 1)
    for key in ("record", "format", "game", "rules_version", "options", "seed"):
        if key not in header:
            raise RecordError("missing in the header", line=1, field=key)
    _refuse_unknown(header, HEADER_KEYS, 1)
    if header["record"] != "monsterball":
        raise RecordError("not a monsterball record", line=1, field="record")
    # ``type(...) is int``: JSON true and 1.0 compare equal to 1 in Python.
    if type(header["format"]) is not int or header["format"] not in READ_FORMATS:
        readable = " and ".join(str(f) for f in READ_FORMATS)
        raise RecordError(
            f"format {header['format']!r} is not supported (this version reads {readable})",
            line=1,
            field="format",
        )
    if not isinstance(header["game"], str):
        raise RecordError("must be a game id", line=1, field="game")
    if not isinstance(header["rules_version"], str):
        raise RecordError("must be a string", line=1, field="rules_version")
    if not isinstance(header["options"], dict):
        raise RecordError("must be an object", line=1, field="options")
    seed = header["seed"]
    if seed is not None and type(seed) is not int:
        raise RecordError("must be an integer or null", line=1, field="seed")
    start = header.get("start")
    if start is not None and not isinstance(start, dict):
        raise RecordError("must be a position object or null", line=1, field="start")
    players = header.get("players", {})
    if not isinstance(players, dict) or not all(isinstance(v, str) for v in players.values()):
        raise RecordError("must be an object of strings", line=1, field="players")
    commitment = header.get("dice_commitment")
    if commitment is not None and not _is_sha256_hex(commitment):
        raise RecordError("must be 64 lowercase hex digits", line=1, field="dice_commitment")
    dice = header.get("dice")
    if dice is not None and dice not in DICE_SCHEMES:
        known = ", ".join(DICE_SCHEMES)
        raise RecordError(f"unknown dice scheme {dice!r} (known: {known})", line=1, field="dice")
    nonces = header.get("dice_nonces")
    if nonces is not None and (
        dice is None
        or not isinstance(nonces, dict)
        or not all(isinstance(k, str) and (v == "" or is_nonce(v)) for k, v in nonces.items())
    ):
        raise RecordError(
            "must be an object of chair name -> nonce (hex, or empty), beside 'dice'",
            line=1,
            field="dice_nonces",
        )
    record = GameRecord(
        game=header["game"],
        rules_version=header["rules_version"],
        options=header["options"],
        seed=seed,
        start=start,
        players=dict(players),
        dice_commitment=commitment,
        format=header["format"],
        dice=dice,
        dice_nonces=dict(nonces) if nonces is not None else None,
    )
    for number, raw in enumerate(lines, start=2):
        if not raw.strip():
            continue
        if record.end is not None:
            raise RecordError("nothing may follow the end line", line=number)
        data = _load(raw, number)
        if "end" in data:
            record.end = _end_line(data, number, record.format)
            continue
        for key, kind in (("ply", int), ("by", str), ("action", str)):
            if key not in data:
                raise RecordError("missing", line=number, field=key)
            if not isinstance(data[key], kind) or isinstance(data[key], bool):
                raise RecordError(f"must be a {kind.__name__}", line=number, field=key)
        expected = len(record.actions) + 1
        if data["ply"] != expected:
            raise RecordError(
                f"expected ply {expected}, found {data['ply']}", line=number, field="ply"
            )
        digest = data.get("hash")
        if digest is not None and not isinstance(digest, str):
            raise RecordError("must be a string", line=number, field="hash")
        _refuse_unknown(data, ACTION_KEYS, number)
        record.actions.append(
            RecordedAction(data["ply"], data["by"], data["action"], digest, number)
        )
    return record


def _end_line(data: dict[str, Any], number: int, version: int) -> dict[str, Any]:
    _refuse_unknown(data, frozenset(("end",)), number)
    end = data["end"]
    if not isinstance(end, dict):
        raise RecordError("must be an object", line=number, field="end")
    _refuse_unknown(end, END_KEYS, number)
    if "plies" not in end:
        raise RecordError("missing in the end line", line=number, field="plies")
    if type(end["plies"]) is not int:
        raise RecordError("must be an integer", line=number, field="plies")
    for key in ("result", "hash"):
        if key in end and not isinstance(end[key], str):
            raise RecordError("must be a string", line=number, field=key)
    if ("termination" in end or "loser" in end) and version < ENDINGS_FORMAT:
        raise RecordError(
            f"an end off the board needs format {ENDINGS_FORMAT}", line=number, field="termination"
        )
    if "loser" in end and "termination" not in end:
        raise RecordError("a loser needs a termination", line=number, field="termination")
    if "termination" in end and end["termination"] not in TERMINATIONS:
        raise RecordError(
            f"must be one of {', '.join(TERMINATIONS)}", line=number, field="termination"
        )
    drawn = end.get("termination") in DRAWN_TERMINATIONS
    if drawn and version < DRAWS_FORMAT:
        raise RecordError(
            f"an agreed draw needs format {DRAWS_FORMAT}", line=number, field="termination"
        )
    if "termination" in end and drawn == ("loser" in end):
        raise RecordError(
            "an agreed draw names no loser" if drawn else "termination and loser come together",
            line=number,
            field="loser" if drawn else "termination",
        )
    if "loser" in end and not isinstance(end["loser"], str):
        raise RecordError("must be a seat name", line=number, field="loser")
    revealed = end.get("dice_seed")
    if revealed is not None and not is_seed_text(revealed):
        raise RecordError(
            "must be the seed as a string of decimal digits", line=number, field="dice_seed"
        )
    returns = end.get("returns", [])
    if not isinstance(returns, list) or not all(
        type(r) in (int, float) and math.isfinite(r) for r in returns
    ):
        raise RecordError("must be a list of numbers", line=number, field="returns")
    return end


def _refuse_unknown(data: Mapping[str, Any], known: frozenset[str], number: int) -> None:
    # Every line kind refuses keys it does not know: a newer writer bumps ``format``.
    unknown = set(data) - known
    if unknown:
        raise RecordError(f"unknown key(s) {', '.join(sorted(unknown))}", line=number)


def _is_sha256_hex(value: object) -> bool:
    return (
        isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
    )


def _load(raw: str, number: int) -> dict[str, Any]:
    if len(raw) > MAX_LINE_BYTES or len(raw.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
        raise RecordError(f"line is longer than {MAX_LINE_BYTES} bytes", line=number)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not valid JSON ({exc.msg} at column {exc.colno})", line=number
        ) from None
    except RecursionError:
        raise RecordError("JSON nested too deeply", line=number) from None
    except ValueError as exc:  # an integer longer than Python converts (4300 digits)
        raise RecordError(f"not a usable JSON value ({exc})", line=number) from None
    if not isinstance(data, dict):
        raise RecordError("each line must be a JSON object", line=number)
    _check_text(data, number)
    return data


def _check_text(data: Any, number: int) -> None:
    """Refuse unpaired surrogates (``"\\ud800"`` is valid JSON but not writable text), and
    nesting deeper than any record needs; iterative, so depth cannot overflow the stack."""
    pending: list[tuple[Any, int]] = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"JSON nested deeper than {MAX_DEPTH} levels", line=number)
        if isinstance(value, str):
            _check_string(value, number)
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_string(key, number)
                pending.append((item, depth + 1))
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)


def _check_string(text: str, number: int) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(
            "a string holds an unpaired surrogate (\\ud800-\\udfff)", line=number
        ) from None


# -- replaying ----------------------------------------------------------------------------


@dataclass
class ReplayReport:
    """What :func:`replay` found: the state it reached, how many plies it replayed and the
    first divergence from the record (None, and ``ok``, when the record checks out)."""

    state: GameState
    plies: int
    divergence: RecordError | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None


def initial_state(record: GameRecord) -> tuple[GameSpec, GameState]:
    try:
        spec = get_game(record.game)
    except MonsterballError as exc:
        raise RecordError(str(exc), line=1, field="game") from None
    try:
        options = spec.options_type.from_dict(record.options)
    except MonsterballError as exc:
        raise RecordError(str(exc), line=1, field="options") from None
    if record.start is not None:
        try:
            state = spec.from_position(record.start)
        except MonsterballError as exc:
            raise RecordError(str(exc), line=1, field="start") from None
        if state.options != options:
            raise RecordError(
                "the start position's options differ from the header's", line=1, field="options"
            )
    else:
        state = spec.new_game(options)
    return spec, state


def replay(record: GameRecord, *, verify: bool = True, upto: int | None = None) -> ReplayReport:
    """Re-simulate a record. With ``verify``, check seats, hashes, the end line and (for a
    seeded record) that every chance outcome is the one the seed gives; the first problem is
    returned as ``divergence`` with the state just before it. A record that commits to its
    dice must reveal, once finished, a seed whose SHA-256 is the commitment."""
    spec, state = initial_state(record)
    if verify:
        broken = _broken_commitment(record)
        if broken is not None:
            return ReplayReport(state, 0, broken)
    sampler = record.sampler() if verify else None
    if verify and record.rules_version != spec.rules_version:
        return ReplayReport(
            state,
            0,
            RecordError(
                f"recorded under rules {record.rules_version}, this engine plays "
                f"{spec.rules_version}",
                line=1,
                field="rules_version",
            ),
        )
    done = 0
    for entry in record.actions:
        if upto is not None and done >= upto:
            break
        actor = state.current_player()
        if verify and entry.by != seat_label(state, actor):
            return ReplayReport(
                state,
                done,
                RecordError(
                    f"recorded for '{entry.by}' but '{seat_label(state, actor)}' is to act",
                    line=entry.line,
                    field="by",
                ),
            )
        try:
            action = spec.parse_action(entry.action)
            if sampler is not None and actor == CHANCE:
                expected = sampler.choose(state.chance_outcomes())
                if expected != action:
                    return ReplayReport(
                        state,
                        done,
                        RecordError(
                            f"the seed rolls '{expected}' here, the record says '{entry.action}'",
                            line=entry.line,
                            field="action",
                        ),
                    )
            state.apply(action)
        except MonsterballError as exc:
            return ReplayReport(state, done, RecordError(str(exc), line=entry.line, field="action"))
        done += 1
        if verify and entry.hash is not None and entry.hash != state.state_hash():
            return ReplayReport(
                state,
                done,
                RecordError(
                    f"state hash after ply {entry.ply} is {state.state_hash()}, the record says "
                    f"{entry.hash}",
                    line=entry.line,
                    field="hash",
                ),
            )
    if verify and upto is None and record.end is not None:
        end = record.end
        end_line = (record.actions[-1].line + 1) if record.actions else 2
        if end.get("plies") != done:
            return ReplayReport(
                state,
                done,
                RecordError(
                    f"end says {end.get('plies')} plies, the record has {done}",
                    line=end_line,
                    field="plies",
                ),
            )
        expected_result, expected_returns = state.result_text(), list(state.returns())
        if "termination" in end:
            # Ended off the board: the game must still be on, and the loser one of its seats.
            if state.is_terminal():
                return ReplayReport(
                    state,
                    done,
                    RecordError(
                        "the game was already over: it cannot end off the board",
                        line=end_line,
                        field="termination",
                    ),
                )
            if "loser" in end and end["loser"] not in spec.seat_names:
                return ReplayReport(
                    state,
                    done,
                    RecordError(
                        f"no seat '{end['loser']}' in {spec.id}", line=end_line, field="loser"
                    ),
                )
            if "loser" not in end and not state.options.can_draw():
                return ReplayReport(
                    state,
                    done,
                    RecordError(
                        f"{spec.id} as played cannot end in a draw: no draw can be agreed",
                        line=end_line,
                        field="termination",
                    ),
                )
            text, returns = ending_result(state, end)
            expected_result, expected_returns = text, list(returns)
        elif not state.is_terminal():
            return ReplayReport(
                state,
                done,
                RecordError("the record ends but the game is not over", line=end_line, field="end"),
            )
        if end.get("hash") is not None and end.get("hash") != state.state_hash():
            return ReplayReport(
                state, done, RecordError("final state hash differs", line=end_line, field="hash")
            )
        if "result" in end and end["result"] != expected_result:
            return ReplayReport(
                state,
                done,
                RecordError(
                    f"end says '{end['result']}', the replay gives '{expected_result}'",
                    line=end_line,
                    field="result",
                ),
            )
        if "returns" in end and end["returns"] != expected_returns:
            return ReplayReport(
                state,
                done,
                RecordError(
                    f"end says returns {end['returns']}, the replay gives {expected_returns}",
                    line=end_line,
                    field="returns",
                ),
            )
    return ReplayReport(state, done)


def _broken_commitment(record: GameRecord) -> RecordError | None:
    """What is wrong with the record's dice commitment, if anything."""
    if record.dice_commitment is None:
        return None
    end_line = (record.actions[-1].line + 1) if record.actions else 2
    if record.seed is not None:
        if seed_commitment(record.seed) != record.dice_commitment:
            return RecordError(
                "the seed does not match the header's dice_commitment", line=1, field="seed"
            )
        return None
    if record.end is None:
        return None  # unfinished: the seed is still secret, the dice cannot be checked
    revealed = record.end.get("dice_seed")
    if revealed is None:
        return RecordError(
            "the game is over but its dice seed was not revealed", line=end_line, field="dice_seed"
        )
    actual = seed_commitment(int(revealed))
    if actual != record.dice_commitment:
        return RecordError(
            f"the revealed dice seed hashes to {actual}, but the game committed to "
            f"{record.dice_commitment} before the first roll",
            line=end_line,
            field="dice_seed",
        )
    return None


def record_to_string(record: GameRecord) -> str:
    buffer = io.StringIO()
    for line in record.lines():
        buffer.write(line + "\n")
    return buffer.getvalue()
