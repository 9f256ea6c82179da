"""What the notification tests share: a seated demo match, and confirming a registration
as its owner would, with the code of the confirmation message the server queued for it
(read from the outbox)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def code_of(client: TestClient, match: str, registration_id: str) -> str:
    """The code in the confirmation message queued for `registration_id`."""
    [message] = [n for n in client.app.state.notify.view.notices(match)
                 if n.registration_id == registration_id and n.reminder < 0]
    return str(message.payload["code"])


def confirm(client: TestClient, match: str, registration_id: str) -> dict[str, Any]:
    """Confirm `registration_id` with its code (no token: the code is the proof)."""
    done = client.post(f"/api/matches/{match}/notifications/{registration_id}/confirm",
                       json={"code": code_of(client, match, registration_id)})
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "confirmed"
    return dict(done.json())


def seated(client: TestClient) -> tuple[str, dict[str, str]]:
    """An Atomic Africa demo with both sides seated: its id and every token by seat."""
    body = client.get("/api/scenarios/atomic-africa-demo").json()
    made = client.post("/api/matches", json=body).json()
    match, tokens = made["match_id"], dict(made["tokens"])
    for side in ("red", "blue"):
        tokens[side] = client.post(f"/api/matches/{match}/seats", json={"player": side},
                                   headers={"Authorization": f"Bearer {tokens[f'join:{side}']}"}
                                   ).json()["token"]
    return match, tokens
