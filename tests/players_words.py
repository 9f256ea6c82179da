"""What a player must never read (issue 26, item 3), shared by the browser walk of the pages
and the walk of each demo's legal answers: an id of the match's own (a unit, card,
battlegroup or track), a dotted name, a version, the engine's "advance", a rule-engine
state; a field that asks for an id; an example that looks filled in."""

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


