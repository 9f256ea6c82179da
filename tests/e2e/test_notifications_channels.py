""""Your turn" notices through a real server to real receivers on loopback: each handoff
of a scripted match arrives once at each registered seat, by webhook (every signature
verified with `standardwebhooks`, a failed attempt retried with the same delivery id and
recorded), by e-mail (an `aiosmtpd` server) and by Web Push (decrypted with the
subscription's keys), each registration confirmed first with the code its confirmation
message brought; the seat not waited for gets nothing; a private fact stays out of the
other seat's notice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from conftest import serving
from notifications_receivers import Mailbox, PushService, Table, WebhookReceiver, wait_until

pytestmark = pytest.mark.e2e
HANDOFFS = 9


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    yield box
    box.close()


def env(mailbox: Mailbox) -> dict[str, str]:
    return {"BATTLELOG_NOTIFY_ALLOW_PRIVATE": "1", "BATTLELOG_NOTIFY_BACKOFF": "0.2",
            "BATTLELOG_NOTIFY_POLL": "0.05", "BATTLELOG_SMTP_HOST": "127.0.0.1",
            "BATTLELOG_SMTP_PORT": str(mailbox.port), "BATTLELOG_SMTP_TLS": "none",
            "BATTLELOG_SMTP_FROM": "battlelog@example.org", "BATTLELOG_CREATE_RATE": "off"}


def red_cards(table: Table) -> list[str]:
    read = httpx.get(f"{table.url}/api/matches/{table.match}/events",
                     headers={"Authorization": f"Bearer {table.tokens['red']}"}, timeout=10)
    body = read.json()
    events = body if isinstance(body, list) else body["events"]
    return [c for e in events if e["type"] == "CardsDrawn" for c in e["cards"]]


def test_each_handoff_arrives_once_at_each_registered_seat_by_each_channel(
        tmp_path: Path, mailbox: Mailbox) -> None:
    hooks, push = WebhookReceiver(failing=frozenset({"blue"})), PushService()
    try:
        with serving(tmp_path / "n.db", env(mailbox)) as url:
            table = Table.start(url)
            for seat in ("red", "blue"):
                made = table.register(seat, {"kind": "webhook", "url": f"{hooks.url}/{seat}"})
                assert made["secret"].startswith("whsec_")
                hooks.secrets[seat] = made["secret"]
                table.confirm(made["registration_id"], hooks.got)
            table.register("red", {"kind": "email", "email": "red@example.org"}, by="referee",
                           confirm=mailbox.got)
            table.register("blue", {"kind": "push", "subscription": push.subscription("blue")},
                           confirm=push.got)
            # red draws cards: blue's notices never name them
            drawn = table.post("red", "actions", {"type": "draw_cards", "count": 2})
            assert drawn.status_code == 201, drawn.text
            table.play(HANDOFFS)

            expected = sorted(table.handoffs)
            reds = [h for h in expected if h[0] == "red"]
            blues = [h for h in expected if h[0] == "blue"]
            wait_until(lambda: hooks.got.handoffs() == expected, 30, "every webhook")
            wait_until(lambda: len(mailbox.got.unique()) == len(reds), 30, "every e-mail")
            wait_until(lambda: push.got.handoffs() == blues, 30, "every push message")

            # once each: no delivery id twice at a receiver that answered 2xx
            assert len(hooks.got.raw) == len(expected) and not hooks.got.bad
            assert len(push.got.raw) == len(blues) and not push.got.bad
            assert len(mailbox.got.raw) == len(reds)
            assert all(p["seat"] == s for _, (s, p) in hooks.got.unique().items())

            # what a notice says: the waiting seat and why, the step, the last event
            _, first = next(v for v in hooks.got.unique().values() if v[0] == "blue")
            assert first["waiting_for"] == [{"seat": "blue", "name": "Free Militia",
                                             "reason": "to activate one of your units "
                                                       "that has not activated this turn"}]
            assert first["step"].startswith("Turn 1, ") and first["link"].endswith(
                f"/play/{table.match}")
            assert all("Activation" in m["body"] for _, m in mailbox.got.unique().values())
            cards = red_cards(table)
            assert cards  # red sees what it drew
            for seat, payload in hooks.got.unique().values():
                text = str(payload)
                assert "dice_seed" not in text
                if seat == "blue":
                    assert all(card not in text for card in cards)

            # the failed first attempts were retried with the same id and recorded
            regs = httpx.get(f"{url}/api/matches/{table.match}/notifications",
                             headers={"Authorization": f"Bearer {table.tokens['blue']}"},
                             timeout=10).json()
            assert all("secret" not in r or r["secret"] is None for r in regs)
            hook = next(r for r in regs if r["kind"] == "webhook")
            tried = httpx.get(f"{url}/api/matches/{table.match}/notifications/"
                              f"{hook['registration_id']}/attempts",
                              headers={"Authorization": f"Bearer {table.tokens['blue']}"},
                              timeout=10).json()
            tried = [a for a in tried if not a["delivery_id"].startswith("cfm_")]  # notices
            assert sorted(a["status_code"] for a in tried) == [204] * len(blues) + [500] * len(
                blues)
            assert {a["delivery_id"] for a in tried} == set(hooks.refused)
    finally:
        hooks.close()
        push.close()
