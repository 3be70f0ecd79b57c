"""Why a file could not be read (reason codes) and what is worth knowing about one that was (warning codes).

Codes are the contract (the window and scripts branch on them); the sentences are for people. Each
unreadable reason says what happened and what the user can do next.
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
        "글자는 없고 그림(스캔한 쪽, 사진, 도형)만 든 문서입니다. 파일이 잘못된 것은 아닙니다",
        "그림 속 글은 글자 인식(OCR)으로 읽습니다: 그림 파일과 스캔한 PDF는 그대로, 한글·워드 문서는 PDF로 저장해"
        " 넣으면 읽습니다. 글자 인식이 꺼져 있다면 한국어 인식 자료(kor.traineddata)를 프로그램의 resources/tessdata"
        " 폴더에 넣어(또는 환경 변수 NODA_TESSDATA로 그 폴더를 알려) 켜 주십시오. 그래도 글자가 나오지 않으면 글자가 든"
        " 원본을 받아 넣어 주십시오",
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
    "PREVIEW_ONLY": "본문이 손상되어 파일에 함께 저장된 미리보기 글(문서 첫머리 일부)만 읽었습니다. 한글에서 열리면 "
                    "다른 이름으로 저장해 다시 넣어 주십시오",
    "SECTION_SKIPPED": "문서의 {n}번째 구역이 손상되어 그 부분은 빼고 읽었습니다",
}


def reason_text(code: str | None) -> str | None:
    """The full Korean sentence for a reason code: what happened — what to do."""
    if code is None:
        return None
    what, step = reason_parts(code)
    return f"{what} — {step}"


def reason_parts(code: str) -> tuple[str, str]:
    """(what happened, what to do next) for a reason code (an unknown code gives CORRUPT's)."""
    return REASONS.get(code, REASONS["CORRUPT"])


def next_step(code: str) -> str:
    """Only the 'what to do' half of a reason."""
    return reason_parts(code)[1]


def warning_text(code: str, **values) -> str:
    """Korean text of a warning code, with its placeholders filled."""
    template = WARNINGS.get(code, code)
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template
