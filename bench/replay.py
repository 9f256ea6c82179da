"""The replay file (issue 29, docs/replay.md), each figure beside its anchor measured in the
same run:

    .venv/bin/python bench/replay.py [--events 2000] [--steps 10] [--json]

A real `battlelog serve` (fresh SQLite) holds an Atomic Africa demo match played on to
`--events` events over HTTP (markers placed and taken off, units moved, server dice, notes).
(1) size: the referee's replay file against the referee's JSON Lines export of the same
    match; the viewer's fixed size (the file without the match's data). Targets: the file
    at most 3x the export plus the viewer; the viewer at most 300 KiB.
    Writing: the file's first request (written, not from the cache) against the export's,
    one after the other on the same server, in wall time and in the server's processor
    time (/proc/<pid>/stat: what another session's work on a shared machine moves less).
    Target (issue 39): written within 1.5x the export's time.
(2) opening, in Chromium at 390x844: the replay file from disk until its board is drawn
    (interactive) and until its check of the whole log is said; anchor: the table page of
    the same match, from the address to its board drawn with the seat's actions. Target:
    the replay interactive within the table page's time.
(3) a step forward: the replay's ▶ (median of `--steps`), against the table page's own
    ▶ in its time travel (the same number of steps, from `--steps` events back). Target:
    within the table page's time.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests"))  # the e2e conftest reads tests/leaks.py
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import shown
from conftest import CHROMIUM, CHROMIUM_ARGS, start_server
from cpu import cpu_of
from phone import PHONE, new_match

from api.replay_page import viewer_size

KiB = 1024


def played(server: str, events: int) -> tuple[dict[str, Any], int]:
    """An Atomic Africa demo match played on to at least `events` events."""
    match = new_match(server, "atomic-africa-demo")
    base = f"{server}/api/matches/{match['id']}"
    auth = {"Authorization": f"Bearer {match['seats']['referee']}"}
    moves = itertools.cycle([
        {"type": "place_marker", "kind": "suppression", "unit_id": "ml1"},
        {"type": "move_unit", "unit_id": "sq1", "to": {"x": 12.0, "y": 10.0}},
        {"type": "roll_dice", "notation": "2d6", "purpose": "fire", "unit_ids": ["sq1"]},
        {"type": "remove_marker", "kind": "suppression", "unit_id": "ml1"},
        {"type": "move_unit", "unit_id": "sq1", "to": {"x": 14.0, "y": 11.5}},
        {"type": "add_note", "text": "the ford is held"},
    ])
    version = 0
    with httpx.Client(headers=auth, timeout=30) as client:
        while version < events:
            r = client.post(f"{base}/actions", json=next(moves))
            r.raise_for_status()
            version = r.json()["version"]
    return match, version


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def measure(events: int, steps: int) -> dict[str, float]:
    f: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        proc, server = start_server(Path(folder) / "b.db")
        try:
            _written(server, proc.pid, events, steps, Path(folder), f)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return f


def _written(server: str, pid: int, events: int, steps: int, folder: Path,
             f: dict[str, float]) -> None:
    """The export and the replay file of one match, each timed (wall) and its server's
    processor time counted (less moved by other work on a shared machine), then opened."""
    from playwright.sync_api import sync_playwright

    match, head = played(server, events)
    f["events"] = head
    auth = {"Authorization": f"Bearer {match['seats']['referee']}"}
    cpu, start = cpu_of(pid), time.perf_counter()
    export = httpx.get(f"{server}/api/matches/{match['id']}/export", headers=auth,
                       timeout=120).content
    f["export_ms"], f["export_cpu_ms"] = _ms(start), (cpu_of(pid) - cpu) * 1000
    cpu, start = cpu_of(pid), time.perf_counter()
    film = httpx.get(f"{server}/api/matches/{match['id']}/replay", headers=auth,
                     timeout=600).content
    f["replay_write_ms"], f["replay_cpu_ms"] = _ms(start), (cpu_of(pid) - cpu) * 1000
    f["export_kib"], f["replay_kib"] = len(export) / KiB, len(film) / KiB
    f["viewer_kib"] = viewer_size() / KiB
    path = folder / "replay.html"
    path.write_bytes(film)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            _browse(browser, server, match, path, head, steps, f)
        finally:
            browser.close()


def _browse(browser: Any, server: str, match: dict[str, Any], path: Path, head: int,
            steps: int, f: dict[str, float]) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    # the table page: the seat's token given once, then the page opened afresh and timed
    page.goto(f"{server}/play/{match['id']}#seat={match['seats']['referee']}")
    page.wait_for_selector("#play .step-now")
    start = time.perf_counter()
    page.goto(f"{server}/play/{match['id']}")
    page.wait_for_selector("#board svg.map")
    page.wait_for_selector("#play .step-now")
    f["table_open_ms"] = _ms(start)
    _clicks(page, "#step-back", "#time-shown", steps)  # into the past: ▶ has somewhere to go
    f["table_step_ms"] = statistics.median(_clicks(page, "#step-forward", "#time-shown", steps))
    context.close()
    context = browser.new_context(viewport=PHONE)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        "file://") else route.abort())
    page = context.new_page()
    start = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_selector("#board svg.map")
    f["replay_open_ms"] = _ms(start)
    page.wait_for_selector("body[data-verified]")
    f["replay_verified_ms"] = _ms(start)
    f["replay_ok"] = float(page.evaluate("document.body.dataset.verified") == "yes")
    f["replay_step_ms"] = statistics.median(_clicks(page, "#step-forward", "#replay-shown",
                                                    steps))
    context.close()


def _clicks(page: Any, button: str, output: str, times: int) -> list[float]:
    """Tap `button` `times` times, each until `output` says something new: each tap's ms."""
    took = []
    for _ in range(times):
        before = page.locator(output).inner_text()
        start = time.perf_counter()
        page.locator(button).click()
        page.wait_for_function("([o, t]) => document.querySelector(o).textContent !== t",
                               arg=[output, before])
        took.append(_ms(start))
    return took


