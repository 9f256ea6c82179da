// Forms for any action, built from the API's own OpenAPI schema: the page needs no list of
// fields of its own, so a new action type shows up here the day the API takes it.

import { field, h } from "./dom.js";

let schemaPromise = null;
const BOXES = ["reserve", "reinforcements", "eliminated", "transport"];

async function actionSchemas() {
  schemaPromise ||= fetch("/openapi.json").then((r) => r.json()).then((doc) => {
    const all = doc.components.schemas;
    const byType = {};
    for (const schema of Object.values(all)) {
      const type = schema.properties?.type;
      const name = type?.const ?? (type?.enum?.length === 1 ? type.enum[0] : null);
      if (name && schema.properties.type.default === name) byType[name] = schema;
    }
    return { all, byType };
  });
  return schemaPromise;
}

/** Every action type the API takes, by name. */
export async function actionTypes() {
  return Object.keys((await actionSchemas()).byType).sort();
}

function resolve(schema, all) {
  while (schema?.$ref) schema = all[schema.$ref.split("/").pop()];
  return schema || {};
}

/** The schema without its `null` alternative, and whether null was allowed. */
function nonNull(schema, all) {
  const options = schema.anyOf || schema.oneOf;
  if (!options) return [resolve(schema, all), false];
  const rest = options.filter((o) => o.type !== "null");
  return [rest.length === 1 ? resolve(rest[0], all) : { anyOf: rest }, rest.length < options.length];
}

function isPosition(schema) {
  return schema.title === "Position";
}

/** A number or a text (a track's value): typed as text, a number when it reads as one. */
function isScalar(schema, all) {
  return Boolean(schema.anyOf) && schema.anyOf.every((o) => ["string", "integer", "number"].includes(resolve(o, all).type));
}

/** Turn "10, 12" / "1508" / "reserve" into a Position. */
export function parsePosition(text) {
  const t = text.trim();
  const xy = t.match(/^(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)$/);
  if (xy) return { x: Number(xy[1]), y: Number(xy[2]) };
  if (BOXES.includes(t)) return { box: t };
  return { hex: t };
}

function control(name, schema, all, required) {
  const [inner] = nonNull(schema, all);
  const common = { name, required: required || undefined };
  if (inner.enum) {
    return h("select", common, required ? null : h("option", { value: "" }, "—"),
      inner.enum.map((v) => h("option", { value: v, selected: v === schema.default || undefined }, v)));
  }
  if (inner.type === "boolean") return h("input", { ...common, type: "checkbox", required: undefined });
  if (inner.type === "integer" || inner.type === "number") {
    return h("input", { ...common, type: "number", inputmode: "numeric", step: inner.type === "integer" ? 1 : "any",
      min: inner.minimum, max: inner.maximum, value: schema.default ?? undefined });
  }
  if (isPosition(inner)) return h("input", { ...common, placeholder: "x, y (inches) or hex id or box" });
  if (isScalar(inner, all)) return h("input", { ...common, placeholder: "a number or a word" });
  if (inner.type === "array" && ["string", "integer"].includes(resolve(inner.items, all).type)) {
    return h("input", { ...common, placeholder: "comma separated" });
  }
  if (inner.type === "object" || inner.type === "array" || inner.anyOf) {
    return h("textarea", { ...common, rows: 2, placeholder: "JSON, e.g. {\"wound\": 1}" });
  }
  return h("input", { ...common, maxlength: inner.maxLength, value: schema.default ?? undefined });
}

function read(form, name, schema, all) {
  const el = form.elements[name];
  const [inner] = nonNull(schema, all);
  if (inner.type === "boolean") return el.checked;
  const text = el.value.trim();
  if (text === "") return undefined;
  if (inner.type === "integer" || inner.type === "number") return Number(text);
  if (isPosition(inner)) return parsePosition(text);
  if (isScalar(inner, all)) return text !== "" && !Number.isNaN(Number(text)) ? Number(text) : text;
  if (inner.type === "array" && ["string", "integer"].includes(resolve(inner.items, all).type)) {
    const items = text.split(",").map((x) => x.trim()).filter(Boolean);
    return resolve(inner.items, all).type === "integer" ? items.map(Number) : items;
  }
  if (inner.type === "object" || inner.type === "array" || inner.anyOf) {
    try { return JSON.parse(text); } catch { throw new Error(`${name}: not valid JSON`); }
  }
  return text;
}

/**
 * A form for action `type`, with `preset` values filled in; `submit(body)` is called with
 * the action to post. Returns the form element (fields appear once the schema is loaded).
 */
export function actionForm(type, preset, submit) {
  const form = h("form", { class: "action-form", "data-action": type });
  actionSchemas().then(({ all, byType }) => {
    const schema = byType[type];
    if (!schema) { form.append(h("p", {}, `Unknown action ${type}`)); return; }
    const required = new Set(schema.required || []);
    const names = Object.keys(schema.properties).filter((n) => n !== "type");
    if (schema.description) form.append(h("p", { class: "hint" }, schema.description.replaceAll("`", "")));
    for (const name of names) {
      const prop = schema.properties[name];
      const input = control(name, prop, all, required.has(name));
      if (preset[name] !== undefined) {
        if (input.type === "checkbox") input.checked = Boolean(preset[name]);
        else input.value = typeof preset[name] === "object" ? JSON.stringify(preset[name]) : preset[name];
      }
      form.append(field(`${name.replaceAll("_", " ")}${required.has(name) ? " *" : ""}`, input, prop.description));
    }
    form.append(h("button", { type: "submit" }, type.replaceAll("_", " ")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const body = { type };
      for (const name of names) {
        const value = read(form, name, schema.properties[name], all);
        if (value !== undefined) body[name] = value;
      }
      submit(body);
    });
  });
  return form;
}
