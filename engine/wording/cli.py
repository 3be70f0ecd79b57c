"""The `noda` command's own words: its summary lines, its messages and the help of its commands and options.

What the CLI prints of the engine's answers (reasons, warnings, the folder commands' lines) comes from the
other groups; the help of an option the API shares is its field description (engine/wording/fields.py).
"""
from __future__ import annotations

from engine.wording import fields
from engine.wording.names import format_name
from engine.wording.reasons import reason_text


def summary_line(filename: str, readable: bool, fmt: str, blocks: int, tables: int,
                 pages, code: str | None) -> str:
    """One line of the CLI's Korean summary for a document (the name with hidden characters escaped)."""
    from engine.names import shown_name

    filename = shown_name(filename)
    if readable:
        page_part = f"{pages}쪽, " if pages else ""
        return f"읽음  {filename} ({format_name(fmt)}, {page_part}글 {blocks}개, 표 {tables}개)"
    return f"못 읽음  {filename} ({format_name(fmt)}): {reason_text(code)}"


def folder_summary(total: int, readable: int, unreadable: int) -> str:
    return f"모두 {total}개 중 {readable}개 읽음, {unreadable}개 못 읽음"


def note(*, text: str) -> str:
    """A warning under a document's summary line."""
    return f"참고: {text}"


def not_found(*, path: str) -> str:
    return f"찾을 수 없습니다: {path}"


# `noda --help` and each command's help
DESCRIPTION = "노다: 한국어 업무 문서를 읽고 근거를 찾습니다 (오프라인)."
FOLDER = "문서 폴더"
JSON = "JSON으로 출력"
PRINCIPAL = fields.PRINCIPAL

PARSE = "파일이나 폴더를 읽어 문서 내용을 보여 줍니다"
PARSE_PATH = "파일 또는 폴더"
PARSE_JSON = "계약의 JSON으로 출력 (폴더는 한 줄에 문서 하나)"

CHUNK = "파일 하나를 읽어 검색 색인에 들어갈 조각을 보여 줍니다"
CHUNK_PATH = "파일"
CHUNK_JSON = "{document, chunks} JSON으로 출력 (zip은 한 줄에 문서 하나)"


def chunk_budget(*, budget: int) -> str:
    return f"조각 하나의 글자 수 (기본 {budget}, 찾아보기 목록과 같은 값)"


DOCUMENTS = "폴더를 읽어 두고 무엇을 읽었고 무엇을 못 읽었는지 보여 줍니다"

SEARCH = "폴더의 문서에서 찾고 근거(파일·쪽·좌표)를 보여 줍니다"
SEARCH_QUERY = "찾을 말 (따옴표로 묶은 구절은 그 차례 그대로 찾습니다: '\"해외직접투자 동향\"')"
SEARCH_LIMIT = fields.SEARCH_LIMIT

VIEW = "묻고, 답과 근거(원문 쪽 위에 칠한 자리)를 HTML 파일 하나로 저장합니다"
VIEW_OUTPUT = "저장할 HTML 파일 (기본 evidence.html)"
VIEW_LIMIT = "근거로 볼 조각 수 (최대 20)"

ANSWER = "묻고, 문서에서 발췌한 답 한두 줄과 근거(파일·쪽·경로)를 보여 줍니다"
QUESTION = fields.QUESTION
ANSWER_QUESTION = "질문 (--questions를 주면 생략)"
ANSWER_DOCUMENT = "이 문서에서만 답합니다 (문서 목록에 보이는 파일 이름)"
ANSWER_QUESTIONS = '한 줄에 {"question": …} 하나씩 적은 파일의 질문에 차례로 답합니다 (--json이면 한 줄에 답 하나)'
ANSWER_LIMIT = fields.ANSWER_LIMIT
ANSWER_LLM = "관리자가 설정한 사내 LLM 게이트웨이로 답합니다 (꺼져 있으면 그렇다고 알리고 1로 끝납니다)"

CONTEXT = "LLM에게 넘길 근거 묶음을 글자 예산 안에서 만듭니다 ([n] 파일 · 쪽 · 경로)"
CONTEXT_QUERY = fields.CONTEXT_QUERY
CONTEXT_BUDGET = fields.BUDGET
CONTEXT_LIMIT = fields.CONTEXT_LIMIT

VERIFY = "답을 근거에 대어 봅니다: 근거에 없는 숫자·인용·번호 (근거와 맞으면 종료 코드 0, 아니면 1)"
VERIFY_ANSWER = "답 글 파일 (UTF-8)"
VERIFY_SOURCES = "근거 목록 JSON (context의 sources 또는 그 출력 전체)"
VERIFY_CITATIONS = "인용 목록 JSON ([{n 또는 doc_id+chunk_id, quote}])"

