"""The after-action report's charts (`projections.report`), as hand-written inline SVG: a
line per side over the turns (VP, units, figures), in the side's colour and its own stroke,
with a legend naming each side whole; a bar per face of a die type. Each player's text in
them is quoted with the format's `Quote` (HTML, or Markdown around the SVG)."""

from __future__ import annotations

import html as escape
import textwrap
from collections import defaultdict
from collections.abc import Callable

from projections.colours import NEUTRAL, side_colours
from projections.quoting import one_line

Quote = Callable[[str], str]  # the quoting of the format (Markdown or HTML) for a player's text
# 360 px wide: drawn at its own size on a phone (a wider chart shrank its 14 px labels to 9)
W, H, PAD = 360, 230, 44
TITLE_FONT, AXIS_FONT = 16, 14
LEGEND_FONT, LEGEND_LINE, LEGEND_CHARS = 14, 17, 34  # a line of the legend: whole words
DASHES = ["", "9 4", "2 4", "12 4 2 4"]  # each side's line its own stroke, not colour alone
DODGE = 4  # px between the lines of sides on the same value at a turn (none hides another)


def legend(names: list[tuple[str, str, str]], top: float, q: Quote) -> tuple[list[str], float]:
    """One entry per side below the plot: a stroke of its colour and its whole name, wrapped
    over as many lines as it needs, each line quoted with `q` (in Markdown, the SVG's text is
    Markdown too). `names`: (side id, name, colour). Returns the parts and their height."""
    parts, y = [], top
    for k, (side, name, colour) in enumerate(names):
        lines = textwrap.wrap(one_line(name), LEGEND_CHARS, break_long_words=True) or [""]
        spans = "".join(f'<tspan x="{PAD + 26}" dy="{0 if i == 0 else LEGEND_LINE}">'
                        f"{q(line)}</tspan>" for i, line in enumerate(lines))
        parts.append(f'<g data-side="{escape.escape(one_line(side))}">'
                     f'<line x1="{PAD}" y1="{y - 4}" x2="{PAD + 20}" y2="{y - 4}" '
                     f'stroke="{colour}" stroke-width="3"{dash(k)}/>'
                     f'<text x="{PAD + 26}" y="{y}" font-size="{LEGEND_FONT}" fill="{colour}">'
                     f"{spans}</text></g>")
        y += LEGEND_LINE * len(lines) + 4
    return parts, y - top


def line_chart(title: str, series: dict[str, list[int]], names: dict[str, str],
               q: Quote = escape.escape) -> str:
    """One line per side over the turns (x: turn 1..n), a dot at each turn, in the side's
    colour on the table page, with axes, a title and a legend below naming each side whole."""
    n = max((len(v) for v in series.values()), default=0)
    values = [v for vs in series.values() for v in vs] or [0]
    low, high = min(0, *values), max(1, *values)
    colours = side_colours(names)
    # one line each: in Markdown, a blank line would end the SVG
    entries, height = legend([(side, names.get(side, side), colours.get(side, NEUTRAL))
                              for side in series], H + 6, q)
    full = H + height + 6

    def x(i: int) -> float:
        return turn_x(i, n)

    def y(v: int) -> float:
        return H - PAD - (H - 2 * PAD) * ((v - low) / (high - low))

    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{full:.0f}" '
             f'viewBox="0 0 {W} {full:.0f}" role="img" aria-label="{escape.escape(title)}">'),
             f"<title>{escape.escape(title)}</title>",
             f'<rect width="{W}" height="{full:.0f}" fill="#ffffff"/>',
             f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" stroke="#333"/>',
             f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{H - PAD}" stroke="#333"/>',
             (f'<text x="{PAD}" y="{PAD - 18}" font-size="{TITLE_FONT}" fill="#111">'
             f"{escape.escape(title)}</text>"),
             (f'<text x="{PAD - 6}" y="{y(high) + 5:.1f}" font-size="{AXIS_FONT}" '
             f'text-anchor="end" fill="#333">{high}</text>'),
             (f'<text x="{PAD - 6}" y="{y(low) + 5:.1f}" font-size="{AXIS_FONT}" '
             f'text-anchor="end" fill="#333">{low}</text>')]
    every = -(-n // 8)  # at most 8 turn numbers under the axis, so none runs into another
    for i in range(0, n, every):
        parts.append(f'<text x="{x(i):.1f}" y="{H - PAD + 18}" font-size="{AXIS_FONT}" '
                     f'text-anchor="middle" fill="#333">{i + 1}</text>')
    parts.append(f'<text x="{W / 2:.0f}" y="{H - 6}" font-size="{AXIS_FONT}" '
                 'text-anchor="middle" fill="#333">turn</text>')
    shift = dodges(series)
    for k, (side, vs) in enumerate(series.items()):
        colour = colours.get(side, NEUTRAL)
        at = [(x(i), y(v) + shift[side][i]) for i, v in enumerate(vs)]
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in at)
        parts.append(f'<polyline data-side="{escape.escape(one_line(side))}" fill="none" '
                     f'stroke="{colour}" stroke-width="2.5"{dash(k)} points="{points}"/>')
        parts += [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="{colour}"/>'
                  for px, py in at]  # a match of one turn still shows its sides
    parts += entries
    parts.append("</svg>")
    return "".join(parts)


