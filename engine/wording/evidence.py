"""The evidence page (engine/answer/evidence.py: `noda view` and the window's saved HTML) and its shared labels."""
from __future__ import annotations

from engine.wording.names import PRODUCT_NAME

EVIDENCE_TEXTS: dict[str, str] = {
    "title": "노다 답과 근거 — {question}",
    "heading": "답과 근거",
    "made_at": PRODUCT_NAME + "로 {when}에 폴더 ‘{folder}’의 문서에서 만든 근거 문서입니다",
    "question": "질문",
    "answer": "답",
    "made_by": "답을 지은 것: {made_by}",
    "made_by_model": "답을 지은 것: {made_by} — 모델 {model}, {host}",
    "not_answered": "답하지 못했습니다",
    "flags_head": "근거와 맞춰 보니 확인할 점이 있습니다",
    "NO_MATCH": "문서에서 질문의 낱말을 찾지 못했습니다 — 다른 낱말로 물어 보십시오",
    "NO_EVIDENCE": "관련 대목은 찾았지만 답이 될 줄이 없었습니다 — 아래 근거를 직접 보십시오",
    "NO_DOCUMENT": "그 이름의 문서가 폴더에 없거나 볼 수 없는 문서입니다 — 문서 목록에 보이는 이름 그대로 적어 주십시오",
    "no_answer_other": "답을 만들지 못했습니다 ({reason})",
    "skipped_head": "못 읽은 문서 {count}개 — 답과 근거에는 그 문서가 들어 있지 않습니다",
    "next_step": "할 일: {step}",
    "evidence": "근거",
    "no_evidence": "이 답에는 근거가 없습니다",
    "page": "{page}쪽",
    "cell": "칸 {cell}",
    "read_by": "읽은 방법: {extractors}",
    "ocr": "기계가 그림에서 읽은 글자입니다 — 원문과 다를 수 있으니 쪽 그림과 맞춰 보십시오",
    "distribution": "배포용 문서: 작성자가 복사·인쇄를 막아 둔 문서에서 읽은 글입니다",
    "page_picture": "원문 {page}쪽 — 칠한 곳이 인용한 자리입니다",
    "no_boxes": "이 근거에는 쪽 위의 자리(좌표)가 없어 칠하지 못했습니다. 쪽 그림만 보여 드립니다",
    "no_source": "원본 파일을 찾지 못해 쪽 그림을 그리지 못했습니다 (옮겨지거나 지워졌을 수 있습니다). 인용한 대목을 글로 보여 드립니다",
    "render_failed": "원본 쪽을 그리지 못했습니다 ({error}). 인용한 대목을 글로 보여 드립니다",
    "pages_cut": "쪽이 많아 앞의 {shown}쪽만 그렸습니다 (근거는 모두 {total}쪽에 걸쳐 있습니다)",
    "no_page": "이 근거에는 쪽 번호가 없어 쪽 그림을 그리지 못했습니다. 인용한 대목을 글로 보여 드립니다",
    "too_many_pages": "앞의 근거들에서 쪽 그림을 많이 그려 이 근거는 글로 보여 드립니다 (파일이 너무 커지지 않게)",
    "no_picture": "{format} 문서는 쪽이 고정되어 있지 않아(보는 프로그램과 글꼴에 따라 쪽이 바뀝니다) 원문 쪽 그림이 없습니다. 인용한 대목을 앞뒤 글과 함께 보여 드립니다",
    "revision": "[{kind} {label}]",
    "added": "신설", "deleted": "삭제", "amended": "고침", "unchanged": "그대로", "renumbered": "번호이동",
    "saved": "근거 HTML을 저장했습니다: {path}",
    "doc_number": "문서번호 {value}", "issued_date": "시행일 {value}", "issuer": "발신 {value}",
}


def made_by_text(answer: dict) -> str:
    """'답을 지은 것: …' for an answer, naming the model and its host when an LLM made it."""
    gateway = answer.get("gateway") or {}
    if answer.get("answered") and gateway.get("model") and gateway.get("host"):
        return EVIDENCE_TEXTS["made_by_model"].format(made_by=answer["made_by"], model=gateway["model"],
                                                      host=gateway["host"])
    return EVIDENCE_TEXTS["made_by"].format(made_by=answer["made_by"])


def evidence_text(key: str, **values) -> str:
    """An evidence-page sentence with its placeholders filled."""
    return EVIDENCE_TEXTS[key].format(**values)
