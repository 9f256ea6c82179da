// Small DOM helpers. Every text that comes from a match (names, notes, ids) goes in as text,
// never as HTML, so nothing a player types can run in another player's page.

const SVG = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (key === "style") el.style.cssText = value;  // CSSOM: allowed by the page's CSP
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "label", child, ...). */
export function h(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs, ...children) {
  return build(document.createElementNS(SVG, tag), attrs, children);
}

export const $ = (selector, root = document) => root.querySelector(selector);

let noticeTimer = null;

/** Tell the user something: a text, or an error (an API error names the rule). Errors are
 *  announced at once by screen readers. The notice takes one line at the top of the page;
 *  a longer one ends its line with "more", which shows it whole (and "less" folds it
 *  again): an outcome of many sentences never covers the table. It stays long enough to
 *  read it whole (60 ms a character); opened, until it is folded or another notice comes. */
export function notice(message, kind = "error") {
  const box = $("#notice");
  const text = message instanceof Error ? message.explained || message.message : message;
  const line = h("span", { class: "notice-text" }, text);
  box.replaceChildren(line);
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(noticeTimer);
  const reading = Math.max(kind === "error" ? 12000 : 5000, 60 * String(text).length);
  const hide = (after) => { clearTimeout(noticeTimer); noticeTimer = setTimeout(() => { box.hidden = true; }, after); };
  hide(reading);
  if (line.scrollWidth <= line.clientWidth + 1) return;  // it fits on its line
  // (the button's words are drawn by CSS, so the notice's text stays the message itself)
  const more = h("button", {
    type: "button", class: "notice-more", "aria-expanded": "false", "aria-label": "Show the whole notice",
    onclick: () => {
      const open = !box.classList.contains("open");
      box.classList.toggle("open", open);
      more.setAttribute("aria-expanded", String(open));
      more.setAttribute("aria-label", open ? "Fold the notice to one line" : "Show the whole notice");
      if (open) clearTimeout(noticeTimer); else hide(reading);
    },
  });
  box.append(more);
}

/** Save a Blob as a file. */
export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

let fields = 0;

/** A labelled form field: a label tied to its control (and its hint) by id. */
export function field(label, control, hint) {
  if (!control.id) control.id = `field-${++fields}`;
  if (hint) control.setAttribute("aria-describedby", `${control.id}-hint`);
  return h("div", { class: "field" }, h("label", { class: "label", for: control.id }, label), control,
    hint ? h("small", { class: "hint", id: `${control.id}-hint` }, hint) : null);
}

/** A section with a heading; `id` makes it a landmark the keyboard can jump to. */
export function panel(id, title, ...children) {
  return h("section", { class: "panel", id, "aria-labelledby": `${id}-h` },
    h("h2", { id: `${id}-h` }, title), ...children);
}
