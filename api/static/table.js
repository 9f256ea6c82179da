// A match's table: turn marker and sequence, board, units, dice, VP, log, undo and consent,
// time travel, exports and the dispute tools. Everything shown comes from the API's views
// with this seat's token, so a seat sees exactly what the API lets it see.

import { api, devices, entropy, follow } from "./api.js";
import { diceFaces, renderMap, sideColours, vpChart } from "./board.js";
import { cardsLine } from "./cards.js";
import { $, field, h, notice, panel, saveBlob } from "./dom.js";
import { actionForm } from "./forms.js";
import { matchLink } from "./lobby.js";

const ALWAYS = ["advance", "add_note", "open_dispute", "record_roll", "enter_result", "rule_roll", "end_match"];
const EXPORTS = [
  ["jsonl", "Match file (JSONL)", "jsonl"],
  ["html", "Report (HTML)", "html"],
  ["md", "Report (Markdown)", "md"],
  ["csv", "Dice (CSV)", "csv"],
  ["dice", "Dice statistics (JSON)", "json"],
];
const PLAIN = new Set(["version", "type", "timestamp", "actor", "command_id", "rule", "turn", "prev_hash", "hash", "hidden"]);
const MARKER_KINDS = ["wound", "suppression", "pinned", "smoke", "fire", "reserve", "disrupted"];

/** Parse the URL fragment (#seat=… or #join=…) and forget it at once. */
function takeFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (location.hash) history.replaceState(null, "", location.pathname);
  return { seat: params.get("seat"), join: params.get("join"), token: params.get("token") };
}

