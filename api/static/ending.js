// The end of a match, in the players' words. A side proposes an end (a winner or a draw, and
// why) that every side must agree to, or concedes (two sides): the other side wins at once.
// A proposal shows on every page with Agree for the sides that have not agreed yet. The
// referee ends a match at once, and reopens an ended one. The service decides (docs/seats.md);
// the page only offers each seat what it may do.

import { entropy } from "./api.js";
import { field, h } from "./dom.js";

/** "Red", "Red and Blue", "Red, Blue and Green". */
function listed(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function sideNames(table, ids) {
  return listed(ids.map((id) => table.sideName(id)));
}

/** "Red wins" or "a draw". */
export function outcomeText(table, outcome) {
  return outcome.winner ? `${table.sideName(outcome.winner)} wins` : "a draw";
}

/** The reason as players read it: the service writes "blue conceded", the page the side's name. */
function reasonText(table, reason) {
  const conceded = reason.match(/^(\S+) conceded([\s\S]*)$/);
  if (conceded && table.match.sides.some((s) => s.id === conceded[1])) return `${table.sideName(conceded[1])} conceded${conceded[2]}`;
  return reason;
}

/** "Red wins (time is up)". */
export function outcomeSaid(table, outcome) {
  return outcomeText(table, outcome) + (outcome.reason ? ` (${reasonText(table, outcome.reason)})` : "");
}

/** Post an ending action; `said(done, ended)` is the notice once the page shows it. */
function send(table, body, said) {
  return table.post("/actions", body, (done) => said(done, done.events.some((e) => e.type === "MatchEnded")),
    { "Idempotency-Key": entropy() });
}

function closer(label) {
  return h("button", { type: "button", class: "secondary", onclick: (e) => { e.target.closest("details").open = false; } }, label);
}

/** The proposal on the table, at the top of every seat's page while it stands. */
export function endPrompt(table) {
  const proposal = table.match.turn.end_proposal;
  if (!proposal || table.match.outcome || table.at !== null) return null;
  const { outcome, agreed } = proposal;
  const me = table.viewer;
  const sides = table.match.sides.map((s) => s.id);
  const waiting = sides.filter((s) => !agreed.includes(s));
  const asked = sides.includes(me) && !agreed.includes(me);
  const body = { type: "end_match", winner: outcome.winner, reason: outcome.reason };
  let answer = null;
  if (asked) {
    answer = h("div", { class: "row" },
      h("button", {
        type: "button", id: "agree-end",
        onclick: () => send(table, body, (done, ended) => (ended ? `The match has ended: ${outcomeText(table, outcome)}.`
          : "You agreed to this end; the other sides are asked.")),
      }, "Agree"),
      h("span", { class: "hint" }, "Or propose another end with End the match… under Turn."));
  } else if (sides.includes(me)) {
    answer = h("p", { class: "hint" }, `You agreed. Waiting for ${sideNames(table, waiting)}.`);
  } else if (me === "referee") {
    answer = h("div", { class: "row" },
      h("button", {
        type: "button", class: "secondary",
        onclick: () => send(table, body, () => `You ended the match: ${outcomeText(table, outcome)}.`),
      }, "End it as proposed"),
      h("span", { class: "hint" }, `Waiting for ${sideNames(table, waiting)}; as the referee you may end it now.`));
  }
  return h("div", { class: "prompt end-proposal", id: "end-proposal", role: asked ? "alertdialog" : "status", "aria-labelledby": "end-q" },
    h("p", { id: "end-q" }, h("strong", {}, `${table.sideName(agreed[0])} proposes: ${outcomeSaid(table, outcome)}`),
      ` — agreed by ${sideNames(table, agreed)}`),
    answer);
}

/** The Turn panel's end controls: End the match… and Concede… for a side (the referee's End
 *  ends it at once); Reopen the match… for the referee once it has ended. */
export function endControls(table) {
  if (table.at !== null || table.viewer === "spectator") return null;
  const referee = table.viewer === "referee";
  if (table.match.outcome) return referee ? h("div", { class: "ending" }, reopenControl(table)) : null;
  const concede = !referee && table.match.sides.length === 2;
  return h("div", { class: "ending" }, endForm(table, referee), concede ? concedeControl(table) : null);
}

function endForm(table, referee) {
  const others = table.match.sides.filter((s) => s.id !== table.viewer).map((s) => s.id);
  return h("details", { class: "inline", "data-key": "end" }, h("summary", {}, "End the match…"),
    h("form", {
      class: "stack", "aria-label": "End the match",
      onsubmit: (e) => {
        e.preventDefault();
        const f = e.target.elements;
        const outcome = { winner: f.winner.value === "draw" ? null : f.winner.value, reason: f.reason.value.trim() };
        send(table, { type: "end_match", ...outcome }, (done, ended) => (ended ? `The match has ended: ${outcomeText(table, outcome)}.`
          : `You proposed: ${outcomeText(table, outcome)}. ${sideNames(table, others)} ${others.length === 1 ? "is" : "are"} asked to agree.`));
      },
    },
    field("Who wins", h("select", { name: "winner", required: true },
      h("option", { value: "", disabled: true, selected: true }, "Choose…"),
      table.match.sides.map((s) => h("option", { value: s.id }, `${s.name} wins`)),
      h("option", { value: "draw" }, "A draw"))),
    field("Why", h("input", { name: "reason", maxlength: 200, placeholder: "e.g. time is up; the bridge is taken" })),
    h("p", { class: "hint" }, referee ? "You are the referee: this ends the match at once."
      : `The match ends when every side has proposed the same end: ${sideNames(table, others)} will be asked.`),
    h("div", { class: "row" }, h("button", { type: "submit" }, referee ? "End the match now" : "Propose this end"), closer("Cancel"))));
}

function concedeControl(table) {
  const other = table.match.sides.find((s) => s.id !== table.viewer);
  return h("details", { class: "inline concede", "data-key": "concede" }, h("summary", {}, "Concede…"),
    h("form", {
      class: "stack", "aria-label": "Concede the match",
      onsubmit: (e) => {
        e.preventDefault();
        send(table, { type: "concede", reason: e.target.elements.reason.value.trim() },
          () => `You conceded. The match has ended: ${other.name} wins.`);
      },
    },
    h("p", {}, h("strong", {}, `Concede the match? ${other.name} wins at once, and the match ends for everyone.`)),
    field("Why (optional)", h("input", { name: "reason", maxlength: 200 })),
    h("div", { class: "row" }, h("button", { type: "submit", class: "danger" }, `Yes, concede: ${other.name} wins`), closer("Keep playing"))));
}

function reopenControl(table) {
  return h("details", { class: "inline", "data-key": "reopen" }, h("summary", {}, "Reopen the match…"),
    h("form", {
      class: "stack", "aria-label": "Reopen the match",
      onsubmit: (e) => {
        e.preventDefault();
        send(table, { type: "reopen_match", reason: e.target.elements.reason.value.trim() },
          () => "The match is open again: play goes on, and you may undo across the end.");
      },
    },
    h("p", {}, h("strong", {}, "Reopen this match?"),
      " Play goes on from here, and you may undo across the end (a mistaken concession, a ruling). A fresh dice seed is committed; every seat sees the reopening in the log."),
    field("Why", h("input", { name: "reason", required: true, maxlength: 200, placeholder: "e.g. Blue conceded by mistake" })),
    h("div", { class: "row" }, h("button", { type: "submit" }, "Yes, reopen the match"), closer("Cancel"))));
}
