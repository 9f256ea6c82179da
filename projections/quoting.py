"""Quoting what players typed (names, purposes, notes, disputes, rulings) for the files the
exports write (docs/reports.md): a CSV cell no spreadsheet runs as a formula, and Markdown
no renderer turns into markup, a script or a link. HTML is quoted with `html.escape`."""

from __future__ import annotations

# OWASP, CSV injection: a spreadsheet reads a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: str | int) -> str | int:
    """A CSV cell: a number as it is (a modifier of -3 stays the number -3); text that starts
    like a formula behind a single quote, which spreadsheets read as "this is text"."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"  # every break `str.splitlines` knows
_MARKDOWN = str.maketrans({
    # HTML's special characters, as character references: never a tag or an entity, in
    # every Markdown dialect (a backslash does not escape `<` in all of them).
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
    # What makes a bare address a link (`scheme:`, `user@host`; `www.` below).
    ":": "&#58;", "@": "&#64;",
    # Markdown's own punctuation: emphasis, code, links and images, headings, lists,
    # tables, strikethrough, and the backslash itself.
    **{c: "\\" + c for c in "\\`*_{}[]()#+-.!|~"},
    # One line: a break would let the text start a block of its own (a heading, raw HTML).
    **{c: " " for c in _LINE_BREAKS},
})


def markdown_text(text: str) -> str:
    """`text` as Markdown that renders as exactly this text, on one line."""
    return text.translate(_MARKDOWN)


def one_line(text: str) -> str:
    """`text` with its line breaks as spaces (for a label inside a chart)."""
    return text.translate({ord(c): " " for c in _LINE_BREAKS})
