"""The egress's target rules (projections/egress.py), without a network: every form in
tests/egress_forms.py is refused, written in the URL or given by a name's resolver; public
addresses pass and are the ones connected to; a name is resolved once and every address it
gives is judged; ports outside the allowed set are refused; a refusal never says what a
name resolved to."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

import httpx
import pytest
from egress_forms import ALL, ISSUE, MORE, PUBLIC

from projections.egress import (
    DEFAULT_PORTS,
    Egress,
    EgressConfig,
    Refused,
    parse_ports,
    public,
)


class Resolver:
    """A stand-in resolver: `answers[host]` per call (the last one repeats), counted."""

    def __init__(self, **answers: list[list[str]]) -> None:
        self.answers = answers
        self.calls: list[str] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls.append(host)
        got = self.answers.get(host.replace(".", "_").replace("-", "_"))
        if got is None:
            raise OSError("no such name")
        return got[min(len(self.calls), len(got)) - 1]


class Chunks(httpx.SyncByteStream):
    """An answer's body as a network gives it: in chunks, not read yet."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    def __iter__(self) -> Iterator[bytes]:
        for start in range(0, len(self.body), 512):
            yield self.body[start:start + 512]


def streamed(status: int, body: bytes = b"", **headers: str) -> httpx.Response:
    return httpx.Response(status, headers=headers, stream=Chunks(body))


def egress(resolve: Resolver | None = None, **config: object) -> Egress:
    return Egress(EgressConfig(**config), resolve=resolve or Resolver())  # type: ignore[arg-type]


def test_the_issues_forms_and_a_hundred_more_are_refused_written_in_the_url() -> None:
    assert len(ISSUE) == 9 and len(ALL) - len(ISSUE) >= 100
    assert all(len(MORE[kind]) >= 2 for kind in ("decimal", "octal", "hex", "mapped",
                                                 "nat64", "6to4", "teredo", "site-local",
                                                 "link-local", "unique-local", "multicast",
                                                 "reserved"))
    out = egress(Resolver(localhost=[["127.0.0.1"]], localhost_=[["::1"]]))
    accepted = []
    for host in ALL:
        for scheme in ("http", "https"):
            try:
                out.check(f"{scheme}://{host}/hook")
                accepted.append(f"{scheme}://{host}")
            except Refused:
                pass
    assert accepted == []


@pytest.mark.parametrize("host", PUBLIC)
def test_public_addresses_pass_and_are_the_ones_connected_to(host: str) -> None:
    target = egress().target(f"https://{host}/hook")
    assert target.address == ipaddress.ip_address(host.strip("[]"))
    assert target.request_url().host == host.strip("[]")


def test_every_form_a_name_resolves_to_is_refused_and_the_refusal_does_not_say_it() -> None:
    plain = [h.strip("[]") for h in ALL if h.strip("[]")[0].isdigit() or ":" in h]
    addresses = []
    for host in plain:
        try:
            addresses.append(str(ipaddress.ip_address(host.replace("%25", "%"))))
        except ValueError:
            continue  # a spelling only a URL parser reads as an address
    assert len(addresses) >= 100
    for address in addresses:
        out = egress(Resolver(vm=[[address]]))
        with pytest.raises(Refused) as refused:
            out.check("https://vm/hook")
        assert address not in str(refused.value) and "vm" not in str(refused.value)


def test_a_name_is_refused_if_any_of_its_addresses_is_not_public() -> None:
    mixed = Resolver(mixed_example=[["1.1.1.1", "127.0.0.1"]],
                     six_example=[["2606:4700:4700::1111", "fd00::1"]])
    for name in ("mixed.example", "six.example"):
        with pytest.raises(Refused):
            egress(mixed).check(f"https://{name}/hook")
    # a name that does not resolve is refused in the same words (no oracle of which exist)
    with pytest.raises(Refused) as unknown:
        egress().check("https://nowhere.example/hook")
    with pytest.raises(Refused) as private:
        egress(Resolver(vm=[["10.0.0.5"]])).check("https://vm/hook")
    assert str(unknown.value) == str(private.value)


