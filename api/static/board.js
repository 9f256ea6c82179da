// The board as SVG: a top-down table (positions in inches) or a hex map (hex ids "CCRR"),
// the VP chart, and dice faces. Pure functions of the views the API returns: each side's
// colour is the match view's `side.colour`, the hex map's extent and cities the board view's
// `map`. Its zoom and pan (the viewBox, pointers, wheel, keys, the +, − and Fit buttons) are
// zoom.js's.

import { h, s } from "./dom.js";
import { layOut, screenOf } from "./layout.js";
import { arrowLayer, highlightRing, highlightsOf, unitAt } from "./marks.js";
import { zoomable } from "./zoom.js";

const SQRT3 = Math.sqrt(3);
const HEX_ID = /^(\d{2})(\d{2})$/;
const NEUTRAL = "#4a4a55";

/** Side id -> colour, as the match view gives each side (`side.colour`). */
export function sideColours(sides) {
  return Object.fromEntries((sides || []).map((side) => [side.id, side.colour || NEUTRAL]));
}

function sideNames(sides) {
  return Object.fromEntries((sides || []).map((side) => [side.id, side.name || side.id]));
}

/** A unit's name short enough for its mark: long words cut to three letters, then "…". */
export function shortName(name, max = 14) {
  if (name.length <= max) return name;
  const words = name.split(" ");
  const cut = [words[0], ...words.slice(1).map((w) => w.split("-").map((p) => (p.length > 5 ? `${p.slice(0, 3)}.` : p)).join("-"))].join(" ");
  return cut.length <= max ? cut : `${cut.slice(0, max - 1).trimEnd()}…`;
}

/** A counter's name in one line, or two when it has no badges and is long ("4e Ligne" over
 *  "2nd battalion": cut at a comma, else between words near the middle). */
export function nameLines(name, two) {
  if (name.length <= 14 || !two) return [shortName(name)];
  const comma = name.indexOf(", ");
  const words = name.split(" ");
  let cut = comma > 0 ? [name.slice(0, comma), name.slice(comma + 2)] : null;
  if (!cut && words.length > 1) {
    let first = words[0];
    for (const word of words.slice(1, -1)) if (first.length + word.length < name.length / 2 + 2) first += ` ${word}`;
    cut = [first, name.slice(first.length + 1)];
  }
  return cut ? cut.map((line) => shortName(line)) : [shortName(name)];
}

/** The letters of each marker kind on a mark: the first letter, two when two kinds share it. */
function markerLetters(kinds) {
  const firsts = kinds.map((k) => k.slice(0, 1).toUpperCase());
  return Object.fromEntries(kinds.map((k, i) => [k,
    firsts.filter((f) => f === firsts[i]).length > 1 ? k.slice(0, 1).toUpperCase() + k.slice(1, 2) : firsts[i]]));
}

function markerWords(kind, count) {
  return `${count} ${kind.replaceAll("_", " ")} marker${count === 1 ? "" : "s"}`;
}

/** A row of small badges, one per marker kind: "W2", its kind spelled out in its tooltip. A
 *  location's badges are images named in words; a counter's are part of the counter, whose
 *  name says them ("… W2 …, 2 wound markers"). */
function badges(markers, cx, cy, font, letters, named = false) {
  const entries = Object.entries(markers || {}).filter(([, n]) => n);
  if (!entries.length) return null;
  const widths = entries.map(([k, n]) => (`${letters[k]}${n}`.length * 0.62 + 0.7) * font);
  const gap = font * 0.25;
  let x = cx - (widths.reduce((a, b) => a + b, 0) + gap * (entries.length - 1)) / 2;
  return s("g", { class: "badges" }, entries.map(([kind, n], i) => {
    const w = widths[i];
    const words = markerWords(kind, n);
    const g = s("g", { class: "badge", "data-kind": kind, ...(named ? { role: "img", "aria-label": words } : {}) },
      s("title", named ? {} : { "aria-hidden": "true" }, words),
      s("rect", { x, y: cy - font * 0.65, width: w, height: font * 1.3, rx: font * 0.3 }),
      s("text", { x: x + w / 2, y: cy, "font-size": font, "text-anchor": "middle", "dominant-baseline": "central" }, `${letters[kind]}${n}`));
    x += w + gap;
    return [g, " "];  // a space between badges, as between words of the counter's name
  }));
}

/** What a unit's counter is called: first what it shows (its short name and its badges, so
 *  a player who says what they see names it), then its whole name, side, markers and place. */
function unitLabel(unit, shown, ctx) {
  const hex = unit.position?.hex;
  const city = hex && ctx.cities[hex]?.name;
  const where = hex ? (city ? `in ${city}, hex ${hex}` : `hex ${hex}`)
    : unit.position?.box ? `${unit.position.box} box`
      : unit.position ? `at ${unit.position.x}, ${unit.position.y}` : "not placed";
  const entries = Object.entries(unit.markers || {}).filter(([, n]) => n);
  const letters = (text) => text.replace(/[^\p{L}\p{N}]+/gu, "");
  const same = letters(shown) === letters(unit.name);
  const seen = [same ? unit.name : shown, ...entries.map(([k, n]) => `${ctx.letters[k]}${n}`)].join(" ");
  const whole = `${seen}${same ? "" : `: ${unit.name}`} (${ctx.names[unit.side] || unit.side})`;
  return [whole, ...entries.map(([k, n]) => markerWords(k, n)), where].join(", ");
}

