// The scenario form: a whole scenario (ruleset, sides, their units and decks, options) built
// by tapping and typing names and numbers, never JSON. What each ruleset needs comes from
// GET /api/rulesets; the body it posts is a `CreateMatch` (docs/scenarios.md). Ids are made
// from the names and shown nowhere. Mistakes are refused in words next to the field they
// concern, before anything is sent, and so are the service's own refusals (422 problem details).
// The unit rows are in scenario_units.js; the checks, the body and the service's refusals in
// scenario_checks.js.

import { api } from "./api.js";
import { h } from "./dom.js";
import { build, serviceErrors } from "./scenario_checks.js";
import { emptyUnit, number, select, text, unitFieldset, unitRow } from "./scenario_units.js";

export { idFrom } from "./scenario_checks.js";

let serial = 0;
const uid = (prefix) => `${prefix}-${++serial}`;

function emptySide() {
  return { name: "", units: [], deck: "" };
}

/**
 * The form. `rulesets`: GET /api/rulesets; `create(body)`: starts the match (rejects with the
 * API's error). Returns the <form>.
 */
export function scenarioForm(rulesets, create) {
  // a ruleset is chosen by its key: a stored ruleset file's hash, else a built-in game's id
  const key = (r) => r.hash || r.id;
  const model = { ruleset: rulesets[0] ? key(rulesets[0]) : "freeform", scenario: "", casual: false, options: {}, carryOptions: {},
    sides: [emptySide(), emptySide()] };
  const info = () => rulesets.find((r) => key(r) === model.ruleset) || rulesets[0];
  let spots = {};  // path -> {control, error}: where each field's error is shown
  let fixed = {};

  const about = h("p", { class: "about", id: uid("about") });
  /** Choose a ruleset: a stored file's entry of the list carries only its titles, so what a
   * scenario of it needs is read first (its `info_at`: GET /api/rulesets/{hash}/info). */
  async function choose(value) {
    const at = rulesets.findIndex((r) => key(r) === value);
    if (at >= 0 && !rulesets[at].kinds && rulesets[at].info_at) {
      try {
        rulesets[at] = await api(rulesets[at].info_at);
      } catch {
        formError.textContent = "That ruleset file could not be read: choose it again.";
        rulesetSelect.value = model.ruleset;
        return;
      }
    }
    model.ruleset = value; model.options = {}; model.carryOptions = {};
    adopt(); render();
  }
  const rulesetSelect = h("select", { id: uid("ruleset"), name: "ruleset", "aria-describedby": about.id,
    onchange: (e) => { choose(e.target.value); } },
  rulesets.map((r) => h("option", { value: key(r) }, r.title)));
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
    const at = r.sample_at || (r.sample && `/api/scenarios/${encodeURIComponent(r.sample)}`);
    if (!at) return;
    try {
      const doc = await api(at);
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

  /** What of the form a unit's row needs. */
  const rows = { info, labelled, render, focusIn };

  function sideFieldset(side, s) {
    const r = info();
    const add = h("button", { type: "button", class: "secondary add",
      onclick: () => { side.units.push(emptyUnit(r)); render(); focusIn(`sides.${s}.units.${side.units.length - 1}.name`); } },
    "Add a unit to this side");
    spots[`sides.${s}.add`] = { control: add, error: null };
    return h("fieldset", { class: "side" },
      h("legend", {}, `Side ${s + 1}`),
      labelled(`sides.${s}.name`, "Side name", text(side.name, (v) => { side.name = v; },
        { maxlength: 120, placeholder: s ? "e.g. Axis" : "e.g. Allies", "data-role": "side-name", onchange: sideNamesChanged })),
      h("div", { class: "units" }, side.units.map((unit, u) => unitFieldset(rows, side, s, unit, u))),
      spot(`sides.${s}.units`, null),
      add,
      r.cards ? labelled(`sides.${s}.deck`, "Its deck of cards (optional)",
        h("textarea", { rows: 4, placeholder: "e.g. Ambush\nBarrage\nDig in", oninput: (e) => { side.deck = e.target.value; } }, side.deck),
        "one card name a line; the service shuffles the deck as the match starts") : null,
      model.sides.length > 2 ? h("button", { type: "button", class: "secondary remove",
        onclick: () => { model.sides.splice(s, 1); render(); focusIn("sides.add"); } }, "Remove this side") : null);
  }

  function render() {
    spots = { ...fixed };
    const r = info();
    rulesetSelect.value = model.ruleset;
    about.textContent = r.about;
    sampleButton.hidden = !r.sample_at && !r.sample;
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

  // ---- the form itself -----------------------------------------------------------------

  const scenarioInput = text("", (v) => { model.scenario = v; }, { name: "scenario", maxlength: 200, placeholder: "e.g. Hill 112" });
  const casual = h("input", { type: "checkbox", name: "casual", onchange: (e) => { model.casual = e.target.checked; } });
  const submit = h("button", { type: "submit", class: "start" }, "Start this match");
  const form = h("form", {
    class: "stack scenario-form", "aria-label": "Start your own match", novalidate: true,
    onsubmit: async (event) => {
      event.preventDefault();
      const { body, errors, where } = build(model, info());
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
  /** Offer more rulesets (a later page of GET /api/rulesets), choosing none of them. */
  form.addRulesets = (more) => {
    for (const r of more) {
      if (rulesets.some((known) => key(known) === key(r))) continue;
      rulesets.push(r);
      rulesetSelect.append(h("option", { value: key(r) }, r.title));
    }
  };
  /** Choose a ruleset file just stored (ruleset_upload.js): its GET /api/rulesets/{hash}/info. */
  form.useRuleset = (r) => {
    const at = rulesets.findIndex((known) => key(known) === key(r));
    if (at >= 0) rulesets[at] = r;
    else form.addRulesets([r]);
    model.ruleset = key(r); model.options = {}; model.carryOptions = {};
    adopt(); render();
  };
  return form;
}
