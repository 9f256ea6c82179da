// The Undo and time travel panel (undo, redo, the slider over every version) and the Event
// log (filters, each event said in words, each a way into the past, notes and disputes about
// an event). The words are the service's: each event's `said` (projections/sentences.py).

import { ruleRef } from "./api.js";
import { field, h, notice } from "./dom.js";

/** An event's kind in words, for the log's filter: `DiceRolled` -> "Dice rolled". */
export function kindName(type) {
  const words = type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The sentence of the event at `version` in the page's log, without its full stop. */
function saidAt(table, version) {
  const e = table.log.find((x) => x.version === version);
  return e?.said ? e.said.replace(/\.$/, "") : null;
}

/** Where the time slider stands, in words. */
function shownWords(table, shown) {
  return shown >= table.head ? `Now: event ${shown} of ${table.head}` : `Event ${shown} of ${table.head}`;
}

export function renderTime(table) {
  const shown = table.at ?? table.head;
  const acting = table.viewer !== "spectator" && table.at === null && table.undo;
  const owner = acting ? redoOwner(table) : "";
  const mayRedo = owner === null || (owner !== "" && (table.viewer === "referee" || table.viewer === owner));
  return [
    acting ? h("div", { class: "row" },
      table.undo.last ? h("button", { type: "button", id: "undo", class: "undo-named", onclick: () => undoLast(table) }, undoLabel(table)) : null,
      mayRedo ? h("button", {
        type: "button", id: "redo", class: "secondary",
        onclick: () => table.post("/redo", undefined, "Redone", {}, (error) => redoRefused(table, error)),
      }, "↷ Redo") : null,
      h("span", { class: "hint" }, table.undo.casual || table.viewer === "referee" ? "Undo is immediate here."
        : undoReach(table)),
      owner && !mayRedo ? h("span", { class: "hint", id: "redo-whose" }, `Only ${redoers(table, owner)} may redo: ${owner === "referee" ? "the referee" : table.sideName(owner)} made the last undo.`) : null) : null,
    h("div", { class: "time-travel" },
      h("button", { type: "button", "aria-label": "One event back", id: "step-back", onclick: () => table.travel(shown - 1) }, "◀"),
      h("input", {
        type: "range", id: "time-slider", min: 1, max: table.head, value: shown, "aria-label": "Moment shown (event number)",
        "aria-valuetext": `event ${shown} of ${table.head}`,
        onchange: (e) => table.travel(Number(e.target.value)),
      }),
      h("button", { type: "button", "aria-label": "One event forward", id: "step-forward", onclick: () => table.travel(shown + 1) }, "▶"),
      h("output", { for: "time-slider", id: "time-shown" }, shownWords(table, shown))),
    saidAt(table, shown) ? h("p", { class: "hint time-said" }, `${shown >= table.head ? "Last" : "Shown: the table just after"}: ${saidAt(table, shown)}.`) : null,
    table.at !== null ? h("button", { type: "button", onclick: () => table.travel(table.head) }, "Back to now") : null,
  ];
}

/** Undo events that leave what redo can reverse as it was (domain/history.py): seats, the
 *  dice seed, disputes and the undo consent. Any other event (an action) clears it. */
const KEEPS_REDO = /^(Seat|DiceSeedRevealed$|DiceCommitted$|Dispute|UndoRequested$|UndoAccepted$|UndoDeclined$)/;

/** The seat whose undo the next redo reverses (its `requested_by`, else its actor), as the
 *  service decides it; "" when nothing can be redone; null when the page of the log the page
 *  holds cannot tell (the log is filtered, or that undo is older than the page). */
function redoOwner(table) {
  const f = table.filters;
  if (f.type || f.actor || f.turn) return null;
  const stack = [];
  let known = false;  // whether the page saw what lies under the stack
  for (const e of [...table.log].reverse()) {
    if (e.type === "ActionsUndone") stack.push(e.requested_by || e.actor);
    else if (e.type === "ActionsRedone") { if (stack.length) stack.pop(); else known = false; }
    else if (!KEEPS_REDO.test(e.type)) { stack.length = 0; known = true; }
  }
  return stack.length ? stack.at(-1) : known ? "" : null;
}

/** "Blue or the referee", or "the referee". */
function redoers(table, owner) {
  return owner === "referee" ? "the referee" : `${table.sideName(owner)} or the referee`;
}

/** A refused redo in words: who may redo it, and why. */
function redoRefused(table, error) {
  if (error.status !== 403 || !error.problem?.allowed) return null;
  const allowed = [].concat(error.problem.allowed);
  const owner = allowed.find((seat) => seat !== "referee") || "referee";
  return `Only ${redoers(table, owner)} may redo this: ${owner === "referee" ? "the referee (or a ruling)" : table.sideName(owner)} made the last undo.${ruleRef(error.problem.rule)}`;
}

/** How far back your undo is immediate, in words: the event it stops at. */
function undoReach(table) {
  const after = table.undo.immediate_to;
  if (after >= table.head) return "Your next undo asks the other side first (a roll, a card or another seat's action came last).";
  const first = table.log.filter((e) => e.version > after && !/^(Seat|Dispute|Undo|DiceSeed|DiceCommitted)/.test(e.type)).at(-1);
  return first?.said
    ? `Your own actions since “${first.said.replace(/\.$/, "")}” undo at once; further back the other side is asked.`
    : "Your own latest actions undo at once; further back the other side is asked.";
}

/** What an undo takes back, in the service's sentences: "Red moved 1st Squad; Red rolled
 *  2d6: 7 (and 2 more)". */
export function takenBackWords(taken) {
  const said = taken.said.map((s) => s.replace(/\.$/, "")).join("; ");
  return `${said || "the match as it was"}${taken.more ? ` (and ${taken.more} more)` : ""}`;
}

/** Who answers `seat`'s undo request: the other sides, by name ("Blue", "Blue and Green"). */
export function answerers(table, seat) {
  const names = table.match.sides.filter((s) => s.id !== seat).map((s) => s.name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0] || "the other side";
}

/** The Undo button in words (docs/table.md): "↶ Undo: Red activated 1st Squad" when it
 *  takes back at once; "Ask Blue to take back: Blue moved 2nd Squad" when the last action
 *  is another side's; "Ask Blue to agree to take back: …" across a roll or a card. */
export function undoLabel(table) {
  const last = table.undo.last;
  const what = takenBackWords(last);
  if (last.immediate) return `↶ Undo: ${what}`;
  const others = table.match.sides.filter((s) => s.id !== table.viewer).map((s) => s.id);
  if (others.length === 1 && others[0] === last.by) return `Ask ${table.sideName(last.by)} to take back: ${what}`;
  return `Ask ${answerers(table, table.viewer)} to agree to take back: ${what}`;
}

/** Undo the last action (Undo and time travel, and Your move's own Undo button). */
export async function undoLast(table) {
  const label = table.undo.last ? undoLabel(table) : "";
  const done = await table.post("/undo", {});
  if (!done) return;
  const asked = done.events.some((e) => e.type === "UndoRequested");
  notice(asked ? `${label.replace(/^Ask /, "Asked ")}. Waiting for the answer.`
    : label ? `${label.replace(/^↶ Undo: /, "Undone: ")}.` : "Undone.", "ok");
}

export function renderLog(table) {
  const f = table.filters;
  const seats = ["referee", ...table.match.sides.map((x) => x.id)];
  const types = [...new Set([...table.log.map((e) => e.type), ...(f.type ? [f.type] : [])])]
    .sort((a, b) => kindName(a).localeCompare(kindName(b)));
  const filters = h("form", {
    class: "row filters", "aria-label": "Filter the log", "data-key": "filters",
    onchange: (e) => { const el = e.target; table.filters[el.name] = el.value; table.refresh(); },
    onsubmit: (e) => e.preventDefault(),
  },
  field("What", h("select", { name: "type" }, h("option", { value: "" }, "everything"),
    types.map((t) => h("option", { value: t, selected: t === f.type || undefined }, kindName(t))))),
  field("Seat", h("select", { name: "actor" }, h("option", { value: "" }, "anyone"), seats.map((x) => h("option", { value: x, selected: x === f.actor || undefined }, table.seatName(x))))),
  field("Turn", h("input", { name: "turn", type: "number", min: 1, value: f.turn, size: 4, inputmode: "numeric" })));
  const undone = f.type || f.actor || f.turn ? new Set() : undoneVersions(table.log);
  return [filters, h("ol", { class: "log words", reversed: true }, table.log.map((e) => eventRow(table, e, undone.has(e.version))))];
}

/** The event as recorded, for whoever wants to check it: every field the page received. */
function recorded(e) {
  const { said, ...rest } = e;
  return JSON.stringify(rest, null, 1);
}

function eventRow(table, e, undone) {
  const canNote = table.viewer !== "spectator";
  const said = e.said || kindName(e.type);
  const now = table.at === e.version || (table.at === null && e.version === table.head);
  return h("li", { value: e.version, "data-version": e.version, class: [table.at === e.version ? "current" : "", undone ? "undone" : ""].join(" ").trim() || null },
    h("p", { class: "said" }, said),
    h("p", { class: "meta" }, `${table.seatName(e.actor)} · turn ${e.turn}`, undone ? h("span", { class: "tag" }, " · undone") : null),
    h("div", { class: "row event-tools" },
      now ? h("span", { class: "hint shown-now" }, table.at === null ? "The table shows this now." : "The table shows this.")
        : h("button", { type: "button", class: "secondary then", "aria-label": `Show the table then: ${said}`, onclick: () => table.travel(e.version) }, "Show the table then"),
      canNote ? h("details", { class: "inline note", "data-key": `note:${e.version}` }, h("summary", {}, "Note or dispute"),
        h("form", { class: "stack", "aria-label": `Note or dispute about: ${said}`, onsubmit: (ev) => ev.preventDefault() },
          field("Text", h("textarea", { name: "text", rows: 2, required: true, maxlength: 2000 })),
          h("div", { class: "row" },
            h("button", { type: "button", onclick: (ev) => annotate(table, ev, e.version, "add_note") }, "Add note"),
            h("button", { type: "button", class: "secondary", onclick: (ev) => annotate(table, ev, e.version, "open_dispute") }, "Open dispute")))) : null,
      h("details", { class: "inline raw", "data-key": `raw:${e.version}` }, h("summary", {}, "As recorded"),
        h("pre", { class: "recorded" }, recorded(e)))));
}

function annotate(table, event, version, type) {
  const text = event.target.form.elements.text.value.trim();
  if (!text) { notice("Write what the note or dispute says first."); return; }
  table.act({ type, about_version: version, text }, type === "add_note" ? "Note" : "Dispute");
}

/** Versions a later undo took back (and no redo restored), from the newest page of the log. */
function undoneVersions(newestFirst) {
  const ranges = new Map();
  for (const e of [...newestFirst].reverse()) {
    if (e.type === "ActionsUndone") ranges.set(e.version, [e.to, e.version]);
    if (e.type === "ActionsRedone") ranges.delete(e.reverses);
  }
  const out = new Set();
  for (const e of newestFirst) {
    if (/^(Undo|Seat|Dispute|DiceSeed|DiceCommitted)/.test(e.type)) continue;  // not game events
    for (const [to, at] of ranges.values()) if (e.version > to && e.version < at) out.add(e.version);
  }
  return out;
}
