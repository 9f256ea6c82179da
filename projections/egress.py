"""The one way out: every HTTP request the server makes on someone else's behalf (a
webhook, a Web Push message, anything later) goes through `Egress.post`, and every
registration of such a target through `Egress.check`, so both judge a target alike.

A target is a URL that a stranger chose. Without care, the server would call what only it
can reach (the database, a cloud's metadata address, an admin page on localhost: SSRF).
So `post`:
- parses the URL (http or https, a host, no user name or password, at most `MAX_URL`
  characters; an IPv4 address only as four decimal numbers: `2130706433`, `0x7f.1`,
  `0177.0.0.1` and `127.1` are refused, whatever they would mean);
- resolves the name once (`resolve`, which tests replace) and checks every address it
  gave: only global unicast (`public`), on an allowed port;
- connects to exactly that checked address (the request goes to the address, with the
  name in the Host header and as TLS's SNI and certificate name), so a name that answers a
  public address first and a private one next (DNS rebinding) cannot slip through;
- never follows a redirect (a 3xx is the answer), reads at most `max_body` bytes of the
  answer, with timeouts;
- says of a refusal only that the target is not allowed, never what a name resolved to.
docs/notifications.md ("Where notices may go") tells it for users."""

from __future__ import annotations

import ipaddress
import re
import socket
import ssl
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import httpx

MAX_URL = 2048
DEFAULT_PORTS = frozenset({80, 443})
NOT_PUBLIC = ("a public host: a name that resolves only to public addresses, or a public "
              "address (loopback, private, link-local and reserved ones are refused)")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], Iterable[str]]


class Refused(ValueError):
    """A target that may not be reached, and what would be allowed (never what a name
    resolved to)."""


def _nets(*cidrs: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(c) for c in cidrs)


# IPv4: IANA's special-purpose registry and the multicast and reserved ranges; a public
# address is none of these (and `is_global` besides).
_BLOCKED_V4 = _nets(
    "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
    "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16",
    "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
    "255.255.255.255/32")
# IPv6: only global unicast (2000::/3), less what IANA reserves in it: 2001::/23 (Teredo
# 2001::/32 among it: a tunnel to an address that may be anyone's), documentation
# 2001:db8::/32 and 3fff::/20. 6to4 (2002::/16) and the well-known NAT64 prefix
# (64:ff9b::/96) carry an IPv4 address: it is judged too. Everything else, among it the
# mapped (::ffff:0:0/96), compatible (::/96) and translated (::ffff:0:0:0/96) forms, the
# local-use NAT64 prefix (64:ff9b:1::/48), unique-local, link-local, site-local
# (fec0::/10) and multicast, is outside 2000::/3 and refused.
_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")
_BLOCKED_V6 = _nets("2001::/23", "2001:db8::/32", "3fff::/20")
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_6TO4 = ipaddress.IPv6Network("2002::/16")


