"""State deltas (web/live/delta.py, docs/web.md): a delta applied to the message a socket holds
gives exactly the message it would have been sent whole, for every chair and the spectators,
ply after ply of random games of every game (and after batches of dice), through the room's
own path (LiveGame.text_since); the other seat's deltas hide Midway's hidden caster
(MW-MAGIC-2, ruling MW-R10) as its whole messages do; and the WebSocket sends them."""

from __future__ import annotations

import json
import random

import pytest
from fastapi.testclient import TestClient

from monsterball.core.game import CHANCE
from monsterball.web.live import delta
from monsterball.web.live.game import LiveGame
from tests.helpers.web import app_at
from tests.web.live.test_hidden import GROUP, after_choice, live_before_the_secret_choice
from tests.web.live.test_shared_views import new_live

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class Socket:
    """A client that takes deltas: what it holds, rebuilt only from what it is sent."""

    def __init__(self, live: LiveGame, chair_name: str | None):
        self.chair = next((c for c in live.chairs if c.name == chair_name), None)
        self.seen: tuple[int, int] | None = None
        self.held: dict | None = None
        self.deltas = 0

    def tell(self, live: LiveGame) -> None:
        """As Rooms.broadcast tells a watcher taking deltas, checked against the whole text."""
        text = live.text_since(self.chair, self.seen)
        self.seen = live.view_mark()
        if text is None:
            assert self.held is not None
            assert json.dumps(self.held, separators=(",", ":"), ensure_ascii=False) == (
                live.text_for(self.chair)
            )
            return
        message = json.loads(text)
        if message["type"] == "delta":
            assert self.held is not None and message["from"] == self.held["game"]["ply"]
            assert message["ply"] == live.state.ply
            self.held = delta.apply(self.held, message["ops"])
            self.deltas += 1
            assert len(text) < len(live.text_for(self.chair))
        else:
            self.held = message
        # Byte for byte what the socket would have been sent whole.
        assert json.dumps(self.held, separators=(",", ":"), ensure_ascii=False) == (
            live.text_for(self.chair)
        )
        assert self.held == live.build_message(self.chair, fresh=True)


@pytest.mark.parametrize("mode", ["online", "hotseat"])
@pytest.mark.parametrize("game", ["paper-ultimate", "huck-monster", "midway"])
def test_deltas_rebuild_every_message_over_a_random_game(game, mode):
    live = new_live(game, mode)
    rng = random.Random(f"delta-{game}-{mode}")
    sockets = [Socket(live, c.name) for c in live.chairs] + [Socket(live, None)]
    for ply in range(100):
        if live.state.is_terminal():
            break
        # Sometimes several moves pass between messages (a batch of dice, a bot), and a
        # socket joins late or is told twice at one ply.
        if rng.random() < 0.8:
            for socket in sockets:
                socket.tell(live)
        if ply == 40:
            sockets.append(Socket(live, rng.choice([c.name for c in live.chairs])))
        if live.state.current_player() == CHANCE:
            action = live.roll()
        else:
            action = rng.choice(live.state.legal_actions())
        live.commit(action)
    for socket in sockets:
        socket.tell(live)
        socket.tell(live)  # nothing new: nothing sent
    assert all(s.deltas > 15 for s in sockets[:3]), [s.deltas for s in sockets]


@pytest.mark.parametrize("watcher", ["token-b", None])
def test_MW_R10_deltas_to_the_other_seat_are_identical_whatever_is_real(watcher):
    texts = set()
    for real in GROUP:
        live = live_before_the_secret_choice()
        chair = live.chair_for(watcher)
        live.text_for(chair)  # the message the socket holds before the choice
        seen = live.view_mark()
        live = after_choice_from(live, real)
        text = live.text_since(chair, seen)
        assert text is not None and json.loads(text)["type"] == "delta"
        texts.add(text)
    assert len(texts) == 1
    assert '"A1"' not in texts.pop()
    # ... while the caster's own seat is told where it really is.
    live = live_before_the_secret_choice()
    own = live.chair_for("token-a")
    live.text_for(own)
    seen = live.view_mark()
    live = after_choice_from(live, "g13")
    assert "g13" in (live.text_since(own, seen) or "")


def after_choice_from(live: LiveGame, real: str) -> LiveGame:
    """``after_choice``, on the room that built the messages before it (the deltas' base)."""
    chair = live.chair_for("token-a")
    live.commit(live.check_submission(chair, f"real {real}", live.state.ply))
    assert after_choice(real).message_for(None) == live.message_for(None)
    return live


def test_diff_and_apply_cover_the_op_kinds():
    old = {"a": 1, "b": [1, 2, 3, 4], "c": {"x": [1, 2], "y": "s"}, "d": [{"i": 1}, {"i": 2}]}
    new = {"a": True, "b": [3, 4, 5], "c": {"x": [1, 2, 9], "y": "t"}, "d": [{"i": 1}, {"i": 3}]}
    ops = delta.diff(old, new)
    assert [["a"], True] in ops  # 1 and True are different JSON
    assert [["b"], 2, [5]] in ops  # slid: two dropped, one added
    assert [["c", "x"], 0, [9]] in ops  # appended
    assert [["d", 1, "i"], 3] in ops
    assert delta.apply(old, ops) == new
    assert old["b"] == [1, 2, 3, 4]  # apply makes a new message
    assert delta.diff(new, new) == []
    with pytest.raises(ValueError):
        delta.apply(old, [["a"], 1, 2, 3])


def test_a_socket_asking_for_deltas_gets_them_and_a_whole_state_on_request(tmp_path):
    with TestClient(app_at(tmp_path / "games.db")) as client:
        made = client.post("/api/games", json={"game": "paper-ultimate", "mode": "online"})
        game = made.json()
        a, b = game["chairs"][0], game["chairs"][1]
        with (
            client.websocket_connect(f"/ws/{game['id']}?deltas=1") as ws_a,
            client.websocket_connect(f"/ws/{game['id']}?deltas=1") as ws_b,
        ):
            for ws, chair in ((ws_a, a), (ws_b, b)):
                assert ws.receive_json()["you"] is None  # spectators' state first
                ws.send_json({"type": "seat", "token": chair["token"]})
                assert ws.receive_json()["you"] == chair["name"]
            held = {"A": None, "B": None}
            for ws, name in ((ws_a, "A"), (ws_b, "B")):
                ws.send_json({"type": "state"})
                held[name] = ws.receive_json()
                assert held[name]["type"] == "state"
            rng = random.Random(3)
            for _ in range(12):
                mover = next(n for n, m in held.items() if m["legal"])
                ws = ws_a if mover == "A" else ws_b
                choice = rng.choice(held[mover]["legal"])["a"]
                ws.send_json({"type": "act", "action": choice, "ply": held[mover]["game"]["ply"]})
                for name, socket in (("A", ws_a), ("B", ws_b)):
                    message = socket.receive_json()
                    assert message["type"] == "delta", message
                    assert message["from"] == held[name]["game"]["ply"]
                    held[name] = delta.apply(held[name], message["ops"])
            for name, chair in (("A", a), ("B", b)):
                whole = client.get(f"/api/games/{game['id']}?token={chair['token']}").json()
                assert held[name] == whole
        # A socket that did not ask still gets whole messages.
        with client.websocket_connect(f"/ws/{game['id']}?token={a['token']}") as ws:
            assert ws.receive_json()["type"] == "state"
