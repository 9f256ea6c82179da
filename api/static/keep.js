// What the user was doing in a panel survives an update that came from elsewhere: open
// drawers, typed values and the focus, each found again by its `data-key`.

/** What the user has open, typed and focused in a panel, by `data-key`. */
export function snapshot(section) {
  const open = new Set([...section.querySelectorAll("details[open][data-key]")].map((d) => d.dataset.key));
  const values = new Map();
  let focus = null;
  for (const el of section.querySelectorAll("[data-key] input, [data-key] textarea, [data-key] select")) {
    const key = `${el.closest("[data-key]").dataset.key}/${el.name}`;
    // a tick or a picked radio is its `checked`; any other field its value
    const checkable = el.type === "checkbox" || el.type === "radio";
    values.set(checkable ? `${key}=${el.value}` : key, checkable ? el.checked : el.value);
    if (el === document.activeElement) focus = key;
  }
  return { open, values, focus };
}

export function restore(section, { open, values, focus }) {
  for (const d of section.querySelectorAll("details[data-key]")) if (open.has(d.dataset.key)) d.open = true;
  for (const el of section.querySelectorAll("[data-key] input, [data-key] textarea, [data-key] select")) {
    const key = `${el.closest("[data-key]").dataset.key}/${el.name}`;
    if (el.type === "checkbox" || el.type === "radio") {
      if (values.has(`${key}=${el.value}`)) el.checked = values.get(`${key}=${el.value}`);
    } else if (values.has(key)) el.value = values.get(key);
    if (key === focus) el.focus();
  }
}
