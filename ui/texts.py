"""The window's own Korean words: its labels, buttons, menus and the messages only the window shows.

A sentence the window shares with the CLI, the API or the evidence page is engine.wording's; the names
below that point there (FOLDER_MISSING, STATUS_REVIEW, HTML_SAVED) are that one sentence, not a copy.
Reasons and warnings come from engine.wording by their codes.
"""
from __future__ import annotations

from engine.wording import EVIDENCE_TEXTS, PRODUCT_NAME, TENANT_TEXTS

WINDOW_TITLE = PRODUCT_NAME

# empty state
EMPTY_TITLE = "먼저 문서 폴더를 넣으십시오"
EMPTY_BODY = ("문서가 든 폴더나 문서 파일(ZIP 파일도 됩니다)을 이 창에 끌어다 놓거나, [폴더 추가](Ctrl+O)를 누르십시오.\n"
              "노다가 문서를 읽고, 못 읽은 문서는 까닭과 할 일을 알려 드립니다.\n"
              "다 읽으면 오른쪽 칸에 질문을 적고 Enter를 누르십시오. 답마다 근거가 붙습니다.")
EMPTY_SAMPLE = "예시 폴더 열기"

# actions
ADD_FOLDER = "폴더 추가…"
ADD_FILES = "파일 추가…"
REMOVE_FOLDER = "목록에서 빼기"
REFRESH = "다시 읽기"
PRINT = "인쇄…"
SAVE_HTML = "근거 HTML 저장…"
OPEN_ORIGINAL = "원본 열기"
SETTINGS = "설정…"
ABOUT = "노다 정보"
HELP = "사용 설명서"
HELP_REASON_HEAD = "못 읽은 까닭"
QUIT = "끝내기"
MENU_FILE = "파일(&F)"
MENU_HELP = "도움말(&H)"
CANCEL = "취소"
ERRORS_BUTTON = "읽기 오류 {n}건"

# tenants
TENANTS_HEADER = "폴더"
TENANT_COUNTS = "읽음 {readable} · 못 읽음 {unreadable} · 확인 필요 {review}"
TENANT_READING = "읽는 중…"
TENANT_FAILED = "읽다가 멈췄습니다: {error}"
REMOVE_CONFIRM = "‘{folder}’ 폴더를 목록에서 뺍니다.\n폴더와 그 안의 파일은 지우지 않습니다."
FOLDER_DIALOG = "문서 폴더 고르기"
FILES_DIALOG = "읽을 문서 파일 고르기"
DROP_REJECTED = "이 PC의 폴더나 파일이 아니라 넣지 못했습니다: {names}"
FOLDER_MISSING = TENANT_TEXTS["not_folder"]
ZIP_FAILED = "ZIP 파일 {name}을(를) 열지 못했습니다: {error}"
FILES_ADDED = "‘{names}’을(를) 폴더 목록의 ‘{folder}’에 넣었습니다 — 이 파일만 읽고, 파일이 든 폴더의 다른 파일은 읽지 않습니다."
FILES_FAILED = "파일을 넣지 못했습니다: {error}"
SINGLE_FILES_FOLDER = "개별 파일"     # the folder of single dropped files, as the folder list names it
SINGLE_FILES_TIP = ("끌어다 놓거나 [파일 추가]로 넣은 파일들입니다. 노다가 읽으려고 둔 사본이며, "
                    "원본 파일은 그 자리에 그대로 있습니다. [원본 열기]는 원본을 엽니다.")

