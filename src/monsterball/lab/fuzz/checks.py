"""The invariants the fuzz harness checks after every action of random legal play (the list
is in the package's docstring), and the small helpers its mutation fuzzers share with them. A
broken invariant raises Found, naming its kind."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from fractions import Fraction
from itertools import compress
from typing import Any

import orjson

from monsterball.core.actions import Action
from monsterball.core.errors import MonsterballError
from monsterball.core.game import CHANCE, GameSpec, GameState

NOTATION_SAMPLE = 12  # legal actions whose notation round-trip is checked per ply
VIEW_EVERY = 4  # every seat's view and picture are drawn every this many plies (slow)
MEMO_LIMIT = 100_000  # action objects remembered a game (the games share theirs: far fewer)


class Found(Exception):
    """An invariant broke: ``kind`` names which."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 300 else text[:297] + "..."


class ActionMemo:
    """What one game has learnt about each action object it met, by the object's id: its
    notation, its kind, and whether its notation has read back. The objects are held, so
    an id stays theirs; the games hand out shared action objects, so few are held. An id
    is looked up without hashing the action, and a whole list in C
    (``map(memo.notation.get, map(id, actions))``). notation() and parsing are pure
    functions of a frozen action and of a text, so what holds for an action once holds
    again."""

    def __init__(self) -> None:
        self.notation: dict[int, str] = {}
        self.kind: dict[int, str] = {}
        self.read: set[int] = set()  # read back to itself
        self.held: dict[int, Action] = {}

    def notations(self, actions: list[Action]) -> list[str]:
        """Every action's notation, written once per action object a game."""
        got: list[str | None] = list(map(self.notation.get, map(id, actions)))
        if None in got:
            if len(self.held) + len(actions) > MEMO_LIMIT:  # forget, rather than overfill
                self.notation.clear()
                self.kind.clear()
                self.read.clear()
                self.held.clear()
                got = [None] * len(actions)
            for i, action in enumerate(actions):
                if got[i] is None:
                    got[i] = self.notation[id(action)] = action.notation()
                    self.held[id(action)] = action
        return got  # type: ignore[return-value]  # no None left

    def kinds(self, actions: list[Action]) -> list[str]:
        """Every action's kind: its type and the first word of its notation."""
        got: list[str | None] = list(map(self.kind.get, map(id, actions)))
        if None in got:
            for i, written in enumerate(self.notations(actions)):
                if got[i] is None:
                    action = actions[i]
                    got[i] = self.kind[id(action)] = f"{type(action).__name__} {written.split()[0]}"
        return got  # type: ignore[return-value]


def pick_decision(
    rng: random.Random,
    legal: list[Action],
    by_kind: bool,
    memo: ActionMemo | None = None,
) -> Action:
    """A legal decision, uniformly, or (``by_kind``) of a kind drawn uniformly first; the
    kind is the action's type and first word. ``memo`` keeps each action's kind within a
    game."""
    if not by_kind:
        return legal[rng.randrange(len(legal))]
    kinds = (ActionMemo() if memo is None else memo).kinds(legal)
    chosen = rng.choice(sorted(set(kinds)))
    group = list(compress(legal, map(chosen.__eq__, kinds)))
    return group[rng.randrange(len(group))]


def canonical(data: Any) -> bytes:
    """Sorted-key JSON text of position data, to compare two positions as the hash sees them.

    orjson, not the stdlib: for JSON-ready data (string keys, str, int, bool, None, finite
    floats, lists, tuples, dicts) two values give equal orjson text exactly when they give
    equal ``json.dumps(..., sort_keys=True)`` text, the one ``GameState.state_hash``
    digests: both spell 1, 1.0 and true apart and write floats exactly. What orjson refuses
    (integer keys, integers over 64 bits, lone surrogates) falls back to the stdlib."""
    try:
        return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def through_json(data: Any) -> Any:
    """``data`` written as JSON text and read back (key order kept), as a file would."""
    try:
        return orjson.loads(orjson.dumps(data))
    except TypeError:  # as canonical(): the stdlib turns integer keys into strings
        return json.loads(json.dumps(data))


