"""The board panel's own steps, shared by its browser tests (test_browser_board_*.py): making
a match and opening its table on a phone, reading the map's counters, view box and scale,
tapping its tools, the mouse wheel; and the map alone (board.js's renderMap on a page of its
own) with real touches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

# the five demos, each a scenario the service serves (GET /api/scenarios/{demo})
DEMOS = ["atomic-africa-demo", "battlegroup-demo", "extended-sequence-demo", "normandy-demo",
         "wing-command-demo"]


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


def scale(page: Any) -> float:
    return float(page.evaluate("document.querySelector('#board svg.map').getScreenCTM().a"))


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
