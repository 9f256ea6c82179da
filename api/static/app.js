// battlelog's table page: the lobby at `/`, a match's table at `/play/{match_id}`, and the
// join page for a join link (`/play/{match_id}#join=…`).
// Plain ES modules served by the service itself: no build step, nothing from elsewhere.

import { $, notice } from "./dom.js";
import { joinPage } from "./join.js";
import { lobby } from "./lobby.js";
import { table } from "./table.js";

const MATCH = /^\/play\/([0-9a-fA-F-]{36})\/?$/;

/** A join link's token (#join=…), taken out of the address bar at once. */
function joinToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get("join");
  if (token) history.replaceState(null, "", location.pathname);
  return token;
}

async function route() {
  const main = $("#main");
  const match = location.pathname.match(MATCH);
  try {
    const join = match && joinToken();
    if (join) await joinPage(main, match[1].toLowerCase(), join);
    else if (match) await table(main, match[1].toLowerCase());
    else await lobby(main);
  } catch (error) {
    notice(error);
  }
}

// A link to this same page with a new fragment (#join=…, #seat=…) starts the page afresh.
window.addEventListener("hashchange", () => location.reload());
window.addEventListener("unhandledrejection", (event) => notice(String(event.reason?.message || event.reason)));
route();
