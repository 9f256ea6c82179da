"""Ruleset files (docs/rulesets/authoring.md): the JSON Schema of the format, for editors to
complete and check a file with, and the check of a file, with every problem at its line and
column. Nothing is stored: a checked file is not yet a ruleset matches can be created with."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from api.problems import RATE_LIMITED, problem
from domain.rulefiles import schema
from projections.rulefile_load import MAX_BYTES, check_text

router = APIRouter(prefix="/api/rulesets", tags=["ruleset files"])

CHECK = "/api/rulesets/check"
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
    with every problem found (`errors`: the check, line, column and a sentence). The same
    report as `battlelog check-ruleset FILE`. Nothing is stored."""
    body = bytearray()
    async for chunk in request.stream():  # bounded by BodyLimit (MAX_CHECK_BODY, then 413)
        body += chunk
    report = await run_in_threadpool(check_text, bytes(body), "ruleset")
    if report.ok and report.ruleset is not None:
        file = report.ruleset
        return JSONResponse({"ok": True, "id": file.id, "title": file.title,
                             "version": file.version, "format_version": file.format_version,
                             "errors": []})
    first = report.findings[0]
    count = len(report.findings)
    return problem(422, "Ruleset file refused",
                   f"line {first.line}, column {first.column}: {first.message}"
                   + (f" (and {count - 1} more)" if count > 1 else ""),
                   code="ruleset-file", instance=CHECK, rule=first.check,
                   errors=[{"check": f.check, "line": f.line, "column": f.column,
                            "message": f.message} for f in report.findings])
