// The after-action charts inside a replay file (docs/replay.md): the report's own drawings
// (projections/report.py, carried in the file as SVG text), following the event on screen:
// each line chart marks the turn of that event and veils the turns after it, each dice
// histogram outlines the faces that event rolled.

import { h, s } from "./dom.js";

/** Each chart of the file made into a drawing once, with its marks (moved, not redrawn). */
export function chartFigures(charts) {
  return charts.map((chart) => {
    const parsed = new DOMParser().parseFromString(chart.svg, "image/svg+xml").documentElement;
    const svg = document.importNode(parsed, true);
    if (!chart.turns) return { chart, svg };
    const right = chart.turns.at(-1) + 8;
    const veil = s("rect", { class: "chart-later", y: chart.top, height: chart.bottom - chart.top, fill: "#ffffff", "fill-opacity": "0.75" });
    const line = s("line", { class: "chart-now", y1: chart.top - 6, y2: chart.bottom, stroke: "#1f5fbf", "stroke-width": 3 });
    svg.append(veil, line);
    return { chart, svg, veil, line, right };
  });
}

/** Move every chart's marks to `turn`, outline `faces` of the die `die` ("d6"). */
export function followCharts(figures, turn, die, faces) {
  for (const f of figures) {
    if (f.line) {
      const i = Math.min(Math.max(turn, 1), f.chart.turns.length) - 1;
      const x = f.chart.turns[i];
      const from = i + 1 < f.chart.turns.length ? (x + f.chart.turns[i + 1]) / 2 : f.right;
      f.line.setAttribute("x1", x);
      f.line.setAttribute("x2", x);
      f.veil.setAttribute("x", from);
      f.veil.setAttribute("width", Math.max(0, f.right - from));
      f.svg.dataset.turn = String(i + 1);
    } else {
      for (const bar of f.svg.querySelectorAll("rect[data-face]")) {
        const now = f.chart.die === die && faces.includes(Number(bar.dataset.face));
        bar.classList.toggle("rolled-now", now);
        if (now) { bar.setAttribute("stroke", "#111"); bar.setAttribute("stroke-width", "3"); }
        else { bar.removeAttribute("stroke"); bar.removeAttribute("stroke-width"); }
      }
    }
  }
}

/** The charts panel's children at `turn`, with the event's dice (if it rolled any). */
export function chartsShown(figures, turn, roll) {
  const die = roll ? `d${/d(\d+)/.exec(String(roll.notation))?.[1]}` : "";
  const faces = roll && Array.isArray(roll.dice) ? roll.dice : [];
  followCharts(figures, turn, die, faces);
  return [h("p", { class: "hint", id: "charts-at" }, `The whole match's charts, marked at turn ${turn}, where this event is; the turns after it are pale.`
    + (faces.length ? ` This event's dice are outlined in the ${die} chart.` : "")),
  figures.map((f) => f.svg)];
}
