"""The words a notice carries that came from a player (a scenario's title, side and unit
names, step names of a ruleset file, a sentence about the last event), made inert plain
text before they go into an e-mail, a push message or a webhook's body.

`plain(value, most)`:
- folds compatibility forms (NFKC: a full-width dot becomes "."), so that a look-alike
  cannot slip past the rest;
- turns every control, format and separator character (C0 and C1 controls with CR and LF,
  bidi overrides and isolates, zero-width characters, line and paragraph separators) into
  one space, and runs of white space into one: a name cannot start a new line of a body or
  a header, nor reorder what is shown;
- defangs what a mail client or a phone would make a link: `http://`, `https://` and
  `ftp://` become `hxxp://`, `hxxps://`, `fxp://`, and every dot of a domain name or an IPv4
  address becomes `[.]` (`phish.example/claim` reads `phish[.]example/claim`); the words
  stay readable, nothing is clickable;
- caps the length at `most` characters (an ellipsis marks the cut).

Applying it twice gives the same text. The only link in a notice is the server's own, to
the match's table, which is never run through here."""

from __future__ import annotations

import re
import unicodedata

NAME = 80  # a title, a side's, a unit's or a step's name
SENTENCE = 300  # a sentence about an event, a reason
OUTCOME = 600  # what an action did (its roll and what followed: sentences_outcome)

_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SCHEME = re.compile(r"\b(h)tt(ps?)(?=:)|\b(f)t(p)(?=:)", re.IGNORECASE)
# a dotted name with a last label of letters (a domain), or four dotted numbers (IPv4)
_DOTTED = re.compile(r"(?<![\w.])(?:[\w-]+\.)+[^\W\d_]{2,}(?![\w])"
                     r"|(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w])")


def _visible(char: str) -> str:
    return " " if unicodedata.category(char) in _INVISIBLE else char


def _scheme(match: re.Match[str]) -> str:
    if match.group(1):
        return f"{match.group(1)}xx{match.group(2)}"
    return f"{match.group(3)}x{match.group(4)}"


def plain(value: object, most: int = NAME) -> str:
    """`value` as inert plain text of at most `most` characters (see the module)."""
    text = unicodedata.normalize("NFKC", str(value))
    text = " ".join("".join(_visible(c) for c in text).split())
    text = _SCHEME.sub(_scheme, text)
    text = _DOTTED.sub(lambda m: m.group(0).replace(".", "[.]"), text)
    if len(text) > most:
        text = text[:max(0, most - 1)].rstrip() + "…"
    return text


# ---- a failed delivery in words -----------------------------------------------------------

# What failed, from the exception's type (and its causes'), or its reason's words: the first
# that fits says it. A player reads these in the Turn notices panel; the exception itself
# goes to the service's log only.
_FAILURES: tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...] = (
    (("SSLCertVerificationError",), ("CERTIFICATE_VERIFY_FAILED", "certificate verify"),
     "the receiver's certificate is not valid"),
    (("SSLError",), ("[SSL", "SSL:", "TLS"), "the secure connection to the receiver failed"),
    (("TimeoutError", "TimeoutException", "ConnectTimeout", "ReadTimeout", "WriteTimeout",
      "PoolTimeout", "SMTPTimeoutError", "timeout"), ("timed out", "Timeout"),
     "the receiver did not answer in time"),
    (("ConnectionRefusedError",), ("Connection refused", "refused the connection"),
     "the receiver refused the connection"),
    (("gaierror",), ("Name or service not known", "nodename nor servname",
                     "Temporary failure in name resolution"),
     "the receiver's name could not be found"),
    (("ConnectionResetError", "RemoteProtocolError", "SMTPServerDisconnected"),
     ("Connection reset", "Server disconnected"), "the receiver closed the connection"),
    (("SMTPAuthenticationError",), (), "the mail server refused this server's login"),
    (("SMTPRecipientsRefused",), (), "the mail server refused the address"),
    (("ConnectError", "SMTPConnectError", "OSError"), (), "the receiver could not be reached"),
)
FAILED = "something failed on the way"


def _chain(error: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    at: BaseException | None = error
    while at is not None and at not in seen and len(seen) < 8:
        seen.append(at)
        at = at.__cause__ or at.__context__
    return seen


def failure(error: BaseException) -> str:
    """Why a notice could not be sent, in words ("the receiver's certificate is not
    valid"), from the exception's type, its causes' types and their reasons; never the
    exception's own text."""
    chain = _chain(error)
    types = {t.__name__ for e in chain for t in type(e).__mro__}
    text = " ".join(str(e) for e in chain)
    for names, reasons, said in _FAILURES:
        if types & set(names) or any(r in text for r in reasons):
            return said
    return FAILED
