// The Board panel (the map, what is off it, tracks and cards) and the Units panel (a card per
// unit, with the buttons the current step allows its owner).

import { renderMap, sideColours } from "./board.js";
import { cardsLine } from "./cards.js";
import { $, field, h } from "./dom.js";

const MARKER_KINDS = ["wound", "suppression", "pinned", "smoke", "fire", "reserve", "disrupted"];

export function renderBoard(table) {
  const opts = {
    selected: table.selected,
    onSelect: (uid) => { table.selected = table.selected === uid ? null : uid; table.render(); $(`#unit-${CSS.escape(uid)}`)?.scrollIntoView({ block: "nearest" }); },
    onPlace: table.placing ? (to) => table.act({ type: "move_unit", unit_id: table.placing, to }, `Move ${table.placing}`) : null,
  };
  const boxed = table.board.units.filter((u) => u.position?.box || !u.position || (u.position.hex && !/^\d{4}$/.test(u.position.hex)));
  const out = [renderMap(table.board, table.match.sides, opts)];
  if (table.placing) out.unshift(h("p", { class: "prompt" }, `Click or tap the map where ${table.placing} goes.`,
    h("button", { type: "button", class: "secondary", onclick: () => { table.placing = null; table.render(); } }, "Cancel")));
  if (boxed.length) out.push(h("p", { class: "hint" }, "Off the map: ", boxed.map((u) => `${u.name} (${u.position?.box || u.position?.hex || "not placed"})`).join("; ")));
  if (table.board.off_board.length) out.push(h("p", { class: "hint" }, "Out of play: ", table.board.off_board.map((u) => `${u.name} (${u.removed})`).join("; ")));
  const markers = Object.entries(table.board.location_markers || {});
  if (markers.length) out.push(h("p", { class: "hint" }, "Markers: ", markers.map(([loc, m]) => `${loc}: ${Object.entries(m).map(([k, v]) => `${k}×${v}`).join(", ")}`).join("; ")));
  const tracks = Object.entries(table.board.tracks || {});
  if (tracks.length) out.push(h("dl", { class: "tracks" }, tracks.map(([k, v]) => [h("dt", {}, k), h("dd", {}, typeof v === "object" ? JSON.stringify(v) : String(v))])));
  for (const cards of table.board.cards) {
    out.push(h("p", { class: "hint" }, cardsLine(cards, table.sideName(cards.side))));
  }
  return out;
}

/** The owner's own buttons; the service refuses what the rules do not allow anyway. */
function mayCommand(table, unit) {
  return table.viewer === "referee" || table.viewer === unit.side;
}

export function renderUnits(table) {
  const allows = new Set(table.board.turn.allows);
  const colours = sideColours(table.match.sides);
  return h("ul", { class: "units" }, table.board.units.map((u) => {
    const c = u.computed || {};
    const markers = Object.entries(u.markers || {});
    const facts = [
      u.figures !== null ? `${u.figures} figures` : null,
      u.steps !== null ? `${u.steps} steps` : null,
      c.must_split ? null : c.current_die ? `morale ${c.current_die}${c.base_die && c.base_die !== c.current_die ? ` (base ${c.base_die})` : ""}` : (u.morale_die ? `morale ${u.morale_die}` : null),
      u.qv !== null ? `QV ${u.qv}` : null, u.lv !== null ? `LV ${u.lv}` : null, u.q !== null ? `Q ${u.q}` : null,
      where(u.position),
    ].filter(Boolean);
    const mine = mayCommand(table, u);
    return h("li", { class: `unit-card${table.selected === u.id ? " selected" : ""}`, id: `unit-${u.id}`, "data-unit": u.id, style: `border-left-color:${colours[u.side]}` },
      h("div", { class: "unit-title" }, h("strong", {}, u.name), h("span", { class: "meta" }, ` ${u.id} · ${table.sideName(u.side)} · ${u.kind}`)),
      h("p", { class: "facts" }, facts.join(" · ")),
      markers.length || u.status.length || c.must_split ? h("p", { class: "flags" },
        markers.map(([k, v]) => h("span", { class: "marker" }, `${k} ×${v}`)),
        u.status.map((st) => h("span", { class: "status" }, st)),
        c.must_split ? h("span", { class: "status warn" }, "must split") : null) : null,
      table.canAct ? unitActions(table, u, allows, mine) : null);
  }));
}

