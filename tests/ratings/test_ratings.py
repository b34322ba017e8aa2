"""Glicko-2 ratings (monsterball.ratings) against Glickman's worked example, and the store's
ratings (web/store/ratings.py): a game settled once, leaderboards, provisional marks, who may
name a rated game's players."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from monsterball.ratings.glicko import PROVISIONAL_RD, Rating, rate_game, scores, update
from monsterball.web.app import create_app
from monsterball.web.store.games import Store
from monsterball.web.store.ratings import history, leaderboard, rating_of, settle
from tests.helpers.web import NO_CLIENT_LIMITS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system" (2013): a 1500/200/0.06 player beats a
    1400/30, loses to a 1550/100 and a 1700/300 (tau 0.5): 1464.06, RD 151.52, 0.05999.
    (The paper rounds its intermediate figures; the exact computation gives 1464.05.)"""
    after = update(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
        tau=0.5,
    )
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_player_who_does_not_play_only_grows_less_sure():
    idle = update(Rating(1500, 200, 0.06), [])
    assert (idle.rating, idle.volatility) == (1500, 0.06)
    assert idle.rd == pytest.approx((200**2 + (0.06 * 173.7178) ** 2) ** 0.5)  # step 6


def test_a_game_moves_winner_up_and_loser_down_by_the_same_amount_between_equals():
    win, loss = rate_game([Rating(), Rating()], [1.0, -1.0])
    assert win.rating > 1500 > loss.rating
    assert win.rating - 1500 == pytest.approx(1500 - loss.rating)
    draw = rate_game([Rating(), Rating()], [0.0, 0.0])
    assert [r.rating for r in draw] == pytest.approx([1500, 1500])
    assert scores([1.0, -1.0]) == [[None, 1.0], [0.0, None]]


def test_provisional_ratings_are_shown_with_a_question_mark():
    assert Rating(1623.4, PROVISIONAL_RD + 1).shown() == "1623?"
    assert Rating(1623.6, PROVISIONAL_RD).shown() == "1624"
    # A new player stops being provisional after a handful of games.
    player, opponent = Rating(), Rating(1500, 60)
    games = 0
    while player.provisional:
        player = rate_game([player, opponent], [1.0 if games % 2 else -1.0, 0])[0]
        games += 1
    assert 4 <= games <= 12


def test_a_game_is_settled_once_even_when_asked_twice(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        keys = ["account:1", "bot:hard"]
        assert settle(store, "g1", keys, [-1.0, 1.0], game="midway")
        first = [rating_of(store, k, "midway") for k in keys]
        assert not settle(store, "g1", keys, [-1.0, 1.0], game="midway")  # after a restart
        assert [rating_of(store, k, "midway") for k in keys] == first
        assert first[1].rating > 1500 > first[0].rating
        assert len(history(store, "account:1", "midway")) == 1
        assert settle(store, "g2", keys, [1.0, -1.0], game="midway")
        board = leaderboard(store, "midway")
        assert [p["games"] for p in board] == [2, 2]
        assert [h["game_id"] for h in history(store, "bot:hard", "midway")] == ["g1", "g2"]
        assert leaderboard(store, "huck-monster") == []  # ratings are per game
        for bad in (["account:1", "account:1"], ["me", "bot:hard"], ["account:1"]):
            with pytest.raises(ValueError):
                settle(store, "g3", bad, [1.0, -1.0], game="midway")
        assert rating_of(store, "account:1", "midway") is not None
        assert len(history(store, "account:1", "midway")) == 2
    finally:
        store.close()


def test_clients_cannot_name_players_and_rated_games_need_them(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", limits=NO_CLIENT_LIMITS)) as c:
        claim = c.post(
            "/api/games",
            json={"game": "midway", "mode": "online", "rated": True, "players": {"A": "account:1"}},
        )
        assert claim.status_code == 400 and "never by a request" in claim.json()["message"]
        anonymous = c.post("/api/games", json={"game": "midway", "mode": "online", "rated": True})
        assert anonymous.status_code == 400
        assert "needs a player for seat A" in anonymous.json()["message"]
        custom = c.post(
            "/api/games",
            json={
                "game": "midway",
                "mode": "bot",
                "rated": True,
                "bots": {"A": "easy", "B": "mcts:50"},
            },
        )
        assert custom.status_code == 400 and "bots are rated" in custom.json()["message"]
        mirror = c.post(
            "/api/games",
            json={
                "game": "midway",
                "mode": "bot",
                "rated": True,
                "bots": {"A": "easy", "B": "easy"},
            },
        )
        assert mirror.status_code == 400 and "different players" in mirror.json()["message"]
        assert c.get("/api/games").json()["games"] == []
        unknown = c.get("/api/ratings/chess")
        assert unknown.status_code == 404 and "no game 'chess'" in unknown.json()["message"]


@pytest.mark.slow
def test_a_rated_game_against_a_bot_that_ends_on_the_board_rates_both(tmp_path):
    """Two bot levels play it out: the server names their seats bot:easy and bot:medium
    itself, and the game's end (on the board) settles it."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", limits=NO_CLIENT_LIMITS)) as c:
        made = c.post(
            "/api/games",
            json={
                "game": "paper-ultimate",
                "settings": ["points_to_win=1"],  # a short game
                "mode": "bot",
                "rated": True,
                "bots": {"A": "easy", "B": "medium"},  # no seed: rated dice are the server's
            },
        )
        assert made.status_code == 201, made.text
        gid = made.json()["id"]
        board = c.get("/api/ratings/paper-ultimate").json()
        for _ in range(600):
            if c.get(f"/api/games/{gid}").json()["game"]["status"] == "finished":
                board = c.get("/api/ratings/paper-ultimate").json()
                if board["players"]:
                    break
            time.sleep(0.05)
        assert {p["player"] for p in board["players"]} == {"bot:easy", "bot:medium"}
        assert board["provisional_rd"] == PROVISIONAL_RD


def test_anchor_bots_rates_the_levels_and_a_second_run_adds_nothing(tmp_path):
    from typer.testing import CliRunner

    from monsterball.cli import app

    db = f"sqlite:///{tmp_path / 'r.db'}"
    args = ["ratings", "anchor-bots", "--game", "huck-monster", "--games", "2"]
    args += ["--levels", "easy,medium", "--db", db]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "2 games settled (0 were already in)" in first.output
    again = CliRunner().invoke(app, args)
    assert "0 games settled (2 were already in)" in again.output
    shown = CliRunner().invoke(app, ["ratings", "show", "huck-monster", "--db", db])
    assert "bot:medium" in shown.output and "bot:easy" in shown.output
    store = Store(db)
    try:
        board = leaderboard(store, "huck-monster")
    finally:
        store.close()
    assert [p["games"] for p in board] == [2, 2]
    bad = CliRunner().invoke(app, ["ratings", "anchor-bots", "--game", "hm", "--levels", "easy"])
    assert bad.exit_code == 2 and "--levels takes two or more" in bad.output
