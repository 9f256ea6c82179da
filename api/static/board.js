// The board as SVG: a top-down table (positions in inches) or a hex map (hex ids "CCRR"),
// the VP chart, and dice faces. Pure functions of the views the API returns: each side's
// colour is the match view's `side.colour`, the hex map's extent and cities the board view's
// `map`. The map's frame is here (the open table, the legend of its symbols, what the sheet of
// a hex or a stack lists); the hex map is hexes.js's, the counters counters.js's, the sheet
// sheet.js's, the zoom and pan (the viewBox, pointers, wheel, keys, the +, − and Fit buttons)
// zoom.js's.

import { h, s } from "./dom.js";
import { counterLayer, kindLetters, markerLetters, NEUTRAL, shownStatuses, stackWords, stacksOf } from "./counters.js";
import { HEX_ID, hexMap, svgPoint } from "./hexes.js";
import { highlightsOf } from "./marks.js";
import { hexNamed } from "./places.js";
import { showSheet } from "./sheet.js";
import { zoomable } from "./zoom.js";

const NEAR = 0.5;  // inches: units this close to a stack's first point on the table are in it
const REACH = 22;  // px: a tap on the table reaches the counters this near it (a 44 px finger)

/** Side id -> colour, as the match view gives each side (`side.colour`). */
export function sideColours(sides) {
  return Object.fromEntries((sides || []).map((side) => [side.id, side.colour || NEUTRAL]));
}

function sideNames(sides) {
  return Object.fromEntries((sides || []).map((side) => [side.id, side.name || side.id]));
}

/** The open table (positions in inches, a line every 6 inches), each unit's counter at its
 *  point: a square as wide as 0.9 of the closest distance between two stacks (0.6 to 3
 *  inches), units within half an inch of a stack's first point in that stack. */
function tableMap(units, colours, ctx) {
  const placed = units.filter((u) => u.position && u.position.x !== null && u.position.x !== undefined);
  const width = Math.max(48, ...placed.map((u) => Math.ceil(u.position.x) + 6));
  const height = Math.max(32, ...placed.map((u) => Math.ceil(u.position.y) + 6));
  ctx.stacks = stacksOf(placed, (u) => `${u.position.x},${u.position.y}`, (key) => key.split(",").map(Number), NEAR);
  const points = ctx.stacks.map((st) => st.at);
  let closest = Infinity;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) closest = Math.min(closest, Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]));
  }
  const side = Math.min(3, Math.max(0.6, closest * 0.9));
  const grid = [];
  for (let x = 0; x <= width; x += 6) grid.push(s("line", { x1: x, y1: 0, x2: x, y2: height }));
  for (let y = 0; y <= height; y += 6) grid.push(s("line", { x1: 0, y1: y, x2: width, y2: y }));
  ctx.placeOf = (p) => (p.hex ? null : [p.x, p.y]);  // an arrow's end on the table
  const marks = counterLayer(ctx.stacks, { w: side, h: side }, 0, colours, ctx);
  const svg = s("svg", {
    class: "map table", role: "group", tabindex: 0,
    "aria-label": `The table, ${width} by ${height} inches, ${placed.length} units. Drag to move the view; plus and minus keys zoom.`,
  },
  s("rect", { class: "ground", x: 0, y: 0, width, height }),
  s("g", { class: "grid", "aria-hidden": "true" }, grid),
  marks);
  if (ctx.opts.onPlace) {
    svg.classList.add("placing");
    svg.addEventListener("click", (event) => {
      const p = svgPoint(svg, event);
      ctx.opts.onPlace({ x: Math.round(p.x * 2) / 2, y: Math.round(p.y * 2) / 2 });
    });
  } else {
    // a tap on the table beside counters too small for a finger (a wide table's first
    // screen): the units within a finger's reach (REACH px) of it; one is selected, several
    // are listed in the sheet
    svg.addEventListener("click", (event) => {
      const p = svgPoint(svg, event);
      const reach = REACH / (svg.getScreenCTM()?.a || 1) + side / 2;
      const near = ctx.stacks.filter((st) => Math.hypot(st.at[0] - p.x, st.at[1] - p.y) <= reach);
      const found = near.flatMap((st) => st.units);
      if (found.length === 1) ctx.opts.onSelect?.(found[0].id);
      else if (found.length) ctx.openStack(`near:${near.map((st) => st.key).join(";")}`);
    });
  }
  return { svg, fit: around(points, width, height), kind: "table" };
}

/** The part of the table the units stand on, 3 inches around them, at least 12 by 8 inches
 *  (the whole table when none is on it). */
function around(points, width, height) {
  if (!points.length) return [-1, -1, width + 2, height + 2];
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [cx, cy] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  const w = Math.max(12, Math.max(...xs) - Math.min(...xs) + 6);
  const hgt = Math.max(8, Math.max(...ys) - Math.min(...ys) + 6);
  return [cx - w / 2, cy - hgt / 2, w, hgt];
}

/** A line under the map: its cities and who holds them, and what the letters of the marker
 *  and status symbols mean. */
