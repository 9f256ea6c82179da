"""PostgreSQL with one and two API processes (and the projection runner as a process of its
own), beside raw single-row commits on the same server; and the memory of a server holding
many active matches."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import http_load


@contextmanager
def postgres(tmp: str) -> Iterator[dict[str, Any]]:
    """A PostgreSQL server from the `pgserver` wheel (as the tests start it)."""
    from pgserver.postgres_server import get_server

    server = get_server(Path(tmp) / "pgdata", cleanup_mode="stop")
    info = server.get_postmaster_info()
    try:
        yield {"host": str(info.socket_dir) if info.socket_dir is not None else info.hostname,
               "port": info.port or 5432, "user": "postgres", "password": ""}
    finally:
        server.cleanup()


def new_database(pg: dict[str, Any], name: str) -> dict[str, str]:
    import psycopg

    with psycopg.connect(dbname="postgres", host=pg["host"], port=pg["port"],
                         user=pg["user"], autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return {"BATTLELOG_STORE": "postgres", "BATTLELOG_PG_DBNAME": name,
            "BATTLELOG_PG_HOST": pg["host"], "BATTLELOG_PG_PORT": str(pg["port"]),
            "BATTLELOG_PG_USER": pg["user"], "BATTLELOG_PG_PASSWORD": pg["password"]}


def raw_postgres_commits(pg: dict[str, Any], seconds: float, clients: int = 1) -> float:
    """Single-row INSERT commits/s (autocommit), from `clients` connections at once."""
    import threading

    import psycopg

    env = new_database(pg, f"raw_commits_{clients}")
    kwargs = {"dbname": env["BATTLELOG_PG_DBNAME"], "host": pg["host"], "port": pg["port"],
              "user": pg["user"], "autocommit": True}
    with psycopg.connect(**kwargs) as conn:
        conn.execute("CREATE TABLE t (id bigserial PRIMARY KEY, body bytea)")
    counts = [0] * clients
    body = b"x" * 300
    stop_at = time.perf_counter() + seconds

    def one(i: int) -> None:
        with psycopg.connect(**kwargs) as conn:
            while time.perf_counter() < stop_at:
                conn.execute("INSERT INTO t (body) VALUES (%s)", (body,))
                counts[i] += 1

    began = time.perf_counter()
    threads = [threading.Thread(target=one, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - began)


def api_processes(pg: dict[str, Any], name: str, processes: int, seconds: float,
                  clients: int = 32, extra: dict[str, str] | None = None) -> dict[str, float]:
    """`processes` API processes and one projection runner on one fresh database, loaded
    by `clients` clients spread over the processes."""
    env = {**new_database(pg, name), "BATTLELOG_PROJECTIONS": "external", **(extra or {})}
    servers = [http_load.start_server("unused.db", env) for _ in range(processes)]
    projector = http_load.start_projector(env)
    try:
        matches = http_load.create_matches(servers, clients)
        return http_load.load(matches, seconds)
    finally:
        for server in servers:
            server.stop()
        projector.terminate()
        projector.wait(timeout=15)


# The eventsourcing settings tried on PostgreSQL (through the BATTLELOG_ prefix, which
# eventsourcing reads before the plain name): the store's defaults, then one change each.
VARIANTS: dict[str, dict[str, str]] = {
    "defaults": {},
    "pool 10+10": {"BATTLELOG_POSTGRES_POOL_SIZE": "10", "BATTLELOG_POSTGRES_MAX_OVERFLOW": "10"},
    "db functions": {"BATTLELOG_PG_DB_FUNCTIONS": "on"},
    "checkpoints 1000": {"BATTLELOG_CHECKPOINT_INTERVAL": "1000"},
}


def postgres_figures(tmp: str, seconds: float, variants: bool) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with postgres(tmp) as pg:
        figures["raw_postgres_commits_per_s"] = raw_postgres_commits(pg, seconds)
        figures["raw_postgres_commits_32_per_s"] = raw_postgres_commits(pg, seconds, 32)
        for processes in (1, 2):
            got = api_processes(pg, f"api{processes}", processes, seconds)
            figures[f"pg_{processes}_actions_per_s"] = got["actions_per_s"]
            figures[f"pg_{processes}_p50_s"] = got["p50_s"]
            figures[f"pg_{processes}_p99_s"] = got["p99_s"]
            figures[f"pg_{processes}_errors"] = got["errors"]
        if variants:
            for i, (label, extra) in enumerate(VARIANTS.items()):
                got = api_processes(pg, f"variant{i}", 2, seconds, extra=extra)
                figures[f"pg_2_{label}_actions_per_s"] = got["actions_per_s"]
                figures[f"pg_2_{label}_p99_s"] = got["p99_s"]
    return figures


def memory_figures(tmp: str, matches: int, actions: int) -> dict[str, Any]:
    """Peak RSS of one SQLite server that has `matches` active matches in hand (each
    created, played `actions` actions, its board read: all in its head cache)."""
    db = os.path.join(tmp, "memory.db")
    server = http_load.start_server(db)
    try:
        idle = server.rss_kib()
        made = http_load.create_matches([server], matches)
        http_load.fill(made, actions)
        return {"memory_matches": matches, "memory_idle_rss_mib": idle / 1024,
                "memory_rss_mib": server.rss_kib() / 1024,
                "memory_peak_rss_mib": server.rss_kib("VmHWM") / 1024}
    finally:
        server.stop()
