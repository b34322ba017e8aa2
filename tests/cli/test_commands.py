"""The ``monsterball`` command line: listing, terminal play, replay and simulation."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from monsterball.bots.protocol import Bot, bot_seed, play_game
from monsterball.bots.registry import make_bot
from monsterball.cli import app
from monsterball.core.dice import SeededSampler
from monsterball.core.game import CHANCE, GameSpec, GameState
from monsterball.core.options import GameOptions
from monsterball.core.record import read_record
from monsterball.games import get_game
from monsterball.terminal.line_game import wrap_notations

SPEC = get_game("paper-ultimate")
# A small pitch and a throw cap keep a whole game to about a hundred plies.
SMALL = ["--preset", "small", "--opt", "max_throws=4"]
OPTIONS = SPEC.options("small", max_throws=4)


def invoke(*args: str, input: str | None = None) -> Result:
    # A wide terminal keeps rich tables from folding the words the tests look for.
    result = CliRunner().invoke(app, list(args), input=input, env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def scripted_game(
    seed: int, bots: dict[int, Bot], spec: GameSpec = SPEC, options: GameOptions = OPTIONS
) -> tuple[list[str], GameState]:
    """The lines a human would type to play the game ``play --seed seed`` shows: the same
    dice (SeededSampler(seed)) and bots, random choices for the human seats, and no line
    where the CLI plays a forced action by itself."""
    state = spec.new_game(options)
    sampler = SeededSampler(seed)
    rng = random.Random(seed)
    lines = []
    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            action = sampler.choose(state.chance_outcomes())
        elif actor in bots:
            action = bots[actor].choose(state, actor)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if len(legal) > 1:
                lines.append(action.notation())
        state.apply(action)
    return lines, state


# -- games / rules ------------------------------------------------------------------------


def test_games_lists_the_registry() -> None:
    result = invoke("games")
    assert result.exit_code == 0
    for text in ("paper-ultimate", "Paper Ultimate", "ultimade", "no-monster"):
        assert text in result.output


def test_rules_shows_options_and_presets() -> None:
    result = invoke("rules", "pu")
    assert result.exit_code == 0
    for text in (
        "monster_defense",
        "die | coins | off",
        "PU-R8",
        "5..26",
        "true | false",
        "small",
        "width=7, length=14",
        "first to 3",
        "PU-R12",
        "turnover",
    ):
        assert text in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "calvinball"], "unknown game 'calvinball'; known games: "),
        (["play", "calvinball"], "unknown game 'calvinball'"),
        (["play", "pu", "--opt", "colour=red"], "unknown option 'colour'"),
        (["play", "pu", "--opt", "width"], "must look like key=value"),
        (["play", "pu", "--opt", "width=99"], "option 'width' must be at most 26"),
        (["play", "pu", "--preset", "tiny"], "unknown preset 'tiny'"),
        (["play", "pu", "--bot", "deep-blue"], "unknown bot 'deep-blue'"),
        (["play", "pu", "--seat", "C"], "unknown seat 'C'"),
        (["simulate", "calvinball"], "unknown game"),
        (["simulate", "pu", "--opt", "switch_ends=maybe"], "must be true or false"),
        (["simulate", "pu", "--bots", "random"], "give 2 comma-separated bots"),
        (["simulate", "pu", "--bots", "random,hal"], "unknown bot 'hal'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.output


# -- play ---------------------------------------------------------------------------------


def test_bad_input_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    save = tmp_path / "partial.jsonl"
    script = "xyz\nend\nd6=4\n?\nhelp\nboard\nquit\n"
    result = invoke("play", "pu", "--seed", "5", "--save", str(save), *SMALL, input=script)
    assert result.exit_code == 0
    out = result.output
    assert "Seed 5" in out
    assert "Cannot read that: 'xyz' is not an action" in out
    assert "Not allowed: 'end' is not possible during team A's set-up" in out
    assert "Not allowed: 'd6=4'" in out
    assert "legal actions:" in out and "place a1, place b1" in out
    assert "? A3  ? e5" in out
    assert "Game left after" in out
    record = read_record(save)
    assert record.end is None
    assert record.seed == 5
    assert record.players == {"A": "human", "B": "heuristic"}  # the default bot
    # Only the dice and the bot moved: none of the bad lines reached the record.
    assert all(entry.by != "A" for entry in record.actions)


def test_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    save = tmp_path / "eof.jsonl"
    result = invoke("play", "pu", "--seed", "5", "--save", str(save), *SMALL, input="place a1\n")
    assert result.exit_code == 0
    assert "End of input: leaving the game." in result.output
    record = read_record(save)
    assert any(entry.by == "A" and entry.action == "place a1" for entry in record.actions)
    replayed = invoke("replay", str(save), "--verify")
    assert replayed.exit_code == 0
    assert "no end line" in replayed.output


def test_random_seed_is_announced() -> None:
    result = invoke("play", "pu", *SMALL, input="quit\n")
    assert result.exit_code == 0
    assert "Seed " in result.output and "--seed" in result.output


WHOLE_GAMES = [
    pytest.param("pu", SMALL, id="paper-ultimate"),
    # Huck + Monster: a regulation game to 7 (HM issue: "a full game to 7 ... in the terminal").
    pytest.param("hm", ["--preset", "starting-7"], id="huck-monster", marks=pytest.mark.slow),
    pytest.param("hm", ["--preset", "small"], id="huck-monster-small"),
]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hotseat", "vs-bot-as-B"])
@pytest.mark.parametrize(("game", "args"), WHOLE_GAMES)
def test_a_whole_game(tmp_path: Path, mode: str, game: str, args: list[str]) -> None:
    seed = 21
    spec = get_game(game)
    opts = OPTIONS if game == "pu" else spec.options(args[1])
    if mode == "hotseat":
        bots: dict[int, Bot] = {}
        extra = ["--hotseat"]
    else:
        bots = {0: make_bot("random", bot_seed(seed, 0))}
        extra = ["--bot", "random", "--seat", "B"]
    lines, final = scripted_game(seed, bots, spec, opts)
    save = tmp_path / "game.jsonl"
    result = invoke(
        "play",
        game,
        "--seed",
        str(seed),
        "--save",
        str(save),
        *args,
        *extra,
        input="".join(line + "\n" for line in lines),
    )
    assert result.exit_code == 0
    assert f"Result: {final.result_text()}" in result.output
    assert "Not allowed" not in result.output and "Cannot read" not in result.output
    record = read_record(save)
    assert record.end is not None
    assert record.end["hash"] == final.state_hash()
    replayed = invoke("replay", str(save), "--verify", "--show")
    assert replayed.exit_code == 0
    assert f"Replayed {final.ply} plies" in replayed.output
    assert "south end zone" in replayed.output


def test_wrap_notations_keeps_notations_whole() -> None:
    lines = wrap_notations([f"place {c}{r}" for c in "abcdefg" for r in range(1, 15)], width=40)
    assert all(len(line) <= 40 for line in lines)
    items = [item.strip() for line in lines for item in line.split(",") if item.strip()]
    assert items[0] == "place a1" and items[-1] == "place g14" and len(items) == 98


# -- replay -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    bots = [make_bot("random", bot_seed(8, seat)) for seat in range(SPEC.num_seats)]
    _, record, _ = play_game(SPEC, OPTIONS, bots, seed=8, record=True)
    assert record is not None and record.end is not None
    path = tmp_path_factory.mktemp("records") / "game.jsonl"
    path.write_text(record.to_text(), encoding="utf-8")
    return path


def test_replay_a_finished_game(finished_record: Path) -> None:
    result = invoke("replay", str(finished_record), "--verify")
    assert result.exit_code == 0
    assert "(verified)" in result.output
    assert "Result: " in result.output and "no end line" not in result.output


def test_tampered_record_exits_1_naming_line_and_field(
    finished_record: Path, tmp_path: Path
) -> None:
    lines = finished_record.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if '"hash"' in line)
    entry = json.loads(lines[number])
    entry["hash"] = "0" * 16
    lines[number] = json.dumps(entry)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke("replay", str(tampered), "--verify")
    assert result.exit_code == 1
    assert f"line {number + 1}, field 'hash'" in result.output

    # A die that the seed did not roll.
    lines = finished_record.read_text(encoding="utf-8").splitlines()
    lines[1] = json.dumps(
        {"ply": 1, "by": "chance", "action": "toss=B" if "toss=A" in lines[1] else "toss=A"}
    )
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke("replay", str(tampered), "--verify")
    assert result.exit_code == 1
    assert "line 2, field 'action'" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json at all\n", "line 1: not valid JSON"),
        ("", "the record is empty"),
        ('{"record": "monsterball"}\n', "field 'format': missing in the header"),
    ],
)
def test_malformed_record_exits_2(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 2
    assert "malformed record" in result.output and message in result.output


def test_replay_of_missing_file_exits_2(tmp_path: Path) -> None:
    result = invoke("replay", str(tmp_path / "nope.jsonl"))
    assert result.exit_code == 2
    assert "cannot read" in result.output


# -- simulate -----------------------------------------------------------------------------


def summary_lines(output: str) -> list[str]:
    """The summary table rows that depend only on the seeds (not on timing)."""
    return [
        line
        for line in output.splitlines()
        if "│" in line and "wall time" not in line and "games/s" not in line
    ]


@pytest.mark.slow
def test_simulate_is_the_same_with_one_or_two_jobs() -> None:
    args = ["simulate", "pu", "--games", "4", "--seed", "7", *SMALL]
    one = invoke(*args, "--jobs", "1")
    two = invoke(*args, "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0
    rows = summary_lines(one.output)
    assert any(line.split("│")[1].strip() == "A" for line in rows)
    assert any("draws" in line for line in rows)
    assert any("plies per game" in line for line in rows)
    assert rows == summary_lines(two.output)
    assert "with 2 job(s)" in two.output


def test_a_line_of_actions_is_played_whole_or_not_at_all(tmp_path: Path) -> None:
    from monsterball.cli import app

    save = tmp_path / "g.jsonl"
    args = ["play", "pu", "--hotseat", "--seed", "3", "--opt", "first_receiver=A"]
    lines = "place a1; place b1; place c1; place zz9; place d1\nplace a1; bogus; place b1\nquit\n"
    result = CliRunner().invoke(app, [*args, "--save", str(save)], input=lines)
    assert result.exit_code == 0, result.output
    assert "Nothing played: cannot read 'place zz9'" in result.output
    assert "Nothing played: cannot read 'bogus'" in result.output
    assert "A: place a1" not in result.output
    assert [e.by for e in read_record(save).actions if e.by != "chance"] == []
    # A good line is played in order, every item checked against the state before it.
    good = CliRunner().invoke(app, args, input="place a1; place b1; place c1\nquit\n")
    out = good.output
    assert out.index("A: place a1") < out.index("A: place b1") < out.index("A: place c1")
    # An action that is legal now but not after the ones before it refuses the line.
    again = CliRunner().invoke(app, args, input="place a1; place a1\nquit\n")
    assert "Nothing played: 'place a1' is not allowed there" in again.output


def test_moves_are_filtered_and_summarised() -> None:
    from monsterball.terminal.line_game import filter_moves, summarise_moves

    legal = ["end", "A1-e2", "A1-f2", "A2-e2", "pass A3", "monster B2"]
    assert filter_moves(legal, "A1") == ["A1-e2", "A1-f2"]
    assert filter_moves(legal, "e2") == ["A1-e2", "A2-e2"]
    assert filter_moves(legal, "A3") == ["pass A3"]
    assert filter_moves(legal, "a3") == []  # the cell a3, not the player A3
    assert filter_moves(legal, "PASS") == ["pass A3"]  # words in any case
    assert summarise_moves(legal) == [
        "end (1)",
        "A1 (2)",
        "A2 (1)",
        "pass A3 (1)",
        "monster B2 (1)",
    ]
    script = "place a1; place b1; place c1; place d1\nend\n?\n? A1\n? zz\nquit\n"
    args = ["play", "pu", "--hotseat", "--seed", "3", "--opt", "first_receiver=A"]
    result = invoke(*args, input=script)
    assert result.exit_code == 0, result.output
    assert "18 legal actions:" in result.output and "place i18" in result.output
    assert "No legal action names 'zz'" in result.output
    # Nothing is secret in Paper Ultimate: no hand-over between the coaches.
    assert "Hand the terminal" not in result.output


def test_hm_question_mark_summarises_a_team_move(capsys: pytest.CaptureFixture[str]) -> None:
    """A Huck + Monster team move has hundreds of legal actions: '?' summarises them by
    piece, '? A3' lists one piece's."""
    from monsterball.bots.protocol import RandomBot
    from monsterball.terminal.line_game import LIST_ALL_UP_TO, TerminalGame

    spec = get_game("hm")
    state = spec.new_game(spec.options("small"))
    sampler, bot = SeededSampler(2), RandomBot(2)
    while state.current_player() == CHANCE or len(state.legal_actions()) <= LIST_ALL_UP_TO:
        actor = state.current_player()
        action = sampler.choose(state.chance_outcomes()) if actor < 0 else bot.choose(state, actor)
        state.apply_unchecked(action)
    seat = state.current_player()
    legal = [a.notation() for a in state.legal_actions()]
    piece = next(t for n in legal for t in n.replace("-", " ").split() if t[0] in "AB")
    inputs = iter(["?", f"? {piece}", "quit"])
    game = TerminalGame(spec, state, {}, sampler, None, read=lambda _prompt: next(inputs))
    capsys.readouterr()
    assert game.run() is False
    out = capsys.readouterr().out
    summary, listed = out.split(f"legal actions with {piece}:")
    assert f"{len(legal)} legal actions; by piece or action" in summary
    assert len(summary.splitlines()) < 60 < len(legal)
    assert f"{piece}" in listed and spec.seat_name(seat)
