"""The window's parts on their own: settings, runners, page view, passage, printing, watcher, dialogs."""
from __future__ import annotations

import threading

import pymupdf
import pytest
from PySide6.QtGui import QColor, QImage

from engine import wording
from engine.limits import DEFAULT_LIMITS
from noda_desktop import settings as settings_store
from noda_desktop.settings import Settings
from tests.gui.samples import pdf_bytes
from ui import answer_render, printing, report, texts
from ui.evidence_view import EvidenceView, PageView, passage_html
from ui.pages import render_pages
from ui.runners import SyncRunner, ThreadPoolRunner
from ui.settings_dialog import SettingsDialog
from ui.watcher import FolderWatcher

ANSWER = {
    "question": "신청 기간은 언제인가?", "answered": True, "reason": None, "made_by": "발췌 (LLM 없음)",
    "skipped": [{"filename": "빈파일.hwpx", "readable": False, "reason": "EMPTY",
                 "reason_text": wording.reason_text("EMPTY")}],
    "text": "신청 기간은 2026년 3월 2일부터 3월 27일까지입니다.",
    "lines": [{"text": "신청 기간은 2026년 3월 2일부터 3월 27일까지입니다.", "citation": 1}],
    "citations": [{"n": 1, "chunk_id": "c0001", "doc_id": "sha256:x", "filename": "공고.pdf",
                   "quote": "신청 기간은 2026년 3월 2일부터 3월 27일까지입니다.", "path": ["공고"], "outline": [],
                   "anchors": [{"page": 1, "bbox": [60.0, 100.0, 400.0, 115.0], "cell_range": None}],
                   "extractors": ["pymupdf", "ocr-tesseract"], "revisions": []}],
}


def test_settings_round_trip_and_broken_file(tmp_path):
    s = Settings(folders=["/a"], limits={"max_pdf_pages": 10, "nonsense": 3})
    settings_store.save(s)
    loaded = settings_store.load()
    assert loaded.folders == ["/a"]
    assert loaded.parse_limits().max_pdf_pages == 10
    assert loaded.parse_limits().max_file_bytes == DEFAULT_LIMITS.max_file_bytes
    assert not loaded.add_folder("/a") and loaded.add_folder("/b")
    settings_store.settings_path().write_text("{broken", encoding="utf-8")
    assert settings_store.load() == Settings()
    assert str(Settings().cache_root()) == str(tmp_path / "cache")


def test_runners_call_back_on_the_gui_thread(qtbot):
    gui = threading.get_ident()
    seen = {}
    runner = ThreadPoolRunner()
    runner.run_task(lambda: threading.get_ident(), lambda worker: seen.update(worker=worker, done=threading.get_ident()))
    runner.run_task(lambda: 1 / 0, None, lambda exc: seen.update(error=type(exc).__name__))
    qtbot.waitUntil(lambda: "done" in seen and "error" in seen, timeout=5000)
    assert seen["worker"] != gui and seen["done"] == gui and seen["error"] == "ZeroDivisionError"
    got = []
    SyncRunner().run_task(lambda: 2, got.append)
    assert got == [2]


def test_page_view_draws_every_anchor_box_across_pages(qtbot, tmp_path):
    path = tmp_path / "두쪽.pdf"
    path.write_bytes(pdf_bytes(pages=2))
    pages = render_pages(path, [2, 1, 7])
    assert [p.number for p in pages] == [1, 2]
    assert pages[0].width == pytest.approx(595, abs=1) and pages[0].image.width() == pytest.approx(1190, abs=2)
    view = PageView()
    qtbot.addWidget(view)
    view.resize(500, 400)
    view.show()
    anchors = [{"page": 2, "bbox": [60, 300, 300, 320], "cell_range": None},
               {"page": 1, "bbox": [60, 700, 300, 720], "cell_range": None},
               {"page": 2, "bbox": None, "cell_range": None}]
    view.show_pages(pages, anchors)
    assert len(view.highlights) == 2
    tops = sorted(h.rect().top() for h in view.highlights)
    assert tops[0] == pytest.approx(700)                                   # page 1
    assert tops[1] == pytest.approx(view.page_rects[2].top() + 300)        # page 2, below page 1
    assert view.zoom() == pytest.approx((view.viewport().width() - 8) / 595, rel=0.02)
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.intersects(view.highlights[0].rect())
    view.zoom_by(2)
    assert view.zoom() == pytest.approx(2 * (view.viewport().width() - 8) / 595, rel=0.02)


def test_printed_pictures_are_every_cited_page_with_its_boxes(tmp_path):
    from ui.printing import cited_pictures

    class Folder:       # the calls prepare() makes of a tenant, over one real PDF
        def document(self, filename):
            return None

        def source_path(self, filename):
            return tmp_path / filename

        def chunk(self, filename, chunk_id):
            return None

    (tmp_path / "두쪽.pdf").write_bytes(pdf_bytes(pages=2))
    anchors = [{"page": 2, "bbox": [60, 300, 300, 320], "cell_range": None},
               {"page": 1, "bbox": [60, 700, 300, 720], "cell_range": None}]
    answer = {"citations": [{"n": 1, "filename": "두쪽.pdf", "anchors": anchors, "quote": "x"},
                            {"n": 2, "filename": "없음.docx", "anchors": [], "quote": "y"}]}
    pictures = cited_pictures(Folder(), answer, zoom=1.0)
    assert [(p.n, p.filename, p.page) for p in pictures] == [(1, "두쪽.pdf", 1), (1, "두쪽.pdf", 2)]
    first, second = pictures
    assert first.image.width() == pytest.approx(595, abs=1)
    inside, outside = first.image.pixelColor(65, 710), first.image.pixelColor(65, 300)
    assert inside != QColor("white") and outside == QColor("white")       # the box of page 1 only
    assert second.image.pixelColor(65, 310) != QColor("white")


