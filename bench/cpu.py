"""Server CPU per request (issue 30): the CPU time (user + system, every thread, from
/proc/<pid>/stat) that the server processes spend over a fixed count of requests from one
keep-alive client, beside the same figure for bare FastAPI on uvicorn from the same venv
(bench/hello_app.py) measured alternating with it in the same run.

CPU, not wall time: on a shared machine a neighbour's load stretches every round trip, but
the CPU the server spends per request stays what it is, and it is what decides how many
matches a core serves.

- SQLite (`battlelog serve`, its projections inline): an action (`add_note`), the board,
  the legal actions and `/api/health/live`, each beside the bare POST or GET.
- PostgreSQL (pgserver; `BATTLELOG_PROJECTIONS=external` and `battlelog project`): the API
  process's CPU per action beside the bare POST's, the runner's, and the PostgreSQL
  processes' (postmaster and every child: backends, WAL writer, ...) beside theirs for raw
  single-row commits from one connection; and the same action on an API process with
  `BATTLELOG_PG_DB_FUNCTIONS=off` (eventsourcing's pipelined save: two round trips, where
  the default is one statement); and an API process that keeps its read models itself
  (`BATTLELOG_PROJECTIONS=inline`, its own database): the process and PostgreSQL's.
- Work no one asked for: the same action's CPU on a server of 200 matches where 10 have
  a confirmed webhook registration and 10 a running clock (the action is taken on the
  others), beside a server of 200 matches with neither; and, in process, the notifier's
  outbox's CPU per event of the matches with no registration, beside the catalogue's over
  the same events (`bench/outbox.py`).

Each block of requests is followed by a short settle (the catalogue trails the saves by a
quarter second) that counts in the block: background work an action causes is its cost.

    .venv/bin/python bench/cpu.py [--count 1500] [--rounds 5] [--only sqlite,postgres,idle,outbox]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

import http_load
import notify
import outbox
import scale
from roundtrip import Connection, get, post

TICK = os.sysconf("SC_CLK_TCK")
SETTLE = 0.4  # seconds after each block, counted in it
NOTE = {"type": "add_note", "text": "the hedgerow holds"}


def cpu_of(pid: int) -> float:
    """User + system seconds of one process, all its threads (those ended too)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # ended meanwhile
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