CACHE = "캐시를 다룹니다 (purge: 읽어 둔 문서 글과 색인을 지웁니다 — 모두, 폴더 하나, 파일 하나)"
CACHE_FOLDER = "이 폴더에서 읽어 둔 것만 지웁니다"
CACHE_FILE = "이 파일(폴더 안의 경로나 이름)에서 읽어 둔 것만 지웁니다 (다음에 다시 읽습니다)"

SERVE = "다른 프로그램이 노다를 쓰도록 로컬 API(HTTP)를 띄웁니다 (127.0.0.1, 토큰 필요)"
SERVED_FOLDERS = "문서 폴더 (없으면 노다 창에 넣어 둔 폴더)"
SERVE_PORT = "포트 (기본 8756)"
SERVE_HOST = "127.0.0.1 밖의 주소에 띄울 때만 (--key가 함께 있어야 합니다)"
SERVE_KEY = "관리자가 정한 키 (16자 이상, 환경 변수 NODA_API_KEY로도 줍니다)"
SERVE_PRINT_TOKEN = "이 사용자의 API 토큰을 보여 주고 끝냅니다"

MCP = "에이전트(MCP 클라이언트)가 노다를 도구로 쓰도록 stdio MCP 서버로 돕니다"

GATEWAY = "LLM 게이트웨이: 질문과 근거 글이 어디로 가는지 보여 줍니다 (status)"


# a folder read up to date before a folder command (stderr), noda documents, noda search
def progress(*, done: int, total: int, current: str) -> str:
    return f"읽는 중 {done}/{total} {current}"


def refreshed(*, parsed: int, from_cache: int, unchanged: int, removed: int) -> str:
    return f"새로 읽음 {parsed}개, 캐시에서 {from_cache}개, 그대로 {unchanged}개, 빠짐 {removed}개"


def documents(*, total: int, readable: int, unreadable: int, needs_review: int, chunks: int) -> str:
    return (f"문서 {total}개: 읽음 {readable}개, 못 읽음 {unreadable}개, 확인 필요 {needs_review}개, "
            f"조각 {chunks}개")


def searched(*, chunks: int, hits: int) -> str:
    return f"조각 {chunks}개에서 {hits}건을 찾았습니다"


# noda answer, context, verify
NO_QUESTION = "질문을 적거나 --questions 로 질문 파일을 주십시오"
CONTEXT_TRUNCATED = "글자 예산에 다 들지 않아 뒤의 근거를 덜어 냈습니다"
VERIFY_OK = "근거와 맞습니다 — 근거에 없는 숫자·인용·번호가 없습니다"
VERIFY_BAD = "근거와 맞지 않는 곳이 있습니다:"


def bad_question(*, line: int) -> str:
    return f'질문 파일의 {line}번째 줄을 읽지 못했습니다 — 한 줄에 {{"question": "…"}} 하나씩 적어 주십시오'


def bad_json(*, path: str) -> str:
    return f"JSON 파일을 읽지 못했습니다: {path}"


def question_head(*, question: str) -> str:
    return f"질문: {question}"


def from_document(*, document: str) -> str:
    return f"문서 ‘{document}’에서 답했습니다"


def not_answered(*, why: str) -> str:
    return f"답하지 못했습니다 — {why}"


def context_summary(*, sources: int, used: int, budget: int) -> str:
    return f"근거 {sources}개 · {used}/{budget}자"


def unknown_sources(*, sources: str) -> str:
    return f"폴더에 없는 근거(문서·조각 id): {sources}"


# noda cache purge
def purged(*, path: str) -> str:
    return f"캐시를 모두 지웠습니다: {path} —"


def purged_folder(*, folder: str) -> str:
    return f"폴더 {folder}에서 읽어 둔 글, 색인과 상태를 지웠습니다 —"


def purged_file(*, folder: str, file: str) -> str:
    return f"폴더 {folder}의 {file}: 읽어 둔 글과 색인 항목을 지웠습니다 (다음에 읽을 때 원본에서 다시 읽습니다)"


def purged_count(*, files: int, size: str) -> str:
    return f"지운 파일 {files}개 ({size})"


def purged_links(*, links: int) -> str:
    return f"캐시 밖을 가리키던 링크 {links}개는 따라가지 않고 링크만 지웠습니다"


def purge_nothing(*, what: str) -> str:
    return f"캐시에 {what}에서 읽어 둔 것이 없습니다"


# noda gateway status
KEY_PRESENT = "있음"
KEY_ABSENT = "없음"


def gateway_on(*, endpoint: str, model: str, key: str) -> str:
    return f"LLM 게이트웨이: 켜짐 — {endpoint} · 모델 {model} · 사내망 · API 키 {key}"


def gateway_off(*, why: str) -> str:
    return f"LLM 게이트웨이: 꺼짐 — {why}"


def gateway_proxy(*, proxy: str) -> str:
    return f"프록시 {proxy}을(를) 거쳐 보냅니다"
