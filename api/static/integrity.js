// "Check every roll": the page's own check of the match file (docs/integrity.md), with the
// browser's Web Crypto and nothing else. The page reads the export as this seat sees it and,
// without trusting the server's verdict, (1) writes each line again in canonical JSON and
// requires the same bytes, (2) hashes each event's canonical content without its `hash`
// (SHA-256), with a commitment in place of each field some seat may not see, and follows
// every `prev_hash` link, (3) accepts `hidden` only for a field this seat may not see, with
// its commitment, and checks each committed field it shows against its commitment, and
// (4) once a seed is revealed, recomputes every server roll and shuffle from it
// (HMAC-SHA-256 of the seed mixed with the players' entropy, the roll index and the die,
// rejection sampling): as domain/integrity.py and domain/hidden_fields.py do.

import { api } from "./api.js";
import { h } from "./dom.js";

const encoder = new TextEncoder();
const GENESIS = "0".repeat(64);
const TWO64 = 1n << 64n;

const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => (typeof text === "string" && /^(?:[0-9a-fA-F]{2})+$/.test(text)
  ? Uint8Array.from(text.match(/../g), (b) => parseInt(b, 16)) : null);
const sha256 = async (bytes) => hex(await crypto.subtle.digest("SHA-256", bytes));
const hmacKey = (raw) => crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
const hmac = async (key, text) => new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));

/** Python's order of strings: by code point (JavaScript's sort compares UTF-16 units). */
function byCodePoint(a, b) {
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

/** A number as the line wrote it (JSON.parse's source text), so that the bytes written
 *  again are the line's own: Python writes 1.0 and 1e-05 where JavaScript would not. */
class Written { constructor(text) { this.text = text; } }

function parseWritten(line) {
  return JSON.parse(line, (key, value, context) => (typeof value === "number" && context?.source
    ? new Written(context.source) : value));
}

/** Canonical JSON (docs/integrity.md): top-level nulls left out, keys sorted, no spaces. */
function canonical(value, top = true) {
  if (value instanceof Written) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, false)).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).filter((k) => !(top && value[k] === null)).sort(byCodePoint);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k], false)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

async function contentHash(written) {
  const { hash, ...content } = written;
  return sha256(encoder.encode(canonical(content)));
}

/** The hash an event's line must carry: of its content without `hash`, `hidden`, `salts`
 *  and each committed field's value (its commitment stands for it; docs/integrity.md). */
async function eventHash(written) {
  const committed = written.commitments && typeof written.commitments === "object" ? Object.keys(written.commitments) : [];
  const drop = new Set(["hash", "hidden", "salts", ...committed]);
  return sha256(encoder.encode(canonical(Object.fromEntries(Object.entries(written).filter(([k]) => !drop.has(k))))));
}

/** The commitment to a hidden field's value: SHA-256 of the canonical JSON of [salt, value]. */
const commitmentTo = (salt, value) => sha256(encoder.encode(canonical([salt, value], false)));

// Who may see each kind of event's secret fields (domain/events: `secret_fields`, the field
// naming their owner, the field that must be true for them to be secret): their owner and
// the referee; `owner` null: the referee alone.
export const SECRETS = {
  CardsDrawn: { fields: ["cards"], owner: "side", when: null },
  CardsDiscarded: { fields: ["cards"], owner: "side", when: null },
  DeckShuffled: { fields: ["order"], owner: "side", when: null },
  MatchCreated: { fields: ["dealt"], owner: null, when: null },
  NoteAdded: { fields: ["text"], owner: "actor", when: "private" },
};

const HEX64 = /^[0-9a-f]{64}$/;
const named = (names) => names.map((n) => `“${n}”`).join(", ");

/** The secret fields `viewer` may not see in an event line `body` (as Event.secret_from). */
function secretFrom(body, viewer) {
  const secret = SECRETS[body.type];
  if (!secret || viewer === "referee" || (secret.when && !body[secret.when])) return [];
  if (secret.owner && body[secret.owner] === viewer) return [];
  return secret.fields;
}

