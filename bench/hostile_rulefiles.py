"""Hostile ruleset files (issue 37), each figure beside its anchor measured in the same run:

    .venv/bin/python bench/hostile_rulefiles.py [--units 400] [--rounds 12] [--json]

(1) Against a real `battlelog serve` (fresh SQLite file), three files on a match of
    `--units` units: `unit_info` reading every pair of units for each unit; 150 `expects`
    entries each reading every pair; a guard calling hex_distance 12 times over every
    pair. Their requests (the board after a new version; a move; the legal answer after a
    new version) are timed, one after another in a thread, while a small match of the
    built-in freeform game is asked its board after a note of its own (a pair of
    requests) again and again. Anchor: the same pairs with the server idle, just before.
    Targets: no hostile request held past 1 s (the work budget, docs/rulesets/authoring.md);
    the other match's pairs within 2x their idle time (median).
(2) In this process: Wing Command's board on 388 units (the shipped file, the demo's units
    21 times) against the same boards with the Python Wing Command's extras; the steps it
    takes of the board's budget.
(3) In this process: checking the costliest files built within every limit of the load
    (CPU time), against checking the shipped extended-sequence.yaml.
Prints a table and returns the figures (bench/run.py includes them, section `rulefiles`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import http_load
import shown
from rulefiles_states import demo_states

from domain.rulefiles import cost
from domain.rulesets import get_ruleset
from domain.rulesets.wing_command import wing_command
from projections import views
from projections.rulefile_load import BUILT_IN, check_text

WORK_TARGET_S = 1.0  # the work budget, in time (docs/rulesets/authoring.md)
OTHER_TARGET_X = 2.0
TWELVE = " + ".join(["hex_distance(a.hex, b.hex)"] * 12)
PAIRS = "units.exists(a, units.exists(b, a.hex == b.hex && b.id == unit.id && a.id == ''))"
HEAD = """format_version: 1
id: hostile-{name}
title: Hostile {name}
sides: {{count: 2}}
unit_kinds: {{squad: {{title: Squad}}}}
actions: {{move_unit: {{title: Move}}, add_note: {{title: Note}}}}
sequence:
  - step: move
    title: Movement
    allows: [move_unit, add_note]
"""
FILES = {
    "unit_info": HEAD.format(name="unit-info") + f"unit_info:\n  - kinds: [squad]\n    shows: {{alone: \"!({PAIRS})\"}}\n",
    "expects": HEAD.format(name="expects") + "expects:\n" + "".join(
        f"  - {{when: \"units.exists(a, units.exists(b, a.hex == b.hex && a.id == 'x{n}'))\","
        f" says: entry {n}}}\n" for n in range(150)),
    "guard": HEAD.format(name="guard") + "guards:\n  - {actions: [move_unit], rule: HG-1, says: apart, "
             f"binds_referee: true, when: \"units.all(a, units.all(b, {TWELVE} < 99999))\"}}\n",
}
SIDES = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]


class Match:
    def __init__(self, http: httpx.Client, body: dict[str, Any]) -> None:
        r = http.post("/api/matches", json=body)
        r.raise_for_status()
        self.http, self.id = http, r.json()["match_id"]
        self.auth = {"Authorization": f"Bearer {r.json()['tokens']['referee']}"}

    def post(self, **action: Any) -> httpx.Response:
        return self.http.post(f"/api/matches/{self.id}/actions", json=action,
                              headers=self.auth)

    def get(self, what: str) -> httpx.Response:
        return self.http.get(f"/api/matches/{self.id}/{what}", headers=self.auth)


def timed(run: Any) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def other_pair(match: Match) -> float:
    """The other match's request: a note of its own, then its board (built anew)."""
    def run() -> None:
        assert match.post(type="add_note", text="still here").status_code == 201
        assert match.get("board").status_code == 200
    return timed(run)


