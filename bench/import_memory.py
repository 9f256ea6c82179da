"""How much memory a valid import takes (issue 25: a 20 MiB export peaked at 586 MiB before
imports streamed): a long match's export made as the application makes one, imported by
`battlelog import` in a process of its own whose peak RSS (VmHWM) is read at its exit, and
the peak RSS of the server's import children sampled from /proc. bench/hostile.py reports
them beside their anchors."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

MiB = 1024 * 1024
ROOT = Path(__file__).resolve().parent.parent


def valid_export(mib: float) -> bytes:
    """A referee's export of a long match (bench/run.py builds it as the application does,
    saved in batches), about `mib` MiB: it verifies, so the whole import path runs."""
    from inprocess import build_long_match

    from domain.app import Matches
    from projections.export import export_lines
    from projections.store import sqlite_env

    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "long.db")
        match_id = build_long_match(path, int(mib * MiB / 350))  # ~350 bytes a line
        matches = Matches(env=sqlite_env(path))
        try:
            return "".join(export_lines(matches, match_id)).encode()
        finally:
            matches.close()


def children_peak_kib(pid: int) -> int:
    """The largest peak RSS (VmHWM) among the child processes of `pid` now, KiB."""
    peak = 0
    for tasks in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in tasks.read_text().split():
            try:
                status = Path(f"/proc/{child}/status").read_text()
            except OSError:
                continue
            peak = max([peak, *(int(line.split()[1]) for line in status.splitlines()
                                if line.startswith("VmHWM:"))])
    return peak


# `battlelog import FILE --db DB`, then its own peak RSS (VmHWM, KiB) as the last line of
# standard error. Not ru_maxrss: on Linux that counts the forked copy of the parent before
# the exec, here the bench's own memory.
CHILD = """import sys
from api.cli import main
code = main(["import", sys.argv[1], "--db", sys.argv[2]])
with open("/proc/self/status") as status:
    print(next(l.split()[1] for l in status if l.startswith("VmHWM:")), file=sys.stderr)
sys.exit(code)
"""


def child_peak_kib(body: bytes, tmp: str) -> int:
    """The peak RSS (VmHWM, KiB) of one `battlelog import` process importing `body` into a
    fresh SQLite file: the same import, in a process of its own, that the server's child
    runs past 1 MiB. It must succeed."""
    path, db = Path(tmp) / "import.jsonl", Path(tmp) / f"import-{len(body)}.db"
    path.write_bytes(body)
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), str(db)], cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr[-500:]
    return int(done.stderr.split()[-1])


def child_peak_figures(body: bytes) -> dict[str, float]:
    """The import's peak memory in a process of its own for the valid export `body`, beside
    the same process's peak for a tiny export (its baseline: the interpreter, the code and
    the store), measured in the same run. Target: under 128 MiB (streaming: a constant
    plus the largest event, not the file)."""
    with tempfile.TemporaryDirectory() as tmp:
        tiny = child_peak_kib(valid_export(0.05), tmp)
        large = child_peak_kib(body, tmp)
    return {"child_mib": len(body) / MiB, "child_peak_mib": large / 1024,
            "child_tiny_peak_mib": tiny / 1024}
