"""The actions' lane (issue 30, api/hot_action.py): an action as most clients send it is
answered past the one ASGI layer of ours with no framework layer, decoded once, and answers
what the route answers; so is the board now (api/hot_board.py); whatever the lane does not take as it is reaches the FastAPI route
and is answered as before."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter
from test_http_api import _create, auth

from api import hot_action, hot_board
from api.app import create_app
from api.routes import actions, views
from api.settings import Settings
from domain.app import Matches
from domain.commands import Action, CreateMatch
from domain.events import Event
from domain.integrity import content_hash

NOTE = {"type": "add_note", "text": "the hedgerow holds"}


@pytest.fixture
def client(store_env: dict[str, str]) -> Iterator[TestClient]:
    matches = Matches(env=store_env)
    with TestClient(create_app(Settings(admin_token="admin-token"), matches=matches)) as c:
        yield c
    matches.close()


def counting(counts: dict[str, int], way: str, served: Any) -> Any:
    """`served` (a coroutine function), counted in `counts[way]` at each call."""
    async def wrapped(*args: Any) -> Any:
        counts[way] += 1
        return await served(*args)
    return wrapped


@pytest.fixture
def lanes(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many actions each way answered: the lane and the route."""
    counts = {"lane": 0, "route": 0}
    monkeypatch.setattr(hot_action, "acted", counting(counts, "lane", hot_action.acted))
    monkeypatch.setattr(actions, "acted", counting(counts, "route", actions.acted))
    return counts


def test_an_action_as_clients_send_it_is_answered_by_the_lane(
        client: TestClient, lanes: dict[str, int]) -> None:
    match = _create(client)
    done = client.post(f"/api/matches/{match}/actions", json=NOTE, headers=auth(match))
    assert done.status_code == 201, done.text
    assert lanes == {"lane": 1, "route": 0}
    assert done.headers["etag"] == f'"{done.json()["version"]}"'
    assert done.json()["events"][0]["type"] == "NoteAdded"
    keyed = {**auth(match), "Idempotency-Key": "k1", "If-Match": done.headers["etag"]}
    first = client.post(f"/api/matches/{match}/actions", json=NOTE, headers=keyed)
    again = client.post(f"/api/matches/{match}/actions", json=NOTE, headers=keyed)
    assert first.status_code == again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json()["version"] == first.json()["version"]
    stale = client.post(f"/api/matches/{match}/actions", json=NOTE,
                        headers={**auth(match), "If-Match": done.headers["etag"]})
    assert stale.status_code == 412
    assert lanes == {"lane": 4, "route": 0}


def test_a_refusal_in_the_lane_is_the_routes_refusal(
        client: TestClient, lanes: dict[str, int]) -> None:
    match = _create(client)
    url = f"/api/matches/{match}/actions"
    wrong = {"Authorization": "Bearer not-a-token"}
    by_lane = client.post(url, json=NOTE, headers=wrong)
    by_route = client.post(url, content=b'{"type": "add_note", "text": "x"}',
                           headers={**wrong, "Content-Type": "text/json"})
    assert by_lane.status_code == by_route.status_code == 401
    assert by_lane.json() == by_route.json()
    assert by_lane.headers["www-authenticate"] == by_route.headers["www-authenticate"]
    spectator = client.post(url, json=NOTE, headers=auth(match, "spectator"))
    assert spectator.status_code == 403 and spectator.json()["rule"] == "core-seats"


def test_what_the_lane_does_not_take_is_answered_by_the_route(
        client: TestClient, lanes: dict[str, int]) -> None:
    match = _create(client)
    url = f"/api/matches/{match}/actions"
    invalid = client.post(url, json={"type": "add_note"}, headers=auth(match))
    assert invalid.status_code == 422 and invalid.json()["errors"]
    query = client.post(url, params={"x": 1}, json=NOTE, headers=auth(match))
    assert query.status_code == 422 and query.json()["rule"] == "core-requests"
    long_if_match = client.post(url, json=NOTE, headers={**auth(match), "If-Match": "1" * 33})
    assert long_if_match.status_code == 422
    not_json = client.post(url, content=b"type=add_note", headers={
        **auth(match), "Content-Type": "application/x-www-form-urlencoded"})
    assert not_json.status_code == 422
    assert lanes["lane"] == 0