def hostile_requests(match: Match, name: str) -> dict[str, float]:
    """Each request of the hostile match once, timed (a note first: a new version)."""
    assert match.post(type="add_note", text="again").status_code == 201
    out = {"board": timed(lambda: match.get("board").raise_for_status())}
    if name == "guard":
        out["move"] = timed(lambda: match.post(type="move_unit", unit_id="u0",
                                               to={"hex": "0101"}))
        out["legal"] = timed(lambda: match.get("legal").raise_for_status())
    return out


def load(match: Match, name: str, held: dict[str, list[float]],
         stop: threading.Event) -> None:
    """The hostile match's requests, again and again until `stop`."""
    while not stop.is_set():
        for what, took in hostile_requests(match, name).items():
            held.setdefault(what, []).append(took)


def server_figures(units: int, rounds: int) -> dict[str, float]:
    f: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = http_load.start_server(str(Path(tmp) / "b.db"),
                                        {"BATTLELOG_CREATE_RATE": "off"})
        try:
            with httpx.Client(base_url=server.url, timeout=300) as http, httpx.Client(
                    base_url=server.url, timeout=300) as mine:
                small = Match(mine, {"ruleset": "freeform", "scenario": "small", "sides": SIDES,
                                     "units": [{"id": "a", "side": "red", "name": "A"}]})
                for _ in range(3):  # warmed up: the game built, the first boards served
                    other_pair(small)
                idle = [other_pair(small) for _ in range(rounds)]
                f["other idle median ms"] = statistics.median(idle) * 1000
                for name, text in FILES.items():
                    stored = http.post("/api/rulesets", content=text,
                                       headers={"Content-Type": "application/yaml"})
                    stored.raise_for_status()
                    hostile = Match(http, {
                        "ruleset": f"hostile-{name.replace('_', '-')}", "ruleset_hash": stored.json()["hash"],
                        "scenario": name, "sides": SIDES, "units": [
                            {"id": f"u{i}", "side": ("red", "blue")[i % 2], "name": f"u{i}",
                             "kind": "squad",
                             "position": {"hex": f"{i % 20 + 1:02d}{i // 20 + 1:02d}"}}
                            for i in range(units)]})
                    held: dict[str, list[float]] = {}
                    stop = threading.Event()
                    thread = threading.Thread(target=load, args=(hostile, name, held, stop))
                    thread.start()
                    during = [other_pair(small) for _ in range(rounds)]
                    stop.set()
                    thread.join()
                    for what, times in held.items():
                        f[f"{name} {what} max ms"] = max(times) * 1000
                    f[f"{name} other median ms"] = statistics.median(during) * 1000
        finally:
            server.stop()
    return f


def wing_command_figures(rounds: int) -> dict[str, float]:
    states = demo_states(21, scenario="wing-command-demo.json", turns=1)[:rounds]
    python = wing_command({})
    board = views.board_view
    meter = cost.Meter(10 ** 9)
    with cost.metered(meter):  # the steps the file's extras take, unbounded here
        file_info = get_ruleset(states[0].ruleset, states[0].options, None)
        for unit in states[0].units.values():
            assert file_info.unit_info is not None
            file_info.unit_info(states[0], unit)
    from_file = statistics.median(timed(lambda s=s: board(s, "referee")) for s in states)
    setattr(views, "get_ruleset", lambda *a: python)  # noqa: B010 (the Python game's extras)
    try:
        anchor = statistics.median(timed(lambda s=s: board(s, "referee")) for s in states)
    finally:
        setattr(views, "get_ruleset", get_ruleset)  # noqa: B010
    return {"wing command units": len(states[0].units), "wing command file ms":
            from_file * 1000, "wing command python ms": anchor * 1000,
            "wing command steps": meter.spent}


