"""Remote play from the page (issue 26), on a 390x844 phone: on the table page a seat
registers an e-mail address (to an `aiosmtpd` server) or a webhook (a loopback receiver
that verifies every signature), types the code its confirmation message brought, sees the
registration confirmed, and a later handoff to that seat arrives there; a URL the server
refuses is refused in the server's words under the field. And the lobby follows whose turn
it is without a reload."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import SHARED_ENV, _free_port, serving
from notifications_receivers import Got, Mailbox, WebhookReceiver, wait_until
from phone import Phone, new_match
from table_steps import wait_version

pytestmark = pytest.mark.e2e
TTL = 1.0  # the seat's presence lasts a second after the page stops saying it is there


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    yield box
    box.close()


def env(mailbox: Mailbox, ports: str = "") -> dict[str, str]:
    return {**SHARED_ENV, "BATTLELOG_NOTIFY_ALLOW_PRIVATE": "1", "BATTLELOG_NOTIFY_POLL": "0.05",
            "BATTLELOG_NOTIFY_BACKOFF": "0.2", "BATTLELOG_PRESENCE_TTL": str(TTL),
            "BATTLELOG_SMTP_HOST": "127.0.0.1", "BATTLELOG_SMTP_PORT": str(mailbox.port),
            "BATTLELOG_SMTP_TLS": "none", "BATTLELOG_SMTP_FROM": "battlelog@example.org",
            **({"BATTLELOG_EGRESS_PORTS": ports} if ports else {})}


def panel(phone: Phone) -> Any:
    """The Turn notices panel (after Seats, at the page's end)."""
    found = phone.page.locator("#notices")
    found.wait_for(state="attached")
    return found


def register(phone: Phone, label: str, value: str, button: str) -> None:
    """Type `value` in the field `label` of the Turn notices panel and tap `button`."""
    box = panel(phone)
    control = box.get_by_label(label, exact=True)
    phone.check_size(control, label)
    control.fill(value)
    phone.tap(box.get_by_role("button", name=button), button)


def confirm_on_the_page(phone: Phone, got: Got) -> str:
    """Wait for the code to reach the receiver, type it in the pending registration's
    field, tap Confirm and wait until the page says it is confirmed."""
    entry = panel(phone).locator(".registrations > li").first
    entry.wait_for()
    registration = str(entry.get_attribute("data-registration"))
    wait_until(lambda: registration in got.codes, 30, "the confirmation message")
    assert "Waiting for its code" in entry.inner_text()
    code = entry.get_by_label("Code from the message")
    phone.check_size(code, "code")
    code.fill(got.codes[registration].lower())  # as typed on a phone: case does not matter
    phone.tap(entry.get_by_role("button", name="Confirm", exact=True), "confirm")
    entry.locator(".reg-status", has_text="Confirmed").wait_for()
    return registration


def hand_the_turn_to_red(server: str, match: dict[str, Any]) -> int:
    """Red activates and moves on (Free Militia's turn), then undoes it: red's turn again,
    a handoff to red. Returns the match's version then."""
    auth = {"Authorization": f"Bearer {match['seats']['red']}"}
    for path, body in (("actions", {"type": "activate_unit", "unit_id": "sq1"}),
                       ("actions", {"type": "advance"}), ("undo", {"actions": 1})):
        done = httpx.post(f"{server}/api/matches/{match['id']}/{path}", json=body,
                          headers=auth, timeout=10)
        assert done.status_code == 201, done.text
    return int(done.headers["etag"].strip('"'))


def away(phone: Phone) -> None:
    """The page acts as the referee: red is no longer at the table (its presence lapses)."""
    phone.as_seat("Referee")
    time.sleep(TTL * 1.5)


def test_a_seat_registers_an_email_address_on_the_table_page_and_is_told_by_mail(
        browser: Any, tmp_path: Path, mailbox: Mailbox, screenshots: Any) -> None:
    with serving(tmp_path / "mail.db", env(mailbox)) as server:
        match = new_match(server, "atomic-africa-demo")
        phone = Phone(browser, server, "notices-email", screenshots)
        phone.open(match, "red")
        register(phone, "E-mail address", "red@example.org", "Send a code to this address")
        entry = panel(phone).locator(".registrations > li").first
        entry.wait_for()
        assert "E-mail to red@example.org" in entry.inner_text()
        phone.screen("email-pending")
        # a wrong code: refused under the field, in the server's words; still waiting
        phone.allow(403, "/confirm")
        entry.get_by_label("Code from the message").fill("WRONGCODE2")
        phone.tap(entry.get_by_role("button", name="Confirm", exact=True), "confirm")
        entry.locator(".field-error", has_text="that is not this registration's code").wait_for()
        phone.errors.clear()  # the browser logs the refused request
        registration = confirm_on_the_page(phone, mailbox.got)
        # its tries in words: the code went to the mail server
        entry.locator(".attempts li", has_text="The code was handed to the mail server").wait_for()
        phone.screen("email-confirmed")

        away(phone)
        version = hand_the_turn_to_red(server, match)
        wait_until(lambda: len(mailbox.got.unique()) == 1, 30, "the turn notice by mail")
        (_, mail), = mailbox.got.unique().values()
        assert mail["subject"].startswith("Your move")
        wait_version(phone.page, version)  # the page has followed the match
        phone.as_seat("Expeditionary Force")
        panel(phone).scroll_into_view_if_needed()  # the panel reads its list when shown
        entry = panel(phone).locator(f'li[data-registration="{registration}"]')
        entry.locator(".attempts li", has_text="A turn notice was handed to the mail server").wait_for()

        # removed from the page: listed no more, and the server has none left
        phone.tap(entry.get_by_role("button", name="Stop these notices"), "remove")
        entry.wait_for(state="detached")
        left = httpx.get(f"{server}/api/matches/{match['id']}/notifications",
                         headers={"Authorization": f"Bearer {match['seats']['red']}"}, timeout=10)
        assert left.json() == []
        phone.close()


def test_a_seat_registers_a_webhook_on_the_table_page_and_is_told_there(
        browser: Any, tmp_path: Path, mailbox: Mailbox, screenshots: Any) -> None:
    hooks = WebhookReceiver()
    port = hooks.url.rsplit(":", 1)[1]
    try:
        with serving(tmp_path / "hook.db", env(mailbox, ports=port)) as server:
            match = new_match(server, "atomic-africa-demo")
            phone = Phone(browser, server, "notices-webhook", screenshots)
            phone.open(match, "red")

            # a port the server may not call: refused, in the server's words, under the field
            phone.allow(422, "/notifications")
            register(phone, "Webhook address (URL)", f"http://127.0.0.1:{_free_port()}/red",
                     "Send a code to this webhook")
            said = panel(phone).locator("form[aria-label='Tell a webhook'] .field-error")
            said.wait_for()
            assert "notices cannot go there: give" in said.inner_text()
            assert "port" in said.inner_text()
            phone.errors.clear()  # the browser logs the refused request

            register(phone, "Webhook address (URL)", f"{hooks.url}/red",
                     "Send a code to this webhook")
            entry = panel(phone).locator(".registrations > li").first
            secret = entry.locator(".secret code")
            secret.wait_for()
            hooks.secrets["red"] = secret.inner_text()  # shown once: the receiver keeps it
            phone.screen("webhook-pending")
            confirm_on_the_page(phone, hooks.got)
            # the first request came before the receiver had the secret: said in words
            entry.locator(".attempts li", has_text="The code was delivered (answer 204)").wait_for()
            phone.screen("webhook-confirmed")

            away(phone)
            hand_the_turn_to_red(server, match)
            wait_until(lambda: len(hooks.got.unique()) == 1, 30, "the turn notice")
            (seat, payload), = hooks.got.unique().values()
            assert (seat, payload["type"], payload["seat"]) == ("red", "turn.handoff", "red")
            assert not hooks.got.bad
            phone.close()
    finally:
        hooks.close()


def test_the_lobby_follows_whose_turn_without_a_reload(browser: Any, server: str,
                                                       screenshots: Any) -> None:
    match = new_match(server, "atomic-africa-demo")
    phone = Phone(browser, server, "lobby-live", screenshots)
    phone.open(match, "red")
    phone.page.goto(server)
    item = phone.page.locator(f'ul.matches li[data-id="{match["id"]}"]')
    item.locator(".whose", has_text="Your move").wait_for()
    phone.screen("lobby-your-move")
    auth = {"Authorization": f"Bearer {match['seats']['red']}"}
    for body in ({"type": "activate_unit", "unit_id": "sq1"}, {"type": "advance"}):
        done = httpx.post(f"{server}/api/matches/{match['id']}/actions", json=body,
                          headers=auth, timeout=10)
        assert done.status_code == 201, done.text
    item.locator(".whose", has_text="Waiting for Free Militia").wait_for()
    assert "your-move" not in (item.get_attribute("class") or "")
    phone.screen("lobby-their-move")
    phone.close()
