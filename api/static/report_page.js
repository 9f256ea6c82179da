// The after-action report at its own address, `/matches/{match_id}/report` (docs/reports.md):
// a link that can be bookmarked, opened again or sent. The page reads the report with this
// device's seat of the match, the way the table page does (a `#seat=` fragment given with
// the link is kept on the device and taken out of the address bar), and shows it in place.

import { api, devices } from "./api.js";

const ADDRESS = /^\/matches\/([0-9a-fA-F-]{36})\/report\/?$/;

function say(words, link) {
  const status = document.getElementById("report-status");
  status.textContent = words;
  if (!link) return;
  const a = Object.assign(document.createElement("a"), { href: link[0], textContent: link[1] });
  const line = document.createElement("p");
  line.append(a);
  status.after(line);
}

/** The seat this device holds for the match (a `#seat=` token first), or null. */
async function seat(id) {
  const given = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (given) {
    history.replaceState(null, "", location.pathname);
    const match = await api(`/api/matches/${id}`, { token: given });
    devices.save(id, { tokens: { [match.viewer]: given }, seat: match.viewer, scenario: match.scenario, ruleset: match.ruleset });
  }
  const entry = devices.get(id);
  return entry?.seat && entry.tokens[entry.seat] ? entry.tokens[entry.seat] : null;
}

async function show() {
  const found = location.pathname.match(ADDRESS);
  if (!found) return say("This is not the address of a match's report.", ["/", "Back to the lobby"]);
  const id = found[1].toLowerCase();
  let token;
  try { token = await seat(id); } catch { token = null; }
  if (!token) {
    return say("This device holds no seat of this match: open the link the match's referee or a player sent you, then its report.",
      ["/", "Back to the lobby"]);
  }
  try {
    const response = await api(`/api/matches/${id}/export?format=html`, { token, raw: true });
    const read = new DOMParser().parseFromString(await response.text(), "text/html");
    // the report's own document in place of this one (its style is allowed by its hash)
    document.replaceChild(document.adoptNode(read.documentElement), document.documentElement);
    document.body.dataset.match = id;
    const back = Object.assign(document.createElement("a"), { href: `/play/${id}`, textContent: "Back to the table" });
    Object.assign(back.style, { display: "inline-flex", alignItems: "center", minHeight: "44px" });  // a thumb's target
    const line = document.createElement("p");
    line.append(back);
    document.body.prepend(line);
  } catch (error) {
    say(`The report cannot be read now: ${error.message}`, [`/play/${id}`, "Back to the table"]);
  }
}

show();
