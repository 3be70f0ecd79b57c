"""Every Korean sentence a user can see comes from here.

Reason codes are the contract (the window and scripts branch on them);
the sentences are for people. Each unreadable reason says what happened
and what the user can do next.
"""
from __future__ import annotations

# code -> (what happened, what to do next)
REASONS: dict[str, tuple[str, str]] = {
    "EMPTY": (
        "빈 파일입니다 (내용이 없습니다)",
        "원본을 다시 받아 넣어 주십시오",
    ),
    "PASSWORD_PROTECTED": (
        "암호가 걸린 문서라 열 수 없습니다",
        "작성한 곳에서 암호를 푼 파일을 받아 넣어 주십시오",
    ),
    "DRM_ENCRYPTED": (
        "문서 보안(DRM)으로 잠겨 있어 본문을 열 수 없습니다",
        "문서 보안을 해제한 파일(반출 승인본)을 받아 넣어 주십시오",
    ),
    "CORRUPT": (
        "파일이 손상되었거나 형식이 맞지 않아 읽지 못했습니다",
        "원본 프로그램에서 열리는지 확인하고, 열리면 다른 이름으로 저장해 다시 넣어 주십시오",
    ),
    "UNSUPPORTED_FORMAT": (
        "지원하지 않는 파일 형식입니다",
        "한글(HWP·HWPX·HML), PDF, 워드(DOC·DOCX), 엑셀(XLS·XLSX·CSV), 파워포인트(PPTX), 텍스트(TXT), 그림, ZIP 파일로"
        " 저장해 넣어 주십시오 (파워포인트 97-2003의 PPT는 PPTX로 저장해 주십시오)",
    ),
    "UNSUPPORTED_VERSION": (
        "너무 오래된 판의 문서라 읽지 못합니다",
        "만든 프로그램(한글 2.x 문서는 한글)에서 열어 새 형식(HWPX·HWP·DOCX 등)으로 다시 저장해 넣어 주십시오",
    ),
    "NO_TEXT": (
        "글자 층이 없는 문서입니다 (스캔하거나 그림으로 만든 문서)",
        "글자 인식(OCR)이 꺼져 있다면 한국어 인식 자료(kor.traineddata)를 프로그램의 resources/tessdata 폴더에"
        " 넣어(또는 환경 변수 NODA_TESSDATA로 그 폴더를 알려) 켜 주십시오. 그래도 안 되면 글자가 든 원본 파일을 받아 넣어 주십시오",
    ),
    "TOO_LARGE": (
        "파일이 너무 커서 읽지 않았습니다",
        "설정에서 파일 크기 한도를 늘리거나, 파일을 나누어 넣어 주십시오",
    ),
    "ARCHIVE_UNSAFE": (
        "풀면 지나치게 부풀거나 폴더 밖을 가리키는 이름이 있어 위험해 보여 열지 않았습니다 (압축 파일이나"
        " 속이 압축인 HWPX·DOCX·XLSX 문서)",
        "보낸 곳에 원본을 확인하고, 필요한 문서만 정상 파일로 다시 받아 넣어 주십시오",
    ),
    "READ_ERROR": (
        "파일을 열 수 없습니다 (권한이 없거나 다른 프로그램이 쓰는 중입니다)",
        "파일을 닫거나 읽기 권한을 확인한 뒤 다시 읽어 주십시오",
    ),
    "LINK_OUTSIDE": (
        "폴더 밖을 가리키는 링크(바로 가기)라 따라가 읽지 않았습니다",
        "그 문서가 필요하면 링크 대신 파일 자체를 이 폴더에 복사해 넣어 주십시오",
    ),
    "TIMEOUT": (
        "읽는 데 너무 오래 걸려 멈췄습니다",
        "파일이 지나치게 복잡할 수 있습니다. 원본 프로그램에서 다른 형식으로 저장해 넣어 주십시오",
    ),
}

