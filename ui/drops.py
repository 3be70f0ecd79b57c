"""What a drop (or 파일 추가) brings to the window: folders, ZIP files and single files.

A folder is opened where it is. A ZIP file is read from a private copy in the
app cache. Single files go to one folder of private copies, "개별 파일", so
that dropping one file from a 다운로드 folder of hundreds does not read all of
them; a small manifest remembers where each copy came from, so 원본 열기
opens the original. The user's files are only ever read, never moved.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

from ui import texts

ZIP_FOLDERS = "zip-folders"          # under the cache root: private copies of dropped ZIP files
SINGLE_FILES = "single-files"        # under the cache root: the "개별 파일" folder
SINGLE_FILES_NAME = texts.SINGLE_FILES_FOLDER
MANIFEST = ".noda-originals.json"    # hidden: the folder's reader skips dot files


@dataclass
class Dropped:
    folders: list[Path] = field(default_factory=list)
    zips: list[Path] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)   # not on this PC (a web link …)

    def __bool__(self) -> bool:
        return bool(self.folders or self.zips or self.files)


def sort_dropped(urls) -> Dropped:
    """Split dropped URLs into folders, ZIP files, other files and what cannot be opened."""
    out = Dropped()
    for url in urls:
        path = Path(url.toLocalFile()) if url.isLocalFile() else None
        if path and path.is_dir():
            out.folders.append(path)
        elif path and path.is_file() and path.suffix.lower() == ".zip":
            out.zips.append(path)
        elif path and path.is_file():
            out.files.append(path)
        else:
            out.rejected.append(path.name if path else url.toString())
    return out


def own_copy_roots(cache_root: Path) -> list[Path]:
    """The folders under which the window keeps its own copies (removing such a folder deletes the copy)."""
    return [(Path(cache_root) / ZIP_FOLDERS).resolve(), (Path(cache_root) / SINGLE_FILES).resolve()]


def zip_copy(cache_root: Path, zip_path: Path) -> Path:
    """Copy a ZIP file into its own folder in the cache; that folder (opened as a folder) is returned."""
    digest = hashlib.sha256(str(zip_path.resolve()).encode("utf-8")).hexdigest()[:12]
    folder = Path(cache_root) / ZIP_FOLDERS / digest / zip_path.stem
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy2(zip_path, folder / zip_path.name)
    return folder


def single_files_folder(cache_root: Path) -> Path:
    return Path(cache_root) / SINGLE_FILES / SINGLE_FILES_NAME


def copy_single_files(cache_root: Path, files: Iterable[Path]) -> tuple[Path, list[str]]:
    """Copy files into the "개별 파일" folder; (the folder, the names they have there).

    The same original dropped again replaces its copy; a different file with a name already taken gets
    "이름 (2).확장자".
    """
    folder = single_files_folder(cache_root)
    folder.mkdir(parents=True, exist_ok=True)
    originals = _read_manifest(folder)
    by_original = {source: name for name, source in originals.items()}
    names = []
    for path in files:
        source = str(Path(path).resolve())
        name = by_original.get(source) or _free_name(folder, Path(path).name, originals)
        shutil.copy2(path, folder / name)
        originals[name] = source
        by_original[source] = name
        names.append(name)
    _write_manifest(folder, originals)
    return folder, names


def original_of(folder: str | Path, filename: str) -> Optional[Path]:
    """The user's own file a copy in "개별 파일" came from, when it is still there."""
    source = _read_manifest(Path(folder)).get(filename)
    return Path(source) if source and os.path.isfile(source) else None


def _free_name(folder: Path, name: str, taken: dict) -> str:
    stem, suffix = os.path.splitext(name)
    candidate, n = name, 1
    while candidate in taken or (folder / candidate).exists():
        n += 1
        candidate = f"{stem} ({n}){suffix}"
    return candidate


def _read_manifest(folder: Path) -> dict[str, str]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _write_manifest(folder: Path, originals: dict[str, str]) -> None:
    tmp = folder / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(originals, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, folder / MANIFEST)
