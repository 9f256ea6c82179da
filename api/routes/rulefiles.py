"""Ruleset files (docs/rulesets/authoring.md): the JSON Schema of the format, for editors to
complete and check a file with; the check of a file, with every problem at its line and
column (nothing stored); and the upload of a file (`POST /api/rulesets`), stored by its
content hash when it passes every check, so that matches can be created from it. Who may
upload is the deployment's `BATTLELOG_RULESET_UPLOAD` (docs/seats.md); an id belongs to
whoever stored it first (the operator, or the first uploader, given an owner token), who
alone adds versions under it and marks the one creation by id picks
(`PUT /api/rulesets/ids/{id}/current`)."""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor

from api.deps import header
from api.problems import RATE_LIMITED, Forbidden, RulesetFileNotFound, Unauthorized, problem
from api.scenarios.from_file import made_sample, shipped_demo
from domain.authority import OPERATOR
from domain.commands import CreateMatch
from domain.rulefiles import schema
from domain.rulefiles.identity import PATTERN
from projections.rulefile_load import MAX_BYTES, Finding, Report, check_text
from projections.ruleset_store import owner_of, store_of

router = APIRouter(prefix="/api/rulesets", tags=["ruleset files"])

CHECK = "/api/rulesets/check"
UPLOAD = "/api/rulesets"
MAX_CHECK_BODY = 4 * MAX_BYTES  # read this much to say "too large" in the report; past it, 413
_YAML = {"content": {"application/yaml": {"schema": {"type": "string"}},
                     "application/json": {"schema": {"type": "object"}}},
         "required": True}


@router.get("/schema")
def ruleset_schema() -> dict[str, Any]:
    """The JSON Schema of the ruleset file format (format_version 1), generated from the
    service's own models: point an editor's YAML or JSON support at it."""
    return schema()


@router.post("/check", openapi_extra={"requestBody": _YAML},
             responses={200: {"description": "The file passes every check"}, **RATE_LIMITED})
async def check_ruleset(request: Request) -> JSONResponse:
    """Check a ruleset file (YAML or JSON, the body as it is): 200 when it passes, else 422
    with every problem found (`errors`: the check, line, column and a sentence); either way
    its `warnings` (the same fields: what another YAML reader would read otherwise, never a
    refusal). The same report as `battlelog check-ruleset FILE`. Nothing is stored."""
    report = await run_in_threadpool(check_text, await _body(request), "ruleset")
    if report.ok and report.ruleset is not None:
        file = report.ruleset
        return JSONResponse({"ok": True, "id": file.id, "title": file.title,
                             "version": file.version, "format_version": file.format_version,
                             "errors": [], "warnings": _said(report.warnings)})
    return _refused(report, CHECK)


@router.post("", status_code=201, openapi_extra={"requestBody": _YAML},
             responses={201: {"description": "The file passed and is stored"},
                        **RATE_LIMITED})
async def upload_ruleset(request: Request) -> JSONResponse:
    """Store a ruleset file (YAML or JSON, the body as it is) when it passes every check of
    `POST /api/rulesets/check` and names no procedure this battlelog lacks: 201 with its
    `hash` (`sha256:...`, of its canonical JSON form), id, title and version; else 422 as
    the check answers, and nothing is stored. Storing the same file again stores nothing
    new. Who may: `BATTLELOG_RULESET_UPLOAD` (docs/seats.md). Under an id another stored
    first, 409 (`core-ruleset-ids`), nothing stored; the first upload of an id is given its
    `owner_token` (once), which later versions send as `Authorization: Bearer ...` (or
    the token that first upload sent)."""
    refusal = upload_refusal(request, "storing a ruleset file")
    if refusal is not None:
        raise refusal
    body = await _body(request)
    store = store_of(request.app.state.matches)
    added, report = await run_in_threadpool(store.add_text, body, "ruleset",
                                            by=_uploader(request))
    if added is None:
        return _refused(report, UPLOAD)
    stored = added.ruleset
    token = {"owner_token": added.owner_token} if added.owner_token else {}
    return JSONResponse({**stored.summary(), **token, "ok": True, "errors": [],
                         "warnings": _said(report.warnings)}, status_code=201,
                        headers={"Location": f"{UPLOAD}/{stored.hash}"})


class Current(BaseModel):
    """The file creation by an id picks: one of its versions by hash; null, its highest."""

    hash: Annotated[str, Field(pattern=PATTERN)] | None


