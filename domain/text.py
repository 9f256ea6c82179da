"""Words from outside as the service keeps them: the one cleaning of what players type
(notes, annotations: `domain.commands.annotations`) and of the words a ruleset file gives
(titles, what a step expects, descriptions: `domain.rulefiles.parts`). Bidi overrides and
isolates, zero-width and every other invisible format or control character are taken out,
so that no text can show something else than what it holds."""

from __future__ import annotations

import unicodedata

_KEPT = {"\n"}  # the one control character a text keeps (a line break)
_DROPPED = ("Cc", "Cf", "Cs", "Co", "Cn")  # control, format (bidi, zero-width), the rest
_BREAKS = ("\r\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c")  # said as line breaks


def cleaned(text: str) -> str:
    """A text as notes keep it: Unicode NFC, every control or invisible format character
    but a line break taken out (tabs become spaces; a carriage return, a line or
    paragraph separator a line break), no more than two line breaks in a row, no blank
    ends."""
    text = unicodedata.normalize("NFC", text).replace("\t", " ")
    for brk in _BREAKS:
        text = text.replace(brk, "\n")
    text = "".join(c for c in text if c in _KEPT or unicodedata.category(c) not in _DROPPED)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip()


def one_line(text: str) -> str:
    """A text said on one line (a title): cleaned as notes are, each line break a space,
    runs of spaces one."""
    return " ".join(cleaned(text).split())