function legend(board, ctx) {
  const cities = Object.values(ctx.cities).map((c) => `${c.name || `hex ${c.hex}`}${c.controlled_by ? ` (${ctx.names[c.controlled_by] || c.controlled_by})` : ""}`);
  const said = (k, titles) => (titles?.[k] || k.replaceAll("_", " ")).toLowerCase();
  const entries = Object.entries(ctx.letters);
  const markers = entries.filter(([k]) => !k.startsWith("status:")).map(([k, letter]) => `${letter} ${said(k, board.marker_titles)}`);
  const statuses = entries.filter(([k]) => k.startsWith("status:")).map(([k, letter]) => `${letter} ${said(k.slice(7), board.status_titles)}`);
  if (!cities.length && !markers.length && !statuses.length) return null;
  return h("p", { class: "map-legend" },
    cities.length ? h("span", {}, h("strong", {}, "Cities: "), cities.join(", "), ". ") : null,
    markers.length ? h("span", {}, h("strong", {}, "Markers: "), markers.join(", "), " (with how many). ") : null,
    statuses.length ? h("span", {}, h("strong", {}, "Status: "), statuses.join(", "), " (dark symbols).") : null);
}

/** What the sheet of a hex or a stack lists (sheet.js): its title, its units, and what else
 *  stands there (a city and who holds it, location markers), or null when nothing does. */
function sheetOf(key, board, ctx) {
  if (key.startsWith("near:")) {  // the stacks a tap on the table reached
    const units = key.slice(5).split(";").flatMap((k) => ctx.stacks.find((st) => st.key === k)?.units || []);
    return units.length ? { title: `${units.length} units at this spot of the table`, units, notes: [] } : null;
  }
  const stack = ctx.stacks.find((st) => st.key === key);
  const city = ctx.cities[key];
  const markers = Object.entries(board.location_markers?.[key] || {}).filter(([, n]) => n);
  if (!stack && !city && !markers.length) return null;
  const said = HEX_ID.test(key) ? hexNamed(key, city?.name) : null;  // "Hex 1406 (Caen)"
  const hexWords = said ? said[0].toUpperCase() + said.slice(1) : null;
  const units = stack?.units || [];
  const title = hexWords ? `${hexWords}: ${units.length} unit${units.length === 1 ? "" : "s"}` : `${stackWords(stack, ctx).split(":")[0]}`;
  const notes = [city ? `${city.name || "City"}, ${city.controlled_by ? `held by ${ctx.names[city.controlled_by] || city.controlled_by}` : "held by nobody"}.` : null,
    markers.length ? `Markers here: ${markers.map(([k, n]) => `${n} ${k.replaceAll("_", " ")}`).join(", ")}.` : null].filter(Boolean);
  return { title, units, notes };
}

/** The map for the board view, with its zoom buttons: hexes when the board has a hex map
 *  (or units stand on hexes), else the table. */
export function renderMap(board, sides, opts) {
  const colours = sideColours(sides);
  const cities = Object.fromEntries((board.map?.cities || []).map((c) => [c.hex, c]));
  const kinds = new Set([...board.units.flatMap((u) => Object.keys(u.markers || {}).filter((k) => u.markers[k])),
    ...Object.values(board.location_markers || {}).flatMap((m) => Object.keys(m))]);
  const statuses = [...new Set(board.units.flatMap(shownStatuses))].sort();
  const statusLetters = kindLetters(statuses);
  const names = sideNames(sides);
  // the annotations drawn at this version (marks.js): arrows above the counters, highlighted
  // units ringed
  const ctx = { opts: opts || {}, names, cities, board, units: board.units, colours,
    letters: { ...markerLetters([...kinds].sort()), ...Object.fromEntries(statuses.map((st) => [`status:${st}`, statusLetters[st]])) },
    markerTitles: board.marker_titles || {}, statusTitles: board.status_titles || {},
    highlights: highlightsOf(opts?.marks, names, colours) };
  const host = h("div", { class: "map-sheet-host" });
  ctx.openStack = (key) => showSheet(host, mapKey, key, (k) => sheetOf(k, board, ctx), ctx, true);
  const hexGame = Boolean(board.map) || board.units.some((u) => HEX_ID.test(u.position?.hex || ""));
  const { svg, fit, kind } = hexGame ? hexMap(board, colours, ctx) : tableMap(board.units, colours, ctx);
  const mapKey = `${board.scenario}|${kind}`;
  const focus = ctx.focus?.at ? ctx.focus : null;
  const tools = zoomable(svg, fit, mapKey, focus);
  showSheet(host, mapKey, null, (k) => sheetOf(k, board, ctx), ctx);  // the sheet open before a re-render
  return h("div", { class: "map-frame" }, tools, svg, legend(board, ctx), host);
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
      s("polyline", { fill: "none", stroke: colours[track.side], "stroke-width": 2, "data-side": track.side, points: points.map((v, i) => `${px(i)},${py(v)}`).join(" ") }),
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
