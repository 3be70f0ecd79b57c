"""`noda serve [FOLDER…]`: the local HTTP API on 127.0.0.1, warm and token-protected.

Without folders it serves the folders saved in the window (and then folders
added or removed through the API are saved there too). The server reads
every folder and loads the Korean analyser at start, so questions are
answered from a warm index; changed files are read before the next answer
(engine/api/registry.py). ``ApiServer`` is also what the window's engine
process runs when 설정 ▸ "다른 프로그램이 노다를 쓰도록 허용" is on.
"""
from __future__ import annotations

import os
import socket
import sys
import threading
from pathlib import Path
from typing import Optional

from engine import wording
from engine.api import Registry
from engine.api.usage import Usage
from noda_desktop import paths
from noda_desktop import settings as settings_store
from noda_desktop.api_access import MIN_KEY_CHARS, Keys, is_loopback, load_or_create_token
from noda_desktop.paths import token_path

DEFAULT_PORT = 8756
STOP_WAIT_S = 10.0


def usage_path() -> Path:
    """The usage log (``NODA_USAGE_LOG`` overrides): one JSON line per request, no document text."""
    return Path(os.environ.get("NODA_USAGE_LOG") or paths.cache_dir() / "usage.jsonl")


def saved_registry(folders=(), *, editable: bool = True) -> Registry:
    """A watching registry over ``folders``, or the window's saved folders (kept in step with add/remove).

    Tenants use the window's cache folder and parse limits, so both share one parse cache and index.
    """
    saved = settings_store.load()

    def open_tenant(folder: Path):
        from engine.library.tenant import Tenant
        return Tenant(folder, cache_root=saved.cache_root(), limits=saved.parse_limits())

    def remember(current: list[Path]) -> None:
        fresh = settings_store.load()
        fresh.folders = [str(f) for f in current]
        settings_store.save(fresh)

    return Registry(folders or saved.folders, open_tenant=open_tenant, watch=True, config_dir=paths.config_dir(),
                    on_change=None if folders else remember, editable=editable)


def warm_up(registry: Registry) -> None:
    """Load the Korean analyser and read every folder (on a thread of its own)."""
    from engine.search.analyzer import korean_terms

    def work() -> None:
        korean_terms("준비")
        registry.warm()

    threading.Thread(target=work, name="noda-api-warm-up", daemon=True).start()


class ApiServer:
    """uvicorn serving an app on a socket bound at once (a busy port fails in ``bind``, not later)."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = DEFAULT_PORT):
        import uvicorn

        self.host = host
        self.config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                                     lifespan="off", timeout_graceful_shutdown=5)
        self.server = uvicorn.Server(self.config)
        self.socket: Optional[socket.socket] = None
        self.thread: Optional[threading.Thread] = None

    @property
    def port(self) -> int:
        return self.socket.getsockname()[1]

    def bind(self) -> None:
        """Take the port and listen now; raises OSError when it is in use or the address is not ours."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        if os.name == "nt":   # Windows: no other program may bind the same port beside us
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        else:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.config.port))
            sock.listen(128)     # connections wait in the backlog until uvicorn takes over
        except OSError:
            sock.close()
            raise
        self.socket = sock

    def serve_forever(self) -> None:
        """Serve on this thread until Ctrl+C (or ``stop``)."""
        if self.socket is None:
            self.bind()
        self.server.run(sockets=[self.socket])

    def start(self) -> None:
        """Bind, then serve on a thread of its own."""
        self.bind()
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]},
                                       name="noda-api", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(STOP_WAIT_S)
        if self.socket is not None:
            self.socket.close()


def api_app(registry: Registry, key: Optional[str] = None, any_host: bool = False, token_file: Optional[Path] = None):
    """The HTTP app over ``registry`` with the user's token (and ``key``), logging to ``usage_path()``."""
    from noda_desktop.http_api import build_app
    return build_app(registry, Keys(load_or_create_token(token_file), key), Usage(usage_path()), any_host=any_host)


def cmd_serve(args) -> int:
    """noda serve [FOLDER…] [--port N] [--host H --key K] [--print-token]"""
    if args.print_token:
        print(load_or_create_token())
        return 0
    key = args.key or os.environ.get("NODA_API_KEY") or None
    host = args.host or "127.0.0.1"
    public = not is_loopback(host)
    if public and not (args.host and key and len(key) >= MIN_KEY_CHARS):
        print(wording.api_text("public_refused", host=host), file=sys.stderr)
        return 2
    registry = saved_registry(args.folders)
    server = ApiServer(api_app(registry, key, any_host=public), host, args.port)
    try:
        server.bind()
    except OSError as exc:
        print(wording.api_text("port_busy", port=args.port, error=exc.strerror or exc), file=sys.stderr)
        registry.close()
        return 2
    names = registry.names()
    if not names:
        print(wording.api_text("no_folders"), file=sys.stderr)
    print(wording.api_text("serving", host=host, port=server.port, count=len(names), tenants=", ".join(names)),
          file=sys.stderr, flush=True)
    print(wording.api_text("token_file", path=token_path()), file=sys.stderr, flush=True)
    warm_up(registry)
    try:
        server.serve_forever()
    finally:
        registry.close()
    return 0

