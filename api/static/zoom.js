// The map's view: its zoom and pan through the SVG's viewBox (pinch and drag on touch, wheel
// and drag with a mouse, the + and − keys and arrows, and the +, − and Fit tool buttons).
// What the player looks at, and any gesture under way, survives the page's re-renders.

import { h } from "./dom.js";

const ZOOM_STEP = 2;      // one tap on + or −
const MAX_ZOOM = 32;
const DRAG_PX = 8;        // a pointer that moves less than this is a tap, not a drag

// map key -> what the player looks at ({zoom, cx, cy}) and the gesture under way: both
// outlive a re-render of the page (a live update in the middle of a drag), so the new map
// carries on the drag of the old one.
const views = new Map();

// a pointer that went down on a map drags it wherever it moves (off the map too), and a
// pointer lifted anywhere ends its part in a gesture
window.addEventListener("pointermove", (event) => {
  for (const view of views.values()) if (view.down.has(event.pointerId)) view.move?.(event);
});
for (const type of ["pointerup", "pointercancel"]) {
  window.addEventListener(type, (event) => {
    for (const view of views.values()) {
      if (view.down.delete(event.pointerId) && !view.down.size) view.start = null;
    }
  });
}

function viewBox(fit, view) {
  const w = fit[2] / view.zoom;
  const hgt = fit[3] / view.zoom;
  return [view.cx - w / 2, view.cy - hgt / 2, w, hgt];
}

/** Keep the view's centre on the map and its zoom between 1 (the whole map) and MAX_ZOOM. */
function clamp(fit, view) {
  view.zoom = Math.min(MAX_ZOOM, Math.max(1, view.zoom));
  if (view.zoom === 1) [view.cx, view.cy] = [fit[0] + fit[2] / 2, fit[1] + fit[3] / 2];
  view.cx = Math.min(fit[0] + fit[2], Math.max(fit[0], view.cx));
  view.cy = Math.min(fit[1] + fit[3], Math.max(fit[1], view.cy));
}

/** Make `svg` zoom and pan within `fit` (its whole-map viewBox); `key` names its view,
 *  `focus` ({at, selected}) is where "+" zooms to. The counters are drawn in map units on
 *  their hexes (counters.js): the viewBox alone zooms and pans them with the map. A unit
 *  selected out of the zoomed view (after a re-render) is brought into it. Returns the tool
 *  buttons. */
