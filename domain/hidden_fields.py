"""What `domain.integrity.verify` checks of an event line's hidden fields (docs/integrity.md):
`hidden` only for fields the file's seat may not see, the commitment to each hidden field in
what the hash covers, and each committed field the file shows checked against its
commitment with its salt. Pure: the file's own lines and the event classes' declarations of
who sees what (`Event.secret_from`).

`LineSecrets.check` answers, for one line, the problem with its secret fields (None: none)
and whether its hash can be checked: not when it hides a field recorded before commitments
(its hash covers a value the file does not hold). From the match's creation when it says so
(`MatchCreated.secrets_committed`), and from the first commitment in the file on, every
hidden field must be committed: a line that hides one without a commitment is refused."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from domain.events import EVENT_TYPES
from domain.events.base import NOBODY
from domain.events.commitments import commitment_to

REFEREE = "referee"
HEX64 = re.compile(r"[0-9a-f]{64}")


def _fields(names: Any) -> str:
    return ", ".join(f"`{n}`" for n in names)


@dataclass
class LineSecrets:
    """The check of each event line's secret fields, in the order of the file.
    `viewer`: the seat the file was written for (its header's `viewer`; None in a file
    that does not say: then any seat's)."""

    viewer: str | None
    committed: bool = False  # every hidden field from here on must carry its commitment

    def check(self, body: dict[str, Any]) -> tuple[str | None, bool]:
        """(the problem with the line's secret fields, or None; whether its hash can be
        checked)."""
        cls = EVENT_TYPES.get(str(body.get("type")))
        secret = cls.secret_fields if cls is not None else frozenset()
        if cls is not None and cls.__name__ == "MatchCreated" and body.get(
                "secrets_committed") is True:
            self.committed = True
        commitments, salts, hidden = (body.get(k) for k in ("commitments", "salts", "hidden"))
        if commitments is not None:
            if not isinstance(commitments, dict) or not commitments or not all(
                    isinstance(c, str) and HEX64.fullmatch(c) for c in commitments.values()):
                return "has `commitments` that are not SHA-256 hashes by field", False
            if not set(commitments) <= secret:
                return (f"commits to {_fields(sorted(set(commitments) - secret))}, which no "
                        "seat is ever kept from seeing in this kind of event"), False
            self.committed = True
        committed = commitments or {}
        if salts is not None and (not isinstance(salts, dict) or not set(salts) <= set(
                committed) or not all(isinstance(s, str) for s in salts.values())):
            return "carries a salt for a field it holds no commitment to", False
        problem = self._hidden(body, cls, hidden)
        if problem is not None:
            return problem, False
        for name, said in committed.items():
            if name in body:
                if not isinstance(salts, dict) or name not in salts:
                    return f"shows its {_fields([name])} without the salt of its commitment", False
                if commitment_to(salts[name], body[name]) != said:
                    return (f"was changed: its {_fields([name])} does not match its "
                            "commitment"), False
            elif name not in (hidden or ()):
                return f"neither shows nor hides its {_fields([name])}", False
        uncommitted = [name for name in hidden or () if name not in committed]
        if uncommitted and self.committed:
            return (f"hides its {_fields(uncommitted)} without a commitment (every hidden field "
                    "of this match is committed)"), False
        return None, not uncommitted

    def _hidden(self, body: dict[str, Any], cls: Any, hidden: Any) -> str | None:
        """The problem with the line's `hidden`, if any: only fields this file's seat may
        not see, never one it holds, never in the referee's file."""
        if hidden is None:
            return None
        if not isinstance(hidden, list) or not hidden or hidden != sorted(
                {h for h in hidden if isinstance(h, str)}):
            return "has a `hidden` that is not a sorted list of field names"
        if self.viewer == REFEREE:
            return f"hides its {_fields(hidden)} in the referee's file, which hides nothing"
        may = cls.secret_from(self.viewer or NOBODY, body) if cls is not None else frozenset()
        if self.viewer is None and cls is not None:
            may = cls.secret_fields  # a file that does not say whose it is: any seat's
        wrong = [h for h in hidden if h not in may]
        if wrong:
            whose = f"the {self.viewer} seat" if self.viewer else "any seat"
            return f"hides its {_fields(wrong)}, which {whose} is shown"
        held = [h for h in hidden if h in body]
        if held:
            return f"both holds and hides its {_fields(held)}"
        return None
