"""The LLM gateway: the only part of the engine that talks to a network, and only to an internal host.

Use ``Gateway.load()`` for the administrator's saved settings; it stays off
(``enabled`` false) until they name a base URL on the internal network.
"""
from engine.gateway.client import Gateway
from engine.gateway.config import GatewayConfig, load_config, load_key, save_config, save_key
from engine.gateway.events import GatewayError, Reply, Stop, Text, Usage

__all__ = ["Gateway", "GatewayConfig", "GatewayError", "Reply", "Stop", "Text", "Usage",
           "load_config", "load_key", "save_config", "save_key"]
