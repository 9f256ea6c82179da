"""The service in-process on each store: `matches` (the application) and `client` (the
HTTP API over it). Test modules with their own needs define their own `client`. For the
notification tests, `mailbox` (an SMTP server) and `hooks` (a webhook receiver) on
loopback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from application_setup import INTERVAL
from fastapi.testclient import TestClient
from notify_receivers import Hooks, Mailbox
from rulesets_helpers import PLANTED_SEED

from api.app import create_app
from api.settings import Settings
from domain.app import Matches


@pytest.fixture
def matches(store_env: dict[str, str]) -> Iterator[Matches]:
    matches = Matches(env=store_env)
    yield matches
    matches.close()


@pytest.fixture
def client(matches: Matches) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(admin_token="admin-token"), matches=matches)) as client:
        yield client


@pytest.fixture
def planted(store_env: dict[str, str]) -> Iterator[tuple[TestClient, Matches]]:
    """A service whose dice seeds are all PLANTED_SEED (a test may look for it in a file, or
    roll the same dice in two matches)."""
    matches = Matches(env=store_env, seed_source=lambda: PLANTED_SEED)
    with TestClient(create_app(Settings(admin_token="admin"), matches=matches)) as client:
        yield client, matches
    matches.close()


# The Matches application itself (test_application, test_checkpoints), a checkpoint every
# INTERVAL versions; a module that defines its own `app` or `env` uses its own.
@pytest.fixture
def env(store_env: dict[str, str]) -> dict[str, str]:
    return {**store_env, "CHECKPOINT_INTERVAL": str(INTERVAL)}


@pytest.fixture
def app(env: dict[str, str]) -> Iterator[Matches]:
    matches = Matches(env=env)
    yield matches
    matches.close()


@pytest.fixture
def second(env: dict[str, str]) -> Iterator[Matches]:
    """Another process on the same store (its own caches)."""
    matches = Matches(env=env)
    yield matches
    matches.close()


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    yield box
    box.close()


@pytest.fixture
def hooks() -> Iterator[Hooks]:
    receiver = Hooks()
    yield receiver
    receiver.close()
