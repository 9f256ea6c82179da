// Whose turn, in words (docs/table.md "Whose turn"): the lobby's list of this device's
// matches says for each whom it waits for, the ones waiting for this device's seat first
// ("Your move"); the table page says it above the clocks. The words are the service's own
// (`waiting` in the match view): the page only puts "Your move" first.

import { api } from "./api.js";
import { h } from "./dom.js";

/** Whether `waiting` names `seat` (the referee is waited for where only the referee goes on). */
export function waitsFor(waiting, seat) {
  return Boolean(waiting && waiting.seats.includes(seat));
}

/** One line in words: "Your move: to act in Activation" or the service's sentence. */
export function waitingLine(waiting, seat) {
  if (!waiting) return "";
  if (waiting.ended) return "The match has ended.";
  const mine = waiting.waits.filter((w) => w.seat === seat);
  const others = waiting.waits.filter((w) => w.seat !== seat);
  const theirs = others.length ? `Waiting for ${others.map((w) => `${w.name} (${w.reason})`).join("; ")}.` : "";
  return mine.length ? [`Your move: ${mine.map((w) => w.reason).join("; ")}.`, theirs].filter(Boolean).join(" ") : theirs;
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
  list.replaceChildren(...ranked.map((r) => r.li));
}
