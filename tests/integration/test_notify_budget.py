"""Budgets of outbound notices, on each store, with a real SMTP server (aiosmtpd): a match
over its budget records its notices as refused (`refused: over budget` in the attempts)
instead of sending them; the matches created from one address share that address's
budget; registrations past a match's limit, or past its creator's rate, answer 429."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from notify_receivers import Mailbox, Table, mail_settings, serve_notifying

from domain.app import Matches

CREATOR = ("203.0.113.7", 40000)  # a client address (TEST-NET-3)
EMAIL = {"kind": "email", "email": "blue@example.org", "seat": "blue"}


def serve(matches: Matches, mailbox: Mailbox, **settings: Any) -> TestClient:
    return serve_notifying(matches, mail_settings(mailbox, create_rate="off", **settings),
                           client=CREATOR)


def confirmed(table: Table, mailbox: Mailbox) -> str:
    reg = table.register("blue", EMAIL)
    assert reg.status_code == 201, reg.text
    table.run()
    assert table.confirm(reg.json()["registration_id"], mailbox.code()).status_code == 200
    return str(reg.json()["registration_id"])


def test_a_match_over_its_budget_records_refusals_instead_of_sending(
        matches: Matches, mailbox: Mailbox) -> None:
    with serve(matches, mailbox, notify_budget_match="2/hour",
               notify_budget_creator="off") as client:
        client.app.state.notify.stop()
        table = Table.seat(client)
        reg = confirmed(table, mailbox)
        table.hand_over(7)  # blue is told 4 times: 2 within the budget
        table.run()
        notices = [m for m in mailbox.messages if m["Subject"].startswith("Your move")]
        assert len(notices) == 2
        tried = table.attempts("blue", reg)
        refused = [a for a in tried if a["error"] == "refused: over budget"]
        assert len(refused) == 2 and all(a["status_code"] is None for a in refused)
        statuses = sorted(n.status for n in client.app.state.notify.view.notices(table.match)
                          if n.reminder == 0)
        assert statuses == ["refused", "refused", "sent", "sent"]


def test_the_matches_of_one_creating_address_share_its_budget(
        matches: Matches, mailbox: Mailbox) -> None:
    with serve(matches, mailbox, notify_budget_match="off",
               notify_budget_creator="3/hour") as client:
        client.app.state.notify.stop()
        first, second = Table.seat(client), Table.seat(client)
        regs = [confirmed(first, mailbox), confirmed(second, mailbox)]
        first.hand_over(3)  # blue told twice
        first.run()
        second.hand_over(3)  # twice more: one within the address's budget
        second.run()
        assert len([m for m in mailbox.messages if m["Subject"].startswith("Your move")]) == 3
        assert [a["error"] for a in second.attempts("blue", regs[1])
                if a["error"]] == ["refused: over budget"]


def test_registrations_past_a_match_s_limit_answer_429(
        matches: Matches, mailbox: Mailbox) -> None:
    with serve(matches, mailbox, notify_max_per_match=3, notify_max_per_seat=5) as client:
        table = Table.seat(client)
        for n in range(3):
            assert table.register("red" if n % 2 else "blue", {
                "kind": "email", "email": f"p{n}@example.org"}).status_code == 201
        over = table.register("red", {"kind": "email", "email": "p9@example.org"})
        assert over.status_code == 429, over.text
        assert over.headers["content-type"] == "application/problem+json"
        assert "at most 3" in over.json()["detail"]
        assert len(table.listed("referee")) == 3


def test_registrations_past_the_creating_address_s_rate_answer_429(
        matches: Matches, mailbox: Mailbox) -> None:
    with serve(matches, mailbox, notify_register_rate="2/hour") as client:
        first, second = Table.seat(client), Table.seat(client)
        assert first.register("blue", EMAIL).status_code == 201
        assert second.register("blue", EMAIL).status_code == 201
        over = first.register("red", {"kind": "email", "email": "red@example.org"})
        assert over.status_code == 429, over.text
        assert first.listed("red") == []  # nothing kept, no confirmation queued
        assert len(client.app.state.notify.view.notices(first.match)) == 1
