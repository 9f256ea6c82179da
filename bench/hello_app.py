"""The framework's own ceiling, for bench/http_load.py: a FastAPI app served by uvicorn as
`battlelog serve` serves battlelog (one process, one event loop), whose only route answers
a POST of a small JSON body with a small JSON body from a sync function, as battlelog's
action route does, minus battlelog: no auth, no store, no middleware of ours."""

from __future__ import annotations

import sys
from typing import Any

import uvicorn
from fastapi import FastAPI

app = FastAPI()


@app.post("/api/matches/{match_id}/actions", status_code=201)
def act(match_id: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"version": 1, "events": [body]}


@app.get("/api/health/ready")
def ready() -> dict[str, str]:
    return {"status": "ready"}


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