def public(address: Address) -> bool:
    """Whether `address` is global unicast: one that the server may connect to for a
    stranger."""
    if isinstance(address, ipaddress.IPv4Address):
        return address.is_global and not any(address in net for net in _BLOCKED_V4)
    if address.scope_id:
        return False
    if address in _NAT64:
        return public(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if address not in _UNICAST_V6 or any(address in net for net in _BLOCKED_V6):
        return False
    if address in _6TO4:
        return public(ipaddress.IPv4Address((int(address) >> 80) & 0xFFFFFFFF))
    return address.is_global


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the system resolves `host` to (its numeric forms too: a refusal's
    business, not the resolver's)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def parse_ports(raw: str, allow_private: bool = False) -> frozenset[int] | None:
    """The ports setting: a comma list (`80,443,8443`), `any`, or empty for the default
    (80 and 443; any port when private targets are allowed, which is for tests)."""
    raw = raw.strip().lower()
    if not raw:
        return None if allow_private else DEFAULT_PORTS
    if raw == "any":
        return None
    ports = frozenset(int(part) for part in raw.split(",") if part.strip())
    if not ports or not all(0 < port < 65536 for port in ports):
        raise ValueError(f"{raw!r} is not a list of ports from 1 to 65535, or 'any'")
    return ports


@dataclass(frozen=True)
class EgressConfig:
    ports: frozenset[int] | None = DEFAULT_PORTS  # None: any port
    allow_private: bool = False  # loopback and private targets (tests only)
    timeout: float = 10.0  # seconds for each read and write
    connect_timeout: float = 5.0
    max_body: int = 4096  # bytes of an answer read at most; the rest is never fetched


@dataclass(frozen=True)
class Target:
    """A checked target: the URL as given, the name, and the address to connect to."""

    url: httpx.URL
    host: str  # as in the URL (IDNA-encoded), for Host and TLS
    port: int
    address: Address

    @property
    def origin(self) -> str:
        """`scheme://host[:port]`, as the name was given (VAPID's audience)."""
        return f"{self.url.scheme}://{self.url.netloc.decode('ascii')}"

    def request_url(self) -> httpx.URL:
        return self.url.copy_with(host=str(self.address))


@dataclass(frozen=True)
class Reply:
    status_code: int
    body: bytes = field(repr=False)


_LABEL = re.compile(r"^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$")
_NUMBER = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")


def _literal(host: str) -> Address | None:
    """The address a host written as one is (IPv4: only four decimal numbers), None for a
    name, `Refused` for anything else."""
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            raise Refused(NOT_PUBLIC) from None
    labels = host.removesuffix(".").split(".")
    if _NUMBER.match(labels[-1]):  # a URL parser reads this as an IPv4 address
        try:
            return ipaddress.IPv4Address(host.removesuffix("."))
        except ValueError:
            raise Refused("an IPv4 address written as four decimal numbers (a.b.c.d)"
                          ) from None
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        raise Refused("a host name of letters, digits and hyphens")
    return None


class Egress:
    """Checks targets and makes requests to them (see the module's docstring). `resolve`
    and `transport` are the seams tests replace: a resolver that changes its answer, a
    transport that records where it was asked to connect."""

    def __init__(self, config: EgressConfig | None = None,
                 resolve: Resolver = system_resolver,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.config = config or EgressConfig()
        self.resolve = resolve
        self.transport = transport
        self._tls: ssl.SSLContext | None = None  # made once: loading the CAs is costly

    def _client(self) -> httpx.Client:
        """A client for one request: one connection (a kept connection made for one name
        must not carry another's request), no retries, no proxy from the environment, no
        redirects. The TLS context (the trusted CAs) is shared: it holds no connection."""
        cfg = self.config
        transport = self.transport
        if transport is None:
            if self._tls is None:
                self._tls = httpx.create_ssl_context()
            transport = httpx.HTTPTransport(retries=0, verify=self._tls)
        return httpx.Client(
            transport=transport,
            timeout=httpx.Timeout(cfg.timeout, connect=cfg.connect_timeout),
            follow_redirects=False, trust_env=False)

    def check(self, url: str) -> str:
        """`url` if requests may go there now, else `Refused` (what registration asks)."""
        self.target(url)
        return url

    def target(self, url: str) -> Target:
        """Parse `url`, resolve its name once and check every address; the first of them
        is the one to connect to."""
        if len(url) > MAX_URL:
            raise Refused(f"a URL of at most {MAX_URL} characters")
        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, UnicodeError, ValueError):
            raise Refused("a well-formed http:// or https:// URL") from None
        if parsed.scheme not in ("http", "https") or not parsed.raw_host:
            raise Refused("an http:// or https:// URL with a host")
        if parsed.userinfo:
            raise Refused("a URL without a user name or password in it")
        port = parsed.port if parsed.port is not None else {"http": 80, "https": 443}[
            parsed.scheme]
        ports = self.config.ports
        if ports is not None and port not in ports:
            raise Refused("a URL on port " + " or ".join(str(p) for p in sorted(ports)))
        host = parsed.raw_host.decode("ascii").lower()
        literal = _literal(host)
        addresses = [literal] if literal is not None else self._resolved(host, port)
        if not self.config.allow_private and not all(public(a) for a in addresses):
            raise Refused(NOT_PUBLIC)
        return Target(parsed, host, port, addresses[0])

    def _resolved(self, host: str, port: int) -> list[Address]:
        try:
            found = [ipaddress.ip_address(a) for a in self.resolve(host, port)]
        except (OSError, UnicodeError, ValueError):
            found = []
        if not found:  # said like a private answer: no oracle of which names exist
            raise Refused(NOT_PUBLIC)
        return found

    def post(self, url: str | Target, content: bytes, headers: dict[str, str]) -> Reply:
        """POST `content` to `url`'s checked address (or to a `Target` just checked); the
        status and at most `max_body` bytes of the answer. `Refused` if the target is not
        allowed; `httpx.HTTPError` (without the address in its text) if it could not be
        reached."""
        target = url if isinstance(url, Target) else self.target(url)
        try:
            with self._client() as client:
                request = client.build_request(
                    "POST", target.request_url(), content=content,
                    headers={**headers, "host": target.url.netloc.decode("ascii")},
                    extensions={"sni_hostname": target.host.removesuffix(".")})
                response = client.send(request, stream=True)
                try:
                    return Reply(response.status_code, self._read(response))
                finally:
                    response.close()
        except httpx.HTTPError as error:
            raise type(error)(str(error).replace(str(target.address), target.host)
                              ) from None

    def _read(self, response: httpx.Response) -> bytes:
        """At most `max_body` bytes, within two read timeouts in all."""
        limit, deadline = self.config.max_body, time.monotonic() + 2 * self.config.timeout
        body = b""
        for chunk in response.iter_raw(limit):
            body += chunk
            if len(body) >= limit or time.monotonic() > deadline:
                break
        return body[:limit]
