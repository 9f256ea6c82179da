"""The replay file opened from disk on a 390x844 phone with every network request refused
(docs/replay.md): each demo, played on to turn 2 through the API, plays back event by event
with the log's own sentences, jumps by turn, follows a `#v=` link, and says it verified its
log; a file with a die face edited, or an event taken out, names the event that breaks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from phone import assert_no_overflow, new_match
from replay_offline import Offline, referee_act, referee_get, shown, to_first, written
from replay_steps import play_to_turn
from table_steps import low_contrast, small_targets, unlabelled_controls

from api.replay_page import DATA_OPEN, data_block
from api.replay_read import export_of
from domain.integrity import canonical

DEMOS = ["atomic-africa-demo", "battlegroup-demo", "extended-sequence-demo", "normandy-demo",
         "wing-command-demo"]


@pytest.mark.parametrize("demo", DEMOS)
def test_a_demos_replay_plays_back_offline_on_a_phone(
        browser: Any, server: str, tmp_path: Path, offline: Callable[[], Offline],
        screenshots: Callable[[Any, str], Path], demo: str) -> None:
    match = new_match(server, demo)
    last = play_to_turn(server, match, 2)
    head = referee_get(server, match, "")["chain_head"]
    said = [e["said"] for e in referee_get(server, match, "/events", limit=500)["events"]]
    assert len(said) == last
    path = written(server, match, tmp_path, demo)
    phone = offline()
    page = phone.open(path)
    assert page.locator("#verified").inner_text().startswith(
        f"Verified: {last} events, head hash {head}.")
    assert shown(page).startswith(f"Event 1 of {last}")
    screenshots(page, "opened")
    assert_no_overflow(page)
    assert small_targets(page, "#controls button, #contents button") == []
    assert unlabelled_controls(page) == [] and low_contrast(page) == []
    # every version, one event at a time, each with the log's own sentence
    for version in range(1, last + 1):
        assert shown(page).startswith(f"Event {version} of {last}"), version
        assert page.locator("#said").inner_text() == said[version - 1], version
        assert page.locator("#board svg.map").count() == 1
        if version < last:
            page.locator("#step-forward").click()
    assert page.evaluate("location.hash") == f"#v={last}"
    screenshots(page, "last")
    # by turn: from the first event to where turn 2 begins, and back
    to_first(page, last)
    page.locator("#turn-forward").click()
    at = int(shown(page).split()[1])
    assert referee_get(server, match, "/turn", at=at)["turn"] == 2
    assert referee_get(server, match, "/turn", at=at - 1)["turn"] == 1
    assert f"turn 2, {referee_get(server, match, '/turn', at=at)['title']}" in shown(page)
    page.locator("#turn-back").click()
    assert shown(page).startswith(f"Event 1 of {last}")
    page.locator(f"#turn-at-{at}").click()  # the table of turns
    assert shown(page).startswith(f"Event {at} of {last}")
    # by a step of the sequence: the next version where the step differs
    to_first(page, last)
    page.locator("#step-forward-sequence").click()
    moved = int(shown(page).split()[1])
    steps = [referee_get(server, match, "/turn", at=v)["step"] for v in (1, moved - 1, moved)]
    assert steps[0] == steps[1] != steps[2]
    # a link to a moment
    middle = max(1, last // 2)
    linked = phone.open(path, f"#v={middle}")
    assert shown(linked).startswith(f"Event {middle} of {last}")
    assert linked.locator("#said").inner_text() == said[middle - 1]
    screenshots(linked, "linked")


def proof_at(page: Any, version: int) -> tuple[str, str]:
    """The proof mark of the roll at `version` (its kind, its words), once the check ran."""
    page.evaluate(f"location.hash = '#v={version}'")
    page.wait_for_function("v => document.querySelector('#replay-shown').textContent"
                           ".startsWith(`Event ${v} of`)", arg=version)
    mark = page.locator("#roll-proof")
    return str(mark.get_attribute("data-proof")), str(mark.inner_text())


def with_export(path: Path, change: Callable[[list[str]], list[str]], name: str) -> Path:
    """A copy of the replay file at `path` whose export's lines are changed by `change`."""
    text = path.read_text(encoding="utf-8")
    start = text.index(DATA_OPEN)
    end = text.index("</script>", start) + len("</script>")
    data = json.loads(text[start + len(DATA_OPEN):end - len("</script>")])
    data["export"] = "\n".join(change(data["export"].split("\n")))
    out = path.with_name(name)
    out.write_text(text[:start] + data_block(data) + text[end:], encoding="utf-8")
    return out


