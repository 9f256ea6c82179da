// The hex map (board.js draws it when units stand on hexes "CCRR"): its hexes, cities and
// their names, location markers, and which hex a tap lands on.

import { s } from "./dom.js";
import { badges, NEUTRAL, placeMarks } from "./counters.js";

const SQRT3 = Math.sqrt(3);
export const HEX_ID = /^(\d{2})(\d{2})$/;

/** A tap's point on the map, in map units. */
export function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
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
      cells.push(s("g", { class: `hex${city ? " city" : ""}`, "data-hex": id, ...(city ? { "data-city": city.name || "", "data-owner": owner || "" } : {}) },
        city ? s("title", {}, `${cityWords} (hex ${id})`) : null,
        s("polygon", { points: hexPoints(x, y) }),
        city && owner ? s("polygon", { class: "held", points: hexPoints(x, y), style: `fill:${colours[owner] || NEUTRAL}` }) : null,
        here ? badges(here, x, y + 0.62, 0.2, ctx.letters, true) : null));
      // names and numbers go above every hex (and its units), so none is hidden under a counter
      labels.push(city
        ? s("g", { class: "city-label", "aria-hidden": "true" },
          owner ? s("circle", { cx: x - 0.62, cy: y - 0.6, r: 0.09, fill: colours[owner] || NEUTRAL }) : null,
          s("text", { x: x + 0.06, y: y - 0.6, "font-size": 0.24, "text-anchor": "middle", "dominant-baseline": "central" }, city.name || "City"))
        : s("text", { class: "hex-id", x, y: y - 0.62, "font-size": 0.2, "text-anchor": "middle", "dominant-baseline": "central", "aria-hidden": "true" }, id));
    }
  }
  const pad = 0.3;
  const drawn = [left - pad, top - pad, right - left + 2 * pad, bottom - top + 2 * pad];
  ctx.placeOf = (p) => (HEX_ID.test(p.hex || "") ? hexCentre(...cellOf(p.hex)) : null);  // an arrow's end on the map
  const marks = placeMarks(onMap, (u) => u.position.hex, (key) => hexCentre(...cellOf(key)).map((v, i) => v + (i ? 0.08 : 0)),
    { w: 1.6, h: 0.64 }, drawn, colours, ctx);
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
  return { svg, fit: ctx.fit || drawn, kind: "hexes" };
}
