"""The dependency audit's decisions (scripts/audit_deps.py): fail only on a vulnerability
with a fixed version, and never call an audit that checked nothing a pass."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "audit_deps.py"
_spec = importlib.util.spec_from_file_location("audit_deps", SCRIPT)
assert _spec and _spec.loader
audit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(audit)


def dep(name, vulns=(), skip=None):
    found = {"name": name, "version": "1.0", "vulns": list(vulns)}
    return {"name": name, "skip_reason": skip} if skip else found


def test_a_vulnerability_with_a_fix_fails_the_audit():
    status, text = audit.verdict(
        {"dependencies": [dep("ok"), dep("bad", [{"id": "PYSEC-1", "fix_versions": ["1.1"]}])]}
    )
    assert status == 1
    assert "FAILED" in text and "bad 1.0: PYSEC-1 - fixed in 1.1" in text


def test_a_vulnerability_without_a_fix_is_a_warning():
    status, text = audit.verdict(
        {"dependencies": [dep("old", [{"id": "GHSA-x", "fix_versions": []}])]}
    )
    assert status == 0 and "no fix released yet" in text and "GHSA-x" in text


def test_no_advisory_data_is_a_skip_not_a_pass():
    report = {"dependencies": [dep("a", skip="Dependency not found on PyPI"), dep("b", skip="x")]}
    status, text = audit.verdict(report)
    assert status == 0 and text.startswith("dependency audit SKIPPED") and "2 packages" in text
    status, text = audit.verdict({"dependencies": [dep("a"), dep("b", skip="x")]})
    assert status == 0 and "1 packages checked, 1 without advisory data" in text
