"""The table page's own steps, shared by its browser tests: policed browser contexts (the
page may reach its own server only, and no script error is allowed), the unit cards, the
version the page shows and waiting for it, the notice of an action, joining by a link,
starting a sample from the lobby, and the accessibility checks (labels, contrast)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

Shot = Callable[[Any, str], Path]
PHONE = {"width": 390, "height": 844}


def panel_shot(shot: Shot, page: Any, name: str, panel: str = "#seats") -> None:
    """The whole page, and the panel alone (readable at the phone's size)."""
    path = shot(page, name)
    page.locator(panel).screenshot(path=str(path.with_name(f"{name}-panel.png")))


def policed_contexts(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    """New browser contexts (separate devices) whose every request is checked: the page may
    talk to its own server only (no CDN, nothing else), and no script error is allowed."""
    opened: list[Any] = []
    elsewhere: list[str] = []
    errors: list[str] = []
    origin = urlsplit(server).netloc

    def open_context(**options: Any) -> Any:
        context = browser.new_context(accept_downloads=True, **options)

        def police(route: Any) -> None:
            url = route.request.url
            if urlsplit(url).netloc == origin or url.startswith(("data:", "blob:")):
                route.continue_()
            else:
                elsewhere.append(url)
                route.abort()

        context.route("**/*", police)
        context.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
        opened.append(context)
        return context

    yield open_context
    for context in opened:
        context.close()
    assert elsewhere == [], f"the page reached beyond its server: {elsewhere}"
    assert errors == [], f"script errors in the page: {errors}"


def unit_card(page: Any, unit_id: str) -> Any:
    return page.locator(f'li.unit-card[data-unit="{unit_id}"]')


def version_of(page: Any) -> int:
    version = page.locator("#where").get_attribute("data-version")  # (not in the words)
    assert version, page.locator("#where").inner_text()
    return int(version)


def wait_version(page: Any, version: int) -> None:
    """Wait until the page shows `version` (it updates itself: no reload anywhere)."""
    page.wait_for_function(
        "v => document.querySelector('#where')?.dataset.version === String(v)",
        arg=version, timeout=10_000)


def acted(page: Any) -> None:
    """Wait for the success notice of the last action (and fail on an error notice)."""
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert "ok" in (notice.get_attribute("class") or ""), notice.inner_text()
    page.evaluate("document.querySelector('#notice').hidden = true")


def place_markers(page: Any, unit_id: str, kind: str, count: int) -> None:
    """Place a marker from the unit's card: the kinds the service lists, and a count."""
    card = unit_card(page, unit_id)
    card.get_by_role("button", name="Place a marker", exact=True).click()
    card.locator("summary", has_text="With more detail").click()
    card.locator("label.pick", has_text=kind).click()
    set_stepper(card, "How many", count)
    card.locator(".input-form button[type=submit]").click()
    acted(page)


def set_stepper(where: Any, label: str, value: int) -> None:
    """Tap a number's stepper (issue 39: numbers are tapped, never typed) to `value`."""
    shown = where.locator("fieldset.stepper", has=where.page.locator("legend", has_text=label))
    for _ in range(50):
        now = shown.locator("output").inner_text().strip()
        if now == str(value):
            return
        more = now in ("—", "") or int(now) < value
        shown.get_by_role("button", name=f"{label}: {'one more' if more else 'one less'}").click()
    raise AssertionError(f"the stepper {label} did not reach {value}")


def join_link(page: Any, side: str) -> str:
    """The join link the Seats panel shows for `side` (by its name)."""
    return str(page.get_by_role("link", name=f"Join link for {side}").get_attribute("href"))


def join(context: Any, link: str, player: str, shot: Shot, name: str) -> Any:
    page = context.new_page()
    page.goto(link)
    page.get_by_label("Your name").fill(player)
    shot(page, f"{name}-join")
    page.get_by_role("button", name="Take my seat").click()
    page.wait_for_selector("#turn-marker")
    assert urlsplit(page.url).fragment == "", "the token must leave the address bar"
    return page


def start_sample(page: Any, server: str, sample: str = "atomic-africa-demo") -> None:
    """From the lobby, start a sample scenario: this page is then its referee's table."""
    page.goto(server)
    page.get_by_label("Sample scenario", exact=True).select_option(sample)
    page.get_by_role("button", name="Start this match").first.click()
    page.wait_for_selector("#turn-marker")


def unlabelled_controls(page: Any) -> list[str]:
    """Form controls a screen reader could not name."""
    return list(page.evaluate("""() => [...document.querySelectorAll('input, select, textarea, button')]
        .filter(el => !el.hidden && el.type !== 'hidden')
        .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                      && !(el.tagName === 'BUTTON' && el.textContent.trim()))
        .map(el => el.outerHTML.slice(0, 120))"""))


def low_contrast(page: Any) -> list[str]:
    """Text below WCAG AA contrast against the background it sits on (4.5:1, large 3:1)."""
    return list(page.evaluate("""() => {
      const rgba = (s) => { const m = s.match(/rgba?\\(([^)]+)\\)/);
        const p = m ? m[1].split(',').map(Number) : [0, 0, 0, 0];
        return { c: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 }; };
      const lum = (c) => { const f = (v) => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
      const behind = (el) => { for (let e = el; e; e = e.parentElement) {
        const b = rgba(getComputedStyle(e).backgroundColor); if (b.a > 0.5) return b.c; }
        return [255, 255, 255]; };
      const bad = [];
      for (const el of document.querySelectorAll('body *')) {
        if (el.closest('svg') || !el.checkVisibility()) continue;
        if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const st = getComputedStyle(el);
        const [a, b] = [lum(rgba(st.color).c), lum(behind(el))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        const size = parseFloat(st.fontSize);
        const large = size >= 24 || (Number(st.fontWeight) >= 700 && size >= 18.66);
        if (ratio < (large ? 3 : 4.5)) bad.push(`${el.tagName} ${ratio.toFixed(2)}: ${el.textContent.trim().slice(0, 40)}`);
      }
      return bad;
    }"""))


def small_targets(page: Any, selector: str) -> list[str]:
    """Visible controls under `selector` smaller than 44 by 44 CSS pixels."""
    return list(page.evaluate("""s => [...document.querySelectorAll(s)]
        .filter(el => el.checkVisibility())
        .map(el => [el, el.getBoundingClientRect()])
        .filter(([el, r]) => r.height < 44 || r.width < 44)
        .map(([el, r]) => `${el.tagName} ${el.textContent.trim().slice(0, 30)}: ${r.width}x${r.height}`)""",
                              selector))


def fits_the_phone(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"])
