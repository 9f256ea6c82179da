// "Your move": what this seat may do now, from GET /api/matches/{id}/legal and nothing else
// (the page never decides what is legal). The step in words, each of the step's actions as a
// big button, a picker of big buttons where an action has several choices (units, sides,
// cards), a small form where a choice needs more (inputs.js), the players' own dice where the
// rules take them, and Next step with its reason when it is refused. Unit cards and the More
// actions panel offer the other choices through the same flow (`choiceFlow`).

import { ruleRef } from "./api.js";
import { $, h } from "./dom.js";
import { undoLabel, undoLast } from "./history.js";
import { inputForm, setPath, tableDiceForm, tapValues } from "./inputs.js";

/** The end of the match: offered under Turn (ending.js), not under More actions. */
const ENDINGS = new Set(["end_match", "concede", "reopen_match"]);

/** The most choices of the step's first move that Your move shows at once, without a picker. */
const INLINE_CHOICES = 8;

const SHORT = {
  activate_unit: "Activate", roll_morale: "Morale roll", rally_unit: "Rally", lose_step: "Lose a step",
  gain_step: "Gain a step", move_unit: "Move", split_unit: "Split", place_marker: "Place a marker",
  remove_marker: "Remove a marker", remove_unit: "Take out of play", set_status: "Status",
  deploy_unit: "Deploy", fire: "Fire",
};

/** An action's title without its rule: "Activate a unit (AA-1)" → "Activate a unit". */
export function plain(title) {
  return title.replace(/\s*\([A-Z]+-[\w.-]+\)\s*$/, "");
}

/** The words a unit card shows for an action. */
export function shortName(action) {
  return SHORT[action.type] || plain(action.title);
}

/** The notice once a choice is done when the service says no outcome (table.act):
 *  "Activate a unit: 1st Squad. Done." */
function said(action, choice) {
  const what = plain(action.title);
  return choice.label && !what.toLowerCase().includes(choice.label.toLowerCase()) ? `${what}: ${choice.label}. Done.` : `${what}. Done.`;
}

function required(choice) {
  return (choice.inputs || []).filter((i) => i.required);
}

/** Whether this seat asked that a move of Your move the step waits for be followed by its
 *  Next step in the same request ("Then done with this step"; kept on this device for the
 *  match and the seat, so it is ticked once). */
const thenKey = (table) => `battlelog:then-done:${table.id}:${table.viewer}`;
const ticked = new Map();  // (where the device keeps nothing: while the page is open)
function thenDone(table) {
  try { return (localStorage.getItem(thenKey(table)) ?? ticked.get(thenKey(table))) === "yes"; } catch { return ticked.get(thenKey(table)) === "yes"; }
}

/** "Then done with this step": offered where Next step waits for one of the step's own moves
 *  that the legal answer says lets the seat move on (`then_done`): one tap less each time. */
function thenDoneBox(table, legal, own) {
  if (legal.advance.legal || !own.some((a) => a.choices.some((c) => c.then_done))) return null;
  return h("label", { class: "check then-done" }, h("input", {
    type: "checkbox", id: "then-done", checked: thenDone(table),
    onchange: (event) => {
      ticked.set(thenKey(table), event.target.checked ? "yes" : "no");
      try { localStorage.setItem(thenKey(table), ticked.get(thenKey(table))); } catch { /* kept while the page is open */ }
    },
  }), "Then done with this step, in the same tap");
}

/** What posts a choice's body: with "Then done with this step" ticked, a move of Your move
 *  that lets the seat move on is followed by its Next step (`?then=done`). */
function sender(table, action, choice, where) {
  const then = where === "play" && thenDone(table) && choice.then_done ? "done" : null;
  const what = then ? `${said(action, choice)} Then done with this step.` : said(action, choice);
  return (body) => table.act(body, what, then);
}

/** Open (or close) a choice's detail at `where` ("play", "unit:<id>", "more"). */
function open(table, state) {
  table.move = state;
  table.render();
}

/** Put the map in placing mode: the next tap on it is `place(position)`. */
export function pickOnMap(table, prompt, place) {
  table.placing = { prompt, place };
  table.render();
  $("#board")?.scrollIntoView({ block: "start" });
}

/** A roll of Your move that needs nothing more from the player: one tap rolls it here (the
 *  service's dice); "We rolled at the table" beside it takes the players' own dice. */
function rollsAtOnce(choice, where) {
  return (where === "play" || where === "owed") && Boolean(choice.table) && required(choice).length === 0;
}

