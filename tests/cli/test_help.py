"""The command's help, rules text, suggestions and shell completion."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from monsterball.cli import app
from monsterball.cli.common import did_you_mean


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize("name", ["play", "simulate", "match", "replay", "rules", "luck"])
def test_help_shows_no_python_types(name: str) -> None:
    code, out = run(name, "--help")
    assert code == 0
    body = out.split("Options")[1]
    for python_type in ("<bool>", "<list[str]>", "<str>", "<int>", "<path>"):
        assert python_type not in body, (name, python_type, out)


def test_shell_completion_is_offered() -> None:
    code, out = run("--help")
    assert code == 0 and "--install-completion" in out and "--show-completion" in out


def test_did_you_mean() -> None:
    assert did_you_mean("unknown option 'point_to_win'; known: length, points_to_win").endswith(
        "did you mean 'points_to_win'?"
    )
    assert did_you_mean("unknown preset 'zzz'; known presets: small, pro") == (
        "unknown preset 'zzz'; known presets: small, pro"
    )
    result = CliRunner().invoke(app, ["play", "pu", "--preset", "smal"])
    assert result.exit_code == 2 and "did you mean 'small'?" in result.output


def test_rules_names_the_rulebook_and_prints_rules_from_the_package() -> None:
    code, out = run("rules", "midway")
    assert code == 0
    assert "rulebook: Monsters of the Midway Rulebook" in out
    assert ".txt" not in out and "source tree" not in out
    code, out = run("rules", "hm", "--id", "HM-R4")
    assert code == 0 and "HM-R4" in out and "The pull's path" in out
    code, out = run("rules", "pu", "--text")
    assert code == 0 and "Paper Ultimate" in out and "Rulings" in out
    code, out = run("rules", "hm", "--id", "HM-R400")
    assert code == 2 and "did you mean" in out
