"""The lobby's scenario form on a phone (360 to 430 px wide), in a real browser against a real
server: a scenario of any game system built only by tapping and typing names and numbers (no
JSON), started, and found on the table with exactly the units, places, figures and decks the
form was given; mistakes refused in words next to the field, with no match made. No
horizontal overflow, every control tapped at least 44 by 44 px, no console error."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from lobby_steps import Thumb, fill_allies_and_axis, started
from table_steps import low_contrast, policed_contexts, small_targets, unlabelled_controls

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
WIDTHS = (360, 390, 430)
CONTROLS = (".lobby button, .lobby input:not([type=checkbox]), .lobby select, .lobby textarea, "
            ".lobby label.check, .lobby .matches a, .lobby summary")


@pytest.fixture
def console() -> list[str]:
    return []


@pytest.fixture
def phone(browser: Any, server: str, console: list[str]) -> Iterator[Callable[[int], Any]]:
    """A phone page `width` px wide (844 high, touch) on the lobby; its console errors are kept."""
    policed = policed_contexts(browser, server)
    open_context = next(policed)

    def page_of(width: int) -> Any:
        context = open_context(viewport={"width": width, "height": 844}, is_mobile=True,
                               has_touch=True)
        page = context.new_page()
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
        page.goto(server)
        page.locator('form[aria-label="Start your own match"]').wait_for()
        return page

    yield page_of
    next(policed, None)
    assert console == [], console


def fits(page: Any) -> list[int]:
    """The widths (of 360, 390, 430) at which the page scrolls sideways."""
    wide = []
    size = page.viewport_size
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        if page.evaluate("document.documentElement.scrollWidth") > width:
            wide.append(width)
    page.set_viewport_size(size)
    return wide


def side_names(match: dict[str, Any]) -> dict[str, str]:
    return {s["id"]: s["name"] for s in match["sides"]}


def where(unit: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in unit["position"].items() if v is not None}


def created_options(events: Any) -> dict[str, Any]:
    items = events["events"] if isinstance(events, dict) else events
    first = items[0]
    data = first.get("data", first)
    return dict(data.get("options", {}))


def test_a_freeform_scenario_tapped_in_starts_with_its_units_and_deck(
        phone: Callable[[int], Any], server: str, screenshots: Shot) -> None:
    page = phone(390)
    you = Thumb(page)
    assert fits(page) == []
    assert you.form.get_by_label("Game system").locator("option:checked").inner_text() == "Freeform"
    assert "Any game" in you.form.locator(".about").inner_text()
    screenshots(page, "01-lobby")

    fill_allies_and_axis(you, "Hill 112", grenadiers_across="30.5")
    deck = you.side(0).get_by_label("Its deck of cards")
    you.type(deck, "Ambush\nBarrage\n\nDig in")
    you.tap(you.form.locator("label.check"))
    assert small_targets(page, CONTROLS) == []
    assert fits(page) == []
    assert unlabelled_controls(page) == [] and low_contrast(page) == []
    screenshots(page, "02-filled")
    you.form.locator("fieldset.side").nth(0).screenshot(
        path=str(screenshots(page, "02-filled").with_name("03-first-side.png")))

    you.tap(you.form.get_by_role("button", name="Start this match"))
    _, match, board, _ = started(page, server)
    page.locator("#main").get_by_text("Sherman troop").first.wait_for()
    screenshots(page, "04-table")
    names = side_names(match)
    assert sorted(names.values()) == ["Allies", "Axis"]
    assert match["scenario"] == "Hill 112" and match["ruleset"] == "freeform" and match["casual"]
    units = {u["name"]: u for u in board["units"]}
    assert sorted(units) == ["1st Squad", "Grenadiers", "Panzer IV", "Sherman troop"]
    assert [names[units[n]["side"]] for n in sorted(units)] == ["Allies", "Axis", "Axis", "Allies"]
    assert where(units["1st Squad"]) == {"x": 10, "y": 12} and units["1st Squad"]["figures"] == 8
    assert where(units["Sherman troop"]) == {"box": "reserve"} and units["Sherman troop"]["steps"] == 3
    assert where(units["Grenadiers"]) == {"x": 30.5, "y": 24} and units["Grenadiers"]["figures"] == 10
    assert where(units["Panzer IV"]) == {"box": "reserve"} and units["Panzer IV"]["figures"] == 1
    decks = {names[c["side"]]: c for c in board["cards"]}
    assert sorted(decks["Allies"]["deck"]) == ["Ambush", "Barrage", "Dig in"]  # dealt shuffled
    assert decks.get("Axis", {}).get("deck_count", 0) == 0


def test_mistakes_are_refused_in_words_next_to_the_field_and_no_match_is_made(
        phone: Callable[[int], Any], server: str, screenshots: Shot) -> None:
    page = phone(360)
    you = Thumb(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if r.method == "POST" else None)
    you.type(you.side(0).get_by_label("Side name"), "Red")
    you.type(you.side(1).get_by_label("Side name"), "red ")
    unit = you.add_unit(0, "")
    you.type(unit.get_by_label("Across"), "")
    you.tap(you.form.get_by_role("button", name="Start this match"))

    scenario = you.form.get_by_label("Scenario name")
    assert scenario.get_attribute("aria-invalid") == "true"
    assert "Give the scenario a name." in scenario.locator("xpath=..").inner_text()
    second = you.side(1).get_by_label("Side name")
    assert second.get_attribute("aria-invalid") == "true"
    assert ("Another side is already called Red: give each side its own name."
            in second.locator("xpath=..").locator(".field-error").inner_text())
    assert you.side(0).get_by_label("Side name").get_attribute("aria-invalid") is None
    name = unit.get_by_label("Unit name")
    assert name.locator("xpath=..").locator(".field-error").inner_text() == "Give this unit a name."
    assert "How far across" in unit.get_by_label("Across").locator("xpath=..").inner_text()
    assert fits(page) == [] and low_contrast(page) == []
    screenshots(page, "01-refused")
    assert requests == [] and page.url.rstrip("/") == server.rstrip("/")
    assert page.evaluate("localStorage.getItem('battlelog.matches')") in (None, "{}")

    # Put right, the same form starts the match.
    you.type(scenario, "Skirmish")
    you.type(second, "Blue")
    you.type(name, "Scouts")
    you.type(unit.get_by_label("Across"), "4")
    you.type(unit.get_by_label("Along"), "5")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    _, match, board, _ = started(page, server)
    assert sorted(side_names(match).values()) == ["Blue", "Red"]
    assert [(u["name"], where(u)) for u in board["units"]] == [("Scouts", {"x": 4, "y": 5})]


def test_a_third_side_for_a_two_sided_game_is_refused_before_anything_is_sent(
        phone: Callable[[int], Any], server: str) -> None:
    page = phone(390)
    you = Thumb(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if r.method == "POST" else None)
    you.choose(you.form.get_by_label("Game system"), "Wing command")
    you.type(you.form.get_by_label("Scenario name"), "The ridge")
    you.tap(you.form.get_by_role("button", name="Add a side"))
    for n, name in enumerate(("French Corps", "British Division", "Prussians")):
        you.type(you.side(n).get_by_label("Side name"), name)
    you.tap(you.form.get_by_role("button", name="Start this match"))
    assert ("Wing command is played by 2 sides; this scenario has 3."
            in you.form.locator(".sides").inner_text())
    assert requests == []


def test_an_atomic_africa_scenario_with_morale_dice(
        phone: Callable[[int], Any], server: str, screenshots: Shot) -> None:
    page = phone(430)
    you = Thumb(page)
    # Begun as Freeform, changed to Atomic Africa: the names typed so far stay.
    you.type(you.form.get_by_label("Scenario name"), "The ford")
    you.type(you.side(0).get_by_label("Side name"), "Expeditionary Force")
    you.type(you.side(1).get_by_label("Side name"), "Free Militia")
    first = you.add_unit(0, "1st Squad", Kind="squad", Across="10", Along="12")
    you.choose(you.form.get_by_label("Game system"), "Atomic Africa")
    assert "morale" in you.form.locator(".about").inner_text()
    assert you.form.get_by_label("Scenario name").input_value() == "The ford"
    assert you.side(1).get_by_label("Side name").input_value() == "Free Militia"
    assert first.get_by_label("Unit name").input_value() == "1st Squad"
    assert first.get_by_label("Kind").locator("option:checked").inner_text() == "Squad"
    assert first.get_by_label("Across").input_value() == "10"
    you.type(first.get_by_label("Figures"), "11")
    you.choose(first.get_by_label("Morale die"), "d10")
    you.add_unit(0, "2nd Squad", Figures="6", Morale_die="d6", Where="In reserve")
    you.add_unit(1, "Militia Band", Figures="10", Across="30", Along="24")  # d12: the first die
    you.type(you.form.get_by_label("Turns"), "3")
    you.type(you.side(1).get_by_label("Its deck of cards"), "Ambush\nRally")
    assert small_targets(page, CONTROLS) == [] and fits(page) == []
    screenshots(page, "01-filled")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    _, match, board, events = started(page, server)
    assert match["ruleset"] == "atomic-africa"
    names = side_names(match)
    units = {u["name"]: u for u in board["units"]}
    assert {n: (names[u["side"]], u["figures"], u["morale_die"], where(u)) for n, u in units.items()} == {
        "1st Squad": ("Expeditionary Force", 11, "d10", {"x": 10, "y": 12}),
        "2nd Squad": ("Expeditionary Force", 6, "d6", {"box": "reserve"}),
        "Militia Band": ("Free Militia", 10, "d12", {"x": 30, "y": 24}),
    }
    decks = {names[c["side"]]: c for c in board["cards"]}
    assert sorted(decks["Free Militia"]["deck"]) == ["Ambush", "Rally"]
    assert created_options(events) == {"turns": 3}


def test_a_wing_command_scenario_with_its_values_wings_and_pieces(
        phone: Callable[[int], Any], server: str, screenshots: Shot) -> None:
    page = phone(390)
    you = Thumb(page)
    you.choose(you.form.get_by_label("Game system"), "Wing command")
    you.type(you.form.get_by_label("Scenario name"), "The ridge")
    you.type(you.side(0).get_by_label("Side name"), "French Corps")
    you.type(you.side(1).get_by_label("Side name"), "British Division")
    assert you.side(0).get_by_label("Its deck of cards").count() == 0  # WC has no cards
    you.add_unit(0, "General Lasalle", Kind="Commanding Officer", Leadership_Value="2",
                 Leadership_cubes="4", Wing="right", Across="10", Along="6")
    you.add_unit(0, "4e Ligne", Quality_Value="4", Casualty_Value="2", Wing="left",
                 Across="4", Along="12")
    you.add_unit(0, "4e Ligne, 1st battalion", Kind="Piece", Quality_Value="3",
                 Belongs_to_unit="4e ligne", Across="4", Along="13")
    you.add_unit(1, "Rifles", Quality_Value="5", Casualty_Value="1", Wing="left",
                 Where="In reserve")
    assert small_targets(page, CONTROLS) == [] and fits(page) == []
    screenshots(page, "01-filled")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    _, match, board, _ = started(page, server)
    assert match["ruleset"] == "wing-command"
    units = {u["name"]: u for u in board["units"]}
    co, line, piece = units["General Lasalle"], units["4e Ligne"], units["4e Ligne, 1st battalion"]
    assert (co["kind"], co["lv"], co["markers"], co["extra"]) == (
        "co", 2, {"leadership": 4}, {"wing": "right"})
    assert (line["kind"], line["qv"], line["casualty_value"], line["extra"]) == (
        "unit", 4, 2, {"wing": "left"})
    assert (piece["kind"], piece["qv"], piece["extra"]) == ("piece", 3, {"unit": line["id"]})
    assert where(units["Rifles"]) == {"box": "reserve"} and units["Rifles"]["qv"] == 5
    assert side_names(match)[units["Rifles"]["side"]] == "British Division"


def test_a_battlegroup_sample_filled_in_edited_and_started(
        phone: Callable[[int], Any], server: str, screenshots: Shot) -> None:
    """The sample fills the form (three sides, Commanders, battlegroups, reserve); one unit
    more is tapped in; the match holds the sample's units as the sample has them, and it."""
    page = phone(390)
    you = Thumb(page)
    you.choose(you.form.get_by_label("Game system"), "Battlegroup")
    you.tap(you.form.get_by_role("button", name="Fill in the Battlegroup sample"))
    sample = httpx.get(f"{server}/api/scenarios/battlegroup-demo").json()
    you.form.locator("fieldset.side").nth(len(sample["sides"]) - 1).wait_for()
    assert you.form.get_by_label("Scenario name").input_value() == sample["scenario"]
    assert you.form.get_by_label("Rounds").input_value() == str(sample["options"]["rounds"])
    assert you.side(0).get_by_label("Command Value").count() == 1  # only its Commander has one
    you.add_unit(0, "Mortar team", Kind="Squad", Figures="3", Battlegroup="n-2",
                 Where="In reserve")
    assert small_targets(page, CONTROLS) == [] and fits(page) == []
    screenshots(page, "01-filled")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    _, match, board, events = started(page, server)
    assert [s["name"] for s in match["sides"]] == [s["name"] for s in sample["sides"]]
    names = side_names(match)
    sample_sides = {s["id"]: s["name"] for s in sample["sides"]}
    got = {(names[u["side"]], u["name"]): u for u in board["units"]}  # a name on two sides
    assert set(got) == {(sample_sides[u["side"]], u["name"]) for u in sample["units"]} | {
        ("Northern Column", "Mortar team")}
    for unit in sample["units"]:
        mine = got[sample_sides[unit["side"]], unit["name"]]
        assert where(mine) == where(unit)
        for key in ("kind", "figures", "cv", "markers", "status", "extra"):
            assert mine[key] == unit[key], (unit["name"], key)
    mortar = got["Northern Column", "Mortar team"]
    assert (mortar["figures"], mortar["extra"], where(mortar)) == (
        3, {"battlegroup": "n-2"}, {"box": "reserve"})
    assert created_options(events) == sample["options"]
    decks = {names[c["side"]]: sorted(c["deck"]) for c in board["cards"]}
    assert decks == {sample_sides[s]: sorted(cards) for s, cards in sample["decks"].items()}