def test_passage_marks_the_quote_even_with_other_spacing():
    html = passage_html("첫 줄\n신청 기간은  3월 2일부터\n끝", "신청 기간은 3월 2일부터")
    assert "<span style='background-color:#ffd84d'>신청 기간은  3월 2일부터</span>" in html
    assert "<br>" in html


def test_evidence_view_marks_machine_read_text(qtbot, tmp_path):
    from ui.evidence import Evidence
    view = EvidenceView()
    qtbot.addWidget(view)
    ev = Evidence(ANSWER["citations"][0], "hwpx", None, "앞 신청 기간은 2026년 3월 2일부터 3월 27일까지입니다. 뒤",
                  notes=[wording.evidence_text("no_picture", format="한글(HWPX)")])
    view.show_evidence(ev)
    assert not view.showing_pages()
    assert texts.MACHINE_READ in view.header.text()
    assert "한글(HWPX)" in view.notes.text()
    assert not view.open_button.isEnabled() and not view.zoom_in.isEnabled()


def test_print_answer_to_pdf_holds_answer_skipped_and_picture(tmp_path):
    out = tmp_path / "답.pdf"
    pictures = []
    for page, colour in ((1, "#ffcc00"), (3, "#00ccff")):
        image = QImage(400, 300, QImage.Format.Format_RGB32)
        image.fill(QColor(colour))
        pictures.append(printing.CitedPicture(1, "공고.pdf", page, image))
    printing.print_answer(printing.pdf_printer(str(out)), ANSWER, pictures)
    with pymupdf.open(out) as pdf:
        text = "".join(p.get_text() for p in pdf).replace(" ", "")
        images = sum(len(p.get_images()) for p in pdf)
    assert "2026년3월2일부터3월27일까지" in text
    assert "빈파일.hwpx" in text and texts.MACHINE_READ.replace(" ", "") in text
    assert images == 2 and "원문3쪽" in text


def test_report_names_locations_revisions_and_missing_answers():
    c = dict(ANSWER["citations"][0], anchors=[{"page": None, "bbox": None, "cell_range": "집행현황!A1:D3"}],
             revisions=[{"kind": "deleted", "label": "13."}])
    assert report.location(c) == "칸 집행현황!A1:D3"
    assert report.revision_tags(c) == "[삭제 13.]"
    assert "cite:1" in answer_render.answer_html(ANSWER)


def test_settings_dialog_limits_cache_and_a_gateway_off_by_default(qtbot, tmp_path):
    dialog = SettingsDialog(Settings(), config_dir=tmp_path / "config")
    qtbot.addWidget(dialog)
    assert dialog.gateway.address.text() == "" and not dialog.gateway.test_button.isEnabled()
    assert dialog.gateway.state.text() == wording.gateway_text("GATEWAY_OFF")
    dialog.limit_boxes["max_file_bytes"].setValue(10)
    dialog.cache.setText(str(tmp_path / "다른캐시"))
    new = dialog.result_settings()
    assert new.parse_limits().max_file_bytes == 10 * 1024 * 1024
    assert new.limits == {"max_file_bytes": 10 * 1024 * 1024}
    assert new.cache_root() == tmp_path / "다른캐시"


def test_watcher_watches_subfolders_and_polls(qtbot, tmp_path):
    (tmp_path / "w" / "하위").mkdir(parents=True)
    watcher = FolderWatcher(poll_seconds=0, debounce_ms=50)
    folder = str(tmp_path / "w")
    watcher.add(folder)
    qtbot.waitUntil(lambda: str(tmp_path / "w" / "하위") in watcher.watched_directories(), timeout=5000)
    with qtbot.waitSignal(watcher.changed, timeout=5000) as signal:
        (tmp_path / "w" / "하위" / "새.txt").write_text("x", encoding="utf-8")
    assert signal.args == [folder]
    watcher.set_poll_seconds(0.05)
    with qtbot.waitSignal(watcher.changed, timeout=2000):
        pass
    watcher.remove(folder)
    assert watcher.watched_directories() == []


def test_a_picture_is_one_page_of_one_point_per_pixel(tmp_path):
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 300, 200), False)
    pix.set_dpi(96, 96)
    pix.clear_with(200)
    path = tmp_path / "스캔.png"
    pix.save(path)
    (page,) = render_pages(path, [1], fmt="png")
    assert (page.number, page.width, page.height) == (1, 300.0, 200.0)
    assert page.image.width() == 300


def test_document_detail_shows_the_letter_fields_recipients_and_attachments():
    from ui.documents import detail_html
    entry = {"filename": "시행문.hwpx", "readable": True, "format": "hwpx", "warnings": [],
             "structure": {"title": "2026년 시행공고", "doc_number": "국제협력과-174", "issued_date": "2026-01-10",
                           "issuer": "농림축산식품부", "recipient": "수신자 참조",
                           "recipients": ["한국농어촌공사사장", "(사)해외농업자원개발협회장"],
                           "attachments": ["시행공고문 1부", "신청서 서식 1부"]}}
    html = detail_html(entry)
    assert "국제협력과-174" in html and "농림축산식품부" in html
    assert f"{texts.DETAIL_RECIPIENTS}: 한국농어촌공사사장, (사)해외농업자원개발협회장" in html
    assert f"{texts.DETAIL_ATTACHMENTS}: 시행공고문 1부, 신청서 서식 1부" in html
    assert texts.DETAIL_ATTACHMENTS not in detail_html(dict(entry, structure={"title": "공고"}))
