"""noda serve, noda mcp and noda gateway status: the local API, the MCP server, and where question text would go."""
from __future__ import annotations

from engine import wording
from noda_desktop.cli.output import print_json

say = wording.cli


def cmd_serve(args) -> int:
    """noda serve [FOLDER…] [--port N] [--host H --key K] [--print-token]: the local HTTP API (noda_desktop/serve.py)."""
    from noda_desktop.serve import cmd_serve as serve
    return serve(args)


def cmd_mcp(args) -> int:
    """noda mcp [FOLDER…]: the MCP server over stdio (noda_desktop/mcp_server.py)."""
    from noda_desktop.mcp_server import cmd_mcp as serve
    return serve(args)


def cmd_gateway(args) -> int:
    """noda gateway status [--json]: where question text would go, if anywhere (never the key)."""
    from engine.gateway import Gateway
    from noda_desktop.paths import config_dir

    info = Gateway.load(config_dir()).describe()
    if args.json:
        print_json(info, indent=1)
    elif info["enabled"]:
        key = say.KEY_PRESENT if info["key"] else say.KEY_ABSENT
        print(say.gateway_on(endpoint=info["endpoint"], model=info["model"], key=key))
        if info["proxy"]:
            print(say.gateway_proxy(proxy=info["proxy"]))
    else:
        print(say.gateway_off(why=info["reason_text"]))
    return 0
