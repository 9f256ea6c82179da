// The top of a match's table: who you are and how it stands (the head), the questions for
// this seat (an end or an undo to agree to, a result to enter), the banner of the past, the
// Turn panel: the marker, the step among its neighbours (the whole sequence behind a
// disclosure) and the end controls of ending.js. What the seat may do is in play.js.

import { devices, ruleRef } from "./api.js";
import { sideColours } from "./board.js";
import { field, h } from "./dom.js";
import { endControls, endPrompt, outcomeSaid, outcomeText } from "./ending.js";
import { answerers, takenBackWords } from "./history.js";
import { actionBlock, inWords } from "./play.js";

export function renderHead(table) {
  const m = table.match;
  const seats = Object.keys(table.entry.tokens).filter((k) => !k.startsWith("join:"));
  const colour = sideColours(m.sides)[table.viewer];
  return [
    h("h1", {}, m.scenario),
    h("p", { class: "meta" },
      h("span", { class: "seat-badge", style: colour ? `border-color:${colour}` : null, id: "viewer" }, `You: ${table.seatName(table.viewer)}`),
      seats.length > 1 ? field("Acting as", h("select", {
        id: "seat-switch",
        onchange: (e) => { table.stored = devices.save(table.id, { seat: e.target.value }); table.listen(); table.refresh(); },
      }, seats.map((k) => h("option", { value: k, selected: k === table.viewer || undefined }, table.seatName(k))))) : null,
      m.casual ? h("span", { class: "tag" }, "casual") : null,
      m.outcome ? h("strong", { class: "tag ended", id: "ended" }, `Ended: ${outcomeText(table, m.outcome)}`) : null),
  ];
}

export function renderPrompt(table) {
  const pending = table.undo?.pending;
  const out = [endPrompt(table)];
  if (pending && table.at === null) {
    const mine = pending.by === table.viewer;
    const answered = pending.accepted.includes(table.viewer);
    const ref = table.viewer === "referee";
    const what = takenBackWords(pending.takes_back);
    out.push(h("div", { class: "prompt", role: "alertdialog", "aria-labelledby": "undo-q" },
      h("p", { id: "undo-q" }, mine ? `You asked ${answerers(table, pending.by)} to take back: ${what}. Waiting for the answer.`
        : `${table.seatName(pending.by)} asks to take back: ${what}.`),
      !mine && !answered ? h("div", { class: "row" },
        h("button", { type: "button", onclick: () => table.post("/undo/accept", undefined, "Undo accepted") }, ref ? "Force the undo" : "Accept"),
        h("button", { type: "button", class: "secondary", onclick: () => table.post("/undo/decline", {}, "Undo declined") }, ref ? "Refuse" : "Decline")) : null));
  }
  const awaiting = table.board.turn.awaiting;
  if (awaiting && table.at === null) {
    const result = table.canAct && table.legal?.actions.find((a) => a.type === "enter_result" || a.type === "record_roll");
    out.push(h("div", { class: "prompt", role: "status", id: "awaiting" },
      h("p", {}, awaitingWords(table, awaiting)),
      result ? actionBlock(table, result, "prompt") : null));
  }
  return out.filter(Boolean);
}

/** What the table owes, in words: "Referee owes the faces of the 2d6 thrown at the table
 *  for fire at the Militia Band." */
function awaitingWords(table, awaiting) {
  const who = table.seatName(awaiting.by);
  const rule = ruleRef(awaiting.rule);
  const d = awaiting.declared;
  if (d) return `${who} owes the faces of the ${d.notation} thrown at the table${d.purpose ? ` for ${inWords(table, d.purpose)}` : ""}${rule}. Nothing else can be done until they are entered.`;
  return `${who} owes the result of ${inWords(table, awaiting.what)}${rule}, read from the dice at the table. Nothing else can be done until it is entered.`;
}

export function renderPast(table, banner) {
  banner.hidden = table.at === null;
  if (table.at === null) return;
  const t = table.board.turn;
  banner.replaceChildren(
    h("strong", {}, "The past: "),
    `version ${table.at} of ${table.head}, turn ${t.turn}, ${t.title}. Nothing can be done here. `,
    h("button", { type: "button", onclick: () => table.travel(table.head) }, "Back to now"));
}

/** A step's title, as the service says it ("cleanup/morale" → "Clean-Up Morale sub-phase"). */
function stepWords(t, step) {
  return (t.sequence_titles || [])[t.sequence.indexOf(step)] || step;
}

export function renderTurn(table) {
  const t = table.board.turn;
  const at = t.sequence.indexOf(t.step);
  const near = t.sequence.map((step, i) => [step, i]).filter(([, i]) => Math.abs(i - at) <= 1);
  const chip = (step, current) => h("li", { "aria-current": current ? "step" : null, class: current ? "current" : null, "data-step": step },
    current ? t.title : stepWords(t, step));
  return [
    h("p", { class: "turn-line", id: "turn-marker" },
      h("strong", {}, `Turn ${t.turn}`), ` · ${t.title}`, ruleRef(t.rule),
      t.active_side ? ` · active: ${table.sideName(t.active_side)}` : "",
      // a role the rules name (the attacker); a side that is its own role says nothing new
      Object.entries(t.roles || {}).filter(([role, side]) => role !== side).map(([role, side]) => ` · ${role}: ${table.sideName(side)}`)),
    h("ol", { class: "sequence", "aria-label": "Sequence of play, around this step" },
      at > 1 ? h("li", { class: "more" }, "…") : null,
      near.map(([step]) => chip(step, step === t.step)),
      at < t.sequence.length - 2 ? h("li", { class: "more" }, "…") : null),
    t.sequence.length > 3 ? h("details", { class: "whole-sequence", "data-key": "sequence" },
      h("summary", {}, `The whole sequence (${t.sequence.length} steps)`),
      h("ol", { class: "sequence-all" }, t.sequence.map((step) => h("li", { class: step === t.step ? "current" : null, "data-step": step }, stepWords(t, step))))) : null,
    t.expects.length || !t.outcome ? null : h("p", { class: "hint" }, `The match has ended: ${outcomeSaid(table, t.outcome)}.`),
    endControls(table),
  ];
}
