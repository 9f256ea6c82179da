"""What a player must never read (issue 26, item 3), shared by the browser walk of the pages
and the walk of each demo's legal answers: an id of the match's own (a unit, card,
battlegroup or track), a dotted name, a version, the engine's "advance", a rule-engine
state; a field that asks for an id; an example that looks filled in.

And (issue 39) the scan of every screen a browser test saves (`scan_screen`, called by the
`screenshots` fixture of tests/e2e/conftest.py): no unit, card, battlegroup or side id where
a name exists and no named hex without its name (the match's ids and names read from the
API), no event type name, no `vN`, no Python exception text."""

from __future__ import annotations

import re
from typing import Any

DOTTED = re.compile(r"(?<![/\w])(?!e\.g\.)[a-z_]+\.[a-z_]+\b")  # (not a docs/ page)
# (case matters: the engine's verb is "advance"; a card may be called "Advance")
ENGINE = re.compile(r"\b[Vv]ersions?\b|\bv\d+\b|\badvance\b|cannot be left|\bowed\b|"
                    r"\bleave when\b|\b[a-z]+_[a-z_]+\b|\(ours|, ours\)|\(core-[a-z]+\)|"
                    r"\bawaiting\b")
ASKS_AN_ID = re.compile(r"\bids?\b", re.IGNORECASE)


def legal_words(legal: dict[str, Any]) -> list[str]:
    """What a seat's forms are drawn from: titles, choices, fields, their values and hints."""
    out: list[str] = []
    for action in legal["actions"]:
        out.append(f"action: {action['title']}")
        for choice in action["choices"]:
            out.append(f"choice: {choice.get('label') or ''}")
            # (an `id` input is the service's to fill: the page never shows it, inputs.js;
            # the browser walk of the Deploy form checks that on the page)
            for field in (i for i in choice.get("inputs") or () if i["kind"] != "id"):
                out.append(f"label: {field['label']}")
                if field["kind"] == "text" and isinstance(field.get("example"), str):
                    out.append(f"placeholder: e.g. {field['example']}")  # (as inputs.js)
                out.extend(f"option: {v.get('label')}" for v in field.get("values") or ())
    advance = legal["advance"]
    out += [f"button: {advance['title']}", f"hint: {advance.get('reason') or ''}"]
    out += [f"button: {skip['label']}" for skip in advance.get("skips") or ()]
    return out


def wrong(texts: list[str], ids: set[str]) -> list[str]:
    bad = []
    for text in dict.fromkeys(texts):
        # "<where …> <what>: <words>" (where: the lobby, a game system, the join page)
        head, words = text.split(": ", 1) if ": " in text else ("", text)
        what = head.split(" ")[-1]
        if any(found in ids for found in re.findall(r"[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)+", words)):
            bad.append(f"an id: {text}")
        elif DOTTED.search(words):
            bad.append(f"a dotted name: {text}")
        elif ENGINE.search(words):
            bad.append(f"the engine's words: {text}")
        elif what == "label" and ASKS_AN_ID.search(words):
            bad.append(f"asks for an id: {text}")
        elif what == "placeholder" and not words.startswith("e.g. ") and \
                not words.startswith(("tap the map", "a hex, e.g.", "words,", "http")):
            bad.append(f"an example that looks filled in: {text}")
    return bad




# ---- every screen: the scan a browser test runs on each screen it saves --------------------

# The words a player reads on a screen: each visible block's text (outside the map's SVG,
# whose hex numbers and labels are the map's own, and outside the log's "event as recorded",
# the stored event's own fields shown on purpose for whoever checks it), and the accessible
# names, placeholders and titles of what is visible.
SCREEN = """() => {
  const out = [];
  const blocks = new Map();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('svg, script, style, template, pre.recorded') || !seen(el)) continue;
    let block = el;
    while (block !== document.body && getComputedStyle(block).display.startsWith('inline'))
      block = block.parentElement;
    blocks.set(block, (blocks.get(block) || '') + n.data);
  }
  for (const t of blocks.values()) out.push(t);
  for (const el of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
    if (el.closest('svg') || !seen(el)) continue;
    for (const a of ['aria-label', 'placeholder', 'title']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out.map((t) => t.replace(/\\s+/g, ' ').trim()).filter(Boolean); }"""

VERSIONED = re.compile(r"\b[a-z][a-z0-9-]* v\d+\b|\bv\d+\b")
# Python's exception text: a class name ending in Error or Exception, a traceback, an
# errno or an OpenSSL reason in brackets
EXCEPTION = re.compile(r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|Traceback|\[SSL[:\]]|"
                       r"\[Errno|\bErrno\b")


