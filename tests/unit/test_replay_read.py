"""A replay file read back as HTML (api/replay_read.py, docs/integrity.md "Which log a
replay file holds"): the one data block outside comments, as a browser reads it; a file
with none, with two, with one hidden in a comment, or with anything on which a browser could
read another block than this parser does, is refused naming why."""

from __future__ import annotations

import pytest

from api.replay_page import DATA_OPEN, data_block, page
from api.replay_read import NotAReplay, export_of

GENUINE = "genuine export\n"
FORGED = "forged export\n"


def written() -> str:
    return page({"scenario": "S", "export": GENUINE})


def with_before_block(extra: str) -> str:
    """The page written with `extra` just before its data block."""
    text = written()
    return text.replace(DATA_OPEN, extra + DATA_OPEN, 1)


def forged() -> str:
    return data_block({"scenario": "S", "export": FORGED})


def test_the_written_file_gives_its_export() -> None:
    assert export_of(written()) == GENUINE


# each a way to make this parser and a browser's see different blocks, or two of them
HOSTILE = {
    "a decoy in a comment": (f"<!-- {forged()} -->", "comment holds markup"),
    "a second block": (forged(), "2 match data blocks"),
    "a comment a browser ends at once": (f"<!-->{forged()}<!-- -->", "comment holds markup"),
    "a comment ended by --!>": (f"<!-- x --!>{forged()}<!-- -->", "comment holds markup"),
    "a bogus comment": (f"<!x {forged()}>", "holds markup"),
    "a processing instruction": (f"<?x {forged()}?>", "holds markup"),
    "a script ended the browser's way": (
        f'<script type="text/plain"></script x>{forged()}', "holds '</script'"),
    "a script's escaped text": (f'<script type="text/plain"><!--<script></script>{forged()}',
                                "holds '<!--'"),
    "a self-closing script": ('<script type="text/plain"/>', "self-closing"),
    "an id written with a character reference": (
        forged().replace('id="battlelog-replay"', 'id="battlelog&#45;replay"'),
        "2 match data blocks"),
    "an id in other letters": ('<div id="Battlelog-Replay"></div>', "2 match data blocks"),
    "inline svg": (f"<svg><script>{forged()}</script></svg>", "inline <svg>"),
    "another character set": ('<meta charset="iso-2022-jp">', "character set"),
    "a stray less-than sign": ("< script", "not markup"),
    "markup in an attribute": (f'<div title="{forged()}"></div>', "attribute"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_file_a_browser_could_read_otherwise_is_refused(name: str) -> None:
    extra, why = HOSTILE[name]
    with pytest.raises(NotAReplay, match="refused") as refused:
        export_of(with_before_block(extra))
    assert why in str(refused.value), str(refused.value)


def test_a_block_that_is_no_json_script_or_none_at_all_is_refused() -> None:
    text = written()
    as_div = text.replace(DATA_OPEN, '<div id="battlelog-replay">').replace(
        "}</script>", "}</div>", 1)
    with pytest.raises(NotAReplay, match="its match data is a <div>"):
        export_of(as_div)
    with pytest.raises(NotAReplay, match="holds no match data"):
        export_of(text.replace(DATA_OPEN, '<script type="application/json">'))


def test_a_comment_without_markup_and_a_first_id_are_read_as_a_browser_reads_them() -> None:
    # a browser keeps an attribute's first value: this script's id is "other"
    extra = ('<!-- written by hand -->'
             + forged().replace('id="battlelog-replay"', 'id="other" id="battlelog-replay"'))
    assert export_of(with_before_block(extra)) == GENUINE