def children(pid: int) -> list[int]:
    """Every process whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):  # a process that ended meanwhile
                continue
            if parent == pid:
                found.append(int(entry.name))
    return found


def tree_cpu(pids: Iterable[int]) -> float:
    """CPU seconds of these processes and their children (a process that ended between
    two readings takes its CPU with it: the servers' are long-lived)."""
    seen: set[int] = set()
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.add(pid)
            todo.extend(children(pid))
    return sum(cpu_of(p) for p in seen)


Request = Callable[[int], bytes]
# kind -> (connection, the i-th request, expected status, processes whose CPU counts)
Kinds = dict[str, tuple[Connection | Callable[[int], None], Request, int, list[int]]]


def alternate(kinds: Kinds, count: int, rounds: int,
              extra: dict[str, list[int]] | None = None) -> dict[str, float]:
    """Each kind `count` times in `rounds` alternating blocks; CPU seconds per request of
    each kind's processes, and of each `extra` group of processes during that kind."""
    per_round = max(1, count // rounds)
    spent: dict[str, float] = {}
    reconnects: dict[str, int] = {}
    for r in range(rounds + 1):  # the first round warms up, not counted
        for kind, (conn, make, expected, pids) in kinds.items():
            groups = {kind: pids, **{f"{kind}_{g}": p for g, p in (extra or {}).items()}}
            before = {g: tree_cpu(p) for g, p in groups.items()}
            for i in range(per_round):
                if isinstance(conn, Connection):
                    status = _request(conn, make(r * per_round + i), kind, reconnects)
                    if status != expected:
                        raise RuntimeError(f"{kind}: {status}, not {expected}")
                else:
                    conn(r * per_round + i)
            time.sleep(SETTLE)
            if r:
                for g, p in groups.items():
                    spent[g] = spent.get(g, 0.0) + tree_cpu(p) - before[g]
    if reconnects:
        print(f"connections closed by the server, opened again: {reconnects}", flush=True)
    return {g: s / (per_round * rounds) for g, s in spent.items()}


def _request(conn: Connection, raw: bytes, kind: str, reconnects: dict[str, int]) -> int:
    """The request's status; a keep-alive connection the server closed meanwhile is
    opened again (counted, and said) and the request sent once more."""
    try:
        return conn.request(raw)
    except (IndexError, OSError):
        reconnects[kind] = reconnects.get(kind, 0) + 1
        conn.close()
        conn.__init__(conn.port)  # type: ignore[misc]
        return conn.request(raw)


def sqlite_figures(tmp: str, hello: http_load.Server, count: int,
                   rounds: int) -> dict[str, float]:
    server = http_load.start_server(os.path.join(tmp, "cpu.db"))
    try:
        (_, match, token), = http_load.create_matches([server], 1)
        ours, bare = Connection(server.port), Connection(hello.port)
        note = post(f"/api/matches/{match}/actions", json.dumps(NOTE).encode(), token)
        bare_post = post(f"/api/matches/{match}/actions", json.dumps(NOTE).encode())
        s, h = [server.proc.pid], [hello.proc.pid]
        kinds: Kinds = {
            "action": (ours, lambda i: note, 201, s),
            "bare_post": (bare, lambda i: bare_post, 201, h),
            "board": (ours, lambda i: get(f"/api/matches/{match}/board", token), 200, s),
            "legal": (ours, lambda i: get(f"/api/matches/{match}/legal", token), 200, s),
            "health": (ours, lambda i: get("/api/health/live"), 200, s),
            "bare_get": (bare, lambda i: get("/api/health/ready"), 200, h),
        }
        got = alternate(kinds, count, rounds)
        ours.close()
        bare.close()
    finally:
        server.stop()
    return {f"cpu_sqlite_{k}_s": v for k, v in got.items()}


def postgres_figures(tmp: str, hello: http_load.Server, count: int,
                     rounds: int) -> dict[str, float]:
    import psycopg

    with scale.postgres(tmp) as pg:
        env = {**scale.new_database(pg, "cpu"), "BATTLELOG_PROJECTIONS": "external"}
        raw_env = scale.new_database(pg, "cpu_raw")
        raw = psycopg.connect(dbname=raw_env["BATTLELOG_PG_DBNAME"], host=pg["host"],
                              port=pg["port"], user=pg["user"], autocommit=True)
        raw.execute("CREATE TABLE t (id bigserial PRIMARY KEY, body bytea)")
        backend = raw.execute("SELECT pg_backend_pid()").fetchone()
        assert backend is not None
        postmaster = int(Path(f"/proc/{backend[0]}/stat").read_text()
                         .rsplit(")", 1)[1].split()[1])
        server = http_load.start_server("unused.db", env)
        projector = http_load.start_projector(env)
        # the same with eventsourcing's pipelined save (BATTLELOG_PG_DB_FUNCTIONS=off), on
        # a database of its own, no runner (its actions need none)
        one = http_load.start_server("unused.db", {
            **scale.new_database(pg, "cpu_pipelined"), "BATTLELOG_PROJECTIONS": "external",
            "BATTLELOG_PG_DB_FUNCTIONS": "off"})
        # one process keeping its read models itself (the catalogue's and the notifier's
        # runner in a thread), on a database of its own
        inline = http_load.start_server("unused.db", {
            **scale.new_database(pg, "cpu_inline"), "BATTLELOG_PROJECTIONS": "inline"})
        try:
            (_, match, token), = http_load.create_matches([server], 1)
            (_, match1, token1), = http_load.create_matches([one], 1)
            (_, match2, token2), = http_load.create_matches([inline], 1)
            ours, bare = Connection(server.port), Connection(hello.port)
            ours1, ours2 = Connection(one.port), Connection(inline.port)
            note = post(f"/api/matches/{match}/actions", json.dumps(NOTE).encode(), token)
            note1 = post(f"/api/matches/{match1}/actions", json.dumps(NOTE).encode(), token1)
            note2 = post(f"/api/matches/{match2}/actions", json.dumps(NOTE).encode(), token2)
            bare_post = post(f"/api/matches/{match}/actions", json.dumps(NOTE).encode())
            body = b"x" * 300

            def commit(i: int) -> None:
                raw.execute("INSERT INTO t (body) VALUES (%s)", (body,))

            kinds: Kinds = {
                "action": (ours, lambda i: note, 201, [server.proc.pid]),
                "action_pipelined": (ours1, lambda i: note1, 201, [one.proc.pid]),
                "action_inline": (ours2, lambda i: note2, 201, [inline.proc.pid]),
                "bare_post": (bare, lambda i: bare_post, 201, [hello.proc.pid]),
                "raw_commit": (commit, lambda i: b"", 0, []),
            }
            got = alternate(kinds, count, rounds,
                            {"pg": [postmaster], "runner": [projector.pid]})
            for conn in (ours, ours1, ours2, bare):
                conn.close()
        finally:
            server.stop()
            one.stop()
            inline.stop()
            projector.terminate()
            projector.wait(timeout=15)
            raw.close()
    # the bench's own raw commits count only in PostgreSQL's processes
    return {f"cpu_pg_{k}_s": v for k, v in got.items()
            if k != "raw_commit" and not k.startswith(
                ("bare_post_", "raw_commit_runner", "action_pipelined_runner",
                 "action_inline_runner"))}


def idle_figures(tmp: str, count: int, rounds: int, matches: int = 200,
                 busy: int = 10) -> dict[str, float]:
    """The action's CPU on matches with neither notices nor a clock, on a server where
    `busy` other matches have a confirmed webhook and `busy` more a running clock, beside
    a server of as many matches with neither."""
    env = {"BATTLELOG_NOTIFY_ALLOW_PRIVATE": "1", "BATTLELOG_CREATE_RATE": "off",
           "BATTLELOG_NOTIFY_REGISTER_RATE": "off", "BATTLELOG_NOTIFY_BUDGET_MATCH": "off",
           "BATTLELOG_NOTIFY_BUDGET_CREATOR": "off"}
    receiver = notify.Receiver()
    loaded = http_load.start_server(os.path.join(tmp, "loaded.db"), env)
    plain = http_load.start_server(os.path.join(tmp, "plain.db"), env)
    try:
        sides = [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]
        clock = {"red": {"total": 3600}, "blue": {"total": 3600}}
        others: dict[str, list[tuple[str, str]]] = {"loaded": [], "plain": []}
        with httpx.Client(timeout=30) as client:
            for name, server in (("loaded", loaded), ("plain", plain)):
                for i in range(matches):
                    timed = name == "loaded" and busy <= i < 2 * busy
                    made = client.post(f"{server.url}/api/matches", json={
                        "scenario": f"cpu {i}", "casual": True, "sides": sides,
                        **({"clock": clock} if timed else {})})
                    made.raise_for_status()
                    match, token = made.json()["match_id"], made.json()["tokens"]["referee"]
                    if name == "loaded" and i < busy:
                        path = f"/{match}/red"
                        reg = client.post(
                            f"{server.url}/api/matches/{match}/notifications",
                            json={"kind": "webhook", "url": receiver.url + path,
                                  "seat": "red"},
                            headers={"Authorization": f"Bearer {token}"})
                        assert reg.status_code == 201, reg.text
                        receiver.secrets[path] = reg.json()["secret"]
                        notify.confirm(client, server.url, match,
                                       reg.json()["registration_id"], receiver)
                    elif not timed:
                        others[name].append((match, token))
        conns = {"loaded": Connection(loaded.port), "plain": Connection(plain.port)}
        notes = {name: [post(f"/api/matches/{m}/actions", json.dumps(NOTE).encode(), t)
                        for m, t in others[name]] for name in others}
        kinds: Kinds = {
            name: (conns[name], lambda i, n=name: notes[n][i % len(notes[n])], 201,
                   [server.proc.pid])
            for name, server in (("plain", plain), ("loaded", loaded))}
        got = alternate(kinds, count, rounds)
        for c in conns.values():
            c.close()
    finally:
        loaded.stop()
        plain.stop()
        receiver.close()
    return {"cpu_idle_plain_action_s": got["plain"], "cpu_idle_loaded_action_s": got["loaded"]}


def measure(tmp: str, count: int = 1500, rounds: int = 5,
            only: Iterable[str] = ("sqlite", "postgres", "idle", "outbox")) -> dict[str, float]:
    figures: dict[str, float] = {"cpu_count": float(count)}
    hello = http_load.start_hello()
    try:
        if "sqlite" in only:
            figures.update(sqlite_figures(tmp, hello, count, rounds))
        if "postgres" in only:
            figures.update(postgres_figures(tmp, hello, count, rounds))
    finally:
        hello.stop()
    if "idle" in only:
        figures.update(idle_figures(tmp, count, rounds))
    if "outbox" in only:
        figures.update(outbox.measure(tmp, 2 * count))
    return figures


def lines(f: dict[str, Any]) -> list[str]:
    """The figures as printed: each beside its anchor, with the ratio and the target."""
    def us(key: str) -> str:
        return f"{f[key] * 1e6:7.0f} us"

    out = []
    for kind, anchor, target in (("action", "bare_post", 2.5), ("board", "bare_get", 1.5),
                                 ("legal", "bare_get", None), ("health", "bare_get", None)):
        key, a = f"cpu_sqlite_{kind}_s", f"cpu_sqlite_{anchor}_s"
        if key in f:
            r = f[key] / f[a]
            out.append(f"SQLite {kind:7} {us(key)}  bare {anchor[5:].upper():4} {us(a)}  "
                       f"{r:5.2f}x" + (f"  target <= {target}x "
                                       f"{'PASS' if r <= target else 'MISS'}" if target else ""))
    if "cpu_pg_action_s" in f:
        r = f["cpu_pg_action_s"] / f["cpu_pg_bare_post_s"]
        out.append(f"PostgreSQL API process per action {us('cpu_pg_action_s')}  bare POST "
                   f"{us('cpu_pg_bare_post_s')}  {r:5.2f}x  target <= 3x "
                   f"{'PASS' if r <= 3 else 'MISS'}")
        out.append(f"PostgreSQL processes per action {us('cpu_pg_action_pg_s')}  per raw "
                   f"single-row commit {us('cpu_pg_raw_commit_pg_s')}  "
                   f"{f['cpu_pg_action_pg_s'] / f['cpu_pg_raw_commit_pg_s']:5.2f}x")
        out.append(f"PostgreSQL runner (battlelog project) per action "
                   f"{us('cpu_pg_action_runner_s')}")
        r = f["cpu_pg_action_pipelined_s"] / f["cpu_pg_bare_post_s"]
        out.append(f"PostgreSQL, BATTLELOG_PG_DB_FUNCTIONS=off: API process per action "
                   f"{us('cpu_pg_action_pipelined_s')}  {r:5.2f}x bare POST; PostgreSQL's "
                   f"{us('cpu_pg_action_pipelined_pg_s')} (no runner on that database)")
        r = f["cpu_pg_action_inline_s"] / f["cpu_pg_bare_post_s"]
        out.append(f"PostgreSQL, BATTLELOG_PROJECTIONS=inline (one process): per action "
                   f"{us('cpu_pg_action_inline_s')}  {r:5.2f}x bare POST; PostgreSQL's "
                   f"{us('cpu_pg_action_inline_pg_s')}")
    if "cpu_idle_plain_action_s" in f:
        r = f["cpu_idle_loaded_action_s"] / f["cpu_idle_plain_action_s"]
        out.append(f"SQLite action, 200 matches, 10 notified + 10 clocked "
                   f"{us('cpu_idle_loaded_action_s')}  none {us('cpu_idle_plain_action_s')}  "
                   f"{r:5.2f}x  target <= 1.1x {'PASS' if r <= 1.1 else 'MISS'}")
    if "cpu_outbox_outbox_event_s" in f:
        anchor = f["cpu_outbox_catalogue_event_s"]
        out.append(f"in process, per event of a match with no registration (10 of 200 have "
                   f"one): the notifier's outbox {f['cpu_outbox_outbox_event_s'] * 1e6:5.2f} us, "
                   f"{f['cpu_outbox_outbox_event_s'] / anchor:4.2f}x the catalogue's "
                   f"{anchor * 1e6:5.2f} us; a plain read of every event "
                   f"{f['cpu_outbox_read_all_event_s'] / anchor:4.2f}x")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="sqlite,postgres,idle,outbox")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        got = measure(tmp, args.count, args.rounds, args.only.split(","))
    print(f"server CPU per request, user + system from /proc, {args.count} of each")
    for line in lines(got):
        print(line)


if __name__ == "__main__":
    main()
