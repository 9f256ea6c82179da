"""Annotations on the table page (docs/replay.md), in a real browser at 390x844: Blue steps
back one event, taps a comment in for everyone and a private chapter title there; the
referee's page, shown that event, reads the comment and the chapter (the referee reads
every annotation), the spectator's only the comment; every target of the panel is 44 px at
least. Screens land in test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from axe_steps import axe_source, readable, violations
from board_steps import demo_table
from table_steps import (
    PHONE,
    Shot,
    acted,
    fits_the_phone,
    join,
    join_link,
    panel_shot,
    small_targets,
    start_sample,
    version_of,
    wait_version,
)

pytestmark = pytest.mark.e2e


def annotate(page: Any, text: str, *, chapter: bool = False, seen_by: str = "Only me") -> None:
    notes = page.locator("#notes")
    notes.get_by_label("Comment or chapter title", exact=False).fill(text)
    if chapter:
        notes.locator("label.pick", has_text="A chapter title").click()
    notes.get_by_label("Who sees it").select_option(label=seen_by)
    notes.get_by_role("button", name="Add at event").click()
    acted(page)


def test_a_player_adds_a_comment_at_the_event_on_screen_by_tapping(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    referee = contexts().new_page()
    start_sample(referee, server)
    blue = join(contexts(viewport=PHONE), join_link(referee, "Free Militia"), "Bert", screenshots,
                "01-blue")
    wait_version(referee, version_of(blue))
    head = version_of(blue)
    blue.locator("#time").get_by_role("button", name="One event back").click()
    shown = head - 1
    notes = blue.locator("#notes")
    notes.get_by_role("button", name=f"Add at event {shown}").wait_for()
    assert small_targets(blue, "#notes button, #notes select, #notes textarea, #notes label.pick") == []
    annotate(blue, "The squad was pinned here, not routed", seen_by="Everyone")
    annotate(blue, "Bert's secret plan", chapter=True)
    notes.locator("li", has_text="pinned here").wait_for()
    said = notes.inner_text()
    assert "Chapter: Bert's secret plan" in said and "only you" in said
    assert fits_the_phone(blue)
    panel_shot(screenshots, blue, "02-blue-annotated", "#notes")
    assert version_of(blue) == head  # annotations are not the match's events

    referee.locator("#time").get_by_role("button", name="One event back").click()
    referee.locator("#notes li", has_text="pinned here").wait_for()
    assert "Chapter: Bert's secret plan" in referee.locator("#notes").inner_text()

    watcher = contexts(viewport=PHONE).new_page()
    link = referee.get_by_role("link", name="Spectator link").get_attribute("href")
    watcher.goto(str(link))
    watcher.wait_for_selector("#turn-marker")
    watcher.locator("#time").get_by_role("button", name="One event back").click()
    watcher.locator("#notes li", has_text="pinned here").wait_for()
    assert "secret plan" not in watcher.locator("#notes").inner_text()
    assert watcher.locator("#notes form").count() == 0  # a spectator adds none
    screenshots(watcher, "03-spectator")


def arrows(page: Any) -> list[str]:
    """The accessible names of the arrows drawn on the board."""
    return list(page.locator("#board svg.map .arrows [role=img]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"))


def ringed(page: Any) -> list[str]:
    """The units ringed on the board (a highlight), by id."""
    return list(page.locator("#board svg.map g.unit:has(.mark-ring)").evaluate_all(
        "els => els.map(e => e.dataset.unit)"))


def test_arrows_and_highlights_are_tapped_in_drawn_at_their_event_and_reach_others_live(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    """Blue, one event back, draws an arrow from the Militia Band to a point of the table
    for everyone and rings the two red squads for itself alone, by tapping; both are drawn on
    its board at that event (named in words) and gone one event earlier. Red's page, at the
    same event, draws the public arrow as it comes (no reload of its annotations) and never
    the private ring; Blue deletes the arrow and it leaves Red's board live too. axe finds
    nothing serious on Blue's page with both drawn; no console error anywhere."""
    referee = contexts().new_page()
    start_sample(referee, server)
    errors: list[str] = []
    blue = join(contexts(viewport=PHONE, has_touch=True), join_link(referee, "Free Militia"),
                "Bert", screenshots, "01-blue")
    red = join(contexts(viewport=PHONE, has_touch=True),
               join_link(referee, "Expeditionary Force"), "Rita", screenshots, "01-red")
    read_notes: list[str] = []
    red.on("request", lambda r: read_notes.append(r.url) if r.url.endswith("/annotations")
           else None)
    for page in (blue, red):
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        wait_version(page, version_of(referee))
        page.locator("#time").get_by_role("button", name="One event back").click()
    shown = version_of(blue) - 1
    red.locator("#notes").get_by_text(f"No annotation at event {shown}").wait_for()
    red.wait_for_function("() => document.querySelector('#live')?.dataset.state === 'live'")

    notes = blue.locator("#notes")
    notes.get_by_role("button", name="Draw an arrow").click()
    board = blue.locator("#board")
    board.get_by_text("Tap where the arrow starts").wait_for()
    board.get_by_role("button", name="Militia Band", exact=True).click()
    board.get_by_text("The arrow starts at Militia Band").wait_for()
    box = blue.locator("#board svg.map").bounding_box()
    blue.locator("#board svg.map").click(position={"x": box["width"] * 0.2,
                                                    "y": box["height"] * 0.5})
    board.get_by_label("Words on it (if you like)").fill("flank here")
    board.get_by_label("Who sees it").select_option(label="Everyone")
    assert small_targets(blue, "#board .prompt button, #board .prompt select, "
                               "#board .prompt textarea") == []
    screenshots(blue, "02-blue-arrow-draft")
    board.get_by_role("button", name=f"Save the arrow at event {shown}").click()
    acted(blue)
    drawn = arrows(blue)
    assert len(drawn) == 1 and drawn[0].startswith("Arrow from Militia Band to the point ")
    assert drawn[0].endswith(", by Free Militia: flank here"), drawn

    notes.get_by_role("button", name="Highlight units").click()
    board.get_by_role("button", name="1st Squad", exact=True).click()
    board.get_by_role("button", name="2nd Squad", exact=True).click()
    board.get_by_text("Ringed: 1st Squad, 2nd Squad").wait_for()
    board.get_by_role("button", name=f"Save the highlight at event {shown}").click()
    acted(blue)
    assert sorted(ringed(blue)) == ["sq1", "sq2"]
    squad = blue.locator('#board svg.map g.unit[data-unit="sq1"]').get_attribute("aria-label")
    assert squad and squad.endswith(", highlighted by Free Militia"), squad
    assert fits_the_phone(blue)
    panel_shot(screenshots, blue, "03-blue-drawn", "#board")
    found = violations(blue, axe_source())
    assert found == [], readable("blue's table with an arrow and a ring", found)

    # Red's page gets the public arrow live, without reading the annotations again
    red.locator("#board svg.map .arrows [role=img]").wait_for()
    before = len(read_notes)
    assert arrows(red) == drawn
    assert "flank here" in red.locator("#notes").inner_text()
    screenshots(red, "04-red-live")
    # ... and never the private ring: by now the ring's message would have come before
    # the arrow's (it was added after it), so wait for a later public one and look again
    blue_notes = blue.locator("#notes")
    annotate(blue, "A public word after the ring", seen_by="Everyone")
    red.locator("#notes li", has_text="A public word after the ring").wait_for()
    assert ringed(red) == [] and "highlighted" not in red.content()
    assert "Ringed" not in red.locator("#notes").inner_text()
    assert len(read_notes) == before  # all of it came on the live stream

    # gone one event earlier, back at its event
    blue.locator("#time").get_by_role("button", name="One event back").click()
    blue.locator("#notes").get_by_text(f"No annotation at event {shown - 1}").wait_for()
    assert arrows(blue) == [] and ringed(blue) == []
    blue.locator("#time").get_by_role("button", name="One event forward").click()
    blue_notes.locator("li", has_text="flank here").wait_for()
    assert len(arrows(blue)) == 1 and sorted(ringed(blue)) == ["sq1", "sq2"]

    # Blue takes 2nd Squad out of its highlight by tapping its units again
    ring = blue_notes.locator("li", has_text="Units ringed")
    ring.locator("summary", has_text="Change or delete").click()
    ring.get_by_role("button", name="Tap its units again").click()
    board.get_by_role("button", name="2nd Squad", exact=True).click()
    board.get_by_text("Ringed: 1st Squad.").wait_for()
    board.get_by_role("button", name="Save the units").click()
    acted(blue)
    assert ringed(blue) == ["sq1"]

    # Blue deletes its arrow: it leaves Red's board as it happens
    item = blue_notes.locator("li", has_text="flank here")
    item.locator("summary", has_text="Change or delete").click()
    item.get_by_role("button", name="Delete it").click()
    acted(blue)
    assert arrows(blue) == []
    red.wait_for_function("() => !document.querySelector('#board svg.map .arrows [role=img]')")
    assert len(read_notes) == before
    assert errors == [], errors


