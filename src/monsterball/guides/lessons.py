"""Teaching material for players: each game's hints, lessons and guide, read from the data file
``data/lessons.json`` in the game's package (game knowledge, written as data).

- **hints**: ``[pattern, text]`` pairs; the first pattern matching an action's notation gives
  its one-line hint (the browser's ``static/hints.js`` applies the same list).
- **lessons**: a set position (the engine's position format), the seat the learner plays (and
  its ``role`` in words) and steps; a step says what to try, the one action it teaches
  (``do``), how to make it on the page (``hint``, else the action's hint), what happens next
  without the learner (``then``: dice and the other side, fixed), and what it showed.
- **guide**: sections of prose, each with diagrams that name a lesson position to draw.
- **clicks**: ``[pattern, kind, text]``: what the game page's guide line says to click, so the
  page names no game's words. ``aim``: a piece is selected and one of its actions matches
  (``$piece`` is the piece); ``ring``: every ringed piece's action matches.

Replaying a lesson runs every step through the engine, so a rules change that breaks a lesson
raises here (and fails tests/guides/test_lessons.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from monsterball.core.errors import MonsterballError
from monsterball.core.game import CHANCE, GameState
from monsterball.games import all_games, get_game


class LessonError(MonsterballError):
    """A lesson that does not replay: names the lesson, the step and the engine's reason."""


def taught() -> list[str]:
    """The ids of the games with teaching material (``spec.docs.lessons_package``)."""
    return [spec.id for spec in all_games() if spec.docs.lessons_package is not None]


@cache
def learning_data(game: str) -> dict[str, Any]:
    """The game's data/lessons.json (empty parts when the game has none)."""
    package = get_game(game).docs.lessons_package
    if package is None:
        return {"hints": [], "lessons": [], "guide": []}
    source = resources.files(package).joinpath("data/lessons.json")
    data: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return data


@cache
def _patterns(game: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(p), text) for p, text in learning_data(game)["hints"])


def all_hints() -> dict[str, list[list[str]]]:
    """Every game's hint list, as the browser receives it."""
    return {game: learning_data(game)["hints"] for game in taught()}


def all_clicks() -> dict[str, list[list[str]]]:
    """Every game's click sentences for the game page's guide line, as the browser receives them."""
    return {game: learning_data(game).get("clicks", []) for game in taught()}


def hint_for(game: str, notation: str) -> str | None:
    """The one-line hint for an action, or None."""
    return next((text for pattern, text in _patterns(game) if pattern.search(notation)), None)


