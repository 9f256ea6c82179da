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
 *  announced at once by screen readers. */
export function notice(message, kind = "error") {
  const box = $("#notice");
  box.textContent = message instanceof Error ? message.explained || message.message : message;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(noticeTimer);
  // long enough to read: an outcome of a few sentences stays a while (60 ms a character)
  const reading = Math.max(kind === "error" ? 12000 : 5000, 60 * box.textContent.length);
  noticeTimer = setTimeout(() => { box.hidden = true; }, reading);
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
