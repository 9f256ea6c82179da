"""Confirmation of notification registrations, with a real SMTP server (aiosmtpd) and a
webhook receiver on loopback, on each store: an unconfirmed address receives only its
confirmation message, and notices once it is confirmed with the code of that message;
opening the link does not confirm, its page's button does; wrong codes are bounded; an
unconfirmed registration lapses. Names with CR/LF and links arrive as inert text."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from notify_receivers import Hooks, Mailbox, Table, mail_settings, serve_notifying

from domain.app import Matches
from projections.notify_outbox import Outbox, OutboxConfig
from projections.notify_store import open_view

EMAIL = {"kind": "email", "email": "blue@example.org", "seat": "blue"}


@pytest.fixture
def client(matches: Matches, mailbox: Mailbox) -> Iterator[TestClient]:
    with serve_notifying(matches, mail_settings(mailbox, notify_confirm_tries=3)) as client:
        client.app.state.notify.stop()  # the test applies the log and delivers
        yield client


def test_an_unconfirmed_address_receives_only_the_confirmation_then_notices(
        client: TestClient, mailbox: Mailbox) -> None:
    table = Table.seat(client)
    made = table.register("blue", EMAIL)
    assert made.status_code == 201, made.text
    assert made.json()["status"] == "pending" and made.json()["expires"] is not None
    reg = made.json()["registration_id"]
    table.hand_over(3)  # blue, red, blue: blue is told twice, were it confirmed
    table.run()
    [asked] = mailbox.messages  # the confirmation, and nothing else
    assert asked["Subject"] == "Confirm battlelog turn notices for this address"
    body = mailbox.bodies()[0]
    code = mailbox.code()
    assert f"/api/matches/{table.match}/notifications/{reg}/confirm?code={code}" in body
    assert table.attempts("blue", reg)[0]["status_code"] == 250

    link = re.search(r"open (\S+)", body)
    assert link is not None
    parts = urlsplit(link.group(1))
    page = client.get(f"{parts.path}?{parts.query}")
    assert page.status_code == 200 and "<form" in page.text
    assert table.listed("blue")[0]["status"] == "pending"  # opening the link confirmed nothing
    action = re.search(r'action="([^"]+)"', page.text)
    assert action is not None
    pressed = client.post(html.unescape(action.group(1)))  # the page's button
    assert pressed.status_code == 200 and "Confirmed" in pressed.text
    assert table.listed("blue")[0]["status"] == "confirmed"

    table.hand_over(2)  # red, then blue: blue is told once
    table.run()
    assert len(mailbox.messages) == 2
    assert mailbox.messages[1]["Subject"].startswith("Your move in ")
    assert "Activation" in mailbox.bodies()[1]


def test_a_webhook_is_sent_its_code_and_confirmed_with_it(client: TestClient,
                                                          hooks: Hooks) -> None:
    table = Table.seat(client)
    reg = table.register("blue", {"kind": "webhook", "url": f"{hooks.url}/blue"}).json()
    table.hand_over()
    table.run()
    [(where, asked)] = hooks.got
    assert where == "/blue"
    assert asked["type"] == "registration.confirm" and "version" not in asked
    assert table.confirm(reg["registration_id"], asked["code"]).json()["status"] == (
        "confirmed")
    table.hand_over(2)
    table.run()
    assert [p["type"] for _, p in hooks.got] == ["registration.confirm", "turn.handoff"]


def test_wrong_codes_are_refused_and_bounded(client: TestClient, mailbox: Mailbox) -> None:
    table = Table.seat(client)
    reg = table.register("blue", EMAIL).json()["registration_id"]
    table.run()
    code = mailbox.code()
    for _ in range(2):
        wrong = table.confirm(reg, "WRONGCODE9")
        assert wrong.status_code == 403, wrong.text
        assert wrong.headers["content-type"] == "application/problem+json"
    last = table.confirm(reg, "WRONGCODE9")  # the third wrong code of three allowed
    assert last.status_code == 403 and "dropped" in last.json()["detail"]
    assert table.confirm(reg, code).status_code == 404  # too late, even with the right one
    assert table.listed("blue") == []
    assert table.confirm(reg, "").status_code == 422
    assert table.confirm("nope", code).status_code == 404


def test_an_unconfirmed_registration_lapses(client: TestClient, matches: Matches) -> None:
    table = Table.seat(client)
    reg = table.register("blue", EMAIL).json()
    postgres = "postgres" in matches.env["PERSISTENCE_MODULE"]
    later = Outbox(matches, open_view(matches.factory, postgres), OutboxConfig(confirm_ttl=60),
                   clock=lambda: reg["created"] + 59)
    later.schedule_reminders()
    assert [r["status"] for r in table.listed("blue")] == ["pending"]
    later.clock = lambda: reg["created"] + 61
    later.schedule_reminders()
    assert table.listed("blue") == []
    assert client.app.state.notify.view.notices(table.match) == []  # its message too


def test_names_with_cr_lf_and_links_arrive_as_inert_text(
        client: TestClient, mailbox: Mailbox) -> None:
    body = client.get("/api/scenarios/atomic-africa-demo").json()
    sides = [{**s, "name": "Free\r\nBcc: victim@example.org\u202e http://phish.example/x"}
             if s["id"] == "blue" else s for s in body["sides"]]
    table = Table.seat(client, scenario="FREE PRIZES: visit http://phish.example/claim\r\n"
                       "X-Injected: yes", sides=sides)
    reg = table.register("blue", EMAIL).json()["registration_id"]
    table.run()
    assert table.confirm(reg, mailbox.code()).status_code == 200
    table.hand_over()
    table.run()
    assert len(mailbox.messages) == 2  # the notice arrived: the title broke nothing
    notice, text = mailbox.messages[1], mailbox.bodies()[1]
    assert notice["X-Injected"] is None and notice["Bcc"] is None
    subject = re.sub(r"\r?\n[ \t]", " ", str(notice["Subject"]))  # unfolded: one line
    assert "\r" not in subject and "\n" not in subject
    assert "phish[.]example/claim X-Injected: yes" in subject and "http" not in subject
    assert "hxxp://phish[.]example/x" in text and "http://phish" not in text
    assert "\u202e" not in text
    assert not any(line.startswith("Bcc") for line in text.splitlines())
    assert table.attempts("blue", reg)[0]["status_code"] == 250


def test_the_confirmation_carries_no_word_the_creator_chose(
        client: TestClient, mailbox: Mailbox, hooks: Hooks) -> None:
    """Finding 14: the confirmation message goes to an address that has not agreed to
    anything, so it says only the service's own words, the code and the link: not the
    seat's id (the creator's choice, up to 64 characters: before, 32 of them were in the
    e-mail), not the side's name, not the match's title."""
    chosen = "Claim.your.prize-at-phish.example"
    made = client.post("/api/matches", json={
        "scenario": "FREE PRIZES at phish.example",
        "sides": [{"id": chosen, "name": "Visit phish.example now"},
                  {"id": "other", "name": "Other"}]})
    assert made.status_code == 201, made.text
    match, tokens = made.json()["match_id"], made.json()["tokens"]
    table = Table(client, match, dict(tokens))
    mail = table.register("referee", {"kind": "email", "email": "someone@example.org",
                                      "seat": chosen})
    hook = table.register("referee", {"kind": "webhook", "url": f"{hooks.url}/x",
                                      "seat": chosen})
    assert mail.status_code == hook.status_code == 201, (mail.text, hook.text)
    table.run()
    [message] = mailbox.messages
    [(_, payload)] = hooks.got
    said = "\n".join([str(message["Subject"]), mailbox.bodies()[0], str(payload)])
    for word in ("Claim", "prize", "phish", "Visit", "FREE"):
        assert word.lower() not in said.lower(), word
    assert payload["code"] in said and mailbox.code()  # the code and the link are there
    assert set(payload) == {"type", "match_id", "registration_id", "code", "link",
                            "confirm_url"}
