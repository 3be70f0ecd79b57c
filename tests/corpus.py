"""Access to the shared real-document corpus (../shared/corpus) and its ground truth."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("NODA_SHARED") or ROOT.parent / "shared")
CORPUS = SHARED / "corpus"

# truth reason -> reasons of ours that agree with it
REASON_MATCH = {
    None: {None},
    "PASSWORD": {"PASSWORD_PROTECTED"},
    "DRM": {"DRM_ENCRYPTED"},
    "CORRUPT": {"CORRUPT"},
    "UNSUPPORTED_VERSION": {"UNSUPPORTED_VERSION", "PASSWORD_PROTECTED"},
}


def truth_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.glob("*.truth.json"))


def load_truth(truth_path: Path) -> dict:
    return json.loads(truth_path.read_text(encoding="utf-8"))


def document_of(truth_path: Path) -> Path:
    return truth_path.with_name(truth_path.name[: -len(".truth.json")])


def squash(text: str) -> str:
    """Collapse whitespace runs to one space (the corpus' matching rule)."""
    return re.sub(r"\s+", " ", text).strip()


def corpus_params(formats: set[str]):
    """pytest params (document path, truth) for corpus files whose truth format is in ``formats``."""
    out = []
    for t in truth_files():
        truth = load_truth(t)
        fmt = truth.get("format")
        if fmt in formats:
            out.append(pytest.param(document_of(t), truth, id=document_of(t).name))
    return out


requires_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"shared corpus not found at {CORPUS}")
