"""ACL.json: first matching rule wins, broken means locked, groups share what they see."""
from __future__ import annotations

import json

import pytest

from engine.library.acl import LOCKED, PUBLIC, is_acl_file, load_acl, parse_acl

HR = {"default": ["*"], "rules": [{"files": "인사_*.hwpx", "allow": ["hr", "대표"]}]}


def _acl(data) -> object:
    return parse_acl(json.dumps(data, ensure_ascii=False).encode("utf-8"))


def test_no_acl_file_means_public(tmp_path):
    acl = load_acl(tmp_path)
    assert acl is PUBLIC
    assert acl.can_see(None, "인사_1.hwpx") and acl.can_see("누구든", "a/b.pdf")
    assert len(acl.groups()) == 1


def test_rule_limits_who_sees_a_file():
    acl = _acl(HR)
    assert not acl.can_see(None, "인사_김.hwpx")
    assert not acl.can_see("guest", "인사_김.hwpx")
    assert acl.can_see("hr", "인사_김.hwpx") and acl.can_see("대표", "인사_김.hwpx")
    for who in (None, "guest", "hr"):
        assert acl.can_see(who, "공고.hwpx")
    # the pattern also matches by name inside folders, case-insensitively
    assert not acl.can_see(None, "2026/인사_박.HWPX")


def test_first_matching_rule_wins():
    acl = _acl({"default": ["*"], "rules": [
        {"files": "인사_공개*", "allow": ["*"]},
        {"files": "인사_*", "allow": ["hr"]}]})
    assert acl.can_see(None, "인사_공개명단.hwpx")
    assert not acl.can_see(None, "인사_평가.hwpx")


def test_rule_on_a_folder_or_zip_covers_what_is_inside():
    acl = _acl({"default": ["*"], "rules": [{"files": "비밀", "allow": ["hr"]},
                                            {"files": "감사/*.zip", "allow": ["감사관"]}]})
    assert not acl.can_see(None, "비밀/2026/계획.pdf")
    assert not acl.can_see(None, "감사/자료.zip/붙임/a.hwpx")
    assert acl.can_see("감사관", "감사/자료.zip/붙임/a.hwpx")
    assert acl.can_see(None, "감사/목록.hwpx")


def test_default_without_everyone_hides_from_anonymous():
    acl = _acl({"default": ["직원"], "rules": []})
    assert not acl.can_see(None, "a.pdf")
    assert acl.can_see("직원", "a.pdf")


@pytest.mark.parametrize("raw", [
    b"{not json", b"[]", b'{"default": "*"}', b'{"default": ["*"], "rules": {}}',
    b'{"default": ["*"], "rules": [{"files": "*.pdf"}]}',
    b'{"default": ["*"], "rules": [{"files": "*.pdf", "allow": "hr"}]}',
    b'{"default": ["*"], "rules": [{"file": "*.pdf", "allow": ["hr"]}]}',
    b'{"defualt": ["hr"]}', b'{"default": ["*"], "rules": [{"files": "", "allow": ["hr"]}]}',
    "{\"default\": [\"*\"]}".encode("utf-16"),
])
def test_broken_acl_locks_everything(raw):
    acl = parse_acl(raw)
    assert acl is LOCKED
    assert not acl.can_see(None, "a.pdf") and not acl.can_see("hr", "a.pdf")
    assert acl.groups() == {} and acl.group_of("hr") is None


def test_bom_from_notepad_is_fine(tmp_path):
    (tmp_path / "ACL.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(HR).encode("utf-8"))
    acl = load_acl(tmp_path)
    assert not acl.broken and acl.can_see("hr", "인사_1.hwpx")


def test_principals_with_the_same_view_share_a_group():
    acl = _acl({"default": ["*"], "rules": [{"files": "인사_*", "allow": ["hr", "대표"]},
                                            {"files": "예산_*", "allow": ["대표", "기획"]}]})
    groups = acl.groups()
    assert len(groups) == 4       # anonymous, hr, 대표, 기획
    assert acl.group_of(None) == acl.group_of("guest") == acl.group_of("*없는사람")
    assert acl.group_of("hr") != acl.group_of("대표")
    same = _acl({"default": ["*"], "rules": [{"files": "인사_*", "allow": ["hr", "대표"]}]})
    assert same.group_of("hr") == same.group_of("대표")
    assert set(acl.groups()) >= {acl.group_of(p) for p in (None, "hr", "대표", "기획")}


def test_acl_file_is_not_a_document():
    assert is_acl_file("ACL.json") and is_acl_file("acl.json")
    assert not is_acl_file("붙임/ACL.json")
