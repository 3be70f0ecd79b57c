"""The LLM gateway: why it is off or failed (by code), grounded-answer flags, and what it asks the model."""
from __future__ import annotations

GATEWAY_TEXTS: dict[str, str] = {
    "GATEWAY_OFF": "LLM 게이트웨이가 꺼져 있습니다 — 관리자가 설정에 사내 모델 서버 주소를 넣어야 켜집니다",
    "GATEWAY_BAD_CONFIG": "LLM 게이트웨이 설정이 덜 되었습니다 (형식이나 모델 이름이 없습니다) — 설정을 확인해 주십시오",
    "GATEWAY_BAD_KEY": "API 키에 쓸 수 없는 글자(한글·빈칸 등)가 들어 있습니다 — 관리자에게 받은 키를 그대로 붙여 넣어 주십시오",
    "GATEWAY_BAD_URL": "LLM 게이트웨이 주소를 쓸 수 없습니다 — http:// 또는 https://로 시작하는 주소만 넣어 주십시오 (사용자 이름·비밀번호·물음표 뒤 값 없이)",
    "GATEWAY_EXTERNAL": "사내망 밖의 주소라 LLM 게이트웨이를 켜지 않았습니다 — 문서 글이 기관 밖으로 나가지 않도록 사내 주소만 씁니다. 사내 주소가 맞다면 관리자가 허용 목록에 넣어 주십시오",
    "GATEWAY_UNREACHABLE": "LLM 게이트웨이에 연결하지 못했습니다 — 사내 모델 서버가 켜져 있는지, 주소와 포트가 맞는지 확인해 주십시오",
    "GATEWAY_TLS": "LLM 게이트웨이의 보안 인증서를 확인하지 못했습니다 — 기관 인증서(CA) 파일을 설정에 넣어 주십시오",
    "GATEWAY_REDIRECT": "LLM 게이트웨이가 다른 주소로 돌려보내 따라가지 않았습니다 — 설정의 주소를 최종 주소로 고쳐 주십시오",
    "GATEWAY_AUTH": "LLM 게이트웨이가 API 키를 받아 주지 않았습니다 — 관리자에게 키를 확인받아 주십시오",
    "GATEWAY_BUSY": "LLM 게이트웨이가 요청이 많다며 받지 않았습니다 — 잠시 뒤에 다시 물어 주십시오",
    "GATEWAY_HTTP": "LLM 게이트웨이가 오류로 답했습니다 — 모델 이름과 주소를 확인하거나 잠시 뒤 다시 물어 주십시오",
    "GATEWAY_PROVIDER_ERROR": "모델 서버가 답 대신 오류를 보냈습니다 — 잠시 뒤 다시 물어 주시고, 계속되면 관리자에게 알려 주십시오",
    "GATEWAY_BAD_RESPONSE": "모델 서버의 답을 알아볼 수 없습니다 — 설정의 형식(OpenAI Chat·OpenAI Responses·Anthropic)이 서버와 맞는지 확인해 주십시오",
    "GATEWAY_INTERRUPTED": "모델의 답이 오다가 끊겼습니다 — 다시 물어 주십시오",
    "GATEWAY_EMPTY": "모델이 빈 답을 보냈습니다 — 질문을 바꾸어 다시 물어 주십시오",
    "made_by": "LLM 게이트웨이 · 인용 검증됨",
    "NO_MATCH": "찾은 근거가 없어 모델에게 묻지 않았습니다 — 다른 낱말로 물어 보십시오",
    "NO_CITATIONS": "답에 근거 번호([1] 같은)가 없어 근거와 맞춰 볼 수 없습니다",
    "UNKNOWN_REFS": "답이 없는 근거 번호를 가리킵니다: {refs}",
    "UNSUPPORTED_NUMBERS": "근거에 없는 숫자가 답에 있습니다: {numbers}",
    "UNFOUND_QUOTES": "근거 조각에 없는 인용이 답에 있습니다: {quotes}",
}


def gateway_text(code: str, /, **values) -> str:
    """A gateway sentence with its placeholders filled (an unknown code gives GATEWAY_HTTP's)."""
    template = GATEWAY_TEXTS.get(code, GATEWAY_TEXTS["GATEWAY_HTTP"])
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template


# Sent to the model, not shown to users: how to answer from the evidence (engine/gateway/grounded.py), and the
# settings dialog's connection check (ui/gateway_settings.py).
INSTRUCTIONS = (
    "당신은 공공기관 업무 문서에 대한 질문에 답합니다. "
    "사용자가 준 [근거]에 적힌 내용만으로 한국어로 답하십시오. "
    "문장마다 끝에 그 내용이 나온 근거 번호를 [1]처럼 붙이십시오. "
    "숫자·날짜·금액은 근거에 적힌 그대로 쓰고, 근거에 없는 것은 지어내지 마십시오. "
    "근거로 답할 수 없으면 근거에서 찾지 못했다고만 답하십시오."
)
PROBE = "연결 확인입니다. ‘확인’ 한 낱말로만 답하십시오."


def question_prompt(*, context: str, question: str) -> str:
    """The model's message: the numbered evidence bundle, then the question."""
    return f"[근거]\n{context}\n\n[질문]\n{question}"
