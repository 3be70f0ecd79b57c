"""Noda Desktop application entry points: the `noda` CLI and the `noda-desktop` window."""
from engine import __version__  # noqa: F401  (one version for the whole app)
