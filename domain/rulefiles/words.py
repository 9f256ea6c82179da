"""The words the page shows for a file's steps: what each step `expects`, said as the
`Ruleset`'s `expects` (the turn marker's "what now", and the reason an advance gives when
the step is not over yet)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.rulefiles.model import Phase, RulesetFile, Step
from domain.state import MatchState


def expects_of(file: RulesetFile) -> dict[str, Any]:
    """`expects`, when any step of the file says what it expects."""
    said: dict[str, str] = {}
    _walk(file.sequence, "", said)
    if not said:
        return {}

    def expects(state: MatchState) -> list[str]:
        words = said.get(state.turn.step)
        return [words] if words else []
    out: Callable[[MatchState], list[str]] = expects
    return {"expects": out}


def _walk(nodes: tuple[Phase | Step, ...], prefix: str, said: dict[str, str]) -> None:
    for node in nodes:
        if isinstance(node, Step):
            if node.expects:
                said[prefix + node.step] = " ".join(node.expects.split())
        else:
            _walk(node.steps, f"{prefix}{node.phase}/", said)
