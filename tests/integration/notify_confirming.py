"""What the notification tests share: confirming a registration as its owner would, with
the code of the confirmation message the server queued for it (read from the outbox)."""

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
