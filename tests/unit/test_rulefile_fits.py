"""What a match under a ruleset file must fit (domain.rulefiles.fits): its units' kinds,
attributes, markers and statuses and its end's turn-limit option at creation
(`Ruleset.check_setup`), and the markers, statuses and deployed units of commands in play.
The shipped demos fit their files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from domain.commands import Action
from domain.errors import InvalidAction
from domain.rulefiles import RulesetFile
from domain.rulefiles.compile import compile_file
from domain.rulefiles.fits import declared_check
from domain.state import MatchState, Unit
from projections.rulefile_load import BUILT_IN, check_file

FIXTURES = Path(__file__).parents[1] / "fixtures" / "rulefiles"
SCENARIOS = Path(__file__).parents[2] / "api" / "scenarios"
ACTIONS: TypeAdapter[Any] = TypeAdapter(Action)


def loaded(path: Path) -> RulesetFile:
    report = check_file(path)
    assert report.ok and report.ruleset is not None, report.lines()
    return report.ruleset


MUSTER = loaded(FIXTURES / "muster.yaml")


def company(**more: Any) -> Unit:
    return Unit(**{"id": "c1", "side": "red", "name": "1st Company", "kind": "company",
                   "extra": {"strength": 4}, **more})


def refusal(file: RulesetFile, units: tuple[Unit, ...], options: dict[str, Any] | None = None
            ) -> InvalidAction:
    with pytest.raises(InvalidAction) as refused:
        compile_file(file).check_setup(2, {"days": 3} if options is None else options, units)
    return refused.value


@pytest.mark.parametrize(("unit", "rule", "said"), [
    (company(kind="cavalry"), "core-unit-kinds", "kind 'cavalry'"),
    (company(extra={}), "core-attributes", "must give its 'strength'"),
    (company(extra={"strength": 4.0}), "core-attributes", "a whole number from 1 to 6"),
    (company(extra={"strength": 0}), "core-attributes", "a whole number from 1 to 6"),
    (company(extra={"strength": 4, "drill": 1}), "core-attributes", "one of: green"),
    (company(extra={"strength": 4, "colonel": 7}), "core-attributes", "a text of at most 12"),
    (company(extra={"strength": 4, "mounted": 2}), "core-attributes", "a flag"),
    (company(extra={"strength": 4, "guns": 1}), "core-attributes", "no attribute 'guns'"),
    (company(markers={"smoke": 1}), "core-markers", "no marker kind 'smoke'"),
    (company(markers={"fatigue": 3}), "core-markers", "at most 2 'fatigue'"),
    (company(status=("routed",)), "core-statuses", "no status 'routed'"),
])
def test_a_unit_that_does_not_fit_the_file_is_refused_naming_the_rule_and_the_unit(
        unit: Unit, rule: str, said: str) -> None:
    refused = refusal(MUSTER, (company(id="c0"), unit))
    assert refused.rule == rule and said in refused.detail, refused.detail
    assert refused.detail.startswith(f"{rule}: unit 'c1' (1st Company)"), refused.detail


@pytest.mark.parametrize("options", [{}, {"days": 0}, {"days": 101}, {"days": True},
                                     {"days": "3"}])
def test_the_turn_limit_option_is_required_and_bounded(options: dict[str, Any]) -> None:
    refused = refusal(MUSTER, (company(),), options)
    assert refused.rule == "MU-1" and "'days'" in refused.detail, refused.detail


def test_a_unit_that_fits_and_a_file_that_declares_nothing_of_units_pass() -> None:
    fits = company(extra={"strength": 1, "drill": "green", "colonel": "x" * 12,
                          "mounted": "false"}, markers={"fatigue": 2}, status=("shaken",),
                   qv=5)  # a unit's own number its kind does not declare: free
    compile_file(MUSTER).check_setup(2, {"days": 100}, (fits,))
    free = MUSTER.model_copy(update={"unit_kinds": {}, "marker_kinds": {}, "statuses": {}})
    compile_file(free).check_setup(2, {"days": 1}, (company(kind="any", extra={"x": 1},
                                                            markers={"m": 9},
                                                            status=("s",)),))
    assert declared_check(free) is None


def test_a_units_own_number_is_checked_where_its_kind_declares_it_as_an_attribute() -> None:
    battlegroup = loaded(BUILT_IN / "battlegroup.yaml")  # a commander's cv: -20 to 20
    hale = Unit(id="n-hq", side="north", name="Captain Hale", kind="commander", cv=21)
    refused = refusal(battlegroup, (hale,), {"rounds": 3})
    assert refused.rule == "core-attributes" and "'cv' is 21" in refused.detail


@pytest.mark.parametrize("options", [{"days": 0}, {"days": 101}, {"days": "3"}])
def test_an_optional_turn_limit_may_be_left_out_but_is_bounded_when_given(
        options: dict[str, Any]) -> None:
    """`option_required: false` (WC-10's `turns`): a match without the option is created
    (it has no turn limit); one that gives a wrong one is refused as when it is required."""
    end = MUSTER.end
    assert end is not None
    optional = MUSTER.model_copy(update={"end": end.model_copy(update={
        "option_required": False})})
    compile_file(optional).check_setup(2, {}, (company(),))
    refused = refusal(optional, (company(),), options)
    assert refused.rule == "MU-1" and "'days'" in refused.detail, refused.detail


@pytest.mark.parametrize(("file", "demo"), [
    (BUILT_IN / "battlegroup.yaml", SCENARIOS / "battlegroup-demo.json"),
    (BUILT_IN / "wing-command.yaml", SCENARIOS / "wing-command-demo.json"),
    (BUILT_IN / "hold-the-towns.yaml", SCENARIOS / "files" / "hold-the-towns-demo.json"),
])
def test_the_shipped_demos_fit_their_files(file: Path, demo: Path) -> None:
    scenario = json.loads(demo.read_text())
    units = tuple(Unit(**{**u, "status": tuple(u.get("status", ()))})
                  for u in scenario["units"])
    compile_file(loaded(file)).check_setup(len(scenario["sides"]),
                                           scenario.get("options", {}), units)


def test_in_play_a_marker_status_or_deployed_unit_the_file_does_not_declare_is_refused(
        ) -> None:
    check = declared_check(MUSTER)
    assert check is not None
    state = MatchState.model_construct(units={"c1": company(markers={"fatigue": 1})})
    for body, rule in (
            ({"type": "place_marker", "unit_id": "c1", "kind": "smoke"}, "core-markers"),
            ({"type": "place_marker", "unit_id": "c1", "kind": "fatigue", "count": 2},
             "core-markers"),
            ({"type": "set_status", "unit_id": "c1", "set": ["routed"]}, "core-statuses"),
            ({"type": "deploy_unit", "unit": {"side": "red", "name": "Guns", "kind": "battery",
                                              "extra": {"guns": 9}}}, "core-attributes")):
        with pytest.raises(InvalidAction) as refused:
            check(ACTIONS.validate_python(body), state, "red")
        assert refused.value.rule == rule, body
    for body in ({"type": "place_marker", "unit_id": "c1", "kind": "fatigue"},
                 {"type": "place_marker", "location": "0101", "kind": "smoke"},  # a place's
                 {"type": "set_status", "unit_id": "c1", "set": ["shaken"], "clear": ["x"]}):
        check(ACTIONS.validate_python(body), state, "red")
