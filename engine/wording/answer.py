"""Extractive answers, the LLM context and verification (the answer layer; noda answer / context / verify)."""
from __future__ import annotations

ANSWER_TEXTS: dict[str, str] = {
    "made_by": "발췌 (LLM 없음)",
    "not_answered": "답하지 못했습니다 — {why}",
    "context_summary": "근거 {sources}개 · {used}/{budget}자",
    "context_truncated": "글자 예산에 다 들지 않아 뒤의 근거를 덜어 냈습니다",
    "verify_ok": "근거와 맞습니다 — 근거에 없는 숫자·인용·번호가 없습니다",
    "verify_bad": "근거와 맞지 않는 곳이 있습니다:",
    "unknown_sources": "폴더에 없는 근거(문서·조각 id): {sources}",
    "bad_json": "JSON 파일을 읽지 못했습니다: {path}",
    "no_question": "질문을 적거나 --questions 로 질문 파일을 주십시오",
    "bad_question": "질문 파일의 {line}번째 줄을 읽지 못했습니다 — 한 줄에 {{\"question\": \"…\"}} 하나씩 적어 주십시오",
    "question_head": "질문: {question}",
    "from_document": "문서 ‘{document}’에서 답했습니다",
}


def answer_text(key: str, **values) -> str:
    """An answer/context/verify sentence with its placeholders filled."""
    return ANSWER_TEXTS[key].format(**values)
