"""The one place in the engine that opens a network connection.

Plain ``http.client``: no environment proxies, no redirects, no connection
reuse. With a proxy configured, the request goes through that proxy only
(a CONNECT tunnel for https) and never falls back to a direct connection.
Failures become ``GatewayError`` with codes GATEWAY_UNREACHABLE (worth
retrying), GATEWAY_TLS (a certificate problem, not worth retrying) or
GATEWAY_INTERRUPTED (the answer broke off while it was being read).
"""
from __future__ import annotations

import http.client
import ssl
from typing import Iterator, Optional

from engine.gateway.events import GatewayError
from engine.gateway.policy import Target

MAX_BODY = 8 * 1024 * 1024      # a whole JSON answer
MAX_ERROR_BODY = 16 * 1024      # what we keep of an error answer


class Response:
    """An answered request: status, headers, and the body read as lines or whole."""

    def __init__(self, connection: http.client.HTTPConnection, response: http.client.HTTPResponse):
        self._connection = connection
        self._response = response
        self.status = response.status

    def header(self, name: str) -> Optional[str]:
        return self._response.getheader(name)

    def lines(self) -> Iterator[bytes]:
        """The body line by line, ending at the end of the body."""
        while True:
            line = self._read(self._response.readline)
            if not line:
                return
            yield line

    def body(self, limit: int = MAX_BODY) -> bytes:
        """The whole body (at most ``limit`` bytes; a longer one is GATEWAY_INTERRUPTED)."""
        data = self._read(lambda: self._response.read(limit + 1))
        if len(data) > limit:
            raise GatewayError("GATEWAY_INTERRUPTED", f"answer longer than {limit} bytes")
        return data

    def error_text(self) -> str:
        """The start of an error answer's body, as text, for the error detail."""
        try:
            data = self._response.read(MAX_ERROR_BODY)
        except (OSError, http.client.HTTPException):
            data = b""
        return data.decode("utf-8", errors="replace").strip()

    def close(self) -> None:
        self._response.close()
        self._connection.close()

    def _read(self, read):
        try:
            return read()
        except (OSError, http.client.HTTPException) as exc:
            raise GatewayError("GATEWAY_INTERRUPTED", f"{type(exc).__name__} while reading the answer") from None


def post(target: Target, path: str, headers: dict[str, str], body: bytes, *,
         timeout_s: float, proxy: Optional[Target] = None, ca_file: Optional[str] = None) -> Response:
    """Send ``body`` to ``target`` + ``path`` and return once the status and headers have arrived."""
    context = _tls_context(ca_file) if target.scheme == "https" else None
    host, port = (proxy.host, proxy.port) if proxy else (target.host, target.port)
    if context is not None:
        connection = http.client.HTTPSConnection(host, port, timeout=timeout_s, context=context)
    else:
        connection = http.client.HTTPConnection(host, port, timeout=timeout_s)
    url = path
    if proxy is not None and context is not None:
        connection.set_tunnel(target.host, target.port)   # CONNECT, then TLS to the target
    elif proxy is not None:
        url = target.url(path)                            # absolute form through an http proxy
    try:
        connection.request("POST", url, body=body, headers=headers)
        response = connection.getresponse()
    except ssl.SSLCertVerificationError as exc:
        connection.close()
        raise GatewayError("GATEWAY_TLS", f"certificate not accepted ({exc.verify_message})") from None
    except (OSError, http.client.HTTPException) as exc:
        connection.close()
        via = f" via proxy {proxy.host}" if proxy else ""
        raise GatewayError("GATEWAY_UNREACHABLE", f"{type(exc).__name__}{via}: {exc}") from None
    return Response(connection, response)


def _tls_context(ca_file: Optional[str]) -> ssl.SSLContext:
    """The system's trusted certificates, plus the organisation's CA file when one is set."""
    try:
        return ssl.create_default_context(cafile=ca_file or None)
    except (OSError, ssl.SSLError) as exc:
        raise GatewayError("GATEWAY_TLS", f"CA file not usable ({type(exc).__name__})") from None
