"""Notification registrations over the HTTP API, on each store: who may register, read and
delete (domain.authority.check_notifications), hostile targets refused with a problem and
no row written, secrets shown once; and the outbox itself: a handoff becomes one notice per
registration, exactly once however many runners apply the log, and a notice says only what
its seat may see."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import IntegrityError, Tracking
from fastapi.testclient import TestClient
from notify_confirming import confirm

from api.app import create_app
from api.settings import Settings
from domain.app import Matches
from projections.notify_outbox import APPLICATION, Outbox, OutboxConfig
from projections.notify_store import open_view

HOOK = "https://1.1.1.1/battlelog"  # a public address (no DNS needed)


@pytest.fixture
def client(matches: Matches) -> Iterator[TestClient]:
    settings = Settings(admin_token="admin-token", notify_max_per_seat=2,
                        notify_allow_private=False)
    with TestClient(create_app(settings, matches=matches)) as client:
        yield client


def seated(client: TestClient, sides: tuple[str, ...] = ("red", "blue")
           ) -> tuple[str, dict[str, str]]:
    body = client.get("/api/scenarios/atomic-africa-demo").json()
    made = client.post("/api/matches", json=body).json()
    tokens = dict(made["tokens"])
    for side in sides:
        tokens[side] = client.post(f"/api/matches/{made['match_id']}/seats",
                                   json={"player": side},
                                   headers=auth(tokens[f"join:{side}"])).json()["token"]
    return made["match_id"], tokens


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def register(client: TestClient, match: str, token: str, **body: Any) -> Any:
    return client.post(f"/api/matches/{match}/notifications",
                       json={"kind": "webhook", "url": HOOK, **body}, headers=auth(token))


def listed(client: TestClient, match: str, token: str) -> list[dict[str, Any]]:
    answer = client.get(f"/api/matches/{match}/notifications", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return list(answer.json())


def test_a_seat_registers_its_own_and_the_referee_any_seats(client: TestClient) -> None:
    match, tokens = seated(client)
    own = register(client, match, tokens["red"])
    assert own.status_code == 201 and own.json()["seat"] == "red"
    assert own.json()["secret"].startswith("whsec_")
    assert register(client, match, tokens["referee"], seat="blue").status_code == 201
    assert register(client, match, tokens["blue"]).status_code == 201
    for asker, seat in (("blue", "red"), ("spectator", None), ("spectator", "red")):
        refused = register(client, match, tokens[asker], **({"seat": seat} if seat else {}))
        assert refused.status_code == 403, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
    empty, unseated = seated(client, sides=())
    joining = register(client, empty, unseated["join:red"], seat="red")
    assert joining.status_code == 403, joining.text
    assert register(client, match, tokens["referee"], seat="green").status_code == 422
    # listed without secrets; blue sees only what its own token made (not the referee's
    # registration for blue), the referee every seat's
    assert [r["seat"] for r in listed(client, match, tokens["blue"])] == ["blue"]
    everyone = listed(client, match, tokens["referee"])
    assert sorted(r["seat"] for r in everyone) == ["blue", "blue", "red"]
    assert {r["status"] for r in everyone} == {"pending"}
    assert all(r["secret"] is None for r in everyone)


def test_deleting_and_reading_attempts_is_the_seats_own(client: TestClient) -> None:
    match, tokens = seated(client)
    reg = register(client, match, tokens["red"]).json()["registration_id"]
    path = f"/api/matches/{match}/notifications/{reg}"
    assert client.get(f"{path}/attempts", headers=auth(tokens["blue"])).status_code == 403
    assert client.get(f"{path}/attempts", headers=auth(tokens["red"])).json() == []
    assert client.delete(path, headers=auth(tokens["blue"])).status_code == 403
    assert client.delete(path, headers=auth(tokens["red"])).status_code == 204
    assert listed(client, match, tokens["red"]) == []
    assert client.delete(path, headers=auth(tokens["red"])).status_code == 404


@pytest.mark.parametrize("body", [
    {"url": "ftp://hooks.example.org/x"},  # not http(s)
    {"url": "http://127.0.0.1:8000/api"},  # loopback
    {"url": "http://10.0.0.5/hook"},  # private
    {"url": "http://169.254.169.254/latest/meta-data"},  # link-local (cloud metadata)
    {"url": "http://[::1]/hook"},
    {"url": "https://user:pw@hooks.example.org/x"},
    {"url": "https://hooks.example.org/" + "x" * 3000},  # too long
    {"url": None},  # a webhook with no URL
    {"kind": "email", "email": "not an address"},
    {"kind": "push", "subscription": {"endpoint": "https://push.example.org/x",
                                      "keys": {"p256dh": "A" * 87, "auth": "short"}}},
    {"kind": "sms", "url": HOOK},
    {"extra": 1},
])
def test_hostile_targets_are_refused_and_nothing_is_kept(client: TestClient,
                                                         body: dict[str, Any]) -> None:
    match, tokens = seated(client)
    refused = register(client, match, tokens["red"], **body)
    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert listed(client, match, tokens["red"]) == []


def test_a_seat_has_at_most_the_configured_number_of_registrations(
        client: TestClient) -> None:
    match, tokens = seated(client)
    for _ in range(2):
        assert register(client, match, tokens["red"]).status_code == 201
    third = register(client, match, tokens["red"])
    assert third.status_code == 422 and "at most 2" in third.json()["detail"]
    assert len(listed(client, match, tokens["red"])) == 2


def test_e_mail_is_refused_while_no_smtp_server_is_configured(client: TestClient) -> None:
    match, tokens = seated(client)
    off = register(client, match, tokens["red"], kind="email", email="red@example.org")
    assert off.status_code == 422 and "SMTP" in off.json()["detail"]


def test_presence_is_a_seats_and_the_push_key_is_kept(client: TestClient) -> None:
    match, tokens = seated(client)
    path = f"/api/matches/{match}/presence"
    assert client.post(path, headers=auth(tokens["red"])).status_code == 204
    assert client.post(path, headers=auth(tokens["spectator"])).status_code == 403
    key = client.get("/api/push/key").json()["public_key"]
    assert len(key) == 87 and client.get("/api/push/key").json()["public_key"] == key


def test_each_handoff_is_one_notice_per_registration_however_many_runners(
        client: TestClient, matches: Matches) -> None:
    match, tokens = seated(client)
    for seat in ("red", "blue"):
        made = register(client, match, tokens[seat])
        assert made.status_code == 201
        confirm(client, match, made.json()["registration_id"])
    client.app.state.notify.stop()  # the runners below, not the app's, apply the log
    acts = [("actions", {"type": "activate_unit", "unit_id": "sq1"}),
            ("actions", {"type": "advance"}), ("undo", {"actions": 1}), ("redo", None)]
    versions = []
    for path, body in acts:
        done = client.post(f"/api/matches/{match}/{path}", json=body,
                           headers=auth(tokens["red"]))
        assert done.status_code == 201, done.text
        versions.append(int(done.headers["etag"].strip('"')))
    postgres = "postgres" in matches.env["PERSISTENCE_MODULE"]
    first, late = (Outbox(matches, open_view(matches.factory, postgres), OutboxConfig())
                   for _ in range(2))
    first.catch_up()
    # a second runner that read the same events before the first recorded them: its
    # transaction fails on the tracking record and writes nothing
    log = list(matches.recorder.select_notifications(start=1, limit=1000))
    with pytest.raises(IntegrityError):
        late.view.record(late.rows([(UUID(str(n.originator_id)), n.originator_version)
                                    for n in log]), Tracking(APPLICATION, log[-1].id))
    assert late.catch_up() == 0
    runners = [first, late]
    notices = [n for n in runners[0].view.notices(match) if n.reminder == 0]  # no confirmation
    # advance: blue; undo: red; redo: blue (the activation hands nothing over)
    assert sorted((n.seat, n.version) for n in notices) == sorted(
        [("blue", versions[1]), ("red", versions[2]), ("blue", versions[3])])
    assert len({n.delivery_id for n in notices}) == 3


def test_a_notice_says_only_what_its_seat_may_see(client: TestClient,
                                                  matches: Matches) -> None:
    match, tokens = seated(client)
    drawn = client.post(f"/api/matches/{match}/actions", json={"type": "draw_cards",
                                                              "count": 2},
                        headers=auth(tokens["red"]))
    assert drawn.status_code == 201, drawn.text
    from domain.context import named_by
    from domain.waiting import Waiting

    match_id = UUID(match)
    version = matches.head(match_id).version
    event = next(iter(matches.events_of(match_id, after=version - 1, upto=version)))
    outbox = client.app.state.notify.outbox
    created = next(iter(matches.events_of(match_id, upto=1)))
    # the cards by their titles, as the notice says them (issue 39: no card ids in words)
    cards = [named_by(created.options, "card_names", card) for card in event.cards]
    assert cards
    for_red = str(outbox.payload(match_id, version, Waiting(), "red", event))
    for_blue = str(outbox.payload(match_id, version, Waiting(), "blue", event))
    assert all(card in for_red for card in cards)
    assert not any(card in for_blue for card in cards)
    assert "seed" not in for_red + for_blue
