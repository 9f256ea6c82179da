"""Which of the legal actions are the current step's own move (the page shows them first,
under "Your move"), and which are bookkeeping or allowed at any step (unit cards, More
actions, the Turn panel). Decided here once, from the step's `allows`, for every client.

- Allowed at any step (notes, disputes, the end of the match) are never the step's own.
- Bookkeeping most steps allow (placing markers, moving, free rolls, tracks...) is not the
  step's own, except in a step that names only bookkeeping: there the first it names
  (other than a free roll) is its move (e.g. a movement step's `move_unit`).
- A step that names no move of its own, where the marker cannot move on, offers as its
  own whatever is not about a single unit (a side's choice, a roll for the whole side),
  so the seat always sees something to do first.
"""

from __future__ import annotations

from domain.decide import ENDINGS, RECORDS
from domain.legal.model import LegalAction
from domain.sequence import ANY

ANYTIME = frozenset((*RECORDS, *ENDINGS))
BOOKKEEPING = frozenset(("deploy_unit", "move_unit", "set_status", "place_marker",
                         "remove_marker", "roll_dice", "remove_unit", "set_track", "score_vp",
                         "record_roll"))


def own_ids(allows: tuple[str, ...], actions: tuple[LegalAction, ...],
            advance_legal: bool) -> frozenset[str]:
    """The ids of `actions` that are the step's own move (see the module's docstring)."""
    only_bookkeeping = all(kind in BOOKKEEPING for kind in allows)
    first = next((k for k in allows if k != "roll_dice"), None) if only_bookkeeping else None
    own = [a for a in actions if a.type not in ANYTIME
           and (a.type not in BOOKKEEPING or a.type == first)]
    named = any(k != ANY and k not in BOOKKEEPING and k not in ANYTIME for k in allows)
    if own or advance_legal or named:
        return frozenset(a.id for a in own)
    return frozenset(a.id for a in actions if a.type not in ANYTIME
                     and not all(c.unit_id for c in a.choices))
