"""What the page says a step waits for (`expects:` of a ruleset file) and what it shows for
a unit (`unit_info:`), as the `Ruleset.expects` and `Ruleset.unit_info` the page and the
refusals read (model_shows.Expect, Shown)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.rulefiles.cost import charge
from domain.rulefiles.evaluate import Compiled, Roles, Unreadable, Views, compile_expression
from domain.rulefiles.model import RulesetFile
from domain.rulefiles.sequence import sequence_of
from domain.rulefiles.template import Template, compile_template
from domain.rulefiles.types import BOOL, DYN
from domain.rulefiles.view import Declared, types, values
from domain.state import MatchState, Unit

Expects = Callable[[MatchState], list[str]]
UnitInfo = Callable[[MatchState, Unit], dict[str, Any]]


def shows(file: RulesetFile, declared: Declared, roles: Roles,
          steps: Expects | None = None) -> dict[str, Any]:
    """The `Ruleset` fields `expects` and `unit_info` (only those the file declares): the
    file's `expects` entries are read first, then the steps' own words (`steps`)."""
    out: dict[str, Any] = {}
    view = types(declared)
    if file.expects:
        out["expects"] = _expects(file, view, declared, roles, steps)
    if file.unit_info:
        out["unit_info"] = _unit_info(file, types(declared, ()), declared, roles)
    return out


def _expects(file: RulesetFile, view: dict[str, Any], declared: Declared,
             roles: Roles, steps_words: Expects | None) -> Expects:
    paths = sequence_of(file).steps()
    entries: list[tuple[frozenset[str], tuple[Compiled, ...], Template]] = []
    for expect in file.expects:
        steps = frozenset(p for p in paths if not expect.steps
                          or p.rsplit("/", 1)[-1] in expect.steps)
        entries.append((steps, (compile_expression(expect.when, view, BOOL, declared, roles),)
                        if expect.when else (), compile_template(expect.says, view, declared,
                                                                 roles)))
    conditions = [when for _, whens, _ in entries for when in whens]
    views = Views(conditions) if conditions else None  # the state's view built once

    def expects(state: MatchState) -> list[str]:
        for steps, whens, says in entries:
            if state.turn.step not in steps:
                continue
            charge(1)  # an entry read
            try:
                if views is not None and any(when.run(views.view(whens, state)) is not True
                                             for when in whens):
                    continue
                data = values(state, declared, says.names, roles)
                return [says.say(data)]
            except Unreadable:
                continue  # (ours) words that cannot be read now are not said
        return steps_words(state) if steps_words is not None else []
    return expects


def _unit_info(file: RulesetFile, view: dict[str, Any], declared: Declared,
               roles: Roles) -> UnitInfo:
    entries = []
    for shown in file.unit_info:
        when = (compile_expression(shown.when, view, BOOL, declared, roles)
                if shown.when else None)
        read = {name: compile_expression(text, view, DYN, declared, roles)
                for name, text in shown.shows.items()}
        together = (*read.values(), *((when,) if when else ()))
        entries.append((frozenset(shown.kinds), when, read, together, Views(together)))

    def info(state: MatchState, unit: Unit) -> dict[str, Any]:
        for kinds, when, read, together, views in entries:
            if unit.kind not in kinds:
                continue
            charge(1)  # a unit visited (its view's state part is built once: Views)
            data = views.of_unit(together, state, unit)
            try:
                if when is not None and when.run(data) is not True:
                    continue
                return {name: expression.run(data) for name, expression in read.items()}
            except Unreadable:
                return {}  # (ours) a value that cannot be read now is not shown
        return {}
    return info
