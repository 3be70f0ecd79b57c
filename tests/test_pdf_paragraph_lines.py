"""PDF reader: the printed lines of one paragraph are one block, though MuPDF gives each line a block of its
own when the lines stand far apart (한글 exports at 160-175 % line spacing; bench/office/E/README.md, problem 6:
"…수온을 높" then "여 바다생물을 …" as two blocks); list items stay blocks of their own."""
from __future__ import annotations

import pymupdf

from engine.read.parse import parse_bytes

# three printed lines of one paragraph, each as wide as the column, a word ("높여") cut at the first line's end
PARAGRAPH = ["해양수산 분야의 수소 활용은 항만과 연안의 선박에서 먼저 시작되어 바다 수온을 높",
             "여 바다생물을 감소시키는 온실가스 배출을 줄이는 데에도 크게 도움이 될 것으로 보아",
             "기대되며 정부는 관계 부처와 함께 단계별 기술개발 계획을 마련하여 추진하고 있음"]
# two items, the first as wide as the column and without a full stop: only its mark sets the second apart
ITEMS = ["□ 항목 하나는 항만 안에 수소를 들여와 저장하는 공간을 만들고 운영하는 일이며",
         "□ 항목 둘은 연안 어촌에 수소 전력망을 놓는 일"]
SIZE, PITCH = 11, 19     # 1.7 line heights apart, as 한글 sets 170 % line spacing


def _report() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 100
    for line in PARAGRAPH:
        page.insert_text((60, y), line, fontname="korea", fontsize=SIZE)
        y += PITCH
    y += 12
    for line in ITEMS:
        page.insert_text((60, y), line, fontname="korea", fontsize=SIZE)
        y += PITCH
    return doc.tobytes()


def test_mupdf_gives_each_printed_line_a_block():
    page = pymupdf.open(stream=_report(), filetype="pdf")[0]
    assert len([b for b in page.get_text("dict")["blocks"] if b["type"] == 0]) == len(PARAGRAPH) + len(ITEMS)


def test_a_wrapped_paragraph_is_one_block_and_list_items_stay_apart():
    doc = parse_bytes(_report(), "보고서.pdf")[0]
    texts = [b.text for b in doc.blocks if b.type == "paragraph"]
    assert texts == ["\n".join(PARAGRAPH), *ITEMS]      # printed lines kept apart by a newline
    assert "수온을 높\n여 바다생물을" in texts[0]
