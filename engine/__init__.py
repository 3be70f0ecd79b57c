"""Noda engine: reads office documents into one Document contract. Never imports Qt."""
from engine.model import Document, SCHEMA_VERSION  # noqa: F401

__version__ = "0.1.0"
