"""The table page: one HTML shell and its static files, served by the service itself (no
build step, nothing from a CDN). `/` is the lobby, `/play/{match_id}` a match's table,
`/matches/{match_id}/report` its after-action report; seat tokens travel in the URL
fragment (`#seat=`, `#join=`), which browsers never send."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from projections import report

STATIC = Path(__file__).resolve().parents[1] / "static"
# The page's own scripts and styles only; answers may be read only by the page itself.
# The HTML report is shown in its page's place: its one style sheet is allowed by its hash.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        f"default-src 'self'; style-src 'self' '{report.STYLE_HASH}'; "
        "img-src 'self' data: blob:; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}

router = APIRouter(include_in_schema=False)


def _page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)


@router.api_route("/", methods=["GET", "HEAD"])
def lobby() -> FileResponse:
    """Matches on this device, new match, join with a link or token."""
    return _page()


@router.api_route("/play/{match_id}", methods=["GET", "HEAD"])
def table(match_id: UUID) -> FileResponse:
    """One match's table (the page reads the match with the token in its fragment)."""
    return _page()


@router.api_route("/matches/{match_id}/report", methods=["GET", "HEAD"])
def match_report(match_id: UUID) -> FileResponse:
    """A match's after-action report at an address of its own (docs/reports.md): the page
    reads it with this device's seat, as the table page reads the match."""
    return FileResponse(STATIC / "report.html", headers=PAGE_HEADERS)


class Static(StaticFiles):
    """The page's files, revalidated on every load (ETag) so an upgrade shows at once."""

    async def get_response(self, path: str, scope):  # type: ignore[no-untyped-def]
        response = await super().get_response(path, scope)
        response.headers.update(PAGE_HEADERS)
        return response


static_files = Static(directory=STATIC)
