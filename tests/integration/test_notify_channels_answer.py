"""Which kinds of notice a server sends (GET /api/notifications/channels, docs/
notifications.md): the table page says e-mail is off before anyone tries, from this answer,
and the answer agrees with what a registration of an e-mail address meets."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from notify_receivers import Mailbox, mail_settings, serve_notifying

from api.app import create_app
from api.settings import Settings
from domain.app import Matches

DEMO = "atomic-africa-demo"


def _register_email(client: TestClient) -> int:
    body = client.get(f"/api/scenarios/{DEMO}").json()
    made = client.post("/api/matches", json=body).json()
    r = client.post(f"/api/matches/{made['match_id']}/notifications",
                    headers={"Authorization": f"Bearer {made['tokens']['referee']}"},
                    json={"kind": "email", "email": "red@example.org", "seat": "referee"})
    return r.status_code


@pytest.mark.parametrize("store_env", ["sqlite"], indirect=True)
def test_a_server_without_a_mail_server_says_e_mail_is_off(matches: Matches) -> None:
    with TestClient(create_app(Settings(admin_token="admin-token"), matches=matches)) as client:
        assert client.get("/api/notifications/channels").json() == {
            "email": False, "webhook": True, "push": True}
        assert _register_email(client) == 422


@pytest.mark.parametrize("store_env", ["sqlite"], indirect=True)
def test_a_server_with_a_mail_server_says_e_mail_is_on(matches: Matches,
                                                      mailbox: Mailbox) -> None:
    with serve_notifying(matches, mail_settings(mailbox)) as client:
        assert client.get("/api/notifications/channels").json()["email"] is True
        assert _register_email(client) == 201
