// The board as SVG: a top-down table (positions in inches) or a hex map (hex ids "CCRR"),
// the VP chart, and dice faces. Pure functions of the views the API returns.

import { h, s } from "./dom.js";

const PALETTE = ["#b3261e", "#1f5fbf", "#2e7d32", "#8a5a00", "#6a1b9a", "#00695c", "#ad1457", "#37474f"];
const NAMED = { red: "#b3261e", blue: "#1f5fbf", green: "#2e7d32", german: "#4e5b31", germans: "#4e5b31", allied: "#1f5fbf", soviets: "#b3261e" };
const SQRT3 = Math.sqrt(3);
const HEX_ID = /^(\d{2})(\d{2})$/;

/** One colour per side, stable for the match. */
export function sideColours(sides) {
  return Object.fromEntries(sides.map((side, i) => [side.id, NAMED[side.id] || PALETTE[i % PALETTE.length]]));
}

function unitLabel(unit) {
  const where = unit.position?.hex ? `hex ${unit.position.hex}`
    : unit.position?.box ? `${unit.position.box} box`
      : unit.position ? `${unit.position.x}, ${unit.position.y}` : "not placed";
  return `${unit.name} (${unit.side}), ${where}`;
}

function markerBadge(unit, x, y, size) {
  const count = Object.values(unit.markers || {}).reduce((a, b) => a + b, 0);
  if (!count) return null;
  return s("g", { class: "badge", "aria-hidden": "true" },
    s("circle", { cx: x + size, cy: y - size, r: size * 0.55 }),
    s("text", { x: x + size, y: y - size, "font-size": size * 0.7, "dominant-baseline": "central", "text-anchor": "middle" }, count));
}

function unitMark(unit, x, y, size, colour, opts) {
  const selected = opts.selected === unit.id;
  const g = s("g", {
    class: `unit${selected ? " selected" : ""}${unit.computed?.must_split ? " warn" : ""}`,
    role: "button", tabindex: 0, "aria-label": unitLabel(unit), "aria-pressed": selected ? "true" : "false",
    "data-unit": unit.id,
    onclick: (event) => { event.stopPropagation(); opts.onSelect(unit.id); },
    onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); opts.onSelect(unit.id); } },
  },
  s("title", {}, unitLabel(unit)),
  s("circle", { cx: x, cy: y, r: size, fill: colour }),
  s("text", { x, y: y + size * 1.9, "font-size": size * 0.9, "text-anchor": "middle", class: "unit-id" }, unit.id),
  markerBadge(unit, x, y, size));
  return g;
}

/** How many units already stand on `spot` (and count this one). */
function stacked(stacks, spot) {
  stacks[spot] = (stacks[spot] || 0) + 1;
  return stacks[spot] - 1;
}

