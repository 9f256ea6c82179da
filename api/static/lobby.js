// The lobby: matches this device holds seats in, a new match, joining with a link or token.

import { api, devices } from "./api.js";
import { field, h, notice, panel } from "./dom.js";

export function matchLink(id, kind, token) {
  return `${location.origin}/play/${id}#${kind}=${encodeURIComponent(token)}`;
}

function yourMatches() {
  const entries = Object.entries(devices.all()).sort((a, b) => (b[1].saved || "").localeCompare(a[1].saved || ""));
  if (!entries.length) return h("p", {}, "No match on this device yet: start one below, or join with a link.");
  return h("ul", { class: "matches" }, entries.map(([id, entry]) => h("li", {},
    h("a", { href: `/play/${id}` }, entry.scenario || id),
    h("span", { class: "meta" }, ` ${entry.ruleset || ""} · you: ${entry.seat || "?"}`),
    h("button", { type: "button", class: "quiet", "aria-label": `Forget ${entry.scenario || id} on this device`,
      onclick: (e) => { devices.forget(id); e.target.closest("li").remove(); } }, "forget"))));
}

async function create(body) {
  const created = await api("/api/matches", { method: "POST", body });
  devices.save(created.match_id, { tokens: created.tokens, seat: "referee", scenario: body.scenario, ruleset: body.ruleset });
  location.assign(`/play/${created.match_id}`);
}

function sampleForm(samples) {
  const select = h("select", { name: "sample", id: "sample" },
    samples.map((x) => h("option", { value: x.name }, `${x.scenario} (${x.ruleset})`)));
  return h("form", {
    class: "stack", "aria-label": "Start a sample scenario",
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        const body = await api(`/api/scenarios/${encodeURIComponent(select.value)}`);
        await create(body);
      } catch (error) { notice(error); }
    },
  }, field("Sample scenario", select), h("button", { type: "submit" }, "Start this match"));
}

function customForm(rulesets) {
  const form = h("form", {
    class: "stack", "aria-label": "Start your own match",
    onsubmit: async (event) => {
      event.preventDefault();
      const f = event.target.elements;
      const sides = f.sides.value.split(",").map((x) => x.trim()).filter(Boolean)
        .map((name) => ({ id: name.toLowerCase().replace(/[^a-z0-9_.:-]+/g, "-"), name }));
      try {
        await create({ ruleset: f.ruleset.value, scenario: f.scenario.value.trim(), sides, casual: f.casual.checked });
      } catch (error) { notice(error); }
    },
  },
  field("Ruleset", h("select", { name: "ruleset" }, rulesets.map((r) => h("option", { value: r }, r)))),
  field("Scenario", h("input", { name: "scenario", required: true, maxlength: 200, placeholder: "Hill 112" })),
  field("Sides", h("input", { name: "sides", required: true, value: "Allies, Axis" }), "their names, comma separated"),
  h("label", { class: "check" }, h("input", { type: "checkbox", name: "casual" }), " casual (undo without asking)"),
  h("button", { type: "submit" }, "Start this match"));
  return form;
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
    class: "stack", "aria-label": "Open with a match id and token",
    onsubmit: (event) => {
      event.preventDefault();
      const f = event.target.elements;
      const id = f.match.value.trim().toLowerCase();
      if (!/^[0-9a-f-]{36}$/.test(id)) { notice("A match id looks like 0f8e…-…: 36 characters."); return; }
      location.assign(`/play/${id}#token=${encodeURIComponent(f.token.value.trim())}`);
    },
  },
  field("Match id", h("input", { name: "match", required: true, maxlength: 36, autocomplete: "off" })),
  field("Token", h("input", { name: "token", required: true, type: "password", autocomplete: "off" }),
    "a join token takes a side's seat; a seat token opens that seat"),
  h("button", { type: "submit" }, "Open"));
}

export async function lobby(main) {
  document.title = "battlelog";
  const samples = await api("/api/scenarios").catch(() => []);
  const rulesets = ["freeform", ...new Set(samples.map((x) => x.ruleset))];
  main.replaceChildren(
    h("h1", {}, "Your table"),
    panel("yours", "Matches on this device", yourMatches()),
    panel("new", "New match", sampleForm(samples), h("h3", {}, "Or your own"), customForm(rulesets)),
    panel("join", "Join with a link or a token", joinForm(), h("h3", {}, "Or a match id and token"), tokenForm()),
  );
}
