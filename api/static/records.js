// The Disputes panel (and the referee's rulings), the Export panel and the Seats panel (who
// sits where, the links with their Copy buttons, the what-ifs forked on this device as links,
// the dice commitment, the referee's reveal of the dice seed, asked first, and fork).

import { api, devices } from "./api.js";
import { field, h, notice, saveBlob } from "./dom.js";
import { renderRollCheck } from "./integrity.js";
import { shareLink } from "./links.js";
import { matchLink } from "./lobby.js";

const EXPORTS = [
  ["jsonl", "Match file (JSONL)", "jsonl"],
  ["md", "Report (Markdown)", "md"],
  ["csv", "Dice (CSV)", "csv"],
  ["dice", "Dice statistics (JSON)", "json"],
];

export function renderDisputes(table) {
  if (!table.disputes.length) return h("p", { class: "hint" }, "No dispute. Open one from an event of the log.");
  const referee = table.viewer === "referee" && table.at === null;
  return h("ul", { class: "disputes" }, table.disputes.map(({ dispute: d, ruling, about }) => h("li", {},
    h("p", {}, d.said || `${table.seatName(d.actor)} disputed: ${d.text}`),
    ruling ? h("p", { class: "ruling" }, ruling.said || `Ruling: ${ruling.ruling}`)
      : referee ? rulingForm(table, d, about) : h("p", { class: "hint" }, "Waiting for the referee's ruling."))));
}

/** The outcomes a ruling may order, from what the dispute is about, in words (docs/
 *  disputes.md): [value, words, the version `to` sent]. A roll of the dice may be rolled
 *  again; any event may be taken back or played out as a what-if from just before it. */
function outcomes(d, about) {
  const said = (about?.said || `event ${d.about_version}`).replace(/\.$/, "");
  const before = d.about_version - 1;  // the match's creation has no "before"
  return [
    about?.type === "DiceRolled" ? ["reroll", "Roll again", d.about_version] : null,
    before >= 1 ? ["undo", `Take back to before: ${said}`, before] : null,
    before >= 1 ? ["fork", `Play it out as a what-if from before: ${said}`, before] : null,
    ["none", "Leave the match as it is", null],
  ].filter(Boolean);
}

/** The referee's ruling: an outcome picked in words, and the ruling said to the table. */
function rulingForm(table, d, about) {
  const picks = outcomes(d, about);
  return h("form", {
    class: "stack", "aria-label": `Rule on: ${about?.said || d.text}`, "data-key": `ruling:${d.version}`,
    onsubmit: (ev) => {
      ev.preventDefault();
      const f = ev.target.elements;
      const [order, , to] = picks.find(([value]) => value === f.outcome.value);
      const body = { ruling: f.ruling.value.trim(), order };
      if (to !== null) body.to = to;
      table.post(`/disputes/${d.version}/ruling`, body, (done) => (done.match_id ? "Ruled; the what-if is ready under Seats" : "Ruled"))
        .then((done) => keepFork(table, done, body.to));
    },
  },
  h("fieldset", { class: "stack outcomes" }, h("legend", {}, "What happens"),
    picks.map(([value, words]) => h("label", { class: "pick outcome" },
      // nothing changes unless the referee picks it
      h("input", { type: "radio", name: "outcome", value, checked: value === "none" || undefined }), ` ${words}`))),
  field("Your ruling, said to the table", h("textarea", { name: "ruling", required: true, rows: 2, maxlength: 2000 })),
  h("button", { type: "submit" }, "Record the ruling"));
}

/** Keep a new what-if's seats on this device and show its link under Seats, focused. */
function keepFork(table, done, at) {
  const fork = done?.fork || (done?.tokens ? done : null);
  if (!fork?.match_id || !fork.tokens) return;
  devices.save(fork.match_id, { tokens: fork.tokens, seat: "referee", from: table.id, at,
    scenario: `${table.match.scenario} (what-if from event ${at})`, ruleset: table.match.ruleset });
  table.fill(table.sections.seats, renderSeats(table));
  const link = document.getElementById(`what-if-${fork.match_id}`);
  link?.focus();
  link?.scrollIntoView({ block: "center" });
  notice(`The what-if from event ${at} is ready: open it from its link under Seats.`, "ok");
}

/** Save what `path` answers with this seat's token as a file named `name`. */
async function download(table, path, name, button) {
  button.disabled = true;
  try {
    const response = await api(path, { token: table.token, raw: true });
    saveBlob(await response.blob(), name);
  } catch (error) { notice(error); } finally { button.disabled = false; }
}

/** The records to take away: the replay file (this seat's own view, docs/replay.md), the
 *  after-action report at its own address (a link that opens again, docs/reports.md), and
 *  the exports. */
