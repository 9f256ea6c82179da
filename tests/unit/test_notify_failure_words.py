"""A notice that could not be sent says why in words (issue 39): never the exception's
text (`ConnectError: [SSL: CERTIFICATE_VERIFY_FAILED] ...`), from its type, its causes'
types and their reasons (`projections.notify_words.failure`), as `Channels.send` records it."""

from __future__ import annotations

import socket
import ssl
from types import SimpleNamespace

import httpx
import pytest

from projections.notify_channels import Channels, SmtpConfig
from projections.notify_words import FAILED, failure


def _raised(error: BaseException, cause: BaseException | None = None) -> BaseException:
    try:
        raise error from cause
    except BaseException as caught:  # noqa: BLE001 - the exception as a sender sees it
        return caught


CERT = ssl.SSLCertVerificationError(
    1, "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate")


@pytest.mark.parametrize(("error", "said"), [
    (_raised(httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed"),
             CERT), "the receiver's certificate is not valid"),
    (CERT, "the receiver's certificate is not valid"),
    (httpx.ConnectTimeout("timed out"), "the receiver did not answer in time"),
    (TimeoutError(), "the receiver did not answer in time"),
    (_raised(httpx.ConnectError("[Errno 111] Connection refused"),
             ConnectionRefusedError(111, "Connection refused")),
     "the receiver refused the connection"),
    (socket.gaierror(-2, "Name or service not known"), "the receiver's name could not be found"),
    (ValueError("boom"), FAILED),
])
def test_a_failure_is_said_in_words(error: BaseException, said: str) -> None:
    assert failure(error) == said


def test_a_send_that_raises_records_the_words_not_the_exception() -> None:
    channels = Channels(smtp=SmtpConfig())

    def broken(*_: object) -> None:
        raise _raised(httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify "
                                         "failed: self-signed certificate"), CERT)

    channels.webhook = broken  # type: ignore[method-assign,assignment]
    answer = channels.send("webhook", SimpleNamespace(target="https://x.example/"), "msg_1", {})
    assert answer.status_code is None
    assert answer.error == "the receiver's certificate is not valid"
    assert "Error" not in (answer.error or "") and "[SSL" not in (answer.error or "")
    # e-mail off says so in words, never the settings' names
    off = channels.send("email", SimpleNamespace(target="a@b.example"), "msg_2", {})
    assert off.error == "e-mail is off on this server"
