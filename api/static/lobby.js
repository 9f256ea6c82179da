// The lobby: matches this device holds seats in, a new match, joining with a link or token.

import { api, devices, STORAGE_KEY } from "./api.js";
import { field, h, notice, panel } from "./dom.js";
import { rulesetUpload } from "./ruleset_upload.js";
import { scenarioForm } from "./scenario_form.js";
import { followWaiting } from "./waiting.js";

export function matchLink(id, kind, token) {
  return `${location.origin}/play/${id}#${kind}=${encodeURIComponent(token)}`;
}

/** This device's matches, the latest first. */
function held() {
  return Object.entries(devices.all()).sort((a, b) => (b[1].saved || "").localeCompare(a[1].saved || ""));
}

function matchItem(id, entry, titles) {
  const name = entry.scenario || "A match";
  const you = entry.seat === "referee" ? "you referee" : entry.seatName ? `you play ${entry.seatName}` : "you play a side";
  return h("li", { "data-id": id },
    h("a", { href: `/play/${id}` }, name),
    h("span", { class: "meta" }, [titles[entry.ruleset], you].filter(Boolean).join(" · ")),
    h("button", { type: "button", class: "quiet", "aria-label": `Forget ${name} on this device`,
      onclick: (e) => { devices.forget(id); e.target.closest("li").remove(); } }, "Forget"));
}

/** The matches on this device, kept current while the lobby is shown: each round of the
 *  whose-turn reads (waiting.js) first adds the matches this device took meanwhile (in
 *  another tab or window: a match started, a seat joined), and a change to this device's
 *  matches in another tab starts a round at once (docs/lobby.md). */
function yourMatches(titles) {
  const empty = h("p", { class: "hint" }, "No match on this device yet: start one below, or join with a link.");
  const list = h("ul", { class: "matches" });
  const current = () => {
    const now = held();
    const shown = new Set([...list.children].map((li) => li.dataset.id));
    const added = now.filter(([id]) => !shown.has(id)).map(([id, entry]) => matchItem(id, entry, titles));
    if (added.length) list.prepend(...added);
    empty.hidden = list.children.length > 0;
    return now;
  };
  current();
  const round = followWaiting(list, current);  // whose turn in each, "Your move" first (waiting.js)
  window.addEventListener("storage", (e) => { if (e.key === null || e.key === STORAGE_KEY) round(); });
  return [empty, list];
}

async function create(body) {
  const created = await api("/api/matches", { method: "POST", body });
  devices.save(created.match_id, { tokens: created.tokens, seat: "referee", scenario: body.scenario, ruleset: body.ruleset });
  location.assign(`/play/${created.match_id}`);
}

function sampleForm(samples, titles) {
  const select = h("select", { name: "sample", id: "sample" },
    samples.map((x) => h("option", { value: x.name }, x.scenario)));
  const about = h("small", { class: "hint" });
  const say = () => {
    const chosen = samples.find((x) => x.name === select.value);
    about.textContent = chosen ? `${chosen.title || titles[chosen.ruleset] || "A game"}: ${chosen.units} units, ${chosen.sides.length} sides` : "";
  };
  select.addEventListener("change", say);
  say();
  return h("form", {
    class: "stack", "aria-label": "Start a sample scenario",
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        const body = await api(`/api/scenarios/${encodeURIComponent(select.value)}`);
        await create(body);
      } catch (error) { notice(error); }
    },
  }, field("Sample scenario", select), about, h("button", { type: "submit" }, "Start this match"));
}

function joinForm() {
  return h("form", {
    class: "stack", "aria-label": "Open a link",
    onsubmit: (event) => {
      event.preventDefault();
      const text = event.target.elements.link.value.trim();
      try {
        const url = new URL(text);
        if (!url.pathname.startsWith("/play/")) throw new Error("not a battlelog match link");
        location.assign(url.pathname + url.hash);
      } catch {
        notice("Paste the whole link you were sent (it looks like …/play/<match>#join=…).");
      }
    },
  }, field("Link", h("input", { name: "link", required: true, type: "url", placeholder: "http://…/play/…#join=…" })),
  h("button", { type: "submit" }, "Open"));
}

function tokenForm() {
  return h("form", {
    class: "stack", "aria-label": "Open with a match code and token",
    onsubmit: (event) => {
      event.preventDefault();
      const f = event.target.elements;
      const id = f.match.value.trim().toLowerCase();
      if (!/^[0-9a-f-]{36}$/.test(id)) { notice("A match code looks like 0f8e…-…: 36 characters."); return; }
      location.assign(`/play/${id}#token=${encodeURIComponent(f.token.value.trim())}`);
    },
  },
  field("Match code", h("input", { name: "match", required: true, maxlength: 36, autocomplete: "off" }),
    "the 36 characters after /play/ in the match's link"),
  field("Token", h("input", { name: "token", required: true, type: "password", autocomplete: "off" }),
    "a join token takes a side's seat; a seat token opens that seat"),
  h("button", { type: "submit" }, "Open"));
}

/** A page of GET /api/rulesets (the built-in games, then ruleset files by title, each with
 * its titles and hash only) and the next page's address, from its Link header (null: none). */
async function rulesetPage(at) {
  const response = await api(at, { raw: true });
  const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("Link") || "");
  return { rulesets: await response.json(), next: next ? next[1] : null };
}

/** "More ruleset files": the list's next page, offered in the form's game systems. */
function moreButton(form, next) {
  const button = h("button", { type: "button", class: "secondary", hidden: !next || undefined,
    onclick: async () => {
      try {
        const page = await rulesetPage(next);
        form.addRulesets(page.rulesets);
        next = page.next;
        button.hidden = !next;
      } catch (error) { notice(error); }
    } }, "More ruleset files");
  return button;
}

/** The scenario form, and above it "Use a ruleset file", which chooses its game. */
function ownScenario({ rulesets, next }) {
  if (!rulesets.length) return [h("p", {}, "The game systems could not be loaded: reload the page.")];
  const form = scenarioForm(rulesets, create);
  return [h("h4", { id: "file-h" }, "Use a ruleset file"), rulesetUpload((info) => form.useRuleset(info)), form,
    moreButton(form, next)];
}

export async function lobby(main) {
  document.title = "battlelog";
  const [samples, page] = await Promise.all([
    api("/api/scenarios").catch(() => []),
    rulesetPage("/api/rulesets").catch(() => ({ rulesets: [], next: null })),
  ]);
  const rulesets = page.rulesets;
  const titles = Object.fromEntries(rulesets.map((r) => [r.id, r.title]));
  main.replaceChildren(h("div", { class: "lobby" },
    h("h1", {}, "Your table"),
    panel("yours", "Matches on this device", yourMatches(titles)),
    panel("new", "New match",
      h("p", { class: "lead" }, "Start a sample to try the table at once, or set up your own scenario below."),
      sampleForm(samples, titles),
      h("h3", { id: "own-h" }, "Or your own scenario"),
      ...ownScenario(page)),
    panel("join", "Join with a link or a token", joinForm(), h("h3", {}, "Or a match code and token"), tokenForm()),
  ));
}
