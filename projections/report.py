"""The after-action report: scenario, sides, outcome, a turn-by-turn summary, disputes and
rulings, dice luck, integrity (the chain head and the result of `battlelog verify`'s check of
the stored log, `domain.integrity.verify`), and charts as hand-written inline SVG (VP per side over the turns, units
and figures remaining per side, a histogram per die type). `markdown()` and `html()` (one
self-contained page) render the same `Report`. A `Report` holds the players' texts as they
typed them; each renderer quotes every one of them for its format (`projections.quoting`)."""

from __future__ import annotations

import base64
import hashlib
import html as escape
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from domain import events as ev
from domain.evolve import evolve, initial_state
from domain.history import effective_events
from domain.integrity import Report as Verified
from domain.state import MatchState, Outcome
from projections.dice_stats import standing, statistics
from projections.quoting import markdown_text
from projections.report_charts import Quote, histogram, line_chart
from projections.sentences import narrated
from projections.sentences_outcome import by_action


@dataclass
class TurnSummary:
    turn: int
    actions: dict[str, int] = field(default_factory=dict)  # seat -> actions taken
    eliminated: list[tuple[str, str, str]] = field(default_factory=list)  # unit, side, reason
    splits: list[tuple[str, str]] = field(default_factory=list)  # unit, the new unit's name
    rallies: list[str] = field(default_factory=list)  # unit
    vp: dict[str, int] = field(default_factory=dict)  # side -> VP scored this turn
    said: list[str] = field(default_factory=list)  # the turn in words: each action's outcome
    # where a rule decided it (projections.sentences_outcome), else each event's sentence


@dataclass
class Report:
    title: str
    ruleset: str
    sides: list[tuple[str, str]]
    outcome: Outcome | None  # None: in progress
    turns: list[TurnSummary]
    vp_by_turn: dict[str, list[int]]  # side -> VP total at the end of each turn
    units_by_turn: dict[str, list[int]]
    figures_by_turn: dict[str, list[int]]
    disputes: list[dict[str, Any]]  # each with `said`: the dispute or ruling in words
    dice: dict[str, Any]
    histograms: dict[str, dict[int, int]]  # die type -> face -> count (every seat)
    integrity: Verified | None = None  # the check of the export; None: not checked


