/** "Tell me when it's my turn": the table page's panel where a seat says where it is told
 *  that the match waits for it (docs/notifications.md, docs/table.md). This device by Web
 *  Push (push.js's button), an e-mail address or a webhook URL; each new address is sent a
 *  code first, which the player types here to confirm it. The panel lists the seat's
 *  registrations (`GET .../notifications?seat=`), their state and their latest attempts in
 *  words, and removes one. It is the page's own panel, outside the match's render: a code
 *  being typed survives the match moving on; the list is read again when it does, and
 *  only while the panel is in view (or when it comes into view). */
import { api } from "./api.js";
import { field, h, notice, panel } from "./dom.js";

const PENDING_RECHECK_MS = 4000;  // while a code is awaited: has its message gone out?
const ATTEMPTS_SHOWN = 3;
const secrets = new Map();  // registration id -> a webhook's secret, shown while the page lives

/** A time in words: "09:12", or "Fri 09:12" on another day than today. */
function clock(seconds) {
  const at = new Date(seconds * 1000);
  const today = at.toDateString() === new Date().toDateString();
  return at.toLocaleString([], { ...(today ? {} : { weekday: "short" }), hour: "2-digit", minute: "2-digit" });
}

/** One attempt in words: what was sent, when, and how it went. */
export function attemptWords(attempt, kind) {
  const what = attempt.delivery_id.startsWith("cfm_") ? "The code" : "A turn notice";
  const at = clock(attempt.at);
  const code = attempt.status_code;
  if (attempt.error === "refused: over budget") return `${at}: ${what} was not sent: this match has sent as many notices as it may for now.`;
  if (attempt.error) return `${at}: ${what} could not be sent: ${failureWords(attempt.error)}.`;
  if (kind === "email" && code === 250) return `${at}: ${what} was handed to the mail server.`;
  if (code >= 200 && code < 300) return `${at}: ${what} was delivered (answer ${code}).`;
  return `${at}: ${what} was not taken: the receiver answered ${code}; it is tried again later.`;
}

/** Why an attempt failed, as the service recorded it in words (projections/notify_words.py);
 *  a refusal of the address by the service's own checks says what it would take; an
 *  attempt recorded before the words were (an exception's text) says only that it failed. */
