"""Is the service up, and on which store."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from fastapi import APIRouter
from pydantic import BaseModel

from api.deps import MatchesDep

router = APIRouter(prefix="/api", tags=["health"])


class Health(BaseModel):
    status: str
    store: str
    version: str


def _version() -> str:
    try:
        return version("battlelog")
    except PackageNotFoundError:
        return "dev"


@router.get("/health")
def health(matches: MatchesDep) -> Health:
    module = matches.env.get("PERSISTENCE_MODULE", "")
    return Health(status="ok", store="postgres" if "postgres" in module else "sqlite",
                  version=_version())
