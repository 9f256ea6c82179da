"""Two functions of ours over lists, for the words a file builds (CEL has neither):
`join(list, separator)`, the texts of `list` one after the other with `separator` between
them; `distinct(list)`, the list with each value once, in the order first met. Pure and
bounded: lists the view built in, a text or a list out."""

from __future__ import annotations


def join(texts: object, separator: object) -> str:
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise TypeError("join() takes a list of texts")
    if not isinstance(separator, str):
        raise TypeError("join() takes a text to put between them")
    return separator.join(texts)


def distinct(values: object) -> list[object]:
    if not isinstance(values, list):
        raise TypeError("distinct() takes a list")
    out: list[object] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out
