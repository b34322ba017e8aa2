"""The browser client's own routes (issue 14, web/api/ui.py): rules pages, board pictures, the
full move list, rematches with the seats swapped, presence, the Midway roster and the catch
odds while aiming."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from monsterball.web.api.services import services_of
from monsterball.web.live.game import LOG_TAIL
from tests.helpers.web import app_at

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as c:
        yield c


def create(client, **body):
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def play_randomly(client, game_id, token, moves, seed=1):
    rng = random.Random(seed)
    state = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    for _ in range(moves):
        if not state["legal"]:
            break
        move = rng.choice(state["legal"])["a"]
        state = client.post(
            f"/api/games/{game_id}/act",
            json={"token": token, "action": move, "ply": state["game"]["ply"]},
        ).json()
    return state


@pytest.mark.parametrize("game", ["huck-monster", "midway", "paper-ultimate"])
def test_every_game_has_a_rules_page_and_a_board_picture(client, game):
    text = client.get(f"/api/rules/{game}")
    assert text.status_code == 200 and text.text.startswith("# ")
    assert "| id |" in text.text  # the rules with their ids
    board = client.get("/api/ui/boards").json()[game]
    assert board["cols"] > 5 and board["rows"] > 10
    assert client.get(f"/rules/{game}").headers["content-type"].startswith("text/html")


def test_an_unknown_game_has_no_rules_page(client):
    answer = client.get("/api/rules/chess")
    assert answer.status_code == 404 and "chess" in answer.json()["message"]


def test_the_move_list_has_every_move_not_only_the_live_tail(client):
    created = create(client, game="paper-ultimate", mode="hotseat", seed=3)
    token = created["chairs"][0]["token"]
    state = play_randomly(client, created["id"], token, LOG_TAIL + 30)
    moves = client.get(f"/api/games/{created['id']}/moves", params={"token": token}).json()
    assert len(moves["moves"]) == state["game"]["ply"] > LOG_TAIL
    assert [m["ply"] for m in moves["moves"]] == list(range(1, state["game"]["ply"] + 1))
    assert moves["moves"][-len(state["log"]) :] == state["log"]


def test_a_bad_token_gets_no_move_list(client):
    created = create(client, game="paper-ultimate")
    answer = client.get(f"/api/games/{created['id']}/moves", params={"token": "nope"})
    assert answer.status_code == 403


def test_rematch_swaps_the_seats_and_keeps_the_rules(client):
    created = create(
        client,
        game="paper-ultimate",
        preset="small",
        settings=["points_to_win=2"],
        mode="bot",
        bots={"B": "medium"},
    )
    human = next(c for c in created["chairs"] if c["kind"] == "human")
    assert human["name"] == "A"
    gone = client.post(f"/api/games/{created['id']}/resign", json={"token": human["token"]})
    assert gone.json()["game"]["result"] == "team B wins: team A resigned"
    again = client.post(f"/api/games/{created['id']}/rematch", json={"token": human["token"]})
    assert again.status_code == 201, again.text
    new = again.json()
    kinds = {c["name"]: c["kind"] for c in new["chairs"]}
    assert kinds == {"A": "bot", "B": "human"}  # the human now plays B, the bot A
    token = new["you"].split("token=")[1]
    me = client.get(f"/api/games/{new['id']}", params={"token": token}).json()
    assert me["you"] == "B"
    assert {c["name"]: c["bot"] for c in me["chairs"]} == {"A": "medium", "B": None}
    live = services_of(client.app).rooms.rooms[new["id"]].live
    assert live.row.preset == "small" and live.state.options.points_to_win == 2


def test_presence_counts_open_sockets_per_chair(client):
    created = create(client, game="paper-ultimate", mode="online")
    game_id = created["id"]
    token_a = created["chairs"][0]["token"]
    assert client.get(f"/api/games/{game_id}/presence").json() == {"chairs": {}, "spectators": 0}
    with client.websocket_connect(f"/ws/{game_id}?token={token_a}") as ws:
        ws.receive_json()
        with client.websocket_connect(f"/ws/{game_id}") as watcher:
            watcher.receive_json()
            now = client.get(f"/api/games/{game_id}/presence").json()
            assert now == {"chairs": {"A": 1}, "spectators": 1}
    assert client.get(f"/api/games/{game_id}/presence").json()["chairs"] == {}
    assert client.get("/api/games/nothere/presence").status_code == 404


def test_midway_roster_lists_the_chart_and_each_drafted_type(client):
    created = create(client, game="midway")
    token = created["chairs"][0]["token"]
    client.post(
        f"/api/games/{created['id']}/act", json={"token": token, "action": "draft orc", "ply": 0}
    )
    roster = client.get(f"/api/games/{created['id']}/roster").json()
    orc = next(t for t in roster["types"] if t["type"] == "orc")
    team_a = roster["teams"][0]
    # MW-DRAFT-1: 10 players for at most 210 points.
    assert team_a == {"team": "A", "slots": 9, "points": 210 - orc["points"], "picked": ["orc"]}
    assert roster["players"] == {"A1": "orc"}
    assert roster["drafting"] == "A"
    other = create(client, game="paper-ultimate")
    assert client.get(f"/api/games/{other['id']}/roster").status_code == 400


def test_odds_are_empty_unless_a_throw_is_being_aimed(client):
    created = create(client, game="huck-monster", seed=2)
    answer = client.get(f"/api/games/{created['id']}/odds").json()
    assert answer["targets"] == [] and answer["caveats"] == []


def test_midway_decision_odds_are_the_tables_exact_chances():
    """A tackle's outcomes, found by random play: each class's chance is the exact sum of
    the die faces that give it, and the classes cover every face (MW tackle table)."""
    from fractions import Fraction

    from monsterball.core.game import CHANCE
    from monsterball.games import get_game
    from monsterball.web.api.ui import decision_odds

    spec = get_game("midway")
    rng = random.Random(3)
    state = spec.new_game(spec.options("exhibition"))
    found = None
    kicks: list[dict] = []
    for _ in range(3000):
        if state.is_terminal():
            state = spec.new_game(spec.options("exhibition"))
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            weights = [float(p) for _, p in outcomes]
            state.apply_unchecked(rng.choices([o for o, _ in outcomes], weights)[0])
            continue
        odds = decision_odds(state.clone(), state.current_player())
        kicks += [d for d in odds["decisions"] if d["action"].startswith(("kick", "punt"))]
        found = next((d for d in odds["decisions"] if d["action"].startswith("tackle")), None)
        if found and kicks:
            break
        state.apply_unchecked(rng.choice(state.legal_actions()))
    assert found, "no tackle in 3000 random moves"
    after = state.clone()
    after.apply_unchecked(spec.parse_action(found["action"]))
    by_class: dict[str, Fraction] = {}
    for outcome, p in after.chance_outcomes():
        trial = after.clone()
        first = trial.apply_unchecked(outcome)[0]
        assert "tackle" in first.describe()
        key = first.in_brief()
        by_class[key] = by_class.get(key, Fraction(0)) + Fraction(p)
    shown = {o["what"]: Fraction(o["exact"]) for o in found["outcomes"]}
    assert shown == by_class and sum(shown.values()) == 1
    assert "ball carrier tackled" in shown and len(shown) >= 2
    # Issue 32 item 7: no "#" placeholders, and where the ball comes down is the outcome: each
    # kick target has its own spread (not "100.0% the kick comes down on #" for all).
    for decision in [found, *kicks]:
        assert all("#" not in o["what"] for o in decision["outcomes"]), decision
        assert sum(Fraction(o["exact"]) for o in decision["outcomes"]) == 1
    spreads = {tuple(o["what"] for o in k["outcomes"]) for k in kicks}
    assert len(kicks) > 1 and len(spreads) == len({k["action"] for k in kicks}), kicks


def test_decision_odds_only_for_the_chair_that_acts(client):
    created = create(client, game="midway", mode="online")
    game_id = created["id"]
    tokens = {c["name"]: c["token"] for c in created["chairs"]}
    answer = client.get(f"/api/games/{game_id}/outcomes", params={"token": tokens["B"]})
    assert answer.status_code == 200 and answer.json()["decisions"] == []  # A drafts first
    assert client.get(f"/api/games/{game_id}/outcomes", params={"token": "x"}).status_code == 403