/** Take a choice: post it at once when it needs nothing more, else open what it needs. */
export function take(table, action, index, where) {
  const choice = action.choices[index];
  const needs = required(choice);
  const send = sender(table, action, choice, where);
  if (choice.table && table.move?.mode === "table" && table.move.id === action.id) {
    return open(table, { id: action.id, index, where, mode: "table" });  // the players' own dice
  }
  if (rollsAtOnce(choice, where)) return send(structuredClone(choice.body));
  if (!choice.table && needs.length === 1 && needs[0].kind === "position" && (choice.inputs || []).length === 1) {
    const name = choice.label;
    return pickOnMap(table, `Tap the map where ${name} goes.`, (to) => send({ ...structuredClone(choice.body), [needs[0].name]: to }));
  }
  if (!choice.table && needs.length === 0) return send(structuredClone(choice.body));
  open(table, { id: action.id, index, where, mode: "form" });
  return null;
}

/** The detail of an open choice: the table dice, or the form of its inputs. */
function choiceDetail(table, action, index, where) {
  const choice = action.choices[index];
  const key = `${action.id}/${index}`;
  const close = () => open(table, null);
  const send = sender(table, action, choice, where);
  const mode = table.move?.mode;
  const head = h("p", { class: "choice-head" }, h("strong", {}, plain(action.title)),
    choice.label && choice.label !== plain(action.title) ? `: ${choice.label}` : "");
  const opts = { key, cancel: close, pickOnMap: (label, done) => pickOnMap(table, `Tap the map: ${label}.`, (pos) => { done(pos); table.placing = null; table.render(); $(`[data-key="${CSS.escape(key)}"]`)?.scrollIntoView({ block: "center" }); }) };
  if (choice.table && mode === "table") return h("div", { class: "choice-detail" }, head, tableDiceForm(choice, send, opts));
  const needs = required(choice);
  const parts = [head];
  // One required choice of a few values (a marker's kind): a big button for each, sent at once.
  // (a number with few values, as a cut's cards or a roll's dice, alike: a numbered button each)
  const quick = needs.length === 1 && tapValues(needs[0]) ? needs[0] : null;
  if (quick) {
    parts.push(h("div", { class: "row picks-quick", role: "group", "aria-label": quick.label }, tapValues(quick).map((v) => h("button", {
      type: "button", class: "big", onclick: () => { const body = structuredClone(choice.body); setPath(body, quick.name, v.value); send(body); },
    }, v.label ?? String(v.value)))));
  }
  if (choice.table) {
    parts.push(h("div", { class: "row" },
      needs.length ? null : h("button", { type: "button", class: "big", onclick: () => send(structuredClone(choice.body)) }, "Roll here"),
      h("button", { type: "button", class: "big secondary", onclick: () => open(table, { id: action.id, index, where, mode: "table" }) }, "We rolled at the table")));
    if (needs.length) parts.push(inputForm(choice, send, { ...opts, submitLabel: "Roll here" }));
    else parts.push(h("button", { type: "button", class: "secondary", onclick: close }, "Cancel"));
  } else if (quick && (choice.inputs || []).length > 1) {
    parts.push(h("details", { class: "inline", "data-key": `${key}/more` }, h("summary", {}, "With more detail…"), inputForm(choice, send, { ...opts, submitLabel: plain(action.title) })));
    parts.push(h("button", { type: "button", class: "secondary", onclick: close }, "Cancel"));
  } else if (quick) {
    parts.push(h("button", { type: "button", class: "secondary", onclick: close }, "Cancel"));
  } else {
    parts.push(inputForm(choice, send, { ...opts, submitLabel: plain(action.title) }));
  }
  return h("div", { class: "choice-detail" }, parts);
}

/**
 * An action as a big button (its title); several choices open a picker of big buttons (their
 * labels); an open choice shows what it still needs. `where` says which place owns it.
 */
export function actionBlock(table, action, where, only = null, inline = false) {
  const indexes = action.choices.map((_, i) => i).filter((i) => !only || only(action.choices[i]));
  const here = table.move && table.move.id === action.id && table.move.where === where ? table.move : null;
  if (here && here.index !== null && here.index !== undefined) return choiceDetail(table, action, here.index, where);
  const block = chooser(table, action, where, indexes, here, inline);
  // a roll that one tap makes here: the players' own dice are one tap beside it
  const ownDice = !here && indexes.some((i) => rollsAtOnce(action.choices[i], where));
  return ownDice ? [block, h("button", {
    type: "button", class: "big secondary table-roll", "data-for": action.id,
    "aria-label": `${plain(action.title)}: we rolled at the table`,
    onclick: () => open(table, { id: action.id, index: indexes.length === 1 ? indexes[0] : null, where, mode: "table" }),
  }, "We rolled at the table")] : block;
}