def test_the_services_own_refusal_is_shown_next_to_the_field(
        phone: Callable[[int], Any], server: str, console: list[str]) -> None:
    """What only the service checks (a table a hundred thousand inches wide at most) comes
    back as a 422 and is shown in words next to the field it names; no match is made."""
    page = phone(390)
    you = Thumb(page)
    you.type(you.form.get_by_label("Scenario name"), "Far away")
    you.type(you.side(0).get_by_label("Side name"), "Red")
    you.type(you.side(1).get_by_label("Side name"), "Blue")
    unit = you.add_unit(1, "Lost patrol", Across="200000", Along="3")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    across = unit.get_by_label("Across")
    error = across.locator("xpath=..").locator(".field-error")
    error.wait_for()
    assert error.inner_text() == "At most 100000."
    assert across.get_attribute("aria-invalid") == "true"
    assert page.evaluate("localStorage.getItem('battlelog.matches')") in (None, "{}")
    # The browser reports the refused request itself; nothing else may be in the console.
    assert all("422" in line for line in console), console
    console.clear()


def test_a_normandy_scenario_on_hexes_with_who_plays_whom(
        phone: Callable[[int], Any], server: str, screenshots: Shot) -> None:
    """Normandy's sample fills the form (hexes, who plays Allied and German, the cities it
    keeps); the sides' parts are chosen by name, swapped and swapped back, a unit added on a
    hex; the match starts with the sample's options and units, and the new one."""
    page = phone(360)
    you = Thumb(page)
    you.choose(you.form.get_by_label("Game system"), "Normandy")
    you.tap(you.form.get_by_role("button", name="Fill in the Normandy sample"))
    sample = httpx.get(f"{server}/api/scenarios/normandy-demo").json()
    allied = you.form.get_by_label("Allied side")
    german = you.form.get_by_label("German side")
    you.form.locator("details.unit-box summary").first.wait_for()
    # The sample's units come folded, a line each: name and hex.
    assert you.form.locator("details.unit-box summary").first.inner_text().split("\n") == [
        "I Corps HQ", "on hex 1612"]
    assert you.form.locator("details.unit-box[open]").count() == 0
    assert allied.locator("option:checked").inner_text() == "Second Army"
    assert german.locator("option:checked").inner_text() == "Panzergruppe West"
    you.choose(german, "Second Army")  # both parts to one side: refused in words
    you.tap(you.form.get_by_role("button", name="Start this match"))
    assert "Give each part to a different side." in you.form.locator(".options").inner_text()
    you.choose(german, "Panzergruppe West")
    you.add_unit(1, "Kampfgruppe Luck", Kind="Brigade", Steps="2", Movement="5",
                 Corps_HQ="LXXXVI Corps HQ", Where="On a hex", Hex="1207")
    assert small_targets(page, CONTROLS) == [] and fits(page) == []
    screenshots(page, "01-filled")
    you.tap(you.form.get_by_role("button", name="Start this match"))
    _, match, board, events = started(page, server)
    names = side_names(match)
    sample_sides = {s["id"]: s["name"] for s in sample["sides"]}
    options = created_options(events)
    assert {role: names[side] for role, side in options.pop("roles").items()} == {
        role: sample_sides[side] for role, side in sample["options"]["roles"].items()}
    assert {h: names[side] for h, side in options.pop("cities").items()} == {
        h: sample_sides[side] for h, side in sample["options"]["cities"].items()}
    assert options == {k: v for k, v in sample["options"].items() if k not in ("roles", "cities")}
    got = {(names[u["side"]], u["name"]): u for u in board["units"]}
    for unit in sample["units"]:
        mine = got[sample_sides[unit["side"]], unit["name"]]
        assert where(mine) == where(unit)
        for key in ("kind", "steps", "markers", "status"):
            assert mine[key] == unit[key], (unit["name"], key)
    new = got["Panzergruppe West", "Kampfgruppe Luck"]
    hq = got["Panzergruppe West", "LXXXVI Corps HQ"]
    assert (new["kind"], new["steps"], where(new)) == ("brigade", 2, {"hex": "1207"})
    assert new["extra"] == {"movement": 5, "corps": hq["id"]}
