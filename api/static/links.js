// Links to send someone (a side's join link, the spectator link): each is a real link, with a
// Copy link button where the page may use the clipboard (the Clipboard API: a secure context,
// such as https or this computer's own address). Elsewhere, as on a phone reaching the server
// by its address on the local network, and whenever copying fails, a field holding the link
// shows instead, selected at a tap, to copy by hand.

import { h } from "./dom.js";

/** Whether the page may write to the clipboard. */
function clipboard() {
  return window.isSecureContext && navigator.clipboard?.writeText ? navigator.clipboard : null;
}

/** The link, its Copy link button (or the field to copy it from), and `extra` controls. */
export function shareLink(url, label, ...extra) {
  const status = h("span", { class: "copy-status", role: "status" });
  const field = h("input", {
    class: "copy-field", readonly: true, value: url, hidden: true, "aria-label": `${label}, to copy`,
    onfocus: (e) => e.target.setSelectionRange(0, url.length),
  });
  const showField = () => {
    field.hidden = false;
    field.focus();
    status.textContent = "Select the link above and copy it.";
  };
  const board = clipboard();
  const copy = board ? h("button", {
    type: "button", class: "secondary", "aria-label": `Copy link: ${label}`,
    onclick: async () => {
      try {
        await board.writeText(url);
        status.textContent = "Copied: paste it in a message.";
      } catch {
        showField();
      }
    },
  }, "Copy link") : null;
  if (!board) field.hidden = false;
  return h("div", { class: "share" },
    h("a", { class: "share-link", href: url }, label),
    field,
    h("div", { class: "row" }, copy, ...extra),
    status);
}