/** The action's button, or its picker of choices (shown at once when `inline`). */
function chooser(table, action, where, indexes, here, inline) {
  if (where === "owed" && !here) return indexes.map((i) => owedButton(table, action, i));
  if (indexes.length === 1) {
    return h("button", { type: "button", class: "big action", "data-action": action.id, onclick: () => take(table, action, indexes[0], where) },
      where.startsWith("unit:") ? shortName(action) : action.title);
  }
  // `inline`: the step's first move, its few choices shown at once (one tap less)
  if (here || inline) {
    return h("div", { class: "picker", role: "group", "aria-label": action.title, "data-action": action.id },
      h("p", { class: "choice-head" }, h("strong", {}, action.title), ": choose one"),
      h("div", { class: "picks-grid" }, indexes.map((i) => h("button", {
        type: "button", class: "big", "data-choice": action.choices[i].label, onclick: () => take(table, action, i, where),
      }, choiceLabel(action, i, indexes)))),
      here ? h("button", { type: "button", class: "secondary", onclick: () => open(table, null) }, "Cancel") : null);
  }
  return h("button", { type: "button", class: "big action", "data-action": action.id, onclick: () => open(table, { id: action.id, index: null, where }) },
    `${where.startsWith("unit:") ? shortName(action) : action.title} …`);
}

/** A choice's label; where two share one, what tells them apart (what each still asks). */
function choiceLabel(action, i, indexes) {
  const choice = action.choices[i];
  const twins = indexes.filter((j) => action.choices[j].label === choice.label);
  if (twins.length < 2) return choice.label;
  const asks = required(choice).map((x) => x.label.toLowerCase());
  return `${choice.label}: ${asks.length ? asks.join(", ") : "as the rules have it"}`;
}

/** Ids in the service's words replaced by names ("red to activate one of: sq1" → names). */
export function inWords(table, text) {
  const names = new Map([...table.board.units, ...table.board.off_board].map((u) => [u.id, u.name]));
  for (const s of table.match.sides) names.set(s.id, s.name);
  return text.replace(/\s*\([a-z]+_[a-z_]+\)/g, "").replace(/[\w-]+/g, (w) => names.get(w) || w);
}

/** The value a required input can only take (one value offered), or undefined. */
function onlyValue(input) {
  return input.kind === "choice" && input.values?.length === 1 ? input.values[0].value : undefined;
}

/** One tap that discharges a duty for one choice (a unit): its body, with each required
 *  input that can take one value only filled in; else the choice's usual flow. */
function owedButton(table, action, index) {
  const choice = action.choices[index];
  const needs = required(choice);
  const filled = needs.every((i) => onlyValue(i) !== undefined) && !choice.table;
  const send = sender(table, action, choice, "owed");
  const label = choice.label && !plain(action.title).toLowerCase().includes(choice.label.toLowerCase())
    ? `${plain(action.title)}: ${choice.label}` : plain(action.title);
  // one required value of a few (a cut's number of cards, a roll's dice, a supply status):
  // a button for each value, which discharges the duty in one tap (not the choice, then it)
  const values = needs.length === 1 && !choice.table && !filled ? tapValues(needs[0]) : null;
  if (values) {
    return h("div", { class: "owed-values", role: "group", "aria-label": `${label}: ${needs[0].label}`, "data-action": action.id },
      h("p", { class: "choice-head" }, h("strong", {}, label), `: ${needs[0].label.toLowerCase()}`),
      h("div", { class: "row picks-grid" }, values.map((v) => h("button", {
        type: "button", class: "big action owed-action", "data-action": action.id, "data-choice": choice.label,
        "aria-label": `${label}: ${v.label ?? String(v.value)}`,
        onclick: () => { const body = structuredClone(choice.body); setPath(body, needs[0].name, v.value); send(body); },
      }, v.label ?? String(v.value)))));
  }
  return h("button", {
    type: "button", class: "big action owed-action", "data-action": action.id, "data-choice": choice.label,
    onclick: () => (filled ? send({ ...structuredClone(choice.body), ...Object.fromEntries(needs.map((i) => [i.name, onlyValue(i)])) })
      : take(table, action, index, "owed")),
  }, label);
}

