"""``monsterball tui``, driven by Textual's pilot (App.run_test)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from monsterball.bots.protocol import RandomBot, bot_seed, play_game
from monsterball.bots.registry import make_bot
from monsterball.core.record import initial_state, read_record
from monsterball.games import get_game
from monsterball.terminal.tui import CELL, BoardView, GameApp


def pu_app() -> GameApp:
    spec = get_game("pu")
    state = spec.new_game(spec.options("small", first_receiver="A"))
    return GameApp(spec, state, bots={1: RandomBot(5)}, seed=3)


def human_moves(app: GameApp) -> list[str]:
    return [line for line in app.query_one("#events").lines if line.startswith("A:")]


@pytest.mark.slow
def test_keys_place_select_and_move() -> None:
    async def scenario() -> None:
        app = pu_app()
        async with app.run_test(size=(130, 40)) as pilot:
            for key in ["enter", "right", "enter", "right", "enter", "right", "enter"]:
                await pilot.press(key)
            assert human_moves(app) == [f"A: place {c}1" for c in "abcd"]
            board = app.query_one(BoardView)
            assert app.state.current_player() == 0  # A's running step after the pull
            await pilot.press("enter")  # the cursor is on d1: select A4
            assert board.selected == "A4" and "d2" in board.targets
            assert all("a4" in option.prompt.lower() for option in app.query_one("#moves").options)
            await pilot.press("up", "enter")  # d2: the one action naming A4 and d2
            assert human_moves(app)[-1] == "A: A4-d2"

    asyncio.run(scenario())


def test_dice_panel_shows_the_last_roll_and_its_probability() -> None:
    async def scenario() -> None:
        spec = get_game("pu")
        app = GameApp(spec, spec.new_game(spec.options("small")), bots={1: RandomBot(5)}, seed=3)
        async with app.run_test(size=(130, 40)):
            dice = str(app.query_one("#dice").content)
            assert "last roll: [b]toss=" in dice and "probability 1/2, 1 of 2 outcomes" in dice

    asyncio.run(scenario())


def test_mouse_clicks_a_cell() -> None:
    async def scenario() -> None:
        app = pu_app()
        async with app.run_test(size=(130, 40)) as pilot:
            board = app.query_one(BoardView)
            rows = board.drawing["rows"]
            # border + padding + row label, then CELL characters per column; row 1 at the
            # bottom (a square field: no half-cell shift).
            x, y = 2 + 3 + 2 * CELL + 1, 1 + (rows - 1)
            assert board.cell_at(x - 2, y - 1) == "c1"
            await pilot.click(BoardView, offset=(x, y))
            assert human_moves(app) == ["A: place c1"]

    asyncio.run(scenario())


def test_move_list_plays_any_action() -> None:
    async def scenario() -> None:
        app = pu_app()
        async with app.run_test(size=(130, 40)) as pilot:
            moves = app.query_one("#moves")
            moves.focus()
            # The first action is highlighted from the start: 'down' is the next one.
            await pilot.press("down", "enter")
            assert human_moves(app) == ["A: place b1"]

    asyncio.run(scenario())


@pytest.mark.slow
def test_replay_stepper(tmp_path) -> None:
    spec = get_game("pu")
    options = spec.options("small", points_to_win=1, max_throws=6)
    bots = [make_bot("random", bot_seed(4, s)) for s in range(2)]
    final, record, _ = play_game(spec, options, bots, 4, record=True)
    assert record is not None
    record = read_record(record.to_text())
    _, start = initial_state(record)
    actions = [spec.parse_action(e.action) for e in record.actions]

    async def scenario() -> None:
        app = GameApp(spec, start, replay=actions)
        async with app.run_test(size=(130, 45)) as pilot:
            await pilot.press("n", "n", "n")
            assert app.ply == 3
            expected = spec.new_game(options)
            for action in actions[:3]:
                expected.apply_unchecked(action)
            assert app.state.state_hash() == expected.state_hash()
            await pilot.press("p")
            assert app.ply == 2
            await pilot.press("end", "n")  # to the end, and no further
            assert app.ply == len(actions)
            assert app.state.state_hash() == final.state_hash()
            assert not app.query_one("#moves").options  # a replay plays nothing
            await pilot.press("home")
            assert app.ply == 0
            assert app.state.state_hash() == initial_state(record)[1].state_hash()

    asyncio.run(scenario())


@pytest.mark.slow
def test_hot_seat_hands_over_and_keeps_secrets() -> None:
    """Monsters of the Midway, two coaches at one terminal: after B's secret choice the board
    is covered until coach A is ready, and the event log never names the real counter."""
    from monsterball.terminal.tui import HandOver
    from tests.helpers.midway import SPEC, caster_carrying_for_b, top

    state = caster_carrying_for_b()

    async def scenario() -> None:
        app = GameApp(SPEC, state, bots={})
        async with app.run_test(size=(150, 45)) as pilot:
            assert app.screen_seat == 1
            while app.state.current_player() == 1 and not app.handing_over:
                legal = {a.notation(): a for a in app.state.legal_actions()}
                if "cast B1 mirror" in legal:
                    app.human_plays(legal["cast B1 mirror"])
                elif top(app.state) in ("PlaceImage", "PickReal"):
                    app.human_plays(app.state.legal_actions()[-1])
                else:
                    app.human_plays(legal["end"])
                await pilot.pause()
            assert app.handing_over and isinstance(app.screen, HandOver)
            await pilot.press("left", "n")  # the game's keys wait behind the cover
            await pilot.press("enter")
            assert not app.handing_over and app.screen_seat == app.state.current_player() == 0
            log = "\n".join(app.query_one("#events").lines)
            real_hex = app.state.field.name(app.state.pos[10])
            assert "chosen in secret" in log
            assert f"real {real_hex}" not in log

    asyncio.run(scenario())
