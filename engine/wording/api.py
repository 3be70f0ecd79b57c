"""The local API and MCP tools (engine/api/, noda serve, noda mcp): why a request was refused, what the server says."""
from __future__ import annotations

from engine.wording.library import TENANT_TEXTS

API_TEXTS: dict[str, str] = {
    "BAD_REQUEST": "요청을 알아볼 수 없습니다 — {detail}",
    "field_missing": "‘{field}’ 칸이 없습니다",
    "field_extra": "‘{field}’ 칸은 이 요청에 쓰지 않습니다",
    "field_type": "‘{field}’ 칸의 값이 맞지 않습니다 ({expected})",
    "field_too_long": "‘{field}’ 칸이 너무 깁니다",
    "body_not_object": "본문은 JSON 객체({{…}})여야 합니다",
    "body_not_json": "본문이 JSON이 아닙니다",
    "TENANT_REQUIRED": "폴더가 여럿이라 어느 폴더인지 ‘tenant’로 알려 주십시오: {tenants}",
    "NO_TENANT": "연결된 폴더가 없습니다 — 폴더를 먼저 넣어 주십시오",
    "BAD_TENANT": "폴더 이름 ‘{tenant}’은(는) 쓸 수 없습니다 — 경로가 아닌 폴더 이름 하나(/health의 tenants)를 주십시오",
    "UNKNOWN_TENANT": "‘{tenant}’ 폴더가 없습니다 — 있는 폴더: {tenants}",
    "FOLDER_MISSING": "폴더 ‘{tenant}’을(를) 찾을 수 없습니다 ({folder}) — 드라이브가 빠졌거나 폴더가 옮겨졌을 수 있습니다",
    "LLM_OFF": "{why}",
    "NO_FILENAME": "파일 이름이 없습니다 — X-Filename 머리글이나 ‘filename’ 칸으로 알려 주십시오",
    "BAD_BASE64": "‘data_base64’ 칸을 base64로 풀지 못했습니다",
    "TOO_LARGE": "파일이 {size}MB로 한도({limit}MB)를 넘어 받지 않았습니다",
    "NOT_FOUND": "그런 요청이 없습니다: {action}",
    "NOT_A_FOLDER": TENANT_TEXTS["not_folder"],
    "NOT_A_FILE": "파일을 찾을 수 없습니다: {path}",
    "FOLDERS_FIXED": "이 서버의 폴더는 노다 창에서 넣고 뺍니다",
    "UNAUTHORIZED": "토큰이 없거나 맞지 않습니다 — ‘Authorization: Bearer <토큰>’ 머리글을 붙여 주십시오 (토큰: noda serve --print-token)",
    "INTERNAL": "요청을 처리하다 예상하지 못한 오류({detail})가 났습니다",
    "cut": "결과가 너무 커서 줄였습니다: {what}",
    "cut_chars": "{path} {kept}/{total}자",
    "serving": "노다 API: http://{host}:{port} (폴더 {count}개: {tenants}) — 멈추려면 Ctrl+C",
    "token_file": "토큰 파일: {path}",
    "public_refused": "127.0.0.1 밖의 주소({host})에는 --host와 함께 키(--key 또는 NODA_API_KEY)를 줄 때만 띄웁니다",
    "port_busy": "포트 {port}을(를) 쓸 수 없습니다 ({error}) — 다른 프로그램이 쓰고 있다면 --port로 다른 번호를 주십시오",
    "no_folders": "연결할 폴더가 없습니다 — 폴더를 인자로 주거나 노다 창에서 폴더를 넣어 주십시오",
}

# What a field should have held, by the first word of pydantic's error kind ("int_parsing", "string_type" …).
TYPE_NAMES = {"int": "정수", "float": "수", "string": "글자", "bool": "참/거짓", "list": "목록",
              "dict": "객체", "model": "객체", "none": "null"}
BODY = "본문"   # a request's body, where an error names no field


def api_text(key: str, /, **values) -> str:
    """An API sentence with its placeholders filled."""
    return API_TEXTS[key].format(**values)
