"""Server settings, in one place: from the command line, else the environment."""

from __future__ import annotations

from pydantic import BaseModel

from projections.store import env_from_environment


class Settings(BaseModel):
    db: str | None = None  # SQLite file; None: BATTLELOG_DB or ./battlelog.db
    host: str = "127.0.0.1"
    port: int = 8000

    def store_env(self) -> dict[str, str]:
        return env_from_environment(self.db)
