// The Annotations panel of the table page (docs/replay.md): the annotations this seat sees at
// the event the table shows (a chapter over its range), each of its own with Change and
// Delete (the referee deletes any, with a reason); a short form to add a comment or a chapter
// title there; and "Draw an arrow" (tap its start, then its end, on the map) and "Highlight
// units" (tap them, then save), drawn on the board by marks.js. Who sees it: only me, my
// side, everyone. A spectator reads the public ones and adds none. The list is the table's
// (`table.notes`, read with the views and kept up to date by the live stream).

import { api } from "./api.js";
import { $, field, h, notice } from "./dom.js";
import { authorWords, placeWords } from "./marks.js";

const SEEN_BY = [["private", "Only me"], ["side", "My side"], ["public", "Everyone"]];
const NEAR = 1.5;  // inches: a tap this close to a unit on the table is the unit's place

/** Fill `section` with the annotations at the event shown and the ways to add one. */
export function renderNotes(table, section) {
  table.fill(section, body(table, table.notes || []));
}

const here = (n, v) => n.at_version === v || (n.kind === "chapter" && n.at_version <= v && v <= (n.upto_version ?? n.at_version));
const names = (table) => Object.fromEntries(table.match.sides.map((s) => [s.id, s.name || s.id]));
const unitName = (table, id) => table.board.units.find((u) => u.id === id)?.name || "a unit not on the table now";

function words(table, n) {
  const where = (p) => placeWords(p, table.board.units, cityNames(table));
  const what = n.kind === "chapter" ? `Chapter: ${n.text}` : n.kind === "comment" ? n.text
    : n.kind === "arrow" ? `Arrow from ${where(n.start)} to ${where(n.end)}${n.text ? `: ${n.text}` : ""}`
      : n.kind === "highlight" ? `Units ringed: ${n.units.map((u) => unitName(table, u)).join(", ")}${n.text ? ` (${n.text})` : ""}`
        : `A what-if: match ${n.fork}${n.text ? ` (${n.text})` : ""}`;
  const who = authorWords(n.author, names(table));
  return [h("span", {}, what), h("span", { class: "meta" }, ` · ${who}${n.visibility === "public" ? "" : n.visibility === "side" ? " · your side" : " · only you"}`)];
}

const cityNames = (table) => Object.fromEntries((table.board.map?.cities || []).map((c) => [c.hex, c]));

function body(table, list) {
  const shown = table.at ?? table.head;
  const at = list.filter((n) => here(n, shown));
  const listed = at.length ? h("ul", { class: "notes" }, at.map((n) => h("li", { "data-note": n.id }, words(table, n), changes(table, n))))
    : h("p", { class: "hint" }, `No annotation at event ${shown}.`);
  if (table.viewer === "spectator") return [listed];
  return [listed,
    h("div", { class: "row note-draw" },
      h("button", { type: "button", id: "draw-arrow", onclick: () => drawArrow(table, shown) }, "Draw an arrow"),
      h("button", { type: "button", id: "highlight-units", onclick: () => highlightUnits(table, shown) }, "Highlight units")),
    form(table, shown)];
}

/** Who sees it: a select named `visibility`. */
const seenBy = (id, chosen = "private", label = "Who sees it") => field(label, h("select", { name: "visibility", id },
  SEEN_BY.map(([value, label]) => h("option", { value, selected: value === chosen || undefined }, label))));

const url = (table, id = "") => `/api/matches/${table.id}/annotations${id ? `/${id}` : ""}`;

/** Send an annotation (new or changed), then read the table again; a refusal is a notice. */
async function send(table, method, path, note, said) {
  try {
    await api(path, { token: table.token, method, body: note });
  } catch (error) {
    notice(error);
    return false;
  }
  table.placing = null;
  table.fresh = true;
  await table.refresh();
  notice(said, "ok");
  return true;
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
      send(table, "POST", url(table), note, note.kind === "chapter" ? `Chapter added at event ${shown}` : `Comment added at event ${shown}`)
        .then((done) => { if (done) f.text.value = ""; });
    },
  },
  field(`Comment or chapter title, at event ${shown}`, h("textarea", { name: "text", id: "note-text", rows: 2, maxlength: 2000 })),
  h("fieldset", { class: "row note-kind" }, h("legend", {}, "It is"),
    h("label", { class: "pick" }, h("input", { type: "radio", name: "kind", value: "comment", checked: true }), " A comment"),
    h("label", { class: "pick" }, h("input", { type: "radio", name: "kind", value: "chapter" }), " A chapter title")),
  seenBy("note-visibility"),
  h("button", { type: "submit", id: "add-note" }, `Add at event ${shown}`));
}

