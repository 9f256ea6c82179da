"""The replay file opened from disk in a phone-sized browser that refuses every request (an
`Offline` context polices asked-for URLs and console errors; conftest's `offline` fixture
makes them), the file written for the referee, and the few reads and acts its tests share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from phone import PHONE


class Offline:
    """A phone-sized context that refuses every request (nothing but the file loads) and
    records what was asked for and every console error."""

    def __init__(self, browser: Any) -> None:
        self.asked: list[str] = []
        self.errors: list[str] = []
        self.context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        self.context.route("**/*", self._refuse)

    def _refuse(self, route: Any) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
            return
        self.asked.append(route.request.url)
        route.abort()

    def open(self, path: Path, fragment: str = "") -> Any:
        page = self.context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(path.as_uri() + fragment)
        page.wait_for_selector("body[data-verified]")
        return page

    def close(self) -> None:
        self.context.close()
        assert self.asked == [], f"the replay asked the network for {self.asked}"
        assert self.errors == [], f"console errors: {self.errors}"


def written(server: str, match: dict[str, Any], folder: Path, name: str) -> Path:
    r = httpx.get(f"{server}/api/matches/{match['id']}/replay", timeout=60,
                  headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    assert r.status_code == 200, r.text
    path = folder / f"{name}.html"
    path.write_bytes(r.content)
    return path


def referee_get(server: str, match: dict[str, Any], path: str, **params: Any) -> Any:
    r = httpx.get(f"{server}/api/matches/{match['id']}{path}", params=params,
                  headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    assert r.status_code == 200, r.text
    return r.json()


def shown(page: Any) -> str:
    return str(page.locator("#replay-shown").inner_text())


def to_first(page: Any, last: int) -> None:
    """Back to the first event by a link's fragment (the page follows it as it changes)."""
    page.evaluate("location.hash = '#v=1'")
    page.wait_for_function("n => document.querySelector('#replay-shown').textContent"
                           ".startsWith(`Event 1 of ${n}`)", arg=last)


def referee_act(server: str, match: dict[str, Any], action: dict[str, Any]) -> int:
    r = httpx.post(f"{server}/api/matches/{match['id']}/actions", json=action,
                   headers={"Authorization": f"Bearer {match['seats']['referee']}"})
    assert r.status_code == 201, r.text
    return int(r.json()["version"])
