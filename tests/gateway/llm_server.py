"""A scripted model server on loopback for the gateway tests (real HTTP, stdlib only).

Each request takes the next ``Answer`` from the script (the last one repeats)
and is recorded with its arrival time, path, headers and JSON body. Answers
can be JSON, SSE streamed in chunked encoding (optionally cut off mid-way),
or any status with headers.
"""
from __future__ import annotations

import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional


@dataclass
class Answer:
    status: int = 200
    json: Optional[dict] = None
    sse: Optional[list[str]] = None        # raw SSE event texts, each sent as one chunk
    drop_after: Optional[int] = None       # cut the connection after this many SSE events
    headers: dict = field(default_factory=dict)
    text: str = ""


@dataclass
class Received:
    at: float
    method: str
    path: str
    headers: dict
    body: dict


def sse_event(data, event: Optional[str] = None) -> str:
    """One SSE event's text (``data`` dicts are JSON-encoded)."""
    payload = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {payload}\n\n"


class LLMServer:
    """``with LLMServer([Answer(...), ...]) as server:`` — ``server.base`` is its http://127.0.0.1:port."""

    def __init__(self, script: list[Answer], tls: Optional[tuple[str, str]] = None):
        self.script = list(script)
        self.received: list[Received] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                owner.received.append(Received(time.monotonic(), "POST", self.path,
                                               {k.lower(): v for k, v in self.headers.items()}, body))
                answer = owner.script[min(len(owner.received), len(owner.script)) - 1]
                owner.reply(self, answer)

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if tls:                                     # (certificate file, key file): serve https
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self.port = self._server.server_address[1]
        self.base = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    def reply(self, handler: BaseHTTPRequestHandler, answer: Answer) -> None:
        handler.send_response(answer.status)
        for name, value in answer.headers.items():
            handler.send_header(name, value)
        if answer.sse is not None:
            handler.send_header("Content-Type", "text/event-stream")
            handler.send_header("Transfer-Encoding", "chunked")
            handler.end_headers()
            for n, event in enumerate(answer.sse):
                if answer.drop_after is not None and n >= answer.drop_after:
                    handler.wfile.flush()
                    handler.close_connection = True
                    handler.connection.shutdown(2)   # cut off: no closing chunk
                    return
                data = event.encode("utf-8")
                handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                handler.wfile.flush()
            handler.wfile.write(b"0\r\n\r\n")
            return
        data = (json.dumps(answer.json, ensure_ascii=False) if answer.json is not None else answer.text).encode()
        handler.send_header("Content-Type", "application/json" if answer.json is not None else "text/plain")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)

    def __enter__(self) -> "LLMServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


class TunnelProxy:
    """An http proxy that only does CONNECT tunnels; ``targets`` records where each one went."""

    def __init__(self):
        self.targets: list[str] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._tunnel, args=(client,), daemon=True).start()

    def _tunnel(self, client: socket.socket) -> None:
        head = b""
        while b"\r\n\r\n" not in head:
            head += client.recv(4096)
        method, target = head.split(b" ")[:2]
        self.targets.append(f"{method.decode()} {target.decode()}")
        host, port = target.decode().rsplit(":", 1)
        upstream = socket.create_connection((host, int(port)))
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        threading.Thread(target=_pipe, args=(upstream, client), daemon=True).start()
        _pipe(client, upstream)

    def close(self) -> None:
        self._listener.close()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        sink.close()
