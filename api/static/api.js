// The HTTP API and the seat tokens this device holds.
//
// Tokens live in localStorage, per match: {tokens: {referee|spectator|<side>|join:<side>: token},
// seat: the one in use, scenario, ruleset}. They never go into a URL the server sees.

export const STORAGE_KEY = "battlelog.matches";
const KEY = STORAGE_KEY;

/** A rule's id as a small reference after what it names (" (WC-1)"); none for the service's
 *  own bookkeeping (`core-dice`, `core-sequence`): those are not the game's rules. */
export function ruleRef(rule) {
  return rule && !String(rule).startsWith("core-") ? ` (${rule})` : "";
}

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }

  /** The message to show: the detail and the rule that refused it. */
  get explained() {
    return this.explainedAs();
  }

  /** The message: a refused action's `said` (the players' sentence), else the detail with
   *  what is allowed in the players' words: a seat by `name(seat)` (a
   *  side's name), the referee as "the referee", an action's type with spaces. */
  explainedAs(name = (x) => x) {
    // a refused action: the service's sentence for the players (names, the step, what to do)
    if (typeof this.problem.said === "string" && this.problem.said) return this.problem.said;
    const rule = ruleRef(this.problem.rule);
    const said = (x) => (x === "referee" ? "the referee" : String(name(x)).replaceAll("_", " "));
    const allowed = this.problem.allowed ? ` Allowed: ${[].concat(this.problem.allowed).map(said).join(", ")}.` : "";
    return `${this.message}${rule}${allowed}`;
  }
}

export async function api(path, { token, method = "GET", body, headers = {}, raw = false } = {}) {
  const init = { method, headers: { ...headers } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if (!response.ok) {
    let problem = {};
    try { problem = await response.json(); } catch { problem = { detail: response.statusText }; }
    throw new ApiError(response.status, problem);
  }
  return raw ? response : response.json();
}

export const devices = {
  all() {
    try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch { return {}; }
  },
  get(id) { return this.all()[id] || null; },
  save(id, patch) {
    const all = this.all();
    const entry = { tokens: {}, ...all[id], ...patch, saved: new Date().toISOString() };
    entry.tokens = { ...(all[id] || {}).tokens, ...(patch.tokens || {}) };
    all[id] = entry;
    localStorage.setItem(KEY, JSON.stringify(all));
    return entry;
  },
  forget(id) {
    const all = this.all();
    delete all[id];
    localStorage.setItem(KEY, JSON.stringify(all));
  },
};

/** Random hex for a player's dice entropy (docs/integrity.md): the browser's own CSPRNG. */
export function entropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Follow a match's Server-Sent Events stream (with the seat token, so fetch, not EventSource)
 * and call `onVersion(n)` for each new version; reconnects with Last-Event-ID.
 * Returns a function that stops it. `onState("live" | "reconnecting")` reports the link.
 * `onNote(data)` gets each `annotation` message: an annotation this seat sees, added or
 * changed (`{annotation}`), or one it no longer sees (`{gone: id}`) (docs/replay.md).
 */
export function follow(matchId, token, onVersion, onState, onNote = () => {}) {
  let stopped = false;
  let controller = null;
  let last = null;
  let delay = 500;

  async function run() {
    while (!stopped) {
      controller = new AbortController();
      try {
        const headers = { Authorization: `Bearer ${token}`, Accept: "text/event-stream" };
        if (last !== null) headers["Last-Event-ID"] = String(last);
        const response = await fetch(`/api/matches/${matchId}/stream`,
          { headers, signal: controller.signal });
        if (!response.ok) throw new Error(`stream: HTTP ${response.status}`);
        onState("live");
        delay = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const message = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = message.split("\n").filter((l) => l.startsWith("data:"))
              .map((l) => l.slice(5).trim()).join("\n");
            if (!data) continue;  // a keep-alive comment
            if (message.split("\n").includes("event: annotation")) { onNote(JSON.parse(data)); continue; }
            const { version } = JSON.parse(data);
            last = version;
            onVersion(version);
          }
        }
      } catch (error) {
        if (stopped) return;
      }
      if (stopped) return;
      onState("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }
  run();
  return () => { stopped = true; if (controller) controller.abort(); };
}
