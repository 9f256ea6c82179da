/** "Tell me when it's my turn": Web Push for this device's seat of the match on the table
 *  page (docs/notifications.md). The button goes in the panel of turn notices (notices.js,
 *  after the Seats panel, with the e-mail and webhook forms); the browser asks for
 *  permission only when it is pressed. While the page is open and shown, a heartbeat says
 *  the seat is present, so it is not told of a turn it can see. The registration starts
 *  pending: the server pushes a confirmation, which the service worker (sw.js) confirms
 *  by posting its code back. */
import { api, devices } from "./api.js";
import { h, notice } from "./dom.js";
import { noticesPanel } from "./notices.js";

// what the page says while the browser refuses notifications for it (read before any call)
const REFUSED = "This browser refuses notifications for this page: allow them in its site settings (the sign before the address), then press again. Or give an e-mail address or a webhook below.";

const HEARTBEAT_MS = 20000;
const path = location.pathname.match(/^\/play\/([0-9a-f-]{36})$/);
if (path) watch(path[1]);

function seat(id) {
  const entry = devices.get(id);
  const name = entry && entry.seat;
  return name && name !== "spectator" && entry.tokens[name] ? { name, token: entry.tokens[name] } : null;
}

function watch(id) {
  const main = document.querySelector("#main");
  let present = null;  // the seat the last heartbeat was for
  let shown = null;    // the panel of turn notices: {seat, element, reread}
  const beat = () => {
    const who = seat(id);
    present = who && who.name;
    if (who && document.visibilityState === "visible") {
      api(`/api/matches/${id}/presence`, { token: who.token, method: "POST", raw: true }).catch(() => null);
    }
  };
  const mount = () => {
    const seats = document.querySelector("#seats");
    const who = seat(id);
    if (shown && (!who || shown.seat !== who.name || !shown.element.isConnected)) { shown.element.remove(); shown = null; }
    if (seats && who && !shown) {
      shown = { seat: who.name, ...noticesPanel(id, who.name, who.token, button(id)) };
      seats.after(shown.element);
      shown.reread();
    }
    if (who && who.name !== present) beat();  // the page has opened, or switched, its seat
  };
  new MutationObserver(mount).observe(main, { childList: true, subtree: true });
  mount();
  setInterval(beat, HEARTBEAT_MS);
  // the match moved on (table.js says so after each render): its attempts may be new
  let version = null;
  document.addEventListener("table-rendered", (event) => {
    if (shown && event.detail.version !== version) shown.reread();
    version = event.detail.version;
  });
  document.addEventListener("visibilitychange", beat);
}

/** The button, a line under it that says what became of a press (the browser's refusal
 *  stays said there, not only in a passing notice), and, when this server sends no
 *  e-mail, a line saying so before anyone tries (GET /api/notifications/channels). */
function button(id) {
  const press = h("button", { type: "button", class: "push-me primary" }, "Tell me when it's my turn");
  const said = h("p", { class: "push-said hint", id: "push-said", role: "status" });
  if ("Notification" in window && Notification.permission === "denied") said.textContent = REFUSED;
  press.addEventListener("click", () => subscribe(id, press, said));
  const block = h("div", { class: "push-block" }, h("p", { class: "push-me" }, press), said);
  api("/api/notifications/channels").then(({ email }) => { if (!email) emailOff(block); }, () => null);
  return block;
}

/** E-mail is off on this server: said above the e-mail form, whose controls are off. */
function emailOff(block) {
  const line = h("p", { class: "hint", id: "email-off" }, "E-mail notices are off on this server (it has no mail server set up): be told on this device or at a webhook instead.");
  const apply = () => {
    const form = block.closest("section")?.querySelector('form[data-key="notify-email"]');
    if (!form) return false;
    form.before(line);
    for (const control of form.querySelectorAll("input, button")) control.disabled = true;
    return true;
  };
  if (!apply()) requestAnimationFrame(() => apply() || block.append(line));
}

function keyBytes(base64url) {
  const raw = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - base64url.length % 4) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function subscribe(id, press, said) {
  const who = seat(id);
  if (!who) return;
  said.textContent = "";
  if (!window.isSecureContext) {  // browsers offer Web Push only to https pages (and localhost)
    said.textContent = "Web Push needs this page opened over https (or at localhost on the server's own computer): give an e-mail address or a webhook below instead.";
    notice(said.textContent);
    return;
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    said.textContent = "This browser cannot be told of your turn (no Web Push here): give an e-mail address or a webhook below instead.";
    notice(said.textContent);
    return;
  }
  press.disabled = true;
  try {
    if (await Notification.requestPermission() !== "granted") {
      said.textContent = REFUSED;
      notice(REFUSED);
      return;
    }
    const worker = await navigator.serviceWorker.register("/static/sw.js");
    const { public_key: key } = await api("/api/push/key");
    const subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    await api(`/api/matches/${id}/notifications`, {
      token: who.token, method: "POST", body: { kind: "push", subscription: subscription.toJSON() } });
    press.textContent = "This device will be told when it's your turn";
    said.textContent = "This device will be told when it's your turn, once its confirmation arrives.";
    notice(said.textContent, "ok");
  } catch (error) {
    said.textContent = `This device could not be registered: ${error.explained || error.message}`;
    notice(error);
  } finally {
    press.disabled = false;
  }
}
