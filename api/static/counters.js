// The units' counters on the map (board.js's table, hexes.js's hex map): each unit a counter
// drawn on its hex or at its point of the table, in map units (so zoom and pan keep it there
// and it grows with its hex), in its side's colour, with a short name and a row of symbols:
// its markers ("W2": two wound markers) and its statuses (a dark "D": disrupted). Units on
// one hex, or at nearly one point of the table, are one stack: their counters piled up with
// how many on top; a tap on a stack opens the sheet that lists them (sheet.js). Every counter
// is named in words for a screen reader. Pure functions of the board view.

import { s } from "./dom.js";
import { arrowLayer, highlightRing, unitAt } from "./marks.js";
import { hexNamed } from "./places.js";

export const NEUTRAL = "#4a4a55";
// a status drawn on no counter: the usual state of a unit (ours: Normandy's "in supply" on
// every unit says nothing; its absence and "out of supply" do), still in words on its card
const UNSHOWN = new Set(["in_supply"]);

/** A unit's name short enough for its counter: long words cut to three letters, then "…". */
export function shortName(name, max = 9) {
  if (name.length <= max) return name;
  const words = name.split(" ");
  const cut = [words[0], ...words.slice(1).map((w) => w.split("-").map((p) => (p.length > 5 ? `${p.slice(0, 3)}.` : p)).join("-"))].join(" ");
  return cut.length <= max ? cut : `${cut.slice(0, max - 1).trimEnd()}…`;
}

/** A counter's name in one or two short lines ("4e Ligne" over "2nd bat…": cut at a comma,
 *  else between words near the middle). The whole name is in its label and on its card. */
