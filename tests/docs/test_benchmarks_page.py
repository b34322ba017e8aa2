"""docs/benchmarks.md stays a reference a newcomer reads in five minutes (issue 38): under 300
lines, and every figure block (a `###` heading) opens with the command that reproduces it,
when it was measured and the goal it is held to, as the page's own "Adding a figure" asks.
The history of figures belongs in CHANGELOG.md."""

from __future__ import annotations

import re

from tests.helpers import ROOT

PAGE = ROOT / "docs" / "benchmarks.md"
# A command in backticks: a script, the program, make, or one of those behind env/nice/nohup.
COMMAND = re.compile(r"`(?:[A-Z_]+=\S+ )*(?:nohup |nice (?:-n \d+ )?)*"
                     r"(?:\.venv/bin/)?(?:python|monsterball|make|scripts/)[^`]*`")  # fmt: skip


def blocks(text: str) -> dict[str, list[str]]:
    """Each `###` heading with the non-empty lines under it, up to the next heading."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("#"):
            current = found.setdefault(line, []) if line.startswith("### ") else None
        elif current is not None and line.strip():
            current.append(line)
    return found


def check(text: str) -> list[str]:
    problems = []
    if len(text.splitlines()) >= 300:
        problems.append(f"{len(text.splitlines())} lines (at most 299)")
    found = blocks(text)
    if not found:
        problems.append("no figure block (### heading)")
    for heading, lines in found.items():
        head = lines[:3]
        if len(head) < 3 or not (
            head[0].startswith("Command: ")
            and head[1].startswith("Measured: ")
            and head[2].startswith("Goal: ")
        ):
            problems.append(f"{heading}: does not open with Command:, Measured:, Goal: lines")
        elif COMMAND.search(head[0]) is None:
            problems.append(f"{heading}: its Command: line names no command in backticks")
    return problems


def test_the_page_is_short_and_every_figure_names_its_command() -> None:
    assert check(PAGE.read_text(encoding="utf-8")) == []


def test_the_check_finds_a_block_without_its_command_and_a_long_page() -> None:
    good = "### A\n\nCommand: `python scripts/bench.py`\nMeasured: today\nGoal: none\n\n1x\n"
    assert check(good) == []
    no_command = good.replace("Command: `python scripts/bench.py`", "Command: run it")
    assert check(no_command) == ["### A: its Command: line names no command in backticks"]
    no_date = good.replace("Measured: today\n", "")
    assert check(no_date) == ["### A: does not open with Command:, Measured:, Goal: lines"]
    assert check(good + "x\n" * 300)[0].startswith("30")