# documents
STATUS_READ = "읽음"
STATUS_UNREADABLE = "못 읽음"
STATUS_REVIEW = TENANT_TEXTS["review"]
FILTER_ALL = "모두"
FILTER_LABEL = "보기:"
FROM_CACHE = "지난번에 읽은 목록입니다 — 바뀐 파일을 확인하는 중…"
REASON_COLUMN = "까닭과 할 일"
COLUMNS = ["파일", "형식", "상태", REASON_COLUMN, "제목", "문서번호", "시행일", "발신"]
DOCUMENTS_TAB = "문서 목록"
ERRORS_TAB = "읽기 오류"
ERROR_COLUMNS = ["문서", REASON_COLUMN, "경로"]
REVIEW_PREFIX = "읽었지만 눈으로 확인하십시오: "
DETAIL_EMPTY = "문서를 고르면 까닭과 할 일, 문서의 제목·번호·날짜가 여기에 나옵니다. 두 번 누르면 원본을 엽니다."
DETAIL_WHAT = "까닭"
DETAIL_STEP = "할 일"
DETAIL_NOTE = "참고"
DETAIL_RECIPIENT = "수신"
DETAIL_RECIPIENTS = "수신자"
DETAIL_ATTACHMENTS = "붙임"

# progress
PROGRESS = "{folder}: {done}/{total} — {current}"
PROGRESS_READING = "{folder}: {done}/{total} — 읽는 중: {file}"
MORE = " 외 {n}개"
PROGRESS_SCAN = "{folder}: 바뀐 파일을 찾는 중…"
PROGRESS_INDEX = "{folder}: 찾아보기 목록을 만드는 중…"
REFRESH_DONE = "{folder}: 새 문서 {added}개, 바뀐 문서 {changed}개, 빠진 문서 {removed}개"
REFRESH_CANCELLED = "{folder}: 읽기를 취소했습니다. 다시 읽기를 누르면 이어서 읽습니다."

# questions and answers (shared sentences: engine.wording.EVIDENCE_TEXTS)
QUESTION_PLACEHOLDER = "질문을 적고 Enter — 예: 신청 기간은 언제인가?  구절 그대로 찾기: \"해외직접투자 동향\"처럼 따옴표로"
ASK = "묻기"
ASK_THIS_DOCUMENT = "이 문서에 묻기"
ASK_THIS_DOCUMENT_TIP = "고른 문서 하나에서만 답을 찾습니다 (질문 칸 위의 표시에서 ✕로 풉니다)"
SCOPE_CHIP = "이 문서에서만 묻습니다: {name}"
SCOPE_REMOVE_TIP = "범위 풀기 — 폴더의 모든 문서에 묻습니다"
ASKING = "답을 찾는 중…"
ASKING_WHILE_READING = "‘{folder}’ 폴더를 읽는 중이라 답이 늦을 수 있습니다. 답을 찾는 중…"
ASKING_LLM = "{host}의 모델 {model}에게 묻는 중… 답이 오래 오지 않으면 [그만 기다리기]를 누르십시오."
STOP_WAITING = "그만 기다리기"
STOPPED_WAITING = ("기다리기를 그만두었습니다. ‘LLM으로 답하기’를 끄고 다시 물으면 문서에서 그대로 발췌해 "
                   "답합니다.")
ANSWERED_WHILE_READING = "이 폴더를 다 읽기 전에 찾은 답입니다. 다 읽은 뒤 다시 물으면 더 나은 답이 나올 수 있습니다."
SKIPPED_WHERE = " — 까닭과 할 일은 [읽기 오류] 탭에 있습니다."
SKIPPED_AGAIN = "못 읽은 문서 {count}개는 이번에도 찾지 않았습니다 ([읽기 오류] 탭)."
ANSWER_PLACEHOLDER = "질문하면 답과 근거가 여기에 나옵니다."
ANSWER_FAILED = "답을 만들지 못했습니다: {error}"
PRINT_SKIPPED = "못 읽은 문서는 찾지 않았습니다: {names}"
CITATIONS_HEADER = "근거 (누르면 원문을 보여 드립니다)"
NOT_FOUND = "찾지 못했습니다"
SEARCHED = "찾아본 곳: {what}"
SEARCHED_DOCS = "읽은 문서 {n}개"
SEARCHED_ONE = "‘{document}’ 한 문서"
SEARCHED_CHUNKS = "대목 {n}곳"
NOT_SEARCHED = "찾지 않은 문서 (못 읽음): {names}"
TRY_AGAIN = "다른 낱말로 묻거나, 더 짧게 물어 보십시오."
MACHINE_READ = "기계가 읽은 글자"

