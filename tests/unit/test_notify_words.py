"""The words of a notice that came from players, made plain (projections.notify_words):
no control, format or separator character survives, nothing a player wrote reads as a
link, lengths are capped, and cleaning twice changes nothing."""

from __future__ import annotations

import pytest

from projections.notify_words import NAME, plain


@pytest.mark.parametrize(("written", "shown"), [
    ("Your move in FREE PRIZES: visit http://phish.example/claim",
     "Your move in FREE PRIZES: visit hxxp://phish[.]example/claim"),
    ("see HTTPS://Phish.Example and ftp://files.example.org",
     "see HxxPS://Phish[.]Example and fxp://files[.]example[.]org"),
    ("bare www.phish.example or phish.co.uk/x", "bare www[.]phish[.]example or phish[.]co[.]uk/x"),
    ("mail bob@phish.example", "mail bob@phish[.]example"),
    ("at 10.0.0.1:6379", "at 10[.]0[.]0[.]1:6379"),
    ("phish\uff0eexample", "phish[.]example"),  # a full-width dot is a dot
    ("Free\r\nBcc: victim@x.example", "Free Bcc: victim@x[.]example"),
    ("a\x00b\x1bc\x7fd\x85e\x9bf", "a b c d e f"),  # C0, DEL and C1 controls
    ("abc\u202edcba\u2066x\u2069\u200by", "abc dcba x y"),  # bidi overrides, zero width
    ("one\u2028two\u2029three", "one two three"),
    ("Free Militia", "Free Militia"),  # ordinary words stay as written
    ("Turn 1, Activation. 3.5 hexes, e.g. here", "Turn 1, Activation. 3.5 hexes, e.g. here"),
])
def test_a_name_arrives_as_inert_plain_text(written: str, shown: str) -> None:
    assert plain(written) == shown
    assert plain(shown) == shown  # cleaning twice changes nothing


def test_lengths_are_capped_with_an_ellipsis() -> None:
    long = plain("x" * 500)
    assert len(long) == NAME and long.endswith("…")
    assert plain("y" * 500, 300) == "y" * 299 + "…"
    assert plain("short", 300) == "short"
