"""Build the sample folder resources/sample/: generated documents plus a few corpus files.

    .venv/bin/python resources/tools/make_sample.py [--corpus ../shared/corpus]

The generated documents (a Korean PDF notice with a table, a DOCX minutes, an
XLSX budget sheet, a password-protected PDF and an empty file) are made here;
the corpus files are copied byte for byte (their licences allow redistribution,
see resources/SAMPLE_NOTICE.md).
"""
from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import docx
import openpyxl
import pymupdf

HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parent / "sample"
FONT_DIR = Path("/usr/share/fonts/truetype/nanum")   # fonts-nanum (OFL); subset into the PDF

# corpus file -> name in the sample folder
CORPUS_FILES = {
    "애국가.docx": "애국가.docx",
    "kordoc_간이기안문_서식.hwpx": "간이기안문_서식.hwpx",
    "nts_서면2팀-1138_접대비.hwp": "국세청_서면2팀-1138_접대비.hwp",
    "moef_2025년2분기_해외직접투자_보도자료(최종).hwpx": "기재부_2025년2분기_해외직접투자_보도자료.hwpx",
    "img_moef_2025년2분기_보도자료_p1.png": "기재부_보도자료_첫쪽.png",
    "nts_010000000000141568_markany-drm.hwp": "문서보안_잠긴문서.hwp",
}

NOTICE_HTML = """
<p style="text-align:right">노다시 공고 제2026-112호</p>
<h1>2026년 청년 창업 지원사업 공고</h1>
<p>노다시는 지역 청년의 창업을 돕기 위하여 「2026년 청년 창업 지원사업」 참여 기업을 다음과 같이 모집합니다.</p>
<h2>1. 지원 대상</h2>
<p>공고일 현재 노다시에 사업장을 둔 만 19세 이상 39세 이하의 예비 창업자 또는 창업 3년 이내 기업 대표</p>
<h2>2. 신청 기간</h2>
<p>신청 기간은 2026년 3월 2일(월)부터 3월 27일(금) 18시까지입니다.</p>
<h2>3. 지원 내용</h2>
<table>
<tr><th>구분</th><th>지원 금액</th><th>선정 규모</th></tr>
<tr><td>예비 창업</td><td>최대 1천만 원</td><td>20개 팀</td></tr>
<tr><td>초기 창업</td><td>최대 3천만 원</td><td>10개 기업</td></tr>
<tr><td>성장 단계</td><td>최대 5천만 원</td><td>5개 기업</td></tr>
</table>
<h2>4. 신청 방법</h2>
<p>신청서와 사업계획서를 노다시 일자리경제과에 방문하거나 우편으로 제출합니다.</p>
<h2>5. 문의처</h2>
<p>노다시 일자리경제과 청년창업팀 (전화 031-000-1234)</p>
<p style="text-align:right">2026년 2월 16일<br>노다시장</p>
"""
NOTICE_CSS = """
* { font-family: nanum; }
@font-face { font-family: nanum; src: url(NanumGothic.ttf); }
@font-face { font-family: nanum; src: url(NanumGothicBold.ttf); font-weight: bold; }
h1 { font-size: 18pt; text-align: center; }
h2 { font-size: 13pt; margin-top: 10pt; }
p, td, th { font-size: 11pt; line-height: 1.5; }
table { border-collapse: collapse; width: 100%; }
td, th { border: 1px solid black; padding: 4pt; }
"""


def write_pdf(html: str, target: Path, password: str | None = None) -> None:
    """An A4 PDF of ``html`` with the Nanum font subset embedded (optionally encrypted)."""
    story = pymupdf.Story(html=html, user_css=NOTICE_CSS, archive=pymupdf.Archive(str(FONT_DIR)))
    raw = target.with_suffix(".raw.pdf")
    writer = pymupdf.DocumentWriter(str(raw))
    page = pymupdf.paper_rect("a4")
    more = True
    while more:
        device = writer.begin_page(page)
        more, _ = story.place(page + (64, 64, -64, -64))
        story.draw(device)
        writer.end_page()
    writer.close()
    doc = pymupdf.open(raw)
    doc.subset_fonts()
    options = {"garbage": 4, "deflate": True}
    if password:
        options.update(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw=password, owner_pw=password + "!")
    doc.save(target, **options)
    doc.close()
    raw.unlink()


def write_docx(target: Path) -> None:
    d = docx.Document()
    d.add_heading("2026년 1분기 업무 조정 회의 결과", level=1)
    d.add_paragraph("일시: 2026년 1월 21일(수) 14:00 / 장소: 노다시청 3층 소회의실")
    d.add_paragraph("참석: 일자리경제과장, 청년창업팀장, 기획예산팀장 외 4명")
    d.add_heading("1. 논의 결과", level=2)
    d.add_paragraph("청년 창업 지원사업 공고는 2월 16일에 내고, 심사위원회는 4월 둘째 주에 연다.")
    d.add_paragraph("사업비 집행 현황은 매월 5일까지 기획예산팀에 알린다.")
    d.add_heading("2. 할 일", level=2)
    rows = [("할 일", "담당", "기한"),
            ("공고문 확정", "청년창업팀", "2월 13일"),
            ("심사위원 위촉", "일자리경제과", "3월 31일"),
            ("집행 현황 보고", "기획예산팀", "매월 5일")]
    table = d.add_table(rows=len(rows), cols=3)
    table.style = "Table Grid"
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    d.core_properties.title = "2026년 1분기 업무 조정 회의 결과"
    d.save(target)


def write_xlsx(target: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "집행현황"
    ws.append(["사업명", "예산(천원)", "집행액(천원)", "집행률"])
    for name, budget, spent in (("청년 창업 지원", 450000, 126000), ("창업 교육", 80000, 41000),
                                ("공유 사무실 운영", 120000, 87500), ("판로 개척 지원", 60000, 9000)):
        ws.append([name, budget, spent, round(spent / budget, 3)])
    ws.append(["합계", 710000, 263500, 0.371])
    wb.save(target)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(HERE.parents[2] / "shared" / "corpus"))
    args = parser.parse_args(argv)
    SAMPLE.mkdir(parents=True, exist_ok=True)
    write_pdf(NOTICE_HTML, SAMPLE / "청년창업_지원사업_공고.pdf")
    write_pdf(NOTICE_HTML, SAMPLE / "암호_걸린_공고.pdf", password="1234")
    write_docx(SAMPLE / "업무조정회의_결과.docx")
    write_xlsx(SAMPLE / "사업비_집행현황.xlsx")
    (SAMPLE / "빈_파일.hwpx").write_bytes(b"")
    for source, name in CORPUS_FILES.items():
        shutil.copyfile(Path(args.corpus) / source, SAMPLE / name)
    total = sum(p.stat().st_size for p in SAMPLE.iterdir() if p.is_file())
    print(f"{SAMPLE}: {total / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