@router.put("/ids/{ruleset_id}/current", status_code=204)
async def mark_current(ruleset_id: Annotated[str, Path(pattern=r"^[a-z][a-z0-9_-]{0,39}$")],
                       current: Current,
                       request: Request) -> None:
    """Mark the version of `ruleset_id` that creation by id (`"ruleset": "<id>"`) picks
    from now on, by its hash; `null`: its highest version again. The id's owner only (its
    owner token, or the admin token): 401 without a token, 409 with another's; 404 for an
    id no listed file has."""
    by = _uploader(request)
    if by is None:
        raise Unauthorized("marking a version needs the id's owner token or the admin token",
                           rule="core-ruleset-ids")
    await run_in_threadpool(store_of(request.app.state.matches).mark, ruleset_id,
                            current.hash, by)


class _ContentHash(Convertor[str]):
    """A path segment that is a content hash and nothing else: `GET /api/rulesets/check` is
    then no stored file's address but a method the check does not take (405, Allow: POST)."""

    regex = PATTERN.removeprefix("^").removesuffix("$")

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("content_hash", _ContentHash())


@router.get("/{content_hash:content_hash}")
async def stored_ruleset(content_hash: Annotated[str, Path(pattern=PATTERN)],
                         request: Request) -> dict[str, Any]:
    """A stored ruleset file by its content hash: its hash, id, title and version, and the
    file itself as data (`file`: its canonical JSON form, whose SHA-256 is the hash)."""
    found = await run_in_threadpool(store_of(request.app.state.matches).get, content_hash)
    if found is None:
        raise RulesetFileNotFound(f"no ruleset file {content_hash} is stored here",
                                  rule="core-rulesets")
    return {**found.summary(), "file": found.data}


@router.get("/{content_hash:content_hash}/sample")
async def stored_ruleset_sample(content_hash: Annotated[str, Path(pattern=PATTERN)],
                                request: Request) -> CreateMatch:
    """A sample set-up for a match under the stored ruleset file (the lobby's "Fill in its
    sample"): a body for `POST /api/matches`, pinned to the file by its `ruleset_hash`. A
    game shipped with battlelog gives its own demo; any other file, one made from what it
    declares (its fewest sides, one unit of each kind a side, each required attribute given:
    docs/scenarios.md)."""
    found = await run_in_threadpool(store_of(request.app.state.matches).get, content_hash)
    if found is None:
        raise RulesetFileNotFound(f"no ruleset file {content_hash} is stored here",
                                  rule="core-rulesets")
    shipped = getattr(request.app.state, "shipped", {}).get(found.id)
    demo = (shipped_demo(found.id, found.hash)
            if shipped is not None and shipped.hash == found.hash else None)
    return demo or made_sample(found.file(), found.hash)


def _given(request: Request) -> str:
    return (header(request, "authorization", max_length=512) or "").removeprefix(
        "Bearer ").strip()


def _is_admin(request: Request) -> bool:
    given, admin = _given(request), request.app.state.settings.admin_token
    return bool(given) and hmac.compare_digest(given.encode(), admin.encode())


def _uploader(request: Request) -> str | None:
    """Who stores: the operator (the admin token), an id's owner (any other bearer token,
    known by its hash), or None (no token)."""
    given = _given(request)
    return OPERATOR if _is_admin(request) else owner_of(given) if given else None


def upload_refusal(request: Request, doing: str) -> Forbidden | Unauthorized | None:
    """Why `BATTLELOG_RULESET_UPLOAD` refuses this request a new ruleset file (an upload,
    or an import carrying a file not stored here), or None when it may."""
    who = request.app.state.settings.ruleset_upload
    if who == "off":
        return Forbidden(f"{doing}: this server takes no ruleset files from outside "
                         "(BATTLELOG_RULESET_UPLOAD=off): its operator loads them",
                         rule="core-rulesets")
    if who == "admin" and not _is_admin(request):
        return Unauthorized(f"{doing}: this needs the server's admin token "
                            "(BATTLELOG_RULESET_UPLOAD=admin)", rule="core-rulesets")
    return None


async def _body(request: Request) -> bytes:
    body = bytearray()
    async for chunk in request.stream():  # bounded by BodyLimit (MAX_CHECK_BODY, then 413)
        body += chunk
    return bytes(body)


def _refused(report: Report, instance: str) -> JSONResponse:
    first = report.findings[0]
    count = len(report.findings)
    return problem(422, "Ruleset file refused",
                   f"line {first.line}, column {first.column}: {first.message}"
                   + (f" (and {count - 1} more)" if count > 1 else ""),
                   code="ruleset-file", instance=instance, rule=first.check,
                   errors=_said(report.findings), warnings=_said(report.warnings))


def _said(findings: tuple[Finding, ...]) -> list[dict[str, Any]]:
    return [{"check": f.check, "line": f.line, "column": f.column, "message": f.message}
            for f in findings]