function unitActions(table, u, allows, mine) {
  const act = (type, label, extra = {}) => (mine && allows.has(type)
    ? h("button", { type: "button", onclick: () => table.act({ type, unit_id: u.id, ...extra }, `${label} ${u.id}`) }, label) : null);
  const buttons = [
    act("activate_unit", "Activate"),
    act("roll_morale", "Morale roll"),
    act("rally_unit", "Rally"),
    act("lose_step", "Lose a step"),
    mine && allows.has("move_unit") ? h("button", { type: "button", class: "secondary", onclick: () => { table.placing = u.id; table.selected = u.id; table.render(); $("#board").scrollIntoView({ block: "nearest" }); } }, "Move") : null,
  ];
  const split = mine && allows.has("split_unit") ? h("details", { class: "inline", "data-key": `split:${u.id}` }, h("summary", {}, "Split"),
    h("form", {
      class: "row", "aria-label": `Split ${u.id}`,
      onsubmit: (e) => {
        e.preventDefault();
        const f = e.target.elements;
        const body = { type: "split_unit", unit_id: u.id, new_unit_id: f.new_unit_id.value.trim() };
        if (f.figures.value) body.figures = Number(f.figures.value);
        table.act(body, `Split ${u.id}`);
      },
    }, field("New unit id", h("input", { name: "new_unit_id", required: true, value: freshId(table, u.id), maxlength: 64 })),
    field("Figures (blank: the rules divide)", h("input", { name: "figures", type: "number", min: 1 })),
    h("button", { type: "submit" }, "Split"))) : null;
  const marker = (allows.has("place_marker") || allows.has("remove_marker")) ? h("details", { class: "inline", "data-key": `markers:${u.id}` }, h("summary", {}, "Markers"),
    h("form", { class: "row", "aria-label": `Markers on ${u.id}`, onsubmit: (e) => e.preventDefault() },
      field("Kind", h("input", { name: "kind", list: "marker-kinds", required: true, value: "wound", maxlength: 64 })),
      field("Count", h("input", { name: "count", type: "number", min: 1, max: 1000, value: 1 })),
      h("button", { type: "button", onclick: (e) => markerAction(table, e, u, "place_marker") }, "Place"),
      h("button", { type: "button", class: "secondary", onclick: (e) => markerAction(table, e, u, "remove_marker") }, "Remove"))) : null;
  const more = h("button", { type: "button", class: "quiet", onclick: () => table.openAction("", { unit_id: u.id }) }, "Other…");
  return h("div", { class: "unit-actions" }, h("div", { class: "row" }, buttons, more), split, marker,
    h("datalist", { id: "marker-kinds" }, MARKER_KINDS.map((k) => h("option", { value: k }))));
}

function markerAction(table, event, unit, type) {
  const f = event.target.form.elements;
  const count = Number(f.count.value || 1);
  table.act({ type, unit_id: unit.id, kind: f.kind.value.trim(), count }, `${type === "place_marker" ? "Place" : "Remove"} ${f.kind.value} on ${unit.id}`);
}

function freshId(table, base) {
  const ids = new Set([...table.board.units, ...table.board.off_board].map((u) => u.id));
  for (const suffix of "bcdefghijklmnopqrstuvwxyz") if (!ids.has(`${base}${suffix}`)) return `${base}${suffix}`;
  return `${base}-${Date.now() % 10000}`;
}

function where(position) {
  if (!position) return null;
  if (position.hex) return `hex ${position.hex}`;
  if (position.box) return `in the ${position.box} box`;
  return `at ${position.x}, ${position.y}`;
}
