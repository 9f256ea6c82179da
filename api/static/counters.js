// A unit's counter on the map (board.js, hexes.js): a box in its side's colour with its short
// name and its marker badges, named in words for a screen reader, and where the counters go
// (layout.js). Pure functions of the board view.

import { s } from "./dom.js";
import { layOut } from "./layout.js";
import { arrowLayer, highlightRing, unitAt } from "./marks.js";

export const NEUTRAL = "#4a4a55";

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
export function markerLetters(kinds) {
  const firsts = kinds.map((k) => k.slice(0, 1).toUpperCase());
  return Object.fromEntries(kinds.map((k, i) => [k,
    firsts.filter((f) => f === firsts[i]).length > 1 ? k.slice(0, 1).toUpperCase() + k.slice(1, 2) : firsts[i]]));
}

export function markerWords(kind, count) {
  return `${count} ${kind.replaceAll("_", " ")} marker${count === 1 ? "" : "s"}`;
}

/** A row of small badges, one per marker kind: "W2", its kind spelled out in its tooltip. A
 *  location's badges are images named in words; a counter's are part of the counter, whose
 *  name says them ("… W2 …, 2 wound markers"). */
export function badges(markers, cx, cy, font, letters, named = false) {
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
export function placeMarks(units, spotOf, centreOf, natural, base, colours, ctx) {
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
