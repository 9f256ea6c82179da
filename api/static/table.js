// A match's table: the app's state for one match (this seat, the version shown), loading the
// views, following the live stream, acting, and rendering each panel from its own module.
// Everything shown comes from the API's views with this seat's token, so a seat sees exactly
// what the API lets it see.

import { renderNotes } from "./annotate.js";
import { marksAt } from "./marks.js";
import { api, devices, entropy, follow } from "./api.js";
import { renderClock } from "./clock.js";
import { renderDice, renderVP } from "./dice.js";
import { $, h, notice, panel } from "./dom.js";
import { renderLog, renderTime } from "./history.js";
import { joinPage } from "./join.js";
import { restore, snapshot } from "./keep.js";
import { renderDisputes, renderExports, renderSeats } from "./records.js";
import { renderMore, renderPlay } from "./play.js";
import { renderHead, renderPast, renderPrompt, renderTurn } from "./turn.js";
import { renderBoard, renderUnits } from "./units.js";

/** Parse the URL fragment (#seat=… or #join=…) and forget it at once. */
function takeFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (location.hash) history.replaceState(null, "", location.pathname);
  return { seat: params.get("seat"), join: params.get("join"), token: params.get("token") };
}

export async function table(main, id) {
  const fragment = takeFragment();
  if (fragment.join) return joinPage(main, id, fragment.join);  // app.js sends #join= there first
  const token = fragment.seat || fragment.token;
  if (token) {
    const match = await api(`/api/matches/${id}`, { token }).catch((error) => error);
    // a token of unknown kind (typed in the lobby) that only joins is a join token
    if (fragment.token && match.status === 403) return joinPage(main, id, token);
    if (match instanceof Error) notice(match);
    else devices.save(id, { tokens: { [match.viewer]: token }, seat: match.viewer, scenario: match.scenario, ruleset: match.ruleset });
  }
  const entry = devices.get(id);
  if (!entry || !entry.seat || !entry.tokens[entry.seat]) {
    main.replaceChildren(h("h1", {}, "No seat here"),
      h("p", {}, "This device holds no seat of this match. Open the link the match's referee or a player sent you."),
      h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
    return;
  }
  return new Table(main, id).start();
}

class Table {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    this.at = null;           // the version shown while travelling in time; null: now
    this.head = 0;
    this.selected = null;     // a unit id
    this.placing = null;      // {prompt, place(position)}: the next tap on the map
    this.move = null;         // the open legal action or choice: {id, index, where, mode}
    this.legal = null;        // GET /legal for this seat, now (null: a spectator, the past)
    this.filters = { type: "", actor: "", turn: "" };
    this.lastRoll = null;
  }

  /** This device's seats for the match (read from storage once per load, not per use). */
  get entry() { return (this.stored ||= devices.get(this.id)); }
  get viewer() { return this.entry.seat; }
  get token() { return this.entry.tokens[this.viewer]; }
  get canAct() { return this.at === null && this.viewer !== "spectator" && !this.board?.turn.outcome; }

  async start() {
    this.sections = {
      head: h("div", { class: "match-head" }),
      prompt: h("div", { id: "prompt" }),
      past: h("div", { id: "past", class: "past-banner", hidden: true }),
      clock: panel("clock", "Whose turn"),
      play: panel("play", "Your move"),
      turn: panel("turn", "Turn"),
      board: panel("board", "Board"),
      units: panel("units", "Units"),
      dice: panel("dice", "Dice"),
      vp: panel("vp", "Victory points"),
      actions: panel("actions", "More actions"),
      time: panel("time", "Undo and time travel"),
      notes: panel("notes", "Annotations"),
      log: panel("log", "Event log"),
      disputes: panel("disputes", "Disputes"),
      exports: panel("exports", "Export"),
      seats: panel("seats", "Seats"),
    };
    const S = this.sections;
    // The phone's order: what to do next first, then the table, then the records.
    this.main.replaceChildren(S.head, S.prompt, S.past,
      h("div", { class: "columns" },
        h("div", { class: "col" }, S.clock, S.play, S.turn, S.board, S.units),
        h("div", { class: "col" }, S.time, S.notes, S.dice, S.vp, S.actions, S.log, S.disputes, S.exports, S.seats)));
    try {
      await this.refresh();
    } catch (error) {
      this.main.replaceChildren(h("h1", {}, "This match cannot be shown"), h("p", {}, error.explained || error.message),
        h("p", {}, h("a", { href: "/" }, "Back to the lobby")));
      return;
    }
    this.listen();
  }

  listen() {
    if (this.unfollow) this.unfollow();
    const live = $("#live");
    this.unfollow = follow(this.id, this.token, (version) => {
      if (version !== this.head) this.refresh();
    }, (state) => {
      if (state === "live" && live.dataset.state === "reconnecting") this.refresh();  // annotations missed meanwhile
      live.textContent = state === "live" ? "● live" : "○ reconnecting…";
      live.dataset.state = state;
    }, (note) => this.noteArrived(note));
  }

  /** An annotation another page added, changed or took away, as the live stream said it. */
  noteArrived({ annotation, gone }) {
    const id = annotation?.id || gone;
    const kept = (this.notes || []).filter((n) => n.id !== id);
    this.notes = annotation ? [...kept, annotation].sort((a, b) => a.at_version - b.at_version) : kept;
    this.renderMarks();
  }

  /** The arrows and highlights drawn at the event shown (marks.js), and the one being drawn. */
  get marks() {
    return [...marksAt(this.notes, this.at ?? this.head), ...(this.draft ? [this.draft] : [])];
  }

  /** Draw the board and the Annotations panel again (an annotation came or went). */
  renderMarks() {
    if (!this.board) return;
    this.fill(this.sections.board, renderBoard(this));
    renderNotes(this, this.sections.notes);
  }

  /** Re-read the views, one load at a time. A call during a load gets a promise that
   *  settles after a load that started after the call, so the caller sees what it did. */
  refresh() {
    if (this.refreshing) { this.again = true; return this.refreshing; }
    this.refreshing = (async () => {
      do { this.again = false; await this.load(); } while (this.again);
    })().finally(() => { this.refreshing = null; });
    return this.refreshing;
  }

  async load() {
    this.stored = null;
    const t = this.token;
    const point = this.at === null ? "" : `?at=${this.at}`;
    const acting = this.viewer !== "spectator";
    const [match, board, undo, legal, clock, notes] = await Promise.all([
      api(`/api/matches/${this.id}`, { token: t }),
      api(`/api/matches/${this.id}/board${point}`, { token: t }),
      acting ? api(`/api/matches/${this.id}/undo`, { token: t }).catch(() => null) : null,
      // what this seat may do now (never in the past, never for a spectator): legal actions
      acting && this.at === null ? api(`/api/matches/${this.id}/legal`, { token: t }).catch(() => null) : null,
      api(`/api/matches/${this.id}/clock${point}`, { token: t }).catch(() => null),  // clock.js
      api(`/api/matches/${this.id}/annotations`, { token: t }).catch(() => null),  // annotate.js, marks.js
    ]);
    if (notes) this.notes = notes.annotations;
    if (clock) clock.readAt = Date.now();
    const log = await this.loadLog(match.version);
    // The dispute list reads the whole log: read it again only when a dispute event is new.
    const seen = this.disputesAt ?? -Infinity;
    const newer = log.filter((e) => e.version > seen);
    if (this.disputes === undefined || match.version - seen > newer.length || newer.some((e) => e.type.startsWith("Dispute"))) {
      this.disputes = await api(`/api/matches/${this.id}/disputes`, { token: t }).catch(() => []);
    }
    this.disputesAt = match.version;
    if (legal?.version !== this.legal?.version || legal?.seat !== this.legal?.seat) this.move = null;
    Object.assign(this, { match, board, undo, log, legal, clock });
    this.head = match.version;
    if (this.entry.scenario !== match.scenario) this.stored = devices.save(this.id, { scenario: match.scenario, ruleset: match.ruleset });
    this.render();
  }

  /** Whether the legal answer holds the unit's choices: a large board's answer is a page
   *  of its units (docs/legal-actions.md); the others are read one unit at a time. */
  holdsUnit(uid) {
    const page = this.legal?.page;
    return !page?.truncated || page.units.includes(uid);
  }

  /** Read one unit's choices (`?unit=`) when the answer does not hold them, and add them to
   *  it (the same version only: a newer answer replaces the page anyway). */
  async loadUnit(uid) {
    const legal = this.legal;
    if (!legal || this.holdsUnit(uid)) return;
    const one = await api(`/api/matches/${this.id}/legal?unit=${encodeURIComponent(uid)}`, { token: this.token }).catch(() => null);
    if (!one || this.legal !== legal || one.version !== legal.version) return;
    const actions = legal.actions.map((a) => ({ ...a, choices: [...a.choices] }));
    for (const a of one.actions) {
      const found = actions.find((b) => b.id === a.id);
      if (found) found.choices.push(...a.choices); else actions.push(a);
    }
    this.legal = { ...legal, actions, page: { ...legal.page, units: [...legal.page.units, uid] } };
    this.render();
  }

  /** The newest 40 events up to `head`, or the first 200 that pass the filters. */
  async loadLog(head) {
    const f = this.filters;
    const filtered = f.type || f.actor || f.turn;
    const params = new URLSearchParams({ limit: filtered ? "200" : "40" });
    if (!filtered) params.set("after", String(Math.max(0, head - 40)));
    for (const [k, v] of Object.entries(f)) if (v) params.set(k, v);
    const answer = await api(`/api/matches/${this.id}/events?${params}`, { token: this.token });
    return answer.events.reverse();
  }

  /** Perform an action; once the page shows it, the notice says what it did and why: the
   *  service's outcome (the roll and what followed, as the log says it), else `what`. */
  act(body, what, then = null) {
    const path = then ? `/actions?then=${encodeURIComponent(then)}` : "/actions";  // "... and done"
    return this.post(path, body, (done) => done.outcome || what || "Done.", { "Idempotency-Key": entropy() });
  }

  /** POST to the match; a refusal shows as a notice, in the words `explain(error)` gives
   *  when it has some, else the API's detail and rule. */
  async post(path, body, message, headers = {}, explain = null) {
    try {
      const done = await api(`/api/matches/${this.id}${path}`, { method: "POST", token: this.token, body, headers });
      const roll = done.events?.find((e) => e.type === "DiceRolled" && e.dice);
      if (roll) this.lastRoll = roll;
      this.placing = null;
      this.move = null;
      this.fresh = true;
      await this.refresh();
      if (message) notice(typeof message === "function" ? message(done) : message, "ok");
      return done;
    } catch (error) {
      // (a refusal's allowed seats by their sides' names: "Allowed: Blue Force, the referee")
      notice((explain && explain(error)) || (error.explainedAs ? error.explainedAs((x) => this.sideName(x)) : error));
      return null;
    }
  }

  travel(version) {
    const v = Math.max(1, Math.min(this.head, version));
    this.at = v >= this.head ? null : v;
    this.refresh();
  }

  // ---- rendering: each panel comes from its own module ---------------------------------------

  render() {
    const S = this.sections;
    document.title = `${this.match.scenario} · battlelog`;
    // the game's name; the version stays out of the words, for tests and tools (data-version)
    $("#where").textContent = this.board.ruleset_title || this.match.ruleset;
    $("#where").dataset.version = String(this.head);
    document.body.classList.toggle("in-past", this.at !== null);
    this.renewHead(renderHead(this));
    S.prompt.replaceChildren(...renderPrompt(this));
    renderPast(this, S.past);
    this.fill(S.clock, renderClock(this));
    this.fill(S.play, renderPlay(this));
    this.fill(S.turn, renderTurn(this));
    this.fill(S.board, renderBoard(this));
    this.fill(S.units, renderUnits(this));
    this.fill(S.dice, renderDice(this));
    this.fill(S.vp, renderVP(this));
    this.fill(S.time, renderTime(this));
    renderNotes(this, S.notes);
    this.fill(S.actions, renderMore(this));
    this.fill(S.log, renderLog(this));
    this.fill(S.disputes, renderDisputes(this));
    this.fill(S.exports, renderExports(this));
    this.fill(S.seats, renderSeats(this));
    this.fresh = false;
    document.dispatchEvent(new CustomEvent("table-rendered", { detail: { version: this.head } }));  // notices.js
  }

  /** The head (scenario, seat badge, the Acting as picker) is put back only when what it
   *  shows changed: a live update must not close the seat picker a player has open. */
  renewHead(nodes) {
    const drawn = document.createElement("div");
    drawn.replaceChildren(...nodes.filter(Boolean));
    if (drawn.innerHTML !== this.sections.head.innerHTML) this.sections.head.replaceChildren(...drawn.childNodes);
  }

  /** Replace a panel's body, keeping its heading. On an update that came from elsewhere,
   *  what the user was doing survives: open drawers, typed values and the focus (by key). */
  fill(section, children) {
    const keep = this.fresh ? null : snapshot(section);
    const heading = section.firstChild;
    section.replaceChildren(heading, ...[children].flat(2).filter(Boolean));
    if (keep) restore(section, keep);
  }

  sideName(id) {
    return this.match.sides.find((x) => x.id === id)?.name || id;
  }

  seatName(seat) {
    return seat === "referee" ? "Referee" : seat === "spectator" ? "Spectator" : this.sideName(seat);
  }

}
