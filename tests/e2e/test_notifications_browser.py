"""The table page's "Tell me when it's my turn" button on a phone: in the Seats panel, a
tap target of at least 44x44 pixels, the page fitting the screen; the browser is asked for
permission only when it is pressed (before: no service worker, permission untouched), then
the service worker is registered and the page says how it went; while the page is shown,
its seat is present and a handoff to its confirmed webhook is not sent but recorded as
suppressed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import SHARED_ENV, serving
from notifications_receivers import Table, WebhookReceiver
from phone import Phone, new_match, phone_at

pytestmark = pytest.mark.e2e
BUTTON = "Tell me when it's my turn"


def workers(page: Any) -> int:
    return int(page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)"))


def test_the_push_button_asks_only_when_pressed(browser: Any, server: str,
                                                screenshots: Any) -> None:
    phone = phone_at(browser, server, screenshots, "atomic-africa-demo", "push-button",
                     seat="red")
    page = phone.page
    button = page.get_by_role("button", name=BUTTON)
    button.wait_for()
    assert page.evaluate("Notification.permission") == "default"
    assert workers(page) == 0
    phone.screen("push-button")
    phone.context.grant_permissions(["notifications"], origin=server)
    # a headless browser has no push service to subscribe with; a real one registers it
    phone.allow(422, "/notifications")
    phone.tap(button, "tell me when it's my turn")
    deadline = time.monotonic() + 10
    while workers(page) == 0:
        assert time.monotonic() < deadline, "the service worker was never registered"
        time.sleep(0.1)
    page.locator("#notice").wait_for(state="visible")
    phone.errors.clear()  # the push service's refusal, reported in the notice
    phone.close()


def test_a_seat_at_the_table_is_not_told(browser: Any, tmp_path: Path,
                                         screenshots: Any) -> None:
    hooks = WebhookReceiver()
    env = {**SHARED_ENV, "BATTLELOG_NOTIFY_ALLOW_PRIVATE": "1", "BATTLELOG_NOTIFY_POLL": "0.05"}
    try:
        with serving(tmp_path / "present.db", env) as server:
            made = new_match(server, "atomic-africa-demo")
            phone = Phone(browser, server, "push-present", screenshots)
            match, red = made["id"], made["seats"]["red"]
            auth = {"Authorization": f"Bearer {red}"}
            hook = httpx.post(f"{server}/api/matches/{match}/notifications", headers=auth,
                              json={"kind": "webhook", "url": f"{hooks.url}/red"}, timeout=10)
            assert hook.status_code == 201, hook.text
            hooks.secrets["red"] = hook.json()["secret"]
            reg = hook.json()["registration_id"]
            table = Table(server, match, {"red": red})
            table.confirm(reg, hooks.got)  # confirmed: red would be told
            phone.open(made, "red")
            time.sleep(0.5)  # the page's first heartbeat
            for body in ({"type": "activate_unit", "unit_id": "sq1"}, {"type": "advance"}):
                assert httpx.post(f"{server}/api/matches/{match}/actions", json=body,
                                  headers=auth, timeout=10).status_code == 201
            assert httpx.post(f"{server}/api/matches/{match}/undo", json={"actions": 1},
                              headers=auth, timeout=10).status_code == 201  # red's turn again
            deadline = time.monotonic() + 5
            tried: list[Any] = []
            while time.monotonic() < deadline:
                tried = httpx.get(f"{server}/api/matches/{match}/notifications/{reg}/attempts",
                                  headers=auth, timeout=10).json()
                time.sleep(0.3)
            # suppressed: red is at the table; only the confirmation was ever sent
            assert [a["delivery_id"][:4] for a in tried] == ["cfm_"]
            assert hooks.got.raw == []
            phone.close()
    finally:
        hooks.close()


def test_a_page_opened_over_plain_http_on_the_network_says_web_push_needs_https(
        browser: Any, server: str, screenshots: Any) -> None:
    phone = phone_at(browser, server, screenshots, "atomic-africa-demo", "push-insecure",
                     seat="red")
    page = phone.page
    # what a phone sees at http://192.168.x.y: the page is not a secure context
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    page.reload()
    button = page.get_by_role("button", name=BUTTON)
    button.wait_for()
    phone.settle()
    assert page.evaluate("window.isSecureContext") is False
    phone.tap(button, "tell me when it's my turn")
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert "https" in notice.inner_text()
    assert page.evaluate("Notification.permission") == "default"  # never asked
    assert workers(page) == 0
    phone.close()


def test_a_refused_permission_and_e_mail_off_are_said_on_the_page(
        browser: Any, server: str, screenshots: Any) -> None:
    phone = phone_at(browser, server, screenshots, "atomic-africa-demo", "push-refused",
                     seat="red")
    page = phone.page
    # this server has no mail server: the page says so before anyone types an address
    off = page.locator("#email-off")
    off.wait_for()
    assert "off on this server" in off.inner_text()
    assert page.get_by_label("E-mail address").is_disabled()
    # the browser refuses notifications for this page (as after "Block" in its prompt)
    context_id = phone.context.new_cdp_session(page).send(
        "Target.getTargetInfo")["targetInfo"]["browserContextId"]
    browser.new_browser_cdp_session().send("Browser.setPermission", {
        "permission": {"name": "notifications"}, "setting": "denied", "origin": server,
        "browserContextId": context_id})
    assert page.evaluate("Notification.permission") == "denied"
    button = page.get_by_role("button", name=BUTTON)
    phone.settle()
    phone.tap(button, "tell me when it's my turn")
    said = page.locator("#push-said")
    page.wait_for_function("document.querySelector('#push-said').textContent !== ''")
    assert "refuses notifications" in said.inner_text()
    assert said.is_visible()
    assert workers(page) == 0
    phone.screen("push-refused")
    phone.close()
