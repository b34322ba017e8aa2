"""Issue 35 item 8 (and 2, 11): the TUI's keys do what its footer says, ``q`` asks before
leaving a game, ``--save`` keeps the game, the Midway draft shows its chart, and a record
that does not replay is refused in one line before the app opens."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

pytest.importorskip("textual")

from typer.testing import CliRunner

from monsterball.bots.protocol import RandomBot, play_game
from monsterball.bots.registry import make_bot
from monsterball.cli import app as cli
from monsterball.core.record import Recorder, read_record, replay
from monsterball.games import get_game
from monsterball.terminal.tui import BoardView, ConfirmLeave, GameApp


def footer_keys(app: GameApp) -> set[str]:
    return {binding.key for _, binding, enabled, _ in app.active_bindings.values() if enabled}


def pu_turnover_state():
    """Paper Ultimate with A's thrower and nobody free: 'turnover' is A's only action
    (PU-R12, "If the thrower does not find a free player, a turn occurs")."""
    spec = get_game("pu")
    options = spec.options("small", first_receiver="A", max_throws=4)
    for seed in range(200):
        state = spec.new_game(options)
        _, record, _ = play_game(spec, options, [RandomBot(seed), RandomBot(seed + 1)], seed,
                                     record=True)  # fmt: skip
        assert record is not None
        for entry in record.actions:
            if entry.action == "turnover":
                return state
            actor = state.current_player()
            state.apply(spec.parse_action(entry.action), seat=None if actor < 0 else actor)
    raise AssertionError("no game with a turnover")


@pytest.mark.slow
def test_tab_then_enter_plays_the_first_listed_action() -> None:
    async def scenario() -> None:
        spec = get_game("pu")
        state = pu_turnover_state()
        assert [a.notation() for a in state.legal_actions()] == ["turnover"]
        seat = state.current_player()
        bots = {s: RandomBot(1) for s in range(2) if s != seat}
        app = GameApp(spec, state, bots=bots, seed=1)
        async with app.run_test(size=(130, 40)) as pilot:
            await pilot.press("tab")
            assert app.query_one("#moves").has_focus
            await pilot.press("enter")
            await pilot.pause()
            log = "\n".join(app.query_one("#events").lines)
            assert f"{spec.seat_name(seat)}: turnover" in log
            assert app.query_one(BoardView).has_focus  # back to the board after a move

    asyncio.run(scenario())


@pytest.mark.slow
def test_footer_shows_tab_and_replay_keys_only_in_a_replay(tmp_path: Path) -> None:
    async def scenario() -> None:
        spec = get_game("pu")
        live = GameApp(spec, spec.new_game(spec.options("small")), bots={1: RandomBot(5)}, seed=3)
        async with live.run_test(size=(130, 40)):
            keys = footer_keys(live)
            assert "tab" in keys and "q" in keys
            assert not {"n", "p", "home", "end"} & keys
        options = spec.options("small", points_to_win=1, max_throws=4)
        _, record, _ = play_game(spec, options, [RandomBot(1), RandomBot(2)], 4, record=True)
        assert record is not None
        actions = [spec.parse_action(e.action) for e in record.actions]
        viewer = GameApp(spec, spec.new_game(options), replay=actions)
        async with viewer.run_test(size=(130, 40)) as pilot:
            assert {"n", "p", "home", "end"} <= footer_keys(viewer)
            await pilot.press("right", "right", "left")  # the arrows step a replay too
            assert viewer.ply == 1

    asyncio.run(scenario())


def test_q_asks_before_leaving_a_game_in_play() -> None:
    async def scenario() -> None:
        spec = get_game("pu")
        app = GameApp(spec, spec.new_game(spec.options("small")), bots={1: RandomBot(5)}, seed=3)
        async with app.run_test(size=(130, 40)) as pilot:
            await pilot.press("q")
            assert isinstance(app.screen, ConfirmLeave)
            await pilot.press("enter", "n")  # Enter plays nothing behind the question
            assert not isinstance(app.screen, ConfirmLeave) and app.is_running
            assert not [line for line in app.query_one("#events").lines if line.startswith("A:")]
            await pilot.press("q", "y")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(scenario())


def test_save_writes_the_game_as_it_is_played(tmp_path: Path) -> None:
    spec = get_game("pu")
    state = spec.new_game(spec.options("small", first_receiver="A"))
    save = tmp_path / "tui.jsonl"

    async def scenario() -> None:
        with save.open("w", encoding="utf-8") as stream:
            recorder = Recorder(state, seed=3, players={"A": "human", "B": "random"}, stream=stream)
            app = GameApp(spec, state, bots={1: RandomBot(5)}, seed=3, recorder=recorder)
            async with app.run_test(size=(130, 40)) as pilot:
                await pilot.press("enter", "right", "enter")  # place a1, place b1

    asyncio.run(scenario())
    record = read_record(save)
    assert [e.action for e in record.actions if e.by == "A"][:2] == ["place a1", "place b1"]
    assert replay(record, verify=True).divergence is None
    keep = tmp_path / "keep.jsonl"
    keep.write_text("a game\n", encoding="utf-8")
    refused = CliRunner().invoke(cli, ["tui", "pu", "--save", str(keep)])
    assert refused.exit_code == 2 and "--force" in refused.output
    assert keep.read_text(encoding="utf-8") == "a game\n"


def test_midway_draft_shows_the_chart_and_points_left() -> None:
    async def scenario() -> None:
        spec = get_game("midway")
        app = GameApp(spec, spec.new_game(spec.options()), bots={1: make_bot("random", 1)})
        async with app.run_test(size=(160, 45)):
            shown = str(app.query_one(BoardView).render())
            assert "Draft chart" in shown and "points left" in shown and "storm-giant" in shown

    asyncio.run(scenario())


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    spec = get_game("pu")
    options = spec.options("small", points_to_win=1, max_throws=4)
    _, record, _ = play_game(spec, options, [RandomBot(1), RandomBot(2)], 4, record=True)
    assert record is not None
    path = tmp_path / "game.jsonl"
    path.write_text(record.to_text(), encoding="utf-8")
    return path


def test_tampered_replay_is_refused_before_the_app_opens(finished: Path, tmp_path: Path) -> None:
    lines = finished.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if '"by":"A"' in line.replace(" ", ""))
    entry = json.loads(lines[number])
    entry["action"] = "place a18"  # not A's end zone: not a legal set-up (PU-SET-1)
    lines[number] = json.dumps(entry)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["tui", "--replay", str(tampered)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.output.strip().startswith("error: ") and len(result.output.splitlines()) == 1
    assert f"line {number + 1}" in result.output


def test_replay_of_another_game_is_refused(finished: Path) -> None:
    result = CliRunner().invoke(cli, ["tui", "hm", "--replay", str(finished)])
    assert (
        result.exit_code == 2 and "is a game of paper-ultimate, not huck-monster" in result.output
    )


def test_the_board_has_a_legend_and_names_the_carrier_in_full() -> None:
    """MW-R10's brownie B1 carries the ball: the TUI draws 'B1' in the carrier's colours,
    never 'B*' (Midway has A10 and B10 too), with the legend under the field."""
    from tests.helpers.midway import SPEC, caster_carrying_for_b

    async def scenario() -> None:
        app = GameApp(SPEC, caster_carrying_for_b(), bots={0: make_bot("random", 1)})
        async with app.run_test(size=(160, 50)):
            shown = app.query_one(BoardView).render()
            assert "yellow, underlined: has the ball" in shown.plain
            assert "B*" not in shown.plain and "B1" in shown.plain
            carrier = [span for span in shown.spans if "underline" in str(span.style)]
            assert any(shown.plain[span.start : span.end].strip() == "B1" for span in carrier)

    asyncio.run(scenario())
