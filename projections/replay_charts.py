"""The after-action charts a replay file carries (docs/replay.md): the report's own charts
(`projections.report`: VP, units and figures per side over the turns, a histogram per die
type), drawn once for the viewer's log, with where each turn lies across a line chart so
that the page marks the turn on screen and veils the turns after it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain import events as ev
from projections import report, report_charts


def replay_charts(events: Iterable[ev.Event], viewer: str) -> list[dict[str, Any]]:
    """Each chart: `svg`, and `turns` (the x of each turn, the plot's `top` and `bottom`)
    for a line chart or `die` ("d6") for a histogram."""
    built = report.build(events, viewer)
    turns = max((len(v) for v in built.vp_by_turn.values()), default=0)
    out: list[dict[str, Any]] = []
    for kind, svg in report.drawn(built):
        if kind == "turns":
            out.append({"svg": svg, "turns": [round(report_charts.turn_x(i, turns), 1)
                                              for i in range(turns)],
                        "top": report_charts.PAD, "bottom": report_charts.H - report_charts.PAD})
        else:
            out.append({"svg": svg, "die": kind})
    return out
