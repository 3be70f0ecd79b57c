"""The Document contract: what the engine knows about one file.

Every reader fills the same shape, readable or not. The JSON form is the
contract shared by the CLI, the window, the cache and the tests; it is
described in docs/schema.md. ``Document.from_dict(doc.to_dict())`` gives
back an equal Document (lossless round trip).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any, Optional

from engine import jsonout

SCHEMA_VERSION = "0.1"

BBox = list  # [x0, y0, x1, y1] in PDF points (72 per inch), origin top-left


@dataclass
class Source:
    filename: str
    format: str
    bytes: int
    pages: Optional[int] = None
    sha256: Optional[str] = None
    container_path: list[str] = field(default_factory=list)


@dataclass
class Access:
    readable: bool = True
    drm: bool = False
    drm_vendor: Optional[str] = None
    password_protected: bool = False
    reason: Optional[str] = None
    reason_text: Optional[str] = None
    distribution: bool = False


# Extractors whose text breaks lines where the page did, and a paragraph where a page or column ends (PDF, OCR).
PAGE_WRAPPED_EXTRACTORS = ("pymupdf", "ocr")


@dataclass
class Block:
    """One piece of text in reading order (paragraph, heading, table, note …)."""

    id: str
    type: str
    text: str
    page: Optional[int] = None
    bbox: Optional[list[float]] = None
    parent: Optional[str] = None
    level: Optional[int] = None
    extractor: str = ""
    confidence: float = 1.0


@dataclass
class Cell:
    row: int
    col: int
    text: str
    row_span: int = 1
    col_span: int = 1
    page: Optional[int] = None
    bbox: Optional[list[float]] = None
    cell_range: Optional[str] = None


@dataclass
class Table:
    """A grid. ``block`` is the id of the table's block in ``blocks``.

    A nested table names its enclosing table in ``parent`` and the
    enclosing cell as ``parent_cell`` ([row, col]).
    """

    id: str
    block: str
    rows: int
    cols: int
    cells: list[Cell] = field(default_factory=list)
    page: Optional[int] = None
    bbox: Optional[list[float]] = None
    parent: Optional[str] = None
    parent_cell: Optional[list[int]] = None
    cell_range: Optional[str] = None

    def grid(self) -> list[list[str]]:
        """Rows of cell texts; a merged cell's text sits at its top-left slot."""
        out = [["" for _ in range(self.cols)] for _ in range(self.rows)]
        for c in self.cells:
            if 0 <= c.row < self.rows and 0 <= c.col < self.cols:
                out[c.row][c.col] = c.text
        return out


@dataclass
class Warning:
    code: str
    text: str


@dataclass
class Structure:
    title: Optional[str] = None
    doc_number: Optional[str] = None
    issued_date: Optional[str] = None
    issuer: Optional[str] = None
    recipient: Optional[str] = None
    recipients: list[str] = field(default_factory=list)
    department: Optional[str] = None     # 담당 부서, as written
    contact: Optional[str] = None        # 담당자 (or 책임자, 문의), as written
    phone: Optional[str] = None          # 연락처
    release: Optional[str] = None        # 보도 시점 (a press release's embargo), as written
    sections: list[Any] = field(default_factory=list)
    attachments: list[Any] = field(default_factory=list)
    revisions: list[Any] = field(default_factory=list)


@dataclass
class Metrics:
    parse_ms: int = 0
    extractor_mix: dict[str, float] = field(default_factory=dict)


@dataclass
class Document:
    doc_id: Optional[str]
    source: Source
    access: Access = field(default_factory=Access)
    blocks: list[Block] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    structure: Structure = field(default_factory=Structure)
    warnings: list[Warning] = field(default_factory=list)
    metrics: Metrics = field(default_factory=Metrics)
    acl: Optional[Any] = None
    schema_version: str = SCHEMA_VERSION

    # ---- convenience -------------------------------------------------
    @property
    def readable(self) -> bool:
        return self.access.readable

    @property
    def reason(self) -> Optional[str]:
        return self.access.reason

    def warning_codes(self) -> list[str]:
        return [w.code for w in self.warnings]

    def all_text(self) -> str:
        """Every block's text followed by every cell's text, newline separated."""
        parts = [b.text for b in self.blocks if b.text]
        parts += [c.text for t in self.tables for c in t.cells if c.text]
        return "\n".join(parts)

    # ---- JSON --------------------------------------------------------
    def to_dict(self) -> dict:
        d = _plain(self)
        order = ["doc_id", "schema_version", "source", "access", "blocks", "tables",
                 "structure", "warnings", "metrics", "acl"]
        return {k: d[k] for k in order}

    def to_json(self, indent: Optional[int] = None) -> str:
        return jsonout.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, d: dict) -> "Document":
        tables = []
        for t in d.get("tables", []):
            t = dict(t)
            t["cells"] = [_build(Cell, c) for c in t.get("cells", [])]
            tables.append(_build(Table, t))
        return cls(
            doc_id=d.get("doc_id"),
            schema_version=d.get("schema_version", SCHEMA_VERSION),
            source=_build(Source, d["source"]),
            access=_build(Access, d.get("access", {})),
            blocks=[_build(Block, b) for b in d.get("blocks", [])],
            tables=tables,
            structure=_build(Structure, d.get("structure", {})),
            warnings=[_build(Warning, w) for w in d.get("warnings", [])],
            metrics=_build(Metrics, d.get("metrics", {})),
            acl=d.get("acl"),
        )

    @classmethod
    def from_json(cls, text: str) -> "Document":
        return cls.from_dict(json.loads(text))


def _plain(value: Any) -> Any:
    """``dataclasses.asdict`` without its deep copy of every leaf (a third of a worker's time on
    large documents): dataclasses become dicts, lists, tuples and dicts are walked, and the
    leaves, all immutable here (str, int, float, bool, None), are kept as they are."""
    names = _FIELD_NAMES.get(type(value))
    if names is None and hasattr(type(value), "__dataclass_fields__"):
        names = _FIELD_NAMES[type(value)] = tuple(f.name for f in fields(value))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _build(kind, data: dict):
    """Make a dataclass from a dict, ignoring keys the class does not know."""
    names = _KNOWN.get(kind)
    if names is None:   # once per class: reading a large document builds hundreds of thousands
        names = _KNOWN[kind] = frozenset(f.name for f in fields(kind))
    return kind(**{k: v for k, v in data.items() if k in names})


_KNOWN: dict[type, frozenset[str]] = {}
