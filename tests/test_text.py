"""Plain .txt files are documents: encodings, title, paragraphs, and what text is not."""
import codecs

from engine.library.tenant import Tenant
from engine.read.detect import detect
from engine.read.parse import parse_bytes

ARTICLE = "해외직접투자 동향\n\n2024년 1분기 해외직접투자액은 150억 달러입니다.\n전년 같은 분기보다 늘었습니다.\n\n둘째 문단입니다.\n"


def _read(data: bytes, name: str = "기사.txt"):
    [doc] = parse_bytes(data, name)
    return doc


def test_utf8_article_has_its_first_line_as_title_and_blank_line_paragraphs():
    doc = _read(ARTICLE.encode("utf-8"))
    assert doc.access.readable and doc.source.format == "text"
    assert doc.structure.title == "해외직접투자 동향"
    assert [b.type for b in doc.blocks] == ["title", "paragraph", "paragraph"]
    assert doc.blocks[1].text.startswith("2024년 1분기") and "늘었습니다" in doc.blocks[1].text


def test_cp949_and_euc_kr_and_utf16_read_the_same_text():
    texts = {enc: [b.text for b in _read(ARTICLE.encode(enc)).blocks] for enc in ("cp949", "euc-kr")}
    texts["utf-16"] = [b.text for b in _read(ARTICLE.encode("utf-16")).blocks]   # with its BOM
    texts["utf-8-sig"] = [b.text for b in _read(codecs.BOM_UTF8 + ARTICLE.encode("utf-8")).blocks]
    assert all(blocks == texts["cp949"] for blocks in texts.values())
    assert texts["cp949"][0] == "해외직접투자 동향"


def test_a_long_paragraph_without_blank_lines_is_kept_line_by_line():
    lines = [f"{n}번째 줄에는 업무 내용이 한 문장씩 적혀 있습니다." for n in range(200)]
    doc = _read(("목록\n\n" + "\n".join(lines)).encode("utf-8"))
    assert len(doc.blocks) == 1 + 200
    assert max(len(b.text) for b in doc.blocks) < 100


def test_text_named_like_a_document_we_read_is_a_damaged_document():
    doc = _read(b"ckimage/2018/12", "not-an-hwp.hwp")
    assert not doc.access.readable and doc.access.reason == "CORRUPT"


def test_binary_bytes_are_not_text():
    assert detect(bytes(range(256)) * 8).format == "unknown"
    assert detect("한글".encode("utf-8") + b"\x00\x01\x02").format == "unknown"
    doc = _read(b"\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f" * 50, "x.txt")
    assert not doc.access.readable


def test_an_empty_looking_text_file_is_empty():
    doc = _read(b"\n \n\t\n", "빈.txt")
    assert not doc.access.readable and doc.access.reason == "EMPTY"


def test_a_folder_of_text_files_is_searchable(tmp_path):
    folder = tmp_path / "기사"
    folder.mkdir()
    (folder / "투자.txt").write_bytes(ARTICLE.encode("cp949"))
    (folder / "다른.txt").write_text("날씨\n\n내일은 비가 옵니다.\n", encoding="utf-8")
    tenant = Tenant(folder, cache_root=tmp_path / "cache")
    try:
        hits = tenant.search("해외직접투자액", limit=3)["hits"]
        assert hits and hits[0]["filename"] == "투자.txt"
        assert "150억 달러" in hits[0]["text"]
    finally:
        tenant.close()


def test_text_under_a_data_extension_is_not_a_document():
    for name in ("설정.json", "목록.xml", "공문.docx.truth.json"):
        doc = _read(b'{"key": "value"}', name)
        assert not doc.access.readable and doc.access.reason == "UNSUPPORTED_FORMAT", name
    assert _read("메모\n\n내용".encode("utf-8"), "README").access.readable