def test_the_board_now_is_answered_by_its_lane_and_a_past_board_by_the_route(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"lane": 0, "route": 0}
    monkeypatch.setattr(hot_board, "served_board",
                        counting(counts, "lane", hot_board.served_board))
    monkeypatch.setattr(views, "served_board", counting(counts, "route", views.served_board))
    match = _create(client)
    url = f"/api/matches/{match}/board"
    now = client.get(url, headers=auth(match, "allies"))
    assert now.status_code == 200 and counts == {"lane": 1, "route": 0}
    at_head = client.get(url, params={"at": now.json()["point"]["version"]},
                         headers=auth(match, "allies"))
    assert at_head.json() == now.json() and counts == {"lane": 1, "route": 1}
    wrong = {"Authorization": "Bearer not-a-token"}
    by_lane = client.get(url, headers=wrong)
    by_route = client.get(url, params={"at": 1}, headers=wrong)
    assert by_lane.status_code == by_route.status_code == 401
    assert by_lane.json() == by_route.json()
    assert client.get(url).status_code == 401  # no token at all


def test_an_error_in_a_lane_is_the_same_500_problem_as_a_routes(
        store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The lanes are in front of the framework's error layer: an error they do not turn
    into a problem themselves is still the routes' 500 problem (api.problems)."""
    async def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    matches = Matches(env=store_env)
    app = create_app(Settings(admin_token="admin-token"), matches=matches)
    with TestClient(app, raise_server_exceptions=False) as client:
        match = _create(client)
        monkeypatch.setattr(hot_action, "acted", broken)
        monkeypatch.setattr(actions, "acted", broken)
        by_lane = client.post(f"/api/matches/{match}/actions", json=NOTE,
                              headers=auth(match))
        by_route = client.post(f"/api/matches/{match}/actions", params={"then": "done"},
                               json=NOTE, headers=auth(match))
    matches.close()
    assert by_lane.status_code == by_route.status_code == 500
    assert by_lane.json()["type"] == by_route.json()["type"] == "/problems/internal"
    assert by_lane.headers["content-type"] == by_route.headers["content-type"]


def test_a_lanes_request_meets_no_framework_layer(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the lanes answer never reaches the framework's stack (its error and telemetry
    layers, routing); what they do not take does."""
    reached: list[str] = []
    app = client.app
    framework = app.gate.app  # type: ignore[attr-defined]

    async def counted(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["path"])
        await framework(scope, receive, send)

    match = _create(client)
    monkeypatch.setattr(app.gate, "app", counted)  # type: ignore[attr-defined]
    url = f"/api/matches/{match}"
    assert client.post(f"{url}/actions", json=NOTE, headers=auth(match)).status_code == 201
    assert client.get(f"{url}/board", headers=auth(match)).status_code == 200
    assert reached == []
    assert client.get(f"{url}/board", params={"at": 1}, headers=auth(match)).status_code == 200
    assert reached == [f"{url}/board"]


def test_an_actions_event_is_dumped_once_for_its_hash_its_record_and_its_answer(
        store_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The hot path does each thing once (issue 30): the event an action decides is dumped
    to JSON once (`Event.keep_json`), and that one dump makes its hash, its stored record
    and the answer the lanes send (`actions._told`); before, three."""
    matches = Matches(env=store_env)
    try:
        created = matches.create_match(CreateMatch.model_validate({
            "scenario": "Hill 112", "casual": True,
            "sides": [{"id": "red", "name": "Red"}, {"id": "blue", "name": "Blue"}]}))
        match_id, token = created.events[0].originator_id, created.tokens["referee"]
        dumped: list[str] = []
        dump = Event.model_dump

        def counted(self: Event, *args: Any, **kwargs: Any) -> dict[str, Any]:
            dumped.append(type(self).__name__)
            return dump(self, *args, **kwargs)

        monkeypatch.setattr(Event, "model_dump", counted)
        action = TypeAdapter(Action).validate_python(NOTE)
        result = matches.act(match_id, action, actor="referee", token=token)
        answer = actions._told(matches, match_id, result, "referee")
        assert dumped == ["NoteAdded"]
        monkeypatch.undo()
        stored = list(matches.events_of(match_id))[-1]
        told = answer["events"][0]
        assert (told["type"], told["text"], told["version"]) == (
            "NoteAdded", NOTE["text"], stored.version)
        assert told["hash"] == stored.hash == content_hash(stored.public("referee"))
        assert told["prev_hash"] == stored.prev_hash
        assert {k: v for k, v in told.items() if k != "said"} == stored.public("referee")
    finally:
        matches.close()


def test_an_app_that_shuts_down_leaves_no_worker_thread_behind(
        store_env: dict[str, str]) -> None:
    """The hot routes' threads (api/workers.py) end with the app (issue 37: a test's app
    left them running in its worker process)."""
    matches = Matches(env=store_env)
    with TestClient(create_app(Settings(admin_token="admin-token"), matches=matches)) as c:
        match = _create(c)
        done = c.post(f"/api/matches/{match}/actions", json=NOTE, headers=auth(match))
        assert done.status_code == 201, done.text
        workers = [t for t in threading.enumerate() if t.name.startswith("battlelog-worker")]
        assert workers
    matches.close()
    assert not any(t.is_alive() for t in workers)
