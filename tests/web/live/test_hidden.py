"""What the server sends each seat of Monsters of the Midway hides what the rules hide
(MW-MAGIC-2, MW-MAGIC-4, MW-MAGIC-8, rulings MW-R10, MW-R11): the other seat's and the
spectators' messages are identical whichever counter is the real caster."""

from __future__ import annotations

import json

import pytest

from monsterball.web.live.game import LiveGame
from monsterball.web.store.games import GameRow
from tests.helpers.midway import (
    SPEC,
    act,
    defending_caster,
    mirror_play,
    pass_to_hidden,
    setup,
    start_phase,
)

GROUP = ("f12", "g12", "g13", "h12")
CHAIRS = [
    {"name": "A", "seat": 0, "kind": "human", "bot": None, "token": "token-a"},
    {"name": "B", "seat": 1, "kind": "human", "bot": None, "token": "token-b"},
]


def live_before_the_secret_choice(mode: str = "online") -> LiveGame:
    state = mirror_play(real=None)
    row = GameRow(
        id="hidden",
        game=SPEC.id,
        preset=None,
        rules_version=SPEC.rules_version,
        options=state.options.to_dict(),
        seed=1,
        start=state.to_position(),
        mode=mode,
        chairs=CHAIRS,
        status="playing",
        result="",
        plies=0,
    )
    return LiveGame.start(row)


def after_choice(real: str, mode: str = "online") -> LiveGame:
    live = live_before_the_secret_choice(mode)
    chair = live.chair_for("token-a")
    live.commit(live.check_submission(chair, f"real {real}", live.state.ply))
    return live


@pytest.mark.parametrize("watcher", ["token-b", None])
def test_MW_R10_other_seat_and_spectators_get_identical_messages_whatever_is_real(watcher):
    messages = set()
    for real in GROUP:
        live = after_choice(real)
        message = live.message_for(live.chair_for(watcher))
        messages.add(json.dumps(message, sort_keys=True))
    assert len(messages) == 1
    message = json.loads(messages.pop())
    assert "A1" not in {p["id"] for p in message["board"]["pieces"]}
    assert message["board"]["ball"] is None  # carried by the hidden caster
    assert sorted(m["cell"] for m in message["board"]["marks"] if m["kind"] == "image") == sorted(
        GROUP
    )
    assert message["log"][-1]["action"].startswith("real (")


def test_MW_R10_the_casters_own_seat_sees_the_truth():
    live = after_choice("g13")
    mine = live.message_for(live.chair_for("token-a"))
    a1 = next(p for p in mine["board"]["pieces"] if p["id"] == "A1")
    assert a1["cell"] == "g13"
    assert mine["log"][-1]["action"] == "real g13"


def test_MW_R10_the_other_seats_legal_moves_are_identical_whatever_is_real():
    legal = set()
    for real in GROUP:
        live = after_choice(real)
        chair_a = live.chair_for("token-a")
        live.commit(live.check_submission(chair_a, "end", live.state.ply))
        message = live.message_for(live.chair_for("token-b"))
        assert message["legal"], "the defense moves next"
        legal.add(json.dumps(message["legal"]))
    assert len(legal) == 1


def live_defending_caster(real: str) -> LiveGame:
    """B1 (a brownie, defending) hides among the counters on h12 and i12; A to move."""
    return _live(defending_caster(real))


def _live(state) -> LiveGame:
    row = GameRow(
        id="hidden-defense",
        game=SPEC.id,
        preset=None,
        rules_version=SPEC.rules_version,
        options=state.options.to_dict(),
        seed=1,
        start=state.to_position(),
        mode="online",
        chairs=CHAIRS,
        status="playing",
        result="",
        plies=0,
    )
    return LiveGame.start(row)


@pytest.mark.parametrize("watcher", ["token-a", None])
def test_MW_R10_the_tackle_question_for_a_hidden_caster_shows_nothing(watcher):
    """The carrier steps next to the counter on h12 only. Whether B1 is really there (and
    may tackle) or on i12 (and may only say no), the defense is asked, and the carrier's
    coach and the spectators get byte-identical messages."""
    messages, asked = set(), []
    for real in ("h12", "i12"):
        live = live_defending_caster(real)
        live.commit(live.check_submission(live.chair_for("token-a"), "A1-h11", live.state.ply))
        asked.append(json.dumps(live.message_for(live.chair_for("token-b"))["legal"]))
        messages.add(json.dumps(live.message_for(live.chair_for(watcher)), sort_keys=True))
    assert len(messages) == 1
    assert json.loads(messages.pop())["board"]["panel"][-1] == ["Now", "team B's tackle attempts"]
    assert asked[0] != asked[1]  # only B's own seat learns whether B1 can tackle


@pytest.mark.parametrize("watcher", ["token-a", None])
def test_MW_R11_the_tackle_question_for_an_invisible_player_shows_nothing(watcher):
    """B3 (a pixie) turns invisible on g14 and moves unseen next to the carrier (h11) or
    away (g16); when B ends its phase B is asked either way, and A's seat and the
    spectators get byte-identical messages."""
    messages = set()
    for where in ("h11", "g16"):
        state = setup(
            {"A1": "g10", "B3": "g14", "B2": "m20"},
            types={"B3": "pixie"},
            carrier="A1",
            los="g10",
        )
        start_phase(state, 0)
        act(state, "end", "cast B3 invisible", f"appear {where}")
        live = _live(state)
        live.commit(live.check_submission(live.chair_for("token-b"), "end", live.state.ply))
        messages.add(json.dumps(live.message_for(live.chair_for(watcher)), sort_keys=True))
    assert len(messages) == 1
    assert json.loads(messages.pop())["board"]["panel"][-1] == ["Now", "team B's tackle attempts"]


@pytest.mark.parametrize("watcher", ["token-a", None])
def test_MW_R21_a_pass_landing_on_a_counter_shows_nothing(watcher):
    """A1's pass comes down on g14, where one of B1's two counters stands (the other on
    h14). Whichever is real, B is asked whether B1 tries to intercept; A's seat and the
    spectators get byte-identical messages, before B's answer and after 'no'."""
    asked, before, after = [], set(), set()
    for real in ("g14", "h14"):
        live = _live(pass_to_hidden(real))
        chair_b = live.chair_for("token-b")
        live.commit(live.check_submission(chair_b, "end", live.state.ply))
        asked.append(json.dumps(live.message_for(chair_b)["legal"]))
        before.add(json.dumps(live.message_for(live.chair_for(watcher)), sort_keys=True))
        live.commit(live.check_submission(chair_b, "no", live.state.ply))
        after.add(json.dumps(live.message_for(live.chair_for(watcher)), sort_keys=True))
    assert len(before) == 1 and len(after) == 1
    panel = json.loads(before.pop())["board"]["panel"]
    assert panel[-1] == ["Now", "team B deciding on a hidden interception"]
    assert asked[0] != asked[1]  # only B's own seat learns whether B1 may try
