"""axe-core in the browser tests: the checker the test tooling pins (tests/e2e/package.json,
installed by `npm ci`, as `make test` does), run in a page as it is, and its serious and
critical findings listed so that a failure names each rule, where and why.

The script is evaluated in the page through the browser's debugging protocol, which the
page's Content-Security-Policy does not govern: the page keeps its policy while it is
checked (no `bypass_csp`), so what is checked is what players get."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    """axe.min.js as the lock file pins it; missing, the test fails where browser tests must
    run (BATTLELOG_REQUIRE_BROWSER=1, as in CI) and is skipped elsewhere, as for Chromium."""
    if not AXE.exists():
        hint = f"no axe-core at {AXE} (cd tests/e2e && npm ci; make test does it)"
        if os.environ.get("BATTLELOG_REQUIRE_BROWSER") == "1":
            pytest.fail(hint)
        pytest.skip(hint)
    return AXE.read_text(encoding="utf-8")


def violations(page: Any, source: str) -> list[dict[str, Any]]:
    """axe's serious and critical violations on the page as it is now (every rule axe runs
    by default: WCAG 2 A and AA, and its best practices)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    found: list[dict[str, Any]] = page.evaluate("""async () => {
        const result = await window.axe.run(document, {resultTypes: ['violations']});
        return result.violations; }""")
    return [v for v in found if v.get("impact") in BLOCKING]


def readable(where: str, found: list[dict[str, Any]]) -> str:
    """One line per element at fault: where, the rule and its impact, the element, and axe's
    own summary of what to fix."""
    lines = []
    for rule in found:
        for node in rule["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            why = " ".join(node.get("failureSummary", "").split())
            lines.append(f"{where}: {rule['id']} ({rule['impact']}) at {target}: "
                         f"{node['html'][:160]} | {why}")
    return "\n".join(lines)
