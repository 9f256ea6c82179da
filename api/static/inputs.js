// Small forms built from a legal choice's `inputs` (GET /api/matches/{id}/legal): each input
// is asked for in the player's words (big buttons for a few values, checkboxes for a list,
// a row of numbered buttons for a number with few values, a die's faces as buttons, the map
// for a place), never as JSON and never typed, but for words (names, notes, disputes). The
// page never decides what is legal: the values offered are the ones the service listed (or
// every whole number between the bounds it gave, where they are few).

import { field, h, notice } from "./dom.js";

const BOXES = ["reserve", "reinforcements", "eliminated", "transport"];
let forms = 0;

/** Turn "10, 12" / "1508" / "reserve" into a position. */
export function parsePosition(text) {
  const t = String(text).trim();
  const xy = t.match(/^(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)$/);
  if (xy) return { x: Number(xy[1]), y: Number(xy[2]) };
  if (BOXES.includes(t)) return { box: t };
  return { hex: t };
}

/** A position in words: "hex 0304", "10, 12", "the reserve box". */
export function positionText(p) {
  if (!p) return "";
  if (p.hex) return p.hex;
  if (p.box) return p.box;
  return `${Math.round(p.x * 10) / 10}, ${Math.round(p.y * 10) / 10}`;
}

/** Put `value` in `body` at a dotted `name` ("unit.id"). */
export function setPath(body, name, value) {
  const parts = name.split(".");
  let at = body;
  for (const part of parts.slice(0, -1)) at = (at[part] = at[part] && typeof at[part] === "object" ? at[part] : {});
  at[parts.at(-1)] = value;
}

/** A number as the API takes it, or undefined when blank. */
function num(text) {
  const t = String(text).trim();
  return t === "" ? undefined : Number(t);
}

function valueLabel(v) { return v.label ?? String(v.value); }

/** The most values shown as a row of buttons (more: a list to choose from). */
export const BUTTONS_MOST = 8;
/** The most faces a die shows as buttons (a d20 or a d100 is a number field). */
const FACES_MOST = 12;

/** The values a number input takes, as buttons: the ones the service listed (a closed
 *  list), else each whole number between its bounds where they are few; null otherwise. */
export function numberValues(input) {
  if (input.kind !== "number") return null;
  if (input.values?.length && !input.open) return input.values.length <= BUTTONS_MOST * 2 ? input.values : null;
  const low = input.minimum, high = input.maximum;
  if (low === null || low === undefined || high === null || high === undefined || high < low || high - low + 1 > BUTTONS_MOST) return null;
  return Array.from({ length: high - low + 1 }, (_, i) => ({ value: low + i, label: String(low + i) }));
}

/** The values of an input that one tap chooses (a few listed values, or a number's), or null. */
export function tapValues(input) {
  if (input.kind === "choice" && input.values?.length && input.values.length <= BUTTONS_MOST) return input.values;
  return numberValues(input);
}

/** Radio buttons, one per value, read back as the value tapped. */
function picks(name, label, values, required, says) {
  const group = h("fieldset", { class: "picks" }, h("legend", {}, label),
    values.map((v, i) => h("label", { class: "pick" },
      h("input", { type: "radio", name, value: String(i), required: required && i === 0 ? true : undefined }), valueLabel(v))),
    says ? h("small", { class: "hint" }, says) : null);
  return { el: group, read: (f) => { const i = [...f.querySelectorAll(`input[name="${name}"]`)].find((x) => x.checked)?.value; return i === undefined ? undefined : values[Number(i)].value; } };
}

/** A whole number of many values as a stepper: − and + buttons around the value (from the
 *  service's example, within its bounds), so it is tapped, never typed. An optional number
 *  starts unset; its first tap starts from the example (or 0, within the bounds). */
function stepper(name, input, says) {
  const low = input.minimum ?? -Infinity, high = input.maximum ?? Infinity;
  const clamp = (v) => Math.min(high, Math.max(low, v));
  const start = clamp(typeof input.example === "number" ? input.example : Math.max(low, Math.min(0, high)));
  let value = input.required ? start : undefined;
  const shown = h("output", { class: "stepper-value", name, "aria-live": "polite" }, value ?? "—");
  const step = (by) => { value = clamp(value === undefined ? start : value + by); shown.textContent = String(value); };
  const button = (by, words) => h("button", { type: "button", class: "secondary stepper-step", "aria-label": `${input.label}: ${words}`, onclick: () => step(by) }, by > 0 ? `+${by}` : `−${-by}`);
  const el = h("fieldset", { class: "picks stepper" }, h("legend", {}, input.label),
    button(-5, "five less"), button(-1, "one less"), shown, button(1, "one more"), button(5, "five more"),
    says ? h("small", { class: "hint" }, says) : null);
  return { el, read: () => value };
}

