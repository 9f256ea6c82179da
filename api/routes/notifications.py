"""'Your turn' notifications (docs/notifications.md): a seat registers where to be told (a
webhook, an e-mail address, a Web Push subscription), lists and deletes its registrations
and reads their delivery attempts; the table page says it is present (no notice while it
is) and asks for the Web Push key. Who may do what is `domain.authority`'s
(`check_notifications`, `check_registration`, `registrations_shown`). Registrations live
in tables of their own, never in the event log: a webhook's secret is shown once, in the
answer that creates it.

A registration starts pending: it is sent one confirmation message (a code, and a link
that confirms it) and nothing else until the code comes back (`.../confirm`, no token
needed: the code proves the address is its owner's). Registrations are bounded per seat,
per match and, per window, per address the match was created from (429 past the last
two)."""

from __future__ import annotations

import base64
import binascii
import html
import secrets
import time
import uuid
from typing import Annotated, Literal
from urllib.parse import quote

from fastapi import APIRouter, Body, Depends, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, EmailStr, Field

from api.deps import MatchesDep, SeatDep, TokenDep
from api.problems import Forbidden
from domain.app.results import token_hash
from domain.authority import check_notifications, check_registration, registrations_shown
from domain.errors import DomainError, InvalidAction, MatchNotFound
from projections.egress import Egress
from projections.notify import NotifyService
from projections.notify_budget import Budget
from projections.notify_channels import CONFIRM, MAX_URL, Refused, check_url, new_secret
from projections.notify_registrations import code_hash
from projections.notify_store import PENDING, Notice, Registration

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


class TooManyRegistrations(DomainError):
    status = 429
    title = "Too many registrations"


class RegistrationPublic(BaseModel):
    registration_id: str
    seat: str
    kind: str
    target: str = Field(description="the URL, address or push endpoint")
    created: float
    status: str = Field(description="pending (sent its confirmation only) or confirmed")
    expires: float | None = Field(None, description="pending: when it is dropped unless "
                                  "confirmed")
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


class Channels(BaseModel):
    email: bool = Field(description="whether e-mail notices are on (an SMTP server is set)")
    webhook: bool = True
    push: bool = True


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


class ConfirmCode(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(min_length=1, max_length=32, description="the confirmation message's code")


CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a screen
CODE_LENGTH = 10


def new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def _registration(body: RegistrationCreate, match_id: uuid.UUID, seat: str,
                  egress: Egress, holder: str, code: str) -> Registration:
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
                        auth=auth, created=time.time(), status=PENDING,
                        code_hash=code_hash(code), holder=holder)


def _public(reg: Registration, ttl: float, secret: bool = False) -> RegistrationPublic:
    return RegistrationPublic(registration_id=reg.registration_id, seat=reg.seat,
                              kind=reg.kind, target=reg.target, created=reg.created,
                              status=reg.status,
                              expires=reg.created + ttl if reg.status == PENDING else None,
                              secret=reg.secret if secret else None)


def _confirmation(reg: Registration, code: str, public_url: str) -> Notice:
    """The one message a pending registration is sent: its code, and the link that
    confirms it (a page with a button: a mail scanner that opens links confirms
    nothing). Only the service's own words and ids: it goes to an address that agreed to
    nothing yet, so no word the match's creator chose (a seat's id, a side's name, the
    title) rides along. Sent through the outbox like any notice; never held back by
    presence."""
    link = (f"{public_url.rstrip('/')}/api/matches/{reg.match_id}/notifications/"
            f"{reg.registration_id}/confirm?code={code}")
    payload = {"type": CONFIRM, "match_id": reg.match_id,
               "registration_id": reg.registration_id, "code": code, "link": link,
               "confirm_url": link.split("?")[0]}  # no seat: its id is the creator's word
    return Notice(delivery_id=f"cfm_{uuid.uuid4().hex}", registration_id=reg.registration_id,
                  match_id=reg.match_id, seat=reg.seat, version=0, reminder=-1,
                  payload=payload, status="pending", attempts=0, due=reg.created,
                  lease_until=None, created=reg.created, done=None)


def _registering(request: Request) -> Budget:
    """This process's count of registrations per creating address."""
    state = request.app.state
    if getattr(state, "notify_registering", None) is None:
        state.notify_registering = Budget(per_creator=state.settings.notify_register_rate)
    budget: Budget = state.notify_registering
    return budget


