"""Reading a replay file back (docs/replay.md, docs/integrity.md "Which log a replay file
holds"): its HTML parsed as HTML, for `battlelog verify`, `battlelog import` and
`POST /api/matches/import`, so that they read the one data block a browser reads.

The file must hold exactly one element whose id is `battlelog-replay`, outside comments:
a `<script type="application/json">`, whose text is the match's data. Anything on which
this parser (Python's `html.parser`) and a browser's could disagree about where an element
starts is refused rather than guessed (a file battlelog writes holds none of it):

- a comment, declaration or processing instruction holding markup (`<`) or the block's id:
  a block hidden in a comment, or a comment a browser ends sooner (`<!-->`, `--!>`);
- a `<` in text that is not markup, or inside an attribute's value;
- a script or style whose text holds `<!--`, `</script` or `</style` (a browser may end
  it elsewhere), one written self-closing (`<script/>`: a browser reads on), or a file
  that ends inside one;
- inline SVG or MathML (their elements are parsed otherwise);
- a character set other than UTF-8.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

BLOCK_ID = "battlelog-replay"
RAW = ("script", "style")
FOREIGN = ("svg", "math")


class NotAReplay(ValueError):
    """The file is not a replay file battlelog can read (the message says why)."""


class _Reader(HTMLParser):
    """Collects the data blocks (elements with the block's id) and what makes the file
    ambiguous (`problems`, in the file's order)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)  # text as written: a `&lt;` is not a `<`
        self.blocks: list[tuple[str, str | None, list[str]]] = []  # (tag, type, its text)
        self.problems: list[str] = []
        self._in_block: list[str] | None = None

    def _refuse(self, why: str) -> None:
        line, column = self.getpos()
        self.problems.append(f"line {line}, column {column + 1}: {why}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        first: dict[str, str | None] = {}
        for name, value in attrs:
            first.setdefault(name, value)  # a browser keeps an attribute's first value
            if value is not None and "<" in value:
                self._refuse(f"an attribute of <{tag}> holds a '<'")
        if tag in FOREIGN:
            self._refuse(f"inline <{tag}> (a replay file holds none)")
        if tag == "meta":
            self._charset(first)
        ident = first.get("id")
        if ident is not None and ident.strip().lower() == BLOCK_ID:
            text: list[str] = []
            self.blocks.append((tag, first.get("type"), text))
            if tag == "script":
                self._in_block = text

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in RAW:
            self._refuse(f"a self-closing <{tag}/> (a browser reads on past it)")
        self.handle_starttag(tag, attrs)
        self._in_block = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_block = None

    def handle_data(self, data: str) -> None:
        if self.cdata_elem is not None:  # set while in one
            lowered = data.lower()
            for sign in ("<!--", "</script", "</style"):
                if sign in lowered:
                    self._refuse(f"a <{self.cdata_elem}> holds '{sign}'")
            if self._in_block is not None:
                self._in_block.append(data)
        elif "<" in data:
            self._refuse("a '<' that is not markup")

    def _hides(self, kind: str, data: str) -> None:
        if "<" in data or BLOCK_ID in data.lower():
            self._refuse(f"{kind} holds markup (a replay file's comments hold none)")

    def handle_comment(self, data: str) -> None:
        self._hides("an HTML comment", data)

    def handle_decl(self, decl: str) -> None:
        self._hides("a declaration", decl)

    def unknown_decl(self, data: str) -> None:
        self._hides("a declaration", data)

    def handle_pi(self, data: str) -> None:
        self._hides("a processing instruction", data)

    def _charset(self, attrs: dict[str, str | None]) -> None:
        declared = attrs.get("charset")
        if declared is None and (attrs.get("http-equiv") or "").lower() == "content-type":
            content = (attrs.get("content") or "").lower()
            declared = content.split("charset=", 1)[1] if "charset=" in content else None
        if declared is not None and declared.strip().strip("\"'").lower() not in (
                "utf-8", "utf8"):
            self._refuse(f"the character set {declared!r} (a replay file is UTF-8)")


def is_replay(head: bytes) -> bool:
    """Whether a file's first bytes are those of an HTML page (a replay file) rather than
    JSON Lines."""
    return head.lstrip()[:15].lower().startswith(b"<!doctype html")


def data_text(text: str) -> str:
    """The text of the file's one data block; NotAReplay when the file holds none, more than
    one, or anything on which a browser could read another (above)."""
    reader = _Reader()
    reader.feed(text)
    reader.close()
    if reader.cdata_elem is not None:
        reader._refuse(f"the file ends inside a <{reader.cdata_elem}>")
    if reader.problems:
        raise NotAReplay("this replay file is refused: a browser could read another match "
                         f"in it than this check does ({reader.problems[0]})")
    if not reader.blocks:
        raise NotAReplay("this HTML file is not a battlelog replay (it holds no match data)")
    if len(reader.blocks) > 1:
        raise NotAReplay(f"this replay file is refused: it holds {len(reader.blocks)} match "
                         f"data blocks (id {BLOCK_ID!r}), where a replay file holds one")
    [(tag, kind, parts)] = reader.blocks
    if tag != "script" or (kind or "").strip().lower() != "application/json":
        raise NotAReplay(f"this replay file is refused: its match data is a <{tag}>, not a "
                         '<script type="application/json">')
    return "".join(parts)


def export_of(text: str) -> str:
    """The export's JSON Lines a replay file carries; NotAReplay (a ValueError) when it
    holds none or is refused."""
    try:
        data = json.loads(data_text(text))
    except json.JSONDecodeError as error:
        raise NotAReplay(f"the replay's match data is not JSON: {error}") from None
    if isinstance(data, dict) and isinstance(data.get("export"), str):
        return str(data["export"])
    raise NotAReplay("the replay holds no match file")
