"""The Document contract: JSON round trip and field names of seed 004's /parse answer."""
from engine.model import Access, Block, Cell, Document, Source, Table, Warning
from engine.read.parse import parse_bytes


def _sample() -> Document:
    doc = Document(doc_id="sha256:ab", source=Source("공고.hwpx", "hwpx", 10, 3, "ab", ["자료.zip"]))
    doc.blocks.append(Block("b00001", "paragraph", "신청기간은 8월 28일까지다.", 3, [72.0, 640.1, 523.4, 655.9],
                            None, None, "hwpx-native", 1.0))
    doc.tables.append(Table("t0001", "b00002", 2, 2, [Cell(0, 0, "구분", 1, 2, cell_range="시트1!A1:B1")]))
    doc.warnings.append(Warning("PAGE_APPROXIMATE", "쪽 번호는 어림값"))
    doc.access = Access(readable=True)
    doc.structure.title = "2026년 지원사업 공고"
    return doc


def test_json_round_trip_is_lossless():
    doc = _sample()
    again = Document.from_json(doc.to_json())
    assert again == doc
    assert again.to_dict() == doc.to_dict()


def test_top_level_fields_follow_the_contract():
    d = _sample().to_dict()
    assert list(d) == ["doc_id", "schema_version", "source", "access", "blocks", "tables", "structure",
                       "warnings", "metrics", "acl"]
    assert set(d["source"]) >= {"filename", "format", "bytes", "pages", "sha256", "container_path"}
    assert set(d["access"]) >= {"readable", "drm", "drm_vendor", "password_protected", "reason"}
    assert set(d["blocks"][0]) == {"id", "type", "text", "page", "bbox", "parent", "level", "extractor", "confidence"}
    assert set(d["structure"]) == {"title", "doc_number", "issued_date", "issuer", "recipient", "recipients",
                                   "department", "contact", "phone", "release",
                                   "sections", "attachments", "revisions"}
    assert set(d["metrics"]) == {"parse_ms", "extractor_mix"}


def test_doc_id_is_sha256_of_bytes():
    import hashlib
    data = b"just some text that is not a document"
    doc = parse_bytes(data, "메모.txt")[0]
    assert doc.doc_id == "sha256:" + hashlib.sha256(data).hexdigest()
    assert doc.access.readable and doc.source.format == "text"
