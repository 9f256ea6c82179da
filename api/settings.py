"""Server settings, in one place: from the command line, else the environment, else the
defaults below (docs/configuration.md lists each one with its variable and flag)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from typing import Any

from limits import parse_many
from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, PositiveInt, field_validator

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

    @field_validator("create_rate", "import_rate")
    @classmethod
    def _rate(cls, value: str) -> str:
        value = value.strip()
        if value.lower() != "off":
            parse_many(value)  # ValueError names what it could not read
        return value

    def store_env(self) -> dict[str, str]:
        return env_from_environment(self.db)
