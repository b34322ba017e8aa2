"""The dependency audit's decisions (scripts/audit_deps.py): fail only on a vulnerability
with a fixed version, and never call an audit that checked nothing a pass."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

SCRIPT = ROOT / "scripts" / "audit_deps.py"


@pytest.fixture
def audit(tmp_path: Path):
    """Runs the script on a pip-audit report, as `make test` runs it on pip-audit's own."""

    def verdict(report: dict) -> tuple[int, str]:
        path = tmp_path / "report.json"
        path.write_text(json.dumps(report), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(SCRIPT), "--report", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        return done.returncode, done.stdout.strip()

    return verdict


def dep(name, vulns=(), skip=None):
    found = {"name": name, "version": "1.0", "vulns": list(vulns)}
    return {"name": name, "skip_reason": skip} if skip else found


def test_a_vulnerability_with_a_fix_fails_the_audit(audit):
    status, text = audit(
        {"dependencies": [dep("ok"), dep("bad", [{"id": "PYSEC-1", "fix_versions": ["1.1"]}])]}
    )
    assert status == 1
    assert "FAILED" in text and "bad 1.0: PYSEC-1 - fixed in 1.1" in text


def test_a_vulnerability_without_a_fix_is_a_warning(audit):
    status, text = audit({"dependencies": [dep("old", [{"id": "GHSA-x", "fix_versions": []}])]})
    assert status == 0 and "no fix released yet" in text and "GHSA-x" in text


def test_no_advisory_data_is_a_skip_not_a_pass(audit):
    report = {"dependencies": [dep("a", skip="Dependency not found on PyPI"), dep("b", skip="x")]}
    status, text = audit(report)
    assert status == 0 and text.startswith("dependency audit SKIPPED") and "2 packages" in text
    status, text = audit({"dependencies": [dep("a"), dep("b", skip="x")]})
    assert status == 0 and "1 packages checked, 1 without advisory data" in text
