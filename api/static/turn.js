// The top of a match's table: who you are and how it stands (the head), the questions for
// this seat (an end or an undo to agree to, a result to enter), the banner of the past, the
// Turn panel (with the end controls of ending.js), and the More actions panel (a form for any
// action, built from the API's schema).

import { devices } from "./api.js";
import { sideColours } from "./board.js";
import { field, h } from "./dom.js";
import { endControls, endPrompt, outcomeSaid, outcomeText } from "./ending.js";
import { actionForm, actionTypes } from "./forms.js";

const ANY = "*";
const ALWAYS = ["advance", "add_note", "open_dispute", "record_roll", "enter_result", "rule_roll", "end_match"];

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
    out.push(h("div", { class: "prompt", role: "alertdialog", "aria-labelledby": "undo-q" },
      h("p", { id: "undo-q" }, mine ? `You asked to undo back to version ${pending.to}; waiting for the other side.`
        : `${table.sideName(pending.by)} asks to undo back to version ${pending.to} (that takes back dice or another seat's actions).`),
      !mine && !answered ? h("div", { class: "row" },
        h("button", { type: "button", onclick: () => table.post("/undo/accept", undefined, "Undo accepted") }, ref ? "Force the undo" : "Accept"),
        h("button", { type: "button", class: "secondary", onclick: () => table.post("/undo/decline", {}, "Undo declined") }, ref ? "Refuse" : "Decline")) : null));
  }
  const awaiting = table.board.turn.awaiting;
  if (awaiting && table.at === null) {
    out.push(h("div", { class: "prompt", role: "status" },
      h("p", {}, `Waiting for a result from the players' table: ${JSON.stringify(awaiting)}`),
      table.canAct ? actionForm("enter_result", {}, (body) => table.act(body)) : null));
  }
  return out.filter(Boolean);
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

export function renderTurn(table) {
  const t = table.board.turn;
  const track = h("ol", { class: "sequence", "aria-label": "Sequence of play" },
    t.sequence.map((step) => h("li", { "aria-current": step === t.step ? "step" : null, class: step === t.step ? "current" : null }, step)));
  return [
    h("p", { class: "turn-line", id: "turn-marker" },
      h("strong", {}, `Turn ${t.turn}`), ` · ${t.title}`, t.rule ? ` (${t.rule})` : "",
      t.active_side ? ` · active: ${table.sideName(t.active_side)}` : "",
      Object.entries(t.roles || {}).map(([role, side]) => ` · ${role}: ${table.sideName(side)}`)),
    track,
    t.expects.length ? h("ul", { class: "expects", "aria-label": "What this step expects" }, t.expects.map((x) => h("li", {}, x)))
      : h("p", { class: "hint" }, t.outcome ? `The match has ended: ${outcomeSaid(table, t.outcome)}.` : "Nothing is owed in this step."),
    t.shared && !t.outcome ? h("p", { class: "hint", id: "waiting-for" }, t.waiting_for.length
      ? `Every side acts in this step; it ends when each has said it is done. Waiting for: ${t.waiting_for.map((s) => table.sideName(s)).join(", ")}.`
      : "Every side has said it is done.") : null,
    table.canAct ? h("div", { class: "row" },
      advanceButton(table, t),
      t.rolls.map((roll) => h("button", { type: "button", class: "secondary", onclick: () => table.openAction("rule_roll", { roll }) }, `Roll: ${roll}`))) : null,
    endControls(table),
  ];
}

// Next step, or "Done with this step" where every side acts; disabled, with the reason, for
// a seat that may not move the marker now.
function advanceButton(table, t) {
  const mine = t.advanced_by.includes(table.viewer);
  const last = t.waiting_for.length === 1 && t.waiting_for[0] === table.viewer;
  const label = t.shared && table.viewer !== "referee" && !last ? "Done with this step ✓" : "Next step ▸";
  const why = mine ? null : t.shared && !t.waiting_for.includes(table.viewer) ? "You have said you are done; waiting for the others."
    : `Only ${t.advanced_by.filter((s) => s !== "referee").map((s) => table.sideName(s)).join(" or ") || "the referee"} moves the turn on now.`;
  return [
    h("button", { type: "button", id: "advance", disabled: !mine, title: why, onclick: () => table.act({ type: "advance" }, t.shared ? "Done" : "Advance") }, label),
    why ? h("span", { class: "hint", id: "advance-why" }, why) : null,
  ];
}

export function renderActions(table) {
  if (!table.canAct) {
    return h("p", { class: "hint" }, table.at !== null ? "Back to now to act."
      : table.board.turn.outcome ? "The match has ended." : "Spectators watch.");
  }
  // "*": the step allows any action (freeform): the step's list is every type the API takes
  const any = table.board.turn.allows.includes(ANY);
  const allows = table.board.turn.allows.filter((t) => t !== ANY);
  const { type = "", preset = {} } = table.actionPreset || {};
  const chosen = type || allows[0] || "add_note";
  const holder = h("div", {});
  const show = (t) => holder.replaceChildren(actionForm(t, preset, (body) => table.act(body)));
  const option = (t) => h("option", { value: t, selected: t === chosen || undefined }, t);
  const step = h("optgroup", { label: "This step" }, allows.map(option));
  const select = h("select", { id: "action-type", onchange: (e) => show(e.target.value) },
    step, h("optgroup", { label: "Any time" }, ALWAYS.filter((t) => !allows.includes(t)).map(option)));
  if (any) actionTypes().then((types) => step.append(...types.filter((t) => !ALWAYS.includes(t) && !allows.includes(t)).map(option)));
  show(chosen);
  table.actionPreset = null;
  return [field("Action", select), holder];
}
