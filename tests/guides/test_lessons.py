"""The teaching material (issue 33, monsterball.guides.lessons): every decision has a hint, every
lesson replays against the engine, and the guides are written for players."""

from __future__ import annotations

import random
import re

import pytest
from fastapi.testclient import TestClient

from monsterball.core.game import CHANCE
from monsterball.games import get_game
from monsterball.guides.lessons import (
    LessonError,
    check_attempt,
    hint_for,
    learning_data,
    lessons,
    replay,
    said_for,
    taught,
)
from tests.helpers.web import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

GAMES = tuple(taught())


def decisions_seen(game: str, preset: str | None, seed: int, plies: int) -> set[str]:
    spec = get_game(game)
    state = spec.new_game(spec.options(preset))
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(plies):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if state.current_player() == CHANCE:
            seen.update(a.notation() for a in legal)
        else:
            seen.update(a.notation() for a in legal[:400])
        state.apply_unchecked(rng.choice(legal))
    return seen


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_decision_met_in_play_has_a_hint(game):
    spec = get_game(game)
    seen: set[str] = set()
    for n, preset in enumerate((None, *spec.options_type.PRESETS)):
        seen |= decisions_seen(game, preset, seed=n, plies=800)
    missing = sorted(a for a in seen if hint_for(game, a) is None)
    assert not missing, f"{game}: no hint for {missing[:10]}"


@pytest.mark.parametrize("game", GAMES)
def test_every_move_the_engine_says_nothing_about_has_words(game):
    spec = get_game(game)
    silent: set[str] = set()
    for n, preset in enumerate((None, *spec.options_type.PRESETS)):
        state = spec.new_game(spec.options(preset))
        rng = random.Random(n)
        for _ in range(800):
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            if not state.apply_unchecked(action):
                silent.add(action.notation())
    missing = sorted(a for a in silent if said_for(game, a) is None)
    assert not missing, f"{game}: no words for {missing[:10]}"
    assert said_for("midway", "tackle B4 j8") == "B4 tries to tackle the ball carrier on j8"


@pytest.mark.parametrize("game", GAMES)
def test_hint_patterns_are_plain_enough_for_javascript(game):
    # The browser compiles the same patterns (hints.js): no Python-only syntax.
    for pattern, text in learning_data(game)["hints"] + learning_data(game)["said"]:
        assert not re.search(r"\(\?P|\(\?<[!=]?[a-z]|\\A|\\Z", pattern), pattern
        assert text and "`" not in text and "--" not in text


@pytest.mark.parametrize("game", GAMES)
def test_each_click_sentence_is_met_in_play(game):
    # The game page's guide line (game-state.js guide) says these; a pattern no decision
    # matches would be dead data, a kind the page does not know would never be shown.
    spec = get_game(game)
    clicks = learning_data(game).get("clicks", [])
    seen: set[str] = set()
    for n, preset in enumerate((None, *spec.options_type.PRESETS)):
        seen |= decisions_seen(game, preset, seed=n, plies=300)
    for pattern, kind, text in clicks:
        assert kind in ("aim", "ring"), kind
        assert any(re.search(pattern, a) for a in seen), f"{game}: no decision matches {pattern}"
        assert text.endswith(".") and ("$piece" in text) == (kind == "aim"), text
        assert not re.search(r"\(\?P|\(\?<[!=]?[a-z]|\\A|\\Z", pattern), pattern


def test_clicks_route_serves_each_games_words(tmp_path):
    with TestClient(app_at(tmp_path / "g.db")) as client:
        data = client.get("/api/clicks").json()
    assert set(data) == set(GAMES)
    assert [kind for _, kind, _ in data["huck-monster"]] == ["aim"]
    assert {p for p, _, _ in data["paper-ultimate"]} == {"^pass ", "^monster ", "^take "}


def test_hint_for_answers_none_for_an_unknown_action():
    assert hint_for("midway", "xyzzy") is None
    assert "once per Up Call" in (hint_for("huck-monster", "strategy") or "")


def test_hints_route_serves_every_game(tmp_path):
    with TestClient(app_at(tmp_path / "g.db")) as client:
        data = client.get("/api/hints").json()
    assert set(data) == set(GAMES)
    assert all(len(pairs) > 5 for pairs in data.values())


LESSONS = [(game, item.id) for game in GAMES for item in lessons(game)]


def test_each_game_has_its_lessons():
    wanted = {
        "paper-ultimate": {"run", "throw", "mark", "monster", "score"},
        "huck-monster": {"pull", "moves", "throw", "intercept", "catch", "strategy"},
        "midway": {"draft", "kickoff", "contact", "pass", "spell"},
    }
    for game, ids in wanted.items():
        assert {x.id for x in lessons(game)} == ids


@pytest.mark.parametrize(("game", "lesson_id"), LESSONS)
def test_lesson_replays_against_the_engine(game, lesson_id):
    item = next(x for x in lessons(game) if x.id == lesson_id)
    for n, step in enumerate(item.steps):
        state = replay(item, n)
        # Every step waits for the learner's own decision, and its move is legal there.
        assert state.current_player() == item.seat, (lesson_id, n, state.stack[-1].describe())
        assert state.is_legal(state.spec.parse_action(step.do)), (lesson_id, n, step.do)
        assert hint_for(game, step.do), f"no hint for the lesson move {step.do}"
        verdict = check_attempt(item, n, step.do)
        assert verdict["ok"] and verdict["events"] is not None
        if step.wrong:
            refused = check_attempt(item, n, step.wrong)
            assert not refused["ok"] and refused["reason"], (lesson_id, n, step.wrong)
    replay(item, len(item.steps))  # the whole lesson, then-moves included