/** A unit's counter: a box in its side's colour with its short name and its marker badges.
 *  `box` is its place and size: {x, y, w, h} in map units. */
function unitMark(unit, box, colour, ctx) {
  const { opts } = ctx;
  const selected = opts.selected === unit.id;
  const kinds = Object.keys(unit.markers || {}).filter((k) => unit.markers[k]);
  const lines = nameLines(unit.name, !kinds.length);
  const font = box.h * (lines.length > 1 ? 0.27 : 0.3);
  const cx = box.x + box.w / 2;
  const tops = lines.length > 1 ? [0.3, 0.7] : [kinds.length ? 0.32 : 0.5];
  const ringed = ctx.highlights.get(unit.id);  // marks.js: a highlight annotation
  const label = `${unitLabel(unit, lines.join(" "), ctx)}${ringed ? `, ${ringed.words}` : ""}`;
  return s("g", {
    class: `unit${selected ? " selected" : ""}${unit.computed?.must_split ? " warn" : ""}`,
    role: "button", tabindex: 0, "aria-label": label, "aria-pressed": selected ? "true" : "false",
    "data-unit": unit.id, "data-side": unit.side,
    onclick: (event) => { event.stopPropagation(); opts.onSelect?.(unit.id); },
    onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); opts.onSelect?.(unit.id); } },
  },
  s("title", { "aria-hidden": "true" }, label),
  ringed ? highlightRing(box, ringed) : null,
  selected ? s("rect", { class: "ring", x: box.x - box.h * 0.12, y: box.y - box.h * 0.12, width: box.w + box.h * 0.24, height: box.h * 1.24, rx: box.h * 0.22 }) : null,
  s("rect", { class: "counter", x: box.x, y: box.y, width: box.w, height: box.h, rx: box.h * 0.14, fill: colour }),
  // a space (drawn nowhere) after each line, so that what the counter shows reads as words
  // ("1st Squad W2", not "1st SquadW2") and is found in its name, as assistive tools check
  lines.map((line, i) => [s("text", { class: "unit-name", x: cx, y: box.y + box.h * tops[i], "font-size": font, "text-anchor": "middle", "dominant-baseline": "central",
    ...(line.length * 0.64 * font <= box.w * 0.9 ? {} : { textLength: box.w * 0.9, lengthAdjust: "spacingAndGlyphs" }) }, line), " "]),
  badges(unit.markers, cx, box.y + box.h * 0.72, box.h * 0.28, ctx.letters));
}

/** The counters of the units, laid out by layout.js: at least MIN_PX tall on the screen at
 *  every zoom (laid out again as the zoom changes, so zooming in brings each counter nearer
 *  its spot instead of making it bigger), none covering another; a counter moved off its
 *  spot is tied to it by a thin line and a dot in its side's colour. The selected one is
 *  drawn last (on top). Sets `ctx.fit`, the view that shows them all at zoom 1, `ctx.focus`,
 *  where "+" zooms to (the selected unit, else the middle of the units), and `ctx.draw(zoom)`. */
function placeMarks(units, spotOf, centreOf, natural, base, colours, ctx) {
  const layer = s("g", { class: "marks" });
  const whole = layOut(units, spotOf, centreOf, natural, base, ctx.screen);
  ctx.fit = whole.fit;
  ctx.draw = (zoom) => {
    const { boxes } = zoom === 1 ? whole
      : layOut(units, spotOf, centreOf, natural, whole.fit, { w: ctx.screen.w * zoom, h: ctx.screen.h * zoom }, false);
    boxes.sort((a, b) => (a.u.id === ctx.opts.selected) - (b.u.id === ctx.opts.selected));
    const chosen = boxes.filter(({ u }) => u.id === ctx.opts.selected);
    if (boxes.length) Object.assign(ctx.focus, { at: middle(chosen.length ? chosen : boxes), selected: chosen.length > 0 });
    const moved = boxes.filter(({ box }) => Math.hypot(box.x + box.w / 2 - box.sx, box.y + box.h / 2 - box.sy) > box.h * 0.3);
    layer.replaceChildren(...(moved.length ? [s("g", { class: "ties", "aria-hidden": "true" }, moved.map(({ u, box }) => {
      const colour = colours[u.side] || NEUTRAL;
      return [s("line", { x1: box.sx, y1: box.sy, x2: box.x + box.w / 2, y2: box.y + box.h / 2, stroke: colour }),
        s("circle", { cx: box.sx, cy: box.sy, r: box.h * 0.12, fill: colour })];
    }))] : []), ...boxes.map(({ u, box }) => unitMark(u, box, colours[u.side] || NEUTRAL, ctx)),
    arrows(boxes, units, natural, ctx));
  };
  ctx.focus = { at: null, selected: false };
  ctx.draw(1);
  return layer;
}

