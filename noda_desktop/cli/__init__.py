"""The `noda` command line: the same engine calls the window makes, printed as Korean text or JSON.

One module per group of commands — ``files`` (parse, chunk: one file or folder, no cache), ``folder``
(documents, search and the plumbing every folder command shares), ``answers`` (answer, view, context,
verify), ``cache`` (purge), ``servers`` (serve, mcp, gateway status) — and ``commands``, the argparse table
that wires them. Its words are in engine/wording/cli.py.
"""
from __future__ import annotations

from noda_desktop.cli.commands import build_parser, main
from noda_desktop.cli.files import parse_each as _parse_each  # noqa: F401  (tests read files through it)

__all__ = ["build_parser", "main"]