def checked_files() -> dict[str, str]:
    """The costliest files we built within every limit of the load (every expression a
    new one: nothing is read twice)."""
    head = HEAD.format(name="check").replace("add_note: {title: Note}}",
                                             "add_note: {title: Note}, rule_roll: {title: R}}")

    def guards(n: int, e: str) -> str:
        return "guards:\n" + "".join(
            f"  - {{actions: [move_unit], rule: G{i}, says: r, when: \"{e.format(i=i)}\"}}\n"
            for i in range(n))

    nested = "units.exists(a, units.exists(b, " + " && ".join(["a.hex == b.hex"] * 24) + (
        " || turn == {i}))")
    rolls = "rolls:\n" + "".join(
        f"  r{i}: {{rule: R{i}, steps: [move], unit: false, dice: d6, target: "
        f"{{at_least: '4'}}, passes: {{says: ok}}, fails: {{says: nay}}, modifiers: ["
        + ", ".join(f"{i}+{k}" for k in range(10)) + "]}\n" for i in range(60))
    return {"200 short guards": head + guards(200, "turn > {i}"),
            "20 guards of 480 characters": head + guards(20, nested),
            "40 guards of 90 '!'": head + guards(40, "!" * 90 + "(turn > {i})"),
            "600 modifiers in 60 rolls": head + rolls}


def check_figures() -> dict[str, float]:
    def cpu(text: str) -> float:
        start = time.process_time()
        report = check_text(text, "bench")
        assert report.ruleset is not None, report.findings[:3]
        return time.process_time() - start

    anchor_text = (BUILT_IN / "extended-sequence.yaml").read_text()
    f = {"check anchor ms": statistics.median(cpu(anchor_text) for _ in range(3)) * 1000}
    for name, text in checked_files().items():
        f[f"check {name} ms"] = cpu(text) * 1000
        f[f"check {name} KB"] = len(text.encode()) / 1000
    return f


def measure(units: int = 400, rounds: int = 12) -> dict[str, float]:
    return {**server_figures(units, rounds), **wing_command_figures(3), **check_figures()}


def rows(f: dict[str, float]) -> list[tuple[str, str, str, Any]]:
    idle = f["other idle median ms"]
    out = []
    for name in FILES:
        for what in ("board", "move", "legal"):
            key = f"{name} {what} max ms"
            if key in f:
                out.append((f"{name}: {what}, the longest", f"{f[key]:.0f} ms",
                            f"target {WORK_TARGET_S * 1000:.0f} ms", f[key]))
        other = f[f"{name} other median ms"]
        out.append((f"{name}: another match meanwhile", f"{other:.1f} ms",
                    f"idle {idle:.1f} ms ({other / idle:.2f}x)", other))
    wc = f["wing command file ms"]
    out.append((f"Wing Command board, {f['wing command units']:.0f} units", f"{wc:.0f} ms",
                (f"Python's extras {f['wing command python ms']:.0f} ms "
                 f"({wc / f['wing command python ms']:.1f}x); "
                 f"{f['wing command steps']:,.0f} steps of {cost.BUDGET:,}"), wc))
    anchor = f["check anchor ms"]
    for name in checked_files():
        took = f[f"check {name} ms"]
        out.append((f"check: {name}", f"{took:.0f} ms CPU",
                    (f"{f[f'check {name} KB']:.1f} KB; extended sequence {anchor:.0f} "
                     f"ms ({took / anchor:.1f}x)"), took))
    return out


def checks(f: dict[str, float]) -> list[tuple[str, bool, str]]:
    idle = f["other idle median ms"]
    held = max(v for k, v in f.items() if k.endswith(" max ms"))
    other = max(f[f"{name} other median ms"] for name in FILES)
    return [
        ("no hostile request held past the work budget", held <= WORK_TARGET_S * 1000,
         f"{held:.0f} ms"),
        ("another match within 2x its idle time", other <= OTHER_TARGET_X * idle,
         f"{other:.1f} ms against {idle:.1f} ms"),
        ("Wing Command's board within the budget", f["wing command steps"] <= cost.BUDGET,
         f"{f['wing command steps']:,.0f} steps"),
        ("every check within 1 s of CPU", all(
            f[f"check {name} ms"] <= 1000 for name in checked_files()), ""),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    shown.show(measure(args.units, args.rounds), rows, checks, as_json=args.json)


if __name__ == "__main__":
    main()
