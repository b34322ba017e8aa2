"""The public API at the top of the package (docs/api.md): every public name, its promises
(cheap import, no import order, notation in, clear errors, records that replay) and the
deprecation path for a renamed name."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import monsterball
from monsterball import api


def _fresh(code: str) -> str:
    """Run ``code`` in a new interpreter (nothing imported yet) and return what it prints."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _placed(game: monsterball.Game) -> None:
    """Play Huck + Monster's line-up (both teams place all seven) and the disc holder."""
    while not game.is_chance() and game.legal_actions()[0].notation().startswith("place"):
        game.apply(game.legal_actions()[0])


def test_import_monsterball_loads_none_of_the_engine() -> None:
    loaded = _fresh(
        "import sys, monsterball\n"
        "print(sorted(m for m in sys.modules if m.startswith('monsterball')))"
    )
    assert loaded == "['monsterball']"


def test_fast_is_cheap_and_agrees_with_the_engine() -> None:
    out = _fresh(
        "import sys, monsterball\n"
        "fast = monsterball.fast\n"
        "print(fast, sorted(m for m in sys.modules if m.startswith('monsterball')))\n"
        "print(all(monsterball.kernels().values()))"
    )
    first, second = out.splitlines()
    fast, loaded = first.split(" ", 1)
    assert loaded in (
        "['monsterball', 'monsterball.core', 'monsterball.core._fastgeo', "
        "'monsterball.core.kernels']",
        "['monsterball', 'monsterball.core', 'monsterball.core.kernels']",  # not built
    )
    assert fast == second


def test_get_game_needs_no_import_order() -> None:
    """Issue 36: this raised UnknownGameError with an empty list of known games."""
    out = _fresh(
        "from monsterball.core.registry import get_game, all_games\n"
        "print(get_game('huck-monster').title, len(all_games()))"
    )
    assert out == "Huck + Monster 3"


def test_games_lists_the_three_and_the_package_stays_a_package() -> None:
    assert [spec.id for spec in monsterball.games()] == ["huck-monster", "midway", "paper-ultimate"]
    assert monsterball.games.midway.SPEC.id == "midway"  # type: ignore[attr-defined]
    assert monsterball.get_game("HM") is monsterball.get_game("huck-monster")


def test_every_public_name_resolves_and_unknown_names_raise() -> None:
    for name in monsterball.__all__:
        assert getattr(monsterball, name) is not None, name
    assert set(monsterball.__all__) <= set(dir(monsterball))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = monsterball.nope  # type: ignore[attr-defined]
    assert monsterball.CHANCE == -1 and monsterball.TERMINAL == -2
    for error in ("NotationError", "IllegalActionError", "OptionsError", "RecordError"):
        assert issubclass(getattr(monsterball, error), monsterball.MonsterballError)


def test_type_checkers_see_every_lazy_name() -> None:
    """The names ``__getattr__`` loads are the names the ``TYPE_CHECKING`` block imports, so
    mypy and editors (py.typed) know each one's type."""
    import ast

    tree = ast.parse(Path(monsterball.__file__).read_text(encoding="utf-8"))
    (block,) = [
        n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test)
    ]
    seen = {
        a.asname or a.name for n in block.body if isinstance(n, ast.ImportFrom) for a in n.names
    }
    seen |= {ast.unparse(n.target) for n in block.body if isinstance(n, ast.AnnAssign)}
    assert seen == set(monsterball._LAZY) | {"fast"}


def test_the_version_is_the_installed_distributions() -> None:
    assert monsterball.__version__ == importlib.metadata.version("monsterball")


def test_version_says_which_engine_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from monsterball.cli import app

    said = CliRunner().invoke(app, ["--version"]).output.strip()
    engine = "compiled kernels" if monsterball.fast else "pure Python"
    assert said.startswith(f"monsterball {monsterball.__version__}, {engine}")
    monkeypatch.delenv("MONSTERBALL_PURE", raising=False)
    monkeypatch.setattr(monsterball, "_fast", False)  # as when a kernel was not built
    monkeypatch.setattr(monsterball, "kernels", lambda: {"a._one": True, "b._two": False})
    said = CliRunner().invoke(app, ["--version"]).output.strip()
    assert said.endswith("pure Python for _two: compiled kernels not built")


