"""The after-action report (markdown and self-contained HTML): the turn-by-turn summary, the
disputes, the dice luck (a verdict only where the sample supports one), and the SVG charts,
parsed: each side in its colour, with its whole name in the legend."""

from __future__ import annotations

import colorsys
import re
import xml.etree.ElementTree as ET
from html import escape
from typing import Any
from uuid import UUID

from fastapi.testclient import TestClient
from rulesets_helpers import Played

from domain.app import Matches
from domain.integrity import Report as Verified
from projections import report
from projections.quoting import markdown_text

SVG = "{http://www.w3.org/2000/svg}"
MATCH = {"scenario": "Hill 112", "sides": [{"id": "allies", "name": "Allies"},
                                           {"id": "axis", "name": "Axis"}],
         "units": [{"id": "sq1", "side": "allies", "name": "1st Squad", "figures": 10,
                    "position": {"x": 1, "y": 1}},
                   {"id": "mg1", "side": "axis", "name": "MG team", "figures": 3,
                    "position": {"x": 9, "y": 9}}]}


def played(client: TestClient) -> Played:
    """Two turns: VP, a split, a rally, a unit destroyed, a dispute, dice, the end."""
    m = Played(client, MATCH)
    m.act("axis", type="roll_dice", notation="2d6", purpose="fire")
    m.act("axis", type="score_vp", side="axis", points=2)
    m.act("allies", type="split_unit", unit_id="sq1", new_unit_id="sq1b", figures=4)
    m.act("referee", type="advance", to="setup")  # on to turn 2
    m.act("allies", type="set_status", unit_id="sq1", set=["broken"])
    m.act("allies", type="rally_unit", unit_id="sq1")
    m.act("axis", type="remove_unit", unit_id="mg1", reason="destroyed")
    m.act("allies", type="score_vp", side="allies", points=5)
    [dispute] = m.act("axis", type="open_dispute", about_version=m.version, text="no way")
    r = client.post(f"/api/matches/{m.match}/disputes/{dispute['version']}/ruling",
                    json={"ruling": "the VP stand"}, headers=m.auth("referee"))
    assert r.status_code == 201
    m.act("referee", type="end_match", winner="allies", reason="held the hill")
    return m


def fetch(m: Played, form: str) -> Any:
    r = m.client.get(f"/api/matches/{m.match}/export", params={"format": form},
                     headers=m.auth("referee"))
    assert r.status_code == 200, r.text
    return r


def svgs(text: str) -> list[ET.Element]:
    out, start = [], 0
    while (begin := text.find("<svg", start)) != -1:
        end = text.index("</svg>", begin) + len("</svg>")
        out.append(ET.fromstring(text[begin:end]))
        start = end
    return out


def test_the_report_tells_the_match_turn_by_turn(client: TestClient) -> None:
    m = played(client)
    md = fetch(m, "md").text
    assert md.startswith("# After-action report: Hill 112")
    assert "- Outcome: won by Allies: held the hill" in md
    assert "- Turn 1: " in md and "splits: 1st Squad -> 1st Squad" in md and "VP: Axis +2" in md
    assert "left play: MG team (Axis, destroyed)" in md and "rallied: 1st Squad" in md
    assert "- Axis disputed&#58; Allies scored 5 victory points\\. “no way”" in md
    assert "the VP stand”" in md
    assert "Axis, d6: 2 dice, too few dice to judge" in md


