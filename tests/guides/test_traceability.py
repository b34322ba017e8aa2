"""Every rule id in docs/rules/*.md is named by a test, and every option's ruling exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from monsterball.games import all_games
from tests.helpers import ROOT

RULE_DOCS = sorted((ROOT / "docs" / "rules").glob("*.md"))
ROW = re.compile(r"^\|\s*((?:PU|HM|MW)-[A-Z]+-\d+)\s*\|(.*)\|\s*$")
RULING = re.compile(r"\*\*((?:PU|HM|MW)-R\d+)\b")


def rule_rows(doc: Path) -> list[tuple[str, str]]:
    rows = []
    for line in doc.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            rows.append((match.group(1), match.group(2)))
    return rows


def all_test_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))


def named_in_tests(rule_id: str, text: str) -> bool:
    # Test names spell ids with underscores (test_PU_RUN_1_...); docstrings with dashes.
    # A digit may not follow, so an R1 ruling is not found inside R12.
    spellings = (rule_id, rule_id.replace("-", "_"))
    return any(re.search(re.escape(s) + r"(?!\d)", text) for s in spellings)


def test_an_id_is_not_found_inside_a_longer_one() -> None:
    assert named_in_tests("ZZ-R1", "test_ZZ_R1_field")
    assert named_in_tests("ZZ-R1", "see ZZ-R1.")
    assert not named_in_tests("ZZ-R1", "test_ZZ_R12_ties and ZZ-R10")


@pytest.mark.parametrize("doc", RULE_DOCS, ids=lambda p: p.name)
def test_every_rule_id_has_a_test(doc: Path) -> None:
    text = all_test_text()
    rows = rule_rows(doc)
    assert rows, f"{doc.name} lists no rule ids"
    missing = []
    for rule_id, rest in rows:
        status = rest.split("|")[1].strip()
        if status.startswith("n/a"):
            continue  # not applicable: the doc gives the reason instead of a test
        if not named_in_tests(rule_id, text):
            missing.append(rule_id)
    assert not missing, f"rule ids in {doc.name} with no test naming them: {missing}"


@pytest.mark.parametrize("doc", RULE_DOCS, ids=lambda p: p.name)
def test_every_ruling_is_tested_and_not_applicable_rows_give_a_reason(doc: Path) -> None:
    body = doc.read_text(encoding="utf-8")
    text = all_test_text()
    rulings = RULING.findall(body)
    assert rulings, f"{doc.name} has no rulings section"
    untested = [r for r in rulings if not named_in_tests(r, text)]
    assert not untested, f"rulings without a test: {untested}"
    for rule_id, rest in rule_rows(doc):
        cells = [c.strip() for c in rest.split("|")]
        if cells[1].startswith("n/a"):
            assert len(cells[2]) > 10, f"{rule_id} is n/a without a reason"


def test_rule_ids_are_unique() -> None:
    for doc in RULE_DOCS:
        ids = [r for r, _ in rule_rows(doc)]
        assert len(ids) == len(set(ids)), f"duplicate ids in {doc.name}"


def test_every_option_ruling_is_documented() -> None:
    docs = "\n".join(p.read_text(encoding="utf-8") for p in RULE_DOCS)
    for spec in all_games():
        for info in spec.options_type.describe():
            if info.ruling:
                assert f"**{info.ruling} " in docs, f"{spec.id}.{info.name}: {info.ruling}"


def test_every_ruling_summary_in_code_matches_the_doc() -> None:
    docs = "\n".join(p.read_text(encoding="utf-8") for p in RULE_DOCS)
    in_docs = set(RULING.findall(docs))
    for spec in all_games():
        assert spec.rulings, f"{spec.id} has no ruling summaries"
        prefix = next(iter(spec.rulings)).split("-")[0]
        documented = {r for r in in_docs if r.startswith(prefix + "-")}
        assert set(spec.rulings) == documented, f"{spec.id}: code and doc rulings differ"
