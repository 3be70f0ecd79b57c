"""The local API inside the window's engine process, over the window's own Tenants (no Qt here).

When 설정 ▸ "다른 프로그램이 노다를 쓰도록 허용" is on, the window asks its engine
process (ui/engine_host.py) to serve the same HTTP API as ``noda serve`` over
the folders it has open: the index is shared and already warm, and the
window's folder watcher keeps it current. Folders are added and removed in
the window only.
"""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable, Optional

from engine.api import Registry
from noda_desktop.paths import TOKEN_FILE
from noda_desktop.serve import ApiServer, api_app


class HostedApi:
    def __init__(self, tenant_for: Callable[[str, dict], object]):
        """``tenant_for(folder, tenant_kwargs)``: the engine process's Tenant of a folder."""
        self.tenant_for = tenant_for
        self.server: Optional[ApiServer] = None
        self.registry: Optional[Registry] = None
        self.port: Optional[int] = None
        self._lock = threading.Lock()      # the window may ask twice at once (setting on, a folder added)

    def serve(self, port: int, folders: list[str], tenant_kwargs: dict, config_dir: str) -> int:
        """Serve ``folders`` on 127.0.0.1:``port`` (started once; later calls update the folders); the port.

        ``config_dir`` is the window's: the gateway settings and the user's token file are there.
        Raises OSError when the port cannot be taken."""
        with self._lock:
            return self._serve(port, folders, tenant_kwargs, config_dir)

    def _serve(self, port: int, folders: list[str], tenant_kwargs: dict, config_dir: str) -> int:
        if self.server is not None and self.port != port:
            self._stop()
        if self.server is None:
            registry = Registry(folders, open_tenant=lambda folder: self.tenant_for(str(folder), tenant_kwargs),
                                config_dir=Path(config_dir), editable=False, owns_tenants=False)
            server = ApiServer(api_app(registry, token_file=Path(config_dir) / TOKEN_FILE), "127.0.0.1", port)
            try:
                server.start()
            except OSError:
                registry.close()
                raise
            self.server, self.registry, self.port = server, registry, server.port
        else:
            self.registry.set_folders(folders)
        return self.port

    def stop(self) -> None:
        with self._lock:
            self._stop()

    def _stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.registry.close()
        self.server = self.registry = self.port = None