@cache
def _said(game: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    # "$1" in the data (the browser's String.replace) is "\\1" to Python's Match.expand.
    return tuple(
        (re.compile(p), re.sub(r"\$(\d)", r"\\\1", words))
        for p, words in learning_data(game).get("said", [])
    )


def all_said() -> dict[str, list[list[str]]]:
    """Every game's log words: for a move the engine tells nothing about, what it was."""
    return {game: learning_data(game).get("said", []) for game in taught()}


def said_for(game: str, notation: str) -> str | None:
    """A move in words for the move list, when the engine's events say nothing (a roll
    asked for, a declined tackle, a die whose effect comes later), or None."""
    for pattern, words in _said(game):
        found = pattern.search(notation)
        if found:
            return found.expand(words)
    return None


@dataclass(frozen=True, slots=True)
class Step:
    say: str
    do: str
    then: tuple[str, ...]
    done: str
    wrong: str | None  # an attempt the page may refuse, for tests and the guide
    hint: str = ""  # how to make the move on the page (the data's, else the action's hint)


@dataclass(frozen=True, slots=True)
class Lesson:
    game: str
    id: str
    title: str
    goal: str
    intro: str
    seat: int
    role: str  # the side the learner plays, in words ("the defence"), shown when it switches
    position: dict[str, Any]
    steps: tuple[Step, ...]

    def start(self) -> GameState:
        """The lesson's set position: written out (``board`` and ``stack``), or reached by
        playing ``moves`` from the start of a game (for a position deep in a game, whose rule
        steps carry much state), then changing the ``board`` fields given."""
        spec = get_game(self.game)
        if "moves" not in self.position:
            return spec.from_position(full_position(self.game, self.position))
        state = spec.new_game(spec.options(None, **self.position.get("options", {})))
        for n, text in enumerate(self.position["moves"]):
            _apply(state, text, f"lesson {self.game}/{self.id} set-up move {n + 1}")
        if "board" not in self.position:
            return state
        # ... then players set where the lesson wants them (the rule steps stay the engine's).
        data = state.to_position()
        data["board"] = {**data["board"], **self.position["board"]}
        return spec.from_position(data)


def full_position(game: str, partial: dict[str, Any]) -> dict[str, Any]:
    """A lesson's position in the engine's format. A lesson writes the board fields it sets
    (``board``), the rule steps under way (``stack``), the ply and any options; the rest comes
    from a fresh game, so a field the game adds later takes its starting value."""
    spec = get_game(game)
    base = spec.new_game(spec.options(None, **partial.get("options", {}))).to_position()
    return {
        **base,
        "ply": partial.get("ply", 0),
        "board": {**base["board"], **partial["board"]},
        "stack": partial["stack"],
    }


def lessons(game: str) -> tuple[Lesson, ...]:
    spec = get_game(game)
    out = []
    for raw in learning_data(game)["lessons"]:
        steps = tuple(
            Step(
                say=s["say"],
                do=s["do"],
                then=tuple(s.get("then", ())),
                done=s.get("done", ""),
                wrong=s.get("wrong"),
                hint=s.get("hint") or hint_for(game, s["do"]) or "",
            )
            for s in raw["steps"]
        )
        out.append(
            Lesson(
                game=spec.id,
                id=raw["id"],
                title=raw["title"],
                goal=raw["goal"],
                intro=raw["intro"],
                seat=spec.seat_names.index(raw["seat"]),
                role=raw.get("role", ""),
                position=raw["position"],
                steps=steps,
            )
        )
    return tuple(out)


def lesson(game: str, lesson_id: str) -> Lesson:
    found = next((x for x in lessons(game) if x.id == lesson_id), None)
    if found is None:
        raise LessonError(f"{game} has no lesson '{lesson_id}'")
    return found


def _apply(state: GameState, text: str, where: str) -> list[str]:
    try:
        action = state.spec.parse_action(text)
        return [e.describe() for e in state.apply(action)]
    except MonsterballError as exc:
        raise LessonError(f"{where}: '{text}' does not replay: {exc}") from exc


def replay(item: Lesson, upto: int) -> GameState:
    """The position the learner sees at step ``upto`` (0: the lesson's start; len(steps): the
    end), every earlier step played as the lesson says."""
    state = item.start()
    for n, step in enumerate(item.steps[:upto]):
        where = f"lesson {item.game}/{item.id} step {n + 1}"
        _apply(state, step.do, where)
        for text in step.then:
            _apply(state, text, where)
    return state


def check_attempt(item: Lesson, index: int, text: str) -> dict[str, Any]:
    """The engine's verdict on the learner's attempt at step ``index``: ``ok`` and the events
    it caused (with what followed), or the reason it is refused."""
    if not 0 <= index < len(item.steps):
        raise LessonError(f"lesson '{item.id}' has no step {index + 1}")
    step = item.steps[index]
    state = replay(item, index)
    spec = state.spec
    try:
        action = spec.parse_action(text)
        state.check(action, seat=item.seat)
    except MonsterballError as exc:
        return {"ok": False, "legal": False, "reason": f"The rules do not allow “{text}”: {exc}."}
    if action.notation() != spec.parse_action(step.do).notation():
        return {
            "ok": False,
            "legal": True,
            "reason": f"“{text}” is allowed, but it is not what this step teaches: {step.say}",
        }
    events = [e.describe() for e in state.apply(action)]
    for then in step.then:
        events += _apply(state, then, f"lesson {item.id} step {index + 1}")
    return {"ok": True, "events": events}


def at_decision(state: GameState) -> bool:
    return not state.is_terminal() and state.current_player() != CHANCE