def test_a_renamed_name_warns_and_still_works(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(monsterball._RENAMED, "start_game", ("new_game", "0.2.0"))
    with pytest.warns(DeprecationWarning, match=r"monsterball.start_game is renamed .*new_game"):
        start = monsterball.start_game  # type: ignore[attr-defined]
    assert start is monsterball.new_game


def test_new_game_takes_a_preset_options_and_a_seed() -> None:
    game = monsterball.new_game("huck-monster", preset="scrimmage", seed=7, callahans=True)
    assert game.spec.id == "huck-monster" and game.seed == 7
    assert game.state.options.points_to_win == 3  # type: ignore[attr-defined]
    assert game.state.options.callahans is True  # type: ignore[attr-defined]
    assert game.record.seed == 7 and game.record.options["callahans"] is True
    with pytest.raises(monsterball.UnknownGameError, match="known games: huck-monster"):
        monsterball.new_game("hockey")
    with pytest.raises(monsterball.OptionsError, match="unknown preset 'nope'"):
        monsterball.new_game("midway", preset="nope")


def test_gamespec_new_game_takes_a_preset_and_says_where_the_seed_goes() -> None:
    """Issue 36: ``GameSpec.new_game(seed=1)`` was a bare TypeError."""
    spec = monsterball.get_game("huck-monster")
    state = spec.new_game(preset="scrimmage", callahans=True)
    assert state.options == spec.options("scrimmage", callahans=True)
    with pytest.raises(TypeError, match=r"no dice: monsterball.new_game\(game, preset, seed"):
        spec.new_game(seed=1)
    with pytest.raises(TypeError, match="not both"):
        spec.new_game(spec.options(), preset="scrimmage")


def test_the_same_seed_and_decisions_give_the_same_game() -> None:
    texts = []
    for _ in range(2):
        game = monsterball.new_game("paper-ultimate", preset="small", seed=11)
        game.play(monsterball.bots.make("random", seed=3))
        texts.append(game.record.to_text())
    assert texts[0] == texts[1]
    assert game.is_terminal() and sorted(game.returns()) == [-1.0, 1.0]


def test_apply_reads_notation_and_refuses_an_illegal_action_unchanged() -> None:
    game = monsterball.new_game("huck-monster", preset="scrimmage", seed=7)
    events = game.apply("place c3")
    assert game.ply == 1 and game.record.actions[-1].action == "place c3"
    assert [(type(e).__name__, e.cell) for e in events] == [("Placed", "c3")]  # type: ignore[attr-defined]
    before = game.to_position()
    with pytest.raises(monsterball.IllegalActionError):
        game.apply("place c3")  # taken
    with pytest.raises(monsterball.NotationError):
        game.apply("fly to the moon")
    with pytest.raises(ValueError, match="no dice to roll: team A is to act"):
        game.roll()
    assert game.to_position() == before and len(game.record.actions) == 1
    # The engine's own state reads notation too.
    state = game.state.clone()
    state.apply("place d3")
    assert state.ply == 2


def test_acting_for_the_wrong_seat_or_after_the_end_is_refused() -> None:
    game = monsterball.new_game("paper-ultimate", preset="small", seed=2)
    game.roll()
    seat = game.current_player()
    other = game.spec.seat_name(1 - seat)
    with pytest.raises(monsterball.WrongSeatError, match=f"it is not {other}'s turn"):
        game.apply(game.legal_actions()[0], seat=1 - seat)
    game.play(monsterball.bots.make("random"))
    assert game.current_player() == monsterball.TERMINAL and game.legal_actions() == []
    with pytest.raises(monsterball.GameOverError, match="the game is over"):
        game.apply("end")
    with pytest.raises(ValueError, match="no dice to roll: nobody"):
        game.roll()
    assert game.record.end is not None and game.record.end["plies"] == game.ply


def test_chance_outcomes_are_exact_and_roll_follows_the_seed() -> None:
    game = monsterball.new_game("huck-monster", preset="scrimmage", seed=7)
    _placed(game)
    game.apply(game.legal_actions()[0])  # B's disc holder
    while not game.is_chance():
        game.apply(game.legal_actions()[0])
    outcomes = game.chance_outcomes()
    assert outcomes and sum(p for _, p in outcomes) == Fraction(1)
    assert game.current_player() == monsterball.CHANCE
    assert game.legal_actions() == [a for a, _ in outcomes]
    twin = monsterball.new_game("huck-monster", preset="scrimmage", seed=7)
    for entry in game.record.actions:
        twin.apply(entry.action)
    assert game.roll() == twin.roll()


def test_a_chance_outcome_chosen_by_hand_is_recorded_as_such() -> None:
    game = monsterball.new_game("paper-ultimate", preset="small", seed=5)
    assert game.is_chance()
    game.apply(game.chance_outcomes()[-1][0])
    assert game.record.seed is None  # the record no longer claims the seed rolled it
    report = monsterball.replay(game.record)
    assert report.ok


def test_render_view_and_board_show_the_field() -> None:
    game = monsterball.new_game("paper-ultimate", preset="small", seed=1)
    game.roll()
    assert "A" in game.render() and isinstance(game.view(), dict)
    assert game.board()["grid"] == "square"
    assert repr(game).startswith("<Game paper-ultimate ply=1")


def test_records_write_read_replay_and_play_on_with_the_same_dice(tmp_path: Path) -> None:
    bots = [monsterball.bots.make("random", seed=1), monsterball.bots.make("random", seed=2)]
    whole = monsterball.new_game("midway", preset="short", seed=4)
    whole.play(bots)

    bots = [monsterball.bots.make("random", seed=1), monsterball.bots.make("random", seed=2)]
    half = monsterball.new_game("midway", preset="short", seed=4, players={"A": "x"})
    for _ in range(120):
        half.roll() if half.is_chance() else half.apply(
            bots[half.current_player()].choose(half.state, half.current_player())
        )
    path = tmp_path / "half.jsonl"
    monsterball.write_record(half, path)
    record = monsterball.read_record(str(path))
    assert isinstance(record, monsterball.GameRecord) and len(record.actions) == 120
    assert record.players == {"A": "x"}
    assert monsterball.replay(record).ok
    resumed = monsterball.load_game(path)
    assert resumed.to_position() == half.to_position()
    resumed.play(bots)  # the bots' generators went on from where they were
    assert resumed.record.to_text().split("\n")[1:] == whole.record.to_text().split("\n")[1:]
    with path.open() as handle:
        assert monsterball.read_record(handle).actions == record.actions


def test_a_broken_record_is_refused_naming_the_line(tmp_path: Path) -> None:
    game = monsterball.new_game("paper-ultimate", preset="small", seed=2)
    game.play(monsterball.bots.make("random"))
    lines = game.record.to_text().splitlines()
    lines[5] = lines[5].replace('"action":"', '"action":"x')
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(monsterball.MonsterballError):
        monsterball.load_game(path)
    with pytest.raises(monsterball.RecordError, match="line 1"):
        monsterball.read_record(_write(tmp_path / "junk.jsonl", "not json\n"))


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_positions_round_trip_and_bad_ones_name_the_problem() -> None:
    game = monsterball.new_game("huck-monster", preset="scrimmage", seed=7)
    _placed(game)
    position = game.to_position()
    for data in (position, json.dumps(position)):
        copy = monsterball.from_position(data, seed=7)
        assert copy.state == game.state and copy.record.start == position
    with pytest.raises(monsterball.PositionError, match="must be JSON"):
        monsterball.from_position("{oops")
    with pytest.raises(monsterball.PositionError, match="game id"):
        monsterball.from_position({"game": 3})
    with pytest.raises(monsterball.PositionError, match="missing 'board'"):
        monsterball.from_position({k: v for k, v in position.items() if k != "board"})


def test_bots_make_by_difficulty_or_name() -> None:
    assert [monsterball.bots.make(n).name for n in ("easy", "medium", "hard")] == [
        "random",
        "heuristic",
        "hard",
    ]
    assert monsterball.bots.make("mcts:20", seed=1).name == "mcts:20"
    with pytest.raises(ValueError, match="known bots: easy, medium, hard, heuristic"):
        monsterball.bots.make("grandmaster")
    with pytest.raises(ValueError, match="bad budget"):
        monsterball.bots.make("mcts:lots")
    game = monsterball.new_game("paper-ultimate", preset="small", seed=3)
    game.play([None, monsterball.bots.make("medium")])  # stops when team A is to act
    assert game.current_player() == 0


def test_the_lab_simulates_and_sweeps() -> None:
    summary = monsterball.lab.simulate("paper-ultimate", 4, preset="small", seed=1)
    assert sum(summary.wins) + summary.draws == 4  # type: ignore[attr-defined]
    result = monsterball.lab.sweep(
        "paper-ultimate",
        [{"points_to_win": 1}, {"points_to_win": 2}],
        2,
        bots=["random", "random"],
        preset="small",
        jobs=1,
    )
    assert len(result.settings) == 2  # type: ignore[attr-defined]


def test_the_api_module_names_match_the_package_names() -> None:
    for name in api.__all__:
        assert getattr(monsterball, name) is getattr(api, name)
