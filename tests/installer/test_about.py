"""The About text: one version, Hancom's required sentence, and a licence line for everything the bundle ships."""
from __future__ import annotations

import re
import tomllib
from importlib.metadata import metadata
from pathlib import Path

import pytest

from engine import __version__
from engine.wording import PRODUCT_NAME
from noda_desktop import about

ROOT = Path(__file__).resolve().parents[2]


def test_version_and_hancom_notice_are_shown():
    html = about.about_html()
    assert f"{PRODUCT_NAME} {__version__}" in html
    assert "본 제품은 한글과컴퓨터의 한글 문서 파일(.hwp) 공개 문서를 참고하여 개발하였습니다." in html
    assert about.HANCOM_NOTICE in about.licences_text()


def test_hancom_notice_matches_the_hwp_reader_docs():
    docs = (ROOT / "docs" / "hwp.md").read_text(encoding="utf-8")
    assert about.HANCOM_NOTICE in docs


def test_agpl_obligation_is_spelled_out():
    text = about.licences_text()
    assert "AGPL-3.0" in text and "소스 코드" in text
    assert "LGPL-3.0" in text


def test_every_runtime_dependency_has_a_licence_line():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = {_norm(dist) for _, dist, _ in about.COMPONENTS if dist}
    listed |= {"kiwipiepy-model", "shiboken6"}  # named on the Kiwi and Qt lines
    needed = {_norm(re.split(r"[=<>!~ ]", req)[0]) for req in project["dependencies"]}
    assert needed <= listed, f"no licence line for {sorted(needed - listed)}"


@pytest.mark.parametrize("name,dist,licence", [c for c in about.COMPONENTS if c[1]], ids=lambda v: str(v))
def test_stated_licence_agrees_with_the_package(name, dist, licence):
    meta = metadata(dist)
    declared = " ".join(filter(None, [meta.get("License-Expression"), meta.get("License")]
                               + (meta.get_all("Classifier") or [])))
    first = re.split(r"[- ]", licence)[0]      # "LGPL-3.0" -> "LGPL", "AGPL-3.0" -> "AGPL"
    assert first.lower() in declared.lower() or _spelled(first, declared), f"{dist}: {declared[:200]}"


def _spelled(short: str, declared: str) -> bool:
    """Licence names some packages spell out instead of using SPDX ids."""
    words = {"AGPL": "affero", "BSD": "bsd", "MIT": "mit"}
    return words.get(short, "\0") in declared.lower()


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