function failureWords(error) {
  if (error.startsWith("refused: ")) return `this server does not send notices there: it takes ${error.slice(9)}`;
  if (/\b[A-Z]\w*(Error|Exception)\b|\[SSL|\[Errno/.test(error)) return "something failed on the way";
  return error;
}

function targetWords(reg) {
  return reg.kind === "email" ? `E-mail to ${reg.target}` : reg.kind === "webhook" ? `Webhook ${reg.target}` : "This browser (Web Push)";
}

function statusWords(reg) {
  if (reg.status === "confirmed") return "Confirmed: told when it is your turn.";
  const until = reg.expires ? ` before ${clock(reg.expires)}` : "";
  if (reg.kind === "push") return `Waiting for the browser to confirm it${until}.`;
  const where = reg.kind === "email" ? "the message sent to this address" : "the request sent to this webhook";
  return `Waiting for its code: type the code from ${where}${until}.`;
}

/** The panel for `seat` (a side or the referee) holding `token`; `extra` is the Web Push
 *  button. Returns {element, reread()}. */
export function noticesPanel(id, seat, token, extra) {
  const base = `/api/matches/${id}/notifications`;
  const list = h("ul", { class: "registrations", "aria-live": "polite" });
  const items = new Map();  // registration id -> {li, status, attempts}
  let timer = null;

  let inView = false;  // read only what can be seen: the panel is near the page's end
  let stale = true;
  const reread = async () => {
    clearTimeout(timer);
    if (!element.isConnected) return;  // the page switched seats: another panel reads now
    if (!inView) { stale = true; return; }  // read when it is scrolled to
    stale = false;
    let regs;
    try {
      regs = await api(`${base}?seat=${encodeURIComponent(seat)}`, { token });
    } catch { return; }
    for (const [rid, item] of items) if (!regs.some((r) => r.registration_id === rid)) { item.li.remove(); items.delete(rid); }
    await Promise.all(regs.map(async (reg) => {
      const item = items.get(reg.registration_id) || added(reg);
      item.status.textContent = statusWords(reg);
      item.li.classList.toggle("confirmed", reg.status === "confirmed");
      item.confirm.hidden = reg.status === "confirmed" || reg.kind === "push";
      const tried = await api(`${base}/${reg.registration_id}/attempts`, { token }).catch(() => []);
      item.attempts.replaceChildren(...tried.slice(0, ATTEMPTS_SHOWN).map((a) => h("li", {}, attemptWords(a, reg.kind))));
    }));
    empty.hidden = regs.length > 0;
    if (regs.some((r) => r.status !== "confirmed") && element.isConnected) timer = setTimeout(reread, PENDING_RECHECK_MS);
  };

  const added = (reg) => {
    const rid = reg.registration_id;
    const status = h("p", { class: "reg-status" });
    const attempts = h("ul", { class: "attempts", "aria-label": "Latest tries" });
    const said = h("p", { class: "field-error", role: "alert" });
    const code = h("input", { name: "code", required: true, maxlength: 32, autocomplete: "one-time-code", autocapitalize: "characters", spellcheck: "false" });
    const confirm = h("form", {
      class: "row confirm-code", "data-key": `code:${rid}`, "aria-label": `Confirm ${targetWords(reg)}`,
      onsubmit: async (event) => {
        event.preventDefault();
        said.textContent = "";
        try {
          await api(`${base}/${rid}/confirm`, { method: "POST", body: { code: code.value.trim().toUpperCase() } });
          code.value = "";
          notice(`${targetWords(reg)} is confirmed: it is told when it is your turn.`, "ok");
        } catch (error) {
          said.textContent = error.explained || error.message;
        }
        await reread();
      },
    }, field("Code from the message", code), h("button", { type: "submit" }, "Confirm"), said);
    const secret = secrets.get(rid);
    const li = h("li", { "data-registration": rid },
      h("strong", {}, targetWords(reg)), status,
      secret ? h("p", { class: "secret" }, "Its signing secret: copy it now, it is not shown again once this page is closed (each request is signed with it): ",
        h("code", {}, secret)) : null,
      confirm, attempts,
      h("button", {
        type: "button", class: "secondary",
        onclick: async () => {
          try {
            await api(`${base}/${rid}`, { token, method: "DELETE", raw: true });
            notice(`${targetWords(reg)} is no longer told of your turns.`, "ok");
          } catch (error) { notice(error); }
          await reread();
        },
      }, "Stop these notices"));
    list.append(li);
    const item = { li, status, attempts, confirm };
    items.set(rid, item);
    return item;
  };

  const register = (kind, input, said) => async (event) => {
    event.preventDefault();
    said.textContent = "";
    const value = input.value.trim();
    try {
      const made = await api(base, { token, method: "POST", body: kind === "email" ? { kind, email: value } : { kind, url: value } });
      if (made.secret) secrets.set(made.registration_id, made.secret);
      input.value = "";
      notice(kind === "email" ? `A code is on its way to ${value}: type it below to confirm.`
        : "A code is on its way to the webhook: type it below to confirm.", "ok");
    } catch (error) {
      said.textContent = error.explained || error.message;  // the server's words: why not
    }
    await reread();
  };

  const form = (kind, title, label, control, hint, button) => {
    const said = h("p", { class: "field-error", role: "alert" });
    return h("form", { class: "stack", "aria-label": title, "data-key": `notify-${kind}`, onsubmit: register(kind, control, said) },
      field(label, control, hint), h("button", { type: "submit" }, button), said);
  };

  const empty = h("p", { class: "hint" }, "Nothing yet: this seat is told nowhere.");
  const element = panel("notices", "Turn notices",
    h("p", { class: "hint" }, "Be told when the match waits for your seat: on this device, by e-mail or at a webhook. Each new address is sent a code first: type it here to confirm it."),
    extra,
    form("email", "Tell me by e-mail", "E-mail address", h("input", { name: "email", type: "email", required: true, maxlength: 254, autocomplete: "email" }),
      "a code is sent there first", "Send a code to this address"),
    form("webhook", "Tell a webhook", "Webhook address (URL)", h("input", { name: "url", type: "url", required: true, maxlength: 2048, autocomplete: "off" }),
      "your bot or bridge: it is sent a signed request with a code first", "Send a code to this webhook"),
    h("h3", {}, "Where your seat is told"), empty, list);
  new IntersectionObserver((seen) => {
    inView = seen[seen.length - 1].isIntersecting;
    if (inView && stale) reread();
  }, { rootMargin: "300px" }).observe(element);
  return { element, reread };
}
