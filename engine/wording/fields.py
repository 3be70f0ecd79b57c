"""What a request's fields mean: the local API's and MCP's field descriptions (engine/api/schemas.py,
noda_desktop/mcp_server.py), and the CLI's help for the same options (engine/wording/cli.py).

These are read by the authors of other programs and by agents choosing a tool's arguments, so they are
plain statements (…한다), not the 합쇼체 the window and the CLI speak to people in.
"""
from __future__ import annotations

TENANT = "폴더 이름 (GET /health 의 tenants). 폴더가 하나뿐이면 생략할 수 있다"
PRINCIPAL = "이 사람이 볼 수 있는 문서에서만 (폴더의 ACL.json)"
LIST_START = "이 번째 문서부터 (0부터 센다, 파일 이름 차례). 합계(total 등)는 늘 전체의 것이다"
LIST_COUNT = "이만큼의 문서만 (생략하면 끝까지): 문서가 많은 폴더는 나누어 받는다"
QUERY = "찾을 말"
SEARCH_LIMIT = "결과 수 (최대 20)"
QUESTION = "질문"
ANSWER_LIMIT = "답을 고를 조각 수 (발췌 5, LLM 10, 최대 20)"
LLM = "관리자가 켠 사내 LLM 게이트웨이로 답한다 (꺼져 있으면 400)"
DOCUMENT = "이 문서(문서 목록의 파일 이름)에서만 답한다"
CONTEXT_QUERY = "질의"
BUDGET = "글자 예산 (기본 4000, 최대 40000)"
CONTEXT_LIMIT = "찾을 조각 수 (최대 20)"
ANSWER = "확인할 답 ([n] 이 sources[n-1] 을 가리킨다)"
SOURCES = "/context 의 sources 를 차례대로 (doc_id 와 chunk_id)"
CITATIONS = "인용 [{n 또는 doc_id+chunk_id, quote}]"
FILENAME = "파일 이름 (포맷 판별과 인용에 쓰인다; 경로는 떼고 이름만 쓴다)"
DATA_BASE64 = "파일의 바이트 (base64)"
CHUNK_BUDGET = "/chunk: 조각 하나의 글자 수"
FOLDER_PATH = "폴더 경로 (넣기) — 빼기는 tenant 로도 된다"
FOLDER_TENANT = "뺄 폴더의 이름 (빼기)"

# the MCP tools' own arguments (noda_desktop/mcp_server.py)
FILE_PATH = "이 PC의 파일 경로"
FILE_NAME = "파일 이름 (data_base64 와 함께)"
WATCH_PATH = "지켜볼 폴더의 경로 (폴더 안의 파일은 바꾸지 않는다)"
REMOVE_TENANT = "뺄 폴더의 이름 (documents 의 tenant)"
REMOVE_PATH = "또는 뺄 폴더의 경로"
