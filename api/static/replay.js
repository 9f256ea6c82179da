// The replay file's page (docs/replay.md): a match played back offline, from the data the
// file carries (api/replay_page.py), drawn by the table page's own panels (units.js's board
// and units, dice.js's victory points, board.js's dice faces), and its log checked here on
// opening by integrity.js's check (the hash chain and every server roll whose seed is
// revealed): "Verified: N events, head hash …" or the first event that does not match.

import { diceFaces } from "./board.js";
import { renderClock } from "./clock.js";
import { renderVP } from "./dice.js";
import { $, h, panel } from "./dom.js";
import { checkExport, notCheckedFully } from "./integrity.js";
import { marksAt } from "./marks.js";
import { hexWords } from "./places.js";
import { applyPatch } from "./patch.js";
import { chartFigures, chartsShown } from "./replay_charts.js";
import { dataBlock } from "./replay_block.js";
import { rollProof } from "./replay_proof.js";
import { variationControls, variationDoors, variationEvent, variationLine } from "./replay_variation.js";
import { renderBoard, renderUnits } from "./units.js";

const SPEEDS = [["Slow", 2000], ["Normal", 1000], ["Fast", 400]];

const block = dataBlock();  // exactly one, outside comments, or never "Verified"
const data = JSON.parse(block.text);
const lines = data.export.split("\n");
lines.pop();  // the file ends in "\n"
const byVersion = new Map();
const NOTE_LINES = new Set(["AnnotationAdded", "AnnotationEdited", "AnnotationDeleted"]);
for (const line of lines.slice(1)) {
  try { const e = JSON.parse(line); if (!NOTE_LINES.has(e.type)) byVersion.set(e.version, e); } catch { /* the check names it */ }
}
// the annotations this seat sees (docs/replay.md): each shown at its version (a chapter over
// its range); the chapters are the table of contents
const notes = data.annotations || [];
const chapters = notes.filter((n) => n.kind === "chapter");

// each version's board when first shown, from the nearest one made before it (each shares
// what did not change with the one before it)
const boards = [null, data.board];
const last = data.steps.length;
function boardAt(v) {
  while (boards.length <= v) boards.push(applyPatch(boards.at(-1), data.steps[boards.length - 1].patch));
  return boards[v];
}
const turnOf = (v) => data.steps[v - 1].turn;
const stepOf = (v) => `${data.steps[v - 1].turn}|${data.steps[v - 1].step}`;
const names = Object.fromEntries(data.sides.map((s) => [s.id, s.name]));
const seatName = (id) => (id === "referee" ? "the referee" : id === "spectator" ? "a spectator" : names[id] || id);

/** Where each turn begins (the first version of each run of the same turn), in order. */
const turns = [];
for (let v = 1; v <= last; v++) if (v === 1 || turnOf(v) !== turnOf(v - 1)) turns.push(v);

const view = {
  at: 1, selected: null, placing: null, canAct: false, log: [], playing: null, speed: 1000,
  match: { sides: data.sides }, line: null, proof: null,
  get board() { return this.line ? this.line.boardAt(this.at) : boardAt(this.at); },
  // arrows and highlights drawn (marks.js); a what-if's versions are not the main line's
  get marks() { return this.line ? [] : marksAt(notes, this.at); },
  sideName: (id) => names[id] || id,
  seatName,
  holdsUnit: () => true,
  loadUnit: () => {},
  render: () => draw(),
};

/** The first version of the run (of `key`) before the one `v` stands in. */
function runBack(v, key) {
  let u = v;
  while (u > 1 && key(u - 1) === key(v)) u--;  // the start of this run
  if (u === 1) return 1;
  const k = key(u - 1);
  while (u > 1 && key(u - 1) === k) u--;
  return u;
}

function runForward(v, key) {
  let u = v;
  while (u < last && key(u) === key(v)) u++;
  return key(u) === key(v) ? last : u;
}

function go(v) {
  if (view.line) { view.at = Math.max(view.line.start, Math.min(view.line.last, v)); draw(); return; }
  view.at = Math.max(1, Math.min(last, v));
  history.replaceState(null, "", `#v=${view.at}`);
  draw();
}

function fromHash() {
  const m = /^#v=(\d+)$/.exec(location.hash);
  if (m) { view.line = null; view.at = Math.max(1, Math.min(last, Number(m[1]))); draw(); }
}

function play() {
  if (view.playing) { clearInterval(view.playing); view.playing = null; draw(); return; }
  if (view.at >= last) view.at = 1;
  view.playing = setInterval(() => {
    if (view.at >= last) { clearInterval(view.playing); view.playing = null; }
    else view.at += 1;
    history.replaceState(null, "", `#v=${view.at}`);
    draw();
  }, view.speed);
  draw();
}

