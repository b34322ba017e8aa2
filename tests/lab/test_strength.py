"""The strength measurement (monsterball.lab.strength, run as scripts/strength.py): parts of
a measurement add up in one ledger, game k always has the same dice and seating, and the
tally is a Wilson interval on wins."""

from __future__ import annotations

import fcntl
import hashlib
import json
from pathlib import Path

import pytest

from monsterball.core.dice import derive_seed
from monsterball.lab import strength

SMALL = ["--game", "paper-ultimate", "--preset", "small", "--seed", "7"]


def _lines(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_parts_add_up_and_resume_where_they_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    args = [*SMALL, "--pairing", "heuristic-random", "--ledger", str(ledger)]
    assert strength.main([*args, "--games", "2"]) == 0
    assert strength.main([*args, "--games", "1"]) == 0
    entries = _lines(ledger)
    assert [e["index"] for e in entries] == [0, 1, 2]
    for e in entries:
        assert e["dice_seed"] == derive_seed(7, e["index"])
        first = "heuristic" if e["index"] % 2 == 0 else "random"
        assert e["seats"][0] == first  # seats alternate
        assert e["budget"] == "none"
    # A game lost from the middle of the ledger is played again by the next part.
    ledger.write_text("".join(json.dumps(e) + "\n" for e in entries if e["index"] != 1))
    assert strength.main([*args, "--games", "1"]) == 0
    assert sorted(e["index"] for e in _lines(ledger)) == [0, 1, 2]
    again = {e["index"]: e for e in _lines(ledger)}[1]
    assert again["returns"] == entries[1]["returns"] and again["plies"] == entries[1]["plies"]
    capsys.readouterr()
    assert strength.main([*args, "--summary"]) == 0
    out = capsys.readouterr().out
    wins = sum(e["winner"] == "heuristic" for e in _lines(ledger))
    assert f"3 games: heuristic {wins} - " in out
    assert "95% Wilson interval" in out


def test_other_budgets_and_pairings_are_counted_apart(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    base = [*SMALL, "--ledger", str(ledger), "--games", "1"]
    strength.main([*base, "--pairing", "hard-random", "--iterations", "5"])
    strength.main([*base, "--pairing", "hard-random", "--iterations", "6"])
    entries = _lines(ledger)
    assert [e["budget"] for e in entries] == ["5it", "6it"]
    assert [e["index"] for e in entries] == [0, 0]
    assert entries[0]["mean_iterations"] == 5.0


def test_games_of_an_older_bots_version_are_counted_apart(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    args = [*SMALL, "--pairing", "heuristic-random", "--ledger", str(ledger), "--games", "1"]
    assert strength.main(args) == 0
    (game,) = _lines(ledger)
    assert game["bots"] == "2"  # Paper Ultimate's heuristic since its position weight
    # A line from before versions (no "bots") is version 1: the next run does not count it.
    old = {k: v for k, v in game.items() if k != "bots"}
    ledger.write_text(json.dumps(old) + "\n")
    assert strength.main(args) == 0
    assert [(e.get("bots"), e["index"]) for e in _lines(ledger)] == [(None, 0), ("2", 0)]


def test_wilson_summary_counts_draws_as_non_wins() -> None:
    entries = [{"winner": "hard"}] * 80 + [{"winner": None}] * 20
    entries = [{**e, "seconds": 1.0, "load": 0.5} for e in entries]
    text = strength.summary(entries, "hard")
    assert "hard 80 - 0 - 20" in text
    assert "win rate 80.0%, 95% Wilson interval 71.1% - 86.7%" in text
    assert "score (draw = 1/2) 90.0%" in text


def test_bad_input_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    for bad in (
        ["--pairing", "hard-hard"],
        ["--pairing", "hard-nobody"],
        ["--pairing", "hard-random", "--games", "-1"],
        ["--pairing", "hard-random", "--preset", "no-such-preset"],
    ):
        with pytest.raises(SystemExit) as exc:
            strength.main([*SMALL, *bad, "--ledger", str(ledger)])
        assert exc.value.code == 2
        assert "Traceback" not in capsys.readouterr().err
    assert not ledger.exists()


def test_a_second_run_of_the_same_key_is_refused(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    args = [*SMALL, "--pairing", "heuristic-random", "--ledger", str(ledger), "--games", "1"]
    key = (
        "paper-ultimate",
        json.dumps(
            __import__("monsterball.games", fromlist=["get_game"])
            .get_game("paper-ultimate")
            .options("small")
            .to_dict(),
            sort_keys=True,
        ),
        "heuristic-random",
        "none",
        7,
        "2",  # the bots' version
        __import__("monsterball.games", fromlist=["get_game"])
        .get_game("paper-ultimate")
        .rules_version,
    )
    tag = hashlib.sha1(repr(key).encode()).hexdigest()[:10]
    with open(tmp_path / f"ledger.jsonl.{tag}.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(SystemExit):
            strength.main(args)
        assert strength.main([*args, "--summary"]) == 0  # the tally may be read meanwhile
    assert not ledger.exists()
    assert strength.main(args) == 0  # free again
