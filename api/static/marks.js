// Annotations drawn on the board (docs/replay.md): an arrow between two places (two hexes of
// a hex map, two points of a table) and units ringed, each named in players' words ("Arrow
// from 2nd Squad to hex 0504, by Blue: flank here"). board.js draws them on the table page at
// the event on screen and in the replay file at their events; annotate.js draws a draft
// while a player taps one in.

import { s } from "./dom.js";
import { hexNamed } from "./places.js";

const INK = "#1b1b1f";  // the referee's marks
const DRAWN = new Set(["arrow", "highlight"]);

/** The arrows and highlights attached to version `v`, in the order they were added. */
export function marksAt(notes, v) {
  return (notes || []).filter((n) => DRAWN.has(n.kind) && n.at_version === v);
}

/** Who made an annotation, as players say it. */
export function authorWords(author, names) {
  return author === "referee" ? "the referee" : names[author] || author;
}

/** The first unit standing on a place (a hex, or the exact point of the table). */
export function unitAt(place, units) {
  return (units || []).find((u) => (place.hex ? u.position?.hex === place.hex
    : u.position && u.position.x === place.x && u.position.y === place.y));
}

/** One end of an arrow in words: the unit standing there, else the hex (and its city), else
 *  the point of the table. */
export function placeWords(place, units, cities = {}) {
  const unit = unitAt(place, units);
  if (unit) return unit.name;
  if (place.hex) return hexNamed(place.hex, cities[place.hex]?.name);
  return `the point ${place.x}, ${place.y}`;
}

/** An arrow's accessible name: "Arrow from 2nd Squad to hex 0504, by Blue: flank here". */
export function arrowWords(n, units, names, cities = {}) {
  return `Arrow from ${placeWords(n.start, units, cities)} to ${placeWords(n.end, units, cities)}, by ${authorWords(n.author, names)}${n.text ? `: ${n.text}` : ""}`;
}

/** What a highlight adds to a ringed unit's name: "highlighted by Blue: watch the ford". */
export function highlightWords(n, names) {
  return `highlighted by ${authorWords(n.author, names)}${n.text ? `: ${n.text}` : ""}`;
}

/** Unit id -> what each highlight says of it, and the colour of the first. */
export function highlightsOf(marks, names, colours) {
  const found = new Map();
  for (const n of marks || []) {
    if (n.kind !== "highlight") continue;
    for (const uid of n.units || []) {
      const was = found.get(uid);
      const words = highlightWords(n, names);
      found.set(uid, was ? { ...was, words: `${was.words}; ${words}` } : { words, colour: colours[n.author] || INK, draft: n.draft });
    }
  }
  return found;
}

/** The ring around a highlighted counter (`box` its place), in the highlighter's colour. */
export function highlightRing(box, mark) {
  const pad = box.h * 0.26;
  return s("rect", {
    class: `mark-ring${mark.draft ? " draft" : ""}`, x: box.x - pad, y: box.y - pad, width: box.w + 2 * pad,
    height: box.h + 2 * pad, rx: box.h * 0.3, stroke: mark.colour, "aria-hidden": "true",
  });
}

/** The arrows among `marks`, drawn above the counters: `pointOf(place)` is where a place is
 *  on this map, [x, y, how much of the arrow to leave out there] (null: not on it, then the
 *  arrow is left out of the drawing), `head` the arrowhead's length in map units. Each arrow
 *  is an image named in words; taps go through it to the map. */
export function arrowLayer(marks, pointOf, head, ctx) {
  const arrows = (marks || []).filter((n) => n.kind === "arrow");
  if (!arrows.length) return null;
  return s("g", { class: "arrows" }, arrows.map((n) => {
    const from = pointOf(n.start);
    const to = pointOf(n.end);
    if (!from || !to) return null;
    const words = arrowWords(n, ctx.units, ctx.names, ctx.cities);
    const colour = ctx.colours[n.author] || INK;
    const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
    const length = Math.hypot(dx, dy);
    const attrs = { class: `arrow${n.draft ? " draft" : ""}`, role: "img", "aria-label": words, ...(n.id ? { "data-note": n.id } : {}) };
    if (length < head * 0.5) {  // both ends at one place: a ring there
      const r = Math.max(head * 0.7, from[2]);
      return s("g", attrs, s("title", {}, words),
        s("circle", { class: "halo", cx: from[0], cy: from[1], r }),
        s("circle", { class: "shaft", cx: from[0], cy: from[1], r, stroke: colour }));
    }
    const [ux, uy] = [dx / length, dy / length];
    // each end stops short where a counter stands (its edge, not its name), if room is left
    const room = length > from[2] + to[2] + head ? 1 : 0;
    const a = [from[0] + ux * from[2] * room, from[1] + uy * from[2] * room];
    const b = [to[0] - ux * to[2] * room, to[1] - uy * to[2] * room];
    const base = [b[0] - ux * head, b[1] - uy * head];
    const wide = head * 0.5;
    const tip = [`${b[0]},${b[1]}`, `${base[0] - uy * wide},${base[1] + ux * wide}`, `${base[0] + uy * wide},${base[1] - ux * wide}`].join(" ");
    return s("g", attrs, s("title", {}, words),
      s("line", { class: "halo", x1: a[0], y1: a[1], x2: base[0], y2: base[1] }),
      s("line", { class: "shaft", x1: a[0], y1: a[1], x2: base[0], y2: base[1], stroke: colour }),
      s("circle", { class: "tail", cx: a[0], cy: a[1], r: head * 0.22, fill: colour }),
      s("polygon", { class: "head", points: tip, fill: colour }));
  }));
}