/** A duty's words: "to take the defender marker off your unit (HT-6): Militia Band". */
function owedWords(table, item) {
  const names = new Map([...table.board.units, ...table.board.off_board].map((u) => [u.id, u.name]));
  const units = item.units.map((u) => names.get(u) || u);
  return [`To ${item.says}`, ruleRef(item.rule), units.length ? `: ${units.join(", ")}` : ""];
}

/** "You owe" (docs/table.md): what this seat owes now (the board's `owed`), first in Your
 *  move, each with the legal choices that discharge it (one tap each: for each unit it
 *  concerns, the action of `done_by` about that unit); what the other seats owe, when this
 *  seat owes nothing, as what the match waits for. */
function owedBlock(table, legal) {
  const owed = table.board.owed || [];
  const mine = owed.filter((o) => o.seat === table.viewer);
  if (!mine.length) {
    const theirs = owed.filter((o) => o.seat !== table.viewer);
    return theirs.length ? h("div", { class: "owed-others", id: "owed-others", role: "status" },
      h("p", {}, h("strong", {}, "Waiting for what is owed")),
      h("ul", {}, theirs.map((o) => h("li", {}, `${o.name}: `, owedWords(table, o).map((x, i) => (i === 0 ? x.replace(/^To /, "to ") : x)))))) : null;
  }
  return h("div", { class: "owed", id: "you-owe", role: "group", "aria-label": "What you owe" },
    h("p", {}, h("strong", {}, "You owe")),
    h("ul", {}, mine.map((o) => {
      // the choices about the units it concerns; where none is about them (an attack owed
      // on a defender is made with the attacker), every choice of the actions that discharge it
      const acts = legal.actions.filter((a) => o.done_by.includes(a.type))
        .sort((x, y) => o.done_by.indexOf(x.type) - o.done_by.indexOf(y.type));  // as the duty lists them
      // (a choice about several of them at once, as all of a side's units still to do, too)
      const many = (c) => !c.unit_id && Array.isArray(c.body?.unit_ids) && c.body.unit_ids.length > 1
        && c.body.unit_ids.every((u) => o.units.includes(u));
      const theirs = (c) => o.units.includes(c.unit_id) || many(c);
      const about = acts.some((a) => a.choices.some(theirs)) ? theirs : () => true;
      const blocks = acts.filter((a) => a.choices.some(about)).map((a) => actionBlock(table, a, "owed", about));
      return h("li", { "data-rule": o.rule }, h("p", {}, owedWords(table, o)),
        blocks.length ? h("div", { class: "moves" }, blocks)
          : h("p", { class: "hint" }, "Nothing offered now discharges it: see the unit cards and More actions."));
    })));
}

export function renderPlay(table) {
  const t = table.board.turn;
  const step = h("p", { class: "step-now", id: "step-now" }, h("strong", {}, `Turn ${t.turn} · ${t.title}`), ruleRef(t.rule),
    t.active_side ? ` · ${table.sideName(t.active_side)} to act` : "");
  // the game's file spent its work budget on this board: shown without its extras
  const leftOut = table.board.left_out ? h("p", { class: "hint", role: "status" },
    "This game's ruleset file spent its work budget on this board: its units' values and what this step expects are not shown.") : null;
  if (!table.canAct) {
    return [step, leftOut, h("p", { class: "hint" }, table.at !== null ? "This is the past: go back to now to act."
      : t.outcome ? "The match has ended." : "Spectators watch; they do not act.")];
  }
  const legal = table.legal;
  if (!legal) return [step, h("p", { class: "hint" }, "What you may do could not be read; it will be read again with the next update.")];
  const expects = t.expects.length ? h("ul", { class: "expects", "aria-label": "What this step expects" }, t.expects.map((x) => h("li", {}, inWords(table, x)))) : null;
  const own = legal.actions.filter((a) => a.own);  // the step's own move (docs/legal-actions.md)
  const owes = owedBlock(table, legal);
  const owing = owes?.id === "you-owe";
  return [
    step,
    leftOut,
    owes,
    expects,
    legal.reason ? h("p", { class: "hint" }, legal.reason) : null,
    own.length ? h("div", { class: "moves" }, own.map((a, i) => actionBlock(table, a, "play", null,
      i === 0 && a.choices.length <= INLINE_CHOICES)))
      : owing ? null : h("p", { class: "hint" }, "Nothing in this step is yours to do but what is below: unit cards and More actions."),
    // (while the seat's standing pass is on, its done follows its move by itself)
    legal.standing_pass?.on ? null : thenDoneBox(table, legal, own),
    advanceRow(table, legal.advance, legal.standing_pass),
  ];
}