def test_on_a_hex_map_an_arrow_joins_two_hexes_and_a_tapped_counter_is_ringed(
        contexts: Callable[..., Any], server: str, screenshots: Shot) -> None:
    """The referee of a hex-map demo taps a counter's name for the arrow's start and a hex
    for its end, then a counter on the map itself to ring it: the arrow runs from hex to hex
    (its name says the unit and the hex), the ring is around that counter, and a second tap
    on the counter before saving takes it out again."""
    page, _, _ = demo_table(contexts, server, "extended-sequence-demo")
    notes = page.locator("#notes")
    notes.get_by_role("button", name="Draw an arrow").click()
    board = page.locator("#board")
    board.get_by_role("button", name="Leutnant Weber", exact=True).click()
    board.locator('svg.map g.hex[data-hex="0505"] polygon').first.click()
    board.get_by_text("Arrow from Leutnant Weber to hex 0505").wait_for()
    board.get_by_role("button", name="Save the arrow at event").click()
    acted(page)
    assert arrows(page) == ["Arrow from Leutnant Weber to hex 0505, by the referee"]
    line = page.locator("#board svg.map .arrow line.shaft")
    tail = [float(line.get_attribute(k) or "nan") for k in ("x1", "y1")]
    tip = page.locator("#board svg.map .arrow polygon.head").get_attribute("points")
    assert [float(v) for v in str(tip).split()[0].split(",")] == [
        7.5, pytest.approx(3 ** 0.5 * 5.5)]  # its point: the middle of hex 0505
    weber = page.locator('#board svg.map g.unit[data-unit="g-leader"] rect.counter')
    x, y, w, h = (float(weber.get_attribute(k) or "nan") for k in ("x", "y", "width", "height"))
    # it starts at the edge of the counter as drawn (laid out off its hex on a phone)
    assert abs(tail[0] - (x + w / 2)) <= h and abs(tail[1] - (y + h / 2)) <= h

    notes.get_by_role("button", name="Highlight units").click()
    counter = board.locator('svg.map g.unit[data-unit="g-hmg"]')
    counter.click()
    board.get_by_text("Ringed: MG 34 team").wait_for()
    board.locator('svg.map g.unit[data-unit="g-leader"]').click()
    board.get_by_text("Ringed: MG 34 team, Leutnant Weber").wait_for()
    board.locator('svg.map g.unit[data-unit="g-leader"]').click()  # taken out again
    board.get_by_text("Ringed: MG 34 team.").wait_for()
    board.get_by_role("button", name="Save the highlight at event").click()
    acted(page)
    assert ringed(page) == ["g-hmg"]
    assert fits_the_phone(page)
    panel_shot(screenshots, page, "hex-arrow-and-ring", "#board")