# Vendor names shown to users when we know who locked a file.
DRM_VENDORS = {
    "markany": "마크애니 문서보안(Document SAFER)",
    "fasoo": "파수 문서보안(Fasoo DRM)",
    "softcamp": "소프트캠프 문서보안",
    "hwp": "한글 문서 보안",
    "hwp_distribution": "한글 배포용 문서",
}

# Warnings: read, but something is worth knowing.
WARNINGS: dict[str, str] = {
    "EXTENSION_MISMATCH": "파일 이름의 확장자({ext})와 실제 형식({actual})이 다릅니다. 실제 형식대로 읽었습니다",
    "PARSER_ERROR": "읽는 도중 예상하지 못한 오류({detail})가 났습니다",
    "NO_OCR": "그림 속 글자는 글자 인식(OCR)을 켜야 읽을 수 있습니다",
    "PAGE_APPROXIMATE": "쪽 번호는 줄 배치로 어림한 값입니다 (한글 화면과 한두 쪽 다를 수 있습니다)",
    "DISTRIBUTION_DOCUMENT": "작성자가 복사·인쇄를 막아 둔 배포용 문서입니다. 읽기만 했습니다",
    "ARCHIVE_MEMBER_SKIPPED": "압축 안의 항목 {name}을(를) 건너뛰었습니다: {why}",
    "ARCHIVE_TOO_MANY_MEMBERS": "압축 안 항목이 {count}개로 한도({limit}개)를 넘습니다",
    "ARCHIVE_TOO_BIG": "압축을 풀면 {size}MB가 되어 한도({limit}MB)를 넘습니다",
    "ARCHIVE_HIGH_RATIO": "항목 {name}이(가) {ratio}배로 부풀어 한도({limit}배)를 넘습니다 (압축 폭탄으로 보입니다)",
    "ARCHIVE_TOO_DEEP": "압축 안에 압축이 한도({limit}겹)보다 깊이 들어 있습니다 ({name})",
    "MUPDF_MESSAGES": "PDF 속에 손상되거나 이상한 곳이 있어 읽는 프로그램(MuPDF)이 {count}가지를 알렸습니다: {messages}",
    "MEMORY_LIMIT": "읽는 데 메모리가 설정의 한도보다 많이 들어 중간에 멈췄습니다",
    "CONTENT_LIMIT": "내용이 너무 많아 메모리 한도({mb}MB) 안에 드는 앞부분만 읽었습니다. 파일을 나누어 넣으면 모두 읽습니다",
    "PART_TOO_LARGE": "문서 속 {name}을(를) 풀면 {size}MB로, 메모리를 지키는 한도({limit}MB)를 넘습니다",
    "MEMBER_TOO_LARGE_NESTED": "이 항목을 꺼내면 바깥 압축과 함께 메모리 한도({limit}MB)를 넘습니다. 압축을 풀어 따로 넣어 주십시오",
    "ARCHIVE_UNSAFE_PATH": "항목 이름 {name}이(가) 압축 폴더 밖이나 절대 경로를 가리킵니다",
    "FORMULA_NOT_CACHED": "계산 결과가 저장되지 않은 수식 칸이 있어 수식 그대로 읽었습니다",
    "XLSX_CELL_LIMIT": "칸이 너무 많아 한도({limit}칸)까지만 읽고 나머지 칸과 시트는 건너뛰었습니다. 설정에서 한도를 늘릴 수 있습니다",
    "PAGES_WITHOUT_TEXT": "글자가 없는 쪽이 있습니다: {pages}",
    "TABLE_MAY_BE_SPLIT": "쪽을 넘는 표가 나뉘어 읽혔을 수 있습니다",
    "LAYOUT_SIDE_BY_SIDE": "가로로 나란한 배치가 있어 읽는 차례가 어긋날 수 있습니다",
    "TEXT_BOXES": "글상자에 든 글이 많습니다. 글상자 글은 놓인 자리가 아니라 그것이 붙은 문단 뒤에 읽었습니다",
    "OCR_TEXT": "그림에서 기계가 읽은 글자입니다. 원문과 다를 수 있습니다",
    "OCR_PAGES_SKIPPED": "스캔한 쪽이 많아 {pages}쪽은 글자 인식(OCR)을 하지 않았습니다. 그 쪽의 내용은 찾을 수 "
                         "없으니 원본을 직접 보세요 (설정에서 문서당 쪽수 한도를 늘릴 수 있습니다)",
    "TRUNCATED": "파일 끝이 잘려 있어 앞부분만 읽었습니다",
    "SECTION_SKIPPED": "문서의 {n}번째 구역이 손상되어 그 부분은 빼고 읽었습니다",
}