/** One die's faces as buttons (1 to its sides), or a number field for a die of many faces. */
function dieControl(name, sides, label, required) {
  if (sides <= FACES_MOST) {
    const faces = Array.from({ length: sides }, (_, i) => ({ value: i + 1, label: String(i + 1) }));
    const one = picks(name, label, faces, required, null);
    one.el.classList.add("faces");
    return one;
  }
  const el = h("input", { name, type: "number", inputmode: "numeric", min: 1, max: sides });
  return { el: field(label, el), read: () => num(el.value) };
}

/** One input's control(s) and how to read its value back from the form. */
function control(input, choice, opts, uid) {
  const name = `${uid}-${input.name}`;
  const says = input.says || null;
  const required = input.required || undefined;
  const values = input.values || [];
  switch (input.kind) {
    case "choice": {
      if (values.length && values.length <= BUTTONS_MOST && !input.open) return picks(name, input.label, values, required, says);
      if (values.length && values.length <= BUTTONS_MOST) {  // listed, and others accepted too
        const listed = picks(name, input.label, values, required, says);
        const other = h("input", { name: `${name}-other`, maxlength: 200 });
        listed.el.append(field("Or another", other));
        return { el: listed.el, read: (f) => other.value.trim() || listed.read(f) };
      }
      if (values.length) {
        const select = h("select", { name, required }, input.required ? null : h("option", { value: "" }, "—"),
          values.map((v, i) => h("option", { value: String(i) }, valueLabel(v))));
        return { el: field(input.label, select, says), read: () => (select.value === "" ? undefined : values[Number(select.value)].value) };
      }
      const text = h("input", { name, required });
      return { el: field(input.label, text, says), read: () => text.value.trim() || undefined };
    }
    case "choices": {
      if (values.length) {
        const group = h("fieldset", { class: "picks", "data-required": required }, h("legend", {}, input.label),
          values.map((v, i) => h("label", { class: "pick" }, h("input", { type: "checkbox", name, value: String(i) }), valueLabel(v))),
          says ? h("small", { class: "hint" }, says) : null);
        return { el: group, read: (f) => { const picked = [...f.querySelectorAll(`input[name="${name}"]`)].filter((x) => x.checked).map((x) => values[Number(x.value)].value); return picked.length ? picked : undefined; } };
      }
      const text = h("input", { name, required, placeholder: "words, separated by commas" });
      return { el: field(input.label, text, says), read: () => { const items = text.value.split(",").map((x) => x.trim()).filter(Boolean); return items.length ? items : undefined; } };
    }
    case "number": {
      const listed = numberValues(input);
      if (listed) return picks(name, input.label, listed, required, says);
      if (input.values?.length && input.values.length <= BUTTONS_MOST) {  // listed; others too
        const few = picks(name, input.label, input.values, required, says);
        const other = h("input", { name: `${name}-other`, type: "number", inputmode: "numeric", min: input.minimum ?? undefined, max: input.maximum ?? undefined });
        few.el.append(field("Or another", other));
        return { el: few.el, read: (f) => num(other.value) ?? few.read(f) };
      }
      return stepper(name, input, says);
    }
    case "bool": {
      const el = h("input", { type: "checkbox", name });
      return { el: h("label", { class: "pick" }, el, input.label), read: () => (el.checked ? true : undefined) };
    }
    case "dice": {
      const count = Array.isArray(input.example) ? input.example.length : choice.dice?.length || 1;
      const dice = choice.dice?.length === count ? choice.dice
        : Array.from({ length: count }, (_, i) => ({ sides: input.maximum || 6, purpose: count > 1 ? `die ${i + 1}` : input.label }));
      const els = dice.map((d, i) => dieControl(`${name}-${i}`, d.sides, `${d.purpose || input.label}: the die's face`, required));
      return {
        el: h("div", { class: "dice-faces" }, h("span", { class: "label" }, input.label), els.map((e) => e.el), says ? h("small", { class: "hint" }, says) : null),
        read: (f) => { const faces = els.map((e) => e.read(f)); return faces.every((x) => x === undefined) ? undefined : faces; },
      };
    }
    case "object": {
      if (values.length) {
        const els = values.map((v) => [v.value, h("input", { type: "number", inputmode: "numeric", name: `${name}-${v.value}` })]);
        return {
          el: h("fieldset", { class: "picks" }, h("legend", {}, input.label), els.map(([v, el]) => field(valueLabel(values.find((x) => x.value === v)), el)), says ? h("small", { class: "hint" }, says) : null),
          read: () => { const out = {}; for (const [v, el] of els) if (num(el.value) !== undefined) out[v] = num(el.value); return Object.keys(out).length ? out : undefined; },
        };
      }
      const key = h("input", { name: `${name}-key` });
      const value = h("input", { name: `${name}-value` });
      return {
        el: h("fieldset", { class: "picks" }, h("legend", {}, input.label), field("Name", key), field("Value", value), says ? h("small", { class: "hint" }, says) : null),
        read: () => { const k = key.value.trim(); if (!k) return undefined; const v = value.value.trim(); return { [k]: v !== "" && !Number.isNaN(Number(v)) ? Number(v) : v }; },
      };
    }
    case "position":
    case "location": {
      const text = h("input", { name, required, placeholder: input.kind === "location" ? "a hex, e.g. 0304" : "tap the map, or x, y" });
      // the form is drawn again while the map waits for the tap: the place goes into the field
      // as it is then (found by the form's key), not into this drawing's
      const here = () => (opts.key && document.querySelector(`form[data-key="${CSS.escape(opts.key)}"] input[name="${CSS.escape(name)}"]`)) || text;
      const pick = opts.pickOnMap ? h("button", { type: "button", class: "secondary", onclick: () => opts.pickOnMap(input.label, (pos) => { here().value = positionText(pos); }) }, "Tap the map") : null;
      return {
        el: h("div", { class: "place-field" }, field(input.label, text, says), pick),
        // a location is a word the service keeps as it is: a hex, a box, or a point as "x,y"
        read: () => (!text.value.trim() ? undefined
          : input.kind === "location" ? text.value.trim().replace(/\s*,\s*/, ",") : parsePosition(text.value)),
      };
    }
    default: {  // text
      const example = typeof input.example === "string" ? input.example : undefined;
      const el = h("input", { name, required, maxlength: 2000, placeholder: example && `e.g. ${example}` });
      return { el: field(input.label, el, says), read: () => { const v = el.value.trim(); if (!v) return undefined; return /^-?\d+(\.\d+)?$/.test(v) && input.name === "value" ? Number(v) : v; } };
    }
  }
}

