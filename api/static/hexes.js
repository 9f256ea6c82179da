// The hex map (board.js draws it when units stand on hexes "CCRR"): its hexes, cities and
// their names, location markers, the units' counters on their hexes (counters.js), and which
// hex a tap lands on: while a move waits for its place, the hex it goes to; else the hex
// whose units the sheet lists (sheet.js).

import { s } from "./dom.js";
import { badges, counterLayer, NEUTRAL, stacksOf } from "./counters.js";

const SQRT3 = Math.sqrt(3);
export const HEX_ID = /^(\d{2})(\d{2})$/;

/** A tap's point on the map, in map units. */
export function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

// A hex is 2 map units from corner to corner (flat-topped), sqrt(3) from side to side. Its
// counter is 1 wide and 0.84 tall, its top 0.24 above the hex's middle: it stays inside the
// hex, under the hex's number or city name (their line is 0.56 above the middle) and above
// its location markers (0.73 below).
const COUNTER = { w: 1, h: 0.84 };
const COUNTER_DY = 0.18;
const LABEL_Y = -0.56;

/** A city's name, in the top of its hex, with a dot in the colour of the side that holds
 *  it; at most 1.9 wide, so it stays off the next hexes' counters. */
function cityLabel(x, y, name, colour) {
  const font = 0.26;
  const wide = Math.min(1.9, name.length * 0.56 * font);
  return s("g", { class: "city-label", "aria-hidden": "true" },
    colour ? s("circle", { cx: x - wide / 2 - 0.08, cy: y + LABEL_Y, r: 0.07, fill: colour }) : null,
    s("text", { x: x + (colour ? 0.04 : 0), y: y + LABEL_Y, "font-size": font, "text-anchor": "middle", "dominant-baseline": "central",
      ...(name.length * 0.56 * font > 1.9 ? { textLength: 1.9, lengthAdjust: "spacingAndGlyphs" } : {}) }, name));
}

function hexCentre(col, row) {
  return [col * 1.5, row * SQRT3 + (col % 2 ? SQRT3 / 2 : 0)];
}

function hexPoints(cx, cy) {
  return [0, 1, 2, 3, 4, 5].map((i) => {
    const a = (Math.PI / 3) * i;
    return `${(cx + Math.cos(a)).toFixed(3)},${(cy + Math.sin(a)).toFixed(3)}`;
  }).join(" ");
}

/** The id of the drawn hex whose centre is nearest `p` (map units), or null off the hexes. */
function hexAt(p, { c0, c1, r0, r1 }) {
  let best = null;
  const col = Math.round(p.x / 1.5);
  for (let c = Math.max(c0, col - 1); c <= Math.min(c1, col + 1); c++) {
    const row = Math.round((p.y - (c % 2 ? SQRT3 / 2 : 0)) / SQRT3);
    for (let r = Math.max(r0, row - 1); r <= Math.min(r1, row + 1); r++) {
      const [x, y] = hexCentre(c, r);
      const d = Math.hypot(p.x - x, p.y - y);
      if (d <= 1 && (!best || d < best.d)) best = { d, id: hexId(c, r) };
    }
  }
  return best?.id ?? null;
}

const cellOf = (id) => id.match(HEX_ID).slice(1).map(Number);
const hexId = (c, r) => `${String(c).padStart(2, "0")}${String(r).padStart(2, "0")}`;

/** The hexes to draw: the board view's extent (every hex with a unit, a marker or a city),
 *  else the hexes the units and markers stand on; one ring more around them. */
function hexExtent(board, onMap, markers) {
  const e = board.map?.extent;
  let cols; let rows;
  if (e) {
    cols = [e.first_column, e.last_column];
    rows = [e.first_row, e.last_row];
  } else {
    const cells = [...onMap.map((u) => u.position.hex), ...Object.keys(markers).filter((k) => HEX_ID.test(k))].map(cellOf);
    cols = cells.map((c) => c[0]);
    rows = cells.map((c) => c[1]);
  }
  const c0 = Math.max(0, Math.min(...cols) - 1);
  const r0 = Math.max(0, Math.min(...rows) - 1);
  return { c0, c1: Math.min(99, c0 + 40, Math.max(...cols) + 1), r0, r1: Math.min(99, r0 + 40, Math.max(...rows) + 1) };
}