/** The seat's standing pass (domain.acting.standing): "Pass until I must act" beside Done
 *  with this step, or, while it is on, what it does and "Stop passing". */
function passing(table, pass) {
  if (!pass) return [null, null];
  const tap = () => table.act(pass.choice.body, `${pass.choice.label}. Done.`);
  // where it stops next (the first step where you owe something or have a move to choose)
  const stops = pass.stops ? h("span", { id: "pass-stops" }, `stops at ${pass.stops}${pass.why ? ` (${pass.why})` : ""}`) : null;
  if (!pass.on) {
    return [h("button", { type: "button", id: "pass-until", class: "big secondary", "aria-describedby": "pass-until-what", onclick: tap }, pass.choice.label),
      h("p", { class: "hint", id: "pass-until-what" }, "Your done is said for you in every step where you owe nothing and have nothing to choose, until the turn ends",
        stops ? ["; it ", stops, "."] : ".")];
  }
  return [null, h("div", { class: "passing row", role: "status", id: "passing" },
    h("p", {}, h("strong", {}, "Passing"), stops ? [": ", stops, "."] : ": your done is said for you where you owe nothing and have nothing to choose, until the turn ends."),
    h("button", { type: "button", id: "stop-passing", class: "big secondary", onclick: tap }, pass.choice.label))];
}

/** Next step from the legal answer: its title when legal, else disabled with the reason. */
function advanceRow(table, advance, pass) {
  const [passButton, passLine] = passing(table, pass);
  const t = table.board.turn;
  const said = t.shared && table.viewer !== "referee" && !t.waiting_for.includes(table.viewer)
    ? "You have said you are done; waiting for the others." : advance.reason;
  const words = advance.legal ? null : said && inWords(table, said);
  return h("div", { class: "advance" },
    h("div", { class: "row" },
      h("button", {
        type: "button", id: "advance", class: "big", disabled: !advance.legal, "aria-describedby": words ? "advance-why" : null,
        onclick: () => table.act(advance.body, `${plain(advance.title)}. Done.`),
      }, advance.title),
      // one tap for the steps ahead that hold nothing for this seat (domain.acting.ahead)
      advance.until ? h("button", {
        type: "button", id: "done-until", class: "big secondary", "aria-describedby": "done-until-what",
        onclick: () => table.act(advance.until.body, `${advance.until.label}. Done.`),
      }, advance.until.label) : null,
      passButton,
      advance.skips.map((skip) => h("button", { type: "button", class: "secondary", onclick: () => table.act(skip.body, `${skip.label}. Done.`) }, skip.label)),
      // undo within reach of the thumb, beside what it takes back (the panel below says more)
      table.undo?.last ? h("button", { type: "button", id: "undo-here", class: "secondary undo-named", onclick: () => undoLast(table) }, undoLabel(table)) : null),
    passLine,
    words ? h("p", { class: "hint", id: "advance-why" }, words) : null,
    advance.until ? h("p", { class: "hint", id: "done-until-what" },
      `${advance.until.label}: on through ${advance.ahead.map(plain).join(", ")}; ${advance.stops
        ? `it stops at ${plain(advance.stops)}` : "then the other sides say they are done"}.`) : null,
    t.shared && !t.outcome ? h("p", { class: "hint", id: "waiting-for" }, t.waiting_for.length
      ? `Every side acts in this step; it ends when each has said it is done. Waiting for: ${t.waiting_for.map((s) => table.sideName(s)).join(", ")}.`
      : "Every side has said it is done.") : null);
}

/** The More actions panel: what the seat may do that is not the step's own move. */
export function renderMore(table) {
  if (!table.canAct) return h("p", { class: "hint" }, table.at !== null ? "Back to now to act." : table.board.turn.outcome ? "The match has ended." : "Spectators watch.");
  if (!table.legal) return null;
  // what is not the step's own move is bookkeeping or allowed at any step (domain.legal.own)
  const rest = table.legal.actions.filter((a) => !a.own && !ENDINGS.has(a.type));
  return [
    h("p", { class: "hint" }, "Bookkeeping the rules allow now, and notes. The end of the match is under Turn."),
    h("div", { class: "moves" }, rest.map((a) => actionBlock(table, a, "more"))),
  ];
}
