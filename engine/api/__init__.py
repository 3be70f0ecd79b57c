"""The engine's one face for other programs: routes without HTTP over the served folders.

``handle(registry, action, body) -> (status, payload)`` (engine/api/routes.py)
is what ``noda serve``, ``noda mcp``, the window's hosted server and the CLI's
folder commands call; ``Registry`` (engine/api/registry.py) names the folders.
"""
from engine.api.registry import Registry
from engine.api.routes import ROUTES, ApiError, handle

__all__ = ["ROUTES", "ApiError", "Registry", "handle"]
