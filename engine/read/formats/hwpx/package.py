"""The HWPX container: which section parts to read, in which order, and whether they are encrypted.

Part names come from ``Contents/content.hpf`` (an OPF package: manifest
items plus a spine giving the reading order). When that list is missing or
broken, the ``Contents/section<N>.xml`` members are taken in number order.
``META-INF/manifest.xml`` is optional; when present, an ``encryption-data``
entry on a section means the document is locked with a password.

Every part is read through the file's expansion budget (engine/read/formats/zipsafe.py)
and counts as XML parsed into a tree.
"""
from __future__ import annotations

import posixpath
import re
import zipfile
from typing import Optional

from lxml import etree

from engine.korean import one_line
from engine.read.failures import ReadFailure
from engine.read.formats.zipsafe import ExpansionBudget

ZIP_ENCRYPTED = 0x1                   # general-purpose flag: member encrypted by the ZIP tool
CONTENT_HPF = "Contents/content.hpf"
MANIFEST = "META-INF/manifest.xml"
_SECTION = re.compile(r"(?:^|/)section(\d+)\.xml$", re.IGNORECASE)
# Titles Hangul leaves in the document properties when nobody typed one.
_PLACEHOLDER_TITLES = {"제목", "제목 없음", "untitled", "noname", "문서"}

XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             remove_comments=True, remove_pis=True)


def local(element) -> str:
    """The tag name without its namespace (OWPML namespaces differ between versions)."""
    tag = element.tag
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def parse_xml(data: bytes):
    """The root element of an XML part; raises etree.XMLSyntaxError when it is not XML."""
    return etree.fromstring(data, XML_PARSER)


class Package:
    """An opened HWPX file (ZIP); raises ReadFailure (Refused) when the budget refuses it or a part."""

    def __init__(self, data: bytes, budget: ExpansionBudget):
        self.zip = budget.open(data, tree=lambda part: True)
        self.members = {info.filename: info for info in self.zip.infolist() if not info.is_dir()}
        self._hpf = self._optional_xml(CONTENT_HPF)

    def read(self, name: str) -> bytes:
        """The uncompressed bytes of one part, charged to the budget as they inflate."""
        info = self.members[name]
        if info.flag_bits & ZIP_ENCRYPTED:
            raise ReadFailure("PASSWORD_PROTECTED", f"{name}: zip encryption")
        return self.zip.read(info)

    def has_pictures(self) -> bool:
        """True when the file stores pictures or other embedded objects (its BinData folder)."""
        return any(name.startswith("BinData/") for name in self.members)

    def section_names(self) -> list[str]:
        """Section part names in reading order (spine order, else by number)."""
        names = self._spine_sections()
        if names:
            return names
        found = [(int(m.group(1)), n) for n in self.members
                 if n.startswith("Contents/") and (m := _SECTION.search(n))]
        return [n for _, n in sorted(found)]

    def encrypted(self, sections: list[str]) -> bool:
        """True when the manifest declares encryption for a section part."""
        manifest = self._optional_xml(MANIFEST)
        if manifest is None:
            return False
        locked = {(entry.get(_attr(entry, "full-path")) or "").lstrip("/") for entry in manifest.iter()
                  if local(entry) == "file-entry"
                  and any(local(child) == "encryption-data" for child in entry)}
        return any(name in locked for name in sections)

    def title(self) -> Optional[str]:
        """``<opf:title>`` when someone actually typed a title."""
        if self._hpf is None:
            return None
        for element in self._hpf.iter():
            if local(element) == "title":
                text = one_line(element.text)
                letters = sum(ch.isalpha() for ch in text)
                if letters >= 2 and text.lower() not in _PLACEHOLDER_TITLES:
                    return text
        return None

    # internals ----------------------------------------------------------
    def _optional_xml(self, name: str):
        if name not in self.members:
            return None
        try:
            return parse_xml(self.read(name))
        except (etree.XMLSyntaxError, zipfile.BadZipFile, ValueError):
            return None

    def _spine_sections(self) -> list[str]:
        if self._hpf is None:
            return []
        base = posixpath.dirname(CONTENT_HPF)
        hrefs = {item.get("id"): item.get("href", "") for item in self._hpf.iter()
                 if local(item) == "item"}
        names = []
        for ref in self._hpf.iter():
            if local(ref) != "itemref":
                continue
            href = hrefs.get(ref.get("idref"), "").lstrip("/")
            for name in (href, posixpath.join(base, href)):
                if _SECTION.search(name) and name in self.members and name not in names:
                    names.append(name)
                    break
        return names


def _attr(element, name: str) -> str:
    """The attribute key ``name`` whatever namespace prefix it carries."""
    for key in element.attrib:
        if key.rpartition("}")[2] == name:
            return key
    return name