export function hexMap(board, colours, ctx) {
  const markers = board.location_markers || {};
  const onMap = board.units.filter((u) => HEX_ID.test(u.position?.hex || ""));
  const { c0, c1, r0, r1 } = hexExtent(board, onMap, markers);
  ctx.stacks = stacksOf(onMap, (u) => u.position.hex, (key) => hexCentre(...cellOf(key)));
  const busy = new Set(ctx.stacks.map((st) => st.key));
  // a tap on a hex with units, a city or markers (beside its counter, on its number or
  // name) lists what stands there; the hex takes the tap itself, so that a phone's touch
  // adjustment does not move a tap inside it onto a counter nearby
  const lists = (id) => (ctx.opts.onPlace || !(busy.has(id) || ctx.cities[id] || markers[id]) ? null : () => ctx.openStack(id));
  const cells = [];
  const labels = [];
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let c = c0; c <= c1; c++) {
    for (let r = r0; r <= r1; r++) {
      const [x, y] = hexCentre(c, r);
      [left, right] = [Math.min(left, x - 1), Math.max(right, x + 1)];
      [top, bottom] = [Math.min(top, y - SQRT3 / 2), Math.max(bottom, y + SQRT3 / 2)];
      const id = hexId(c, r);
      const city = ctx.cities[id];
      const here = markers[id];
      const owner = city?.controlled_by;
      const cityWords = city ? `${city.name || "City"}${owner ? `, held by ${ctx.names[owner] || owner}` : ""}` : null;
      cells.push(s("g", { class: `hex${city ? " city" : ""}`, "data-hex": id, onclick: lists(id), ...(city ? { "data-city": city.name || "", "data-owner": owner || "" } : {}) },
        city ? s("title", {}, `${cityWords} (hex ${id})`) : null,
        s("polygon", { points: hexPoints(x, y) }),
        city && owner ? s("polygon", { class: "held", points: hexPoints(x, y), style: `fill:${colours[owner] || NEUTRAL}` }) : null,
        here ? badges(here, x, y + 0.74, 0.16, ctx.letters, true, [], 1.1) : null));
      // names and numbers in the top of the hex, above its counter (which starts below them)
      labels.push(city ? cityLabel(x, y, city.name || "City", owner && (colours[owner] || NEUTRAL))
        : s("text", { class: "hex-id", x, y: y + LABEL_Y, "font-size": 0.24, "text-anchor": "middle", "dominant-baseline": "central", "aria-hidden": "true" }, id));
    }
  }
  const pad = 0.3;
  const drawn = [left - pad, top - pad, right - left + 2 * pad, bottom - top + 2 * pad];
  ctx.placeOf = (p) => (HEX_ID.test(p.hex || "") ? hexCentre(...cellOf(p.hex)) : null);  // an arrow's end on the map
  const marks = counterLayer(ctx.stacks, COUNTER, COUNTER_DY, colours, ctx);
  const cities = Object.values(ctx.cities);
  const svg = s("svg", {
    class: "map hexes", role: "group", tabindex: 0,
    "aria-label": `The hex map, ${onMap.length} units${cities.length ? `, ${cities.length} cities` : ""}. Drag to move the view; plus and minus keys zoom.`,
  }, s("g", { class: "grid" }, cells), s("g", { class: "labels" }, labels), marks);
  if (ctx.opts.onPlace) {
    svg.classList.add("placing");
    svg.addEventListener("click", (event) => {
      // the hex under the finger, whatever is drawn on it (a number, a city's name, a badge)
      const cell = event.target.closest("[data-hex]")?.dataset.hex || hexAt(svgPoint(svg, event), { c0, c1, r0, r1 });
      if (cell) ctx.opts.onPlace({ hex: cell });
    });
  }
  return { svg, fit: drawn, kind: "hexes" };
}