def integrity_lines(report: Report) -> list[str]:
    """The chain head and what the check found, in words (docs/integrity.md)."""
    checked = report.integrity
    if checked is None:
        return []

    def count(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"

    head = f"Chain head: {checked.chain_head or '-'} (after {count(checked.events, 'event', 'events')})"
    if not checked.ok:
        return [head, "Check (as battlelog verify): PROBLEM: " + "; ".join(checked.problems)]
    found = [f"{count(checked.events, 'event', 'events')} linked and unchanged"]
    if checked.rolls_checked:
        found.append(count(checked.rolls_checked, "server roll or shuffle", "server rolls and "
                           "shuffles") + " recomputed from the revealed seeds, all matching")
    elif not checked.rolls_unchecked:
        found.append("no server roll or shuffle to recompute")
    if checked.rolls_unchecked:
        found.append(f"waiting for a seed (revealed at the end): {checked.rolls_unchecked}")
    if checked.rolls_inherited:
        found.append("copied from the match this one was forked from (checked there): "
                     f"{checked.rolls_inherited}")
    return [head, "Check (as battlelog verify): OK: " + "; ".join(found)]


def build(events: Iterable[ev.Event], viewer: str = "",
          integrity: Verified | None = None) -> Report:
    """The report of a whole log, as `viewer` may see it (by default what every seat sees):
    each event said as the events route says it (`projections.sentences`); `integrity`: the
    check of the match's export (`domain.integrity.verify`), shown as it found it."""
    log = list(events)
    created = log[0]
    assert isinstance(created, ev.MatchCreated)
    narrator = narrated(log, viewer)
    words = {e.version: narrator.sentence(e) for e in log}
    told: dict[int, list[ev.Event]] = defaultdict(list)  # turn -> its events, said by action
    kept = effective_events(log)
    state = initial_state(created)
    sides = [s.id for s in state.sides]
    summaries: dict[int, TurnSummary] = {}
    ends: dict[int, MatchState] = {}
    commands: dict[int, dict[str, set[str | None]]] = defaultdict(lambda: defaultdict(set))
    for event in kept[1:]:
        before = state
        state = evolve(state, event)
        turn = event.turn
        summary = summaries.setdefault(turn, TurnSummary(turn))
        commands[turn][event.actor].add(event.command_id)
        told[turn].append(event)
        if isinstance(event, ev.UnitRemoved):
            unit = before.units[event.unit_id]
            summary.eliminated.append((unit.name, unit.side, event.reason))
        elif isinstance(event, ev.UnitSplit):
            summary.splits.append((before.units[event.unit_id].name, event.new_unit.name))
        elif isinstance(event, ev.UnitRallied):
            summary.rallies.append(before.units[event.unit_id].name)
        elif isinstance(event, ev.VictoryPointsScored):
            summary.vp[event.side] = summary.vp.get(event.side, 0) + event.points
        ends[before.turn.turn] = before
        ends[state.turn.turn] = state
    for turn, seats in commands.items():
        summaries[turn].actions = {seat: len(ids) for seat, ids in sorted(seats.items())}
        summaries[turn].said = by_action(told[turn], narrator)
    last = max(ends, default=1)
    turns = range(1, last + 1)
    snapshots = [ends.get(t) or state for t in turns]
    disputes = [{**e.public(viewer), "said": words[e.version]} for e in log
                if isinstance(e, ev.DisputeOpened | ev.DisputeRuled)]
    histograms: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for roll in standing(log):
        for face in roll.faces:
            histograms[f"d{roll.sides}"][face] += 1
    return Report(
        title=created.scenario, ruleset=narrator.names.game(created),
        sides=[(s.id, s.name) for s in state.sides], outcome=state.outcome,
        turns=[summaries[t] for t in sorted(summaries)],
        vp_by_turn={s: [snap.vp[s].points for snap in snapshots] for s in sides},
        units_by_turn={s: [len(snap.in_play(s)) for snap in snapshots] for s in sides},
        figures_by_turn={s: [sum(u.figures or 0 for u in snap.in_play(s)) for snap in snapshots]
                         for s in sides},
        disputes=disputes, dice=statistics(log)["seats"],
        histograms={die: dict(sorted(faces.items())) for die, faces in
                    sorted(histograms.items(), key=lambda d: int(d[0][1:]))},
        integrity=integrity)


# ---- charts -------------------------------------------------------------------------------

def charts(report: Report, q: Quote = escape.escape) -> list[str]:
    return [svg for _, svg in drawn(report, q)]


def drawn(report: Report, q: Quote = escape.escape) -> list[tuple[str, str]]:
    """Each chart with what its x axis is: "turns" (a line chart) or the die ("d6")."""
    names = dict(report.sides)
    out = [("turns", line_chart("Victory points per side", report.vp_by_turn, names, q)),
           ("turns", line_chart("Units in play per side", report.units_by_turn, names, q))]
    if any(any(v) for v in report.figures_by_turn.values()):
        out.append(("turns", line_chart("Figures remaining per side", report.figures_by_turn,
                                        names, q)))
    out += [(die, histogram(die, faces)) for die, faces in report.histograms.items()]
    return out


# ---- rendering ----------------------------------------------------------------------------
# Each line is built with `q`, the quoting of the format (Markdown or HTML), applied to every
# text a player typed (names, ids, reasons, disputes, rulings) and to nothing of ours.



def _names(report: Report) -> dict[str, str]:
    """Seat -> its name: each side's, and the referee."""
    return {**dict(report.sides), "referee": "Referee"}


def _turn_lines(report: Report, q: Quote) -> list[tuple[str, list[str]]]:
    """Each turn's line (the seats by name, never by id) and its events in words."""
    names = _names(report)
    lines = []
    for t in report.turns:
        said = [", ".join(f"{q(names.get(seat, seat))} {n} action(s)"
                          for seat, n in t.actions.items())]
        if t.eliminated:
            said.append("left play: " + "; ".join(
                f"{q(unit)} ({q(names.get(side, side))}, {q(reason)})"
                for unit, side, reason in t.eliminated))
        if t.splits:
            said.append("splits: " + "; ".join(f"{q(unit)} -> {q(new)}" for unit, new in t.splits))
        if t.rallies:
            said.append("rallied: " + ", ".join(q(unit) for unit in t.rallies))
        if t.vp:
            said.append("VP: " + ", ".join(f"{q(names.get(s, s))} {p:+d}"
                                           for s, p in t.vp.items()))
        lines.append((f"Turn {t.turn}: " + ". ".join(said) + ".", [q(x) for x in t.said]))
    return lines


def _luck_lines(report: Report, q: Quote) -> list[str]:
    """Per seat and die type: how many dice, the luck verdict where the sample supports one
    (`projections.luck`), and the chi-square test where each face was expected five times."""
    names = _names(report)

    def chi_square(p: float) -> str:
        return " (chi-square p " + ("< 0.001)" if p < 0.001 else f"= {p:.3f})")

    return [f"{q(names.get(seat, seat))}, {die}: {stats['dice']} dice, {stats['luck']}"
            + (chi_square(stats["p_value"]) if stats["enough_dice"] else "")
            for seat, dice in report.dice.items() for die, stats in dice.items()]


def _dispute_lines(report: Report, q: Quote) -> list[str]:
    return [q(d["said"]) for d in report.disputes]


def _outcome(report: Report, q: Quote) -> str:
    if report.outcome is None:
        return "in progress"
    winner = (f"won by {q(_names(report).get(report.outcome.winner, report.outcome.winner))}"
              if report.outcome.winner else "a tie")
    return f"{winner}: {q(report.outcome.reason)}" if report.outcome.reason else winner


def markdown(report: Report) -> str:
    q = markdown_text
    sides = ", ".join(q(name) for _, name in report.sides)
    parts = [f"# After-action report: {q(report.title)}", "",
             f"- Game: {q(report.ruleset)}", f"- Sides: {sides}",
             f"- Outcome: {_outcome(report, q)}", "", "## Turn by turn", "",
             *(item for line, said in _turn_lines(report, q)
               for item in (f"- {line}", *(f"  - {x}" for x in said))),
             "", "## Disputes and rulings",
             "", *(f"- {line}" for line in _dispute_lines(report, q) or ["none"]), "",
             "## Dice", "", *(f"- {line}" for line in _luck_lines(report, q) or ["no dice"]),
             "", "## Integrity", "",
             *(f"- {line}" for line in integrity_lines(report) or ["not checked"]),
             "", "## Charts", "", *(f"{svg}\n" for svg in charts(report, q))]
    return "\n".join(parts) + "\n"


# The HTML report's one style sheet, the same text every time: the table page opens the
# report in a tab of its own, whose Content-Security-Policy allows this text by its hash.
# (a list item breaks anywhere: the chain head is 64 letters without a space)
STYLE = ("body{font-family:system-ui,sans-serif;max-width:52rem;margin:1rem auto;"
         "padding:0 1rem;color:#111;background:#fff}svg{max-width:100%;height:auto;"
         "display:block;margin:1rem 0}li{margin:.2rem 0;overflow-wrap:anywhere}")
STYLE_HASH = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()


def html(report: Report) -> str:
    q = escape.escape

    def items(lines: list[str]) -> str:
        return "".join(f"<li>{line}</li>" for line in lines)

    def turns() -> str:
        return "".join(f"<li>{line}" + (f"<ul>{items(said)}</ul>" if said else "") + "</li>"
                       for line, said in _turn_lines(report, q))

    sides = ", ".join(q(name) for _, name in report.sides)
    title = q(report.title)
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>After-action report: {title}</title><style>"
            f"{STYLE}</style></head><body>"
            f"<h1>After-action report: {title}</h1><ul>"
            f"<li>Game: {q(report.ruleset)}</li><li>Sides: {sides}</li>"
            f"<li>Outcome: {_outcome(report, q)}</li></ul>"
            f"<h2>Turn by turn</h2><ul>{turns()}</ul>"
            f"<h2>Disputes and rulings</h2><ul>{items(_dispute_lines(report, q) or ['none'])}"
            f"</ul><h2>Dice</h2><ul>{items(_luck_lines(report, q) or ['no dice'])}</ul>"
            "<h2>Integrity</h2><ul>"
            f"{items([q(x) for x in integrity_lines(report)] or ['not checked'])}</ul>"
            f"<h2>Charts</h2>{''.join(charts(report))}</body></html>\n")
