"""Exports are safe to open: text a player typed never runs as a spreadsheet formula in the
dice CSV, and never becomes markup, a script or a link in the Markdown or HTML report."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser
from typing import Any

from fastapi.testclient import TestClient
from markdown_it import MarkdownIt
from rulesets_helpers import Played

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PURPOSES = ['=HYPERLINK("http://evil.example","x")', "+SUM(1,2)", "-2+3", "@SUM(A1)",
            "\t=1+1", "\r=1+1", "fire at the =ridge"]
TEXT_COLUMNS = ("timestamp", "seat", "source", "notation", "faces", "purpose", "rule",
                "unit_ids")


def test_no_csv_cell_of_text_starts_a_formula_and_numbers_stay_numbers(
        client: TestClient) -> None:
    m = Played(client, {"scenario": "s", "sides": [{"id": "-A1", "name": "Minus"},
                                                   {"id": "blue", "name": "Blue"}],
                        "units": [{"id": "-B2", "side": "-A1", "name": "u"}]})
    for purpose in PURPOSES:
        m.act("-A1", type="roll_dice", notation="d6-3", purpose=purpose, rule="=1+1",
              unit_ids=["-B2"], source="table", results=[1])
    r = client.get(f"/api/matches/{m.match}/export", params={"format": "csv"},
                   headers=m.auth("blue"))
    assert r.status_code == 200, r.text
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert len(rows) == len(PURPOSES)
    for row in rows:
        for column in TEXT_COLUMNS:
            assert not row[column].startswith(FORMULA_STARTS), (column, row[column])
    # Neutralised the OWASP way (a leading single quote), the text itself kept whole:
    assert [row["purpose"] for row in rows] == [
        p if p == "fire at the =ridge" else "'" + p for p in PURPOSES]
    assert {(row["seat"], row["rule"], row["unit_ids"]) for row in rows} == {
        ("'-A1", "'=1+1", "'-B2")}
    # A number column holds numbers: a negative modifier or total is not text.
    assert {(row["modifier"], row["total"], row["faces"]) for row in rows} == {
        ("-3", "-2", "1")}
    assert ",-3,-2," in r.text.splitlines()[1]  # unquoted: a number


class Markup(HTMLParser):
    """Every tag and attribute of a page, and its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += attrs

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(page: str) -> Markup:
    markup = Markup()
    markup.feed(page)
    markup.close()
    return markup


SCENARIO = '<script>alert("scenario")</script>'
SIDE_NAMES = ["<img src=x onerror=alert(1)>", "\n\n[x](evil:alert)"]  # short: the charts' legend
UNIT_NAMES = ["**bold** <b>x</b>", "![img](http://evil.example/x.png)", "_u_ `c` #1 | ~~s~~"]
DISPUTE = ("line one\n\n# injected heading\n<script>alert(3)</script>\n"
           "[x](http://evil.example) <http://evil.example>")
RULING = '<a href="http://evil.example">ruling</a> www.evil.example mail@evil.example'
REASON = "&lt;b&gt; entity &amp; http://evil.example"
CHART_TAGS = {"svg", "title", "rect", "line", "text", "polyline", "circle", "g", "tspan"}
SAID = [SCENARIO, *SIDE_NAMES, *UNIT_NAMES, RULING, REASON]


def hostile(client: TestClient) -> Played:
    """A match whose every free text is hostile: scenario, side and unit names, a roll's
    purpose, notes, a dispute, a ruling, the reason the match ended."""
    m = Played(client, {
        "scenario": SCENARIO,
        "sides": [{"id": "red", "name": SIDE_NAMES[0]}, {"id": "blue", "name": SIDE_NAMES[1]}],
        "units": [{"id": f"u{i}", "side": "red", "name": name, "figures": 4}
                  for i, name in enumerate(UNIT_NAMES)]})
    m.act("red", type="roll_dice", notation="d6", purpose="<script>alert(4)</script>",
          source="table", results=[3])
    m.act("red", type="add_note", text="<script>alert(5)</script>")
    m.act("red", type="split_unit", unit_id="u0", new_unit_id="u0-b", figures=2)
    m.act("red", type="set_status", unit_id="u0", set=["broken"])
    m.act("red", type="rally_unit", unit_id="u0")
    m.act("red", type="remove_unit", unit_id="u1", reason="destroyed")
    m.act("red", type="remove_unit", unit_id="u2", reason="withdrawn")
    [opened] = m.act("blue", type="open_dispute", about_version=m.version, text=DISPUTE)
    r = client.post(f"/api/matches/{m.match}/disputes/{opened['version']}/ruling",
                    json={"ruling": RULING}, headers=m.auth("referee"))
    assert r.status_code == 201, r.text
    m.act("referee", type="end_match", winner="red", reason=REASON)
    return m


def report(m: Played, form: str) -> str:
    r = m.client.get(f"/api/matches/{m.match}/export", params={"format": form},
                     headers=m.auth("blue"))
    assert r.status_code == 200, r.text
    return r.text


def test_the_markdown_report_quotes_every_text_so_no_renderer_marks_it_up(
        client: TestClient) -> None:
    text = report(hostile(client), "md")
    # A CommonMark renderer that passes raw HTML through (the common default), with GFM
    # tables and strikethrough: only the report's own headings, lists and charts come out.
    page = MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text)
    markup = parsed(page)
    assert set(markup.tags) <= {"h1", "h2", "ul", "li", "p", *CHART_TAGS}, set(markup.tags)
    # its own sections: turn by turn, disputes, dice, integrity, charts
    assert markup.tags.count("h1") == 1 and markup.tags.count("h2") == 5
    names = {name for name, _ in markup.attributes}
    assert not {"href", "src"} & names and not any(n.startswith("on") for n in names)
    shown = " ".join("".join(markup.text).split())
    for said in SAID:
        assert " ".join(said.split()) in shown, said  # quoted faithfully, not dropped
    assert "injected heading" in shown
    # Bare addresses, which GFM and linkify turn into links, are broken up in the source.
    for trigger in ("http://", "www.evil", "@evil", "javascript:"):
        assert trigger not in text.replace("http://www.w3.org/2000/svg", ""), trigger
    # User text never starts a line, so it never starts a block (a heading, HTML, a list):
    # each line is ours (a heading, an item, an event's item under its turn, a chart).
    assert all(line.startswith(("#", "- ", "  - ", "<svg")) or not line
               for line in text.splitlines())


def test_the_html_report_escapes_every_text(client: TestClient) -> None:
    page = report(hostile(client), "html")
    markup = parsed(page)
    assert set(markup.tags) <= {"html", "head", "meta", "title", "style", "body", "h1", "h2",
                                "ul", "li", *CHART_TAGS}, set(markup.tags)
    names = {name for name, _ in markup.attributes}
    assert not {"href", "src"} & names and not any(n.startswith("on") for n in names)
    shown = "".join(markup.text)
    for said in [*SAID, DISPUTE]:
        assert said in shown, said
    side_labels: list[Any] = [v for n, v in markup.attributes if n == "data-side"]
    assert side_labels and set(side_labels) <= {"red", "blue"}
