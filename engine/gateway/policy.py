"""Where the gateway may send text: internal hosts only, an explicit proxy only, no redirects.

A host is internal when it is a loopback, private-range, link-local or
unique-local IP address, ``localhost``, or matches the administrator's
allow-list: an exact name (``llm.intra.go.kr``), a name suffix starting with
a dot (``.local``) or an address range (``10.20.0.0/16``, for networks that
use public addresses inside). Names are judged as written — nothing is looked
up in DNS to decide. Every other host is external and refused.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Iterable, Optional
from urllib.parse import urlsplit

from engine.gateway.events import GatewayError

# Address ranges that never leave the organisation's own network.
INTERNAL_NETWORKS = tuple(ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
    "::1/128", "fc00::/7", "fe80::/10",
))
DEFAULT_ALLOWED = (".local", ".internal", ".home.arpa")


@dataclass(frozen=True)
class Target:
    """A checked http(s) origin plus the base path (no trailing slash)."""

    scheme: str
    host: str
    port: int
    path: str = ""

    @property
    def netloc(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"

    def url(self, path: str = "") -> str:
        return f"{self.scheme}://{self.netloc}{path}"


def parse_url(url: str) -> Target:
    """Split an http(s) URL into a Target; GATEWAY_BAD_URL when it is not one we can use."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise GatewayError("GATEWAY_BAD_URL", f"unreadable URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise GatewayError("GATEWAY_BAD_URL", "the URL must start with http:// or https:// and name a host")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise GatewayError("GATEWAY_BAD_URL", "no user name, password, query or fragment in the URL")
    host = parts.hostname.lower().rstrip(".")
    return Target(parts.scheme, host, port or (443 if parts.scheme == "https" else 80),
                  parts.path.rstrip("/"))


def is_internal(host: str, allowed: Iterable[str] = DEFAULT_ALLOWED) -> bool:
    """True when ``host`` is on the organisation's own network by the rule in the module doc."""
    host = host.lower().rstrip(".")
    address = _address(host)
    rules = [a.strip().lower() for a in allowed if a and a.strip()]
    if address is not None:
        ranges = [n for n in (_network(r) for r in rules) if n is not None]
        return any(address in n for n in INTERNAL_NETWORKS + tuple(ranges))
    if host == "localhost" or host.endswith(".localhost"):
        return True
    return any(host.endswith(r) if r.startswith(".") else host == r.rstrip(".") for r in rules)


def check_internal(url: str, allowed: Iterable[str], what: str = "base URL") -> Target:
    """The Target of ``url`` when its host is internal; GATEWAY_EXTERNAL otherwise."""
    target = parse_url(url)
    if not is_internal(target.host, allowed):
        raise GatewayError("GATEWAY_EXTERNAL", f"{what} host {target.host} is not internal")
    return target


def refuse_redirect(status: int, location: Optional[str], target: Target) -> GatewayError:
    """The error for a 3xx answer: redirects are never followed."""
    where = urlsplit(location or "").hostname
    if where and where.lower() != target.host:
        return GatewayError("GATEWAY_REDIRECT", f"HTTP {status} to another host ({where})", status=status)
    return GatewayError("GATEWAY_REDIRECT", f"HTTP {status} (redirects are not followed)", status=status)


def _address(host: str):
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def _network(rule: str):
    try:
        return ipaddress.ip_network(rule, strict=False)
    except ValueError:
        return None
