// The sheet of a hex or a stack (board.js opens it): a tap on a stack of counters, or on a
// hex with units, a city or markers, lists what stands there as full cards (names in full,
// side, kind, the values the game declares, markers and statuses in words), each row a tap
// target that selects its unit as a tap on a lone counter does. It stays open through the
// page's re-renders (a live update) until closed or a unit is chosen.

import { h } from "./dom.js";
import { kindWords, markerName, statusName, unitFacts } from "./facts.js";

let shown = null;  // {map, key}: the map (its scenario and kind) and the hex or stack open

/** Fill `host` with the sheet of `key` on the map `map` when it is the one open (`open`:
 *  open it now); `what(key)` is {title, units, notes} or null when nothing stands there. */
export function showSheet(host, map, key, what, ctx, open = false) {
  if (open) shown = { map, key };
  if (!shown || shown.map !== map || (key !== null && key !== shown.key)) return;
  const found = what(shown.key);
  if (!found) { shown = null; host.replaceChildren(); return; }
  const close = () => { shown = null; host.replaceChildren(); };
  const pick = (uid) => { close(); ctx.opts.onSelect?.(uid); };
  const heading = h("h3", { id: "map-sheet-title", tabindex: -1 }, found.title);
  const sheet = h("section", {
    class: "map-sheet", role: "dialog", "aria-labelledby": "map-sheet-title",
    onkeydown: (event) => { if (event.key === "Escape") { event.preventDefault(); close(); } },
  },
  h("div", { class: "map-sheet-head" }, heading,
    h("button", { type: "button", class: "secondary map-sheet-close", onclick: close }, "Close")),
  found.notes.length ? h("p", { class: "map-sheet-notes" }, found.notes.join(" ")) : null,
  found.units.length ? h("ul", { class: "map-sheet-units" }, found.units.map((u) => h("li", {},
    h("button", {
      type: "button", class: `sheet-unit${ctx.opts.selected === u.id ? " selected" : ""}`, "data-unit": u.id,
      "aria-pressed": ctx.opts.selected === u.id ? "true" : "false", style: `border-left-color:${ctx.colours[u.side]}`,
      onclick: () => pick(u.id),
    }, ...card(u, ctx))))) : h("p", {}, "No unit stands here."));
  host.replaceChildren(sheet);
  if (open) heading.focus({ preventScroll: true });
}

/** A unit's card in the sheet: its whole name, side and kind, values, markers and statuses. */
function card(u, ctx) {
  const facts = unitFacts(u, ctx.board);
  const flags = [...Object.entries(u.markers || {}).filter(([, n]) => n).map(([k, n]) => `${markerName(k, ctx.board)}: ${n}`),
    ...(u.status || []).map((st) => statusName(st, ctx.board))];
  return [h("strong", { class: "sheet-unit-name" }, u.name),
    h("span", { class: "meta" }, `${ctx.names[u.side] || u.side} · ${kindWords(u, ctx.board)}`),
    facts.length ? h("span", { class: "facts" }, facts.join(" · ")) : null,
    flags.length ? h("span", { class: "flags" }, flags.join(" · ")) : null];
}