# opening originals
OPENING = "원본을 여는 중: {name}"
OPEN_NO_PROGRAM = "‘{name}’을(를) 열 프로그램을 찾지 못했습니다. 파일 위치: {path}"
OPEN_MISSING = "원본 파일을 찾지 못했습니다: {name} (옮겨지거나 지워졌을 수 있습니다)"

# file dialogs (Qt's own translation leaves some of these in English)
DIALOG_LOOK_IN = "찾는 곳:"
DIALOG_FILE_NAME = "파일 이름:"
DIALOG_FILE_TYPE = "파일 형식:"
DIALOG_ACCEPT = "고르기"
DOCUMENT_FILTER = "문서"
ALL_FILES_FILTER = "모든 파일 (*)"

# evidence view
EVIDENCE_EMPTY = "근거를 누르면 원문 쪽과 인용한 자리가 여기에 보입니다."
ZOOM_IN = "크게"
ZOOM_OUT = "작게"
ZOOM_FIT = "폭 맞춤"

# print / export
NOTHING_TO_PRINT = "인쇄할 답이 없습니다. 먼저 질문하십시오."
PRINTING = "인쇄할 원문 쪽을 준비하는 중…"
PRINTED = "인쇄로 보냈습니다."
PRINT_FAILED = "인쇄하지 못했습니다: {error}"
HTML_FILTER = "HTML 파일 (*.html)"
PRINT_PREVIEW = "인쇄 미리 보기"
HTML_SAVED = EVIDENCE_TEXTS["saved"]
HTML_FILE_NAME = "노다_근거.html"
HTML_FAILED = "근거 HTML을 만들지 못했습니다: {error}"

# settings
SETTINGS_TITLE = "설정"
SETTINGS_GENERAL_TAB = "읽기와 캐시"
SETTINGS_GATEWAY_TAB = "LLM 게이트웨이"
CACHE_GROUP = "캐시 위치"
CACHE_NOTE = "읽은 문서의 글과 찾아보기 목록을 두는 곳입니다. 원본 폴더에는 아무것도 쓰지 않습니다."
BROWSE = "찾아보기…"
LIMITS_GROUP = "읽기 한도"
LIMIT_LABELS = {
    "max_file_bytes": "파일 크기 한도 (MB)",
    "max_pdf_pages": "PDF 쪽 수 한도",
    "max_archive_members": "압축 안 항목 수 한도",
    "max_xlsx_cells": "엑셀 칸 수 한도",
}
LIMITS_NOTE = "바꾼 한도는 다음에 읽는 파일부터 적용됩니다."
POLL_LABEL = "네트워크 폴더 확인 주기 (초)"
PRINCIPAL_GROUP = "문서 권한에 쓸 내 이름"
PRINCIPAL_HINT = "비워 두면 이 PC에 로그인한 이름({user})을 씁니다"
PRINCIPAL_NOTE = ("폴더에 ACL.json(문서마다 볼 수 있는 사람을 적은 파일)이 있으면, 이 이름으로 볼 수 있는 "
                  "문서만 목록과 답에 나옵니다. ACL.json이 없는 폴더는 모든 문서가 보입니다.")
PRINCIPAL_SHOWN = "문서 권한: {name}"
GATEWAY_INTRO = ("비워 두면 꺼져 있고, 노다는 문서에서 그대로 발췌해 답합니다. 사내 모델 서버 주소를 넣으면 "
                 "‘LLM으로 답하기’를 고른 질문에 한해 질문과 찾은 근거 글이 그 주소로만 갑니다. "
                 "사내망 밖의 주소는 받지 않습니다.")
GATEWAY_FORMAT = "형식"
GATEWAY_FORMATS = {"openai-chat": "OpenAI Chat Completions (vLLM·Ollama·LM Studio 등)",
                   "openai-responses": "OpenAI Responses",
                   "anthropic": "Anthropic Messages"}