/** The problem with an event line's secret fields (null: none) and whether its hash can be
 *  checked: as domain/hidden_fields.py's LineSecrets.check. `memory`: the file's viewer and
 *  whether every hidden field must be committed from here on. */
async function secretsChecked(memory, body, written) {
  const secret = SECRETS[body.type]?.fields || [];
  if (body.type === "MatchCreated" && body.secrets_committed === true) memory.committed = true;
  const { commitments, salts, hidden } = body;
  const isObject = (v) => v && typeof v === "object" && !Array.isArray(v);
  if (commitments !== undefined) {
    if (!isObject(commitments) || !Object.keys(commitments).length || !Object.values(commitments).every((c) => typeof c === "string" && HEX64.test(c))) return ["has commitments that are not SHA-256 hashes by field", false];
    const extra = Object.keys(commitments).filter((k) => !secret.includes(k));
    if (extra.length) return [`commits to ${named(extra)}, which no seat is ever kept from seeing in this kind of event`, false];
    memory.committed = true;
  }
  const committed = commitments || {};
  if (salts !== undefined && (!isObject(salts) || !Object.keys(salts).every((k) => k in committed) || !Object.values(salts).every((v) => typeof v === "string"))) return ["carries a salt for a field it holds no commitment to", false];
  if (hidden !== undefined) {
    if (!Array.isArray(hidden) || !hidden.length || !hidden.every((h, i) => typeof h === "string" && (i === 0 || byCodePoint(hidden[i - 1], h) < 0))) return ["has a “hidden” that is not a sorted list of field names", false];
    if (memory.viewer === "referee") return [`hides its ${named(hidden)} in the referee's file, which hides nothing`, false];
    const may = memory.viewer == null ? secret : secretFrom(body, memory.viewer);
    const wrong = hidden.filter((h) => !may.includes(h));
    if (wrong.length) return [`hides its ${named(wrong)}, which ${memory.viewer == null ? "any seat" : `the ${memory.viewer} seat`} is shown`, false];
    const held = hidden.filter((h) => h in body);
    if (held.length) return [`both holds and hides its ${named(held)}`, false];
  }
  for (const [name, said] of Object.entries(committed)) {
    if (name in body) {
      if (!isObject(salts) || !(name in salts)) return [`shows its ${named([name])} without the salt of its commitment`, false];
      if (await commitmentTo(salts[name], written[name]) !== said) return [`was changed: its ${named([name])} does not match its commitment`, false];
    } else if (!(hidden || []).includes(name)) return [`neither shows nor hides its ${named([name])}`, false];
  }
  const uncommitted = (hidden || []).filter((h) => !(h in committed));
  if (uncommitted.length && memory.committed) return [`hides its ${named(uncommitted)} without a commitment (every hidden field of this match is committed)`, false];
  return [null, !uncommitted.length];
}

/** The dice key: the seed, or HMAC(seed, "battlelog-entropy:" + the entropy as Python's
 *  json.dumps writes a list: ", " between items). */
async function diceKey(seed, entropy) {
  if (!entropy.length) return hmacKey(seed);
  const list = `[${entropy.map((e) => JSON.stringify(e)).join(", ")}]`;
  return hmacKey(await hmac(await hmacKey(seed), `battlelog-entropy:${list}`));
}

/** An unbiased face of an s-sided die for `name` (docs/integrity.md: rejection sampling). */
async function draw(key, sides, name) {
  const limit = TWO64 - (TWO64 % BigInt(sides));
  for (let attempt = 0; ; attempt++) {
    const digest = await hmac(key, `${name}:${attempt}`);
    const value = new DataView(digest.buffer).getBigUint64(0);
    if (value < limit) return Number(value % BigInt(sides)) + 1;
  }
}

const NOTATION = /^(\d*)d(\d+)(?:[+-]\d+)?$/;

