"""HWPML (.hml, and laws served as .hwp that are HWPML): paragraphs, tables, notes, encodings, bad XML."""
from engine.read.detect import detect
from engine.read.parse import parse_bytes

LAW = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE HWPML [
\t<!ENTITY nbsp\t"&#160;">
]>
<HWPML Version="2.1"><HEAD SecCnt="1"><DOCSUMMARY><TITLE>재난안전제품 인증제도 운영규정</TITLE></DOCSUMMARY></HEAD>
<BODY><SECTION Id="0">
<P ParaShape="0"><TEXT CharShape="0"><SECDEF/><CHAR>제1조(목적) 이 규정은&nbsp;인증제도 운영을 목적으로 한다.</CHAR></TEXT></P>
<P><TEXT><CHAR>표 앞 글</CHAR><TABLE RowCount="2" ColCount="2"><SHAPEOBJECT><CAPTION><PARALIST><P><TEXT><CHAR>인증 수수료</CHAR></TEXT></P></PARALIST></CAPTION></SHAPEOBJECT>
<ROW><CELL ColAddr="0" RowAddr="0" ColSpan="2" RowSpan="1"><PARALIST><P><TEXT><CHAR>수수료 표</CHAR></TEXT></P></PARALIST></CELL></ROW>
<ROW><CELL ColAddr="0" RowAddr="1"><PARALIST><P><TEXT><CHAR>신규</CHAR></TEXT></P></PARALIST></CELL><CELL ColAddr="1" RowAddr="1"><PARALIST><P><TEXT><CHAR>10<TAB/>만원</CHAR></TEXT></P></PARALIST></CELL></ROW></TABLE>
<FOOTNOTE><PARALIST><P><TEXT><CHAR>2018. 4. 26. 개정</CHAR></TEXT></P></PARALIST></FOOTNOTE><HIDDENCOMMENT><PARALIST><P><TEXT><CHAR>숨은 설명은 본문이 아님</CHAR></TEXT></P></PARALIST></HIDDENCOMMENT></TEXT></P>
</SECTION></BODY></HWPML>"""


def _read(data: bytes, name: str = "규정.hml"):
    [doc] = parse_bytes(data, name)
    return doc


def test_an_hml_reads_paragraphs_tables_captions_and_footnotes_not_hidden_comments():
    doc = _read(LAW.encode("utf-8"))
    assert doc.access.readable and doc.source.format == "hml"
    assert doc.structure.title == "재난안전제품 인증제도 운영규정"
    kinds = [(b.type, b.text) for b in doc.blocks]
    assert ("paragraph", "제1조(목적) 이 규정은\u00a0인증제도 운영을 목적으로 한다.") in kinds
    assert ("caption", "인증 수수료") in kinds and ("footnote", "2018. 4. 26. 개정") in kinds
    assert "숨은 설명" not in doc.all_text()
    [table] = doc.tables
    assert table.grid() == [["수수료 표", ""], ["신규", "10\t만원"]] and table.cells[0].col_span == 2


def test_a_law_served_as_hwp_that_is_hwpml_is_read_and_utf16_too():
    as_hwp = _read(LAW.encode("utf-8"), "법령.hwp")
    assert as_hwp.access.readable and as_hwp.source.format == "hml"
    assert "EXTENSION_MISMATCH" in as_hwp.warning_codes()
    utf16 = _read(LAW.replace('encoding="utf-8"', 'encoding="utf-16"').encode("utf-16"))
    assert [b.text for b in utf16.blocks] == [b.text for b in as_hwp.blocks]


def test_xml_that_is_not_hwpml_is_not_hwpml():
    assert detect(b'<?xml version="1.0"?><html><body>HWPML</body></html>').format == "text"
    assert detect(b"<!-- HWPML --><HWPMLX/>").format == "text"


def test_broken_or_hostile_hwpml_has_a_reason():
    assert _read(b"<HWPML><BODY><SECTION><P><TEXT><CHAR>cut").access.reason == "CORRUPT"
    laughs = "".join(f'<!ENTITY e{i} "{"&e%d;" % (i - 1) * 10 if i else "lol" * 10}">' for i in range(9))
    bomb = f'<?xml version="1.0"?><!DOCTYPE HWPML [{laughs}]><HWPML><BODY><SECTION><P><TEXT>' \
           f'<CHAR>&e8;</CHAR></TEXT></P></SECTION></BODY></HWPML>'
    doc = _read(bomb.encode())
    assert not doc.access.readable and doc.access.reason == "CORRUPT"
    assert _read(b"<HWPML><BODY></BODY></HWPML>").access.reason == "EMPTY"