def test_the_charts_are_svg_with_a_line_per_side_and_a_bar_per_face(
        client: TestClient) -> None:
    m = played(client)
    page = fetch(m, "html")
    assert page.headers["content-type"].startswith("text/html")
    assert "<script" not in page.text and "http://" not in page.text.replace(
        "http://www.w3.org/2000/svg", "")  # self-contained: nothing fetched
    charts = svgs(page.text)
    titles = [c.find(f"{SVG}title").text for c in charts]  # type: ignore[union-attr]
    assert titles == ["Victory points per side", "Units in play per side",
                      "Figures remaining per side", "d6: how often each face came up"]
    vp = charts[0].findall(f"{SVG}polyline")
    assert [p.get("data-side") for p in vp] == ["allies", "axis"]
    assert all(len(p.get("points", "").split()) == 2 for p in vp)  # two turns
    ys = {p.get("data-side"): [float(pt.split(",")[1]) for pt in p.get("points", "").split()]
          for p in vp}
    assert ys["allies"][1] < ys["allies"][0]  # 0 then 5 VP: the line goes up the page
    units = {p.get("data-side"): p for p in charts[1].findall(f"{SVG}polyline")}
    assert len(units["axis"].get("points", "").split()) == 2
    bars = charts[3].findall(f"{SVG}rect[@data-face]")
    assert len(bars) == 6 and sum(int(b.get("data-count", 0)) for b in bars) == 2


LONG = "Expeditionary Force of the Northern Alliance, its Allies and the Free Militia Bands"


def hue(colour: str) -> float:
    """The hue of '#rrggbb' in degrees (0 red, 120 green, 240 blue)."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)[0] * 360


def test_each_side_keeps_its_colour_and_its_whole_name_in_every_chart(
        client: TestClient) -> None:
    m = Played(client, {"scenario": "Colours", "sides": [
        {"id": "red", "name": LONG}, {"id": "blue", "name": "Blue"}]})
    m.act("red", type="score_vp", side="red", points=1)
    charts = [c for c in svgs(fetch(m, "html").text) if c.findall(f"{SVG}polyline")]
    assert charts
    for chart in charts:
        lines = {p.get("data-side"): p.get("stroke") for p in chart.findall(f"{SVG}polyline")}
        keys = {g.get("data-side"): g for g in chart.findall(f"{SVG}g[@data-side]")}
        assert set(keys) == set(lines) == {"red", "blue"}
        # red is drawn red and blue blue, as on the table page
        assert min(hue(lines["red"]), 360 - hue(lines["red"])) < 30
        assert 190 < hue(lines["blue"]) < 250
        for side, name in (("red", LONG), ("blue", "Blue")):
            key = keys[side]
            assert key.find(f"{SVG}line").get("stroke") == lines[side]  # type: ignore[union-attr]
            text = key.find(f"{SVG}text")
            assert text is not None and text.get("fill") == lines[side]
            spans = [t.text or "" for t in text.findall(f"{SVG}tspan")]
            assert " ".join(spans) == name  # whole, wrapped at spaces
        assert len(keys["red"].findall(f".//{SVG}tspan")) > 1  # the long name wraps


def test_luck_is_judged_only_where_the_dice_are_enough(client: TestClient) -> None:
    m = Played(client, MATCH)
    m.act("allies", type="roll_dice", notation="3d6", purpose="fire", source="table",
          results=[5, 4, 5])
    faces = [1, 2, 3, 4, 5, 6] * 6  # 36 dice of an ordinary spread
    for start in range(0, len(faces), 6):
        m.act("axis", type="roll_dice", notation="6d6", purpose="fire", source="table",
              results=faces[start:start + 6])
    md = fetch(m, "md").text
    [allies] = [line for line in md.splitlines() if line.startswith("- Allies, d6:")]
    assert allies.startswith("- Allies, d6: 3 dice, too few dice to judge")
    assert "luckier" not in allies and "chi-square" not in allies
    [axis] = [line for line in md.splitlines() if line.startswith("- Axis, d6:")]
    assert axis.startswith("- Axis, d6: 36 dice, about as expected") and "chi-square p = " in axis
    stats = fetch(m, "dice").json()["seats"]
    assert stats["allies"]["d6"]["verdict"] == "too few dice"
    assert stats["axis"]["d6"]["verdict"] == "as expected"


def test_a_side_name_in_the_legend_stays_text_in_markdown(client: TestClient) -> None:
    """In the Markdown report the charts are inline HTML in a paragraph, so a renderer reads
    their text as Markdown: the legend quotes each line of a name as the rest does."""
    from markdown_it import MarkdownIt

    name = "[a link](evil:alert) <b>bold</b> " * 3  # long: the legend wraps it
    m = Played(client, {"scenario": "s", "sides": [{"id": "red", "name": name},
                                                   {"id": "blue", "name": "Blue"}]})
    page = MarkdownIt("commonmark").render(fetch(m, "md").text)
    assert "<a " not in page and "<b>" not in page
    charts = [c for c in svgs(page) if c.findall(f"{SVG}polyline")]
    for chart in charts:
        [key] = [g for g in chart.findall(f"{SVG}g") if g.get("data-side") == "red"]
        shown = " ".join(t.text or "" for t in key.iter(f"{SVG}tspan"))
        assert shown == " ".join(name.split())


def test_the_report_says_each_event_as_the_log_does_and_names_every_side(
        client: TestClient) -> None:
    """The Markdown and HTML reports say each event of the effective history in the very
    sentence the events route gives it (projections.sentences), and the turn lines name the
    seats: never a side's id."""
    m = played(client)
    md, page = fetch(m, "md").text, fetch(m, "html").text
    events = m.get("/events", "spectator", limit=500)["events"]
    game = [e for e in events[1:] if not e["type"].startswith(("Seat", "Dispute", "DiceSeed", "DiceCommitted"))]
    assert len(game) > 8
    for e in game:
        assert f"  - {markdown_text(e['said'])}" in md, e["said"]
        assert f"<li>{escape(e['said'])}</li>" in page, e["said"]
    for e in (e for e in events if e["type"].startswith("Dispute")):
        assert f"- {markdown_text(e['said'])}" in md and escape(e["said"]) in page
    turns = [line for line in md.splitlines() if line.startswith("- Turn ")]
    assert len(turns) == 2
    for line in turns:
        assert not re.search(r"\b(allies|axis|referee)\b", line), line
        assert "Referee" in line and "Allies" in line
    assert "Allies (allies)" not in md and "(axis)" not in md