def event_types() -> set[str]:
    from domain.events import EVENT_TYPES
    return set(EVENT_TYPES)


def match_ids(board: dict[str, Any], sides: list[dict[str, Any]]) -> dict[str, str]:
    """What names a player reads where the match has an id: {id: its name} for its units,
    battlegroups, cards and sides whose name differs from the id, and {hex: "hex (name)"} for
    the hexes its map names. Read from the API (the board and the match's sides)."""
    units = board["units"] + board["off_board"]
    named = {u["id"]: u["name"] for u in units if u.get("name") and u["name"] != u["id"]}
    named |= {str(u["extra"]["battlegroup"]): "a battlegroup" for u in units
              if "battlegroup" in (u.get("extra") or {})}
    for cards in board["cards"]:
        named |= {card: title for card, title in (cards.get("titles") or {}).items()
                  if title != card}
    named |= {s["id"]: s["name"] for s in sides if s["name"] != s["id"]}
    for city in (board.get("map") or {}).get("cities") or ():
        if city.get("name"):
            named[city["hex"]] = f"{city['hex']} ({city['name']})"
    return named


def screen_wrong(texts: list[str], named: dict[str, str], events: set[str],
                 typed: tuple[str, ...] = ()) -> list[str]:
    """What a screen must never say: an id of the match where it has a name (a side's id
    counts where it is not a plain word of the sentence: "north" for North; a hex its map
    names said without that name), an event type's name, a `vN`, Python's exception text.
    `typed`: what players typed (their names), which are their own words."""
    bad = []
    hexes = {k: v for k, v in named.items() if re.fullmatch(r"\d{3,4}", k)}
    ids = {k: v for k, v in named.items() if k not in hexes}
    # (an id inside an address or a longer name stays: "red@example.org", "red-team")
    pattern = re.compile(r"(?<![\w/.:@-])(" + "|".join(
        re.escape(i) for i in sorted(ids, key=len, reverse=True)) + r")(?![\w/@-]|\.\w)"
    ) if ids else None
    for text in dict.fromkeys(texts):
        for words in typed:
            text = text.replace(words, "…")
        said = [m[1] for m in pattern.finditer(text)] if pattern else []
        # a side's id that is also a word ("red", "north"): only when it is not the start of
        # its name said in the same case ("North" is the name, "north" the id)
        said = [i for i in said if not named[i].startswith(i) or named[i] == i]
        if said:
            bad.append(f"an id ({', '.join(said)}): {text}")
        if hexes and (shown := [h for h in hexes if re.search(
                rf"(?<![\w.]){h}(?![\w.])(?! \()", text)]):
            bad.append(f"a hex without its name ({', '.join(shown)}): {text}")
        if any(re.search(rf"\b{t}\b", text) for t in events):
            bad.append(f"an event type's name: {text}")
        if VERSIONED.search(text):
            bad.append(f"a version: {text}")
        if EXCEPTION.search(text):
            bad.append(f"Python's exception text: {text}")
    return bad


def scan_screen(page: Any) -> list[str]:
    """The scan of one screen of the table page (`/play/<match>`): its words against the
    match's ids and names, read from the API with a seat's token the page holds. Other pages
    (the lobby) have no match: only the event names, versions and exceptions. The API's own
    reference (/docs, /redoc) is for client authors, in the API's words: not scanned."""
    import httpx

    if re.search(r"/(docs|redoc)(?:[/?#]|$)", page.url):
        return []
    texts: list[str] = page.evaluate(SCREEN)
    found = re.search(r"/play/([^/#?]+)", page.url)
    named: dict[str, str] = {}
    typed: tuple[str, ...] = ()
    if found:
        match = found[1]
        held = page.evaluate("(m) => (JSON.parse(localStorage.getItem('battlelog.matches')"
                             " || '{}')[m] || {}).tokens || {}", match)
        token = held.get("referee") or next(iter(held.values()), None)
        if token:
            base = page.url.split("/play/")[0]
            auth = {"Authorization": f"Bearer {token}"}
            board = httpx.get(f"{base}/api/matches/{match}/board", headers=auth,
                              timeout=30).json()
            about = httpx.get(f"{base}/api/matches/{match}", headers=auth, timeout=30).json()
            named = match_ids(board, about["sides"])
            typed = tuple(s["player"] for s in about["seats"] if s.get("player"))
    return screen_wrong(texts, named, event_types(), typed)
