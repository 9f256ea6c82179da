"""schemathesis against the OpenAPI schema, in-process: every operation, at least 100
generated requests each, all default checks (auth included): no 5xx, nothing off-schema."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.python import asgi

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from projections.store import sqlite_env

_tmp = tempfile.TemporaryDirectory()
_matches = Matches(env=sqlite_env(str(Path(_tmp.name) / "fuzz.db")))
# A seat's annotation rate off: the fuzzer sends one seat's changes by the hundred a minute,
# and the rate's own 429 is tested in test_annotation_limits.
app = create_app(Settings(admin_token="admin-token", annotation_rate="off"), matches=_matches)
# The match the requests aim at, made at import: schemathesis builds some cases with the
# token as it collects. The app's lifespan ends at once (it was entered at import and never
# left: its threads ran on in every worker process for the whole session).
with TestClient(app) as _client:
    _created = _client.post("/api/matches", json={
        "scenario": "fuzz", "casual": True,
        "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]}).json()
MATCH, REFEREE = _created["match_id"], _created["tokens"]["referee"]


def _stop_schemathesis_app() -> None:
    """schemathesis runs the app's lifespan itself, in an event loop thread of its own, both
    kept until the process exits (schemathesis.python.asgi): they end here; its next request
    starts them again."""
    asgi._shutdown()


@pytest.fixture(scope="module", autouse=True)
def served() -> Iterator[None]:
    yield
    _stop_schemathesis_app()


# The live stream never ends by design, so it cannot be fuzzed request by request:
# tests/e2e/test_live_stream.py covers it (auth, messages, other processes, shutdown).
schema = schemathesis.openapi.from_asgi("/openapi.json", app).exclude(
    path="/api/matches/{match_id}/stream")
_stop_schemathesis_app()  # (loading the schema started them)


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx: Any, value: Any) -> bytes:
    """An import body is text (a JSON Lines file): send what was generated as UTF-8."""
    return value.encode() if isinstance(value, str) else str(value).encode()


@schema.auth()
class SeatToken:
    """The referee's token of the fuzzed match (the admin token for the catalogue);
    schemathesis also tries requests without it or with a wrong one."""

    def get(self, case: Any, context: Any) -> str:
        return REFEREE

    def set(self, case: Any, data: str, context: Any) -> None:
        admin = case.path == "/api/matches" and case.method.upper() == "GET"
        case.headers = {**(case.headers or {}),
                        "Authorization": f"Bearer {'admin-token' if admin else data}"}


def _is_uuid(value: Any) -> bool:
    try:
        UUID(str(value))
    except ValueError:
        return False
    return value is not None


@schema.parametrize()
@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_api_conforms_to_its_schema_and_never_fails(case: Any) -> None:
    if _is_uuid((case.path_parameters or {}).get("match_id")):
        # aim at a real match (a match id made invalid on purpose stays invalid)
        case.path_parameters["match_id"] = MATCH
    case.call_and_validate()