/** The arrows drawn at this version (marks.js), over the counters as they are laid out: an
 *  end where a unit stands is that unit's counter (the arrow stops at its edge), any other
 *  end its hex's middle or its point of the table; the head as long as half a counter. */
function arrows(boxes, units, natural, ctx) {
  if (!ctx.opts.marks?.length) return null;
  const boxOf = new Map(boxes.map(({ u, box }) => [u.id, box]));
  const tall = boxes[0]?.box.h ?? natural.h;
  const pointOf = (p) => {
    const box = boxOf.get(unitAt(p, units)?.id);
    if (box) return [box.x + box.w / 2, box.y + box.h / 2, box.h * 0.62];
    const at = ctx.placeOf(p);
    return at ? [...at, 0] : null;
  };
  return arrowLayer(ctx.opts.marks, pointOf, tall * 0.6, ctx);
}

/** The middle of the boxes of some units. */
function middle(list) {
  const xs = list.flatMap(({ box }) => [box.x, box.x + box.w]);
  const ys = list.flatMap(({ box }) => [box.y, box.y + box.h]);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
}

function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function tableMap(units, colours, ctx) {
  const placed = units.filter((u) => u.position && u.position.x !== null && u.position.x !== undefined);
  const width = Math.max(48, ...placed.map((u) => Math.ceil(u.position.x) + 6));
  const height = Math.max(32, ...placed.map((u) => Math.ceil(u.position.y) + 6));
  // a counter as tall as 0.45 of the closest distance between two spots (0.4 to 2.4 inches)
  // when the screen has room for it (layout.js makes it bigger when not)
  const points = [...new Set(placed.map((u) => `${u.position.x},${u.position.y}`))].map((p) => p.split(",").map(Number));
  let closest = Infinity;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) closest = Math.min(closest, Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]));
  }
  const tall = Math.min(2.4, Math.max(0.4, closest * 0.45));
  const grid = [];
  for (let x = 0; x <= width; x += 6) grid.push(s("line", { x1: x, y1: 0, x2: x, y2: height }));
  for (let y = 0; y <= height; y += 6) grid.push(s("line", { x1: 0, y1: y, x2: width, y2: y }));
  ctx.placeOf = (p) => (p.hex ? null : [p.x, p.y]);  // an arrow's end on the table
  const marks = placeMarks(placed, (u) => `${u.position.x},${u.position.y}`, (key) => key.split(",").map(Number),
    { w: tall * 2.2, h: tall }, around(points, width, height), colours, ctx);
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
  }
  return { svg, fit: ctx.fit || [-1, -1, width + 2, height + 2], kind: "table" };
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

function hexMap(board, colours, ctx) {
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

/** A line under the map: its cities and who holds them, and what the marker letters mean. */
function legend(board, ctx) {
  const cities = Object.values(ctx.cities).map((c) => `${c.name || `hex ${c.hex}`}${c.controlled_by ? ` (${ctx.names[c.controlled_by] || c.controlled_by})` : ""}`);
  const letters = Object.entries(ctx.letters).map(([k, letter]) => `${letter} ${k.replaceAll("_", " ")}`);
  if (!cities.length && !letters.length) return null;
  return h("p", { class: "map-legend" },
    cities.length ? h("span", {}, h("strong", {}, "Cities: "), cities.join(", "), ". ") : null,
    letters.length ? h("span", {}, h("strong", {}, "Markers: "), letters.join(", "), " (with how many).") : null);
}

/** The map for the board view, with its zoom buttons: hexes when the board has a hex map
 *  (or units stand on hexes), else the table. */
export function renderMap(board, sides, opts) {
  const colours = sideColours(sides);
  const cities = Object.fromEntries((board.map?.cities || []).map((c) => [c.hex, c]));
  const kinds = new Set([...board.units.flatMap((u) => Object.keys(u.markers || {}).filter((k) => u.markers[k])),
    ...Object.values(board.location_markers || {}).flatMap((m) => Object.keys(m))]);
  const names = sideNames(sides);
  // the annotations drawn at this version (marks.js): arrows above the counters, highlighted
  // units ringed
  const ctx = { opts: opts || {}, names, cities, letters: markerLetters([...kinds].sort()),
    screen: screenOf(document.querySelector("#board")), units: board.units, colours,
    highlights: highlightsOf(opts?.marks, names, colours) };
  const hexGame = Boolean(board.map) || board.units.some((u) => HEX_ID.test(u.position?.hex || ""));
  const { svg, fit, kind } = hexGame ? hexMap(board, colours, ctx) : tableMap(board.units, colours, ctx);
  const focus = ctx.focus?.at ? ctx.focus : null;
  const tools = zoomable(svg, fit, `${board.scenario}|${kind}`, focus, ctx.draw);
  return h("div", { class: "map-frame" }, tools, svg, legend(board, ctx));
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
