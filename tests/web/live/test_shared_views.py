"""The state messages a room builds once per ply and shares (web/live/game.py) equal messages
built afresh, for every chair and the spectators, move after move: over random games of each
game, and over Midway's hidden choice (MW-MAGIC-2, ruling MW-R10), where the seats see
different boards."""

from __future__ import annotations

import json
import random

import pytest

from monsterball.core.game import CHANCE
from monsterball.core.registry import get_game
from monsterball.web.live.game import LiveGame
from monsterball.web.store.games import GameRow
from tests.web.live.test_hidden import GROUP, after_choice, live_before_the_secret_choice

CHAIRS = [
    {"name": "A", "seat": 0, "kind": "human", "bot": None, "token_hash": "a"},
    {"name": "B", "seat": 1, "kind": "human", "bot": None, "token_hash": "b"},
]


def new_live(game: str, mode: str) -> LiveGame:
    spec = get_game(game)
    row = GameRow(
        id="shared",
        game=spec.id,
        preset=None,
        rules_version=spec.rules_version,
        options=spec.options(None).to_dict(),
        seed=7,
        start=None,
        mode=mode,
        chairs=CHAIRS,
        status="playing",
        result="",
        plies=0,
    )
    return LiveGame.start(row)


def check_views(live: LiveGame, rng: random.Random) -> None:
    """Every recipient's shared message and text equal a fresh build, asked in any order."""
    recipients = [*live.chairs, None]
    rng.shuffle(recipients)
    for chair in recipients:
        fresh = live.build_message(chair, fresh=True)
        assert live.message_for(chair) == fresh, chair
        text = live.text_for(chair)
        assert text == json.dumps(fresh, separators=(",", ":"), ensure_ascii=False)
        assert live.message_for(chair) is live.message_for(chair)  # built once per ply


@pytest.mark.parametrize("mode", ["online", "hotseat"])
@pytest.mark.parametrize("game", ["paper-ultimate", "huck-monster", "midway"])
def test_shared_messages_equal_fresh_ones_over_a_random_game(game, mode):
    live = new_live(game, mode)
    rng = random.Random(f"{game}-{mode}")
    for _ in range(80):
        if live.state.is_terminal():
            break
        check_views(live, rng)
        if live.state.current_player() == CHANCE:
            action = live.roll()
        else:
            action = rng.choice(live.state.legal_actions())
        live.commit(action)
    check_views(live, rng)


@pytest.mark.parametrize("real", GROUP)
def test_MW_R10_shared_messages_keep_the_real_caster_to_its_seat(real):
    rng = random.Random(real)
    before = live_before_the_secret_choice()
    check_views(before, rng)
    live = after_choice(real)
    # The seat that chose is asked first: the others' messages must not reuse its board.
    for chair in [live.chair_for("token-a"), live.chair_for("token-b"), None]:
        fresh = live.build_message(chair, fresh=True)
        assert live.message_for(chair) == fresh
    seat_a = live.message_for(live.chair_for("token-a"))
    seat_b = live.message_for(live.chair_for("token-b"))
    spectator = live.message_for(None)
    assert seat_a["board"] != seat_b["board"]  # A sees which counter is real; B does not
    assert seat_b["board"] == spectator["board"]
    check_views(live, rng)


@pytest.mark.parametrize("game", ["paper-ultimate", "huck-monster", "midway"])
def test_a_game_drawn_once_for_every_seat_shows_every_seat_the_same(game):
    """A game without hidden information (``spec.hidden_information``; one board drawing
    per move for all seats, web/live/game.py) is one where every seat's board and text are the
    same, move after move; Midway's hidden caster (MW-MAGIC-2) keeps it per seat."""
    spec = get_game(game)
    assert spec.hidden_information == (game == "midway")
    if game == "midway":
        return
    state = spec.new_game(spec.options(None))
    rng = random.Random(game)
    for _ in range(300):
        if state.is_terminal():
            break
        seen = {json.dumps([state.board(s), state.render(s)]) for s in (0, 1, None)}
        assert len(seen) == 1, state.ply
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply(rng.choice(state.legal_actions()))
