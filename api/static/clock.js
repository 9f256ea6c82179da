// The game clock on the table page (docs/clock.md): whose turn in words, every side's clock
// (ticking each second from the service's `remaining` and `running`, read again after each
// action), and the referee's big Pause / Restart / Give or take time buttons. The clocks
// are the service's: the page only counts down between two reads.

import { h } from "./dom.js";
import { waitingLine } from "./waiting.js";

/** 3725.4 -> "1:02:05"; under an hour "2:05"; a day or more "2 d 3:00:00". */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(whole / 86400), hours = Math.floor((whole % 86400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60), secs = whole % 60;
  const mm = String(minutes).padStart(hours || days ? 2 : 1, "0"), ss = String(secs).padStart(2, "0");
  const time = hours || days ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
  return days ? `${days} d ${time}` : time;
}

let ticker = null;

/** Count down every running clock on the page, once a second. */
function tick() {
  for (const el of document.querySelectorAll(".side-clock[data-running=true]")) {
    const left = Number(el.dataset.remaining) - (Date.now() - Number(el.dataset.read)) / 1000;
    el.querySelector(".time").textContent = clockText(left);
    if (left <= 0) el.classList.add("fallen");
  }
}

export function renderClock(t) {
  const names = new Map([...(t.board?.units || []), ...(t.board?.off_board || [])].map((u) => [u.id, u.name]));
  const out = [h("p", { class: "whose", id: "whose" }, waitingLine(t.board?.waiting, t.viewer, t.board?.owed || [], names) || "")];
  const c = t.clock;
  if (c?.started) {
    out.push(h("ul", { class: "clocks", "aria-label": "Clocks" }, c.sides.map((s) => {
      const ran = s.running && !c.paused;  // its time runs (or, at a past version, ran then)
      const running = ran && t.at === null;  // counted down here: only at the live head
      return h("li", {
        class: `side-clock${ran ? " running" : ""}${s.flag_fallen ? " fallen" : ""}`,
        "data-side": s.side, "data-remaining": String(s.remaining), "data-read": String(c.readAt),
        "data-running": String(running),
      }, h("span", { class: "name" }, s.name), h("span", { class: "time", role: "timer" }, clockText(s.remaining)),
      h("span", { class: "state" }, s.flag_fallen ? "flag fallen" : ran ? "running" : c.paused ? "paused" : "waiting"));
    })));
    if (c.paused) out.push(h("p", { class: "hint" }, "The referee has paused the clock."));
  }
  if (t.viewer === "referee" && t.at === null && c && !t.board?.turn.outcome) out.push(controls(t, c));
  if (!ticker) ticker = setInterval(tick, 1000);
  return out;
}

function controls(t, c) {
  if (!c.started) {
    const minutes = h("input", { name: "clock-minutes", type: "number", min: "1", max: "43200", value: "60", inputmode: "numeric" });
    return h("details", { class: "clock-start" }, h("summary", {}, "Play with a clock"), h("form", {
      class: "stack", "aria-label": "Start the clock",
      onsubmit: (e) => {
        e.preventDefault();
        const total = Math.round(Number(minutes.value) * 60);
        const controls = Object.fromEntries(t.match.sides.map((s) => [s.id, { total }]));
        t.act({ type: "start_clock", controls }, "The clock is running.");
      },
    }, h("label", {}, "Minutes for each side ", minutes), h("button", { type: "submit", class: "big" }, "Start the clock")));
  }
  const side = h("select", { name: "clock-side" }, t.match.sides.map((s) => h("option", { value: s.id }, s.name)));
  const minutes = h("input", { name: "clock-adjust", type: "number", min: "-43200", max: "43200", value: "1" });
  const reason = h("input", { name: "clock-reason", required: true, maxlength: "200", placeholder: "why (said in the log)" });
  return h("div", { class: "clock-controls" },
    c.paused
      ? h("button", { type: "button", class: "big", onclick: () => t.act({ type: "resume_clock" }, "The clock is running again.") }, "Restart the clock")
      : h("button", { type: "button", class: "big", onclick: () => t.act({ type: "pause_clock" }, "The clock is paused.") }, "Pause the clock"),
    h("form", {
      class: "stack", "aria-label": "Give or take time",
      onsubmit: (e) => {
        e.preventDefault();
        const seconds = Math.round(Number(minutes.value) * 60);
        t.act({ type: "adjust_clock", side: side.value, seconds, reason: reason.value.trim() }, "The clock is adjusted.");
      },
    }, h("label", {}, "Side ", side), h("label", {}, "Minutes (less than 0 takes time) ", minutes),
    h("label", {}, "Reason ", reason), h("button", { type: "submit", class: "big" }, "Give or take time")));
}
