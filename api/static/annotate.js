// The Annotations panel of the table page (docs/replay.md): the annotations this seat sees at
// the event the table shows (a chapter over its range), and a short form to add a comment or
// a chapter title there, by tapping: who sees it (only me, my side, everyone). A spectator
// reads the public ones and adds none. The list is read again when the match moves on or
// the table shows another event.

import { api } from "./api.js";
import { field, h, notice } from "./dom.js";

const held = new WeakMap();  // table -> { key: the head and event shown, list }
const SEEN_BY = [["private", "Only me"], ["side", "My side"], ["public", "Everyone"]];

/** Fill `section` with the annotations at the event shown (read when the head moves). */
export function renderNotes(table, section) {
  const known = held.get(table);
  if (!known || known.key !== `${table.head}:${table.at}`) load(table, section, known?.list || []);
  table.fill(section, body(table, held.get(table).list));
}

async function load(table, section, list) {
  const entry = { key: `${table.head}:${table.at}`, list };
  held.set(table, entry);
  try {
    entry.list = (await api(`/api/matches/${table.id}/annotations`, { token: table.token })).annotations;
  } catch {
    return;  // shown again at the next update
  }
  if (held.get(table) === entry) table.fill(section, body(table, entry.list));
}

const here = (n, v) => n.at_version === v || (n.kind === "chapter" && n.at_version <= v && v <= (n.upto_version ?? n.at_version));

function words(table, n) {
  const what = n.kind === "chapter" ? `Chapter: ${n.text}` : n.kind === "comment" ? n.text
    : n.kind === "arrow" ? `An arrow${n.text ? `: ${n.text}` : ""}` : n.kind === "highlight" ? `Units marked: ${n.units.join(", ")}${n.text ? ` (${n.text})` : ""}`
      : `A what-if: match ${n.fork}${n.text ? ` (${n.text})` : ""}`;
  const who = n.author === "referee" ? "the referee" : table.sideName(n.author);
  return [h("span", {}, what), h("span", { class: "meta" }, ` · ${who}${n.visibility === "public" ? "" : n.visibility === "side" ? " · your side" : " · only you"}`)];
}

function body(table, list) {
  const shown = table.at ?? table.head;
  const at = list.filter((n) => here(n, shown));
  const listed = at.length ? h("ul", { class: "notes" }, at.map((n) => h("li", { "data-note": n.id }, words(table, n))))
    : h("p", { class: "hint" }, `No annotation at event ${shown}.`);
  return [listed, table.viewer === "spectator" ? null : form(table, shown)];
}

function form(table, shown) {
  return h("form", {
    class: "stack notes-form", "aria-label": `Annotate event ${shown}`, "data-key": "notes",
    onsubmit: (ev) => {
      ev.preventDefault();
      const f = ev.target.elements;
      const text = f.text.value.trim();
      if (!text) { notice("Write the comment or the chapter's title first"); return; }
      const note = { kind: f.kind.value, at_version: shown, text, visibility: f.visibility.value };
      api(`/api/matches/${table.id}/annotations`, { token: table.token, method: "POST", body: note })
        .then(() => {
          f.text.value = "";
          notice(note.kind === "chapter" ? `Chapter added at event ${shown}` : `Comment added at event ${shown}`, "ok");
          held.delete(table);
          renderNotes(table, table.sections.notes);
        })
        .catch((error) => notice(error));
    },
  },
  field(`Comment or chapter title, at event ${shown}`, h("textarea", { name: "text", id: "note-text", rows: 2, maxlength: 2000 })),
  h("fieldset", { class: "row note-kind" }, h("legend", {}, "It is"),
    h("label", { class: "pick" }, h("input", { type: "radio", name: "kind", value: "comment", checked: true }), " A comment"),
    h("label", { class: "pick" }, h("input", { type: "radio", name: "kind", value: "chapter" }), " A chapter title")),
  field("Who sees it", h("select", { name: "visibility", id: "note-visibility" },
    SEEN_BY.map(([value, label]) => h("option", { value }, label)))),
  h("button", { type: "submit", id: "add-note" }, `Add at event ${shown}`));
}
