"""The replay file (docs/replay.md): ONE self-contained HTML page that plays a match back
offline and checks its own log. It is built at request time from the table page's own
static modules (api/static/: replay.js and every module it imports, board.js and the rest,
with the stylesheets), inlined: nothing is copied into a second source, nothing is fetched
when the file is opened.

The modules go in as `<script type="text/plain" data-module="NAME">` blocks, dependencies
first; a small loader makes each a Blob URL with its `./name.js` imports pointed at the
URLs made before it, and imports replay.js (a page opened from disk may not load module
files, but may import what it made itself). The match's data is one JSON object in
`<script type="application/json" id="battlelog-replay">` with every `<` written `\\u003c`,
so nothing in it can end the block; `api.replay_read.export_of` reads the export's JSON
Lines back out of a file (its HTML parsed as HTML), for `battlelog import` and `verify`."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parent / "static"
ENTRY = "replay.js"
STYLES = ("app.css", "play.css", "log.css", "clock.css", "replay.css")
IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w-]+\.js)";', re.MULTILINE)
# The page reaches nothing outside itself: its scripts are inline or made by it (blob:), its
# styles inline, its only image the empty icon; no connection, no form, no frame.
CSP = ("default-src 'none'; script-src 'unsafe-inline' blob:; style-src 'unsafe-inline'; "
       "img-src data:; base-uri 'none'; form-action 'none'")
DATA_OPEN = '<script type="application/json" id="battlelog-replay">'
CLOSE = "</script>"

LOADER = """
const urls = {};
for (const block of document.querySelectorAll("script[data-module]")) {
  const code = block.textContent.replace(/from "\\.\\/([\\w-]+\\.js)";/g, (_, name) => `from "${urls[name]}";`);
  urls[block.dataset.module] = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
}
import(urls["replay.js"]);
"""


def modules(entry: str = ENTRY) -> list[tuple[str, str]]:
    """(name, source) of `entry` and every module it imports, each after what it imports."""
    order: list[tuple[str, str]] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        source = (STATIC / name).read_text(encoding="utf-8")
        for imported in IMPORT.findall(source):
            visit(imported)
        order.append((name, source))

    visit(entry)
    return order


def _inline(text: str, tag: str) -> str:
    """A script's or style's text that cannot end its block early (`</script` inside a
    string or regular expression is written `<\\/script`, which reads the same)."""
    return re.sub(rf"</({tag})", r"<\\/\1", text, flags=re.IGNORECASE)


def data_block(data: dict[str, Any]) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f"{DATA_OPEN}{text}{CLOSE}"


def viewer_size() -> int:
    """The bytes of the page without a match's data: the viewer's fixed size."""
    return len(page({}).encode("utf-8")) - len(data_block({}).encode("utf-8"))


def page(data: dict[str, Any]) -> str:
    """The replay file for the data of `projections.replay_file.replay_data`."""
    title = html.escape(f"{data.get('scenario', 'Match')}: replay", quote=False)
    styles = "\n".join(_inline((STATIC / name).read_text(encoding="utf-8"), "style")
                       for name in STYLES)
    scripts = "\n".join(f'<script type="text/plain" data-module="{name}">'
                        f"{_inline(source, 'script')}</script>" for name, source in modules())
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="generator" content="battlelog replay">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<title>{title}</title>
<link rel="icon" href="data:,">
<style>
{styles}
</style>
</head>
<body class="replay">
<div id="notice" class="notice" role="alert" aria-live="assertive" hidden></div>
<main id="main" tabindex="-1"><noscript>This replay needs JavaScript. Its match file (JSON Lines)
is inside it: `battlelog verify` and `battlelog import` read this file.</noscript></main>
{data_block(data)}
{scripts}
<script type="module">{LOADER}</script>
</body>
</html>
"""

