// The scenario form's unit rows: a unit of a side as a folding row of fields (name, kind, the
// ruleset's own fields, where it starts), a sample's unit read into such a row, and the plain
// controls (text, number, choice) the rows and the rest of the form are made of. The form
// itself, its model and where errors are shown are in scenario_form.js.

import { h } from "./dom.js";

const PLACE_WORDS = { point: "On the table, at a point", hex: "On a hex" };

/** Whether a unit of this kind has the field (a Commander's CV, an officer's LV). */
export const applies = (field, unit) => !field.only || field.only.includes(unit.kind);

export function emptyUnit(info) {
  return { name: "", kind: info?.kinds?.[0]?.value || "", values: {}, place: info?.places?.[0] || "point",
    x: "", y: "", hex: "", box: info?.boxes?.[0]?.value || "reserve", open: true };
}

/** Where a unit starts, in words: "at 10, 12", "on hex 0305", "in reserve". */
function whereWords(unit) {
  if (unit.place === "point") return unit.x.trim() && unit.y.trim() ? `at ${unit.x.trim()}, ${unit.y.trim()}` : "";
  if (unit.place === "hex") return unit.hex.trim() ? `on hex ${unit.hex.trim()}` : "";
  return `in ${unit.box}`;
}

/** A unit of a sample scenario (a CreateMatch unit) as a row of the form. */
export function unitRow(unit, info, idToName) {
  const row = emptyUnit(info);
  row.open = false;  // a sample's units start folded: a line each, tap to open
  row.name = unit.name;
  row.kind = unit.kind || row.kind;
  for (const field of info.fields) {
    const [group, key] = field.name.split(".");
    let value = key ? (unit[group] || {})[key] : unit[group];
    if (value === undefined || value === null) continue;
    if (field.kind === "unit") value = idToName[value] || value;
    row.values[field.name] = String(value);
  }
  // What the form does not show (flags, other markers, other extras) goes along unchanged.
  const shown = new Set(info.fields.map((f) => f.name));
  const rest = (group) => Object.fromEntries(Object.entries(unit[group] || {}).filter(([k]) => !shown.has(`${group}.${k}`)));
  row.carry = { status: unit.status || [], markers: rest("markers"), extra: rest("extra") };
  const p = unit.position;
  if (p && p.x !== undefined && p.x !== null) Object.assign(row, { place: "point", x: String(p.x), y: String(p.y) });
  else if (p && p.hex) Object.assign(row, { place: "hex", hex: p.hex });
  else if (p && p.box) Object.assign(row, { place: "box", box: p.box });
  return row;
}

export function text(value, set, attrs = {}) {
  return h("input", { type: "text", value, autocomplete: "off", ...attrs, oninput: (e) => set(e.target.value) });
}

/** A number field; a phone's digits-only keypad only where no minus sign is needed. */
export function number(value, set, attrs = {}) {
  const keypad = attrs.step === "any" ? "decimal" : attrs.min !== null && attrs.min !== undefined && attrs.min >= 0 ? "numeric" : undefined;
  return h("input", { type: "number", inputmode: keypad, value, ...attrs,
    oninput: (e) => set(e.target.value) });
}

export function select(value, choices, set, attrs = {}) {
  return h("select", { ...attrs, onchange: (e) => set(e.target.value) },
    choices.map((c) => h("option", { value: c.value, selected: c.value === value || undefined }, c.label)));
}

/**
 * A unit's row: a <details> folding to its name and where it starts. `form` is what of the
 * form the row needs: `info()` (the chosen ruleset), `labelled(path, label, control, hint)`,
 * `render()` and `focusIn(path)`.
 */
export function unitFieldset(form, side, s, unit, u) {
  const { info, labelled, render, focusIn } = form;
  const r = info();
  const base = `sides.${s}.units.${u}`;
  const where = [
    ...r.places.filter((p) => p !== "box").map((p) => ({ value: p, label: PLACE_WORDS[p] })),
    ...(r.places.includes("box") ? r.boxes.map((b) => ({ value: `box:${b.value}`, label: `In ${b.label.toLowerCase()}` })) : []),
  ];
  const whereNow = unit.place === "box" ? `box:${unit.box}` : unit.place;
  const spotBox = h("div", { class: "where" });
  const fillWhere = () => {
    if (unit.place === "point") {
      spotBox.replaceChildren(h("div", { class: "pair" },
        labelled(`${base}.x`, "Across (inches)", number(unit.x, (v) => { unit.x = v; }, { step: "any", placeholder: "e.g. 12" })),
        labelled(`${base}.y`, "Along (inches)", number(unit.y, (v) => { unit.y = v; }, { step: "any", placeholder: "e.g. 6" }))));
    } else if (unit.place === "hex") {
      spotBox.replaceChildren(labelled(`${base}.hex`, "Hex", text(unit.hex, (v) => { unit.hex = v; },
        { maxlength: 16, placeholder: "e.g. 0305" })));
    } else spotBox.replaceChildren();
  };
  fillWhere();
  const kind = r.kinds.length
    ? labelled(`${base}.kind`, "Kind", select(unit.kind, r.kinds, (v) => {
      unit.kind = v;
      if (r.fields.some((f) => f.only)) { render(); focusIn(`${base}.kind`); }
    }))
    : labelled(`${base}.kind`, "Kind (optional)", text(unit.kind, (v) => { unit.kind = v; },
      { maxlength: 64, placeholder: "e.g. squad, tank, leader" }));
  const fields = r.fields.filter((field) => applies(field, unit)).map((field) => {
    const path = `${base}.${field.name}`;
    const value = unit.values[field.name] || "";
    const set = (v) => { unit.values[field.name] = v; };
    const label = field.required ? field.label : `${field.label} (optional)`;
    if (field.kind === "choice") {
      if (!value && field.required) set(field.values[0].value);
      return labelled(path, label, select(value || (field.required ? field.values[0].value : ""),
        [...(field.required ? [] : [{ value: "", label: "None" }]), ...field.values], set), field.says);
    }
    if (field.kind === "number") {
      return labelled(path, label, number(value, set, { min: field.minimum, max: field.maximum, step: 1 }), field.says);
    }
    return labelled(path, label, text(value, set, { maxlength: 64 }), field.says);
  });
  const sumName = h("strong", {}, unit.name.trim() || `Unit ${u + 1}`);
  const sumWhere = h("span", { class: "unit-where" }, whereWords(unit));
  const summarise = () => {
    sumName.textContent = unit.name.trim() || `Unit ${u + 1}`;
    sumWhere.textContent = whereWords(unit);
  };
  return h("details", { class: "unit-box", open: unit.open || undefined,
    ontoggle: (e) => { unit.open = e.target.open; summarise(); } },
  h("summary", {}, sumName, sumWhere),
  h("fieldset", { class: "unit", "aria-label": `Unit ${u + 1}` },
    labelled(`${base}.name`, "Unit name", text(unit.name, (v) => { unit.name = v; summarise(); },
      { maxlength: 120, placeholder: "e.g. 1st Squad", "data-role": "unit-name" })),
    kind, fields,
    labelled(`${base}.place`, "Where it starts", select(whereNow, where, (v) => {
      if (v.startsWith("box:")) Object.assign(unit, { place: "box", box: v.slice(4) });
      else unit.place = v;
      fillWhere();
    })),
    spotBox,
    h("button", { type: "button", class: "secondary remove",
      onclick: () => { side.units.splice(u, 1); render(); focusIn(`sides.${s}.add`); } },
    "Remove this unit")));
}
