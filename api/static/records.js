// The Disputes panel (and the referee's rulings), the Export panel and the Seats panel (who
// sits where, the links, the dice commitment, the referee's reveal and fork).

import { api, devices } from "./api.js";
import { field, h, notice, saveBlob } from "./dom.js";
import { matchLink } from "./lobby.js";

const EXPORTS = [
  ["jsonl", "Match file (JSONL)", "jsonl"],
  ["html", "Report (HTML)", "html"],
  ["md", "Report (Markdown)", "md"],
  ["csv", "Dice (CSV)", "csv"],
  ["dice", "Dice statistics (JSON)", "json"],
];

export function renderDisputes(table) {
  if (!table.disputes.length) return h("p", { class: "hint" }, "No dispute. Open one from an event of the log.");
  const referee = table.viewer === "referee" && table.at === null;
  return h("ul", { class: "disputes" }, table.disputes.map(({ dispute: d, ruling }) => h("li", {},
    h("p", {}, h("strong", {}, `#${d.version}`), ` about v${d.about_version}${d.upto_version ? `–${d.upto_version}` : ""} by ${table.sideName(d.actor)}: ${d.text}`),
    ruling ? h("p", { class: "ruling" }, `Ruling: ${ruling.ruling}${ruling.order !== "none" ? ` (${ruling.order}${ruling.to ? ` to v${ruling.to}` : ""})` : ""}`)
      : referee ? h("form", {
        class: "stack", "aria-label": `Rule on dispute ${d.version}`, "data-key": `ruling:${d.version}`,
        onsubmit: (ev) => {
          ev.preventDefault();
          const f = ev.target.elements;
          const body = { ruling: f.ruling.value.trim(), order: f.order.value };
          if (f.to.value) body.to = Number(f.to.value);
          table.post(`/disputes/${d.version}/ruling`, body, (done) => (done.match_id ? `Ruled; the what-if is match ${done.match_id}` : "Ruled"))
            .then((done) => keepFork(table, done));
        },
      }, field("Ruling", h("textarea", { name: "ruling", required: true, rows: 2, maxlength: 2000 })),
      h("div", { class: "row" },
        field("Order", h("select", { name: "order" }, ["none", "undo", "reroll", "fork"].map((o) => h("option", { value: o }, o)))),
        field("Back to version", h("input", { name: "to", type: "number", min: 1, max: table.head, value: d.about_version > 1 ? d.about_version - 1 : 1 }))),
      h("button", { type: "submit" }, "Record the ruling")) : h("p", { class: "hint" }, "Waiting for the referee's ruling."))));
}

function keepFork(table, done) {
  const fork = done?.fork || (done?.tokens ? done : null);
  if (!fork?.match_id || !fork.tokens) return;
  devices.save(fork.match_id, { tokens: fork.tokens, seat: "referee", scenario: `${table.match.scenario} (what-if)`, ruleset: table.match.ruleset });
  notice(`The what-if is ready: ${location.origin}/play/${fork.match_id}`, "ok");
}

export function renderExports(table) {
  return h("div", { class: "row" }, EXPORTS.map(([format, label, ext]) => h("button", {
    type: "button", class: "secondary", "data-format": format,
    onclick: async () => {
      try {
        const response = await api(`/api/matches/${table.id}/export?format=${format}`, { token: table.token, raw: true });
        saveBlob(await response.blob(), `battlelog-${table.id.slice(0, 8)}.${format === "dice" ? "dice." : ""}${ext}`);
      } catch (error) { notice(error); }
    },
  }, label)));
}

export function renderSeats(table) {
  const tokens = table.entry.tokens;
  const taken = new Map(table.match.seats.map((seat) => [seat.side ?? "referee", seat.player]));
  const rows = table.match.sides.map((side) => {
    const join = tokens[`join:${side.id}`];
    const here = tokens[side.id];
    return h("li", {}, h("strong", {}, side.name), taken.has(side.id) ? ` — ${taken.get(side.id)}` : " — open",
      join && !taken.has(side.id) && !here ? h("div", { class: "row" },
        h("input", { readonly: true, value: matchLink(table.id, "join", join), "aria-label": `Join link for ${side.name}`, onfocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "secondary", onclick: () => location.assign(matchLink(table.id, "join", join).replace(location.origin, "")) }, "Take this seat here")) : null);
  });
  const spectator = tokens.spectator;
  const shown = table.at ?? table.head;
  return [
    h("ul", { class: "seats" }, rows),
    spectator ? field("Spectator link", h("input", { readonly: true, value: matchLink(table.id, "seat", spectator), onfocus: (e) => e.target.select() })) : null,
    h("p", { class: "hint" }, `Dice commitment ${table.match.dice_commitment.slice(0, 16)}…, chain head ${table.match.chain_head.slice(0, 16)}…`),
    table.viewer === "referee" ? h("div", { class: "row" },
      table.at === null && !table.match.outcome ? h("button", { type: "button", class: "secondary", onclick: () => table.post("/dice/reveal", undefined, "The dice seed is revealed; a fresh one is committed") }, "Reveal the dice seed now") : null,
      h("button", {
        type: "button", class: "secondary", id: "fork",
        onclick: async () => keepFork(table, await table.post(`/fork?at=${shown}`, undefined)),
      }, `Fork a what-if at version ${shown}`)) : null,
  ];
}
