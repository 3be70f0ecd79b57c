"""Adapter for the KorQuAD dev bench (shared/bench/korquad_dev/run_bench.py).

    cd ../shared/bench/korquad_dev
    python run_bench.py --build-dir /tmp/kq_dev_build \
        --adapter /path/to/bench/korquad.py:search [--layout mixed] [--adapter-arg budget=1000]

setup() reads every article the way the app does: .txt articles (title line,
blank-line paragraphs) become Documents here, .docx/.pdf go through
engine.read.parse; then chunk_document + ChunkIndex, in a temporary directory
(or --adapter-arg index=DIR). search() returns the top 10 chunks (as the
index ranks them, re-ranking included) with the file name; there is no
answer extraction here, so the runner scores the top-1 chunk as the answer.

Tune on questions outside the 300 of the dev sample (a copy of the bench
folder with "sample_size": 0, see its README); the project is scored on a
held-out set of other articles.
"""
from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.search.chunking import DEFAULT_BUDGET, chunk_document  # noqa: E402
from engine.search.index import ChunkIndex  # noqa: E402
from engine.model import Document, Source  # noqa: E402
from engine.read.formats.base import DocumentBuilder  # noqa: E402
from engine.read.parse import parse_path  # noqa: E402

_STATE: dict = {}


def text_document(path: Path) -> Document:
    """A bench .txt article as a Document: first paragraph the title, then paragraphs."""
    raw = path.read_text(encoding="utf-8")
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", raw) if p.strip()]
    doc = Document(doc_id=f"txt:{path.name}", source=Source(path.name, "txt", len(raw.encode())))
    builder = DocumentBuilder(doc, "text")
    if paragraphs:
        builder.set_title(paragraphs[0])
        builder.add_block("title", paragraphs[0])
    for p in paragraphs[1:]:
        builder.add_block("paragraph", p)
    return doc


def setup(corpus_dir: str, budget: str = str(DEFAULT_BUDGET), index: str = "", **_ignored) -> None:
    """Read, chunk and index every article under ``corpus_dir``."""
    if not index:  # removed when the process ends
        _STATE["tmp"] = tempfile.TemporaryDirectory(prefix="noda_kq_")
    directory = Path(index or _STATE["tmp"].name)
    ix = ChunkIndex(directory)
    items, unreadable = [], []
    for path in sorted(Path(corpus_dir).rglob("*")):
        if not path.is_file():
            continue
        docs = [text_document(path)] if path.suffix == ".txt" else parse_path(str(path))
        for doc in docs:
            if not doc.access.readable:
                unreadable.append(f"{path.name}: {doc.access.reason}")
            items.append((path.name, doc, chunk_document(doc, int(budget))))
    ix.replace_documents(items)
    if unreadable:
        print(f"[korquad] {len(unreadable)} unreadable: {unreadable[:5]}", file=sys.stderr)
    print(f"[korquad] {len(items)} documents, {ix.chunk_count()} chunks in {directory}",
          file=sys.stderr)
    _STATE["index"] = ix


def search(question: str) -> dict:
    """Top 10 chunks for a question, as {"results": [{"text", "doc"}]}."""
    hits = _STATE["index"].search(question, limit=10)
    return {"results": [{"text": h["text"], "doc": h["filename"]} for h in hits]}
