// The Dice panel (the initiative of this turn, your last roll, the game's dice as buttons
// that roll at once, the roller for any other roll, the recent rolls, each said in words:
// the log's `said`) and the Victory points panel.

import { diceFaces, vpChart } from "./board.js";
import { field, h } from "./dom.js";

/** A roll's faces: with its total, unless its dice are tested one by one (the sentence then
 *  counts the passes: "2 of 3 dice passed (needed 4+)"), where a sum would mislead. */
function faces(roll, words) {
  if (!words || !/(passed|failed) \(needed /.test(words)) return diceFaces(roll);
  return h("span", { class: "dice", "aria-label": `${roll.notation}: ${roll.dice.join(", ")}` },
    roll.dice.map((d) => h("span", { class: "die" }, d)));
}

/** The sentence the log gives the event at `version`, if the page holds it (a roll older
 *  than the page's log is said by who rolled what, never by its purpose's ids). */
function said(table, version) {
  return table.log?.find((e) => e.version === version)?.said || null;
}

/** This turn's initiative (the rolls, any re-roll, the order, a hand-over), in words. */
function initiative(table) {
  const turn = table.board.turn.turn;
  const events = (table.log || []).filter((e) => e.turn === turn && (e.type === "InitiativeRolled" || e.type === "InitiativePassed") && e.said);
  if (!events.length) return null;
  const newest = (list) => list.reduce((a, b) => (a === null || b.version > a.version ? b : a), null);
  const last = newest(events);
  const rolled = newest(events.filter((e) => e.type === "InitiativeRolled"));
  const lines = [rolled, last.type === "InitiativePassed" ? last : null].filter(Boolean);
  return h("div", { class: "initiative", id: "initiative-said" }, lines.map((e) => h("p", { class: "initiative-said" }, e.said)));
}

export function renderDice(table) {
  const out = [];
  if (table.at === null) out.push(initiative(table));
  if (table.lastRoll && table.at === null) {
    const words = said(table, table.lastRoll.version);
    out.push(h("div", { class: "last-roll", id: "last-roll" },
      h("span", { class: "label" }, "Your roll: "), faces(table.lastRoll, words),
      h("p", { class: "said" }, words || table.lastRoll.said || "")));
  }
  if (table.canAct) {
    // the game's dice, one tap each (the service's dice), from the legal answer's free roll:
    // its notations and what it is for (the duty's words where this seat owes a roll)
    const free = table.legal?.actions.find((a) => a.type === "roll_dice")?.choices[0];
    const listed = free?.inputs?.find((i) => i.name === "notation")?.values || [];
    if (listed.length) {
      out.push(h("div", { class: "row dice-quick", role: "group", "aria-label": `Roll ${free.body.purpose || "dice"} here` },
        h("p", { class: "hint" }, `Roll here, for ${free.body.purpose || "a roll"}:`),
        listed.map((v) => h("button", {
          type: "button", class: "big secondary",
          onclick: () => table.act({ ...structuredClone(free.body), notation: v.value }, "Roll"),
        }, v.label ?? String(v.value)))));
    }
    out.push(h("form", {
      class: "row dice-roller", "aria-label": "Roll dice", "data-key": "dice",
      onsubmit: (e) => {
        e.preventDefault();
        const f = e.target.elements;
        const body = { type: "roll_dice", notation: f.notation.value.trim(), purpose: f.purpose.value.trim(), source: f.source.value };
        if (f.source.value === "table") body.results = f.results.value.split(",").map((x) => Number(x.trim())).filter((x) => !Number.isNaN(x));
        table.act(body, "Roll");
      },
    },
    field("Dice to roll", h("input", { name: "notation", required: true, value: "2d6", size: 6, maxlength: 16, pattern: "[0-9]*d[0-9]+([+\\-][0-9]+)?" })),
    field("Purpose", h("input", { name: "purpose", required: true, maxlength: 200, placeholder: "e.g. MG fires at 1st Squad" })),
    field("Dice from", h("select", { name: "source" }, h("option", { value: "server" }, "the server"), h("option", { value: "table" }, "the table"))),
    field("Table faces", h("input", { name: "results", placeholder: "e.g. 3, 5", size: 8 })),
    h("button", { type: "submit" }, "Roll")));
  }
  const recent = [...(table.board.recent_rolls || [])].reverse().slice(0, 6);
  if (recent.length) {
    out.push(h("ul", { class: "rolls words", "aria-label": "Recent rolls" }, recent.map((r) => {
      const words = said(table, r.version);
      return h("li", {}, faces(r, words), h("span", { class: "said" }, ` ${words || `${table.seatName(r.roller)} rolled ${r.notation}.`}`));
    })));
  }
  return out;
}

export function renderVP(table) {
  const vp = table.board.vp;
  return [
    h("table", { class: "vp" }, h("tbody", {}, vp.tracks.map((t) => h("tr", {}, h("th", { scope: "row" }, t.name), h("td", { class: "num" }, t.points))))),
    table.board.turn.turn > 1 || vp.tracks.some((t) => t.points) ? vpChart(vp, table.match.sides, table.board.turn.turn) : null,
    h("p", { class: "hint" }, vp.leader ? `${table.sideName(vp.leader)} leads.` : "Level."),
  ];
}