def turn_x(i: int, n: int) -> float:
    """Where the (i+1)-th of `n` turns is drawn across a line chart (the replay marks it)."""
    return PAD + (W - 2 * PAD) * (i / max(n - 1, 1))


def dash(k: int) -> str:
    """The k-th side's stroke pattern (solid, dashed, dotted ...) as an SVG attribute."""
    pattern = DASHES[k % len(DASHES)]
    return f' stroke-dasharray="{pattern}"' if pattern else ""


def dodges(series: dict[str, list[int]]) -> dict[str, list[float]]:
    """How far (px, up or down) each side's point at each turn is drawn off its value: the
    sides on the same value at a turn are spread DODGE px apart around it, the others not."""
    shift = {side: [0.0] * len(vs) for side, vs in series.items()}
    for i in range(max((len(vs) for vs in series.values()), default=0)):
        on: dict[int, list[str]] = defaultdict(list)
        for side, vs in series.items():
            if i < len(vs):
                on[vs[i]].append(side)
        for same in on.values():
            for j, side in enumerate(same):
                shift[side][i] = (j - (len(same) - 1) / 2) * DODGE
    return shift


def histogram(die: str, faces: dict[int, int]) -> str:
    """A bar per face of `die` (every face, zero or not)."""
    sides = int(die[1:])
    top = max(faces.values(), default=1) or 1
    width = (W - 2 * PAD) / sides
    title = f"{die}: how often each face came up"
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
             f'viewBox="0 0 {W} {H}" role="img" aria-label="{title}">'),
             f"<title>{title}</title>", f'<rect width="{W}" height="{H}" fill="#ffffff"/>',
             f'<text x="{PAD}" y="{PAD - 18}" font-size="{TITLE_FONT}" fill="#111">{title}</text>',
             f'<line x1="{PAD}" y1="{H - PAD}" x2="{W - PAD}" y2="{H - PAD}" stroke="#333"/>']
    every = 1 if sides <= 10 else 2 if sides <= 20 else 0  # face numbers that fit at 14 px
    for face in range(1, sides + 1):
        count = faces.get(face, 0)
        bar = (H - 2 * PAD) * count / top
        left = PAD + (face - 1) * width
        parts.append(f'<rect data-face="{face}" data-count="{count}" x="{left + 1:.1f}" '
                     f'y="{H - PAD - bar:.1f}" width="{width - 2:.1f}" height="{bar:.1f}" '
                     f'fill="{NEUTRAL}"/>')
        if every and count and (face - 1) % every == 0:
            parts.append(f'<text x="{left + width / 2:.1f}" y="{H - PAD - bar - 4:.1f}" '
                         f'font-size="{AXIS_FONT}" text-anchor="middle" fill="#111">{count}</text>')
        if every and (face - 1) % every == 0:
            parts.append(f'<text x="{left + width / 2:.1f}" y="{H - PAD + 18}" '
                         f'font-size="{AXIS_FONT}" text-anchor="middle" fill="#333">{face}</text>')
    parts.append("</svg>")
    return "".join(parts)
