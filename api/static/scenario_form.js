// The scenario form: a whole scenario (ruleset, sides, their units and decks, options) built
// by tapping and typing names and numbers, never JSON. What each ruleset needs comes from
// GET /api/rulesets; the body it posts is a `CreateMatch` (docs/scenarios.md). Ids are made
// from the names and shown nowhere. Mistakes are refused in words next to the field they
// concern, before anything is sent, and so are the service's own refusals (422 problem details).

import { api } from "./api.js";
import { h } from "./dom.js";

const PLACE_WORDS = { point: "On the table, at a point", hex: "On a hex" };

let serial = 0;
const uid = (prefix) => `${prefix}-${++serial}`;

/** An id made from a name: lower case, letters and digits, unique among `taken`. */
export function idFrom(name, taken, fallback) {
  const base = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || fallback;
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** Whether a unit of this kind has the field (a Commander's CV, an officer's LV). */
const applies = (field, unit) => !field.only || field.only.includes(unit.kind);

const lines = (text) => text.split("\n").map((x) => x.trim()).filter(Boolean);
const same = (a, b) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A service message (pydantic's) in a player's words. */
function words(msg) {
  const rules = [
    [/Field required/i, () => "This is needed."],
    [/at least (\d+) characters?/i, (m) => (m[1] === "1" ? "This is needed." : `At least ${m[1]} characters.`)],
    [/at most (\d+) characters?/i, (m) => `At most ${m[1]} characters.`],
    [/greater than or equal to (-?[\d.]+)/i, (m) => `At least ${m[1]}.`],
    [/less than or equal to (-?[\d.]+)/i, (m) => `At most ${m[1]}.`],
    [/at most (\d+) items?/i, (m) => `At most ${m[1]}.`],
    [/at least (\d+) items?/i, (m) => `At least ${m[1]}.`],
    [/valid integer/i, () => "A whole number, please."],
    [/valid number/i, () => "A number, please."],
  ];
  for (const [re, say] of rules) {
    const m = String(msg).match(re);
    if (m) return say(m);
  }
  const text = String(msg).replace(/^Value error, /, "");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function emptyUnit(info) {
  return { name: "", kind: info?.kinds?.[0]?.value || "", values: {}, place: info?.places?.[0] || "point",
    x: "", y: "", hex: "", box: info?.boxes?.[0]?.value || "reserve", open: true };
}

/** Where a unit starts, in words: "at 10, 12", "on hex 0305", "in reserve". */
function whereWords(unit) {
  if (unit.place === "point") return unit.x.trim() && unit.y.trim() ? `at ${unit.x.trim()}, ${unit.y.trim()}` : "";
  if (unit.place === "hex") return unit.hex.trim() ? `on hex ${unit.hex.trim()}` : "";
  return `in ${unit.box}`;
}

function emptySide() {
  return { name: "", units: [], deck: "" };
}

/** A unit of a sample scenario (a CreateMatch unit) as a row of the form. */
function unitRow(unit, info, idToName) {
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

/**
 * The form. `rulesets`: GET /api/rulesets; `create(body)`: starts the match (rejects with the
 * API's error). Returns the <form>.
 */
export function scenarioForm(rulesets, create) {
  const model = { ruleset: rulesets[0]?.id || "freeform", scenario: "", casual: false, options: {}, carryOptions: {},
    sides: [emptySide(), emptySide()] };
  const info = () => rulesets.find((r) => r.id === model.ruleset) || rulesets[0];
  let spots = {};  // path -> {control, error}: where each field's error is shown
  let fixed = {};

  const about = h("p", { class: "about", id: uid("about") });
  const rulesetSelect = h("select", { id: uid("ruleset"), name: "ruleset", "aria-describedby": about.id,
    onchange: (e) => { model.ruleset = e.target.value; model.options = {}; model.carryOptions = {}; adopt(); render(); } },
  rulesets.map((r) => h("option", { value: r.id }, r.title)));
  const optionsBox = h("div", { class: "options" });
  const sidesBox = h("div", { class: "sides" });
  const formError = h("p", { class: "form-error", role: "alert", id: uid("form-error") });
  const sampleButton = h("button", { type: "button", class: "secondary",
    onclick: () => fillFromSample() }, "Fill in its sample");

  /** Keep the rows' kinds and places within what the newly chosen ruleset knows. */
  function adopt() {
    const r = info();
    for (const side of model.sides) {
      for (const unit of side.units) {
        if (r.kinds.length && !r.kinds.some((k) => k.value === unit.kind)) unit.kind = r.kinds[0].value;
        if (!r.kinds.length && !unit.kind) unit.kind = "";
        if (!r.places.includes(unit.place)) unit.place = r.places[0];
        if (!r.boxes.some((b) => b.value === unit.box)) unit.box = r.boxes[0]?.value || "reserve";
      }
    }
  }

  async function fillFromSample() {
    const r = info();
    if (!r.sample) return;
    try {
      const doc = await api(`/api/scenarios/${encodeURIComponent(r.sample)}`);
      const idToName = Object.fromEntries(doc.units.map((u) => [u.id, u.name]));
      model.scenario = doc.scenario;
      model.casual = !!doc.casual;
      model.sides = doc.sides.map((s) => ({
        name: s.name,
        from: s.id,  // the sample's id, which options the form does not show may name
        units: doc.units.filter((u) => u.side === s.id).map((u) => unitRow(u, r, idToName)),
        deck: (doc.decks?.[s.id] || []).join("\n"),
      }));
      model.options = {};
      const asked = new Set(r.options.map((o) => o.name));
      model.carryOptions = Object.fromEntries(Object.entries(doc.options || {}).filter(([k]) => !asked.has(k)));
      for (const option of r.options) {
        const value = doc.options?.[option.name];
        if (value === undefined) continue;
        if (option.kind === "roles") {
          model.options[option.name] = Object.fromEntries(Object.entries(value).map(([role, side]) =>
            [role, String(doc.sides.findIndex((s) => s.id === side))]));
        } else model.options[option.name] = String(value);
      }
      render();
    } catch (error) { formError.textContent = error.explained || error.message; }
  }

  // ---- the parts of the form -----------------------------------------------------------

  function spot(path, control) {
    const error = h("p", { class: "field-error", id: uid("err"), role: "alert" });
    spots[path] = { control, error };
    return error;
  }

  /** A labelled control with its hint and its error line. */
  function labelled(path, label, control, hint) {
    control.id = control.id || uid("f");
    const hintEl = hint ? h("small", { class: "hint", id: `${control.id}-hint` }, hint) : null;
    const error = spot(path, control);
    control.setAttribute("aria-describedby", [hintEl && hintEl.id, error.id].filter(Boolean).join(" "));
    return h("div", { class: "field" }, h("label", { class: "label", for: control.id }, label), control, hintEl, error);
  }

  function text(value, set, attrs = {}) {
    return h("input", { type: "text", value, autocomplete: "off", ...attrs, oninput: (e) => set(e.target.value) });
  }

  /** A number field; a phone's digits-only keypad only where no minus sign is needed. */
  function number(value, set, attrs = {}) {
    const keypad = attrs.step === "any" ? "decimal" : attrs.min !== null && attrs.min !== undefined && attrs.min >= 0 ? "numeric" : undefined;
    return h("input", { type: "number", inputmode: keypad, value, ...attrs,
      oninput: (e) => set(e.target.value) });
  }

  function select(value, choices, set, attrs = {}) {
    return h("select", { ...attrs, onchange: (e) => set(e.target.value) },
      choices.map((c) => h("option", { value: c.value, selected: c.value === value || undefined }, c.label)));
  }

  function renderOptions() {
    const r = info();
    const named = model.sides.map((s, i) => ({ value: String(i), label: s.name.trim() || `Side ${i + 1}` }));
    optionsBox.replaceChildren(...r.options.map((option) => {
      const path = `options.${option.name}`;
      if (option.kind === "roles") {
        const given = model.options[option.name] || (model.options[option.name] = {});
        return h("fieldset", { class: "roles" }, h("legend", {}, option.label),
          option.roles.map((role, i) => {
            if (given[role.value] === undefined) given[role.value] = String(Math.min(i, named.length - 1));
            return labelled(`${path}.${role.value}`, `${role.label} side`,
              select(given[role.value], named, (v) => { given[role.value] = v; }, { "data-roles": "" }));
          }),
          h("small", { class: "hint" }, option.says), spot(path, null));
      }
      return labelled(path, option.required ? option.label : `${option.label} (optional)`,
        number(model.options[option.name] || "", (v) => { model.options[option.name] = v; },
          { min: option.minimum, max: option.maximum, step: 1 }), option.says);
    }));
  }

  /** A side's new name, in the choices that name sides (without rebuilding the form). */
  function sideNamesChanged() {
    for (const choice of optionsBox.querySelectorAll("select[data-roles] option")) {
      const side = model.sides[Number(choice.value)];
      if (side) choice.textContent = side.name.trim() || `Side ${Number(choice.value) + 1}`;
    }
  }

  function unitFieldset(side, s, unit, u) {
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
          labelled(`${base}.x`, "Across (inches)", number(unit.x, (v) => { unit.x = v; }, { step: "any", placeholder: "12" })),
          labelled(`${base}.y`, "Along (inches)", number(unit.y, (v) => { unit.y = v; }, { step: "any", placeholder: "6" }))));
      } else if (unit.place === "hex") {
        spotBox.replaceChildren(labelled(`${base}.hex`, "Hex", text(unit.hex, (v) => { unit.hex = v; },
          { maxlength: 16, placeholder: "0305" })));
      } else spotBox.replaceChildren();
    };
    fillWhere();
    const kind = r.kinds.length
      ? labelled(`${base}.kind`, "Kind", select(unit.kind, r.kinds, (v) => {
        unit.kind = v;
        if (r.fields.some((f) => f.only)) { render(); focusIn(`${base}.kind`); }
      }))
      : labelled(`${base}.kind`, "Kind (optional)", text(unit.kind, (v) => { unit.kind = v; },
        { maxlength: 64, placeholder: "squad, tank, leader…" }));
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
        { maxlength: 120, placeholder: "1st Squad", "data-role": "unit-name" })),
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

  function sideFieldset(side, s) {
    const r = info();
    const add = h("button", { type: "button", class: "secondary add",
      onclick: () => { side.units.push(emptyUnit(r)); render(); focusIn(`sides.${s}.units.${side.units.length - 1}.name`); } },
    "Add a unit to this side");
    spots[`sides.${s}.add`] = { control: add, error: null };
    return h("fieldset", { class: "side" },
      h("legend", {}, `Side ${s + 1}`),
      labelled(`sides.${s}.name`, "Side name", text(side.name, (v) => { side.name = v; },
        { maxlength: 120, placeholder: s ? "Axis" : "Allies", "data-role": "side-name", onchange: sideNamesChanged })),
      h("div", { class: "units" }, side.units.map((unit, u) => unitFieldset(side, s, unit, u))),
      spot(`sides.${s}.units`, null),
      add,
      r.cards ? labelled(`sides.${s}.deck`, "Its deck of cards (optional)",
        h("textarea", { rows: 4, placeholder: "Ambush\nBarrage\nDig in", oninput: (e) => { side.deck = e.target.value; } }, side.deck),
        "one card name a line; the service shuffles the deck as the match starts") : null,
      model.sides.length > 2 ? h("button", { type: "button", class: "secondary remove",
        onclick: () => { model.sides.splice(s, 1); render(); focusIn("sides.add"); } }, "Remove this side") : null);
  }

  function render() {
    spots = { ...fixed };
    const r = info();
    rulesetSelect.value = model.ruleset;
    about.textContent = r.about;
    sampleButton.hidden = !r.sample;
    sampleButton.textContent = `Fill in the ${r.title} sample`;
    scenarioInput.value = model.scenario;
    casual.checked = model.casual;
    const addSide = h("button", { type: "button", class: "secondary add", disabled: model.sides.length >= 8 || undefined,
      onclick: () => { model.sides.push(emptySide()); render(); focusIn(`sides.${model.sides.length - 1}.name`); } },
    "Add a side");
    spots["sides.add"] = { control: addSide, error: null };
    sidesBox.replaceChildren(...model.sides.map((side, s) => sideFieldset(side, s)), spot("sides", null), addSide);
    renderOptions();
    clearErrors();
  }

  function focusIn(path) {
    const control = spots[path]?.control;
    if (control) control.focus();
  }

  function clearErrors() {
    formError.textContent = "";
    for (const { control, error } of Object.values(spots)) {
      if (error) error.textContent = "";
      if (control) control.removeAttribute("aria-invalid");
    }
  }

  /** Show each error next to its field (or at the foot of the form); focus the first. */
  function showErrors(errors) {
    clearErrors();
    let first = null;
    for (const [path, message] of errors) {
      const place = spots[path] || spots[path.split(".").slice(0, -1).join(".")];
      if (place?.error) {
        const folded = place.error.closest("details");
        if (folded && !folded.open) folded.open = true;
        place.error.textContent = place.error.textContent ? `${place.error.textContent} ${message}` : message;
        if (place.control) place.control.setAttribute("aria-invalid", "true");
        first = first || place.control || place.error;
      } else {
        formError.textContent = formError.textContent ? `${formError.textContent} ${message}` : message;
        first = first || formError;
      }
    }
    if (first) {
      first.scrollIntoView({ block: "center" });
      if (first.focus && first.tagName !== "P") first.focus({ preventScroll: true });
    }
  }

  // ---- checking and building the body --------------------------------------------------

  /** The CreateMatch body, and the errors (path, words) found on the way; `where` maps the
   *  body's unit index to the form's unit path, for the service's own refusals. */
  function build() {
    const r = info();
    const errors = [];
    const where = { units: [], sides: [] };
    if (!model.scenario.trim()) errors.push(["scenario", "Give the scenario a name."]);
    const sideIds = new Set();
    const sides = model.sides.map((side, s) => {
      const name = side.name.trim();
      if (!name) errors.push([`sides.${s}.name`, "Give this side a name."]);
      else {
        const earlier = model.sides.slice(0, s).find((o) => same(o.name, name));
        if (earlier) errors.push([`sides.${s}.name`, `Another side is already called ${earlier.name.trim()}: give each side its own name.`]);
      }
      where.sides.push(`sides.${s}`);
      return { id: idFrom(name, sideIds, `side-${s + 1}`), name };
    });
    if (model.sides.length < 2) errors.push(["sides", "A match needs at least two sides."]);
    const unitIds = new Set();
    const units = [];
    const decks = {};
    model.sides.forEach((side, s) => {
      const ids = side.units.map((unit, u) => idFrom(unit.name.trim(), unitIds, `unit-${s + 1}-${u + 1}`));
      const byName = (name) => side.units.findIndex((o) => same(o.name, name));
      side.units.forEach((unit, u) => {
        const base = `sides.${s}.units.${u}`;
        const name = unit.name.trim();
        if (!name) errors.push([`${base}.name`, "Give this unit a name."]);
        else if (side.units.slice(0, u).some((o) => same(o.name, name))) {
          errors.push([`${base}.name`, `${sides[s].name || "This side"} already has a unit called ${name}.`]);
        }
        const spec = { id: ids[u], side: sides[s].id, name };
        if (unit.kind.trim()) spec.kind = unit.kind.trim();
        const carry = unit.carry || {};
        if (carry.status?.length) spec.status = carry.status;
        for (const group of ["markers", "extra"]) if (Object.keys(carry[group] || {}).length) spec[group] = { ...carry[group] };
        for (const field of r.fields.filter((f) => applies(f, unit))) {
          const raw = (unit.values[field.name] || "").trim();
          const path = `${base}.${field.name}`;
          if (!raw) {
            if (field.required) errors.push([path, `${name || "This unit"} needs its ${field.label.toLowerCase()}.`]);
            continue;
          }
          let value = raw;
          if (field.kind === "number") {
            value = Number(raw);
            if (!Number.isInteger(value)) { errors.push([path, "A whole number, please."]); continue; }
            if (field.minimum !== null && value < field.minimum) { errors.push([path, `At least ${field.minimum}.`]); continue; }
            if (field.maximum !== null && value > field.maximum) { errors.push([path, `At most ${field.maximum}.`]); continue; }
          } else if (field.kind === "unit") {
            const other = byName(raw);
            if (other < 0) { errors.push([path, `${sides[s].name || "This side"} has no unit called ${raw}.`]); continue; }
            value = ids[other];
          }
          const [group, key] = field.name.split(".");
          if (key) spec[group] = { ...spec[group], [key]: value };
          else spec[group] = value;
        }
        if (unit.place === "point") {
          const x = Number(unit.x);
          const y = Number(unit.y);
          if (unit.x.trim() === "" || !Number.isFinite(x)) errors.push([`${base}.x`, "How far across, in inches?"]);
          if (unit.y.trim() === "" || !Number.isFinite(y)) errors.push([`${base}.y`, "How far along, in inches?"]);
          spec.position = { x, y };
        } else if (unit.place === "hex") {
          if (!unit.hex.trim()) errors.push([`${base}.hex`, "Which hex? For example 0305."]);
          spec.position = { hex: unit.hex.trim() };
        } else spec.position = { box: unit.box };
        where.units.push(base);
        units.push(spec);
      });
      if (r.cards) {
        const cards = lines(side.deck);
        const long = cards.find((c) => c.length > 64);
        if (long) errors.push([`sides.${s}.deck`, `A card name has at most 64 characters: ${long.slice(0, 20)}… is longer.`]);
        if (cards.length > 200) errors.push([`sides.${s}.deck`, "At most 200 cards in a deck."]);
        if (cards.length) decks[sides[s].id] = cards;
      }
    });
    // Options the form does not show (Normandy's cities) name the sample's sides: rename them.
    const renamed = new Map(model.sides.filter((x) => x.from).map((x) => [x.from, sides[model.sides.indexOf(x)]?.id]));
    const rename = (v) => (typeof v === "string" && renamed.has(v) ? renamed.get(v)
      : Array.isArray(v) ? v.map(rename)
        : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rename(x)])) : v);
    const options = rename({ ...model.carryOptions });
    for (const option of r.options) {
      const path = `options.${option.name}`;
      if (option.kind === "roles") {
        const given = model.options[option.name] || {};
        const chosen = option.roles.map((role) => given[role.value]);
        if (new Set(chosen).size !== chosen.length) errors.push([path, "Give each part to a different side."]);
        options[option.name] = Object.fromEntries(option.roles.map((role) => [role.value, sides[Number(given[role.value])]?.id]));
        continue;
      }
      const raw = String(model.options[option.name] || "").trim();
      if (!raw) {
        if (option.required) errors.push([path, `How many ${option.label.toLowerCase()}?`]);
        continue;
      }
      const value = Number(raw);
      if (!Number.isInteger(value) || value < option.minimum || value > option.maximum) {
        errors.push([path, `A whole number from ${option.minimum} to ${option.maximum}.`]);
        continue;
      }
      options[option.name] = value;
    }
    const body = { ruleset: r.id, scenario: model.scenario.trim(), sides, casual: model.casual, options, units };
    if (Object.keys(decks).length) body.decks = decks;
    return { body, errors, where };
  }

  /** The service's refusal, next to the field it names. */
  function serviceErrors(error, where, body) {
    const list = error?.problem?.errors;
    if (!Array.isArray(list) || !list.length) return [["", error.explained || error.message]];
    return list.map(({ loc, msg }) => {
      const path = loc[0] === "body" ? loc.slice(1) : loc;
      const said = words(msg);
      if (path[0] === "scenario") return ["scenario", said];
      if (path[0] === "sides" && path.length > 1) return [`${where.sides[Number(path[1])]}.${path[2] || "name"}`, said];
      if (path[0] === "units" && path.length > 1) {
        const base = where.units[Number(path[1])];
        let field = path[2] || "name";
        if (field === "position") {
          field = ["x", "y", "hex"].includes(path[3]) ? path[3]
            : body.units[Number(path[1])]?.position?.hex !== undefined ? "hex" : "x";
        }
        else if ((field === "extra" || field === "markers") && path[3]) field = `${field}.${path[3]}`;
        return [`${base}.${field}`, said];
      }
      if (path[0] === "decks" && path[1]) {
        const s = body.sides.findIndex((x) => x.id === path[1]);
        return [`sides.${s}.deck`, said];
      }
      if (path[0] === "options" && path[1]) return [`options.${path[1]}`, said];
      return ["", said];
    });
  }

  // ---- the form itself -----------------------------------------------------------------

  const scenarioInput = text("", (v) => { model.scenario = v; }, { name: "scenario", maxlength: 200, placeholder: "Hill 112" });
  const casual = h("input", { type: "checkbox", name: "casual", onchange: (e) => { model.casual = e.target.checked; } });
  const submit = h("button", { type: "submit", class: "start" }, "Start this match");
  const form = h("form", {
    class: "stack scenario-form", "aria-label": "Start your own match", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      const { body, errors, where } = build();
      if (errors.length) { showErrors(errors); return; }
      clearErrors();
      submit.disabled = true;
      try {
        await create(body);
      } catch (error) {
        showErrors(serviceErrors(error, where, body));
      } finally { submit.disabled = false; }
    },
  },
  labelled("ruleset", "Game system", rulesetSelect), about, sampleButton,
  labelled("scenario", "Scenario name", scenarioInput),
  h("h4", {}, "Sides and their units"),
  sidesBox,
  optionsBox,
  h("label", { class: "check" }, casual, " Casual: undo without asking the other players"),
  formError,
  submit);
  fixed = { ...spots };  // the ruleset's and the scenario's fields, made once
  render();
  return form;
}
