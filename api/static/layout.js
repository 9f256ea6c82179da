// Where the units' counters go on the map (board.js draws them): each counter at least
// MIN_PX tall on the screen when the whole map is shown, so a thumb can tap it, and as near
// its unit's spot as it can be without covering another counter. The view that shows them
// all (the map's "Fit") is the drawn map joined with every counter and spot: the map is
// scaled and clustered around where the units are, not around the whole table.

export const MIN_PX = 48;   // a counter's height on the screen at "Fit" (a tap box of 44 px and a margin)
const MAX_PX = 72;          // and at most this tall, however close the view
const WIDE = 2.2;           // a counter is this many times as wide as it is tall

/** The width and height, in CSS pixels, the map is drawn in: its panel's inside width, and
 *  at most three quarters of the screen's height (app.css: .map's max-height). */
export function screenOf(panel) {
  const style = panel && getComputedStyle(panel);
  const inside = panel ? panel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) : 0;
  return { w: inside > 0 ? inside : Math.max(200, window.innerWidth - 32), h: window.innerHeight * 0.75 };
}

/** Units on one spot fan out: two rows, as many columns as they need, centred on the spot. */
function fanOut(count, index, cx, cy, w, hgt) {
  const rows = Math.min(count, 2);
  const cols = Math.ceil(count / rows);
  const gap = hgt * 0.1;
  const col = Math.floor(index / rows);
  const row = index % rows;
  return {
    cx: cx - ((cols - 1) * (w + gap)) / 2 + col * (w + gap),
    cy: cy - ((rows - 1) * (hgt + gap)) / 2 + row * (hgt + gap),
  };
}

/** Place the boxes one by one, each where it wants to be ({cx, cy}) or, when that covers one
 *  already placed, at the nearest free place beside one of those (left, right, above or
 *  below it, in line with it or with the wish). A move up or down counts `lean` times a move
 *  sideways: on a narrow, tall screen a column of counters keeps them bigger than a row. */
function place(boxes, gap, lean) {
  const placed = [];
  const free = (c, b) => placed.every((p) => Math.abs(p.cx - c.cx) >= (p.w + b.w) / 2 + gap - 1e-9
    || Math.abs(p.cy - c.cy) >= (p.h + b.h) / 2 + gap - 1e-9);
  for (const b of boxes) {
    const wish = { cx: b.cx, cy: b.cy };
    const tries = [wish];
    for (const p of placed) {
      const [dx, dy] = [(p.w + b.w) / 2 + gap, (p.h + b.h) / 2 + gap];
      for (const cy of [wish.cy, p.cy]) tries.push({ cx: p.cx - dx, cy }, { cx: p.cx + dx, cy });
      for (const cx of [wish.cx, p.cx]) tries.push({ cx, cy: p.cy - dy }, { cx, cy: p.cy + dy });
    }
    let best = null;
    let cost = Infinity;
    for (const c of tries) {
      const d = Math.hypot(c.cx - wish.cx, (c.cy - wish.cy) * lean);
      if (d < cost - 1e-9 && free(c, b)) [best, cost] = [c, d];
    }
    Object.assign(b, best);
    placed.push(b);
  }
}

/** The spots from the top of the map down, then from left to right: a counter with no room
 *  on its spot goes beside those above it, near its own side's. */
function order(spots, centreOf) {
  const list = [...spots].map(([key, here]) => ({ key, here, at: centreOf(key) }));
  return list.sort((a, b) => a.at[1] - b.at[1] || a.at[0] - b.at[0]).map((e) => [e.key, e.here]);
}

/** The counters of `units` (each with its spot: `spotOf(u)` a key, `centreOf(key)` its map
 *  point), their `natural` size in map units ({w, h}: what they are drawn at when the map has
 *  room), `base` the drawn map's own extent [x, y, w, h] and `screen` ({w, h} CSS px).
 *  Returns each unit's box ({x, y, w, h} and its spot {sx, sy}) and the whole view `fit`;
 *  `grow` false: the view is `base` as it is (a zoomed view: the counters are not made
 *  bigger for a view that would grow to hold them). */
export function layOut(units, spotOf, centreOf, natural, base, screen, grow = true) {
  // the page draws the map again on every update: the same units, spots and screen are laid
  // out once (a large board's hundred counters take a moment)
  const key = JSON.stringify([units.map((u) => [u.id, spotOf(u)]), natural, base, screen, grow]);
  if (!memo.has(key)) {
    if (memo.size > 16) memo.delete(memo.keys().next().value);
    memo.set(key, lay(units, spotOf, centreOf, natural, base, screen, grow));
  }
  const { fit, boxes } = memo.get(key);
  return { fit, boxes: boxes.map(({ id, box }) => ({ u: units.find((u) => u.id === id), box })) };
}

const memo = new Map();

function lay(units, spotOf, centreOf, natural, base, screen, grow) {
  const spots = new Map();
  for (const u of units) {
    const key = spotOf(u);
    if (!spots.has(key)) spots.set(key, []);
    spots.get(key).push(u);
  }
  let fit = base;
  let boxes = [];
  for (let round = 0; round < 12; round++) {
    const scale = Math.min(screen.w / fit[2], screen.h / fit[3]);
    const h = Math.max(MIN_PX / scale, Math.min(natural.h, MAX_PX / scale));
    const w = Math.max(natural.w * (h / natural.h), h * WIDE);
    boxes = [];
    for (const [key, here] of order(spots, centreOf)) {
      const [sx, sy] = centreOf(key);
      here.forEach((u, i) => boxes.push({ u, sx, sy, w, h, ...fanOut(here.length, i, sx, sy, w, h) }));
    }
    place(boxes, h * 0.1, screen.w / screen.h);
    const pad = h * 0.25;
    const xs = boxes.flatMap((b) => [b.cx - b.w / 2 - pad, b.cx + b.w / 2 + pad]);
    const ys = boxes.flatMap((b) => [b.cy - b.h / 2 - pad, b.cy + b.h / 2 + pad]);
    const [left, top] = [Math.min(base[0], ...xs), Math.min(base[1], ...ys)];
    const next = [left, top, Math.max(base[0] + base[2], ...xs) - left, Math.max(base[1] + base[3], ...ys) - top];
    const grown = next[2] > fit[2] + 1e-9 || next[3] > fit[3] + 1e-9;
    fit = next;
    if (!grow || !grown || Math.min(screen.w / fit[2], screen.h / fit[3]) * h >= MIN_PX * 0.95) break;
  }
  return {
    fit,
    boxes: boxes.map(({ u, sx, sy, cx, cy, w, h }) => ({ id: u.id, box: { x: cx - w / 2, y: cy - h / 2, w, h, sx, sy } })),
  };
}
