// Variations beside the main line in a replay file (docs/replay.md): each what-if the seat
// sees is carried as its fork's events after the branch (the board at the branch, then each
// event's change, sentence and clocks, as the main line is); the reader steps into one at
// the event it branches at, steps through it, and goes back to the main line there.

import { h } from "./dom.js";
import { applyPatch } from "./patch.js";

/** A variation of the file as a line to step through: versions `start` (the fork's event
 *  that stands for the main line's `from`) to `last`. */
export function variationLine(variation, note) {
  const boards = new Map([[variation.start, variation.board]]);
  const line = {
    ...variation, note, last: variation.start + variation.steps.length - 1,
    stepAt: (v) => variation.steps[v - variation.start],
    boardAt(v) {
      for (let u = variation.start + 1; u <= v; u++) {
        if (!boards.has(u)) boards.set(u, applyPatch(boards.get(u - 1), line.stepAt(u).patch));
      }
      return boards.get(v);
    },
  };
  return line;
}

const title = (line) => (line.note?.text ? `“${line.note.text}”` : "a what-if");

/** The way into each variation that branches at main-line version `v`. */
export function variationDoors(lines, v, enter) {
  const here = lines.map((line, i) => [line, i]).filter(([line]) => line.from === v);
  if (!here.length) return null;
  return h("div", { class: "replay-variations" }, here.map(([line, i]) => h("button", {
    type: "button", class: "secondary", id: `variation-in-${i}`, onclick: () => enter(line),
  }, `What-if here: ${title(line)} (${line.steps.length - 1} events) ▶`)));
}

/** The play-back of a variation: one event back or forward within it, and back to the main
 *  line at the event it branches from. */
export function variationControls(line, v, go, leave) {
  return [
    h("p", { class: "variation-banner", id: "variation-shown" },
      `What-if ${title(line)}: event ${v - line.start} of ${line.last - line.start} after the branch at main-line event ${line.from}`),
    h("div", { class: "row replay-steps" },
      h("button", { type: "button", id: "variation-out", onclick: leave }, "◀ Main line"),
      h("button", { type: "button", id: "step-back", "aria-label": "One event back", title: "One event back", onclick: () => go(v - 1), disabled: v === line.start }, "◀"),
      h("button", { type: "button", id: "step-forward", "aria-label": "One event forward", title: "One event forward", onclick: () => go(v + 1), disabled: v === line.last }, "▶")),
  ];
}

/** The variation's event at `v`: its sentence and seat (what the seat saw of it). */
export function variationEvent(line, v, seatName) {
  const step = line.stepAt(v);
  if (v === line.start) {
    return [h("p", { id: "said", class: "said" }, `The what-if branches here, after main-line event ${line.from}.`),
      h("p", { class: "meta" }, "Step forward to play it.")];
  }
  return [h("p", { id: "said", class: "said" }, step.said),
    h("p", { class: "meta" }, `${seatName(step.actor)} · in the what-if`)];
}