def test_an_edited_die_or_a_missing_event_is_named_where_it_breaks(
        browser: Any, server: str, tmp_path: Path, offline: Callable[[], Offline],
        screenshots: Callable[[Any, str], Path]) -> None:
    match = new_match(server, "wing-command-demo")  # its server rolls dice in turn 1
    play_to_turn(server, match, 2)
    path = written(server, match, tmp_path, "untouched")
    export = export_of(path.read_text(encoding="utf-8")).splitlines()
    rolled = [json.loads(line) for line in export[1:] if '"dice":[' in line]
    assert rolled, "the match rolled no dice"
    roll = rolled[0]

    def edit_die(export: list[str]) -> list[str]:
        at = roll["version"]
        face = roll["dice"][0]
        export[at] = export[at].replace(f'"dice":[{face}', f'"dice":[{face % 6 + 1}', 1)
        return export

    gone = roll["version"] + 1

    def remove_event(export: list[str]) -> list[str]:
        return export[:gone] + export[gone + 1:]

    phone = offline()
    for name, changed, broken in (("die.html", edit_die, roll["version"]),
                                  ("missing.html", remove_event, gone)):
        page = phone.open(with_export(path, changed, name))
        words = page.locator("#verified").inner_text()
        assert words.startswith(f"Not verified: event {broken} "), words
        assert page.evaluate("document.body.dataset.brokenAt") == str(broken)
        screenshots(page, name.removesuffix(".html"))
        if name == "die.html":  # the roll itself says it does not match, in its own event
            proof = proof_at(page, roll["version"])
            assert proof == ("mismatch", proof[1]) and proof[1].startswith("Does not match"), proof
            screenshots(page, "die-proof")
    page = phone.open(path)
    assert page.evaluate("document.body.dataset.verified") == "yes"
    # before the seed is revealed each server roll is sealed; after the reveal, checked (the
    # initiative rolls too: their dice are checked in the order they were drawn)
    rolls_at = [json.loads(line)["version"] for line in export[1:] if '"roll_index":' in line]
    assert any('"InitiativeRolled"' in export[v] for v in rolls_at)
    assert [proof_at(page, v)[0] for v in rolls_at] == ["sealed"] * len(rolls_at)
    assert "Sealed until the seed is revealed" in proof_at(page, roll["version"])[1]
    r = httpx.post(f"{server}/api/matches/{match['id']}/dice/reveal",
                   headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    assert r.status_code == 201, r.text
    revealed = phone.open(written(server, match, tmp_path, "revealed"))
    assert revealed.evaluate("document.body.dataset.verified") == "yes", revealed.locator("#verified").inner_text()
    assert [proof_at(revealed, v)[0] for v in rolls_at] == ["checked"] * len(rolls_at)
    screenshots(revealed, "revealed-proof")
    # the file itself refuses any connection (its Content-Security-Policy), not only this test
    assert page.evaluate("""() => new Promise((done) => {
        document.addEventListener('securitypolicyviolation', (e) => done(e.effectiveDirective));
        fetch('https://example.org/').catch(() => {}); })""") == "connect-src"
    page.wait_for_timeout(100)
    phone.errors[:] = [e for e in phone.errors if "https://example.org/" not in e]  # said so
    # embedded (an iframe): the board and its play-back at the linked moment, less around it
    embedded = phone.open(path, "?embed#v=3")
    assert shown(embedded).startswith("Event 3 of ")
    assert embedded.locator("#board svg.map").is_visible()
    assert not embedded.locator("#units").is_visible()
    assert embedded.evaluate("document.body.dataset.verified") == "yes"
    screenshots(embedded, "embedded")


def test_annotations_show_at_their_versions_and_chapters_are_its_contents(
        server: str, tmp_path: Path, offline: Callable[[], Offline],
        screenshots: Callable[[Any, str], Path]) -> None:
    """A side's file (docs/replay.md): verified with the annotation lines its export carries
    after the events; its chapters jump to their version; a comment shows at its own, and an
    arrow and a highlight are drawn on the board there (named in words) and at no other; the
    other side's private comment is not in its bytes."""
    match = new_match(server, "atomic-africa-demo")
    last = play_to_turn(server, match, 2)
    sides = [seat for seat in match["seats"] if seat != "referee"]
    unit = next(u for u in referee_get(server, match, "/board", at=4)["units"]
                if u["position"] and u["position"].get("x") is not None)
    for seat, note in ((sides[0], {"kind": "chapter", "text": "The first fire", "at_version": 3,
                                    "upto_version": 5, "visibility": "public"}),
                       (sides[0], {"kind": "comment", "text": "Look at those dice",
                                   "at_version": 4, "visibility": "public"}),
                       (sides[1], {"kind": "comment", "text": "my own plan", "at_version": 4}),
                       (sides[0], {"kind": "arrow", "text": "flank here", "at_version": 4,
                                   "start": {k: unit["position"][k] for k in "xy"},
                                   "end": {"x": 20, "y": 20},
                                   "visibility": "public"}),
                       (sides[0], {"kind": "highlight", "units": [unit["id"]], "at_version": 4,
                                   "visibility": "public"})):
        r = httpx.post(f"{server}/api/matches/{match['id']}/annotations", json=note,
                       headers={"Authorization": f"Bearer {match['seats'][seat]}"})
        assert r.status_code == 201, r.text
    r = httpx.get(f"{server}/api/matches/{match['id']}/replay", timeout=60,
                  headers={"Authorization": f"Bearer {match['seats'][sides[0]]}"})
    assert r.status_code == 200, r.text
    assert "my own plan" not in r.text
    path = tmp_path / "annotated.html"
    path.write_bytes(r.content)
    page = offline().open(path)
    assert page.locator("#verified").inner_text().startswith(f"Verified: {last} events")
    page.locator("#chapter-at-3").click()
    assert shown(page).startswith(f"Event 3 of {last}")
    assert "Chapter: The first fire" in page.locator("#notes").inner_text()
    drawn = page.locator("#board svg.map .arrows [role=img]")
    ringed = page.locator("#board svg.map g.unit:has(.mark-ring)")
    assert drawn.count() == 0 and ringed.count() == 0  # not at event 3
    page.locator("#step-forward").click()
    notes = page.locator("#notes").inner_text()
    assert "Look at those dice" in notes and "The first fire" in notes
    assert drawn.count() == 1 and ringed.count() == 1
    assert str(drawn.get_attribute("aria-label")).startswith(f"Arrow from {unit['name']} to ")
    assert str(drawn.get_attribute("aria-label")).endswith(": flank here")
    assert ringed.get_attribute("data-unit") == unit["id"]
    assert small_targets(page, "#contents button") == []
    screenshots(page, "annotated")
    page.locator("#turn-forward").click()
    assert "No annotation at this event" in page.locator("#notes").inner_text()


def test_a_second_data_block_is_never_verified(
        server: str, tmp_path: Path, offline: Callable[[], Offline],
        screenshots: Callable[[Any, str], Path]) -> None:
    """(issue 37, finding 3) The page reads its one data block as `battlelog verify` does:
    with a second block after it, or a forged block in a comment, it says the file is not
    verified, whichever block it shows."""
    match = new_match(server, "atomic-africa-demo")
    referee_act(server, match, {"type": "roll_dice", "notation": "2d6", "purpose": "fire"})
    path = written(server, match, tmp_path, "untouched")
    text = path.read_text(encoding="utf-8")
    end = text.index("</script>", text.index(DATA_OPEN)) + len("</script>")

    def edit_die(lines: list[str]) -> list[str]:
        at = next(i for i, line in enumerate(lines) if '"DiceRolled"' in line)
        face = json.loads(lines[at])["dice"][0]
        lines[at] = lines[at].replace(f'"dice":[{face}', f'"dice":[{face % 6 + 1}', 1)
        return lines

    forged = with_export(path, edit_die, "forged.html").read_text(encoding="utf-8")
    block = forged[forged.index(DATA_OPEN):forged.index("</script>", forged.index(DATA_OPEN))
                   + len("</script>")]
    assert block != text[text.index(DATA_OPEN):end]
    phone = offline()
    assert phone.open(path).evaluate("document.body.dataset.verified") == "yes"
    for name, extra in (("two-blocks", block), ("in-a-comment", f"<!-- {block} -->")):
        bad = tmp_path / f"{name}.html"
        bad.write_text(text[:end] + extra + text[end:], encoding="utf-8")
        page = phone.open(bad)
        words = page.locator("#verified").inner_text()
        assert words.startswith("Not verified: the match file holds "), (name, words)
        assert page.evaluate("document.body.dataset.verified") == "no"
        screenshots(page, name)


def test_a_sides_replay_refuses_a_forged_hidden_key_or_count_and_says_what_it_left(
        browser: Any, server: str, tmp_path: Path, offline: Callable[[], Offline],
        screenshots: Callable[[Any, str], Path]) -> None:
    """South's file of a Battlegroup match (every side drew in round 1): it says how many
    events it could not check fully (the other sides' cards, committed); an initiative
    roll's dice changed with `"hidden":["cards"]` added, or the count of another side's
    hidden draw changed, each keeping its hash, is named where it breaks (docs/integrity.md)."""
    match = new_match(server, "battlegroup-demo")
    play_to_turn(server, match, 2)
    r = httpx.get(f"{server}/api/matches/{match['id']}/replay", timeout=60,
                  headers={"Authorization": f"Bearer {match['seats']['south']}"})
    assert r.status_code == 200, r.text
    path = tmp_path / "south.html"
    path.write_bytes(r.content)
    export = export_of(path.read_text(encoding="utf-8")).splitlines()
    bodies = [json.loads(line) for line in export[1:]]
    hidden = sum("hidden" in body for body in bodies)
    drawn = next(b for b in bodies if b["type"] == "CardsDrawn" and "hidden" in b)
    rolled = next(b for b in bodies if b["type"] == "InitiativeRolled")

    def changed(version: int, change: Callable[[dict[str, Any]], None]) -> Callable[
            [list[str]], list[str]]:
        def edit(lines: list[str]) -> list[str]:
            body = json.loads(lines[version])
            change(body)
            lines[version] = canonical(body)
            return lines
        return edit

    def luckier(body: dict[str, Any]) -> None:
        side = next(iter(body["dice"]))
        body["dice"][side] = body["dice"][side] % 6 + 1
        body["hidden"] = ["cards"]

    phone = offline()
    page = phone.open(path)
    words = page.locator("#verified").inner_text()
    assert page.evaluate("document.body.dataset.verified") == "yes", words
    assert hidden >= 2 and f"{hidden} events could not be checked fully" in words, words
    for name, edit, broken in (
            ("hidden-roll.html", changed(rolled["version"], luckier), rolled["version"]),
            ("count.html", changed(drawn["version"],
                                   lambda body: body.update(count=body["count"] + 1)),
             drawn["version"])):
        page = phone.open(with_export(path, edit, name))
        words = page.locator("#verified").inner_text()
        assert words.startswith(f"Not verified: event {broken} "), words
        screenshots(page, name.removesuffix(".html"))