// ---- drawing by tapping: the board's placing mode (units.js), a draft drawn by marks.js ----

/** A unit's place as an arrow's end: its hex, else its point on the table. */
const placeOf = (u) => (u.position?.hex ? { hex: u.position.hex } : { x: u.position.x, y: u.position.y });

/** A tap as an arrow's end: a tap on the table near a unit is the unit's own place. */
function snap(table, at) {
  if (at.hex) return at;
  let best = null;
  for (const u of table.board.units) {
    const p = u.position;
    if (!p || p.x === null || p.x === undefined) continue;
    const d = Math.hypot(p.x - at.x, p.y - at.y);
    if (d <= NEAR && (!best || d < best.d)) best = { d, u };
  }
  return best ? placeOf(best.u) : at;
}

function showBoard() {
  $("#board")?.scrollIntoView({ block: "start" });
}

/** "Draw an arrow": tap its start (a unit or a place), then its end; then words, who sees it,
 *  and Save. A tap on the map after that moves its end. `editing`: an arrow of one's own
 *  whose ends are tapped again. */
function drawArrow(table, shown, editing = null) {
  const end = (start) => (to) => ready(table, shown, start, snap(table, to), editing);
  const first = (at) => {
    const start = snap(table, at);
    const draft = { kind: "arrow", draft: true, author: table.viewer, at_version: shown, start, end: start };
    table.placing = { prompt: `The arrow starts at ${placeWords(start, table.board.units, cityNames(table))}. Now tap where it ends.`,
      draft, place: end(start), unit: (uid) => end(start)(placeOf(table.board.units.find((u) => u.id === uid))), chosen: [] };
    table.render();
  };
  table.placing = { prompt: `Tap where the arrow starts, on the map or a unit's name under it (event ${shown}).`,
    place: first, unit: (uid) => first(placeOf(table.board.units.find((u) => u.id === uid))), chosen: [] };
  table.render();
  showBoard();
}

function ready(table, shown, start, end, editing) {
  const where = (p) => placeWords(p, table.board.units, cityNames(table));
  const draft = { kind: "arrow", draft: true, author: table.viewer, at_version: shown, start, end, text: editing?.text || "" };
  const saved = editing ? "Arrow moved" : `Arrow added at event ${shown}`;
  const prompt = h("form", {
    class: "stack", "data-key": "draw-arrow", "aria-label": "Save the arrow",
    onsubmit: (ev) => {
      ev.preventDefault();
      const f = ev.target.elements;
      if (editing) send(table, "PATCH", url(table, editing.id), { start, end }, saved);
      else send(table, "POST", url(table), { kind: "arrow", at_version: shown, start, end, text: f.text.value.trim(), visibility: f.visibility.value }, saved);
    },
  },
  h("p", { class: "said" }, `Arrow from ${where(start)} to ${where(end)}. Tap the map again to move its end.`),
  editing ? null : field("Words on it (if you like)", h("textarea", { name: "text", id: "arrow-text", rows: 2, maxlength: 2000 })),
  editing ? null : seenBy("arrow-visibility"),
  h("button", { type: "submit", id: "save-arrow" }, editing ? "Save its new ends" : `Save the arrow at event ${shown}`));
  table.placing = { prompt, draft, place: (to) => ready(table, shown, start, snap(table, to), editing),
    unit: (uid) => ready(table, shown, start, placeOf(table.board.units.find((u) => u.id === uid)), editing), chosen: [] };
  table.render();
}

/** "Highlight units": tap units on the map (or their names under it) to ring them, then Save.
 *  `editing`: a highlight of one's own whose units are chosen again. */
