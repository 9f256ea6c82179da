"""The FastAPI application: one `Matches` application and one catalogue per process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from fastapi_offline import FastAPIOffline

from api import docs_pages, hot_action, hot_board, problems
from api.deps import WORKERS, known_query_only
from api.limits import in_front
from api.quotas import Quota, Quotas
from api.replay_files import ReplayFiles
from api.routes import (
    actions,
    disputes,
    events,
    health,
    integrity,
    invitation,
    live,
    rulefiles,
    views,
    web,
)
from api.routes import annotations as annotation_routes
from api.routes import clock as clock_routes
from api.routes import legal as legal_routes
from api.routes import matches as match_routes
from api.routes import notifications as notification_routes
from api.routes import rulesets as ruleset_routes
from api.routes import scenarios as scenario_routes
from api.settings import Settings
from domain.app import Matches
from projections.catalogue import open_catalogue
from projections.clock_watch import FlagWatcher, active_matches
from projections.feed import MatchFeed
from projections.legal_answers import LegalAnswers
from projections.notify import NotifyService
from projections.ruleset_store import store_of

DESCRIPTION = """An event-sourced game-state service for tabletop wargames.

Every action appends immutable events to the match's log; the board, VP tracks and turn
marker are derived from it, at any point in time (`at`, `turn`+`step`, `time`). Errors are
RFC 9457 problem details naming the rule that refused the action."""
IMPORT = "/api/matches/import"


def create_app(settings: Settings | None = None, *, matches: Matches | None = None) -> FastAPI:
    settings = (settings or Settings()).with_admin_token()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = matches is None
        app.state.matches = matches or Matches(env=settings.store_env())
        # the ruleset files (docs/rulesets/authoring.md): the games shipped with battlelog
        # (their demos are among the samples: api/routes/scenarios.py), then the configured
        # folder's, stored first
        rulesets = store_of(app.state.matches)
        rulesets.keep_unused = settings.ruleset_keep_unused * 24 * 3600
        app.state.shipped = {s.id: s for s in rulesets.load_shipped()}
        if settings.rulesets_dir:
            rulesets.load_folder(settings.rulesets_dir)
        rulesets.sweep()  # the uploads no match used within BATTLELOG_RULESET_KEEP_UNUSED
        app.state.catalogue = open_catalogue(app.state.matches)
        app.state.catalogue.start()
        app.state.feed = MatchFeed(app.state.matches)
        app.state.feed.start()
        app.state.notify = NotifyService(app.state.matches, settings.notify_config())
        # "your turn" notices (docs/notifications.md), on PostgreSQL fed by the catalogue's
        # read of the log
        app.state.notify.start(app.state.catalogue.projector)
        app.state.flags = FlagWatcher(app.state.matches, active_matches(app.state.catalogue.view))
        app.state.flags.start()  # flag falls recorded as they happen (docs/clock.md)
        app.state.ready = True
        try:
            yield
        finally:
            app.state.ready = False  # readiness fails while shutting down
            app.state.catalogue.stop()
            app.state.feed.stop()
            app.state.notify.stop()
            app.state.flags.stop()
            WORKERS.stop()  # the hot routes' threads, once their jobs are done
            rulesets.close()
            if owned:
                app.state.matches.close()

    # The API documentation works with no internet: fastapi-offline serves the scripts and
    # styles of /docs and /redoc, which api/docs_pages.py makes (no CDN).
    app = FastAPIOffline(title="battlelog", description=DESCRIPTION, version="0.1.0",
                         responses=problems.PROBLEMS, dependencies=[Depends(known_query_only)],
                         lifespan=lifespan, docs_url=None, redoc_url=None,
                         static_url=docs_pages.ASSETS)
    docs_pages.install(app)
    app.state.settings = settings
    app.state.ready = False
    # Whether the server is shutting down (`battlelog serve` points it at uvicorn): live
    # streams end then, so that a graceful shutdown does not wait for open pages.
    app.state.stopping = lambda: False
    app.state.importing = asyncio.Semaphore(settings.imports_at_once)
    app.state.legal_answers = LegalAnswers()  # the legal actions, cached (api/routes/legal.py)
    # the replay files, cached, bounded and counted (api/routes/disputes.py)
    app.state.replay_files = ReplayFiles(work=settings.replay_max_work,
                                         per_match=settings.replay_build_rate)
    app.state.replay_quota = Quota(settings.replay_rate, "replay files from one address")
    # a seat's annotation changes in a match (api/routes/annotations.py)
    app.state.annotation_rate = Quota(settings.annotation_rate,
                                      "annotation changes by one seat of a match",
                                      "core-annotations")
    # One layer, in front of the framework's own, for what is checked before any route:
    # quotas refuse before any body is read (429); then the body's size and nesting (413,
    # 422), all of it within the body deadline (408) (api/limits.py). A ruleset file's
    # check takes work: it counts as a creation does, and its body is read as it arrives,
    # up to its own limit.
    in_front(app, quotas=Quotas({("POST", "/api/matches"): settings.create_rate,
                                 ("POST", IMPORT): settings.import_rate,
                                 ("POST", rulefiles.CHECK): settings.create_rate,
                                 ("POST", rulefiles.UPLOAD): settings.create_rate}),
             max_bytes=settings.max_body_bytes, seconds=settings.body_timeout,
             streamed={IMPORT: settings.max_import_bytes,
                       rulefiles.CHECK: rulefiles.MAX_CHECK_BODY,
                       rulefiles.UPLOAD: rulefiles.MAX_CHECK_BODY},
             lanes=(hot_action.serve, hot_board.serve))
    problems.install(app)
    for module in (match_routes, actions, views, legal_routes, events, integrity, disputes,
                   annotation_routes, live, invitation, scenario_routes, ruleset_routes, rulefiles,
                   notification_routes, clock_routes, health, web):
        app.include_router(module.router)
    app.mount("/static", web.static_files, name="static")
    return app

