"""The legal actions' cost on large boards (issue 25), each figure beside its anchor measured
in the same run:

    .venv/bin/python bench/legal.py [--rounds 3] [--requests 40]

(1) growth: `legal_actions` in process on a freeform board of 25, 100 and 250 units a side
    (each unit a status flag and a marker, the shape of the issue's boards; 250 a side is
    past the creation limit and is built in memory): the default answer's time (median of
    `--rounds`), its JSON size and the bodies decided; and every page of it read one after
    the other (the whole answer). Anchor: 25 a side. Target: 100 a side within 5x of it.
(2) bulkhead: a real `battlelog serve` (fresh SQLite) holding a match of 200 units a side
    (the most a side may have) and a small demo match. The small match's action round trip
    (p50 of `--requests`), idle, then while 8 clients read the large match's legal actions
    without pause, each asking for answers not yet cached (its pages, then single units).
    Anchor: the idle round trip. Target: within 2x of it.
Prints a table and returns the figures.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import http_load
import shown

from api import scenarios
from domain.commands import UNITS_PER_SIDE, UnitSpec
from domain.legal import legal_actions
from domain.legal import probe as legal_probe
from tests.unit.legal_boards import board
from tests.unit.legal_play import Match

SIZES = (25, 100, 250)
GROWTH_TARGET = 5.0
BULKHEAD_TARGET = 2.0
READERS = 8


def _counted() -> tuple[list[int], Any]:
    """Counts the bodies decided for the legal actions (and the `decide` to put back)."""
    counted = [0]
    decide = legal_probe.decide

    def counting(*args: Any, **kwargs: Any) -> Any:
        counted[0] += 1
        return decide(*args, **kwargs)

    legal_probe.decide = counting  # type: ignore[assignment]
    return counted, decide


def big_match(n: int) -> Match:
    """A match of `n` units a side; past the creation limit, the units beyond it are put
    in its state directly (as no request can)."""
    m = Match("big", body=board(min(n, UNITS_PER_SIDE)))
    if n > UNITS_PER_SIDE:
        extra = [UnitSpec.model_validate(u).to_unit() for u in board(n)["units"]]
        m.state = m.state.model_copy(update={"units": {u.id: u for u in extra}})
    return m


def growth(rounds: int) -> dict[str, float]:
    f: dict[str, float] = {}
    counted, decide = _counted()
    try:
        _growth(rounds, f, counted)
    finally:
        legal_probe.decide = decide  # type: ignore[assignment]
    return f


def _growth(rounds: int, f: dict[str, float], counted: list[int]) -> None:
    for n in SIZES:
        m = big_match(n)
        assert len(m.state.in_play()) == 2 * n
        times = []
        for _ in range(rounds):
            counted[0] = 0
            t = time.perf_counter()
            answer = legal_actions(m.state, m.ruleset, "red", version=m.version)
            times.append(time.perf_counter() - t)
        f[f"legal_{n}_s"] = statistics.median(times)
        f[f"legal_{n}_bytes"] = len(answer.model_dump_json())
        f[f"legal_{n}_decides"] = counted[0]
        f[f"legal_{n}_pages"] = answer.page.pages
        counted[0] = 0
        t = time.perf_counter()
        size, page = 0, answer
        size = len(page.model_dump_json())
        while page.page.next is not None:
            page = legal_actions(m.state, m.ruleset, "red", version=m.version,
                                 page=page.page.next)
            size += len(page.model_dump_json())
        f[f"legal_{n}_whole_s"] = time.perf_counter() - t + f[f"legal_{n}_s"]
        f[f"legal_{n}_whole_bytes"] = size
        f[f"legal_{n}_whole_decides"] = counted[0] + f[f"legal_{n}_decides"]


def _join(client: httpx.Client, url: str, body: dict[str, Any]) -> tuple[str, dict[str, str]]:
    r = client.post(f"{url}/api/matches", json=body)
    r.raise_for_status()
    created = r.json()
    tokens = {}
    for side in body["sides"]:
        join = created["tokens"][f"join:{side['id']}"]
        joined = client.post(f"{url}/api/matches/{created['match_id']}/seats",
                             json={"player": side["name"]},
                             headers={"Authorization": f"Bearer {join}"})
        joined.raise_for_status()
        tokens[side["id"]] = joined.json()["token"]
    return created["match_id"], tokens


def _actions(client: httpx.Client, url: str, match: str, token: str, count: int) -> list[float]:
    """`count` actions on the small match, one at a time (a marker placed, then removed)."""
    out = []
    for i in range(count):
        body = ({"type": "place_marker", "unit_id": "sq1", "kind": "smoke", "count": 1}
                if i % 2 == 0 else {"type": "remove_marker", "unit_id": "sq1", "kind": "smoke",
                                    "count": 1})
        t = time.perf_counter()
        r = client.post(f"{url}/api/matches/{match}/actions", json=body,
                        headers={"Authorization": f"Bearer {token}"})
        out.append(time.perf_counter() - t)
        assert r.status_code == 201, r.text
    return out


def bulkhead(requests: int) -> dict[str, float]:
    f: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = http_load.start_server(str(Path(tmp) / "legal.db"))
        try:
            url = server.url
            with httpx.Client(timeout=120) as client:
                big, big_tokens = _join(client, url, board(UNITS_PER_SIDE))
                small, small_tokens = _join(
                    client, url, scenarios.load("atomic-africa-demo").model_dump(mode="json"))
                token = small_tokens["red"]
                _actions(client, url, small, token, 10)  # warm
                idle = _actions(client, url, small, token, requests)
                first = client.get(f"{url}/api/matches/{big}/legal",
                                   headers={"Authorization": f"Bearer {big_tokens['red']}"})
                pages = first.json()["page"]["pages"]
                asks = [f"page={p}" for p in range(2, pages + 1)] + [
                    f"unit={side}{i}" for i in range(UNITS_PER_SIDE) for side in ("red", "blue")]
                stop = threading.Event()
                served: list[float] = []
                lock = threading.Lock()

                def reader(k: int) -> None:
                    with httpx.Client(timeout=300) as own:
                        for ask in asks[k::READERS]:
                            if stop.is_set():
                                return
                            t = time.perf_counter()
                            r = own.get(f"{url}/api/matches/{big}/legal?{ask}",
                                        headers={"Authorization": f"Bearer {big_tokens['blue']}"})
                            with lock:
                                served.append(time.perf_counter() - t)
                            assert r.status_code == 200, r.text

                threads = [threading.Thread(target=reader, args=(k,)) for k in range(READERS)]
                for t in threads:
                    t.start()
                time.sleep(1.0)  # (the readers under way)
                loaded = _actions(client, url, small, token, requests)
                stop.set()
                for t in threads:
                    t.join()
            f["legal_big_first_page_bytes"] = len(first.content)
            f["legal_action_idle_p50_s"] = statistics.median(idle)
            f["legal_action_loaded_p50_s"] = statistics.median(loaded)
            f["legal_action_loaded_p95_s"] = sorted(loaded)[int(0.95 * (len(loaded) - 1))]
            f["legal_readers_answers"] = len(served)
            f["legal_readers_p50_s"] = statistics.median(served) if served else 0.0
        finally:
            server.stop()
    return f


def measure(rounds: int = 3, requests: int = 40) -> dict[str, float]:
    return {**growth(rounds), **bulkhead(requests)}


def ms(s: float) -> str:
    return f"{s * 1000:.1f} ms"


def rows(f: dict[str, float]) -> list[tuple[str, str, str, str]]:
    """(name, value, beside its anchor, the figure's key) for each figure measured."""
    if "legal_25_s" not in f:
        return []
    base = f["legal_25_s"]
    out = []
    for n in SIZES:
        out.append((f"{n} a side: the default answer", ms(f[f"legal_{n}_s"]),
                    (f"{f[f'legal_{n}_s'] / base:.2f}x 25 a side; "
                    f"{f[f'legal_{n}_bytes'] / 1024:.0f} KiB, "
                    f"{f[f'legal_{n}_decides']:.0f} decided, 1 of {f[f'legal_{n}_pages']:.0f} "
                    "page(s)"), f"legal_{n}_s"))
        out.append((f"{n} a side: every page", ms(f[f"legal_{n}_whole_s"]),
                    (f"{f[f'legal_{n}_whole_s'] / f['legal_25_whole_s']:.2f}x 25 a side; "
                    f"{f[f'legal_{n}_whole_bytes'] / 1024:.0f} KiB, "
                    f"{f[f'legal_{n}_whole_decides']:.0f} decided"), f"legal_{n}_whole_s"))
    idle, loaded = f["legal_action_idle_p50_s"], f["legal_action_loaded_p50_s"]
    out.append(("another match's action, idle p50", ms(idle), "anchor",
                "legal_action_idle_p50_s"))
    out.append((f"the same, {READERS} readers of {UNITS_PER_SIDE} a side", ms(loaded),
                (f"{loaded / idle:.2f}x idle; p95 {ms(f['legal_action_loaded_p95_s'])}; "
                f"{f['legal_readers_answers']:.0f} legal answers read meanwhile, p50 "
                f"{ms(f['legal_readers_p50_s'])}"), "legal_action_loaded_p50_s"))
    return out


def checks(f: dict[str, float]) -> list[tuple[str, bool, str]]:
    if "legal_25_s" not in f:
        return []
    grow = f["legal_100_s"] / f["legal_25_s"]
    whole = f["legal_100_whole_s"] / f["legal_25_whole_s"]
    load = f["legal_action_loaded_p50_s"] / f["legal_action_idle_p50_s"]
    return [
        ("the default answer at 100 a side within 5x of 25 a side", grow <= GROWTH_TARGET,
         f"{grow:.2f}x"),
        ("every page at 100 a side within 5x of 25 a side", whole <= GROWTH_TARGET,
         f"{whole:.2f}x"),
        (f"another match's action within 2x of idle during {READERS} large legal reads",
         load <= BULKHEAD_TARGET, f"{load:.2f}x"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    f = measure(args.rounds, args.requests)
    shown.show(f, rows, checks, as_json=args.json)


if __name__ == "__main__":
    main()
