"""'Your turn' notifications (docs/notifications.md): a seat registers where to be told (a
webhook, an e-mail address, a Web Push subscription), lists and deletes its registrations
and reads their delivery attempts; the table page says it is present (no notice while it
is) and asks for the Web Push key. Who may do what is `domain.authority`'s
`check_notifications`. Registrations live in tables of their own, never in the event log:
a webhook's secret is shown once, in the answer that creates it."""

from __future__ import annotations

import base64
import binascii
import time
import uuid
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, ConfigDict, EmailStr, Field

from api.deps import MatchesDep, SeatDep
from api.problems import Forbidden
from domain.authority import check_notifications
from domain.errors import InvalidAction, MatchNotFound
from projections.egress import Egress
from projections.notify import NotifyService
from projections.notify_channels import MAX_URL, Refused, check_url, new_secret
from projections.notify_store import Registration

router = APIRouter(tags=["notifications"])
RULE = "core-notifications"
Url = Annotated[str, Field(min_length=8, max_length=MAX_URL)]


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: str = Field(min_length=80, max_length=100, description="the browser's P-256 key, "
                        "base64url (65 bytes)")
    auth: str = Field(min_length=16, max_length=32, description="the auth secret, base64url "
                      "(16 bytes)")


class PushSubscription(BaseModel):
    """What the browser's `PushManager.subscribe()` gives (its JSON)."""

    model_config = ConfigDict(extra="ignore")
    endpoint: Url
    keys: PushKeys


class RegistrationCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: str | None = Field(None, max_length=64,
                             description="whose turns to be told of; default: the asker's")
    kind: Literal["webhook", "email", "push"]
    url: Url | None = Field(None, description="webhook: where to POST the notices")
    email: EmailStr | None = Field(None, max_length=254, description="email: the address")
    subscription: PushSubscription | None = Field(None, description="push: the subscription")


class RegistrationPublic(BaseModel):
    registration_id: str
    seat: str
    kind: str
    target: str = Field(description="the URL, address or push endpoint")
    created: float
    secret: str | None = Field(None, description="webhook: the signing secret (whsec_...), in "
                               "the answer that creates it and never again")


class AttemptPublic(BaseModel):
    delivery_id: str = Field(description="the notice's id (webhook-id); the same on a retry")
    at: float
    status_code: int | None
    error: str | None
    duration_ms: float | None


class PushKey(BaseModel):
    public_key: str = Field(description="the VAPID public key (applicationServerKey)")


def notifier(request: Request) -> NotifyService:
    service: NotifyService = request.app.state.notify
    return service


NotifyDep = Annotated[NotifyService, Depends(notifier)]


def _sides(matches: MatchesDep, match_id: uuid.UUID) -> list[str]:
    return list(matches.head(match_id).state.side_ids())


def _b64(value: str, size: int, what: str) -> str:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size:
        raise InvalidAction(f"the subscription's {what} must be {size} bytes, base64url",
                            rule=RULE)
    return value


def _registration(body: RegistrationCreate, match_id: uuid.UUID, seat: str,
                  egress: Egress) -> Registration:
    target, secret, p256dh, auth = None, None, None, None
    try:
        if body.kind == "webhook" and body.url:
            target, secret = check_url(body.url, egress), new_secret()
        elif body.kind == "email" and body.email:
            target = str(body.email)
        elif body.kind == "push" and body.subscription:
            sub = body.subscription
            target = check_url(sub.endpoint, egress)
            p256dh, auth = _b64(sub.keys.p256dh, 65, "p256dh"), _b64(sub.keys.auth, 16, "auth")
    except Refused as refused:
        raise InvalidAction(f"notices cannot go there: give {refused}", rule=RULE) from None
    if target is None:
        field = {"webhook": "url", "email": "email", "push": "subscription"}[body.kind]
        raise InvalidAction(f"a {body.kind} registration needs '{field}'", rule=RULE)
    return Registration(registration_id=uuid.uuid4().hex, match_id=str(match_id), seat=seat,
                        kind=body.kind, target=target, secret=secret, p256dh=p256dh,
                        auth=auth, created=time.time())