function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function tableMap(units, colours, opts) {
  const placed = units.filter((u) => u.position && u.position.x !== null && u.position.x !== undefined);
  const width = Math.max(48, ...placed.map((u) => Math.ceil(u.position.x) + 6));
  const height = Math.max(32, ...placed.map((u) => Math.ceil(u.position.y) + 6));
  const grid = [];
  const stacks = {};
  for (let x = 0; x <= width; x += 6) grid.push(s("line", { x1: x, y1: 0, x2: x, y2: height }));
  for (let y = 0; y <= height; y += 6) grid.push(s("line", { x1: 0, y1: y, x2: width, y2: y }));
  const svg = s("svg", {
    class: "map table", viewBox: `-1 -1 ${width + 2} ${height + 2}`, role: "group",
    "aria-label": `The table, ${width} by ${height} inches, ${placed.length} units`,
  },
  s("rect", { class: "ground", x: 0, y: 0, width, height }),
  s("g", { class: "grid", "aria-hidden": "true" }, grid),
  placed.map((u) => {
    const n = stacked(stacks, `${u.position.x},${u.position.y}`);  // units on one spot fan out
    return unitMark(u, u.position.x + n * 1.6, u.position.y + n * 0.6, 1.1, colours[u.side], opts);
  }));
  if (opts.onPlace) {
    svg.classList.add("placing");
    svg.addEventListener("click", (event) => {
      const p = svgPoint(svg, event);
      opts.onPlace({ x: Math.round(p.x * 2) / 2, y: Math.round(p.y * 2) / 2 });
    });
  }
  return svg;
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

function hexMap(units, colours, markers, opts) {
  const onMap = units.filter((u) => HEX_ID.test(u.position?.hex || ""));
  const ids = [...onMap.map((u) => u.position.hex), ...Object.keys(markers).filter((k) => HEX_ID.test(k))];
  const cells = ids.map((id) => id.match(HEX_ID).slice(1).map(Number));
  const cols = cells.map((c) => c[0]);
  const rows = cells.map((c) => c[1]);
  const [c0, c1] = [Math.max(0, Math.min(...cols) - 1), Math.min(99, Math.max(...cols) + 1)];
  const [r0, r1] = [Math.max(0, Math.min(...rows) - 1), Math.min(99, Math.max(...rows) + 1)];
  const grid = [];
  for (let c = c0; c <= c1 && c <= c0 + 40; c++) {
    for (let r = r0; r <= r1 && r <= r0 + 40; r++) {
      const [x, y] = hexCentre(c, r);
      const id = `${String(c).padStart(2, "0")}${String(r).padStart(2, "0")}`;
      const here = markers[id];
      grid.push(s("g", { class: "hex", "data-hex": id },
        s("polygon", { points: hexPoints(x, y) }),
        s("text", { x, y: y - 0.62, "font-size": 0.3, "text-anchor": "middle", "aria-hidden": "true" }, id),
        here ? s("text", { x, y: y + 0.75, "font-size": 0.28, "text-anchor": "middle", class: "hex-marker" },
          Object.entries(here).map(([k, v]) => (v > 1 ? `${k}×${v}` : k)).join(" ")) : null));
    }
  }
  const stacks = {};
  const marks = onMap.map((u) => {
    const [c, r] = u.position.hex.match(HEX_ID).slice(1).map(Number);
    const [x, y] = hexCentre(c, r);
    const n = stacked(stacks, u.position.hex);
    return unitMark(u, x + n * 0.28 - 0.2, y + n * 0.18 - 0.1, 0.32, colours[u.side], opts);
  });
  const [left, top] = hexCentre(c0, r0);
  const [right, bottom] = hexCentre(c1, r1);
  const svg = s("svg", {
    class: "map hexes", viewBox: `${left - 1.2} ${top - 1.2} ${right - left + 2.4} ${bottom - top + 2.4 + SQRT3 / 2}`,
    role: "group", "aria-label": `The hex map, ${onMap.length} units`,
  }, s("g", { class: "grid" }, grid), marks);
  if (opts.onPlace) {
    svg.classList.add("placing");
    svg.addEventListener("click", (event) => {
      const cell = event.target.closest("[data-hex]");
      if (cell) opts.onPlace({ hex: cell.dataset.hex });
    });
  }
  return svg;
}

/** The map for the board view: hexes when units stand on hexes, else the table. */
export function renderMap(board, sides, opts) {
  const colours = sideColours(sides);
  const hexGame = board.units.some((u) => u.position?.hex);
  return hexGame ? hexMap(board.units, colours, board.location_markers || {}, opts)
    : tableMap(board.units, colours, opts);
}

/** VP per side over the turns, as a small line chart; the numbers are in the table beside it. */
export function vpChart(vp, sides, lastTurn) {
  const colours = sideColours(sides);
  const turns = Math.max(1, lastTurn);
  const series = vp.tracks.map((track) => {
    let running = 0;
    const points = [];
    for (let t = 1; t <= turns; t++) {
      if (track.by_turn[t] !== undefined) running = track.by_turn[t];
      points.push(running);
    }
    return { track, points };
  });
  const top = Math.max(1, ...series.flatMap((x) => x.points));
  const low = Math.min(0, ...series.flatMap((x) => x.points));
  const W = 200;
  const H = 60;
  const px = (i) => (turns === 1 ? W / 2 : (i * W) / (turns - 1));
  const py = (v) => H - ((v - low) / (top - low)) * H;
  return s("svg", { class: "vp-chart", viewBox: `-6 -6 ${W + 12} ${H + 12}`, role: "img", "aria-label": "Victory points per turn" },
    s("line", { x1: 0, y1: py(0), x2: W, y2: py(0), class: "axis" }),
    series.map(({ track, points }) => [
      s("polyline", { fill: "none", stroke: colours[track.side], "stroke-width": 2, points: points.map((v, i) => `${px(i)},${py(v)}`).join(" ") }),
      points.map((v, i) => s("circle", { cx: px(i), cy: py(v), r: 2.5, fill: colours[track.side] })),
    ]));
}

/** Each die of a roll, as a face the eye reads at once. */
export function diceFaces(roll) {
  const sides = (roll.notation.match(/d(\d+)/) || [])[1];
  return h("span", { class: "dice", "aria-label": `${roll.notation}: ${roll.dice.join(", ")}, total ${roll.total}` },
    roll.dice.map((d) => h("span", { class: "die", title: sides ? `d${sides}` : "" }, d)),
    h("span", { class: "total" }, `= ${roll.total}`));
}
