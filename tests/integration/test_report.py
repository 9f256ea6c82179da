"""The after-action report (markdown and self-contained HTML): the turn-by-turn summary, the
disputes, the dice luck, and the SVG charts, parsed."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from fastapi.testclient import TestClient
from rulesets_helpers import Played

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
                     headers=m.auth("axis"))
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
    assert "- Outcome: allies: held the hill" in md
    assert "- Turn 1: " in md and "splits: 1st Squad -> sq1b" in md and "VP: axis +2" in md
    assert "left play: MG team (axis, destroyed)" in md and "rallied: 1st Squad" in md
    assert "disputes version" in md and "the VP stand (order: none)" in md
    assert "axis, d6: 2 dice" in md


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