GATEWAY_ADDRESS = "서버 주소"
GATEWAY_ADDRESS_HINT = "예: http://10.20.1.5:8000/v1 — 사내 모델 서버의 IP나 이름"
GATEWAY_MODEL = "모델 이름"
GATEWAY_KEY = "API 키"
GATEWAY_KEY_HINT = "필요할 때만"
GATEWAY_KEY_SAVED = "저장된 키가 있습니다 — 바꿀 때만 적으십시오"
GATEWAY_KEY_FORGET = "저장된 키 지우기"
GATEWAY_KEY_WHERE = {"keyring": "키는 운영체제의 암호 보관함에 둡니다.",
                     "file": "키는 이 사용자만 읽을 수 있는 설정 파일에 둡니다."}
GATEWAY_ALLOWED = "사내망으로 인정할 주소"
GATEWAY_ALLOWED_HINT = "쉼표로 구분 — 예: .intra.go.kr, llm.agency.go.kr, 10.20.0.0/16"
GATEWAY_ALLOWED_NOTE = ("사설 IP(10.x.x.x, 172.16–31.x.x, 192.168.x.x)와 이 PC(localhost)는 늘 사내로 봅니다. "
                        "서버를 이름으로 적으려면 그 이름이나 이름의 끝(.intra.go.kr처럼 점으로 시작)을 여기에 더하십시오. "
                        "여기 없는 이름은 사내망 밖으로 보고 보내지 않습니다.")
GATEWAY_TEST = "연결 확인"
GATEWAY_TESTING = "모델 서버에 묻는 중…"
GATEWAY_TEST_OK = "연결되었습니다 — {endpoint}의 모델 {model}이(가) 답했습니다."
GATEWAY_WILL_SEND = "켜짐: 질문과 근거 글은 {endpoint} (모델 {model}, 사내망)로만 갑니다."
# the question box's LLM switch and the status bar
LLM_TOGGLE = "LLM으로 답하기"
LLM_TOGGLE_OFF_TIP = ("LLM 게이트웨이가 꺼져 있어 고를 수 없습니다 — {why}\n"
                      "지금은 문서에서 그대로 발췌해 답합니다.")
LLM_TOGGLE_ON_TIP = ("고르면 찾은 근거 글을 {host}의 모델 {model}에게 보내 답을 짓게 합니다.\n"
                     "답의 숫자와 인용은 근거와 맞춰 보고, 맞지 않는 곳을 알려 드립니다.")
GATEWAY_STATUS_OFF = "LLM 꺼짐 · 문서 글은 이 PC 밖으로 나가지 않습니다"
GATEWAY_STATUS_ON = "LLM 켜짐 · {host} · 모델 {model} · 사내망"
GATEWAY_STATUS_REFUSED = "LLM 꺼짐 · 설정 확인 필요"
# 설정 ▸ other programs on this PC (ui/api_switch.py) and its status-bar note
API_GROUP = "다른 프로그램과 함께 쓰기"
API_ALLOW = "다른 프로그램이 노다를 쓰도록 허용"
API_PORT = "포트"
API_NOTE = ("켜 두면 이 PC의 다른 프로그램(사내 에이전트, 업무 스크립트)이 노다에게 폴더의 문서를 찾고 물을 수 "
            "있습니다. 이 PC 안(127.0.0.1)에서만 열리고, 이 사용자의 토큰을 아는 프로그램만 쓸 수 있습니다. "
            "토큰 파일: {token}")
API_STATUS_ON = "다른 프로그램 연결 켜짐 · 127.0.0.1:{port}"
API_STATUS_TIP = "http://127.0.0.1:{port} — 토큰 파일: {token}"
API_STATUS_FAILED = "다른 프로그램 연결을 켜지 못했습니다 · 포트 {port}을(를) 쓸 수 없습니다 — 설정에서 다른 포트를 고르십시오"
API_STATUS_ERROR = "다른 프로그램 연결을 켜지 못했습니다 — {error}"
