"""Do the review warnings mark documents that are read less accurately? Measured on the shared corpus.

    .venv/bin/python bench/review_warnings.py

Every readable corpus document is parsed; its accuracy is the share of its
truth snippets found in its text (the corpus rule: whitespace runs squashed;
OCR text also without spaces) — ``recall`` — and, stricter, the share found
inside one block or one table cell, as the truth took them — ``unit_recall``
(text from two columns run together breaks those). For each warning code the
readers or engine/read/review.py raise, the documents carrying it are compared with
the rest. A warning earns its place in ``needs_review`` when its documents are
less accurate on either measure.
"""
from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("NODA_SHARED") or ROOT.parent / "shared") / "corpus"
MEASURES = ("recall", "strict_recall", "unit_recall", "order")
# The review set before it was measured (every warning the seed describes), for the before/after figure.
BEFORE_REVIEW_CODES = frozenset({"LAYOUT_SIDE_BY_SIDE", "TABLE_MAY_BE_SPLIT", "OCR_TEXT", "PAGES_WITHOUT_TEXT",
                                 "FORMULA_NOT_CACHED", "TRUNCATED"})


def _squash(text: str) -> str:
    return " ".join(text.split())


def accuracy(doc, snippets: list[str], table_snippets: list[str]) -> dict[str, float]:
    """recall over the whole text; ``strict_recall`` the same without the no-space allowance OCR text
    gets; ``unit_recall`` inside single blocks or cells; ``order`` the share of consecutive body
    snippets (the truth lists them in reading order) found in that order."""
    whole = _squash(doc.all_text())
    bare = "".join(whole.split())
    ocr = any(b.extractor == "ocr" for b in doc.blocks)
    units = [_squash(b.text) for b in doc.blocks if b.type != "table"]
    units += [_squash(c.text) for t in doc.tables for c in t.cells]
    found = strict = unit_found = 0
    for snippet in snippets:
        s = _squash(snippet)
        strict += s in whole
        if s in whole or (ocr and "".join(s.split()) in bare):
            found += 1
        if any(s in u for u in units) or (ocr and any("".join(s.split()) in "".join(u.split()) for u in units)):
            unit_found += 1
    body = [_squash(s) for s in snippets if s not in table_snippets]
    places = [p for p in (whole.find(s) for s in body) if p >= 0]
    pairs = list(zip(places, places[1:]))
    return {"recall": found / len(snippets), "strict_recall": strict / len(snippets),
            "unit_recall": unit_found / len(snippets),
            "order": sum(b > a for a, b in pairs) / len(pairs) if pairs else 1.0}


def main() -> None:
    from engine.read.parse import parse_path
    from engine.read.review import review_warnings

    from engine.library.tenant import REVIEW_CODES

    rows = []
    review = {"before": 0, "after": 0, "files": 0}
    for truth_path in sorted(CORPUS.glob("*.truth.json")):
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
        snippets = truth.get("snippets") or []
        doc = parse_path(str(truth_path.with_name(truth_path.name[:-len(".truth.json")])))[0]
        codes = set(doc.warning_codes()) | set(review_warnings(doc))
        review["files"] += 1
        review["before"] += not doc.access.readable or bool(codes & BEFORE_REVIEW_CODES)
        review["after"] += not doc.access.readable or bool(codes & REVIEW_CODES)
        if not truth.get("readable") or not snippets:
            continue
        rows.append({"file": doc.source.filename, "format": doc.source.format, "codes": sorted(codes),
                     **accuracy(doc, snippets, truth.get("table_snippets") or [])})
    report = {"documents": len(rows), "warnings": {},
              "needs_review": review, "document_ready_rate": {
                  k: round(1 - review[k] / review["files"], 3) for k in ("before", "after")}}
    for code in sorted({c for r in rows for c in r["codes"]}):
        flagged = [r for r in rows if code in r["codes"]]
        quiet = [r for r in rows if code not in r["codes"]]
        entry = {"flagged": len(flagged), "unflagged": len(quiet)}
        for measure in MEASURES:
            entry[measure] = [round(statistics.mean(r[measure] for r in group), 3) if group else None
                              for group in (flagged, quiet)]
        entry["less_accurate"] = any(entry[m][0] is not None and entry[m][1] is not None
                                     and entry[m][0] < entry[m][1] for m in MEASURES)
        entry["files"] = [r["file"] for r in flagged][:8]
        entry["flagged_rows"] = [{k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()
                                  if k in MEASURES + ("file",)} for r in flagged if len(flagged) <= 4]
        report["warnings"][code] = entry
    print(json.dumps(report, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
