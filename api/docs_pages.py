"""The API documentation pages, /docs (Swagger UI) and /redoc (ReDoc), made to work with no
internet: their scripts and styles come from the fastapi-offline package and this server
serves them (under `ASSETS`), and a Content-Security-Policy keeps the pages to this server.
ReDoc's side menu shows its makers' logo from their CDN: the browser does not fetch it, and
the menu keeps the words "API docs by Redocly"."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse

ASSETS = "/static-offline-docs"  # where fastapi-offline mounts its copies
# FastAPI's pages start the UI with an inline script, and both UIs style inline.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self' 'unsafe-inline' data: blob:; object-src 'none'; "
        "base-uri 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def install(app: FastAPI) -> None:
    """Add /docs and /redoc to an app made by `FastAPIOffline(docs_url=None, redoc_url=None)`
    (which mounts the assets)."""

    def kept_here(page: HTMLResponse) -> HTMLResponse:
        page.headers.update(HEADERS)
        return page

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return kept_here(get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}", title=f"{app.title}: the HTTP API",
            swagger_js_url=f"{root}{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS}/favicon.png",
            swagger_ui_parameters=app.swagger_ui_parameters))

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return kept_here(get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}", title=f"{app.title}: the HTTP API",
            redoc_js_url=f"{root}{ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS}/favicon.png", with_google_fonts=False))
