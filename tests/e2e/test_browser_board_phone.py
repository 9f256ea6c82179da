"""The board on a phone (issue 17), in a real browser against a real `battlelog serve`, at 360,
390 and 430 pixels wide: the five demos' maps fit the screen with no horizontal overflow; each
unit's counter reaches 44 by 44 px after a few taps on "+" (the test counts them) with a name
label of 12 px at least; stacked units fan out so no two counters overlap and each is tapped
on its own; the Normandy map shows every hex with a unit, a marker or a city, the cities named;
"+" and "−" change the viewBox and "Fit" restores it; a drag pans without selecting; each side
is drawn in the colour the match view gives it. Only the board panel is looked at (#board,
svg.map): the other panels belong to other work. Screens under test-artifacts/."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import ARTIFACTS
from test_browser_table import policed_contexts

pytestmark = pytest.mark.e2e
Shot = Callable[[Any, str], Path]
DEMOS = ["atomic-africa-demo", "battlegroup-demo", "extended-sequence-demo", "normandy-demo",
         "wing-command-demo"]
WIDTHS = [360, 390, 430]
MAX_TAPS = 5  # taps on "+" a player may need before every counter is 44 px (2x each)


@pytest.fixture
def board_shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """`shot(page, name)` saves the board panel as a PNG under test-artifacts/<test>/."""
    folder = ARTIFACTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)

    def shot(page: Any, name: str) -> Path:
        path: Path = folder / f"{name}.png"
        page.locator("#board").screenshot(path=str(path))
        return path

    return shot


@pytest.fixture
def contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    yield from policed_contexts(browser, server)


def rgb(colour: str) -> str:
    """'#b3261e' as the browser computes it: 'rgb(179, 38, 30)'."""
    return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


def create(server: str, body: dict[str, Any]) -> tuple[str, dict[str, str]]:
    r = httpx.post(f"{server}/api/matches", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["match_id"]), dict(r.json()["tokens"])


def open_table(contexts: Callable[..., Any], server: str, match: str, token: str,
               width: int = 390) -> Any:
    """The table page of `match` on a phone `width` pixels wide, as the seat of `token`."""
    page = contexts(viewport={"width": width, "height": 844}, is_mobile=True,
                    has_touch=True).new_page()
    page.goto(f"{server}/play/{match}#seat={token}")
    page.wait_for_selector("#board svg.map g.unit, #board svg.map g.hex")
    return page


def demo_table(contexts: Callable[..., Any], server: str, demo: str,
               width: int = 390) -> tuple[Any, str, dict[str, str]]:
    match, tokens = create(server, httpx.get(f"{server}/api/scenarios/{demo}").json())
    return open_table(contexts, server, match, tokens["referee"], width), match, tokens


def overflow(page: Any) -> int:
    """How many pixels the page is wider than the screen (0: none)."""
    return int(page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - window.innerWidth"))


def counters(page: Any) -> list[dict[str, Any]]:
    """Each unit mark on the map: its unit, box (CSS px), fill, label and label size."""
    return list(page.evaluate("""() => {
      const svg = document.querySelector('#board svg.map');
      const scale = svg.getScreenCTM().a;
      return [...svg.querySelectorAll('g.unit')].map(g => {
        const r = g.querySelector('rect.counter').getBoundingClientRect();
        const label = g.querySelector('text.unit-name');
        return {unit: g.dataset.unit, side: g.dataset.side, x: r.left, y: r.top,
                w: r.width, h: r.height, fill: getComputedStyle(g.querySelector('rect.counter')).fill,
                label: label.textContent, font: Number(label.getAttribute('font-size')) * scale,
                aria: g.getAttribute('aria-label'), pressed: g.getAttribute('aria-pressed')};
      });
    }"""))


def view_box(page: Any) -> list[float]:
    return [float(v) for v in page.locator("#board svg.map").get_attribute("viewBox").split()]


def tap_tool(page: Any, name: str) -> None:
    page.locator("#board .map-tools").get_by_role("button", name=name).click()


def wheel_in(page: Any, x: float, y: float) -> None:
    """One turn of the mouse wheel over (x, y): the map zooms in about that point."""
    before = page.locator("#board svg.map").get_attribute("viewBox")
    page.mouse.move(x, y)
    page.mouse.wheel(0, -250)
    page.wait_for_function("b => document.querySelector('#board svg.map')"
                           ".getAttribute('viewBox') !== b", arg=before)


def overlapping(boxes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(a["unit"], b["unit"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
            and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("demo", DEMOS)
def test_each_demo_map_fits_a_phone_and_its_counters_reach_44_px(
        contexts: Callable[..., Any], server: str, board_shot: Shot, demo: str,
        width: int) -> None:
    page, match, tokens = demo_table(contexts, server, demo, width)
    assert overflow(page) <= 0, f"the table page overflows a {width} px screen"
    svg = page.locator("#board svg.map").bounding_box()
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= width
    for name in ("Zoom in", "Zoom out", "Fit the whole map"):
        box = page.locator("#board .map-tools").get_by_role("button", name=name).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (name, box)

    scenario = httpx.get(f"{server}/api/scenarios/{demo}").json()
    units = {u["id"]: u for u in scenario["units"]
             if u.get("position", {}).get("x") is not None or u.get("position", {}).get("hex")}
    sides = httpx.get(f"{server}/api/matches/{match}",
                      headers={"Authorization": f"Bearer {tokens['referee']}"}).json()["sides"]
    colours = {s["id"]: rgb(s["colour"]) for s in sides}
    names = {s["id"]: s["name"] for s in sides}
    if width == 390:
        board_shot(page, f"{demo}-1-fit")

    marks = counters(page)
    assert {m["unit"] for m in marks} == set(units)
    for m in marks:
        unit = units[m["unit"]]
        assert m["fill"] == colours[unit["side"]], "each side in the colour the API gives it"
        assert m["label"] != unit["id"] and unit["name"].startswith(m["label"].rstrip("…")[:3])
        assert unit["name"] in m["aria"] and names[unit["side"]] in m["aria"]

    # a unit selected by a tap, "+" zooms in on it
    first = next(iter(sorted(units)))
    page.locator(f'#board svg.map g.unit[data-unit="{first}"]').click()
    page.wait_for_selector(f'#board svg.map g.unit.selected[data-unit="{first}"]')
    taps = 0
    while min(min(m["w"], m["h"]) for m in counters(page)) < 44:
        assert taps < MAX_TAPS, f"counters still under 44 px after {taps} taps on +"
        tap_tool(page, "Zoom in")
        taps += 1
    marks = counters(page)
    assert all(m["w"] >= 44 and m["h"] >= 44 for m in marks)
    svg = page.locator("#board svg.map").bounding_box()
    chosen = next(m for m in marks if m["unit"] == first)
    assert svg["x"] <= chosen["x"] + chosen["w"] / 2 <= svg["x"] + svg["width"]
    assert svg["y"] <= chosen["y"] + chosen["h"] / 2 <= svg["y"] + svg["height"], (
        "the selected unit stays in view")
    assert all(m["font"] >= 12 for m in marks), [(m["unit"], m["font"]) for m in marks]
    assert overflow(page) <= 0, "zooming in must not widen the page"
    if width == 390:
        board_shot(page, f"{demo}-2-zoomed-{taps}-taps")


def test_markers_are_drawn_per_kind_with_their_count(
        contexts: Callable[..., Any], server: str, board_shot: Shot) -> None:
    body = httpx.get(f"{server}/api/scenarios/atomic-africa-demo").json()
    body["units"][0]["markers"] = {"wound": 2, "suppression": 1, "smoke": 3}
    match, tokens = create(server, body)
    page = open_table(contexts, server, match, tokens["referee"])
    sq1 = page.locator('#board svg.map g.unit[data-unit="sq1"]')
    found = {b.get_attribute("data-kind"): (b.locator("text").text_content(),
                                            b.get_attribute("aria-label"))
             for b in sq1.locator("g.badge").all()}
    assert found == {"wound": ("W2", "2 wound markers"),
                     "suppression": ("Su1", "1 suppression marker"),
                     "smoke": ("Sm3", "3 smoke markers")}
    assert "2 wound markers" in (sq1.get_attribute("aria-label") or "")
    legend = page.locator("#board .map-legend").inner_text()
    assert "W wound" in legend and "Su suppression" in legend and "Sm smoke" in legend
    page.locator("#board svg.map").scroll_into_view_if_needed()
    box = sq1.locator("rect.counter").bounding_box()
    for _ in range(12):  # zoom in on sq1 with the wheel, to look at its badges
        if sq1.locator("rect.counter").bounding_box()["height"] >= 44:
            break
        wheel_in(page, box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    board_shot(page, "markers-per-kind")


@pytest.mark.parametrize("where", ["table", "hexes"])
def test_stacked_units_fan_out_each_tappable_and_the_selected_one_stands_out(
        contexts: Callable[..., Any], server: str, board_shot: Shot, where: str) -> None:
    spot = {"x": 20, "y": 14} if where == "table" else {"hex": "0504"}
    other = {"x": 30, "y": 20} if where == "table" else {"hex": "0807"}
    body = {"ruleset": "freeform", "scenario": f"A crowded {where}",
            "sides": [{"id": "reds", "name": "Red Army"}, {"id": "blues", "name": "Blue Band"}],
            "units": [{"id": f"u{i}", "side": "reds" if i % 2 else "blues",
                       "name": f"Company {i}", "kind": "company", "position": spot,
                       **({"markers": {"wound": i}} if i else {})} for i in range(4)]
            + [{"id": "lone", "side": "blues", "name": "Lone Scouts", "kind": "team",
                "position": other}]}
    match, tokens = create(server, body)
    page = open_table(contexts, server, match, tokens["referee"])
    marks = [m for m in counters(page) if m["unit"] != "lone"]
    assert len(marks) == 4
    assert overlapping(marks) == [], "units on one spot fan out"
    # the mouse wheel zooms in about the pointer, held over the stack
    page.locator("#board svg.map").scroll_into_view_if_needed()
    marks = [m for m in counters(page) if m["unit"] != "lone"]
    middle = (sum(m["x"] + m["w"] / 2 for m in marks) / 4, sum(m["y"] + m["h"] / 2 for m in marks) / 4)
    for _ in range(12):
        if min(m["h"] for m in counters(page)) >= 44:
            break
        wheel_in(page, *middle)
    marks = [m for m in counters(page) if m["unit"] != "lone"]
    assert min(m["h"] for m in marks) >= 44
    assert overlapping(marks) == []
    assert overflow(page) <= 0
    for m in marks:  # each one is tapped on its own, at its centre
        hit = page.evaluate("p => document.elementFromPoint(p.x, p.y)?.closest('g.unit')"
                            "?.dataset.unit", {"x": m["x"] + m["w"] / 2, "y": m["y"] + m["h"] / 2})
        assert hit == m["unit"], f"the centre of {m['unit']}'s counter taps {hit}"
    mark = page.locator('#board svg.map g.unit[data-unit="u2"]')
    mark.click()
    mark = page.locator('#board svg.map g.unit[data-unit="u2"]')
    assert mark.get_attribute("aria-pressed") == "true"
    assert mark.locator("rect.ring").count() == 1, "the selected unit is ringed"
    last = page.evaluate("[...document.querySelectorAll('#board svg.map g.unit')].at(-1)"
                         ".dataset.unit")
    assert last == "u2", "the selected unit is drawn on top"
    board_shot(page, f"stacked-on-the-{where}")


def test_the_normandy_map_shows_every_hex_with_a_unit_marker_or_city_and_names_the_cities(
        contexts: Callable[..., Any], server: str, board_shot: Shot) -> None:
    page, match, tokens = demo_table(contexts, server, "normandy-demo")
    board = httpx.get(f"{server}/api/matches/{match}/board",
                      headers={"Authorization": f"Bearer {tokens['referee']}"}).json()
    cities = {c["hex"]: c for c in board["map"]["cities"]}
    held = {"allied": "Second Army", "german": "Panzergruppe West"}
    wanted = ({u["position"]["hex"] for u in board["units"] if u["position"].get("hex")}
              | set(board["location_markers"]) | set(cities))
    svg = page.locator("#board svg.map").bounding_box()
    for hex_id in sorted(wanted):
        cell = page.locator(f'#board svg.map g.hex[data-hex="{hex_id}"] polygon').first
        box = cell.bounding_box()
        assert box is not None, f"hex {hex_id} is not drawn"
        assert (box["x"] >= svg["x"] - 0.5 and box["y"] >= svg["y"] - 0.5
                and box["x"] + box["width"] <= svg["x"] + svg["width"] + 0.5
                and box["y"] + box["height"] <= svg["y"] + svg["height"] + 0.5), (
            f"hex {hex_id} is cut: {box} outside {svg}")
    for hex_id, city in cities.items():
        cell = page.locator(f'#board svg.map g.hex[data-hex="{hex_id}"]')
        assert cell.get_attribute("data-city") == city["name"]
        title = cell.locator("title").text_content() or ""
        assert city["name"] in title and held[city["controlled_by"]] in title
    labels = page.locator("#board svg.map .city-label text").all_text_contents()
    assert sorted(labels) == sorted(c["name"] for c in cities.values())
    legend = page.locator("#board .map-legend").inner_text()
    assert "Caen (Panzergruppe West)" in legend and "Bayeux (Second Army)" in legend
    badge = page.locator('#board svg.map g.unit[data-unit="g-21pz"] g.badge')
    assert badge.locator("text").text_content() == "D1"
    assert badge.get_attribute("aria-label") == "1 disorganized marker"
    board_shot(page, "normandy-cities")


def test_zoom_buttons_change_the_view_and_fit_restores_it(
        contexts: Callable[..., Any], server: str) -> None:
    page, _, _ = demo_table(contexts, server, "battlegroup-demo")
    fit = view_box(page)
    tap_tool(page, "Zoom in")
    zoomed = view_box(page)
    assert zoomed[2] == pytest.approx(fit[2] / 2) and zoomed[3] == pytest.approx(fit[3] / 2)
    tap_tool(page, "Zoom in")
    assert view_box(page)[2] == pytest.approx(fit[2] / 4)
    tap_tool(page, "Zoom out")
    assert view_box(page)[2] == pytest.approx(fit[2] / 2)
    tap_tool(page, "Fit the whole map")
    assert view_box(page) == fit
    box = page.locator("#board svg.map").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
    page.mouse.wheel(0, -300)  # a mouse wheel zooms in about the pointer
    page.wait_for_function("f => document.querySelector('#board svg.map')"
                           ".getAttribute('viewBox') !== f", arg=" ".join(map(str, fit)))
    assert view_box(page)[2] < fit[2]
    tap_tool(page, "Fit the whole map")
    assert view_box(page) == fit


def test_a_drag_pans_without_selecting_and_a_tap_selects(
        contexts: Callable[..., Any], server: str, board_shot: Shot) -> None:
    page, _, _ = demo_table(contexts, server, "extended-sequence-demo")
    tap_tool(page, "Zoom in")
    page.locator("#board svg.map").scroll_into_view_if_needed()
    before = view_box(page)
    svg = page.locator("#board svg.map").bounding_box()
    middle = (svg["x"] + svg["width"] / 2, svg["y"] + svg["height"] / 2)
    nearest = min(counters(page), key=lambda m: abs(m["x"] + m["w"] / 2 - middle[0])
                  + abs(m["y"] + m["h"] / 2 - middle[1]))  # a unit well inside the view
    unit = f'g.unit[data-unit="{nearest["unit"]}"]'
    x, y = nearest["x"] + nearest["w"] / 2, nearest["y"] + nearest["h"] / 2
    assert page.evaluate("p => document.elementFromPoint(p.x, p.y)?.closest('g.unit')"
                         "?.dataset.unit", {"x": x, "y": y}) == nearest["unit"]
    sx, sy = (6 if x < middle[0] else -6), (4 if y < middle[1] else -4)  # towards the middle
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(x + sx * step, y + sy * step)
    page.mouse.up()
    after = view_box(page)
    assert after[0] == pytest.approx(before[0] - 10 * sx / scale(page), abs=0.05)
    assert after[1] == pytest.approx(before[1] - 10 * sy / scale(page), abs=0.05)
    assert page.locator(f"#board svg.map {unit}").get_attribute("aria-pressed") == "false"
    assert page.locator("#board svg.map g.unit.selected").count() == 0, "a drag selects nothing"
    page.locator(f"#board svg.map {unit}").tap()
    page.wait_for_selector(f"#board svg.map {unit}.selected")
    assert page.locator(f"#board svg.map {unit}").get_attribute("aria-pressed") == "true"
    assert view_box(page) == after, "the view survives the page's re-render"
    board_shot(page, "panned-then-selected")


def scale(page: Any) -> float:
    return float(page.evaluate("document.querySelector('#board svg.map').getScreenCTM().a"))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_join_page_the_report_and_the_docs_do_not_overflow_a_phone(
        contexts: Callable[..., Any], server: str, screenshots: Shot, width: int) -> None:
    match, tokens = create(server, httpx.get(f"{server}/api/scenarios/normandy-demo").json())
    phone = contexts(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True)
    join = phone.new_page()
    join.goto(f"{server}/play/{match}#join={tokens['join:allied']}")
    join.get_by_label("Your name").wait_for()
    assert overflow(join) <= 0, "the join page"
    for control in join.locator("main button, main input").all():
        box = control.bounding_box()
        assert box["height"] >= 44, control.evaluate("e => e.outerHTML")
    screenshots(join, f"join-{width}")
    report = phone.new_page()
    html = httpx.get(f"{server}/api/matches/{match}/export", params={"format": "html"},
                     headers={"Authorization": f"Bearer {tokens['referee']}"}).text
    report.set_content(html)
    assert overflow(report) <= 0, "the report"
    docs = phone.new_page()
    docs.goto(f"{server}/docs")
    docs.wait_for_selector(".swagger-ui .info")
    assert overflow(docs) <= 0, "the API docs landing"


# ---- the map alone (board.js's renderMap on a page of its own), with real touches ----------

HARNESS = """async ({board, placing}) => {
  const { renderMap } = await import('/static/board.js');
  window.placed = []; window.selected = [];
  const sides = [{id: 'reds', name: 'Red Army', colour: '#b3261e'},
                 {id: 'blues', name: 'Blue Band', colour: '#1f5fbf'}];
  const draw = () => {
    const section = document.querySelector('#board') || document.body.appendChild(
      Object.assign(document.createElement('section'), {id: 'board', className: 'panel'}));
    section.replaceChildren(renderMap(board, sides, {
      selected: window.selected.at(-1),
      onSelect: (id) => { window.selected.push(id); draw(); },
      onPlace: placing ? (to) => window.placed.push(to) : null}));
  };
  document.querySelector('#main')?.remove();
  draw();
}"""


def unit(uid: str, side: str, name: str, position: dict[str, Any]) -> dict[str, Any]:
    return {"id": uid, "side": side, "name": name, "kind": "company", "position": position,
            "markers": {}, "status": [], "computed": {}}


TABLE = {"scenario": "A field", "location_markers": {}, "map": None,
         "units": [unit("a", "reds", "Alpha Company", {"x": 10, "y": 10}),
                   unit("b", "blues", "Bravo Company", {"x": 30, "y": 20})]}
HEXES = {"scenario": "A valley", "location_markers": {"0305": {"smoke": 1}},
         "map": {"extent": {"first_column": 2, "last_column": 6, "first_row": 2, "last_row": 6},
                 "cities": [{"hex": "0602", "name": "Hamlet", "controlled_by": "blues"}]},
         "units": [unit("a", "reds", "Alpha Company", {"hex": "0203"}),
                   unit("b", "blues", "Bravo Company", {"hex": "0504"})]}


def harness(contexts: Callable[..., Any], server: str, board: dict[str, Any],
            placing: bool = False) -> Any:
    page = contexts(viewport={"width": 390, "height": 844}, is_mobile=True,
                    has_touch=True).new_page()
    page.goto(server)
    page.evaluate(HARNESS, {"board": board, "placing": placing})
    page.wait_for_selector("#board svg.map g.unit")
    page.locator("#board svg.map").scroll_into_view_if_needed()
    return page


class Touch:
    """Real touch points (Chrome DevTools Protocol): the page gets touch pointer events."""

    def __init__(self, page: Any) -> None:
        self.cdp = page.context.new_cdp_session(page)

    def send(self, kind: str, *points: tuple[float, float]) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {
            "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in
                                          enumerate(points)]})

    def drag(self, x: float, y: float, dx: float, dy: float, steps: int = 10) -> None:
        self.send("touchStart", (x, y))
        for i in range(1, steps + 1):
            self.send("touchMove", (x + dx * i / steps, y + dy * i / steps))
        self.send("touchEnd")

    def pinch(self, x: float, y: float, start: float, end: float, steps: int = 10) -> None:
        self.send("touchStart", (x - start, y), (x + start, y))
        for i in range(1, steps + 1):
            d = start + (end - start) * i / steps
            self.send("touchMove", (x - d, y), (x + d, y))
        self.send("touchEnd")

    def tap(self, x: float, y: float) -> None:
        self.send("touchStart", (x, y))
        self.send("touchEnd")


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("board", [TABLE, HEXES], ids=["table", "hexes"])
def test_a_touch_drag_pans_a_pinch_zooms_and_neither_selects_nor_places(
        contexts: Callable[..., Any], server: str, board_shot: Shot,
        board: dict[str, Any]) -> None:
    page = harness(contexts, server, board, placing=True)
    touch = Touch(page)
    fit = view_box(page)
    x, y = centre(page, "#board svg.map")
    touch.pinch(x, y, 30, 120)  # fingers apart: closer in, about the middle of the fingers
    pinched = view_box(page)
    assert pinched[2] < fit[2] / 2 and pinched[3] < fit[3] / 2
    assert pinched[0] + pinched[2] / 2 == pytest.approx(fit[0] + fit[2] / 2, abs=0.2)
    touch.drag(x, y, -80, -50)  # the map follows the finger
    dragged = view_box(page)
    per_px = pinched[2] / page.locator("#board svg.map").bounding_box()["width"]
    assert dragged[0] == pytest.approx(pinched[0] + 80 * per_px, rel=0.05)
    assert dragged[1] == pytest.approx(pinched[1] + 50 * per_px, rel=0.05)
    assert page.evaluate("[window.placed, window.selected]") == [[], []]
    tap_tool(page, "Fit the whole map")
    assert view_box(page) == fit
    board_shot(page, "touch")


def test_a_tap_while_placing_gives_the_point_or_the_hex_and_a_tap_selects_otherwise(
        contexts: Callable[..., Any], server: str) -> None:
    page = harness(contexts, server, TABLE, placing=True)
    svg = page.locator("#board svg.map")
    point = svg.evaluate("svg => { const m = svg.getScreenCTM(); "
                         "return [m.a * 20 + m.e, m.d * 12 + m.f]; }")  # (20, 12) in inches
    Touch(page).tap(*point)
    page.wait_for_function("window.placed.length === 1")
    assert page.evaluate("window.placed") == [{"x": 20, "y": 12}]
    Touch(page).tap(*centre(page, '#board svg.map g.unit[data-unit="a"] rect.counter'))
    page.wait_for_function("window.placed.length === 2")
    assert page.evaluate("window.selected") == [], "while placing, a unit lets the tap through"

    page = harness(contexts, server, HEXES, placing=True)
    Touch(page).tap(*centre(page, '#board svg.map g.unit[data-unit="b"] rect.counter'))
    page.wait_for_function("window.placed.length === 1")
    assert page.evaluate("window.placed") == [{"hex": "0504"}]

    page = harness(contexts, server, HEXES)
    Touch(page).tap(*centre(page, '#board svg.map g.unit[data-unit="b"] rect.counter'))
    page.wait_for_function("window.selected.length === 1")
    assert page.evaluate("window.selected") == ["b"]
    assert page.locator('#board svg.map g.unit[data-unit="b"]').get_attribute(
        "aria-pressed") == "true"
    smoke = page.locator('#board svg.map g.hex[data-hex="0305"] g.badge')
    assert smoke.get_attribute("aria-label") == "1 smoke marker"
    assert page.locator('#board svg.map g.hex[data-hex="0602"]').get_attribute(
        "data-city") == "Hamlet"