def rows(f: dict[str, float]) -> list[tuple[str, str, str, Any]]:
    per = (f["replay_kib"] - f["viewer_kib"]) / f["export_kib"]
    return [
        ("match", f"{f['events']:.0f} events", "Atomic Africa demo, referee's view", None),
        ("replay file size", f"{f['replay_kib']:.0f} KiB",
         f"export {f['export_kib']:.0f} KiB; (file - viewer) / export = {per:.2f}x", None),
        ("viewer's fixed size", f"{f['viewer_kib']:.0f} KiB", "target <= 300 KiB", None),
        ("replay file written", f"{f['replay_write_ms']:.0f} ms",
         f"export {f['export_ms']:.0f} ms ({f['replay_write_ms'] / f['export_ms']:.1f}x)", None),
        ("  its server CPU", f"{f['replay_cpu_ms']:.0f} ms",
         (f"export {f['export_cpu_ms']:.0f} ms "
          f"({f['replay_cpu_ms'] / max(f['export_cpu_ms'], 1):.1f}x)"), None),
        ("replay open (board drawn)", f"{f['replay_open_ms']:.0f} ms",
         (f"table page {f['table_open_ms']:.0f} ms "
         f"({f['replay_open_ms'] / f['table_open_ms']:.2f}x)"), None),
        ("replay open (log checked)", f"{f['replay_verified_ms']:.0f} ms",
         "verified" if f["replay_ok"] else "NOT verified", None),
        ("step forward", f"{f['replay_step_ms']:.1f} ms",
         (f"table page {f['table_step_ms']:.1f} ms "
         f"({f['replay_step_ms'] / f['table_step_ms']:.2f}x)"), None),
    ]


def checks(f: dict[str, float]) -> list[tuple[str, bool, str]]:
    per = (f["replay_kib"] - f["viewer_kib"]) / f["export_kib"]
    return [
        ("file <= 3x export + viewer", per <= 3, f"{per:.2f}x"),
        ("viewer <= 300 KiB", f["viewer_kib"] <= 300, f"{f['viewer_kib']:.0f} KiB"),
        ("written within 1.5x the export", f["replay_write_ms"] <= 1.5 * f["export_ms"],
         f"{f['replay_write_ms'] / f['export_ms']:.2f}x"),
        ("open within the table page's", f["replay_open_ms"] <= f["table_open_ms"],
         f"{f['replay_open_ms']:.0f} vs {f['table_open_ms']:.0f} ms"),
        ("step within the table page's", f["replay_step_ms"] <= f["table_step_ms"],
         f"{f['replay_step_ms']:.1f} vs {f['table_step_ms']:.1f} ms"),
        ("the file verifies itself", bool(f["replay_ok"]), ""),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    f = measure(args.events, args.steps)
    shown.show(f, rows, checks, as_json=args.json)


if __name__ == "__main__":
    main()