@router.post("/api/matches/{match_id}/notifications", status_code=201)
def register(match_id: uuid.UUID, body: RegistrationCreate, request: Request,
             matches: MatchesDep, who: SeatDep, token: TokenDep,
             notify: NotifyDep) -> RegistrationPublic:
    """Register where a seat is told that the match waits for it (its own seat; the
    referee any seat). It is `pending` and sent one confirmation message (a code and a
    link); nothing else until it is confirmed (`.../confirm`). A webhook's `secret` is in
    this answer only. 429 past the registrations of a match or of its creator's address."""
    seat = body.seat or who.name
    check_notifications(who.name, seat, _sides(matches, match_id))
    settings = request.app.state.settings
    if body.kind == "email" and not settings.smtp_host:
        raise InvalidAction("e-mail notices are off on this server (no SMTP configured)",
                            rule=RULE)
    code = new_code()
    reg = _registration(body, match_id, seat, notify.egress, token_hash(token), code)
    notify.view.drop_unconfirmed(reg.created - settings.notify_confirm_ttl)
    creator = notify.view.creators([str(match_id)]).get(str(match_id))
    if not _registering(request).spend(str(match_id), creator):
        raise TooManyRegistrations(
            "the matches created from this match's address have made as many registrations "
            "as they may for now; try again later", rule=RULE)
    full = notify.view.add_registration(
        reg, settings.notify_max_per_seat, settings.notify_max_per_match,
        [notify.view.notice_sql(_confirmation(reg, code, notify.config.outbox.public_url))])
    if full == "seat":
        raise InvalidAction(f"a seat has at most {settings.notify_max_per_seat} "
                            "registrations: delete one first", rule=RULE)
    if full == "match":
        raise TooManyRegistrations(f"a match has at most {settings.notify_max_per_match} "
                                   "registrations: delete one first", rule=RULE)
    notify.registered(match_id)
    return _public(reg, settings.notify_confirm_ttl, secret=True)


@router.get("/api/matches/{match_id}/notifications")
def registrations(match_id: uuid.UUID, request: Request, matches: MatchesDep, who: SeatDep,
                  token: TokenDep, notify: NotifyDep,
                  seat: Annotated[str | None, Query(max_length=64)] = None
                  ) -> list[RegistrationPublic]:
    """The registrations of a seat (default: the asker's; the referee without `seat`: every
    seat's), without their secrets. A side sees only those its current token made."""
    sides = _sides(matches, match_id)
    ttl = request.app.state.settings.notify_confirm_ttl
    holder = registrations_shown(who.name, token_hash(token))
    if seat is None and who.name == "referee":
        check_notifications(who.name, who.name, sides)
        return [_public(r, ttl) for r in notify.view.registrations(str(match_id))]
    seat = seat or who.name
    check_notifications(who.name, seat, sides)
    return [_public(r, ttl) for r in notify.view.registrations(str(match_id), seat, holder)]


def _own(match_id: uuid.UUID, registration_id: str, matches: MatchesDep, who: SeatDep,
         token: str, notify: NotifyService) -> Registration:
    reg = _found(match_id, registration_id, notify)
    check_registration(who.name, reg.seat, _sides(matches, match_id), token_hash(token),
                       reg.holder)
    return reg


def _found(match_id: uuid.UUID, registration_id: str, notify: NotifyService) -> Registration:
    reg = notify.view.registration(registration_id[:64])
    if reg is None or reg.match_id != str(match_id):
        raise MatchNotFound("no such registration in this match", rule=RULE)
    return reg


@router.delete("/api/matches/{match_id}/notifications/{registration_id}", status_code=204)
def unregister(match_id: uuid.UUID, registration_id: str, matches: MatchesDep, who: SeatDep,
               token: TokenDep, notify: NotifyDep) -> Response:
    """Delete a registration: nothing more is sent to it, and its attempts are forgotten."""
    reg = _own(match_id, registration_id, matches, who, token, notify)
    notify.view.delete_registration(reg.registration_id)
    return Response(status_code=204)


