"""The core procedures of `decide`, one module per thing they act on. Importing this
package registers them all with `handle`."""

from domain.procedures import cards, dice, end, records, turn, units
from domain.procedures.dispatch import handle
from domain.procedures.turn import next_marker

__all__ = ["cards", "dice", "end", "handle", "next_marker", "records", "turn", "units"]
