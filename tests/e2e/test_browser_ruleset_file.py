""""Use a ruleset file" in the lobby's new-match form, on a 390x844 phone in a real browser
against a real server (issue 28): a defective file's check report shows every problem with
its line and column in the players' words and stores nothing; a file that passes is chosen
as the game system, and the match started from the form is played under it (its first event
pins the file's hash) on the table page. A file's sample fills in the form with one tap
("Fill in the Patrol sample": its sides and a unit of each kind, from what the file
declares) and starts a match under the file with no typing; a file's warnings (a key a YAML
1.1 reader takes for true) are said beside its passing report, in words. No horizontal
overflow, every control at least 44 by 44 px, no serious or critical axe finding, no
unexpected console error."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_steps import axe_source, readable, violations
from lobby_steps import Thumb, phone_lobby, started
from phone import assert_no_overflow
from table_steps import low_contrast, small_targets, unlabelled_controls

from domain.rulefiles.identity import file_hash
from projections.rulefile_load import check_file
from projections.rulefiles import shipped

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
FIXTURES = Path(__file__).parents[1] / "fixtures" / "rulefiles"
SHIPPED = {file_hash(check_file(path).data) for path in shipped()}
CONTROLS = (".lobby button, .lobby input:not([type=checkbox]), .lobby select, .lobby textarea, "
            ".lobby label.check, .lobby summary")


@pytest.fixture
def lobby(browser: Any, own_server: str) -> Iterator[tuple[Any, list[str]]]:
    """The lobby on a phone, and the console errors it logs."""
    with phone_lobby(browser, own_server) as opened:
        yield opened


def stored(server: str) -> list[str]:
    """The hashes of the files the server holds but those shipped with battlelog."""
    return [r["hash"] for r in httpx.get(f"{server}/api/rulesets").json()
            if r["hash"] and r["hash"] not in SHIPPED]


def test_a_file_is_checked_in_words_then_chosen_and_a_match_started_under_it(
        lobby: tuple[Any, list[str]], own_server: str, screenshots: Shot) -> None:
    page, console = lobby
    you = Thumb(page)
    chooser = page.get_by_label("Ruleset file")
    you._big(chooser)

    # a defective file: every problem with its line and column, nothing stored
    chooser.set_input_files(str(FIXTURES / "defective" / "misspelt-field.yaml"))
    report = page.locator(".ruleset-report.bad")
    report.wait_for()
    problems = report.locator(".problems li")
    assert problems.count() >= 1
    first = problems.first.inner_text()
    assert first.startswith("Line 42, column "), first
    assert "did you mean 'allows'?" in first
    assert "misspelt-field.yaml was not loaded" in report.inner_text()
    assert "unknown-field" not in report.inner_text()  # the players' words, not the check id
    assert stored(own_server) == []
    assert_no_overflow(page)
    assert small_targets(page, CONTROLS) == [] and unlabelled_controls(page) == []
    assert low_contrast(page) == []
    found = violations(page, axe_source())
    assert found == [], readable("the lobby with a check report", found)
    screenshots(page, "01-refused")

    # the file that passes: chosen as the game system, ready for its sides and units
    chooser.set_input_files(str(FIXTURES / "patrol.yaml"))
    page.locator(".ruleset-report.good").wait_for()
    assert "Patrol passed every check" in page.locator(".ruleset-report").inner_text()
    pinned = file_hash(check_file(FIXTURES / "patrol.yaml").data)
    assert stored(own_server) == [pinned]
    system = you.form.get_by_label("Game system")
    assert system.locator("option:checked").inner_text() == "Patrol"
    assert "Two patrols meet in the woods" in you.form.locator(".about").inner_text()
    found = violations(page, axe_source())
    assert found == [], readable("the lobby with a file chosen", found)
    screenshots(page, "02-chosen")

    you.type(you.form.get_by_label("Scenario name"), "In the woods")
    you.type(you.side(0).get_by_label("Side name"), "Red")
    you.type(you.side(1).get_by_label("Side name"), "Blue")
    you.add_unit(0, "1st Section", Across="10", Along="12")
    you.add_unit(1, "A Section", Across="30", Along="24")
    assert small_targets(page, CONTROLS) == []
    assert_no_overflow(page)
    screenshots(page, "03-filled")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    _, match, board, events = started(page, own_server)
    assert match["ruleset"] == "patrol"
    created = events["events"][0]
    assert (created["type"], created["ruleset_hash"]) == ("MatchCreated", pinned)
    assert sorted(u["name"] for u in board["units"]) == ["1st Section", "A Section"]
    page.locator("#main").get_by_text("Light").first.wait_for()  # the file's first step
    screenshots(page, "04-table")
    # the one console error allowed: the browser's own line for the refused file's 422
    assert [c for c in console if "422" not in c] == [], console
    assert len(console) == 1


def test_a_files_sample_fills_in_the_form_and_starts_a_match_under_the_file(
        lobby: tuple[Any, list[str]], own_server: str, screenshots: Shot) -> None:
    page, console = lobby
    you = Thumb(page)
    page.get_by_label("Ruleset file").set_input_files(str(FIXTURES / "patrol.yaml"))
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
    assert created["ruleset_hash"] == file_hash(check_file(FIXTURES / "patrol.yaml").data)
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


def test_the_game_systems_list_a_page_of_files_and_a_chosen_one_is_read_then(
        browser: Any, serve: Any, tmp_path: Path) -> None:
    """Issue 37: the lobby reads the list a page at a time (titles only); "More ruleset
    files" adds the next page, and a file chosen from the list has its fields read then."""
    data = check_file(FIXTURES / "patrol.yaml").data
    with serve(tmp_path / "battlelog.db", {"BATTLELOG_CREATE_RATE": "off"}) as server:
        for n in range(55):
            r = httpx.post(f"{server}/api/rulesets", json={
                **data, "id": f"patrol-{n:02}", "title": f"Patrol {n:02}",
                "description": f"Patrol number {n:02} in the woods."})
            assert r.status_code == 201, r.text
        with phone_lobby(browser, server) as (page, console):
            you = Thumb(page)
            system = you.form.get_by_label("Game system")
            first = system.locator("option").count()
            assert system.locator("option", has_text="Patrol 54").count() == 0
            more = page.get_by_role("button", name="More ruleset files")
            you.tap(more)
            system.locator("option", has_text="Patrol 54").wait_for(state="attached")
            assert system.locator("option").count() == first + 6  # 56 files, 50 a page
            assert more.is_hidden()
            system.select_option(label="Patrol 54")
            page.wait_for_function(
                "() => document.querySelector('.about')?.textContent.includes('number 54')")
            assert system.locator("option:checked").inner_text() == "Patrol 54"
            assert console == [], console
