""""Fill in its sample" for a game written as a ruleset file, on a 390x844 phone in a real
browser against a real server (issue 28): a file chosen with "Use a ruleset file" offers
its sample in the new-match form; one tap fills in the sides and a unit of each kind from
what the file declares, and "Start this match" starts a match under the file (its first
event pins the file's hash) with no typing at all. And a file's warnings (a key a YAML 1.1
reader takes for true) are said beside its passing report, in words. No horizontal
overflow, every control at least 44 by 44 px, no serious or critical axe finding, no
console error."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_steps import axe_source, readable, violations
from lobby_steps import Thumb, phone_lobby, started
from phone import assert_no_overflow
from table_steps import small_targets

from domain.rulefiles.identity import file_hash
from projections.rulefile_load import check_file

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
PATROL = Path(__file__).parents[1] / "fixtures" / "rulefiles" / "patrol.yaml"
CONTROLS = (".lobby button, .lobby input:not([type=checkbox]), .lobby select, .lobby textarea, "
            ".lobby label.check, .lobby summary")


@pytest.fixture
def lobby(browser: Any, own_server: str) -> Iterator[tuple[Any, list[str]]]:
    with phone_lobby(browser, own_server) as opened:
        yield opened


def test_a_files_sample_fills_in_the_form_and_starts_a_match_under_the_file(
        lobby: tuple[Any, list[str]], own_server: str, screenshots: Shot) -> None:
    page, console = lobby
    you = Thumb(page)
    page.get_by_label("Ruleset file").set_input_files(str(PATROL))
    page.locator(".ruleset-report.good").wait_for()
    fill = you.form.get_by_role("button", name="Fill in the Patrol sample")
    assert fill.is_visible()
    you.tap(fill)
    you.side(0).get_by_text("Blue Section").first.wait_for()  # the sample is read
    assert you.side(0).get_by_label("Side name").input_value() == "Blue"
    assert you.side(1).get_by_label("Side name").input_value() == "Red"
    assert you.form.get_by_label("Scenario name").input_value() == "Patrol: a first set-up"
    assert "Blue Section" in you.side(0).inner_text()
    assert "Red Section" in you.side(1).inner_text()
    assert_no_overflow(page)
    assert small_targets(page, CONTROLS) == []
    found = violations(page, axe_source())
    assert found == [], readable("the form filled in from a file's sample", found)
    screenshots(page, "01-sample")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    _, match, board, events = started(page, own_server)
    assert match["ruleset"] == "patrol"
    created = events["events"][0]
    assert created["ruleset_hash"] == file_hash(check_file(PATROL).data)
    assert sorted(u["name"] for u in board["units"]) == ["Blue Section", "Red Section"]
    assert sorted(u["position"]["hex"] for u in board["units"]) == ["0202", "0502"]
    screenshots(page, "02-table")
    assert console == [], console


def test_a_files_warnings_are_shown_beside_its_passing_report(
        lobby: tuple[Any, list[str]], tmp_path: Path, screenshots: Shot) -> None:
    """A plain key a YAML 1.1 reader takes for true (`on`): the file passes and is chosen,
    and the report says the warning with its line and column in words, not its check id."""
    page, console = lobby
    lamps = tmp_path / "lamps.yaml"
    lamps.write_text("format_version: 1\nid: lamps\ntitle: Lamps\nstatuses:\n"
                     "  on: {title: Lit}\nsequence:\n  - step: play\n    title: Play\n")
    page.get_by_label("Ruleset file").set_input_files(str(lamps))
    report = page.locator(".ruleset-report.good")
    report.wait_for()
    said = report.inner_text()
    assert "Lamps passed every check" in said
    assert "1 thing worth a look" in said
    assert report.locator(".warnings li").first.inner_text().startswith("Line 5, column 3: ")
    assert "yaml-boolean-key" not in said
    assert_no_overflow(page)
    found = violations(page, axe_source())
    assert found == [], readable("a passing report with a warning", found)
    screenshots(page, "01-warning")
    assert console == [], console
