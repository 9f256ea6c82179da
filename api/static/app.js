// battlelog's table page: the lobby at `/`, a match's table at `/play/{match_id}`.
// Plain ES modules served by the service itself: no build step, nothing from elsewhere.

import { $, notice } from "./dom.js";
import { lobby } from "./lobby.js";
import { table } from "./table.js";

const MATCH = /^\/play\/([0-9a-fA-F-]{36})\/?$/;

async function route() {
  const main = $("#main");
  const match = location.pathname.match(MATCH);
  try {
    if (match) await table(main, match[1].toLowerCase());
    else await lobby(main);
  } catch (error) {
    notice(error);
  }
}

// A link to this same page with a new fragment (#join=…, #seat=…) starts the page afresh.
window.addEventListener("hashchange", () => location.reload());
window.addEventListener("unhandledrejection", (event) => notice(String(event.reason?.message || event.reason)));
route();