def check_chance(state: GameState) -> list[tuple[Action, Fraction]]:
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise Found("no-actions", "a chance node with no outcomes")
    # In integers, the same as with Fractions (whose arithmetic and comparisons are Python
    # code): a Fraction's denominator is positive, so 0 < p <= 1 is 0 < numerator <=
    # denominator; and the sum is 1 when, over the common denominator, the numerators add
    # up to it.
    parts = []
    for action, p in outcomes:
        if not isinstance(p, Fraction) or not 0 < p.numerator <= p.denominator:
            raise Found("probabilities", f"outcome {action} has probability {p!r}")
        parts.append((p.numerator, p.denominator))
    common = math.lcm(*{d for _, d in parts})
    if sum(n * (common // d) for n, d in parts) != common:
        total = sum((p for _, p in outcomes), Fraction(0))
        raise Found("probabilities", f"outcomes sum to {total}, not 1")
    if len({a for a, _ in outcomes}) != len(outcomes):
        raise Found("probabilities", "the same outcome is listed twice")
    return outcomes


def read_back(
    spec: GameSpec,
    actions: list[Action],
    rng: random.Random,
    memo: ActionMemo | None = None,
) -> list[str]:
    """Every action's notation; a sample of ``NOTATION_SAMPLE`` of them (all, if fewer) is
    checked to parse back to the same action, as ever, except those that have already read
    back in this game (``memo``): an action that read back once reads back again."""
    memo = ActionMemo() if memo is None else memo
    written_all = memo.notations(actions)
    sample = actions if len(actions) <= NOTATION_SAMPLE else rng.sample(actions, NOTATION_SAMPLE)
    for action in sample:
        if id(action) in memo.read:
            continue
        written = memo.notation[id(action)]
        try:
            reading = spec.parse_action(written)
        except MonsterballError as exc:
            raise Found("notation", f"'{written}' does not parse: {exc}") from None
        if reading != action:
            raise Found("notation", f"'{written}' parses to {reading!r}, not {action!r}")
        memo.read.add(id(action))
    return written_all


def check_state(
    spec: GameSpec,
    state: GameState,
    rng: random.Random,
    memo: ActionMemo | None = None,
) -> tuple[list[Action], list[tuple[Action, Fraction]]]:
    """Every per-action invariant except the hidden-information one. Returns the legal
    decisions and the chance outcomes (one of them empty), for the caller to pick from, so
    they are worked out once a ply. ``memo``: as for read_back, within one game."""
    actor = state.current_player()
    outcomes: list[tuple[Action, Fraction]] = []
    actions: list[Action] = []
    if state.is_terminal():
        if state.legal_actions():
            raise Found("no-actions", "a terminal state offers actions")
        if len(state.returns()) != spec.num_seats:
            raise Found("exception", "returns() has the wrong length")
    elif actor == CHANCE:
        outcomes = check_chance(state)
        actions = [a for a, _ in outcomes]
    else:
        if not 0 <= actor < spec.num_seats:
            raise Found("no-actions", f"current_player() is {actor}")
        actions = state.legal_actions()
        if not actions:
            raise Found("no-actions", f"{spec.seat_name(actor)} is to act with no legal action")
    # Notation: actions offered read back to themselves (a sample a ply, see read_back).
    # Equal actions write the same text, so distinct texts mean distinct actions (strings
    # hash fast); two different actions writing the same text are a notation fault.
    written = read_back(spec, actions, rng, memo)
    if len(set(written)) != len(actions):
        if len(set(actions)) != len(actions):
            raise Found("no-actions", "the same legal action is listed twice")
        clash = next(t for t, n in Counter(written).items() if n > 1)
        raise Found("notation", f"two different actions offered are both written '{clash}'")
    if state.ply % VIEW_EVERY == 0 or state.is_terminal():
        for seat in (None, *range(spec.num_seats)):
            state.view(seat)
            state.render(seat)
    state.result_text()
    # Positions: through JSON and back, nothing lost. The state's position is written once
    # and serves every comparison below (round-trip, clone, independence).
    data = state.to_position()
    # The text the hash digests: equal dicts can still write differently (1 == 1.0 == True).
    text = canonical(data)
    try:
        again = spec.from_position(through_json(data))
    except MonsterballError as exc:
        raise Found("position", f"a reached position does not load: {describe(exc)}") from None
    reloaded = again.to_position()
    if reloaded != data:
        raise Found("position", "the position does not round-trip")
    if canonical(reloaded) != text:
        raise Found("position", "a reloaded position hashes differently")
    # GameState.state_hash digests that same text, so the hashes agree; call them only where
    # a game defines its own state_hash.
    own_hash = type(state).state_hash is not GameState.state_hash
    if own_hash and again.state_hash() != state.state_hash():
        raise Found("position", "a reloaded position hashes differently")
    if again.legal_actions() != actions:  # actions: state.legal_actions(), as listed above
        raise Found("position", "a reloaded position plays differently")
    if state.is_terminal():
        return actions, outcomes
    # Clones: equal (GameState.__eq__ compares to_position(), done here against the one
    # already written), and independent of the original.
    twin = state.clone()
    if type(twin) is not type(state) or twin.to_position() != data:
        raise Found("clone", "a clone differs from its original")
    twin.apply(actions[rng.randrange(len(actions))])
    if state.to_position() != data:
        raise Found("clone", "playing on a clone changed the original")
    return actions, outcomes


HIDDEN_CHECKS: Counter[str] = Counter()  # twins compared in this process, by what moved


def check_hidden(
    spec: GameSpec, state: GameState, rng: random.Random, legal: list[Action] | None = None
) -> None:
    """The game's hidden-information twins (``spec.checks.twins``) look and play as the state
    does to the seat each names and to spectators. ``legal``: state.legal_actions() if
    already listed. The state's own view, picture and notations are worked out once,
    however many twins are compared with them."""
    hooks = spec.checks
    if hooks is None or hooks.twins is None:
        return
    mine: dict[int | None, tuple[bytes, str]] = {}
    for what, twin, opp in hooks.twins(state, rng):
        HIDDEN_CHECKS[what] += 1
        for seat in (opp, None):
            who = "spectators" if seat is None else f"seat {spec.seat_name(seat)}"
            if seat not in mine:
                mine[seat] = (canonical(state.view(seat)), state.render(seat))
            view, picture = mine[seat]
            if canonical(twin.view(seat)) != view:
                raise Found("hidden", f"moving the {what} changes the view of {who}")
            if twin.render(seat) != picture:
                raise Found("hidden", f"moving the {what} changes the picture {who} see")
        if state.current_player() == opp:
            ours = [a.notation() for a in (state.legal_actions() if legal is None else legal)]
            theirs = [a.notation() for a in twin.legal_actions()]
            if ours != theirs:
                raise Found("hidden", f"moving the {what} changes the other seat's legal actions")


def check_rng(seed: int, ply: int) -> random.Random:
    # Per ply, so a reproducer that checks every ply makes the same choices as a windowed run.
    return random.Random(seed * 1_000_003 + ply)
