// The scenario form's checks: the form's model checked and made into the CreateMatch body
// (docs/scenarios.md), with each mistake in words and the path of the field it concerns, and
// the service's own refusals (422 problem details) mapped back to those fields. Ids are made
// here from the names.

import { applies } from "./scenario_units.js";

/** An id made from a name: lower case, letters and digits, unique among `taken`. */
export function idFrom(name, taken, fallback) {
  const base = name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || fallback;
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

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

/** The CreateMatch body, and the errors (path, words) found on the way; `where` maps the
 *  body's unit index to the form's unit path, for the service's own refusals. */
export function build(model, r) {
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
  const { fewest = 2, most = 8 } = r.sides || {};  // how many sides the ruleset plays
  if (model.sides.length < fewest || model.sides.length > most) {
    const count = fewest === most ? `${fewest}` : `${fewest} to ${most}`;
    errors.push(["sides", `${r.title || "This game"} is played by ${count} sides; this scenario has ${model.sides.length}.`]);
  }
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
  if (r.hash) body.ruleset_hash = r.hash;  // a ruleset file the service holds
  if (Object.keys(decks).length) body.decks = decks;
  return { body, errors, where };
}

/** The service's refusal, next to the field it names. */
export function serviceErrors(error, where, body) {
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
