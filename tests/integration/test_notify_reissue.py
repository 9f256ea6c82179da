"""A seat's registrations belong to the token holder who made them, on each store, with
real receivers on loopback (a webhook receiver, an SMTP server): after the referee
reissues a seat's token, the previous holder's webhook and e-mail receive nothing more
(not the handoff after the reissue, nor one queued before it), the new holder's list is
empty, an unconfirmed registration of the previous holder can no longer be confirmed, and
the referee's registrations of that seat end too, also when nobody had joined the seat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from notify_receivers import Hooks, Mailbox, Table, auth, mail_settings, serve_notifying

from domain.app import Matches


@pytest.fixture
def client(matches: Matches, mailbox: Mailbox) -> Iterator[TestClient]:
    with serve_notifying(matches, mail_settings(mailbox)) as client:
        client.app.state.notify.stop()  # the test applies the log and delivers
        yield client


def reissue(table: Table, seat: str) -> None:
    made = table.client.post(f"/api/matches/{table.match}/tokens", json={"seat": seat},
                             headers={"Authorization": f"Bearer {table.tokens['referee']}"})
    assert made.status_code == 201, made.text
    table.tokens[seat] = made.json()["token"]


def test_after_a_reissue_the_old_holder_gets_nothing_and_the_new_one_sees_nothing(
        client: TestClient, mailbox: Mailbox, hooks: Hooks) -> None:
    table = Table.seat(client)
    hook = table.register("blue", {"kind": "webhook", "url": f"{hooks.url}/blue"}).json()
    mail = table.register("blue", {"kind": "email", "email": "blue@example.org"}).json()
    by_referee = table.register("referee", {"kind": "webhook", "url": f"{hooks.url}/ref",
                                            "seat": "blue"}).json()
    late = table.register("blue", {"kind": "email", "email": "late@example.org"}).json()
    table.run()
    codes = {p["registration_id"]: p["code"] for _, p in hooks.got}
    assert table.confirm(hook["registration_id"], codes[hook["registration_id"]]
                         ).status_code == 200
    assert table.confirm(by_referee["registration_id"], codes[by_referee["registration_id"]]
                         ).status_code == 200
    late_code = mailbox.code(late["registration_id"])
    assert table.confirm(mail["registration_id"], mailbox.code(mail["registration_id"])
                         ).status_code == 200
    table.hand_over()  # blue is told: each receiver gets one notice
    table.run()
    heard = (len(hooks.got), len(mailbox.messages))
    assert sorted(p for p, b in hooks.got if b["type"] == "turn.handoff") == ["/blue", "/ref"]
    table.hand_over(2)  # red's turn, then blue's: a notice to blue is queued ...
    client.app.state.notify.outbox.catch_up()
    undo = client.post(f"/api/matches/{table.match}/undo", json={"actions": 1},
                       headers={"Authorization": f"Bearer {table.tokens['referee']}"})
    assert undo.status_code == 201, undo.text  # ... red's turn again ...
    reissue(table, "blue")  # ... blue's token is reissued ...
    table.act("actions", {"type": "advance"})  # ... and blue is handed the turn again
    table.run()

    assert (len(hooks.got), len(mailbox.messages)) == heard  # nothing more arrived
    assert table.listed("blue") == []  # the new holder's list is empty
    assert table.listed("referee") == []  # the seat's registrations ended, the referee's too
    assert table.confirm(late["registration_id"], late_code).status_code == 404
    # the notices queued before the reissue ended with their registrations: what is left
    # is what was sent before
    left = [n.status for n in client.app.state.notify.view.notices(table.match)
            if n.reminder == 0]
    assert left == ["sent"] * 3


def test_the_new_holder_registers_afresh_and_is_told(
        client: TestClient, hooks: Hooks) -> None:
    table = Table.seat(client)
    old = table.register("blue", {"kind": "webhook", "url": f"{hooks.url}/old"}).json()
    reissue(table, "blue")
    new = table.register("blue", {"kind": "webhook", "url": f"{hooks.url}/new"}).json()
    table.run()
    assert [r["registration_id"] for r in table.listed("blue")] == [new["registration_id"]]
    code = next(p["code"] for _, p in hooks.got if p["registration_id"] == new[
        "registration_id"])
    assert table.confirm(new["registration_id"], code).status_code == 200
    # the old holder's registration ended before its confirmation message went out
    assert [path for path, _ in hooks.got] == ["/new"]
    assert table.confirm(old["registration_id"], "ANYCODE234").status_code == 404
    table.hand_over()
    table.run()
    assert [path for path, p in hooks.got if p["type"] == "turn.handoff"] == ["/new"]
    gone = table.client.delete(f"/api/matches/{table.match}/notifications/"
                               f"{old['registration_id']}",
                               headers={"Authorization": f"Bearer {table.tokens['blue']}"})
    assert gone.status_code == 404


def test_a_reissue_of_a_side_nobody_joined_ends_the_seats_registrations(
        client: TestClient, hooks: Hooks) -> None:
    """Finding 13: before blue joins, the referee registers a webhook for blue and it is
    confirmed; the referee then reissues blue's seat: the registration ends (before: it
    stayed, and blue's handoffs still went to it)."""
    body = client.get("/api/scenarios/atomic-africa-demo").json()
    made = client.post("/api/matches", json=body)
    match, tokens = made.json()["match_id"], dict(made.json()["tokens"])
    tokens["red"] = client.post(f"/api/matches/{match}/seats", json={"player": "red"},
                                headers=auth(tokens["join:red"])).json()["token"]
    table = Table(client, match, tokens)
    reg = table.register("referee", {"kind": "webhook", "url": f"{hooks.url}/blue",
                                     "seat": "blue"}).json()
    table.run()
    [(_, sent)] = hooks.got
    assert table.confirm(reg["registration_id"], sent["code"]).status_code == 200
    assert [r["seat"] for r in table.listed("referee")] == ["blue"]
    reissue(table, "blue")  # nobody joined blue: it had no token of its own to revoke
    table.run()
    assert table.listed("referee") == []
    table.hand_over()
    table.run()
    assert [p["type"] for _, p in hooks.got if p.get("type") == "turn.handoff"] == []