def _public(reg: Registration, secret: bool = False) -> RegistrationPublic:
    return RegistrationPublic(registration_id=reg.registration_id, seat=reg.seat,
                              kind=reg.kind, target=reg.target, created=reg.created,
                              secret=reg.secret if secret else None)


@router.post("/api/matches/{match_id}/notifications", status_code=201)
def register(match_id: uuid.UUID, body: RegistrationCreate, request: Request,
             matches: MatchesDep, who: SeatDep, notify: NotifyDep) -> RegistrationPublic:
    """Register where a seat is told that the match waits for it (its own seat; the
    referee any seat). A webhook's `secret` is in this answer only."""
    seat = body.seat or who.name
    check_notifications(who.name, seat, _sides(matches, match_id))
    settings = request.app.state.settings
    if body.kind == "email" and not settings.smtp_host:
        raise InvalidAction("e-mail notices are off on this server (no SMTP configured)",
                            rule=RULE)
    reg = _registration(body, match_id, seat, notify.egress)
    if not notify.view.add_registration(reg, settings.notify_max_per_seat):
        raise InvalidAction(f"a seat has at most {settings.notify_max_per_seat} "
                            "registrations: delete one first", rule=RULE)
    return _public(reg, secret=True)


@router.get("/api/matches/{match_id}/notifications")
def registrations(match_id: uuid.UUID, matches: MatchesDep, who: SeatDep, notify: NotifyDep,
                  seat: Annotated[str | None, Query(max_length=64)] = None
                  ) -> list[RegistrationPublic]:
    """The registrations of a seat (default: the asker's; the referee without `seat`: every
    seat's), without their secrets."""
    sides = _sides(matches, match_id)
    if seat is None and who.name == "referee":
        check_notifications(who.name, who.name, sides)
        return [_public(r) for r in notify.view.registrations(str(match_id))]
    seat = seat or who.name
    check_notifications(who.name, seat, sides)
    return [_public(r) for r in notify.view.registrations(str(match_id), seat)]


def _own(match_id: uuid.UUID, registration_id: str, matches: MatchesDep, who: SeatDep,
         notify: NotifyService) -> Registration:
    reg = notify.view.registration(registration_id[:64])
    if reg is None or reg.match_id != str(match_id):
        raise MatchNotFound("no such registration in this match", rule=RULE)
    check_notifications(who.name, reg.seat, _sides(matches, match_id))
    return reg


@router.delete("/api/matches/{match_id}/notifications/{registration_id}", status_code=204)
def unregister(match_id: uuid.UUID, registration_id: str, matches: MatchesDep, who: SeatDep,
               notify: NotifyDep) -> Response:
    """Delete a registration: nothing more is sent to it, and its attempts are forgotten."""
    reg = _own(match_id, registration_id, matches, who, notify)
    notify.view.delete_registration(reg.registration_id)
    return Response(status_code=204)


@router.get("/api/matches/{match_id}/notifications/{registration_id}/attempts")
def attempts(match_id: uuid.UUID, registration_id: str, matches: MatchesDep, who: SeatDep,
             notify: NotifyDep) -> list[AttemptPublic]:
    """The latest delivery attempts to a registration (newest first, at most 100): when,
    the status code or the error, how long it took."""
    reg = _own(match_id, registration_id, matches, who, notify)
    return [AttemptPublic(**a) for a in notify.view.attempts(reg.registration_id)]


@router.post("/api/matches/{match_id}/presence", status_code=204)
def present(match_id: uuid.UUID, request: Request, matches: MatchesDep, who: SeatDep,
            notify: NotifyDep) -> Response:
    """The table page's heartbeat: its seat is present (not notified) for the presence
    TTL. Spectators and join tokens have no notices to hold back."""
    if who.side is None and who.name != "referee":
        raise Forbidden("only a seat that is told of its turns can be present", rule=RULE)
    matches.head(match_id)
    ttl = request.app.state.settings.presence_ttl
    notify.view.present(str(match_id), who.name, time.time() + ttl)
    return Response(status_code=204)


@router.get("/api/push/key")
def push_key(notify: NotifyDep) -> PushKey:
    """The VAPID public key a browser subscribes with (made once, kept in the store)."""
    return PushKey(public_key=notify.vapid_public_key())
