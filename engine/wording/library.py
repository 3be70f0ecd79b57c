"""A folder kept read: what the library says (engine/library/, the noda documents / search / cache commands)."""
from __future__ import annotations

from engine.wording.evidence import EVIDENCE_TEXTS

TENANT_TEXTS: dict[str, str] = {
    "ACL_BROKEN": "권한 파일(ACL.json)을 읽지 못해 모든 문서를 잠갔습니다 — JSON 형식과 칸 이름(default, rules, files, allow)을 고쳐 주십시오",
    "documents": "문서 {total}개: 읽음 {readable}개, 못 읽음 {unreadable}개, 확인 필요 {needs_review}개, 조각 {chunks}개",
    "review": "확인 필요",
    "searched": "조각 {chunks}개에서 {hits}건을 찾았습니다",
    "hit_page": EVIDENCE_TEXTS["page"],
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
    "not_folder": "폴더를 찾을 수 없습니다: {folder}",
    "INDEX_REBUILT": "찾아보기 색인이 손상되어 읽어 둔 내용으로 다시 만들었습니다 (원본 파일은 그대로입니다)",
    "CACHE_REREAD": "읽어 둔 내용 일부가 손상되었거나 없어져 원본 파일에서 다시 읽습니다",
}


def tenant_text(key: str, **values) -> str:
    """A tenant/CLI sentence with its placeholders filled."""
    return TENANT_TEXTS[key].format(**values)