const S = {
  head: h("header", { class: "replay-head" }),
  check: h("p", { id: "verified", role: "status", class: "hint" }, "Checking the log…"),
  controls: panel("controls", "Play back"),
  event: panel("event", "This event"),
  board: panel("board", "Board"),
  vp: panel("vp", "Victory points"),
  units: panel("units", "Units"),
  notes: panel("notes", "Annotations"),
  contents: panel("contents", "Turns"),
  clock: panel("clock", "Clocks"),
  charts: panel("charts", "Charts"),
};

function button(id, label, words, onclick, disabled = false) {
  return h("button", { type: "button", id, "aria-label": words, title: words, onclick, disabled }, label);
}

function controls() {
  const v = view.at;
  return [
    h("div", { class: "row replay-steps" },
      button("turn-back", "◀ Turn", "One turn back", () => go(runBack(v, turnOf)), v === 1),
      button("step-back-sequence", "◀ Step", "One step of the sequence back", () => go(runBack(v, stepOf)), v === 1),
      button("step-back", "◀", "One event back", () => go(v - 1), v === 1),
      button("step-forward", "▶", "One event forward", () => go(v + 1), v === last),
      button("step-forward-sequence", "Step ▶", "One step of the sequence forward", () => go(runForward(v, stepOf)), v === last),
      button("turn-forward", "Turn ▶", "One turn forward", () => go(runForward(v, turnOf)), v === last)),
    h("input", {
      type: "range", id: "replay-slider", min: 1, max: last, value: v, "aria-label": "Event shown",
      "aria-valuetext": `event ${v} of ${last}`, oninput: (e) => go(Number(e.target.value)),
    }),
    h("div", { class: "row" },
      h("button", { type: "button", id: "play", "aria-pressed": view.playing ? "true" : "false", onclick: play }, view.playing ? "Pause" : "Play"),
      h("label", { class: "check" }, "Speed ",
        h("select", { id: "speed", onchange: (e) => { view.speed = Number(e.target.value); if (view.playing) { play(); play(); } } },
          SPEEDS.map(([words, ms]) => h("option", { value: ms, selected: ms === view.speed || undefined }, words)))),
      h("output", { id: "replay-shown", for: "replay-slider" }, `Event ${v} of ${last} · turn ${boardAt(v).turn.turn}, ${boardAt(v).turn.title}`)),
  ];
}

/** The event at this version: its sentence, its seat and, for a roll, its dice. */
function eventPanel() {
  const step = data.steps[view.at - 1];
  const body = byVersion.get(view.at);
  const roll = body && Array.isArray(body.dice) && body.notation ? body : null;
  return [
    h("p", { id: "said", class: "said" }, step.said),
    h("p", { class: "meta" }, `${seatName(step.actor)}${body?.hidden ? " · part of it is not yours to see" : ""}`),
    roll ? h("div", { class: "row" }, diceFaces({ notation: roll.notation, dice: roll.dice, total: roll.total }),
      h("span", { class: "hint" }, roll.roll_index !== undefined && roll.roll_index !== null
        ? "Rolled by the server."
        : "Thrown at the table and entered.")) : null,
    body && body.roll_index !== undefined && body.roll_index !== null ? rollProof(view.proof, view.at) : null,
    variationDoors(whatIfs, view.at, enter),
  ];
}

const placeWords = (p) => (p.hex ? hexWords(view.board, p.hex) : `(${p.x}, ${p.y})`);
const unitName = (id) => view.board.units.find((u) => u.id === id)?.name || id;

/** The annotations at the version shown (a chapter over its range): what, by whom, for whom. */
function notesPanel() {
  const at = mainAt();
  const here = notes.filter((n) => n.at_version === at || (n.kind === "chapter" && n.at_version <= at && at <= (n.upto_version ?? n.at_version)));
  if (!here.length) return h("p", { class: "hint" }, "No annotation at this event.");
  return h("ul", { class: "replay-notes" }, here.map((n) => h("li", { class: `note-${n.kind}` },
    h("strong", {}, n.kind === "chapter" ? `Chapter: ${n.text}` : n.kind === "arrow" ? `Arrow ${placeWords(n.start)} → ${placeWords(n.end)}` : n.kind === "highlight" ? `Units: ${n.units.map(unitName).join(", ")}` : n.kind === "variation" ? "What-if" : n.text),
    n.kind !== "comment" && n.kind !== "chapter" && n.text ? ` ${n.text}` : "",
    h("span", { class: "meta" }, ` · ${seatName(n.author)}${n.visibility === "public" ? "" : ` · ${n.visibility}`}`))));
}

