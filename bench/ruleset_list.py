"""The list of rulesets every lobby page reads (`GET /api/rulesets`, issue 37 finding 9)
with many uploads stored, beside its anchor measured in the same run:

    .venv/bin/python bench/ruleset_list.py [--uploads 300] [--kinds 20] [--reads 20]

One service in process (FastAPI's TestClient) on a SQLite file: `--uploads` ruleset files
are uploaded, each a game of `--kinds` unit kinds of 20 attributes each (what a scenario
form of it would need is large: before issue 37 the list carried it for every file, 31.4
MB for 300 uploads). Then the first page of the list is read `--reads` times: its median
time, its size and how many entries it holds. Anchor: the same read on the same service
before any upload (the built-in games and the shipped ones), alternating with the
measured reads is not possible (the uploads are stored once), so the anchor is read just
before the uploads and once more after them, on a fresh service (same process).
Timings are wall-clock in this process; on a shared 2-core machine the ratio is what to
compare.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from projections.rulefile_load import check_file
from projections.store import sqlite_env

PATROL = ROOT / "tests" / "fixtures" / "rulefiles" / "patrol.yaml"


def big_file(n: int, kinds: int) -> dict[str, Any]:
    """A playable file whose scenario form is large: `kinds` unit kinds of 20 attributes."""
    data = check_file(PATROL).data
    attributes = {f"a{a:02}": {"type": "integer", "title": f"Attribute {a}", "minimum": 0,
                               "maximum": 99} for a in range(20)}
    unit_kinds = {f"k{k:02}": {"title": f"Kind {k}", "attributes": attributes}
                  for k in range(kinds)}
    unit_kinds["section"] = data["unit_kinds"]["section"]
    return {**data, "id": f"big-{n:04}", "title": f"Big game {n:04}",
            "description": "A game with many kinds. " * 80, "unit_kinds": unit_kinds}


def reads(client: TestClient, count: int) -> tuple[float, int, int]:
    """The median time of `count` reads of the list's first page, its bytes and entries."""
    times: list[float] = []
    size = entries = 0
    for _ in range(3):  # warm: the first reads load the samples and compile the games
        client.get("/api/rulesets")
    for _ in range(count):
        start = time.perf_counter()
        r = client.get("/api/rulesets")
        times.append(time.perf_counter() - start)
        assert r.status_code == 200, r.text
        size, entries = len(r.content), len(r.json())
    return statistics.median(times), size, entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=300)
    parser.add_argument("--kinds", type=int, default=20)
    parser.add_argument("--reads", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        matches = Matches(env=sqlite_env(str(Path(folder) / "bench.db")))
        settings = Settings(admin_token="bench", create_rate="off")
        with TestClient(create_app(settings, matches=matches)) as client:
            anchor = reads(client, args.reads)
            started = time.perf_counter()
            for n in range(args.uploads):
                r = client.post("/api/rulesets", content=json.dumps(big_file(n, args.kinds)),
                                headers={"Content-Type": "application/json"})
                assert r.status_code == 201, r.text[:300]
            uploading = time.perf_counter() - started
            loaded = reads(client, args.reads)
        matches.close()
    print(f"GET /api/rulesets, first page (median of {args.reads}):")
    print(f"  anchor, no upload:     {anchor[0] * 1000:8.1f} ms  {anchor[1]:>10,} bytes  "
          f"{anchor[2]} entries")
    print(f"  with {args.uploads} uploads:     {loaded[0] * 1000:8.1f} ms  {loaded[1]:>10,} bytes"
          f"  {loaded[2]} entries   ({loaded[0] / anchor[0]:.2f}x the anchor's time, "
          f"{loaded[1] / anchor[1]:.2f}x its size)")
    print(f"  ({args.uploads} uploads of {args.kinds} kinds x 20 attributes stored in "
          f"{uploading:.1f} s)")


if __name__ == "__main__":
    main()
