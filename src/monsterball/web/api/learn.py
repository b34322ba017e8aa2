"""Routes of the teaching pages (issue 33): the players' guides (``/guide/GAME``), the
interactive lessons (``/learn/GAME``) and the one-line hints of every decision.

The material itself is game data (:mod:`monsterball.guides.lessons`); here each lesson step is
replayed by the engine into what the page draws (the board as the learner's seat sees it, the
legal actions with their click hints, what to highlight), and an attempt is judged by the
engine. Its ``router`` is included by web/app.py.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from monsterball.core.game import GameState
from monsterball.games import get_game
from monsterball.guides.lessons import (
    Lesson,
    LessonError,
    all_clicks,
    all_hints,
    all_said,
    at_decision,
    check_attempt,
    learning_data,
    lesson,
    lessons,
    replay,
    taught,
)
from monsterball.web.live.game import Rejected, action_hint

STATIC = resources.files("monsterball.web") / "static"
GameName = Annotated[str, Path(max_length=40)]


class Attempt(BaseModel):
    step: int = Field(ge=0, le=100)
    action: str = Field(min_length=1, max_length=80)


def _game(name: str) -> str:
    try:
        spec = get_game(name)
    except Exception:
        raise Rejected("not-found", f"no game '{name}'") from None
    if spec.id not in taught():
        raise Rejected("not-found", f"no lessons for '{spec.id}'")
    return spec.id


def scene(state: GameState, seat: int, do: str | None = None) -> dict[str, Any]:
    """What the page draws of a position: the seat's board, the prompt, the seat's legal
    actions with click hints and, for a step, the click that makes its action."""
    board = state.board(seat)
    pieces = frozenset(p["id"] for p in board["pieces"])
    legal = (
        [action_hint(a.notation(), pieces) for a in state.legal_actions()]
        if mine(state, seat)
        else []
    )
    return {
        "board": board,
        "roster": draft_left(state, seat),
        "prompt": state.stack[-1].describe() if state.stack else state.result_text(),
        "legal": legal,
        "highlight": action_hint(do, pieces) if do else None,
        "odds": throw_odds_of(state, do),
    }


def throw_odds_of(state: GameState, do: str | None) -> dict[str, Any] | None:
    """A lesson step that aims (Huck + Monster's throw): that target's exact chance and
    what the figure leaves out (the game page's odds, ``spec.odds.targets``, for the one
    target)."""
    hooks = state.spec.odds
    if hooks is None or hooks.targets is None or not do:
        return None
    odds = hooks.targets(state)
    target = next((t for t in odds["targets"] if t["action"] == do), None)
    return {**target, "caveats": odds["caveats"]} if target else None


def draft_left(state: GameState, seat: int) -> dict[str, Any] | None:
    """While the seat drafts (Monsters of the Midway): its points and picks left, and what
    each type is good at, cheapest first (the game's ``spec.views.draft_help``)."""
    draft_help = state.spec.views.draft_help
    if draft_help is None or not mine(state, seat) or not state.stack:
        return None
    found = draft_help(state, seat)
    return dict(found) if found is not None else None


def mine(state: GameState, seat: int) -> bool:
    return at_decision(state) and state.current_player() == seat


def lesson_view(item: Lesson) -> dict[str, Any]:
    steps = []
    for n, step in enumerate(item.steps):
        state = replay(item, n)
        view = scene(state, item.seat, step.do)
        steps.append(
            {"say": step.say, "done": step.done, "action": step.do, "hint": step.hint, **view}
        )
    end = scene(replay(item, len(item.steps)), item.seat)
    return {
        "id": item.id,
        "title": item.title,
        "goal": item.goal,
        "intro": item.intro,
        "seat": get_game(item.game).seat_name(item.seat),
        "role": item.role,
        "steps": steps,
        "end": {"board": end["board"]},
    }


@cache
def lessons_view(game: str) -> dict[str, Any]:
    spec = get_game(game)
    return {
        "game": game,
        "title": spec.title,
        "lessons": [lesson_view(x) for x in lessons(game)],
        # The game the last lesson offers: a short one, so a first game is finished soon.
        "first_game": learning_data(game).get("first_game"),
    }


@cache
def guide_view(game: str) -> dict[str, Any]:
    """The guide's sections, each diagram replaced by the board it names (a lesson's position
    at a step, with that step's move highlighted)."""
    spec = get_game(game)
    sections = []
    for raw in learning_data(game)["guide"]:
        diagrams = []
        for d in raw.get("diagrams", []):
            item = lesson(game, d["lesson"])
            n = d.get("step", 0)
            state = replay(item, n)
            do = item.steps[n].do if n < len(item.steps) and d.get("show_move", True) else None
            view = scene(state, item.seat, do)
            diagrams.append(
                {"caption": d["caption"], "board": view["board"], "highlight": view["highlight"]}
            )
        sections.append({**raw, "diagrams": diagrams})
    return {"game": game, "title": spec.title, "summary": spec.summary, "sections": sections}


router = APIRouter()


def page() -> FileResponse:
    return FileResponse(str(STATIC / "index.html"), media_type="text/html")


router.get("/learn/{game}", include_in_schema=False)(page)
router.get("/guide/{game}", include_in_schema=False)(page)


@router.get("/api/hints")
async def hints() -> dict[str, Any]:
    """Per game, ``[pattern, hint]`` pairs: an action's hint is the text of the first
    pattern (a regular expression) found in its notation."""
    return all_hints()


@router.get("/api/clicks")
async def clicks() -> dict[str, Any]:
    """Per game, ``[pattern, kind, text]``: the game page's guide line for a selected
    piece's aimed action (``aim``, ``$piece`` the piece) or for ringed pieces (``ring``)."""
    return all_clicks()


@router.get("/api/said")
async def said() -> dict[str, Any]:
    """Per game, ``[pattern, words]`` pairs for the move list: a move the engine's events
    say nothing about, in words (``$1``: the pattern's first group)."""
    return all_said()


@router.get("/api/guide/{game}")
async def guide(game: GameName) -> dict[str, Any]:
    return guide_view(_game(game))


@router.get("/api/learn/{game}")
async def learn(game: GameName) -> dict[str, Any]:
    return lessons_view(_game(game))


@router.post("/api/learn/{game}/{lesson_id}/check")
async def check(
    game: GameName, lesson_id: Annotated[str, Path(max_length=40)], body: Attempt
) -> dict[str, Any]:
    """The engine's verdict on a learner's attempt at a lesson step (the lesson is
    replayed to that step first; nothing is stored)."""
    try:
        return check_attempt(lesson(_game(game), lesson_id), body.step, body.action)
    except LessonError as exc:
        raise Rejected("not-found", str(exc)) from None
