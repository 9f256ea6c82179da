// Whose turn, in words (docs/table.md "Whose turn"): the lobby's list of this device's
// matches says for each whom it waits for, the ones waiting for this device's seat first
// ("Your move"); the table page says it above the clocks. The words are the service's own
// (`waiting` in the match view): the page only puts "Your move" first. The lobby reads them
// again while it is shown (`followWaiting`): a bounded poll, not a stream per match (a
// browser opens at most six connections to a server over plain http, so a stream for each
// of a device's matches would starve the page; docs/lobby.md).

import { api } from "./api.js";
import { h } from "./dom.js";

/** Whether `waiting` names `seat` (the referee is waited for where only the referee goes on). */
export function waitsFor(waiting, seat) {
  return Boolean(waiting && waiting.seats.includes(seat));
}

/** One line in words: "Your move: to act in Activation" or the service's sentence. `owed`
 *  (the board's, on the table page) and `names` (unit id -> name) add to each reason that is
 *  a duty its rule and the units it concerns: "Waiting for South (to take the attacked
 *  marker off its unit, HT-5: 2nd Fusiliers)". */
export function waitingLine(waiting, seat, owed = [], names = new Map()) {
  if (!waiting) return "";
  if (waiting.ended) return "The match has ended.";
  const said = (w) => {
    const duty = owed.find((o) => o.seat === w.seat && w.reason === `to ${o.says}`);
    if (!duty) return w.reason;
    const units = duty.units.map((u) => names.get(u) || u);
    return `${w.reason}, ${duty.rule}${units.length ? `: ${units.join(", ")}` : ""}`;
  };
  const mine = waiting.waits.filter((w) => w.seat === seat);
  const others = waiting.waits.filter((w) => w.seat !== seat);
  const theirs = others.length ? `Waiting for ${others.map((w) => `${w.name} (${said(w)})`).join("; ")}.` : "";
  return mine.length ? [`Your move: ${mine.map(said).join("; ")}.`, theirs].filter(Boolean).join(" ") : theirs;
}

/** Read each match's view with this device's token for it, then say whose turn it is on
 *  each list item and put the ones waiting for this device first (stable otherwise). */
export async function annotate(list, entries) {
  const answers = await Promise.all(entries.map(([id, entry]) => {
    const token = entry.tokens?.[entry.seat];
    return token ? api(`/api/matches/${id}`, { token }).catch(() => null) : null;
  }));
  const read = new Map(entries.map(([id, entry], i) => [id, { seat: entry.seat, waiting: answers[i]?.waiting }]));
  const items = [...list.children];  // a match forgotten meanwhile is no longer among them
  const ranked = items.map((li, i) => {
    const { seat, waiting } = read.get(li.dataset.id) || {};
    const mine = waitsFor(waiting, seat) && !waiting.ended;
    li.classList.toggle("your-move", mine);
    const line = li.querySelector(".whose") || li.appendChild(h("p", { class: "whose" }));
    line.textContent = waiting ? waitingLine(waiting, seat) : "";
    return { li, mine, i };
  });
  ranked.sort((a, b) => (b.mine - a.mine) || (a.i - b.i));
  // moved only when the order changes: a focused Forget keeps its focus between reads
  if (ranked.some((r, i) => r.i !== i)) list.replaceChildren(...ranked.map((r) => r.li));
}

const EVERY_MS = 5000;      // a round of reads at most this often...
const PER_MATCH_MS = 500;   // ...and no more than one read per match in this time

/** Keep the whose-turn lines of `list` current: a round of reads every 5 s (longer with
 *  more than 10 matches: at most two reads a second), one round at a time, none while the
 *  page is hidden (one at once when it is shown again), until the list leaves the page.
 *  `entries` is the device's matches, or a function that gives them as each round begins
 *  (the lobby adds the ones taken meanwhile to the list there). Returns a function that
 *  starts a round at once. */
export function followWaiting(list, entries) {
  const current = typeof entries === "function" ? entries : () => entries;
  let timer = null;
  let busy = false;
  let again = false;
  let pause = EVERY_MS;
  let shown = false;  // the list has been on the page (it is built before it is put there)
  const round = async () => {
    clearTimeout(timer);
    if (busy) { again = true; return; }  // asked for meanwhile: one more round after this
    busy = true;
    try {
      const now = current();
      pause = Math.max(EVERY_MS, now.length * PER_MATCH_MS);
      const kept = new Set([...list.children].map((li) => li.dataset.id));  // none forgotten
      await annotate(list, now.filter(([id]) => kept.has(id))).catch(() => null);
    } finally {
      busy = false;
    }
    shown ||= list.isConnected;
    if (shown && !list.isConnected) return;  // the lobby is gone
    if (again) { again = false; timer = setTimeout(round, 0); }
    else if (document.visibilityState === "visible") timer = setTimeout(round, pause);
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && (!shown || list.isConnected)) round();
  });
  round();
  return round;
}