/** The faces a server roll event must hold, recomputed; null if it holds none to check. */
async function expectedFaces(key, body) {
  const index = body.roll_index;
  if (body.type === "DiceRolled") {
    const m = NOTATION.exec(String(body.notation).trim().toLowerCase().replaceAll(" ", ""));
    if (!m) return null;
    const count = m[1] ? Number(m[1]) : 1;
    return Promise.all(Array.from({ length: count }, (_, d) => draw(key, Number(m[2]), `battlelog-roll:${index}:${d}`)));
  }
  if (body.type === "InitiativeRolled") {
    return Promise.all(Object.keys(body.dice).map((_, d) => draw(key, 6, `battlelog-roll:${index}:${d}`)));
  }
  if (body.type === "DeckShuffled" && Array.isArray(body.order)) {
    const out = [...body.order].sort(byCodePoint);
    for (let i = out.length - 1; i > 0; i--) {
      const j = (await draw(key, i + 1, `battlelog-shuffle:${index}:${i}`)) - 1;
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
  return null;
}

function facesOf(body) {
  if (body.type === "InitiativeRolled") return (body.drawnOrder || Object.keys(body.dice).sort(byCodePoint)).map((k) => body.dice[k]);
  return body.type === "DeckShuffled" ? body.order : body.dice;
}

async function commitment(seed) { return sha256(seed); }

// Header fields that repeat the match's first event (`MatchCreated`).
const HEADER_FROM_CREATED = ["ruleset", "ruleset_version", "scenario", "sides", "dice_commitment"];

/** Recompute the rolls read so far (a roll waits for its seed's reveal further on, so they
 *  are checked once the file is read), each marked in `out.marks` by its version ("checked",
 *  "sealed" until its seed is revealed, "mismatch"); true, with `out.problem` said at the
 *  first, when one does not match. */
async function rollsMatch(rolls, out) {
  let broken = false;
  for (const { body, epoch, entropy } of rolls.splice(0)) {
    if (!epoch[1]) { out.waiting += 1; out.marks.set(body.version, "sealed"); continue; }
    const expected = await expectedFaces(await diceKey(epoch[1], entropy), body);
    if (expected === null) continue;
    out.checked += 1;
    const same = JSON.stringify(expected) === JSON.stringify(facesOf(body));
    out.marks.set(body.version, same ? "checked" : "mismatch");
    if (!same && !broken) {
      out.problem = { version: body.version, kind: "roll", detail: `does not come from the revealed seed: it gives ${expected.join(", ")}, not ${facesOf(body).join(", ")}` };
      broken = true;
    }
  }
  return broken;
}

/** The order an initiative roll drew its dice in (its `dice` is written with its keys
 *  sorted): every side in the match's order or, for a re-roll, the sides tied by the roll
 *  before it in its ranking's order; as domain/integrity.py's InitiativeOrder. */
function initiativeOrder(memory, body) {
  const keys = Object.keys(body.dice || {});
  const same = (list) => list.length === keys.length && list.every((k) => k in body.dice);
  const order = same(memory.tied) ? memory.tied : memory.sides.filter((s) => keys.includes(s));
  memory.tied = (body.ranking || []).filter((g) => Array.isArray(g) && g.length > 1).flat();
  return same(order) ? order : null;
}

const ANNOTATIONS = new Set(["AnnotationAdded", "AnnotationEdited", "AnnotationDeleted"]);

/** Check an export's lines. Returns {events, hidden, unchecked, checked, waiting, inherited,
 *  annotations, head, problem: null | {version, kind, detail}, marks}: the first problem in
 *  the order of the log; `hidden`, the events that hide what this seat may not see (their
 *  public fields and commitments checked); `unchecked`, those of them whose hash could not be
 *  checked (hidden fields recorded before commitments); `marks`, each server roll read by
 *  its version: "checked", "sealed", "mismatch", "inherited". */
export async function checkExport(lines) {
  const out = { events: 0, hidden: 0, unchecked: 0, checked: 0, waiting: 0, inherited: 0, annotations: 0, head: "", problem: null, marks: new Map() };
  const rolls = [];
  // The rolls read so far go first: a roll that does not match is earlier in the log.
  const fail = async (version, kind, detail) => {
    if (await rollsMatch(rolls, out)) return out;
    out.problem = { version, kind, detail };
    return out;
  };
  if (!lines.length) return fail(0, "file", "is empty");
  // Each line read once, in order, and let go: only the server rolls' events are kept.
  const read = (line) => {
    let written;
    try { written = parseWritten(line); } catch { return [null, "file", "has a line that is not JSON"]; }
    if (canonical(written) !== line) return [null, "canonical", "has a line not written the one canonical way (spacing, key order or line end changed)"];
    return [[written, JSON.parse(line)]];
  };
  const [first, kind, why] = read(lines[0]);
  if (!first) return fail(0, kind, why);
  const [writtenHeader, header] = first;
  if (header.format !== "battlelog-match" || header.format_version !== 1) return fail(0, "file", "is not a battlelog match file");
  if (header.hash !== await contentHash(writtenHeader)) return fail(0, "file", "was changed in its first line (its content does not match its hash)");
  let prev = GENESIS, entropy = [], inherited = 1;
  const memory = { viewer: typeof header.viewer === "string" ? header.viewer : null, committed: false };
  const initiative = { sides: [], tied: [] };
  const epochs = [], cards = [];
  for (let at = 1; at < lines.length; at++) {
    const [pair, wrong, detail] = read(lines[at]);
    if (!pair) return fail(at, wrong, detail);
    const [written, body] = pair;
    // after the match's last event: its annotations (docs/replay.md), not chained
    if (out.events === header.events && ANNOTATIONS.has(body.type)) { out.annotations += 1; continue; }
    if (body.version !== out.events + 1) {
      const later = Number.isInteger(body.version) && body.version > out.events + 1 && !ANNOTATIONS.has(body.type);
      return fail(out.events + 1, "link", later ? `is missing: the line where it belongs holds event ${body.version}` : "is missing or out of order");
    }
    out.events += 1;
    if (body.prev_hash !== prev) return fail(body.version, "link", "does not follow the event before it: an event was removed, changed or moved");
    const [secretProblem, checkable] = await secretsChecked(memory, body, written);
    if (secretProblem) return fail(body.version, "altered", secretProblem);
    if ("hidden" in body) out.hidden += 1;
    if (!checkable) out.unchecked += 1;
    else if (body.hash !== await eventHash(written)) return fail(body.version, "altered", "was changed after it was recorded (its content does not match its hash)");
    prev = body.hash;
    if (body.type === "MatchCreated") {
      epochs.push([body.dice_commitment ?? "", null]);
      if (body.card_commitment != null) cards.push([body.card_commitment, null]);
      inherited = 1 + (body.inherited_events || 0);
      initiative.sides = (body.sides || []).map((s) => s.id);
      const differs = HEADER_FROM_CREATED.filter((k) => canonical(header[k] ?? null, false) !== canonical(body[k] ?? null, false));
      if (differs.length) return fail(0, "file", "does not say in its first line what the match's first event says");
    } else if (body.type === "InitiativeRolled" && body.dice && typeof body.dice === "object") {
      body.drawnOrder = initiativeOrder(initiative, body);
    } else if (body.type === "SeatJoined" && body.entropy) {
      entropy = [...entropy, body.entropy];
    } else if (body.type === "DiceSeedRevealed") {
      const seed = unhex(body.seed);
      if (!seed || !epochs.length || await commitment(seed) !== epochs.at(-1)[0]) return fail(body.version, "seed", "reveals a seed that is not the one committed to");
      epochs.at(-1)[1] = seed;
      if (body.card_seed != null) {
        const cardSeed = unhex(body.card_seed);
        if (!cardSeed || !cards.length || await commitment(cardSeed) !== cards.at(-1)[0]) return fail(body.version, "seed", "reveals a card seed that is not the one committed to");
        cards.at(-1)[1] = cardSeed;
      }
    } else if (body.type === "DiceCommitted") {
      epochs.push([body.dice_commitment, null]);
      if (cards.length && body.card_commitment !== cards.at(-1)[0]) cards.push([body.card_commitment, null]);
    }
    const held = body.type === "DeckShuffled" && cards.length ? cards : epochs;
    if (body.roll_index == null) continue;
    if (body.version <= inherited) { out.inherited += 1; out.marks.set(body.version, "inherited"); }
    else if (held.length) rolls.push({ body, epoch: held[held.length - 1], entropy });
  }
  out.head = prev;
  if (await rollsMatch(rolls, out)) return out;
  if (header.chain_head !== prev || header.events !== out.events) return fail(0, "file", "ends before the match does: events are missing at the end");
  return out;
}

/** The match file as this seat sees it, checked here: its lines end in "\n", each one. */
async function checkMatch(table) {
  const response = await api(`/api/matches/${table.id}/export`, { token: table.token, raw: true });
  const parts = (await response.text()).split("\n");
  const last = parts.pop();
  if (last !== "") return { problem: { version: parts.length, kind: "canonical", detail: "has a last line that does not end the canonical way" } };
  const found = await checkExport(parts);
  // The file must end where the page was told the chain ends (GET /api/matches/{id}).
  if (!found.problem && found.events === table.match.version && found.head !== table.match.chain_head) {
    found.problem = { version: 0, kind: "file", detail: "does not end in the chain head this page was shown" };
  }
  return found;
}

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How many events the check could not check fully, said always (0 too). */
export function notCheckedFully(found) {
  const said = `${plural(found.hidden, "event")} could not be checked fully`;
  if (!found.hidden) return `${said}.`;
  const before = found.unchecked ? ` ${found.unchecked} of them were recorded before hidden fields were committed: their content could not be checked at all.` : "";
  return `${said}: they hold what this seat may not see; their public fields and the commitments to the hidden values were checked, not the values themselves.${before}`;
}

/** The result in words: what matched, or the first event that did not, by its sentence. */
async function said(table, found) {
  const { problem } = found;
  if (!problem) {
    const rolls = found.checked ? `all ${plural(found.checked, "server roll")} recomputed from the revealed seed match`
      : "no server roll could be recomputed yet";
    return [`All ${plural(found.events, "event")} are linked and unchanged, and ${rolls}.`,
      found.waiting ? `${plural(found.waiting, "roll")} wait for their seed: it is revealed when the match ends, or by the referee.` : "",
      notCheckedFully(found),
      found.inherited ? `${plural(found.inherited, "roll")} came with the match this what-if was forked from: check them there.` : "",
      `The chain ends in ${found.head.slice(0, 16)}…${found.head === table.match.chain_head ? ", the chain head shown above" : ""}.`].filter(Boolean).join(" ");
  }
  let sentence = "";
  if (problem.version > 0) {
    const answer = await api(`/api/matches/${table.id}/events?after=${problem.version - 1}&limit=1`, { token: table.token }).catch(() => null);
    sentence = answer?.events?.[0]?.said?.replace(/\.$/, "") || "";
  }
  const what = sentence ? `“${sentence}”` : problem.version > 0 ? `Event ${problem.version} of the log` : "The match file";
  return `Not matched: ${what} ${problem.detail}.`;
}

/** The "Check every roll" control and its last result (kept across the page's updates). */
export function renderRollCheck(table) {
  const result = h("p", { id: "roll-check-result", role: "status", class: table.rollCheck?.ok === false ? "problem" : "hint" },
    table.rollCheck?.text ?? "Recomputes here every die the server rolled, once its seed is revealed, and every link of the log's hash chain.");
  const button = h("button", {
    type: "button", class: "secondary", id: "check-rolls",
    onclick: async () => {
      button.disabled = true;
      result.className = "hint";
      result.textContent = "Checking every roll and every event…";
      try {
        const found = await checkMatch(table);
        table.rollCheck = { ok: !found.problem, text: await said(table, found) };
      } catch (error) {
        table.rollCheck = { ok: false, text: `The check could not run: ${error.explained || error.message}` };
      }
      result.className = table.rollCheck.ok ? "hint" : "problem";
      result.textContent = table.rollCheck.text;
      button.disabled = false;
    },
  }, "Check every roll");
  return h("div", { class: "roll-check" }, button, result);
}
