"""Ruleset files the checks' tests share (tests/unit/test_rulefile_checks.py,
tests/integration/test_rulefiles_api.py): where the fixtures are, and hostile files."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "rulefiles"
SKIRMISH = FIXTURES / "skirmish.yaml"  # the small game of docs/rulesets/authoring.md


def billion_laughs(levels: int = 9) -> str:
    """Nine anchored lists of nine aliases each: 9**8 strings once expanded."""
    lines = ['a0: &a0 "lol"']
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, levels)]
    return "\n".join(lines) + "\n"