FORMAT_NAMES = {
    "pdf": "PDF", "docx": "워드(DOCX)", "xlsx": "엑셀(XLSX)", "hwpx": "한글(HWPX)",
    "hwp": "한글(HWP)", "hwp3": "한글 3.0(HWP)", "hwp2": "한글 2.x(HWP)", "hml": "한글 HWPML(HML)",
    "csv": "CSV 표", "zip": "ZIP 압축", "png": "PNG 그림",
    "jpeg": "JPEG 그림", "tiff": "TIFF 그림", "bmp": "BMP 그림", "gif": "GIF 그림", "text": "텍스트(TXT)",
    "doc": "워드 97-2003(DOC)", "xls": "엑셀 97-2003(XLS)", "ppt": "파워포인트 97-2003(PPT)",
    "pptx": "파워포인트(PPTX)", "unknown": "알 수 없는 형식",
}


def reason_text(code: str | None) -> str | None:
    """The full Korean sentence for a reason code: what happened — what to do."""
    if code is None:
        return None
    what, step = REASONS.get(code, REASONS["CORRUPT"])
    return f"{what} — {step}"


def next_step(code: str) -> str:
    """Only the 'what to do' half of a reason."""
    return REASONS.get(code, REASONS["CORRUPT"])[1]


def warning_text(code: str, **values) -> str:
    """Korean text of a warning code, with its placeholders filled."""
    template = WARNINGS.get(code, code)
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template


def format_name(fmt: str) -> str:
    return FORMAT_NAMES.get(fmt, fmt)


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


# Tenant texts (engine/library/tenant.py and the noda documents / search / cache commands).
TENANT_TEXTS: dict[str, str] = {
    "ACL_BROKEN": "권한 파일(ACL.json)을 읽지 못해 모든 문서를 잠갔습니다 — JSON 형식과 칸 이름(default, rules, files, allow)을 고쳐 주십시오",
    "documents": "문서 {total}개: 읽음 {readable}개, 못 읽음 {unreadable}개, 확인 필요 {needs_review}개, 조각 {chunks}개",
    "review": "확인 필요",
    "searched": "조각 {chunks}개에서 {hits}건을 찾았습니다",
    "hit_page": "{page}쪽",
    "skipped": "못 읽어 찾기에서 빠진 문서 {count}개:",
    "progress": "읽는 중 {done}/{total} {current}",
    "refreshed": "새로 읽음 {parsed}개, 캐시에서 {from_cache}개, 그대로 {unchanged}개, 빠짐 {removed}개",
    "cancelled": "읽기를 멈췄습니다. 다음에 이어서 읽습니다",
    "purged": "캐시를 모두 지웠습니다: {path} —",
    "purged_folder": "폴더 {folder}에서 읽어 둔 글, 색인과 상태를 지웠습니다 —",
    "purged_file": "폴더 {folder}의 {file}: 읽어 둔 글과 색인 항목을 지웠습니다 (다음에 읽을 때 원본에서 다시 읽습니다)",
    "purged_count": "지운 파일 {files}개 ({size})",
    "purged_links": "캐시 밖을 가리키던 링크 {links}개는 따라가지 않고 링크만 지웠습니다",
    "purge_nothing": "캐시에 {what}에서 읽어 둔 것이 없습니다",
    "not_folder": "폴더를 찾을 수 없습니다: {path}",
    "INDEX_REBUILT": "찾아보기 색인이 손상되어 읽어 둔 내용으로 다시 만들었습니다 (원본 파일은 그대로입니다)",
    "CACHE_REREAD": "읽어 둔 내용 일부가 손상되었거나 없어져 원본 파일에서 다시 읽습니다",
}


