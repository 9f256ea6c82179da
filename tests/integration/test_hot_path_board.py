"""The hot routes (the board, an action) after their dependency layers were cut: the same
OpenAPI operation (the bearer scheme, the parameters), the same refusals in the same order,
and the board now read from one head (its seat looked up at the head it shows)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient
from test_http_api import J, _act, _create, auth

from api.app import create_app
from api.settings import Settings
from domain.app import Matches


@pytest.fixture
def client(store_env: dict[str, str]) -> Iterator[TestClient]:
    matches = Matches(env=store_env)
    app = create_app(Settings(admin_token="admin-token"), matches=matches)
    with TestClient(app) as client:
        client.app_state = app.state  # type: ignore[attr-defined]
        yield client
    matches.close()


def _operation(path: str, method: str) -> dict[str, Any]:
    operation: dict[str, Any] = create_app().openapi()["paths"][path][method]
    return operation


def test_the_hot_routes_still_declare_the_bearer_scheme_and_their_parameters() -> None:
    document = create_app().openapi()
    assert document["components"]["securitySchemes"]["HTTPBearer"] == {
        "type": "http", "description": "a seat token of the match", "scheme": "bearer"}
    board = _operation("/api/matches/{match_id}/board", "get")
    assert board["security"] == [{"HTTPBearer": []}]
    assert [(p["in"], p["name"]) for p in board["parameters"]] == [
        ("path", "match_id"), ("query", "at"), ("query", "turn"), ("query", "step"),
        ("query", "time")]
    act = _operation("/api/matches/{match_id}/actions", "post")
    assert act["security"] == [{"HTTPBearer": []}]
    assert [(p["in"], p["name"]) for p in act["parameters"]] == [
        ("path", "match_id"), ("query", "then"), ("header", "idempotency-key"),
        ("header", "if-match")]


def test_the_board_now_refuses_as_before(client: TestClient) -> None:
    match = _create(client)
    board = f"/api/matches/{match}/board"
    assert client.get(board).status_code == 401
    wrong = client.get(board, headers={"Authorization": "Bearer not-a-token"})
    assert wrong.status_code == 401 and wrong.json()["rule"] == "core-seats"
    unknown = client.get(f"/api/matches/{uuid4()}/board", headers=auth(match))
    assert unknown.status_code == 401 and unknown.headers["www-authenticate"].startswith("Bearer")
    r = client.post("/api/matches", json={"scenario": "s", "sides": [
        {"id": "allies", "name": "Allies"}, {"id": "axis", "name": "Axis"}]})
    joining = client.get(f"/api/matches/{r.json()['match_id']}/board",
                         headers={"Authorization": f"Bearer {r.json()['tokens']['join:allies']}"})
    assert joining.status_code == 403 and joining.json()["rule"] == "core-seats"


def test_a_wrong_token_is_refused_before_the_query_is_checked(client: TestClient) -> None:
    match = _create(client)
    r = client.get(f"/api/matches/{match}/board", params={"at": 0},
                   headers={"Authorization": "Bearer not-a-token"})
    assert r.status_code == 401
    assert client.get(f"/api/matches/{match}/board", params={"at": 0},
                      headers=auth(match)).status_code == 422
    unknown = client.get(f"/api/matches/{match}/board", params={"when": 1},
                         headers={"Authorization": "Bearer not-a-token"})
    assert unknown.status_code == 422 and unknown.json()["rule"] == "core-requests"


def test_the_board_now_is_the_board_at_its_head_and_a_seat_sees_its_own_view(
    client: TestClient,
) -> None:
    match = _create(client)
    assert _act(client, match, type="advance").status_code == 201
    now = client.get(f"/api/matches/{match}/board", headers=auth(match, "allies"))
    assert now.status_code == 200 and now.headers["etag"] == f'"{J + 1}"'
    assert now.json()["point"] == {"version": J + 1, "head_version": J + 1, "past": False}
    at_head = client.get(f"/api/matches/{match}/board", params={"at": J + 1},
                         headers=auth(match, "allies"))
    assert at_head.json() == now.json()
    past = client.get(f"/api/matches/{match}/board", params={"at": J},
                      headers=auth(match, "spectator"))
    assert past.json()["point"] == {"version": J, "head_version": J + 1, "past": True}


def test_a_board_read_again_at_its_version_is_built_once_and_each_seat_gets_its_own(
    client: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from api.routes import views

    built: list[str] = []
    board_view = views.board_view

    def counted(state: Any, seat: str, *args: Any, **kwargs: Any) -> Any:
        built.append(seat)
        return board_view(state, seat, *args, **kwargs)

    monkeypatch.setattr(views, "board_view", counted)
    match = _create(client)
    first = client.get(f"/api/matches/{match}/board", headers=auth(match, "allies"))
    again = client.get(f"/api/matches/{match}/board", headers=auth(match, "allies"))
    assert again.content == first.content and built == ["allies"]
    client.get(f"/api/matches/{match}/board", headers=auth(match, "axis"))
    assert built == ["allies", "axis"]
    assert _act(client, match, type="advance").status_code == 201
    after = client.get(f"/api/matches/{match}/board", headers=auth(match, "allies"))
    assert after.json()["point"]["version"] == J + 1 and built == ["allies", "axis", "allies"]