export function counterLines(name) {
  if (name.length <= 9) return [name];
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

/** The letters of each kind (a marker's, a status's): its words' initials ("corner_locked":
 *  CL), a second letter when two kinds would share them. */
export function kindLetters(kinds) {
  const firsts = kinds.map((k) => k.split(/[_\s]+/).filter((w) => w && !["of", "the", "in"].includes(w))
    .map((w) => w[0].toUpperCase()).join("") || k.slice(0, 1).toUpperCase());
  return Object.fromEntries(kinds.map((k, i) => [k,
    firsts.filter((f) => f === firsts[i]).length > 1 ? firsts[i] + k.replace(/[_\s]/g, "").slice(firsts[i].length, firsts[i].length + 1) : firsts[i]]));
}

/** A marker kind's letters: the first letter, two when two kinds share it ("Su", "Sm"). */
export function markerLetters(kinds) {
  const firsts = kinds.map((k) => k.slice(0, 1).toUpperCase());
  return Object.fromEntries(kinds.map((k, i) => [k,
    firsts.filter((f) => f === firsts[i]).length > 1 ? k.slice(0, 1).toUpperCase() + k.slice(1, 2) : firsts[i]]));
}

export function markerWords(kind, count, titles = {}) {
  const said = (titles[kind] || kind.replaceAll("_", " ")).toLowerCase();
  return `${count} ${said} marker${count === 1 ? "" : "s"}`;
}

export const statusWords = (st, titles = {}) => (titles[st] || st.replaceAll("_", " ")).toLowerCase();

/** The statuses a counter shows (all but a unit's usual state). */
export const shownStatuses = (unit) => (unit.status || []).filter((st) => !UNSHOWN.has(st));

/** A row of small badges: each marker kind with how many ("W2", white), each status by its
 *  letters ("D", dark). A location's badges are images named in words; a counter's are part
 *  of the counter, whose name says them. `fit`: the widest the row may be. */
export function badges(markers, cx, cy, font, letters, named = false, statuses = [], fit = Infinity) {
  const entries = [...Object.entries(markers || {}).filter(([, n]) => n).map(([k, n]) => ({ k, text: `${letters[k]}${n}`, words: markerWords(k, n), cls: "badge" })),
    ...statuses.map((st) => ({ k: st, text: letters[`status:${st}`] || st.slice(0, 1).toUpperCase(), words: statusWords(st), cls: "badge status" }))];
  if (!entries.length) return null;
  const widthOf = (f) => entries.map((e) => (e.text.length * 0.62 + 0.7) * f);
  const total = (f) => widthOf(f).reduce((a, b) => a + b, 0) + f * 0.25 * (entries.length - 1);
  const size = total(font) > fit ? font * (fit / total(font)) : font;
  const widths = widthOf(size);
  let x = cx - total(size) / 2;
  return s("g", { class: "badges" }, entries.map((e, i) => {
    const w = widths[i];
    const g = s("g", { class: e.cls, "data-kind": e.k, ...(named ? { role: "img", "aria-label": e.words } : {}) },
      s("title", named ? {} : { "aria-hidden": "true" }, e.words),
      s("rect", { x, y: cy - size * 0.65, width: w, height: size * 1.3, rx: size * 0.3 }),
      s("text", { x: x + w / 2, y: cy, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central" }, e.text));
    x += w + size * 0.25;
    return [g, " "];  // a space between badges, as between words of the counter's name
  }));
}

/** Where a unit stands, in words: "hex 1406 (Caen)", "at 10, 12". */
export function placeOf(unit, cities) {
  const hex = unit.position?.hex;
  return hex ? hexNamed(hex, cities[hex]?.name)
    : unit.position?.box ? `${unit.position.box} box`
      : unit.position ? `at ${unit.position.x}, ${unit.position.y}` : "not placed";
}

/** What a unit's counter is called: first what it shows (its short name and its symbols, so
 *  a player who says what they see names it), then its whole name, side, markers, statuses
 *  and place. */
function unitLabel(unit, shown, ctx) {
  const entries = Object.entries(unit.markers || {}).filter(([, n]) => n);
  const statuses = shownStatuses(unit);
  const letters = (text) => text.replace(/[^\p{L}\p{N}]+/gu, "");
  const same = letters(shown) === letters(unit.name);
  const seen = [same ? unit.name : shown, ...entries.map(([k, n]) => `${ctx.letters[k]}${n}`),
    ...statuses.map((st) => ctx.letters[`status:${st}`])].join(" ");
  const whole = `${seen}${same ? "" : `: ${unit.name}`} (${ctx.names[unit.side] || unit.side})`;
  return [whole, ...entries.map(([k, n]) => markerWords(k, n, ctx.markerTitles)),
    ...statuses.map((st) => statusWords(st, ctx.statusTitles)), placeOf(unit, ctx.cities)].join(", ");
}

/** What a unit's counter shows, as words: its short name, its symbols. */
function shownText(unit, ctx) {
  const marks = Object.entries(unit.markers || {}).filter(([, n]) => n).map(([k, n]) => `${ctx.letters[k]}${n}`);
  return [...counterLines(unit.name), ...marks, ...shownStatuses(unit).map((st) => ctx.letters[`status:${st}`])].join(" ");
}

/** A unit's counter, `box` ({x, y, w, h} in map units) its place and size. Alone on its spot
 *  it is a button that selects the unit; in a stack it is part of the stack's button. */
function counter(unit, box, colour, ctx, alone) {
  const { opts } = ctx;
  const selected = opts.selected === unit.id;
  const statuses = shownStatuses(unit);
  const marked = statuses.length || Object.values(unit.markers || {}).some(Boolean);
  const lines = counterLines(unit.name);
  const font = box.h * (lines.length > 1 ? 0.22 : 0.25);
  const cx = box.x + box.w / 2;
  const tops = lines.length > 1 ? (marked ? [0.24, 0.5] : [0.34, 0.64]) : [marked ? 0.36 : 0.5];
  const ringed = ctx.highlights.get(unit.id);  // marks.js: a highlight annotation
  const label = `${unitLabel(unit, lines.join(" "), ctx)}${ringed ? `, ${ringed.words}` : ""}`;
  const select = () => opts.onSelect?.(unit.id);
  return s("g", {
    class: `unit${selected ? " selected" : ""}${unit.computed?.must_split ? " warn" : ""}`,
    ...(alone ? {
      role: "button", tabindex: 0, "aria-label": label, "aria-pressed": selected ? "true" : "false",
      onclick: (event) => { event.stopPropagation(); select(); },
      onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); select(); } },
    } : { "aria-label": label }),
    "data-unit": unit.id, "data-side": unit.side,
  },
  s("title", { "aria-hidden": "true" }, label),
  ringed ? highlightRing(box, ringed) : null,
  selected ? s("rect", { class: "ring", x: box.x - box.h * 0.1, y: box.y - box.h * 0.1, width: box.w + box.h * 0.2, height: box.h * 1.2, rx: box.h * 0.2 }) : null,
  s("rect", { class: "counter", x: box.x, y: box.y, width: box.w, height: box.h, rx: box.h * 0.12, fill: colour }),
  // a space (drawn nowhere) after each line, so that what the counter shows reads as words
  // ("1st Squad W2", not "1st SquadW2") and is found in its name, as assistive tools check
  lines.map((line, i) => [s("text", { class: "unit-name", x: cx, y: box.y + box.h * tops[i], "font-size": font, "text-anchor": "middle", "dominant-baseline": "central",
    ...(line.length * 0.6 * font <= box.w * 0.9 ? {} : { textLength: box.w * 0.9, lengthAdjust: "spacingAndGlyphs" }) }, line), " "]),
  badges(unit.markers, cx, box.y + box.h * 0.8, box.h * 0.19, ctx.letters, false, statuses, box.w * 0.94));
}

/** The units in stacks: one per spot (`spotOf(u)`: a hex, or a point of the table), and on a
 *  table the points closer than `near` to a stack's first point join it. Each stack is
 *  {key, at: [x, y] (its first unit's spot), units}, in the order of the units. */
export function stacksOf(units, spotOf, centreOf, near = 0) {
  const stacks = [];
  for (const u of units) {
    const key = spotOf(u);
    const at = centreOf(key);
    const found = stacks.find((st) => st.key === key || Math.hypot(st.at[0] - at[0], st.at[1] - at[1]) < near);
    if (found) found.units.push(u); else stacks.push({ key, at, units: [u] });
  }
  return stacks;
}

/** A stack's words: "3 units in Caen, hex 1406: A, B, C", "2 units near 20, 14: A, B". */
export function stackWords(stack, ctx) {
  const first = stack.units[0];
  const where = first.position?.hex ? `in ${placeOf(first, ctx.cities).replace(/^in /, "")}` : `near ${stack.key.replace(",", ", ")}`;
  return `${stack.units.length} units ${where}: ${stack.units.map((u) => u.name).join(", ")}`;
}

/** The counters of `stacks`, each `size` ({w, h} in map units) centred `dy` below its spot;
 *  a stack's counters piled up (the selected one on top) with how many on its corner. Sets
 *  `ctx.focus` (where "+" zooms to: the selected unit, else the middle of the units). */
export function counterLayer(stacks, size, dy, colours, ctx) {
  const boxes = [];
  const step = size.h * 0.07;  // each counter under the top one shows this much of it
  const drawn = stacks.map((stack) => {
    const units = [...stack.units].sort((a, b) => (a.id === ctx.opts.selected) - (b.id === ctx.opts.selected));
    const alone = units.length === 1;
    const marks = units.map((u, i) => {
      const depth = Math.min(units.length - 1 - i, 3);
      const box = { x: stack.at[0] - size.w / 2 + depth * step, y: stack.at[1] + dy - size.h / 2 + depth * step, w: size.w, h: size.h };
      boxes.push({ u, box });
      return counter(u, box, colours[u.side] || NEUTRAL, ctx, alone);
    });
    if (alone) return marks;
    const top = boxes.at(-1).box;
    const r = size.h * 0.17;
    const words = stackWords(stack, ctx);
    const open = () => ctx.openStack(stack.key);
    // its name starts with what it shows (each counter's short name and symbols, then how
    // many), so a player who says what they see names it
    const shown = [...units.map((u) => shownText(u, ctx)), units.length].join(" ");
    return s("g", {
      class: "stack", role: "button", tabindex: 0, "aria-label": `Stack of ${shown}: ${words}. Opens the list of them.`,
      "aria-haspopup": "dialog", "data-stack": stack.key, "data-count": units.length,
      onclick: (event) => { event.stopPropagation(); open(); },
      onkeydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); open(); } },
    }, s("title", { "aria-hidden": "true" }, words), marks,
    s("g", { class: "stack-count", "aria-hidden": "true" },
      s("circle", { cx: top.x + top.w, cy: top.y, r }),
      s("text", { x: top.x + top.w, y: top.y, "font-size": r * 1.3, "text-anchor": "middle", "dominant-baseline": "central" }, units.length)));
  });
  const chosen = boxes.filter(({ u }) => u.id === ctx.opts.selected);
  ctx.focus = { at: boxes.length ? middle(chosen.length ? chosen : boxes) : null, selected: chosen.length > 0 };
  return s("g", { class: "marks" }, drawn, arrows(boxes, size, ctx));
}

/** The arrows drawn at this version (marks.js), over the counters: an end where a unit stands
 *  is that unit's counter (the arrow stops at its edge), any other end its hex's middle or
 *  its point of the table; the head as long as half a counter. */
function arrows(boxes, size, ctx) {
  if (!ctx.opts.marks?.length) return null;
  const boxOf = new Map(boxes.map(({ u, box }) => [u.id, box]));
  const pointOf = (p) => {
    const box = boxOf.get(unitAt(p, ctx.units)?.id);
    if (box) return [box.x + box.w / 2, box.y + box.h / 2, box.h * 0.62];
    const at = ctx.placeOf(p);
    return at ? [...at, 0] : null;
  };
  return arrowLayer(ctx.opts.marks, pointOf, size.h * 0.6, ctx);
}

/** The middle of the boxes of some units. */
function middle(list) {
  const xs = list.flatMap(({ box }) => [box.x, box.x + box.w]);
  const ys = list.flatMap(({ box }) => [box.y, box.y + box.h]);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
}