export async function table(main, id) {
  const fragment = takeFragment();
  if (fragment.join) return joinPage(main, id, fragment.join);
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

function joinPage(main, id, token) {
  const form = h("form", {
    class: "stack", "aria-label": "Join this match",
    onsubmit: async (event) => {
      event.preventDefault();
      const player = event.target.elements.player.value.trim();
      try {
        const joined = await api(`/api/matches/${id}/seats`, { method: "POST", token, body: { player, entropy: entropy() } });
        devices.save(id, { tokens: { [joined.side]: joined.token }, seat: joined.side });
        location.replace(`/play/${id}`);
      } catch (error) { notice(error); }
    },
  },
  field("Your name", h("input", { name: "player", required: true, maxlength: 120, autocomplete: "nickname" })),
  h("p", { class: "hint" }, "Your browser adds its own random entropy to the match's dice when you join (docs/integrity.md)."),
  h("button", { type: "submit" }, "Take my seat"));
  main.replaceChildren(h("h1", {}, "Join the match"), form);
  form.elements.player.focus();
}

class Table {
  constructor(main, id) {
    this.main = main;
    this.id = id;
    this.at = null;           // the version shown while travelling in time; null: now
    this.head = 0;
    this.selected = null;     // a unit id
    this.placing = null;      // the unit being moved by a click on the map
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
      turn: panel("turn", "Turn"),
      board: panel("board", "Board"),
      units: panel("units", "Units"),
      dice: panel("dice", "Dice"),
      vp: panel("vp", "Victory points"),
      actions: panel("actions", "More actions"),
      time: panel("time", "Undo and time travel"),
      log: panel("log", "Event log"),
      disputes: panel("disputes", "Disputes"),
      exports: panel("exports", "Export"),
      seats: panel("seats", "Seats"),
    };
    const S = this.sections;
    this.main.replaceChildren(S.head, S.prompt, S.past,
      h("div", { class: "columns" },
        h("div", { class: "col" }, S.turn, S.board, S.units),
        h("div", { class: "col" }, S.dice, S.vp, S.time, S.actions, S.log, S.disputes, S.exports, S.seats)));
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
      live.textContent = state === "live" ? "● live" : "○ reconnecting…";
      live.dataset.state = state;
    });
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
    const [match, board, undo] = await Promise.all([
      api(`/api/matches/${this.id}`, { token: t }),
      api(`/api/matches/${this.id}/board${point}`, { token: t }),
      acting ? api(`/api/matches/${this.id}/undo`, { token: t }).catch(() => null) : null,
    ]);
    const log = await this.loadLog(match.version);
    // The dispute list reads the whole log: read it again only when a dispute event is new.
    const seen = this.disputesAt ?? -Infinity;
    const newer = log.filter((e) => e.version > seen);
    if (this.disputes === undefined || match.version - seen > newer.length || newer.some((e) => e.type.startsWith("Dispute"))) {
      this.disputes = await api(`/api/matches/${this.id}/disputes`, { token: t }).catch(() => []);
    }
    this.disputesAt = match.version;
    Object.assign(this, { match, board, undo, log });
    this.head = match.version;
    if (this.entry.scenario !== match.scenario) this.stored = devices.save(this.id, { scenario: match.scenario, ruleset: match.ruleset });
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

  /** Perform an action; the notice says it is done once the page shows it. */
  act(body, what) {
    return this.post("/actions", body, (done) => `${what || body.type.replaceAll("_", " ")}: done (version ${done.version})`,
      { "Idempotency-Key": entropy() });
  }

  async post(path, body, message, headers = {}) {
    try {
      const done = await api(`/api/matches/${this.id}${path}`, { method: "POST", token: this.token, body, headers });
      const roll = done.events?.find((e) => e.type === "DiceRolled" && e.dice);
      if (roll) this.lastRoll = roll;
      this.placing = null;
      this.fresh = true;
      await this.refresh();
      if (message) notice(typeof message === "function" ? message(done) : message, "ok");
      return done;
    } catch (error) {
      notice(error);
      return null;
    }
  }

  travel(version) {
    const v = Math.max(1, Math.min(this.head, version));
    this.at = v >= this.head ? null : v;
    this.refresh();
  }

  // ---- rendering --------------------------------------------------------------------------

  render() {
    const S = this.sections;
    document.title = `${this.match.scenario} · battlelog`;
    $("#where").textContent = `${this.match.ruleset} · v${this.head}`;
    document.body.classList.toggle("in-past", this.at !== null);
    S.head.replaceChildren(...this.renderHead());
    S.prompt.replaceChildren(...this.renderPrompt());
    this.renderPast(S.past);
    this.fill(S.turn, this.renderTurn());
    this.fill(S.board, this.renderBoard());
    this.fill(S.units, this.renderUnits());
    this.fill(S.dice, this.renderDice());
    this.fill(S.vp, this.renderVP());
    this.fill(S.time, this.renderTime());
    const actionsKey = JSON.stringify([this.board.turn.allows, this.canAct, this.viewer]);
    if (actionsKey !== this.actionsKey || this.fresh) this.fill(S.actions, this.renderActions());
    this.actionsKey = actionsKey;
    this.fill(S.log, this.renderLog());
    this.fill(S.disputes, this.renderDisputes());
    this.fill(S.exports, this.renderExports());
    this.fill(S.seats, this.renderSeats());
    this.fresh = false;
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

  renderHead() {
    const m = this.match;
    const seats = Object.keys(this.entry.tokens).filter((k) => !k.startsWith("join:"));
    const colour = sideColours(m.sides)[this.viewer];
    return [
      h("h1", {}, m.scenario),
      h("p", { class: "meta" },
        h("span", { class: "seat-badge", style: colour ? `border-color:${colour}` : null, id: "viewer" }, `You: ${this.seatName(this.viewer)}`),
        seats.length > 1 ? field("Acting as", h("select", {
          id: "seat-switch",
          onchange: (e) => { this.stored = devices.save(this.id, { seat: e.target.value }); this.listen(); this.refresh(); },
        }, seats.map((k) => h("option", { value: k, selected: k === this.viewer || undefined }, this.seatName(k))))) : null,
        m.casual ? h("span", { class: "tag" }, "casual") : null,
        m.outcome ? h("strong", { class: "tag ended" }, `Ended: ${m.outcome.winner ? `${this.sideName(m.outcome.winner)} wins` : "a tie"}`) : null),
    ];
  }

  renderPrompt() {
    const pending = this.undo?.pending;
    const out = [];
    if (pending && this.at === null) {
      const mine = pending.by === this.viewer;
      const answered = pending.accepted.includes(this.viewer);
      const ref = this.viewer === "referee";
      out.push(h("div", { class: "prompt", role: "alertdialog", "aria-labelledby": "undo-q" },
        h("p", { id: "undo-q" }, mine ? `You asked to undo back to version ${pending.to}; waiting for the other side.`
          : `${this.sideName(pending.by)} asks to undo back to version ${pending.to} (that takes back dice or another seat's actions).`),
        !mine && !answered ? h("div", { class: "row" },
          h("button", { type: "button", onclick: () => this.post("/undo/accept", undefined, "Undo accepted") }, ref ? "Force the undo" : "Accept"),
          h("button", { type: "button", class: "secondary", onclick: () => this.post("/undo/decline", {}, "Undo declined") }, ref ? "Refuse" : "Decline")) : null));
    }
    const awaiting = this.board.turn.awaiting;
    if (awaiting && this.at === null) {
      out.push(h("div", { class: "prompt", role: "status" },
        h("p", {}, `Waiting for a result from the players' table: ${JSON.stringify(awaiting)}`),
        this.canAct ? actionForm("enter_result", {}, (body) => this.act(body)) : null));
    }
    return out;
  }

  renderPast(banner) {
    banner.hidden = this.at === null;
    if (this.at === null) return;
    const t = this.board.turn;
    banner.replaceChildren(
      h("strong", {}, "The past: "),
      `version ${this.at} of ${this.head}, turn ${t.turn}, ${t.title}. Nothing can be done here. `,
      h("button", { type: "button", onclick: () => this.travel(this.head) }, "Back to now"));
  }

  renderTurn() {
    const t = this.board.turn;
    const track = h("ol", { class: "sequence", "aria-label": "Sequence of play" },
      t.sequence.map((step) => h("li", { "aria-current": step === t.step ? "step" : null, class: step === t.step ? "current" : null }, step)));
    return [
      h("p", { class: "turn-line", id: "turn-marker" },
        h("strong", {}, `Turn ${t.turn}`), ` · ${t.title}`, t.rule ? ` (${t.rule})` : "",
        t.active_side ? ` · active: ${this.sideName(t.active_side)}` : ""),
      track,
      t.expects.length ? h("ul", { class: "expects", "aria-label": "What this step expects" }, t.expects.map((x) => h("li", {}, x)))
        : h("p", { class: "hint" }, t.outcome ? "The match has ended." : "Nothing is owed in this step."),
      this.canAct ? h("div", { class: "row" },
        h("button", { type: "button", id: "advance", onclick: () => this.act({ type: "advance" }, "Advance") }, "Next step ▸"),
        t.rolls.map((roll) => h("button", { type: "button", class: "secondary", onclick: () => this.openAction("rule_roll", { roll }) }, `Roll: ${roll}`))) : null,
    ];
  }

  renderBoard() {
    const opts = {
      selected: this.selected,
      onSelect: (uid) => { this.selected = this.selected === uid ? null : uid; this.render(); $(`#unit-${CSS.escape(uid)}`)?.scrollIntoView({ block: "nearest" }); },
      onPlace: this.placing ? (to) => this.act({ type: "move_unit", unit_id: this.placing, to }, `Move ${this.placing}`) : null,
    };
    const boxed = this.board.units.filter((u) => u.position?.box || !u.position || (u.position.hex && !/^\d{4}$/.test(u.position.hex)));
    const out = [renderMap(this.board, this.match.sides, opts)];
    if (this.placing) out.unshift(h("p", { class: "prompt" }, `Click or tap the map where ${this.placing} goes.`,
      h("button", { type: "button", class: "secondary", onclick: () => { this.placing = null; this.render(); } }, "Cancel")));
    if (boxed.length) out.push(h("p", { class: "hint" }, "Off the map: ", boxed.map((u) => `${u.name} (${u.position?.box || u.position?.hex || "not placed"})`).join("; ")));
    if (this.board.off_board.length) out.push(h("p", { class: "hint" }, "Out of play: ", this.board.off_board.map((u) => `${u.name} (${u.removed})`).join("; ")));
    const markers = Object.entries(this.board.location_markers || {});
    if (markers.length) out.push(h("p", { class: "hint" }, "Markers: ", markers.map(([loc, m]) => `${loc}: ${Object.entries(m).map(([k, v]) => `${k}×${v}`).join(", ")}`).join("; ")));
    const tracks = Object.entries(this.board.tracks || {});
    if (tracks.length) out.push(h("dl", { class: "tracks" }, tracks.map(([k, v]) => [h("dt", {}, k), h("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v))])));
    for (const cards of this.board.cards) {
      out.push(h("p", { class: "hint" }, cardsLine(cards, this.sideName(cards.side))));
    }
    return out;
  }

  /** The owner's own buttons; the service refuses what the rules do not allow anyway. */
  mayCommand(unit) {
    return this.viewer === "referee" || this.viewer === unit.side;
  }

  renderUnits() {
    const allows = new Set(this.board.turn.allows);
    const colours = sideColours(this.match.sides);
    return h("ul", { class: "units" }, this.board.units.map((u) => {
      const c = u.computed || {};
      const markers = Object.entries(u.markers || {});
      const facts = [
        u.figures !== null ? `${u.figures} figures` : null,
        u.steps !== null ? `${u.steps} steps` : null,
        c.must_split ? null : c.current_die ? `morale ${c.current_die}${c.base_die && c.base_die !== c.current_die ? ` (base ${c.base_die})` : ""}` : (u.morale_die ? `morale ${u.morale_die}` : null),
        u.qv !== null ? `QV ${u.qv}` : null, u.lv !== null ? `LV ${u.lv}` : null, u.q !== null ? `Q ${u.q}` : null,
        where(u.position),
      ].filter(Boolean);
      const mine = this.mayCommand(u);
      return h("li", { class: `unit-card${this.selected === u.id ? " selected" : ""}`, id: `unit-${u.id}`, "data-unit": u.id, style: `border-left-color:${colours[u.side]}` },
        h("div", { class: "unit-title" }, h("strong", {}, u.name), h("span", { class: "meta" }, ` ${u.id} · ${this.sideName(u.side)} · ${u.kind}`)),
        h("p", { class: "facts" }, facts.join(" · ")),
        markers.length || u.status.length || c.must_split ? h("p", { class: "flags" },
          markers.map(([k, v]) => h("span", { class: "marker" }, `${k} ×${v}`)),
          u.status.map((st) => h("span", { class: "status" }, st)),
          c.must_split ? h("span", { class: "status warn" }, "must split") : null) : null,
        this.canAct ? this.unitActions(u, allows, mine) : null);
    }));
  }

  unitActions(u, allows, mine) {
    const act = (type, label, extra = {}) => (mine && allows.has(type)
      ? h("button", { type: "button", onclick: () => this.act({ type, unit_id: u.id, ...extra }, `${label} ${u.id}`) }, label) : null);
    const buttons = [
      act("activate_unit", "Activate"),
      act("roll_morale", "Morale roll"),
      act("rally_unit", "Rally"),
      act("lose_step", "Lose a step"),
      mine && allows.has("move_unit") ? h("button", { type: "button", class: "secondary", onclick: () => { this.placing = u.id; this.selected = u.id; this.render(); $("#board").scrollIntoView({ block: "nearest" }); } }, "Move") : null,
    ];
    const split = mine && allows.has("split_unit") ? h("details", { class: "inline", "data-key": `split:${u.id}` }, h("summary", {}, "Split"),
      h("form", {
        class: "row", "aria-label": `Split ${u.id}`,
        onsubmit: (e) => {
          e.preventDefault();
          const f = e.target.elements;
          const body = { type: "split_unit", unit_id: u.id, new_unit_id: f.new_unit_id.value.trim() };
          if (f.figures.value) body.figures = Number(f.figures.value);
          this.act(body, `Split ${u.id}`);
        },
      }, field("New unit id", h("input", { name: "new_unit_id", required: true, value: this.freshId(u.id), maxlength: 64 })),
      field("Figures (blank: the rules divide)", h("input", { name: "figures", type: "number", min: 1 })),
      h("button", { type: "submit" }, "Split"))) : null;
    const marker = (allows.has("place_marker") || allows.has("remove_marker")) ? h("details", { class: "inline", "data-key": `markers:${u.id}` }, h("summary", {}, "Markers"),
      h("form", { class: "row", "aria-label": `Markers on ${u.id}`, onsubmit: (e) => e.preventDefault() },
        field("Kind", h("input", { name: "kind", list: "marker-kinds", required: true, value: "wound", maxlength: 64 })),
        field("Count", h("input", { name: "count", type: "number", min: 1, max: 1000, value: 1 })),
        h("button", { type: "button", onclick: (e) => this.marker(e, u, "place_marker") }, "Place"),
        h("button", { type: "button", class: "secondary", onclick: (e) => this.marker(e, u, "remove_marker") }, "Remove"))) : null;
    const more = h("button", { type: "button", class: "quiet", onclick: () => this.openAction("", { unit_id: u.id }) }, "Other…");
    return h("div", { class: "unit-actions" }, h("div", { class: "row" }, buttons, more), split, marker,
      h("datalist", { id: "marker-kinds" }, MARKER_KINDS.map((k) => h("option", { value: k }))));
  }

  marker(event, unit, type) {
    const f = event.target.form.elements;
    const count = Number(f.count.value || 1);
    this.act({ type, unit_id: unit.id, kind: f.kind.value.trim(), count }, `${type === "place_marker" ? "Place" : "Remove"} ${f.kind.value} on ${unit.id}`);
  }

  freshId(base) {
    const ids = new Set([...this.board.units, ...this.board.off_board].map((u) => u.id));
    for (const suffix of "bcdefghijklmnopqrstuvwxyz") if (!ids.has(`${base}${suffix}`)) return `${base}${suffix}`;
    return `${base}-${Date.now() % 10000}`;
  }

  renderDice() {
    const out = [];
    if (this.lastRoll && this.at === null) {
      out.push(h("div", { class: "last-roll", id: "last-roll" }, h("span", { class: "label" }, `Your roll: ${this.lastRoll.purpose || ""} `), diceFaces(this.lastRoll)));
    }
    if (this.canAct) {
      out.push(h("form", {
        class: "row dice-roller", "aria-label": "Roll dice", "data-key": "dice",
        onsubmit: (e) => {
          e.preventDefault();
          const f = e.target.elements;
          const body = { type: "roll_dice", notation: f.notation.value.trim(), purpose: f.purpose.value.trim(), source: f.source.value };
          if (f.source.value === "table") body.results = f.results.value.split(",").map((x) => Number(x.trim())).filter((x) => !Number.isNaN(x));
          this.act(body, "Roll");
        },
      },
      field("Dice to roll", h("input", { name: "notation", required: true, value: "2d6", size: 6, maxlength: 16, pattern: "[0-9]*d[0-9]+([+-][0-9]+)?" })),
      field("Purpose", h("input", { name: "purpose", required: true, maxlength: 200, placeholder: "MG fires at 1st Squad" })),
      field("Dice from", h("select", { name: "source" }, h("option", { value: "server" }, "the server"), h("option", { value: "table" }, "the table"))),
      field("Table faces", h("input", { name: "results", placeholder: "e.g. 3, 5", size: 8 })),
      h("button", { type: "submit" }, "Roll")));
    }
    const recent = [...(this.board.recent_rolls || [])].reverse().slice(0, 6);
    if (recent.length) {
      out.push(h("ul", { class: "rolls", "aria-label": "Recent rolls" }, recent.map((r) => h("li", {},
        h("span", { class: "meta" }, `v${r.version} ${this.sideName(r.roller)}: ${r.purpose} `), diceFaces(r)))));
    }
    return out;
  }

  renderVP() {
    const vp = this.board.vp;
    return [
      h("table", { class: "vp" }, h("tbody", {}, vp.tracks.map((t) => h("tr", {}, h("th", { scope: "row" }, t.name), h("td", { class: "num" }, t.points))))),
      this.board.turn.turn > 1 || vp.tracks.some((t) => t.points) ? vpChart(vp, this.match.sides, this.board.turn.turn) : null,
      h("p", { class: "hint" }, vp.leader ? `${this.sideName(vp.leader)} leads.` : "Level."),
    ];
  }

  renderTime() {
    const shown = this.at ?? this.head;
    const acting = this.viewer !== "spectator" && this.at === null && this.undo;
    return [
      acting ? h("div", { class: "row" },
        h("button", { type: "button", id: "undo", onclick: () => this.undoLast() }, "↶ Undo"),
        h("button", { type: "button", id: "redo", class: "secondary", onclick: () => this.post("/redo", undefined, "Redone") }, "↷ Redo"),
        h("span", { class: "hint" }, this.undo.casual || this.viewer === "referee" ? "Undo is immediate here."
          : `Your own actions back to version ${this.undo.immediate_to} undo at once; further back the other side is asked.`)) : null,
      h("div", { class: "time-travel" },
        h("button", { type: "button", "aria-label": "One event back", id: "step-back", onclick: () => this.travel(shown - 1) }, "◀"),
        h("input", {
          type: "range", id: "time-slider", min: 1, max: this.head, value: shown, "aria-label": "Version shown",
          "aria-valuetext": `version ${shown} of ${this.head}`,
          onchange: (e) => this.travel(Number(e.target.value)),
        }),
        h("button", { type: "button", "aria-label": "One event forward", id: "step-forward", onclick: () => this.travel(shown + 1) }, "▶"),
        h("output", { for: "time-slider", id: "time-shown" }, `v${shown} / ${this.head}`)),
      this.at !== null ? h("button", { type: "button", onclick: () => this.travel(this.head) }, "Back to now") : null,
    ];
  }

  async undoLast() {
    const done = await this.post("/undo", {});
    if (!done) return;
    const asked = done.events.find((e) => e.type === "UndoRequested");
    notice(asked ? `Asked the other side to agree to undo back to version ${asked.to}.` : "Undone.", "ok");
  }

  openAction(type, preset) {
    this.actionPreset = { type, preset };
    this.fill(this.sections.actions, this.renderActions());
    $("#action-type").focus();
    $("#actions").scrollIntoView({ block: "nearest" });
  }

  renderActions() {
    if (!this.canAct) {
      return h("p", { class: "hint" }, this.at !== null ? "Back to now to act."
        : this.board.turn.outcome ? "The match has ended." : "Spectators watch.");
    }
    const allows = this.board.turn.allows;
    const { type = "", preset = {} } = this.actionPreset || {};
    const chosen = type || allows[0] || "add_note";
    const holder = h("div", {});
    const show = (t) => holder.replaceChildren(actionForm(t, preset, (body) => this.act(body)));
    const select = h("select", { id: "action-type", onchange: (e) => show(e.target.value) },
      h("optgroup", { label: "This step" }, allows.map((t) => h("option", { value: t, selected: t === chosen || undefined }, t))),
      h("optgroup", { label: "Any time" }, ALWAYS.filter((t) => !allows.includes(t)).map((t) => h("option", { value: t, selected: t === chosen || undefined }, t))));
    show(chosen);
    this.actionPreset = null;
    return [field("Action", select), holder];
  }

  renderLog() {
    const f = this.filters;
    const seats = ["referee", ...this.match.sides.map((x) => x.id)];
    const types = [...new Set(this.log.map((e) => e.type))].sort();
    const filters = h("form", {
      class: "row filters", "aria-label": "Filter the log", "data-key": "filters",
      onchange: (e) => { const el = e.target; this.filters[el.name] = el.value; this.refresh(); },
      onsubmit: (e) => e.preventDefault(),
    },
    field("Type", h("input", { name: "type", value: f.type, list: "event-types", size: 14, placeholder: "any" })),
    h("datalist", { id: "event-types" }, types.map((t) => h("option", { value: t }))),
    field("Seat", h("select", { name: "actor" }, h("option", { value: "" }, "any"), seats.map((x) => h("option", { value: x, selected: x === f.actor || undefined }, x)))),
    field("Turn", h("input", { name: "turn", type: "number", min: 1, value: f.turn, size: 4 })));
    const undone = f.type || f.actor || f.turn ? new Set() : undoneVersions(this.log);
    return [filters, h("ol", { class: "log", reversed: true }, this.log.map((e) => this.eventRow(e, undone.has(e.version))))];
  }

  eventRow(e, undone) {
    const rest = Object.fromEntries(Object.entries(e).filter(([k, v]) => !PLAIN.has(k) && v !== null && !(Array.isArray(v) && !v.length)));
    let summary = JSON.stringify(rest);
    if (e.type === "DiceRolled" && e.dice) summary = `${e.purpose || ""}: ${e.notation} → ${e.dice.join(", ")} = ${e.total}`;
    if (e.type === "TurnAdvanced" && e.marker) summary = `turn ${e.marker.turn}, ${e.marker.step}`;
    if (e.type === "MatchCreated") summary = `${e.scenario} (${e.ruleset}): ${e.sides.map((x) => x.name).join(" v ")}`;
    if (e.type === "NoteAdded") summary = `“${e.text}”${e.about_version ? ` about v${e.about_version}` : ""}`;
    if (summary.length > 180) summary = `${summary.slice(0, 177)}…`;
    const canNote = this.viewer !== "spectator";
    return h("li", { value: e.version, "data-version": e.version, class: [this.at === e.version ? "current" : "", undone ? "undone" : ""].join(" ").trim() || null },
      h("button", { type: "button", class: "link", title: "Show the match as it was after this event", onclick: () => this.travel(e.version) }, `v${e.version}`),
      h("span", { class: "etype" }, ` ${e.type}`), h("span", { class: "meta" }, ` ${e.actor} · turn ${e.turn}`),
      undone ? h("span", { class: "tag" }, " undone") : null,
      h("div", { class: "summary" }, summary),
      canNote ? h("details", { class: "inline", "data-key": `note:${e.version}` }, h("summary", {}, "Note or dispute"),
        h("form", { class: "stack", "aria-label": `Note or dispute about version ${e.version}`, onsubmit: (ev) => ev.preventDefault() },
          field("Text", h("textarea", { name: "text", rows: 2, required: true, maxlength: 2000 })),
          h("div", { class: "row" },
            h("button", { type: "button", onclick: (ev) => this.annotate(ev, e.version, "add_note") }, "Add note"),
            h("button", { type: "button", class: "secondary", onclick: (ev) => this.annotate(ev, e.version, "open_dispute") }, "Open dispute")))) : null);
  }

  annotate(event, version, type) {
    const text = event.target.form.elements.text.value.trim();
    if (!text) { notice("Write what the note or dispute says first."); return; }
    this.act({ type, about_version: version, text }, type === "add_note" ? "Note" : "Dispute");
  }

  renderDisputes() {
    if (!this.disputes.length) return h("p", { class: "hint" }, "No dispute. Open one from an event of the log.");
    const referee = this.viewer === "referee" && this.at === null;
    return h("ul", { class: "disputes" }, this.disputes.map(({ dispute: d, ruling }) => h("li", {},
      h("p", {}, h("strong", {}, `#${d.version}`), ` about v${d.about_version}${d.upto_version ? `–${d.upto_version}` : ""} by ${this.sideName(d.actor)}: ${d.text}`),
      ruling ? h("p", { class: "ruling" }, `Ruling: ${ruling.ruling}${ruling.order !== "none" ? ` (${ruling.order}${ruling.to ? ` to v${ruling.to}` : ""})` : ""}`)
        : referee ? h("form", {
          class: "stack", "aria-label": `Rule on dispute ${d.version}`, "data-key": `ruling:${d.version}`,
          onsubmit: (ev) => {
            ev.preventDefault();
            const f = ev.target.elements;
            const body = { ruling: f.ruling.value.trim(), order: f.order.value };
            if (f.to.value) body.to = Number(f.to.value);
            this.post(`/disputes/${d.version}/ruling`, body, (done) => (done.match_id ? `Ruled; the what-if is match ${done.match_id}` : "Ruled"))
              .then((done) => this.keepFork(done));
          },
        }, field("Ruling", h("textarea", { name: "ruling", required: true, rows: 2, maxlength: 2000 })),
        h("div", { class: "row" },
          field("Order", h("select", { name: "order" }, ["none", "undo", "reroll", "fork"].map((o) => h("option", { value: o }, o)))),
          field("Back to version", h("input", { name: "to", type: "number", min: 1, max: this.head, value: d.about_version > 1 ? d.about_version - 1 : 1 }))),
        h("button", { type: "submit" }, "Record the ruling")) : h("p", { class: "hint" }, "Waiting for the referee's ruling."))));
  }

  keepFork(done) {
    const fork = done?.fork || (done?.tokens ? done : null);
    if (!fork?.match_id || !fork.tokens) return;
    devices.save(fork.match_id, { tokens: fork.tokens, seat: "referee", scenario: `${this.match.scenario} (what-if)`, ruleset: this.match.ruleset });
    notice(`The what-if is ready: ${location.origin}/play/${fork.match_id}`, "ok");
  }

  renderExports() {
    return h("div", { class: "row" }, EXPORTS.map(([format, label, ext]) => h("button", {
      type: "button", class: "secondary", "data-format": format,
      onclick: async () => {
        try {
          const response = await api(`/api/matches/${this.id}/export?format=${format}`, { token: this.token, raw: true });
          saveBlob(await response.blob(), `battlelog-${this.id.slice(0, 8)}.${format === "dice" ? "dice." : ""}${ext}`);
        } catch (error) { notice(error); }
      },
    }, label)));
  }

  renderSeats() {
    const tokens = this.entry.tokens;
    const taken = new Map(this.match.seats.map((seat) => [seat.side ?? "referee", seat.player]));
    const rows = this.match.sides.map((side) => {
      const join = tokens[`join:${side.id}`];
      const here = tokens[side.id];
      return h("li", {}, h("strong", {}, side.name), taken.has(side.id) ? ` — ${taken.get(side.id)}` : " — open",
        join && !taken.has(side.id) && !here ? h("div", { class: "row" },
          h("input", { readonly: true, value: matchLink(this.id, "join", join), "aria-label": `Join link for ${side.name}`, onfocus: (e) => e.target.select() }),
          h("button", { type: "button", class: "secondary", onclick: () => location.assign(matchLink(this.id, "join", join).replace(location.origin, "")) }, "Take this seat here")) : null);
    });
    const spectator = tokens.spectator;
    const shown = this.at ?? this.head;
    return [
      h("ul", { class: "seats" }, rows),
      spectator ? field("Spectator link", h("input", { readonly: true, value: matchLink(this.id, "seat", spectator), onfocus: (e) => e.target.select() })) : null,
      h("p", { class: "hint" }, `Dice commitment ${this.match.dice_commitment.slice(0, 16)}…, chain head ${this.match.chain_head.slice(0, 16)}…`),
      this.viewer === "referee" ? h("div", { class: "row" },
        this.at === null && !this.match.outcome ? h("button", { type: "button", class: "secondary", onclick: () => this.post("/dice/reveal", undefined, "The dice seed is revealed; a fresh one is committed") }, "Reveal the dice seed now") : null,
        h("button", {
          type: "button", class: "secondary", id: "fork",
          onclick: async () => this.keepFork(await this.post(`/fork?at=${shown}`, undefined)),
        }, `Fork a what-if at version ${shown}`)) : null,
    ];
  }
}


/** What the user has open, typed and focused in a panel, by `data-key`. */
function snapshot(section) {
  const open = new Set([...section.querySelectorAll("details[open][data-key]")].map((d) => d.dataset.key));
  const values = new Map();
  let focus = null;
  for (const el of section.querySelectorAll("[data-key] input, [data-key] textarea, [data-key] select")) {
    const key = `${el.closest("[data-key]").dataset.key}/${el.name}`;
    values.set(key, el.value);
    if (el === document.activeElement) focus = key;
  }
  return { open, values, focus };
}

function restore(section, { open, values, focus }) {
  for (const d of section.querySelectorAll("details[data-key]")) if (open.has(d.dataset.key)) d.open = true;
  for (const el of section.querySelectorAll("[data-key] input, [data-key] textarea, [data-key] select")) {
    const key = `${el.closest("[data-key]").dataset.key}/${el.name}`;
    if (values.has(key)) el.value = values.get(key);
    if (key === focus) el.focus();
  }
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

function where(position) {
  if (!position) return null;
  if (position.hex) return `hex ${position.hex}`;
  if (position.box) return `in the ${position.box} box`;
  return `at ${position.x}, ${position.y}`;
}