export function zoomable(svg, fit, key, focus) {
  const view = views.get(key) || { zoom: 1, cx: 0, cy: 0, down: new Map(), start: null, moved: false };
  views.set(key, view);
  const buttons = {};
  const apply = () => {
    clamp(fit, view);
    svg.setAttribute("viewBox", viewBox(fit, view).map((v) => +v.toFixed(3)).join(" "));
    svg.classList.toggle("zoomed", view.zoom > 1);
    if (buttons.out) {
      buttons.out.disabled = view.zoom <= 1;
      buttons.fit.disabled = view.zoom <= 1;
      buttons.in.disabled = view.zoom >= MAX_ZOOM;
    }
  };
  /** A unit selected (on the map or in the list under it) out of the zoomed view comes into it. */
  const follow = () => {
    if (!focus?.selected || view.zoom <= 1) return;
    const [x, y, w, hgt] = viewBox(fit, view);
    const [fx, fy] = focus.at;
    if (fx < x || fx > x + w || fy < y || fy > y + hgt) [view.cx, view.cy] = focus.at;
  };
  /** Zoom in on the map point `focus` (the selected unit, else the units): it comes to the
   *  middle of the view when the whole map is shown or when it is selected. */
  const zoomIn = () => {
    if (focus && (view.zoom === 1 || focus.selected)) {
      view.zoom = Math.min(MAX_ZOOM, view.zoom * ZOOM_STEP);
      [view.cx, view.cy] = focus.at;
      apply();
    } else zoomAt(view.zoom * ZOOM_STEP);
  };
  /** Zoom to `zoom`, the map point under the screen point `at` staying under it. */
  const zoomAt = (zoom, at) => {
    const scale = svg.getScreenCTM()?.a || 1;
    const r = svg.getBoundingClientRect();
    const [sx, sy] = at ? [at.x - (r.left + r.width / 2), at.y - (r.top + r.height / 2)] : [0, 0];
    const [px, py] = [view.cx + sx / scale, view.cy + sy / scale];
    const next = Math.min(MAX_ZOOM, Math.max(1, zoom));
    const nextScale = scale * (next / view.zoom);
    view.zoom = next;
    [view.cx, view.cy] = [px - sx / nextScale, py - sy / nextScale];
    apply();
  };
  const pan = (dx, dy) => {
    const scale = svg.getScreenCTM()?.a || 1;
    view.cx -= dx / scale;
    view.cy -= dy / scale;
    apply();
  };

  // pointers: one drags the view, two pinch; a tap that moved is no tap (no select, no place)
  const { down } = view;
  const begin = () => {
    view.start = { pts: [...down.values()], cx: view.cx, cy: view.cy, zoom: view.zoom, scale: svg.getScreenCTM()?.a || 1, rect: svg.getBoundingClientRect() };
  };
  svg.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" && event.button !== 0) return;
    if (!down.size) view.moved = false;
    down.set(event.pointerId, { x: event.clientX, y: event.clientY });
    begin();
  });
  view.move = (event) => {
    const start = view.start;
    if (!down.has(event.pointerId) || !start) return;
    down.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const pts = [...down.values()];
    if (pts.length === 1 && start.pts.length === 1) {
      const [dx, dy] = [pts[0].x - start.pts[0].x, pts[0].y - start.pts[0].y];
      if (!view.moved && Math.hypot(dx, dy) < DRAG_PX) return;
      view.moved = true;
      view.cx = start.cx - dx / start.scale;
      view.cy = start.cy - dy / start.scale;
      apply();
    } else if (pts.length >= 2 && start.pts.length >= 2) {
      view.moved = true;
      const dist = (p) => Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) || 1;
      const mid = (p) => ({ x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2 });
      const [m0, m1] = [mid(start.pts), mid(pts)];
      const r = start.rect;
      const [ox, oy] = [r.left + r.width / 2, r.top + r.height / 2];
      const [px, py] = [start.cx + (m0.x - ox) / start.scale, start.cy + (m0.y - oy) / start.scale];
      view.zoom = Math.min(MAX_ZOOM, Math.max(1, start.zoom * (dist(pts) / dist(start.pts))));
      const scale = start.scale * (view.zoom / start.zoom);
      [view.cx, view.cy] = [px - (m1.x - ox) / scale, py - (m1.y - oy) / scale];
      apply();
    }
  };
  const up = (event) => {
    if (!down.delete(event.pointerId)) return;
    if (down.size) begin(); else view.start = null;
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  svg.addEventListener("click", (event) => {
    if (!view.moved) return;
    view.moved = false;
    event.stopImmediatePropagation();
    event.preventDefault();
  }, true);
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    zoomAt(view.zoom * Math.exp(-event.deltaY * (event.deltaMode ? 0.05 : 0.002)), { x: event.clientX, y: event.clientY });
  }, { passive: false });
  svg.addEventListener("keydown", (event) => {
    if (event.target !== svg) return;
    const step = 40;
    const keys = {
      "+": zoomIn, "=": zoomIn, "-": () => zoomAt(view.zoom / ZOOM_STEP),
      0: () => { view.zoom = 1; apply(); },
      ArrowLeft: () => pan(step, 0), ArrowRight: () => pan(-step, 0), ArrowUp: () => pan(0, step), ArrowDown: () => pan(0, -step),
    };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  });

  const tool = (name, label, text, onclick) => {
    buttons[name] = h("button", { type: "button", class: `map-tool ${name}`, "aria-label": label, title: label, onclick }, text);
    return buttons[name];
  };
  const tools = h("div", { class: "map-tools", role: "toolbar", "aria-label": "Map view" },
    tool("in", "Zoom in", "+", zoomIn),
    tool("out", "Zoom out", "−", () => zoomAt(view.zoom / ZOOM_STEP)),
    tool("fit", "Fit the whole map", "Fit", () => { view.zoom = 1; apply(); }),
    h("span", { class: "map-help" }, "Drag to move, pinch or + to zoom. Tap a unit to select it, a stack or a hex to list its units."));
  follow();
  apply();
  return tools;
}
