"""The service in-process on each store: `matches` (the application) and `client` (the
HTTP API over it). Test modules with their own needs define their own `client`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain.application import Matches


@pytest.fixture
def matches(store_env: dict[str, str]) -> Iterator[Matches]:
    matches = Matches(env=store_env)
    yield matches
    matches.close()


@pytest.fixture
def client(matches: Matches) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(admin_token="admin-token"), matches=matches)) as client:
        yield client
