"""Where `battlelog serve` listens, and how it says so: the port is taken before anything
claims the server runs (uvicorn would open the store first, then fail to bind), and the
addresses it prints are ones a browser can open."""

from __future__ import annotations

import errno
import socket

EVERY_ADDRESS = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}  # -> how this machine reaches it


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound (uvicorn listens on it). As uvicorn binds: SO_REUSEADDR,
    IPv6 for an address with a colon. Port 0 takes a free port."""
    bound = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        bound.bind((host, port))
    except OSError:
        bound.close()
        raise
    return bound


def cannot_listen(host: str, port: int, error: OSError) -> str:
    """What went wrong, and what to do."""
    if error.errno == errno.EADDRINUSE:
        return (f"port {port} on {host} is taken (by another battlelog, or another program); "
                f"choose another: battlelog serve --port {port + 1}, or make run PORT={port + 1}")
    if error.errno == errno.EACCES:
        return (f"not allowed to listen on port {port} (ports below 1024 need privileges); "
                f"choose another: --port 8000, or make run PORT=8000")
    return f"cannot listen on {host} port {port}: {error.strerror or error}"


def urls(host: str, port: int) -> tuple[str, str | None]:
    """The address to open on this machine, and, when it listens on every address (to let
    the players' phones in), the one to open from another device of the network."""
    if host not in EVERY_ADDRESS:
        return f"http://{f'[{host}]' if ':' in host else host}:{port}", None
    return (f"http://{EVERY_ADDRESS[host]}:{port}",
            f"http://{_network_address() or 'THIS-MACHINE'}:{port}")


def _network_address() -> str | None:
    """This machine's IPv4 address on its network: the one a route out would leave from
    (a UDP socket's connect sends nothing). None without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address
