"""A folder kept read: its notices by code (engine/library/), and the words about it the window, the CLI and the
answers share (a status, a page, the documents left out, a folder not found)."""
from __future__ import annotations

from engine.wording.evidence import EVIDENCE_TEXTS

TENANT_TEXTS: dict[str, str] = {
    "ACL_BROKEN": "권한 파일(ACL.json)을 읽지 못해 모든 문서를 잠갔습니다 — JSON 형식과 칸 이름(default, rules, files, allow)을 고쳐 주십시오",
    "review": "확인 필요",
    "hit_page": EVIDENCE_TEXTS["page"],
    "skipped": "못 읽어 찾기에서 빠진 문서 {count}개:",
    "not_folder": "폴더를 찾을 수 없습니다: {folder}",
    "INDEX_REBUILT": "찾아보기 색인이 손상되어 읽어 둔 내용으로 다시 만들었습니다 (원본 파일은 그대로입니다)",
    "CACHE_REREAD": "읽어 둔 내용 일부가 손상되었거나 없어져 원본 파일에서 다시 읽습니다",
}


def tenant_text(key: str, **values) -> str:
    """A folder sentence with its placeholders filled."""
    return TENANT_TEXTS[key].format(**values)