def test_a_wrong_move_is_explained_with_the_engines_reason():
    item = next(x for x in lessons("paper-ultimate") if x.id == "run")
    verdict = check_attempt(item, 0, "A2-c10")
    assert not verdict["ok"] and not verdict["legal"]
    assert "c10 is more than 4 fields from A2" in verdict["reason"]
    other = check_attempt(item, 0, "A3-g8")  # legal, but not this step's move
    assert not other["ok"] and other["legal"] and "not what this step teaches" in other["reason"]


def test_a_lesson_that_no_longer_replays_fails_loudly():
    item = next(x for x in lessons("paper-ultimate") if x.id == "run")
    broken = type(item)(**{**{f: getattr(item, f) for f in item.__dataclass_fields__}})
    object.__setattr__(broken, "steps", (item.steps[0].__class__("say", "A2-c12", (), "", None),))
    with pytest.raises(LessonError, match="does not replay"):
        replay(broken, 1)


FORBIDDEN = re.compile(r"src/|tests/|\.\./shared|--opt|`")


@pytest.mark.parametrize("game", GAMES)
def test_guide_is_written_for_players_with_a_diagram_per_mechanic(game):
    from monsterball.web.api.learn import guide_view

    guide = guide_view(game)
    words = [guide["summary"]]
    for section in guide["sections"]:
        words += section.get("text", []) + section.get("list", [])
        words += [d["caption"] for d in section["diagrams"]]
        if section["kind"] == "mechanic":
            assert section["diagrams"], f"{game}: the mechanic '{section['id']}' has no diagram"
        for d in section["diagrams"]:
            assert d["board"]["pieces"], f"{game}: an empty diagram in '{section['id']}'"
    text = " ".join(words)
    assert not FORBIDDEN.search(text), FORBIDDEN.search(text)
    kinds = [s["kind"] for s in guide["sections"]]
    assert {"intro", "goal", "turn", "tips"} <= set(kinds) and kinds.count("mechanic") >= 4
    words = [s["title"] for s in guide["sections"]]
    for lesson_item in lessons(game):  # the lessons' words are for players too
        words += [lesson_item.title, lesson_item.intro, lesson_item.goal, lesson_item.role]
        words += [s.say + s.done + s.hint for s in lesson_item.steps]
    for part in words:
        assert not FORBIDDEN.search(part), part


@pytest.mark.parametrize("game", GAMES)
def test_each_lesson_says_the_side_played_and_each_step_how_to_move(game):
    """Issue 33: a lesson that switches sides says so (the page's banner needs the role), and
    every step has a hint (the set-up step's own, or its action's)."""
    from monsterball.web.api.learn import lessons_view

    view = lessons_view(game)["lessons"]
    assert all(x["role"] and x["seat"] for x in view), [x["id"] for x in view]
    for x in view:
        assert all(step["hint"] for step in x["steps"]), x["id"]
    first = lessons_view(game)["first_game"]  # the last lesson's game: a short preset
    assert first["preset"] in get_game(game).options_type.PRESETS and first["about"]
    if game == "midway":
        setup = next(x for x in view if x["id"] == "kickoff")["steps"][0]
        assert setup["action"] == "A2@g4" and "auto" in setup["hint"]
    if game == "paper-ultimate":
        seats = [x["seat"] for x in view]
        assert seats == ["A", "A", "B", "B", "A"]  # two switches: the banner's cases


def test_lesson_and_guide_routes(tmp_path):
    with TestClient(app_at(tmp_path / "g.db")) as client:
        data = client.get("/api/learn/huck-monster").json()
        first = data["lessons"][0]
        assert first["steps"][0]["highlight"] == {"a": "disc d15", "piece": None, "cell": "d15"}
        assert first["steps"][0]["legal"] and first["end"]["board"]["pieces"]
        ok = client.post(
            "/api/learn/huck-monster/pull/check", json={"step": 0, "action": "disc d15"}
        )
        assert ok.json()["ok"] is True
        bad = client.post(
            "/api/learn/huck-monster/pull/check", json={"step": 1, "action": "pull d9"}
        )
        assert bad.json()["ok"] is False and "cannot land on d9" in bad.json()["reason"]
        assert (
            client.post(
                "/api/learn/huck-monster/nope/check", json={"step": 0, "action": "x"}
            ).status_code
            == 404
        )
        assert (
            client.post(
                "/api/learn/huck-monster/pull/check", json={"step": 9, "action": "x"}
            ).status_code
            == 404
        )
        assert client.get("/api/learn/chess").status_code == 404
        aim = next(x for x in data["lessons"] if x["id"] == "throw")["steps"][1]
        # A throw of 12 against the Mark's three dice: caught unless he rolls 13 or more.
        assert aim["odds"]["exact"] == "20/27" and aim["odds"]["mark"]
        assert "the defense's strategy die is not counted" in aim["odds"]["caveats"]
        draft = client.get("/api/learn/midway").json()["lessons"][0]["steps"][0]
        assert draft["roster"]["points"] == 210 and draft["roster"]["types"][0]["good_at"]
        assert client.get("/api/guide/midway").json()["sections"]
        assert client.get("/guide/midway").status_code == 200
        assert client.get("/learn/midway").status_code == 200
