"""Rulesets as data: the ruleset file format (`model`), the checks a file must pass
(`problems`: its shape, said in the file's terms; `checks`: its meaning) and its sequence of
play as the engine's (`sequence`). Pure: a file comes in parsed (projections.rulefile_load
reads and parses it safely, and places each problem at its line and column).

It sits in the pure core and imports from it (the commands, the sequence of play)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from domain.rulefiles.checks import check_meaning
from domain.rulefiles.duties_checks import unsaid_leave_when
from domain.rulefiles.model import FORMAT_VERSION, RulesetFile
from domain.rulefiles.problems import Near, Path, Problem, from_validation
from domain.rulefiles.sequence import sequence_of


@dataclass(frozen=True)
class Checked:
    """A file's checks: its model when its shape is right, every problem found, and its
    warnings (never a refusal: `duties_checks.unsaid_leave_when`)."""

    file: RulesetFile | None
    problems: tuple[Problem, ...]
    warnings: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return self.file is not None and not self.problems


def check(data: Any) -> Checked:
    """Every problem of the parsed file `data` at once: its shape and its meaning."""
    near = Near()
    try:
        file: RulesetFile | None = RulesetFile.model_validate(data)
        problems = []
    except ValidationError as error:
        file, problems = None, from_validation(error, data, near)
    return Checked(file, (*problems, *check_meaning(data, near)),
                   tuple(unsaid_leave_when(data)))


def schema() -> dict[str, Any]:
    """The JSON Schema of the format, generated from its models."""
    return RulesetFile.model_json_schema()


__all__ = ["FORMAT_VERSION", "Checked", "Path", "Problem", "RulesetFile", "check", "schema",
           "sequence_of"]
