"""The dependency audit of `make test` (docs/security.md, "Dependency audit").

Runs pip-audit over the installed environment against PyPI's advisory data and decides:
- a known vulnerability with a fixed version -> fail (exit 1): upgrade, or pin past it;
- a known vulnerability with no fix yet -> a warning (nothing to upgrade to);
- no advisory data (no network, or an index without PyPI's per-version JSON, where pip-audit
  skips every package yet says "No known vulnerabilities found") -> a loud SKIPPED, exit 0,
  so CI without the network is not failed and never told that all is well.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

COMMAND = [
    sys.executable,
    "-m",
    "pip_audit",
    "--format",
    "json",
    "--progress-spinner",
    "off",
    "--skip-editable",  # this project itself
    "--timeout",
    "15",
]


def verdict(report: dict[str, Any]) -> tuple[int, str]:
    """(exit status, what to print) for a pip-audit JSON report."""
    deps = report.get("dependencies", [])
    audited = [d for d in deps if not d.get("skip_reason")]
    skipped = [d for d in deps if d.get("skip_reason")]
    if not audited:
        reason = skipped[0]["skip_reason"] if skipped else "no packages found"
        return 0, (
            f"dependency audit SKIPPED: no advisory data for any of {len(deps)} packages "
            f"(e.g. {reason}); nothing was checked"
        )
    lines, fixable = [], 0
    for dep in audited:
        for vuln in dep.get("vulns", []):
            fixes = vuln.get("fix_versions") or []
            fixable += bool(fixes)
            fix = f"fixed in {', '.join(fixes)}" if fixes else "no fix released yet (warning)"
            lines.append(f"  {dep['name']} {dep['version']}: {vuln['id']} - {fix}")
    head = f"dependency audit: {len(audited)} packages checked"
    if skipped:
        head += f", {len(skipped)} without advisory data (not checked)"
    if fixable:
        return 1, "\n".join([f"{head}; {fixable} vulnerabilities with a fix: FAILED", *lines])
    return 0, "\n".join([f"{head}; no vulnerability with a fix available", *lines])


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    if args[:1] == ["--report"] and len(args) == 2:
        # A pip-audit JSON report already made (tests/scripts/test_audit_deps.py): judge that one.
        report = json.loads(Path(args[1]).read_text(encoding="utf-8"))
        status, text = verdict(report)
        print(text)
        return status
    if args:
        print("usage: audit_deps.py [--report PIP_AUDIT_JSON]", file=sys.stderr)
        return 2
    try:
        done = subprocess.run(COMMAND, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as exc:
        print(f"dependency audit SKIPPED: pip-audit did not finish ({exc})")
        return 0
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        why = (done.stderr.strip().splitlines() or ["no output"])[-1]
        print(f"dependency audit SKIPPED: pip-audit could not reach its data ({why})")
        return 0
    status, text = verdict(report)
    print(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