function highlightUnits(table, shown, editing = null) {
  const chosen = editing ? [...editing.units] : [];
  const again = () => {
    const draft = { kind: "highlight", draft: true, author: table.viewer, at_version: shown, units: [...chosen] };
    const prompt = h("form", {
      class: "stack", "data-key": "highlight", "aria-label": "Save the highlight",
      onsubmit: (ev) => {
        ev.preventDefault();
        if (!chosen.length) { notice("Tap at least one unit first"); return; }
        const f = ev.target.elements;
        if (editing) send(table, "PATCH", url(table, editing.id), { units: chosen }, "Highlight changed");
        else send(table, "POST", url(table), { kind: "highlight", at_version: shown, units: chosen, text: f.text.value.trim(), visibility: f.visibility.value }, `Units highlighted at event ${shown}`);
      },
    },
    h("p", { class: "said", "aria-live": "polite" }, chosen.length ? `Ringed: ${chosen.map((u) => unitName(table, u)).join(", ")}. Tap a unit again to take it out.`
      : `Tap the units to highlight, on the map or by their names under it (event ${shown}).`),
    editing ? null : field("Words on it (if you like)", h("textarea", { name: "text", id: "highlight-text", rows: 2, maxlength: 2000 })),
    editing ? null : seenBy("highlight-visibility"),
    h("button", { type: "submit", id: "save-highlight" }, editing ? "Save the units" : `Save the highlight at event ${shown}`));
    table.placing = { prompt, draft, chosen, unit: (uid) => {
      const i = chosen.indexOf(uid);
      if (i >= 0) chosen.splice(i, 1); else chosen.push(uid);
      again();
    } };
    table.render();
  };
  again();
  showBoard();
}

// ---- changing and deleting ----------------------------------------------------------------

/** Change and Delete for one's own annotation; Delete with a reason for the referee's view of
 *  another's. Nothing for anyone else (the domain would refuse it anyway). */
function changes(table, n) {
  const mine = n.author === table.viewer;
  if (!mine && table.viewer !== "referee") return null;
  const key = `note-${n.id}`;
  const del = (f) => {
    const reason = f.reason?.value.trim() || "";
    if (!mine && !reason) { notice("Say why you delete it: the reason is kept"); return; }
    api(`${url(table, n.id)}?reason=${encodeURIComponent(reason)}`, { token: table.token, method: "DELETE", raw: true })
      .then(async () => { table.fresh = true; await table.refresh(); notice("Annotation deleted", "ok"); })
      .catch((error) => notice(error));
  };
  if (!mine) {
    return h("details", { class: "note-change", "data-key": key }, h("summary", {}, "Delete (referee)"),
      h("form", { class: "stack", onsubmit: (ev) => { ev.preventDefault(); del(ev.target.elements); } },
        field("Why it is deleted", h("input", { name: "reason", id: `reason-${n.id}`, maxlength: 500 })),
        h("button", { type: "submit", class: "danger" }, "Delete it")));
  }
  const ranged = n.kind === "chapter";
  return h("details", { class: "note-change", "data-key": key }, h("summary", {}, "Change or delete"),
    h("form", {
      class: "stack",
      onsubmit: (ev) => {
        ev.preventDefault();
        const f = ev.target.elements;
        const change = { text: f.text.value.trim(), visibility: f.visibility.value };
        if (ranged) Object.assign(change, { at_version: Number(f.from.value), upto_version: Number(f.upto.value) });
        send(table, "PATCH", url(table, n.id), change, "Annotation changed");
      },
    },
    field(ranged ? "Title" : "Words", h("textarea", { name: "text", id: `text-${n.id}`, rows: 2, maxlength: 2000, text: n.text })),
    ranged ? h("div", { class: "row" },
      field("From event", h("input", { name: "from", id: `from-${n.id}`, type: "number", min: 1, max: table.head, value: n.at_version })),
      field("To event", h("input", { name: "upto", id: `upto-${n.id}`, type: "number", min: 1, max: table.head, value: n.upto_version ?? n.at_version }))) : null,
    seenBy(`visibility-${n.id}`, n.visibility, "Who may see it"),
    h("div", { class: "row" },
      h("button", { type: "submit" }, "Save changes"),
      n.kind === "arrow" ? h("button", { type: "button", class: "secondary", onclick: () => drawArrow(table, n.at_version, n) }, "Tap its ends again") : null,
      n.kind === "highlight" ? h("button", { type: "button", class: "secondary", onclick: () => highlightUnits(table, n.at_version, n) }, "Tap its units again") : null,
      h("button", { type: "button", class: "danger", onclick: (ev) => del(ev.target.form.elements) }, "Delete it"))));
}