def test_the_report_shows_the_chain_head_and_the_check_battlelog_verify_makes(
        client: TestClient) -> None:
    m = played(client)  # ended: the seed is revealed, so the server's roll is recomputed
    verdict = m.get("/verify")
    head = m.get("")["chain_head"]
    assert verdict["ok"] and verdict["rolls_checked"] == 1 and verdict["chain_head"] == head
    said = (f"Chain head: {head} (after {verdict['events']} events)",
            (f"Check (as battlelog verify): OK: {verdict['events']} events linked and "
             "unchanged; 1 server roll or shuffle recomputed from the revealed seeds, all "
             "matching"))
    md = fetch(m, "md").text
    section = md[md.index("## Integrity"):md.index("## Charts")]
    assert [f"- {line}" for line in said] == section.splitlines()[2:4], section
    page = fetch(m, "html").text
    section = page[page.index("<h2>Integrity</h2>"):page.index("<h2>Charts</h2>")]
    assert section == f"<h2>Integrity</h2><ul><li>{said[0]}</li><li>{said[1]}</li></ul>"


def test_the_reports_integrity_section_names_what_the_check_found_wrong(
        client: TestClient, matches: Matches) -> None:
    m = played(client)
    events = matches.events_of(UUID(m.match), upto=matches.head(UUID(m.match)).version)
    problem = "line 5: event 4: server roll 0 should be [3, 4], not [6, 6]"
    built = report.build(events, integrity=Verified(events=9, chain_head="ab" * 32,
                                                    problems=[problem]))
    assert f"- Check (as battlelog verify): PROBLEM: {problem}" in report.markdown(built)
    assert f"<li>Check (as battlelog verify): PROBLEM: {escape(problem)}</li>" in report.html(
        built)