/**
 * A form for a legal choice's inputs; `submit(body)` gets the choice's body with the given
 * inputs put in. `opts.pickOnMap(label, done)` lets a place be tapped on the map; `opts.skip`
 * leaves some inputs out (names); `opts.submitLabel` names the button.
 */
export function inputForm(choice, submit, opts = {}) {
  // Field names stay the same when the form is drawn again (a place tapped on the map, a live
  // update), so keep.js puts back what was typed; radio groups are scoped by their form.
  const uid = opts.key ? "in" : `in${++forms}`;
  // An `id` input is never asked for: the service makes a new unit's id, the players name it
  // (docs/legal-actions.md); the rest are asked in the players' words.
  const inputs = (choice.inputs || []).filter((i) => i.kind !== "id" && !(opts.skip || []).includes(i.name));
  const controls = inputs.map((input) => ({ input, ...control(input, choice, opts, uid) }));
  const form = h("form", { class: "input-form", "data-key": opts.key || uid },
    controls.map((c) => c.el),
    h("div", { class: "row" }, h("button", { type: "submit" }, opts.submitLabel || "Done"),
      opts.cancel ? h("button", { type: "button", class: "secondary", onclick: opts.cancel }, "Cancel") : null));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = structuredClone(choice.body);
    for (const c of controls) {
      const value = c.read(form);
      // a list of ticks has no `required` of its own: at least one must be ticked
      if (value === undefined && c.input.required) { notice(`Choose at least one: ${c.input.label}.`); return; }
      if (value !== undefined) setPath(body, c.input.name, value);
    }
    submit(body);
  });
  return form;
}

/** The faces thrown at the table, tapped: one row of face buttons per die, named by its
 *  purpose; `submit(body)` gets the choice's table body with those faces at its field (a
 *  list, one number, or an object keyed by each die's key, as the example body has them). */
export function tableDiceForm(choice, submit, opts = {}) {
  const dice = choice.dice || [];
  const uid = opts.key ? "face" : `face${++forms}`;
  const els = dice.map((d, i) => dieControl(`${uid}-${d.key || i}`, d.sides, `${d.purpose || "a die"} (d${d.sides})`, true));
  const form = h("form", { class: "input-form table-dice", "data-key": opts.key || `table-${++forms}` },
    h("p", { class: "hint" }, "Tap the face each die shows."),
    els.map((e) => e.el),
    h("div", { class: "row" }, h("button", { type: "submit" }, "Record these dice"),
      opts.cancel ? h("button", { type: "button", class: "secondary", onclick: opts.cancel }, "Cancel") : null));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const faces = els.map((e) => e.read(form));
    if (faces.some((x) => x === undefined || Number.isNaN(x))) { notice("Tap the face of every die."); return; }
    const { field: at, body } = choice.table;
    const out = structuredClone(body);
    const example = out[at];
    if (Array.isArray(example)) out[at] = faces;
    else if (example && typeof example === "object") out[at] = Object.fromEntries(dice.map((d, i) => [d.key, faces[i]]));
    else out[at] = faces[0];
    submit(out);
  });
  return form;
}
