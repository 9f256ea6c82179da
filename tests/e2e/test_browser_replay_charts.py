"""The replay file's after-action charts and clocks at each event, and its variations beside
the main line, opened from disk at 390x844 with every request refused."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from phone import assert_no_overflow, new_match
from replay_offline import Offline, referee_act, referee_get, shown, to_first, written
from replay_steps import play_to_turn
from table_steps import low_contrast, small_targets, unlabelled_controls


def test_the_charts_follow_the_event_and_the_clocks_stand_as_they_did(
        server: str, tmp_path: Path, offline: Callable[[], Offline],
        screenshots: Callable[[Any, str], Path]) -> None:
    """A clocked match with a server roll, played on to turn 3: the report's charts mark the
    turn of the event shown and outline the faces it rolled; the clocks at each version are
    the ones `GET .../clock?at=` gives (time left, whose time ran), none before the start."""
    match = new_match(server, "atomic-africa-demo")
    started = referee_act(server, match, {"type": "start_clock", "controls": {
        "red": {"total": 3600}, "blue": {"total": 2700}}})
    rolled = referee_act(server, match, {"type": "roll_dice", "notation": "2d6",
                                         "purpose": "fire", "unit_ids": ["sq1"]})
    last = play_to_turn(server, match, 3)
    [roll] = [e for e in referee_get(server, match, "/events", after=rolled - 1,
                                     limit=1)["events"]]
    path = written(server, match, tmp_path, "clocked")
    page = offline().open(path)
    lines = page.locator("#charts svg[data-turn]")
    assert lines.count() >= 2  # VP and units per side over the turns

    def marked() -> tuple[set[str], float]:
        turns = {str(lines.nth(i).get_attribute("data-turn")) for i in range(lines.count())}
        return turns, float(page.locator("#charts line.chart-now").first.get_attribute("x1") or 0)

    assert marked()[0] == {"1"}
    at_first = marked()[1]
    page.locator("#turn-forward").click()
    assert marked()[0] == {"2"} and marked()[1] > at_first
    assert_no_overflow(page)
    screenshots(page, "charts-turn-2")
    page.locator("#turn-forward").click()
    assert marked()[0] == {"3"}
    # the roll's faces outlined in its die's histogram; none at an event that rolled nothing
    to_first(page, last)
    page.evaluate(f"location.hash = '#v={rolled}'")
    page.wait_for_function("v => document.querySelector('#replay-shown').textContent"
                           ".startsWith(`Event ${v} of`)", arg=rolled)
    outlined = page.locator("#charts svg rect.rolled-now")
    assert {int(outlined.nth(i).get_attribute("data-face") or 0)
            for i in range(outlined.count())} == set(roll["dice"])
    page.locator("#step-back").click()
    assert page.locator("#charts svg rect.rolled-now").count() == 0
    # the clocks at every version, as the table page's time travel reads them
    for version in range(1, last + 1):
        page.evaluate(f"location.hash = '#v={version}'")
        page.wait_for_function("v => document.querySelector('#replay-shown').textContent"
                               ".startsWith(`Event ${v} of`)", arg=version)
        if version < started:
            assert not page.locator("#clock").is_visible(), version
            continue
        served = referee_get(server, match, "/clock", at=version)
        shown_clocks = [(el.get_attribute("data-side"), float(el.get_attribute(
            "data-remaining") or -1), el.locator(".state").inner_text())
            for el in page.locator("#clock .side-clock").all()]
        assert shown_clocks == [(s["side"], round(s["remaining"], 1),
                                 "running" if s["running"] and not served["paused"]
                                 else "waiting") for s in served["sides"]], version
    assert page.locator("#clock .side-clock.running").count() >= 1
    assert_no_overflow(page)
    assert low_contrast(page) == []
    screenshots(page, "clocks")


def test_a_reader_steps_into_a_variation_and_back_to_the_main_line(
        server: str, tmp_path: Path, offline: Callable[[], Offline],
        screenshots: Callable[[Any, str], Path]) -> None:
    """A what-if forked from the match, attached by red as a variation: red's file offers it
    at the event it branches at, plays its events with red's own sentences, and goes back."""
    match = new_match(server, "atomic-africa-demo")
    last = play_to_turn(server, match, 2)
    at = max(2, last // 2)
    r = httpx.post(f"{server}/api/matches/{match['id']}/fork", params={"at": at},
                   headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    assert r.status_code == 201, r.text
    fork = {"id": r.json()["match_id"], "seats": {"referee": r.json()["tokens"]["referee"]}}
    fork_start = int(r.json()["version"])  # the fork's version that stands for `at`
    for key, join in r.json()["tokens"].items():
        if key.startswith("join:"):
            joined = httpx.post(f"{server}/api/matches/{fork['id']}/seats",
                                json={"player": key}, headers={"Authorization": f"Bearer {join}"})
            assert joined.status_code == 201, joined.text
            fork["seats"][key.removeprefix("join:")] = joined.json()["token"]
    ahead = play_to_turn(server, fork, 3)
    note = httpx.post(f"{server}/api/matches/{match['id']}/annotations", json={
        "kind": "variation", "fork": fork["id"], "at_version": at, "text": "Push on",
        "visibility": "public"}, headers={"Authorization": f"Bearer {match['seats']['red']}"})
    assert note.status_code == 201, note.text
    r = httpx.get(f"{server}/api/matches/{match['id']}/replay", timeout=60,
                  headers={"Authorization": f"Bearer {match['seats']['red']}"})
    assert r.status_code == 200, r.text
    path = tmp_path / "variation.html"
    path.write_bytes(r.content)
    said = httpx.get(f"{server}/api/matches/{fork['id']}/events", params={"limit": 500},
                     headers={"Authorization": f"Bearer {fork['seats']['red']}"}).json()
    said = [e["said"] for e in said["events"]]
    page = offline().open(path, f"#v={at - 1}")
    assert page.locator("#variation-in-0").count() == 0  # offered where it branches only
    page.locator("#step-forward").click()
    door = page.locator("#variation-in-0")
    assert "Push on" in door.inner_text()
    assert small_targets(page, "#event button") == [] and unlabelled_controls(page) == []
    screenshots(page, "variation-door")
    door.click()
    banner = page.locator("#variation-shown").inner_text()
    assert banner.startswith("What-if “Push on”: event 0 of "), banner
    assert int(banner.split(" of ")[1].split()[0]) == ahead - fork_start  # all of it
    for version in range(fork_start + 1, ahead + 1):
        page.locator("#step-forward").click()
        assert page.locator("#said").inner_text() == said[version - 1], version
        assert page.locator("#board svg.map").count() == 1
    assert page.locator("#step-forward").is_disabled()
    assert small_targets(page, "#controls button, #event button") == []
    assert_no_overflow(page)
    screenshots(page, "variation-end")
    page.locator("#variation-out").click()
    assert shown(page).startswith(f"Event {at} of {last}")
    assert page.locator("#variation-shown").count() == 0
