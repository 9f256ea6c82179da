// The Board panel (the map, what is off it, tracks and cards) and the Units panel (a card per
// unit, with the choices of the legal actions about it: play.js's flow, nothing typed).

import { renderMap, sideColours } from "./board.js";
import { cardsLine } from "./cards.js";
import { $, h } from "./dom.js";
import { kindWords, markerName, statusName, unitFacts } from "./facts.js";
import { actionBlock } from "./play.js";
import { hexWords } from "./places.js";

export function renderBoard(table) {
  const opts = {
    selected: table.selected,
    onSelect: (uid) => {
      if (table.placing?.unit) { table.placing.unit(uid); return; }  // annotate.js: units tapped to highlight
      table.selected = table.selected === uid ? null : uid; table.render(); $(`#unit-${CSS.escape(uid)}`)?.scrollIntoView({ block: "center" });
      if (table.selected && table.canAct) table.loadUnit(uid);  // a large board: its choices, read now
    },
    onPlace: table.placing?.place ? (to) => table.placing.place(to) : null,
    marks: table.marks,  // the arrows and highlights at the event shown (marks.js)
  };
  const boxed = table.board.units.filter((u) => !onTheMap(u));
  const out = [renderMap(table.board, table.match.sides, opts), unitPicks(table)];
  if (table.placing) out.unshift(h(typeof table.placing.prompt === "string" ? "p" : "div", { class: "prompt" }, table.placing.prompt,
    h("button", { type: "button", class: "secondary", onclick: () => { table.placing = null; table.render(); } }, "Cancel")));
  if (boxed.length) out.push(h("p", { class: "hint" }, "Off the map: ", boxed.map((u) => `${u.name} (${u.position?.box || u.position?.hex || "not placed"})`).join("; ")));
  if (table.board.off_board.length) out.push(h("p", { class: "hint" }, "Out of play: ", table.board.off_board.map((u) => `${u.name} (${u.removed})`).join("; ")));
  const markers = Object.entries(table.board.location_markers || {});
  if (markers.length) out.push(h("p", { class: "hint" }, "Markers: ", markers.map(([loc, m]) => `${loc}: ${Object.entries(m).map(([k, v]) => `${k.replaceAll("_", " ")}×${v}`).join(", ")}`).join("; ")));
  const tracks = Object.entries(table.board.tracks || {});
  if (tracks.length) out.push(h("dl", { class: "tracks" }, tracks.map(([k, v]) => [h("dt", {}, table.board.track_titles?.[k] || k.replaceAll("_", " ")), h("dd", {}, trackValue(table, v))])));
  for (const cards of table.board.cards) {
    out.push(h("p", { class: "hint" }, cardsLine(cards, table.sideName(cards.side))));
  }
  return out;
}

/** A unit drawn on the map: at a point of the table or on a hex (not in a box, not placed). */
const onTheMap = (u) => Boolean(u.position) && ((u.position.x !== null && u.position.x !== undefined) || /^\d{4}$/.test(u.position.hex || ""));

/** Under the map, every unit on it by name, side by side: a tap selects it on the map (and
 *  brings its counter into view), a second tap unselects it. */
function unitPicks(table) {
  const onMap = table.board.units.filter(onTheMap);
  if (!onMap.length) return null;
  const colours = sideColours(table.match.sides);
  // while units are tapped to highlight (annotate.js), pressed is chosen
  const on = (u) => (table.placing?.unit ? table.placing.chosen.includes(u.id) : table.selected === u.id);
  const pick = (u) => h("button", {
    type: "button", class: `unit-pick${on(u) ? " selected" : ""}`, "data-unit": u.id,
    "aria-pressed": on(u) ? "true" : "false", style: `border-left-color:${colours[u.side]}`,
    onclick: () => {
      if (table.placing?.unit) { table.placing.unit(u.id); return; }  // as a tap on its counter
      table.selected = table.selected === u.id ? null : u.id;
      table.render();
      $(`#board svg.map g.unit[data-unit="${CSS.escape(u.id)}"]`)?.scrollIntoView({ block: "nearest" });
      if (table.selected && table.canAct) table.loadUnit(u.id);  // as a tap on the map does
    },
  }, u.name);
  return h("div", { class: "unit-picks", role: "group", "aria-label": "Units on the map" },
    table.match.sides.map((side) => {
      const mine = onMap.filter((u) => u.side === side.id);
      return mine.length ? h("div", { class: "unit-picks-side" }, h("p", { class: "side-name" }, side.name), h("div", { class: "row" }, mine.map(pick))) : null;
    }));
}

export function renderUnits(table) {
  const colours = sideColours(table.match.sides);
  return h("ul", { class: "units" }, table.board.units.map((u) => {
    const c = u.computed || {};
    const markers = Object.entries(u.markers || {});
    const facts = [...unitFacts(u, table.board), where(table, u.position)].filter(Boolean);
    return h("li", { class: `unit-card${table.selected === u.id ? " selected" : ""}`, id: `unit-${u.id}`, "data-unit": u.id, style: `border-left-color:${colours[u.side]}` },
      h("div", { class: "unit-title" }, h("strong", {}, u.name), h("span", { class: "meta" }, ` ${table.sideName(u.side)} · ${kindWords(u, table.board)}`)),
      h("p", { class: "facts" }, facts.join(" · ")),
      markers.length || u.status.length || c.must_split ? h("ul", { class: "flags", "aria-label": "Markers and status" },
        // (a marker kind and a status in words: "pinned down", never "pinned_down")
        markers.map(([k, v]) => h("li", { class: "marker", "data-marker": k }, `${markerName(k, table.board)}: ${v}`)),
        u.status.map((st) => h("li", { class: "status" }, statusName(st, table.board))),
        c.must_split ? h("li", { class: "status warn" }, "must split") : null) : null,
      table.canAct ? unitActions(table, u) : null);
  }));
}

/** The unit's choices among the legal actions: only what the rules accept now, in their words. */
function unitActions(table, u) {
  if (!table.holdsUnit(u.id)) {  // a large board: the answer is a page of units (docs/legal-actions.md)
    return h("div", { class: "unit-actions row" },
      h("button", { type: "button", class: "secondary", onclick: () => table.loadUnit(u.id) }, "What it can do"));
  }
  const mine = (choice) => choice.unit_id === u.id;
  const actions = (table.legal?.actions || []).filter((a) => a.choices.some(mine));
  if (!actions.length) return null;
  const where = `unit:${u.id}`;
  return h("div", { class: "unit-actions row" }, actions.map((a) => actionBlock(table, a, where, mine)));
}

function where(table, position) {
  if (!position) return null;
  if (position.hex) return hexWords(table.board, position.hex);
  if (position.box) return `in the ${position.box} box`;
  return `at ${position.x}, ${position.y}`;
}

/** A track's value in words: a number or a word as it is, a list or a table by its names. */
function trackValue(table, v) {
  if (typeof v === "string") return table.sideName(v);  // a side holds it: its name
  if (v === null || typeof v !== "object") return String(v);
  if (Array.isArray(v)) return v.map((x) => trackValue(table, x)).join(", ");
  return Object.entries(v).map(([k, x]) => `${table.sideName(k)}: ${trackValue(table, x)}`).join("; ");
}
