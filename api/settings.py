"""Server settings, in one place: from the command line, else the environment."""

from __future__ import annotations

import os
import secrets

from pydantic import BaseModel, Field

from projections.store import env_from_environment


class Settings(BaseModel):
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
    max_import_bytes: int = 64 * 1024 * 1024  # POST /api/matches/import: a whole match

    def store_env(self) -> dict[str, str]:
        return env_from_environment(self.db)
