"""The address phones use to reach a laptop serving the hall: ``PUBLIC_URL`` for embedded mode.

Every absolute link the app prints (slip QR codes, invite links, the projector's QR code) starts
with ``settings.PUBLIC_URL``. Production sets it; ``manage.py runembedded`` derives it from the
address it serves when none is given: bound to loopback, that loopback address; bound to one
address, that one; bound to every interface (``0.0.0.0``, ``::``), the machine's LAN address,
the one a phone on the same Wi-Fi reaches. Always with the served port. Standard library only.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

#: A documentation address (RFC 5737, TEST-NET-2): "connecting" a UDP socket to it makes the
#: kernel choose the interface of the default route and its source address, and sends no packet.
_ROUTE_PROBE = ("198.51.100.1", 9)


def lan_address() -> str | None:
    """The machine's address on its default route (the hall's Wi-Fi or cable), as ``ip route get``
    would pick it, found without sending anything; ``None`` on a machine with no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(_ROUTE_PROBE)
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address in ("0.0.0.0", "") else address


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_every_interface(host: str) -> bool:
    return host in ("", "0.0.0.0", "::")


def public_url_for(host: str, port: int, *, find_lan_address: Callable[[], str | None] = lan_address) -> str:
    """``http://ADDRESS:PORT`` as phones reach a server bound to ``host``:``port``. Bound to every
    interface on a machine with no network, only the machine itself can reach it: 127.0.0.1."""
    address = host
    if is_every_interface(host):
        address = find_lan_address() or "127.0.0.1"
    if ":" in address:
        address = f"[{address}]"
    return f"http://{address}:{port}"