def test_a_name_is_resolved_once_and_the_request_goes_to_that_address_with_the_name() -> None:
    resolver = Resolver(rebind_example=[["1.1.1.1"], ["127.0.0.1"]])
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return streamed(204)

    out = Egress(EgressConfig(), resolve=resolver, transport=httpx.MockTransport(answer))
    reply = out.post("https://rebind.example/hook?x=1", b"{}", {"webhook-id": "d1"})
    assert reply.status_code == 204 and resolver.calls == ["rebind.example"]
    [request] = seen
    assert request.url.host == "1.1.1.1" and request.url.raw_path == b"/hook?x=1"
    assert request.headers["host"] == "rebind.example"
    assert request.extensions["sni_hostname"] == "rebind.example"
    assert request.headers["webhook-id"] == "d1"
    # a second request resolves again, now to loopback: refused, nothing sent
    with pytest.raises(Refused):
        out.post("https://rebind.example/hook", b"{}", {})
    assert len(seen) == 1


def test_a_redirect_is_the_answer_and_the_body_is_read_at_most_so_far() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/big":
            return streamed(200, b"x" * 100_000)
        return streamed(307, location="http://127.0.0.1:9/")

    out = Egress(EgressConfig(max_body=1000), transport=httpx.MockTransport(answer))
    assert out.post("https://1.1.1.1/hook", b"", {}).status_code == 307
    big = out.post("https://1.1.1.1/big", b"", {})
    assert big.status_code == 200 and len(big.body) == 1000


def test_ports_outside_the_allowed_set_are_refused() -> None:
    out = egress()
    for url in ("http://8.8.8.8:6379/", "https://1.1.1.1:22/", "https://1.1.1.1:8443/",
                "http://1.1.1.1:0/", "http://1.1.1.1:65535/"):
        with pytest.raises(Refused, match="port 80 or 443"):
            out.check(url)
    assert out.check("http://1.1.1.1:80/") and out.check("https://1.1.1.1:443/")
    assert egress(ports=frozenset({8443})).check("https://1.1.1.1:8443/")
    # tests may allow private targets on one port: another loopback port stays refused
    loopback = egress(ports=frozenset({8080}), allow_private=True)
    assert loopback.check("http://127.0.0.1:8080/")
    with pytest.raises(Refused):
        loopback.check("http://127.0.0.1:6379/")


def test_the_ports_setting() -> None:
    assert parse_ports("") == DEFAULT_PORTS == parse_ports(" ") == parse_ports("443,80")
    assert parse_ports("any") is None and parse_ports("", allow_private=True) is None
    assert parse_ports("8443", allow_private=True) == frozenset({8443})
    for bad in ("0", "65536", "http", ",", "80;443"):
        with pytest.raises(ValueError):
            parse_ports(bad)


@pytest.mark.parametrize("url", [
    "ftp://1.1.1.1/", "file:///etc/passwd", "gopher://1.1.1.1/", "http:///hook",
    "https://user:pw@1.1.1.1/", "https://user@1.1.1.1/", "https://1.1.1.1/" + "a" * 2100,
    "https://exa mple.com/", "https://%31%32%37.0.0.1/", "https://[::1/", "javascript:x",
])
def test_malformed_urls_are_refused(url: str) -> None:
    with pytest.raises(Refused):
        egress(Resolver(example_com=[["1.1.1.1"]])).check(url)


def test_the_address_rule_itself() -> None:
    allowed = ["1.1.1.1", "8.8.8.8", "2606:4700:4700::1111", "64:ff9b::808:808",
               "2002:808:808::1"]
    refused = ["127.0.0.1", "100.64.0.1", "224.0.0.1", "fec0::1", "ff0e::1", "::ffff:8.8.8.8",
               "64:ff9b::7f00:1", "2002:7f00:1::1", "2001:0:7f00:1::1", "fe80::1%eth0"]
    assert [a for a in allowed if not public(ipaddress.ip_address(a))] == []
    assert [a for a in refused if public(ipaddress.ip_address(a))] == []