@router.get("/api/matches/{match_id}/notifications/{registration_id}/attempts")
def attempts(match_id: uuid.UUID, registration_id: str, matches: MatchesDep, who: SeatDep,
             token: TokenDep, notify: NotifyDep) -> list[AttemptPublic]:
    """The latest delivery attempts to a registration (newest first, at most 100): when,
    the status code or the error (`refused: over budget` for a notice over a budget), how
    long it took."""
    reg = _own(match_id, registration_id, matches, who, token, notify)
    return [AttemptPublic(**a) for a in notify.view.attempts(reg.registration_id)]


def _confirmed(match_id: uuid.UUID, registration_id: str, code: str, request: Request,
               matches: MatchesDep, notify: NotifyService) -> Registration:
    """Confirm with `code`, or the refusal: 404 none (or lapsed, or its maker's token was
    revoked), 403 a wrong code (the registration is dropped at the last allowed try)."""
    settings = request.app.state.settings
    reg = _found(match_id, registration_id, notify)
    live = {hashed for hashed, _ in matches.head(match_id).tokens}
    if reg.holder not in live:  # its maker's token was reissued: it ends, unconfirmed
        notify.view.delete_registration(reg.registration_id)
        raise MatchNotFound("no such registration in this match", rule=RULE)
    now = time.time()
    outcome = notify.view.confirm(reg.registration_id, code, now,
                                  now - settings.notify_confirm_ttl, settings.notify_confirm_tries)
    if outcome == "wrong":
        raise Forbidden("that is not this registration's code", rule=RULE)
    if outcome == "exhausted":
        raise Forbidden("too many wrong codes: the registration is dropped; register again",
                        rule=RULE)
    found = notify.view.registration(reg.registration_id) if outcome == "confirmed" else None
    if found is None:
        raise MatchNotFound("no such registration in this match (an unconfirmed one lapses)",
                            rule=RULE)
    return found


@router.post("/api/matches/{match_id}/notifications/{registration_id}/confirm",
             response_model=RegistrationPublic)
def confirm(match_id: uuid.UUID, registration_id: str, request: Request,
            matches: MatchesDep, notify: NotifyDep,
            body: Annotated[ConfirmCode | None, Body()] = None,
            code: Annotated[str | None, Query(max_length=32)] = None
            ) -> RegistrationPublic | HTMLResponse:
    """Confirm a registration with the code of its confirmation message (in the body, or
    `code` in the query as the link's page sends it). No token: the code is the proof.
    From then on it is told of handoffs. Wrong codes are counted: at the last allowed one
    the registration is dropped."""
    given = body.code if body is not None else code
    if not given:
        raise InvalidAction("give the confirmation message's code", rule=RULE)
    reg = _confirmed(match_id, registration_id, given, request, matches, notify)
    if body is None:
        return HTMLResponse(_page("Confirmed", "This address will be told when it is the "
                                  "seat's turn. You can close this page."))
    return _public(reg, request.app.state.settings.notify_confirm_ttl)


@router.get("/api/matches/{match_id}/notifications/{registration_id}/confirm",
            response_class=HTMLResponse)
def confirm_page(match_id: uuid.UUID, registration_id: str,
                 code: Annotated[str, Query(max_length=32)] = "") -> HTMLResponse:
    """The confirmation link's page: a button that confirms (opening the link alone does
    not, so a mail scanner that follows links confirms nothing)."""
    action = html.escape(f"/api/matches/{match_id}/notifications/"
                         f"{quote(registration_id[:64], safe='')}/confirm?code="
                         f"{quote(code, safe='')}", quote=True)
    return HTMLResponse(_page("Confirm turn notices", "Press the button to be told at this "
                              "address when it is the seat's turn.",
                              f'<form method="post" action="{action}">'
                              '<button type="submit">Confirm</button></form>'))


def _page(title: str, said: str, extra: str = "") -> str:
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport"'
            f' content="width=device-width"><title>{title}</title></head><body><h1>{title}'
            f"</h1><p>{said}</p>{extra}</body></html>")


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


@router.get("/api/notifications/channels")
def channels(request: Request) -> Channels:
    """Which kinds of notice this server sends, so that a page says before one tries that
    e-mail is off here (a registration of an e-mail address is refused then)."""
    return Channels(email=bool(request.app.state.settings.smtp_host))


@router.get("/api/push/key")
def push_key(notify: NotifyDep) -> PushKey:
    """The VAPID public key a browser subscribes with (made once, kept in the store)."""
    return PushKey(public_key=notify.vapid_public_key())