def tenant_text(key: str, **values) -> str:
    """A tenant/CLI sentence with its placeholders filled."""
    return TENANT_TEXTS[key].format(**values)


# LLM gateway texts (engine/gateway/): why it is off or failed, grounded-answer flags, `noda gateway status`.
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
    "status_on": "LLM 게이트웨이: 켜짐 — {endpoint} · 모델 {model} · 사내망 · API 키 {key}",
    "status_off": "LLM 게이트웨이: 꺼짐 — {why}",
    "status_proxy": "프록시 {proxy}을(를) 거쳐 보냅니다",
    "key_present": "있음",
    "key_absent": "없음",
}


def gateway_text(code: str, /, **values) -> str:
    """A gateway sentence with its placeholders filled (an unknown code gives GATEWAY_HTTP's)."""
    template = GATEWAY_TEXTS.get(code, GATEWAY_TEXTS["GATEWAY_HTTP"])
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template


# How a reader got a text out, in words for people (engine/read/parse.py READERS names them for programs).
EXTRACTOR_NAMES = {
    "pymupdf": "PDF 글자층", "ocr": "기계가 읽은 글자(OCR)", "python-docx": "워드 문서 본문",
    "doc-native": "워드 97-2003 문서 본문", "openpyxl": "엑셀 칸 값", "xlrd": "엑셀 97-2003 칸 값",
    "hwpx-native": "한글 문서 본문", "hwp-native": "한글 문서 본문", "hwp3-native": "한글 3.0 문서 본문",
    "hwpml-native": "한글 HWPML 본문", "python-pptx": "파워포인트 글상자", "image": "그림",
    "text": "텍스트 파일", "csv": "CSV 칸 값",
}


def extractors_text(extractors) -> str:
    """'PDF 글자층, 기계가 읽은 글자(OCR)' for a citation's extractors (an unknown one as it is)."""
    return ", ".join(dict.fromkeys(EXTRACTOR_NAMES.get(x, x) for x in extractors or [] if x))


PRODUCT_NAME = "노다 문서 근거 찾기"   # the one name of the product: window title, menu entry, About, evidence pages

# Evidence page texts (engine/evidence.py: `noda view` and the window's saved HTML).
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


# Extractive answers, LLM context and verification (engine/answer.py, context.py, verify.py; noda answer/context/verify).
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


# The local API and MCP tools (engine/api/, noda serve, noda mcp): why a request was refused.
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
    "NOT_A_FOLDER": "폴더를 찾을 수 없습니다: {path}",
    "NOT_A_FILE": "파일을 찾을 수 없습니다: {path}",
    "FOLDERS_FIXED": "이 서버의 폴더는 노다 창에서 넣고 뺍니다",
    "UNAUTHORIZED": "토큰이 없거나 맞지 않습니다 — ‘Authorization: Bearer <토큰>’ 머리글을 붙여 주십시오 (토큰: noda serve --print-token)",
    "INTERNAL": "요청을 처리하다 예상하지 못한 오류({detail})가 났습니다",
    "cut": "결과가 너무 커서 줄였습니다: {what}",
    "serving": "노다 API: http://{host}:{port} (폴더 {count}개: {tenants}) — 멈추려면 Ctrl+C",
    "token_file": "토큰 파일: {path}",
    "public_refused": "127.0.0.1 밖의 주소({host})에는 --host와 함께 키(--key 또는 NODA_API_KEY)를 줄 때만 띄웁니다",
    "port_busy": "포트 {port}을(를) 쓸 수 없습니다 ({error}) — 다른 프로그램이 쓰고 있다면 --port로 다른 번호를 주십시오",
    "no_folders": "연결할 폴더가 없습니다 — 폴더를 인자로 주거나 노다 창에서 폴더를 넣어 주십시오",
}


def api_text(key: str, /, **values) -> str:
    """An API sentence with its placeholders filled."""
    return API_TEXTS[key].format(**values)