function contents() {
  const toc = chapters.length ? h("ol", { class: "replay-turns replay-chapters", "aria-label": "Chapters" }, chapters.map((n) => h("li", {},
    h("button", { type: "button", class: "secondary", id: `chapter-at-${n.at_version}`, onclick: () => go(n.at_version) }, `${n.text} (${n.at_version}${n.upto_version ? `–${n.upto_version}` : ""})`)))) : null;
  return [toc, h("ol", { class: "replay-turns" }, turns.map((v) => h("li", {},
    h("button", { type: "button", class: `secondary${turnOf(mainAt()) === turnOf(v) && v <= mainAt() ? " current" : ""}`, id: `turn-at-${v}`, onclick: () => go(v) },
      `Turn ${turnOf(v)} (from event ${v})`))))];
}

// ---- clocks, charts and variations (docs/replay.md) ----

/** The clocks at the event shown, as the table page shows them at a past version. */
function clockPanel() {
  const step = view.line ? view.line.stepAt(view.at) : data.steps[view.at - 1];
  S.clock.hidden = !step.clock;
  if (!step.clock) return [];
  const sides = step.clock.sides.map(([side, remaining, running, fallen]) => ({ side, name: names[side] || side, remaining, running, flag_fallen: fallen }));
  return renderClock({ board: view.board, viewer: data.viewer, at: view.at, match: view.match, clock: { started: true, paused: step.clock.paused, readAt: 0, sides } });
}

const figures = chartFigures(data.charts || []);

/** The after-action charts, marked at the turn of the event shown (on a variation: where it
 *  branches from the main line). */
function chartsPanel() {
  S.charts.hidden = !figures.length;
  const v = mainAt();
  const body = view.line ? null : byVersion.get(v);
  return chartsShown(figures, turnOf(v), body && Array.isArray(body.dice) && body.notation ? body : null);
}

const whatIfs = (data.variations || []).map((variation) => variationLine(variation, notes.find((n) => n.id === variation.id)));

/** The main line's version on screen (in a variation: the one it branches from). */
function mainAt() { return view.line ? view.line.from : view.at; }

function enter(line) {
  if (view.playing) play();
  view.line = line;
  view.at = line.start;
  draw();
}

function leave() {
  const back = view.line.from;
  view.line = null;
  go(back);
}

function fill(section, ...children) {
  section.replaceChildren(section.firstChild, ...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

function draw() {
  fill(S.controls, view.line ? variationControls(view.line, view.at, go, leave) : controls());
  fill(S.event, view.line ? variationEvent(view.line, view.at, seatName) : eventPanel());
  fill(S.clock, clockPanel());
  fill(S.charts, chartsPanel());
  fill(S.notes, notesPanel());
  fill(S.board, renderBoard(view));
  fill(S.vp, renderVP(view));
  fill(S.units, renderUnits(view));
  fill(S.contents, contents());
}

// embedded in another page (`?embed`: an iframe on a forum): the play-back, the event and the
// board, the check said in one line; the units, the turns and the victory points left out
if (new URLSearchParams(location.search).has("embed")) document.body.classList.add("embed");
S.head.replaceChildren(h("h1", {}, data.scenario),
  h("p", { class: "meta" }, `Replay for ${seatName(data.viewer)} · ${last} events · chain head ${data.chain_head.slice(0, 16)}…`), S.check);
$("#main").replaceChildren(S.head, h("div", { class: "columns" },
  h("div", { class: "col" }, S.controls, S.event, S.notes, S.clock, S.board),
  h("div", { class: "col" }, S.contents, S.vp, S.charts, S.units)));
draw();
fromHash();
window.addEventListener("hashchange", fromHash);

/** The check of the log the file carries, said. */
async function verify() {
  const found = block.problem ? { problem: block.problem } : await checkExport(lines);
  if (!found.problem && found.head !== data.chain_head) {
    found.problem = { version: 0, kind: "file", detail: "does not end in the chain head the replay shows" };
  }
  view.proof = found;
  draw();  // each roll's proof mark, now that the check has run
  const { problem } = found;
  if (!problem) {
    S.check.textContent = `Verified: ${found.events} events, head hash ${found.head}. `
      + (found.checked ? `${found.checked} server rolls recomputed from the revealed seed.` : "")
      + (found.waiting ? ` ${found.waiting} rolls wait for their seed (revealed when the match ends).` : "")
      + ` ${notCheckedFully(found)}`;
    S.check.className = "hint verified";
    document.body.dataset.verified = "yes";
    return;
  }
  const said = data.steps[problem.version - 1]?.said?.replace(/\.$/, "");
  S.check.replaceChildren(`Not verified: ${problem.version ? `event ${problem.version}${said ? ` (“${said}”)` : ""}` : "the match file"} ${problem.detail}. `,
    problem.version ? h("a", { href: `#v=${problem.version}` }, "Show it") : "");
  S.check.className = "problem";
  document.body.dataset.verified = "no";
  document.body.dataset.brokenAt = String(problem.version);
}
verify().catch((error) => { S.check.textContent = `The check could not run: ${error.message}`; S.check.className = "problem"; });
