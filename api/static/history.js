// The Undo and time travel panel (undo, redo, the slider over every version) and the Event
// log (filters, each version a way into the past, notes and disputes about an event).

import { field, h, notice } from "./dom.js";

const PLAIN = new Set(["version", "type", "timestamp", "actor", "command_id", "rule", "turn", "prev_hash", "hash", "hidden"]);

export function renderTime(table) {
  const shown = table.at ?? table.head;
  const acting = table.viewer !== "spectator" && table.at === null && table.undo;
  const owner = acting ? redoOwner(table) : "";
  const mayRedo = owner === null || (owner !== "" && (table.viewer === "referee" || table.viewer === owner));
  return [
    acting ? h("div", { class: "row" },
      h("button", { type: "button", id: "undo", onclick: () => undoLast(table) }, "↶ Undo"),
      mayRedo ? h("button", {
        type: "button", id: "redo", class: "secondary",
        onclick: () => table.post("/redo", undefined, "Redone", {}, (error) => redoRefused(table, error)),
      }, "↷ Redo") : null,
      h("span", { class: "hint" }, table.undo.casual || table.viewer === "referee" ? "Undo is immediate here."
        : `Your own actions back to version ${table.undo.immediate_to} undo at once; further back the other side is asked.`),
      owner && !mayRedo ? h("span", { class: "hint", id: "redo-whose" }, `Only ${redoers(table, owner)} may redo: ${owner === "referee" ? "the referee" : table.sideName(owner)} made the last undo.`) : null) : null,
    h("div", { class: "time-travel" },
      h("button", { type: "button", "aria-label": "One event back", id: "step-back", onclick: () => table.travel(shown - 1) }, "◀"),
      h("input", {
        type: "range", id: "time-slider", min: 1, max: table.head, value: shown, "aria-label": "Version shown",
        "aria-valuetext": `version ${shown} of ${table.head}`,
        onchange: (e) => table.travel(Number(e.target.value)),
      }),
      h("button", { type: "button", "aria-label": "One event forward", id: "step-forward", onclick: () => table.travel(shown + 1) }, "▶"),
      h("output", { for: "time-slider", id: "time-shown" }, `v${shown} / ${table.head}`)),
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
  return `Only ${redoers(table, owner)} may redo this: ${owner === "referee" ? "the referee (or a ruling)" : table.sideName(owner)} made the last undo. (${error.problem.rule})`;
}

async function undoLast(table) {
  const done = await table.post("/undo", {});
  if (!done) return;
  const asked = done.events.find((e) => e.type === "UndoRequested");
  notice(asked ? `Asked the other side to agree to undo back to version ${asked.to}.` : "Undone.", "ok");
}

export function renderLog(table) {
  const f = table.filters;
  const seats = ["referee", ...table.match.sides.map((x) => x.id)];
  const types = [...new Set(table.log.map((e) => e.type))].sort();
  const filters = h("form", {
    class: "row filters", "aria-label": "Filter the log", "data-key": "filters",
    onchange: (e) => { const el = e.target; table.filters[el.name] = el.value; table.refresh(); },
    onsubmit: (e) => e.preventDefault(),
  },
  field("Type", h("input", { name: "type", value: f.type, list: "event-types", size: 14, placeholder: "any" })),
  h("datalist", { id: "event-types" }, types.map((t) => h("option", { value: t }))),
  field("Seat", h("select", { name: "actor" }, h("option", { value: "" }, "any"), seats.map((x) => h("option", { value: x, selected: x === f.actor || undefined }, x)))),
  field("Turn", h("input", { name: "turn", type: "number", min: 1, value: f.turn, size: 4 })));
  const undone = f.type || f.actor || f.turn ? new Set() : undoneVersions(table.log);
  return [filters, h("ol", { class: "log", reversed: true }, table.log.map((e) => eventRow(table, e, undone.has(e.version))))];
}

function eventRow(table, e, undone) {
  const rest = Object.fromEntries(Object.entries(e).filter(([k, v]) => !PLAIN.has(k) && v !== null && !(Array.isArray(v) && !v.length)));
  let summary = JSON.stringify(rest);
  if (e.type === "DiceRolled" && e.dice) summary = `${e.purpose || ""}: ${e.notation} → ${e.dice.join(", ")} = ${e.total}`;
  if (e.type === "TurnAdvanced" && e.marker) summary = `turn ${e.marker.turn}, ${e.marker.step}`;
  if (e.type === "MatchCreated") summary = `${e.scenario} (${e.ruleset}): ${e.sides.map((x) => x.name).join(" v ")}`;
  if (e.type === "NoteAdded") summary = `“${e.text}”${e.about_version ? ` about v${e.about_version}` : ""}`;
  if (summary.length > 180) summary = `${summary.slice(0, 177)}…`;
  const canNote = table.viewer !== "spectator";
  return h("li", { value: e.version, "data-version": e.version, class: [table.at === e.version ? "current" : "", undone ? "undone" : ""].join(" ").trim() || null },
    h("button", { type: "button", class: "link", title: "Show the match as it was after this event", onclick: () => table.travel(e.version) }, `v${e.version}`),
    h("span", { class: "etype" }, ` ${e.type}`), h("span", { class: "meta" }, ` ${e.actor} · turn ${e.turn}`),
    undone ? h("span", { class: "tag" }, " undone") : null,
    h("div", { class: "summary" }, summary),
    canNote ? h("details", { class: "inline", "data-key": `note:${e.version}` }, h("summary", {}, "Note or dispute"),
      h("form", { class: "stack", "aria-label": `Note or dispute about version ${e.version}`, onsubmit: (ev) => ev.preventDefault() },
        field("Text", h("textarea", { name: "text", rows: 2, required: true, maxlength: 2000 })),
        h("div", { class: "row" },
          h("button", { type: "button", onclick: (ev) => annotate(table, ev, e.version, "add_note") }, "Add note"),
          h("button", { type: "button", class: "secondary", onclick: (ev) => annotate(table, ev, e.version, "open_dispute") }, "Open dispute")))) : null);
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
