"""Server settings, in one place: from the command line, else the environment, else the
defaults below (docs/configuration.md lists each one with its variable and flag)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from typing import Any

from limits import parse_many
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeFloat,
    NonNegativeInt,
    PositiveFloat,
    PositiveInt,
    field_validator,
)

from domain.annotations import CAPS, Caps
from projections.egress import EgressConfig, parse_ports
from projections.notify import NotifyConfig
from projections.notify_channels import SmtpConfig
from projections.notify_delivery import DeliveryConfig
from projections.notify_lanes import LaneConfig
from projections.notify_outbox import OutboxConfig
from projections.store import env_from_environment

MiB = 1024 * 1024


def _env(name: str, default: Any, cast: Callable[[str], Any], meaning: str) -> Any:
    """A setting of `battlelog serve` with a default that `BATTLELOG_<NAME>` overrides (read
    when the settings are made) and a `--<name>` flag (api/cli.py makes one per such
    field, from its `meaning`)."""
    variable = f"BATTLELOG_{name}"

    def read() -> Any:
        raw = os.environ.get(variable, "").strip()
        try:
            return cast(raw) if raw else default
        except ValueError:
            raise ValueError(f"{variable}={raw!r} is not a {cast.__name__}") from None
    return Field(default_factory=read, description=meaning,
                 json_schema_extra={"variable": variable, "default": default, "cast": cast})


def flag(raw: str) -> bool:
    """A yes/no setting: 1, true, yes, on, or 0, false, no, off."""
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{raw!r} is not yes or no")


class Settings(BaseModel):
    model_config = ConfigDict(validate_default=True)  # what the environment gave, too
    db: str | None = None  # SQLite file; None: BATTLELOG_DB or ./battlelog.db
    host: str = "127.0.0.1"
    port: int = 8000
    # Opens the cross-match catalogue (GET /api/matches): BATTLELOG_ADMIN_TOKEN, else a fresh
    # one per start, which `battlelog serve` prints.
    admin_token: str = Field(default_factory=lambda: os.environ.get("BATTLELOG_ADMIN_TOKEN", ""))

    def with_admin_token(self) -> Settings:
        if self.admin_token:
            return self
        return self.model_copy(update={"admin_token": secrets.token_urlsafe(24)})
    max_body_bytes: int = 64 * 1024
    # Against hostile or slow clients (docs/configuration.md): an import is spooled to a
    # temporary file as it arrives; quotas are per client address, in the `limits`
    # notation.
    max_import_bytes: PositiveInt = _env(
        "MAX_IMPORT_BYTES", 64 * MiB, int, "largest import body in bytes, else 413")
    imports_at_once: PositiveInt = _env(
        "IMPORTS_AT_ONCE", 1, int, "imports checked and stored at once; others wait")
    create_rate: str = _env(
        "CREATE_RATE", "30/minute", str,
        "match creations per client address, e.g. '30/minute;500/day', or 'off'; else 429")
    import_rate: str = _env(
        "IMPORT_RATE", "5/minute;30/hour", str, "imports per client address, or 'off'")
    # Replay files (docs/replay.md, "Cost"): written once per version, within a bound.
    replay_rate: str = _env(
        "REPLAY_RATE", "30/minute;300/hour", str,
        "replay files (GET .../replay) per client address, cached or not, or 'off'; else 429")
    replay_build_rate: str = _env(
        "REPLAY_BUILD_RATE", "20/hour", str,
        "replay files written (not from the cache) per match, or 'off'; else 429")
    replay_max_work: PositiveInt = _env(
        "REPLAY_MAX_WORK", 250_000, int,
        "a replay file's work at most: the units on the board, summed over its versions; "
        "else 413")
    # Ruleset files (docs/rulesets/authoring.md, docs/seats.md).
    rulesets_dir: str = _env(
        "RULESETS_DIR", "", str,
        "a folder of ruleset files (*.yaml, *.yml, *.json) stored at start (empty: none)")
    ruleset_upload: str = _env(
        "RULESET_UPLOAD", "anyone", str,
        "who may store a ruleset file with POST /api/rulesets: anyone (under the creation "
        "quota), admin (the admin token) or off")

    ruleset_keep_unused: NonNegativeFloat = _env(
        "RULESET_KEEP_UNUSED", 30.0, float,
        "days an uploaded ruleset file no match uses is kept, then removed (0: kept for "
        "ever); a file a match uses is never removed")

    @field_validator("ruleset_upload")
    @classmethod
    def _upload(cls, value: str) -> str:
        value = value.strip().lower()
        if value not in ("anyone", "admin", "off"):
            raise ValueError("ruleset_upload is one of: anyone, admin, off")
        return value

    header_timeout: PositiveFloat = _env(
        "HEADER_TIMEOUT", 10.0, float,
        "seconds for a request's line and headers, else the connection is closed")
    body_timeout: PositiveFloat = _env(
        "BODY_TIMEOUT", 60.0, float,
        "seconds for a request's whole body, else 408 and the connection is closed")
    keep_alive_timeout: PositiveInt = _env(
        "KEEP_ALIVE_TIMEOUT", 5, int, "seconds an idle connection is kept between requests")
    max_connections: PositiveInt = _env(
        "MAX_CONNECTIONS", 512, int, "connections (and requests) served at once, else 503")
    # Annotations (docs/replay.md): a rate per seat of a match, and what a match holds.
    annotation_rate: str = _env(
        "ANNOTATION_RATE", "30/minute;300/hour", str,
        "annotations added, edited or deleted per seat of a match, or 'off'; else 429")
    annotations_per_match: PositiveInt = _env(
        "ANNOTATIONS_PER_MATCH", CAPS.per_match, int,
        "annotations a match holds at once; past it an add is refused (422)")
    annotation_edits: PositiveInt = _env(
        "ANNOTATION_EDITS", CAPS.edits, int,
        "edits of one annotation at most; past it an edit is refused (422)")
    annotation_events: PositiveInt = _env(
        "ANNOTATION_EVENTS", CAPS.events, int,
        "changes (adds, edits, deletes) a match's annotations keep; past it adds and "
        "edits are refused (422)")

    def annotation_caps(self) -> Caps:
        return Caps(per_match=self.annotations_per_match, edits=self.annotation_edits,
                    events=self.annotation_events)

    @field_validator("create_rate", "import_rate", "replay_rate", "replay_build_rate",
                     "annotation_rate", "notify_register_rate",
                     "notify_budget_match", "notify_budget_creator")
    @classmethod
    def _rate(cls, value: str) -> str:
        value = value.strip()
        if value.lower() != "off":
            parse_many(value)  # ValueError names what it could not read
        return value

    # "Your turn" notifications (docs/notifications.md).
    public_url: str = _env(
        "PUBLIC_URL", "", str,
        "the service's address as players reach it, for the links in notices "
        "(default http://HOST:PORT)")
    notify_quiet: PositiveFloat = _env(
        "NOTIFY_QUIET", 12 * 3600.0, float,
        "seconds a seat may stay waited for before a reminder")
    notify_reminders: NonNegativeInt = _env(
        "NOTIFY_REMINDERS", 2, int, "reminders at most per handoff (0: none)")
    notify_max_per_seat: PositiveInt = _env(
        "NOTIFY_MAX_PER_SEAT", 5, int, "registrations at most per seat of a match, else 422")
    notify_max_per_match: PositiveInt = _env(
        "NOTIFY_MAX_PER_MATCH", 10, int, "registrations at most per match, else 429")
    notify_register_rate: str = _env(
        "NOTIFY_REGISTER_RATE", "30/hour;100/day", str,
        "registrations (each sends one confirmation message) per address a match was "
        "created from, over all its matches, or 'off'; else 429")
    notify_budget_match: str = _env(
        "NOTIFY_BUDGET_MATCH", "200/hour;1000/day", str,
        "notices per match, or 'off'; past it a notice is recorded as refused, not sent")
    notify_budget_creator: str = _env(
        "NOTIFY_BUDGET_CREATOR", "1000/hour;5000/day", str,
        "notices per address a match was created from, over all its matches, or 'off'")
    notify_confirm_ttl: PositiveFloat = _env(
        "NOTIFY_CONFIRM_TTL", 24 * 3600.0, float,
        "seconds a registration may stay unconfirmed before it is dropped")
    notify_confirm_tries: PositiveInt = _env(
        "NOTIFY_CONFIRM_TRIES", 5, int,
        "wrong confirmation codes at most; the last drops the registration")
    notify_max_attempts: PositiveInt = _env(
        "NOTIFY_MAX_ATTEMPTS", 8, int, "attempts at most per notice before it is failed")
    notify_backoff: PositiveFloat = _env(
        "NOTIFY_BACKOFF", 2.0, float,
        "seconds before the first retry of a notice; doubled each time, with jitter")
    notify_lease: PositiveFloat = _env(
        "NOTIFY_LEASE", 30.0, float,
        "seconds a claimed notice is its sender's before another may send it again")
    notify_senders: PositiveInt = _env(
        "NOTIFY_SENDERS", 16, int, "notices sent at once, all receivers together")
    notify_per_host: PositiveInt = _env(
        "NOTIFY_PER_HOST", 4, int,
        "notices sent at once to one host (a webhook's or push endpoint's; the SMTP relay)")
    notify_per_target: PositiveInt = _env(
        "NOTIFY_PER_TARGET", 2, int,
        "notices sent at once to one webhook, push endpoint or e-mail address, within its "
        "host's share (keep it below NOTIFY_PER_HOST: the rest is for the host's others)")
    notify_breaker_failures: PositiveInt = _env(
        "NOTIFY_BREAKER_FAILURES", 5, int,
        "failures in a row after which a target (or a host, when from two targets or "
        "more) gets nothing until its cool-down has passed")
    notify_breaker_cool_down: PositiveFloat = _env(
        "NOTIFY_BREAKER_COOL_DOWN", 60.0, float,
        "seconds a failing target or host gets nothing before one notice tries it again")
    notify_poll: PositiveFloat = _env(
        "NOTIFY_POLL", 0.25, float, "seconds between the notifier's looks at the store")
    notify_allow_private: bool = _env(
        "NOTIFY_ALLOW_PRIVATE", False, flag,
        "let webhooks and push endpoints be loopback or private addresses, on any port "
        "unless EGRESS_PORTS says otherwise (tests only)")
    egress_ports: str = _env(
        "EGRESS_PORTS", "", str,
        "ports webhooks and push endpoints may use: a comma list or 'any' (default 80,443)")
    presence_ttl: PositiveFloat = _env(
        "PRESENCE_TTL", 45.0, float,
        "seconds a table page's heartbeat counts its seat as present (not notified)")
    smtp_host: str = _env("SMTP_HOST", "", str, "SMTP server for e-mail notices (off if empty)")
    smtp_port: PositiveInt = _env("SMTP_PORT", 587, int, "SMTP port")
    smtp_tls: str = _env("SMTP_TLS", "starttls", str, "SMTP TLS: none, starttls or tls")
    smtp_user: str = _env("SMTP_USER", "", str, "SMTP user name (none if empty)")
    smtp_password: str = _env("SMTP_PASSWORD", "", str, "SMTP password")
    smtp_from: str = _env("SMTP_FROM", "", str, "the notices' From address")
    vapid_subject: str = _env(
        "VAPID_SUBJECT", "", str, "Web Push contact (mailto: or https: URL) sent to push services")

    @field_validator("egress_ports")
    @classmethod
    def _ports(cls, value: str) -> str:
        parse_ports(value)  # ValueError says what it could not read
        return value

    @field_validator("smtp_tls")
    @classmethod
    def _tls(cls, value: str) -> str:
        if value not in ("none", "starttls", "tls"):
            raise ValueError("SMTP TLS must be none, starttls or tls")
        return value

    def notify_config(self) -> NotifyConfig:
        return NotifyConfig(
            outbox=OutboxConfig(public_url=self.public_url or f"http://{self.host}:{self.port}",
                                quiet=self.notify_quiet, reminders=self.notify_reminders,
                                budget_match=self.notify_budget_match,
                                budget_creator=self.notify_budget_creator,
                                confirm_ttl=self.notify_confirm_ttl),
            delivery=DeliveryConfig(lease=self.notify_lease,
                                    max_attempts=self.notify_max_attempts,
                                    backoff=self.notify_backoff,
                                    lanes=LaneConfig(
                                        senders=self.notify_senders,
                                        per_host=self.notify_per_host,
                                        per_target=self.notify_per_target,
                                        failures=self.notify_breaker_failures,
                                        cool_down=self.notify_breaker_cool_down)),
            smtp=SmtpConfig(host=self.smtp_host, port=self.smtp_port, tls=self.smtp_tls,
                            user=self.smtp_user, password=self.smtp_password,
                            sender=self.smtp_from),
            egress=EgressConfig(ports=parse_ports(self.egress_ports, self.notify_allow_private),
                                allow_private=self.notify_allow_private),
            vapid_subject=self.vapid_subject,
            poll=self.notify_poll)

    def store_env(self) -> dict[str, str]:
        return env_from_environment(self.db)