export function renderExports(table) {
  const short = table.id.slice(0, 8);
  return h("div", { class: "row" },
    h("button", {
      type: "button", class: "secondary", id: "replay-file",
      onclick: (e) => download(table, `/api/matches/${table.id}/replay`, `battlelog-${short}.replay.html`, e.currentTarget),
    }, "Replay file"),
    h("a", { class: "button secondary", id: "report-link", href: `/matches/${table.id}/report`, target: "_blank", rel: "noopener" },
      "Report (opens in a new tab)"),
    EXPORTS.map(([format, label, ext]) => h("button", {
      type: "button", class: "secondary", "data-format": format,
      onclick: (e) => download(table, `/api/matches/${table.id}/export?format=${format}`,
        `battlelog-${short}.${format === "dice" ? "dice." : ""}${ext}`, e.currentTarget),
    }, label)));
}

export function renderSeats(table) {
  const tokens = table.entry.tokens;
  const taken = new Map(table.match.seats.map((seat) => [seat.side ?? "referee", seat.player]));
  const rows = table.match.sides.map((side) => {
    const join = tokens[`join:${side.id}`];
    const here = tokens[side.id];
    return h("li", {}, h("strong", {}, side.name), taken.has(side.id) ? ` — ${taken.get(side.id)}` : " — open",
      join && !taken.has(side.id) && !here ? shareLink(matchLink(table.id, "join", join), `Join link for ${side.name}`,
        h("button", { type: "button", class: "secondary", onclick: () => location.assign(matchLink(table.id, "join", join).replace(location.origin, "")) }, "Take this seat here")) : null);
  });
  const spectator = tokens.spectator;
  const shown = table.at ?? table.head;
  const referee = table.viewer === "referee";
  return [
    h("ul", { class: "seats" }, rows),
    spectator ? h("div", { class: "seats-spectator" }, h("strong", {}, "Spectators"), shareLink(matchLink(table.id, "seat", spectator), "Spectator link")) : null,
    whatIfs(table),
    h("p", { class: "hint" }, `Dice commitment ${table.match.dice_commitment.slice(0, 16)}…, chain head ${table.match.chain_head.slice(0, 16)}…`),
    renderRollCheck(table),
    referee ? h("div", { class: "seat-tools" },
      table.at === null && !table.match.outcome ? revealControl(table) : null,
      h("button", {
        type: "button", class: "secondary", id: "fork",
        onclick: async () => keepFork(table, await table.post(`/fork?at=${shown}`, undefined), shown),
      }, table.at === null ? "Fork a what-if from now" : "Fork a what-if from this moment")) : null,
  ];
}

/** The what-ifs forked from this match on this device, each a link to its table. */
function whatIfs(table) {
  const forks = Object.entries(devices.all()).filter(([, entry]) => entry.from === table.id);
  if (!forks.length) return null;
  return h("div", { class: "what-ifs" }, h("h3", {}, "What-ifs from this match"),
    h("ul", {}, forks.map(([id, entry]) => h("li", {},
      h("a", { href: `/play/${id}`, id: `what-if-${id}` }, entry.scenario || id)))));
}

const CARDS = {
  own: "Hands and deck orders stay hidden: cards are shuffled from a seed of their own, revealed only when the match ends.",
  dice: "Hands and deck orders become known: this match is older than card seeds, so its decks were dealt and shuffled from this dice seed.",
  unknown: "Hands and deck orders stay hidden, unless this match is older than card seeds: its decks then come from this dice seed.",
};

/** Where this match's decks come from: "own" (a card seed), "dice" (a match from before card
 *  seeds) or "none" (no decks), read once from its first event. */
async function cardSource(table) {
  if (!table.cardSource) {
    const { events: [created] } = await api(`/api/matches/${table.id}/events?limit=1`, { token: table.token });
    table.cardSource = !Object.keys(created.decks || {}).length ? "none" : created.card_commitment ? "own" : "dice";
  }
  return table.cardSource;
}

/** Reveal the dice seed, after saying what that reveals (docs/integrity.md) and asking. */
function revealControl(table) {
  const cards = h("li", {}, "…");
  const said = (source) => { if (source === "none") cards.remove(); else cards.textContent = CARDS[source]; };
  if (table.cardSource) said(table.cardSource);
  return h("details", {
    class: "inline", "data-key": "reveal",
    ontoggle: (e) => { if (e.target.open) cardSource(table).then(said, () => said("unknown")); },
  }, h("summary", {}, "Reveal the dice seed now…"),
  h("div", { class: "stack", role: "group", "aria-labelledby": "reveal-q" },
    h("p", { id: "reveal-q" }, h("strong", {}, "Reveal the dice seed to every seat?"), " It settles a dispute over the dice:"),
    h("ul", { class: "reveal-facts" },
      h("li", {}, "Every seat can then check each die the server has rolled with it: battlelog verify recomputes them from the match file."),
      h("li", {}, "Rolls to come stay secret: a fresh seed is committed at once, so no later roll can be worked out."),
      cards,
      h("li", {}, "It cannot be taken back: the log shows the seed to every seat, and undo does not hide it.")),
    h("div", { class: "row" },
      h("button", {
        type: "button", class: "danger", id: "reveal-seed",
        onclick: () => table.post("/dice/reveal", undefined, "The dice seed is revealed to every seat; a fresh secret one is committed for the rolls to come."),
      }, "Yes, reveal the dice seed"),
      h("button", { type: "button", class: "secondary", onclick: (e) => { e.target.closest("details").open = false; } }, "Cancel"))));
}
