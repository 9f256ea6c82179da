"""`highest(list, otherwise)`: the highest whole number in `list`, or `otherwise` when the
list is empty (CEL has no max): "the best CV among the side's Commanders on the table, 0
if none" is `highest(units.filter(u, ...).map(u, u.attributes.cv), 0)`. Pure and bounded:
a list of whole numbers the view built, and one whole number, in; one whole number out."""

from __future__ import annotations


def highest(numbers: object, otherwise: object) -> int:
    if not isinstance(numbers, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        raise TypeError("highest() takes a list of whole numbers")
    if isinstance(otherwise, bool) or not isinstance(otherwise, int):
        raise TypeError("highest() takes a whole number to give when the list is empty")
    return max(numbers, default=otherwise)
