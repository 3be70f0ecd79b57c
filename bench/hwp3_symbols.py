"""How the HWP 3 reader decodes 한글's own character codes, against 한글's own conversions of the same files.

    .venv/bin/python bench/hwp3_symbols.py GIT_DIR [--worst 15]

GIT_DIR is a git repository (a bare mirror will do) holding HWP 3 files
(signature "HWP Document File V3.00") and, beside them, the same documents
converted by 한글 to HWP 5 or HWPX: a conversion is a file of the same folder
whose name starts with the HWP 3 file's stem and a dash (``a.hwp`` →
``a-hwp5.hwp``, ``a-hwpx.hwpx``), kept when at least half the HWP 3 file's
paragraphs (by their Hangul and ASCII letters) are found in it. Identical
HWP 3 files are counted once; each is measured against its first conversion,
and every other conversion is compared with that one.

Every code that is neither ASCII nor Johab Hangul (0x80–0x7FFF and Johab's
symbol and hanja area) is kept as a marker while the HWP 3 body is read. The
paragraphs of both sides are aligned by their Hangul and ASCII letters, then
the characters of aligned paragraphs (or runs of paragraphs) with difflib; a
marker facing one character of the conversion is paired with it. Each pair
is counted as: ``as Hancom wrote`` (the decoder gives that character),
``another form`` (the same symbol as another code point: NFKC-equal, or one of
``FORMS``, where Unicode's KS X 1001 table and 한글 differ), ``private use left
out`` (한글 wrote a private-use character, the decoder gives nothing),
``dropped`` (한글 wrote a real character, the decoder gives nothing),
``wrong`` (the decoder gives another character, or one where 한글 wrote private
use) and ``not aligned`` (the conversion has nothing there, or a run of
another length). The worst codes are those with most dropped or wrong.
"""
from __future__ import annotations

import argparse
import difflib
import io
import re
import struct
import subprocess
import sys
import unicodedata
import zipfile
from collections import Counter, defaultdict
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.read.detect import OLE_MAGIC  # noqa: E402
from engine.read.formats import hwp3  # noqa: E402
from engine.read.formats.hwp.container import HwpContainer, inflate  # noqa: E402
from engine.read.formats.hwp.header import parse_header  # noqa: E402
from engine.read.formats.hwp.records import PARA_TEXT, RecordStream  # noqa: E402
from engine.read.formats.hwp.text import decode_para_text  # noqa: E402
from engine.read.formats.hwp3 import paragraphs  # noqa: E402
from engine.read.formats.hwp3.hchar import HANGUL_END, hchar_text  # noqa: E402
from engine.read.formats.hwpx.section import Note, Table  # noqa: E402

HWP3_SIGNATURE = b"HWP Document File V3.00"
# the decoder's form -> 한글's form of the same KS X 1001 symbol
FORMS = {"·": "․", "∼": "～", "⊙": "◉"}
SHARED_ENOUGH = 0.5
HP = "{http://www.hancom.co.kr/hwpml/2011/paragraph}"
KINDS = ("as Hancom wrote", "another form", "private use left out", "dropped", "wrong", "not aligned")


def is_marked(code: int) -> bool:
    """Neither ASCII nor Johab Hangul: a symbol, hanja or 한글-own glyph."""
    return 0x80 <= code < 0x8000 or code >= HANGUL_END


def is_private(ch: str) -> bool:
    return len(ch) == 1 and unicodedata.category(ch) == "Co"


# ---- the git repository ----------------------------------------------------------------------
def blobs(git_dir: str) -> list[tuple[str, str]]:
    """(path, blob id) of every file at HEAD whose blob is present."""
    listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-l", "-z", "HEAD"],
                             capture_output=True, check=True).stdout.decode("utf-8", "replace")
    out = []
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        _mode, kind, sha, size = meta.split()
        if kind == "blob" and size.isdigit():
            out.append((path, sha))
    return out


class Blobs:
    """Reads blobs through one ``git cat-file --batch``."""

    def __init__(self, git_dir: str):
        self.proc = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, sha: str, head: int = 0) -> bytes:
        self.proc.stdin.write(sha.encode() + b"\n")
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            return b""
        size = int(header[2])
        data = self.proc.stdout.read(size + 1)[:size]
        return data[:head] if head else data


# ---- text of both sides ------------------------------------------------------------------------
MARK = 0x100000   # a marked code is read as MARK + code (plane 16, which no decoded text holds)


@contextmanager
def markers():
    """While reading, a marked code becomes the character MARK + code instead of its own."""
    def marked(code):
        return chr(MARK + code) if is_marked(code) else hchar_text(code)
    paragraphs.hchar_text = marked
    try:
        yield
    finally:
        paragraphs.hchar_text = hchar_text


def hwp3_paragraphs(data: bytes) -> list[list]:
    """Every paragraph (body, then what it holds: cells, notes, boxes) as a list of tokens."""
    info = data[hwp3.SIGNATURE:hwp3.SIGNATURE + hwp3.DOC_INFO]
    info_block, = struct.unpack_from("<H", info, hwp3.INFO_BLOCK_AT)
    body = data[hwp3.SIGNATURE + hwp3.DOC_INFO + hwp3.SUMMARY + info_block:]
    if info[hwp3.COMPRESSED_AT]:
        body = hwp3._inflate(body, 1 << 30)
    reader = paragraphs.Reader(body)
    with markers():
        try:
            reader.skip_fonts_and_styles()
            paras = reader.paragraphs(body=True)
        except paragraphs.StreamError:
            paras = reader.partial
    out: list[list] = []

    def walk(paras):
        for para in paras:
            tokens, held = [], []
            for piece in para.pieces:
                if isinstance(piece, str):
                    tokens += [("code", ord(ch) - MARK) if ord(ch) >= MARK else ch for ch in piece]
                elif isinstance(piece, Note):
                    held.append(piece.paras)
                elif isinstance(piece, Table):
                    held += [cell.paras for cell in piece.cells]
                    if piece.caption:
                        held.append(piece.caption.paras)
            if tokens:
                out.append(tokens)
            for inner in held:
                walk(inner)
    walk(paras)
    return out


def hwp5_paragraphs(data: bytes) -> list[list]:
    """Every PARA_TEXT of the body sections in stream order (paragraph, then what it holds)."""
    container = HwpContainer(data)
    compressed = parse_header(container.read("FileHeader")).compressed
    out = []
    for name in container.sections("BodyText"):
        raw = container.read(name)
        if compressed:
            raw = inflate(raw)[0]
        stream = RecordStream(raw, frozenset({PARA_TEXT}))
        for i in range(len(stream.tags)):
            text = decode_para_text(raw[stream.starts[i]:stream.stops[i]])
            if text:
                out.append(list(text))
    return out


def hwpx_paragraphs(data: bytes) -> list[list]:
    """Every <hp:p> of the sections in document order (its own text, then the paragraphs it holds)."""
    out = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = sorted((n for n in archive.namelist() if re.fullmatch(r"Contents/section\d+\.xml", n)),
                       key=lambda n: int(re.search(r"\d+", n).group()))
        for name in names:
            root = etree.fromstring(archive.read(name))
            for para in root.iter(HP + "p"):
                text = []
                for t in para.iter(HP + "t"):
                    if next(t.iterancestors(HP + "p")) is para:
                        text.append("".join(t.itertext()))
                if "".join(text):
                    out.append(list("".join(text)))
    return out


def conversion_paragraphs(data: bytes) -> list[list]:
    if data.startswith(OLE_MAGIC):
        return hwp5_paragraphs(data)
    return hwpx_paragraphs(data)


# ---- alignment ---------------------------------------------------------------------------------
def key(tokens: list) -> str:
    return "".join(t for t in tokens if isinstance(t, str) and ("가" <= t <= "힣" or t.isascii() and t.isalnum()))


def shared(a: list[list], b: list[list]) -> float:
    keys_a, keys_b = [key(p) for p in a if key(p)], {key(p) for p in b}
    return sum(k in keys_b for k in keys_a) / max(1, len(keys_a))


def pairs(a: list[list], b: list[list]) -> list[tuple[int, str]]:
    """(code, what the conversion has there: a character, or '' when nothing lines up)."""
    blocks = []
    outline = difflib.SequenceMatcher(None, [key(p) for p in a], [key(p) for p in b], autojunk=False)
    for op, i1, i2, j1, j2 in outline.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            blocks += [(a[i], b[j]) for i, j in zip(range(i1, i2), range(j1, j2))]
        elif i2 > i1:           # runs of paragraphs that do not line up one to one: their characters
            blocks.append(([t for p in a[i1:i2] for t in ["\n"] + p], [t for p in b[j1:j2] for t in ["\n"] + p]))
    out = []
    for left, right in blocks:
        if not any(isinstance(t, tuple) for t in left):
            continue
        chars = difflib.SequenceMatcher(None, left, right, autojunk=False)
        for op, i1, i2, j1, j2 in chars.get_opcodes():
            if op == "equal":
                continue
            one_to_one = op == "replace" and i2 - i1 == j2 - j1
            for k in range(i1, i2):
                if isinstance(left[k], tuple):
                    out.append((left[k][1], right[j1 + k - i1] if one_to_one else ""))
    return out


def kind(code: int, hancom: str) -> str:
    if not hancom:
        return "not aligned"
    ours = hchar_text(code)
    if ours == hancom:
        return "as Hancom wrote"
    if ours is None:
        return "private use left out" if is_private(hancom) else "dropped"
    if not is_private(hancom) and (FORMS.get(ours) == hancom
                                   or unicodedata.normalize("NFKC", ours) == unicodedata.normalize("NFKC", hancom)):
        return "another form"
    return "wrong"


def shown(ch) -> str:
    if ch is None or ch == "":
        return "—"
    return f"U+{ord(ch):04X}" if is_private(ch) else ch


# ---- the run -----------------------------------------------------------------------------------
def find_pairs(git_dir: str, store: Blobs) -> list[tuple[str, bytes, list[tuple[str, bytes]]]]:
    files = blobs(git_dir)
    seen, found = set(), []
    for path, sha in files:
        if sha in seen or not path.lower().endswith(".hwp") or not store.read(sha, 32).startswith(HWP3_SIGNATURE):
            continue
        seen.add(sha)
        here = PurePosixPath(path)
        convs = [(p, s) for p, s in files if PurePosixPath(p).parent == here.parent
                 and PurePosixPath(p).name.startswith(here.stem + "-") and p.lower().endswith((".hwp", ".hwpx"))]
        found.append((path, store.read(sha), [(p, store.read(s)) for p, s in sorted(convs)]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir")
    parser.add_argument("--worst", type=int, default=15)
    args = parser.parse_args()
    store = Blobs(args.git_dir)
    totals, by_code = Counter(), defaultdict(Counter)
    for path, data, convs in find_pairs(args.git_dir, store):
        mine = hwp3_paragraphs(data)
        first = None
        for conv_path, conv_data in convs:
            theirs = conversion_paragraphs(conv_data)
            if shared(mine, theirs) < SHARED_ENOUGH:
                print(f"  {conv_path}: shares too little text with {path}, left out")
                continue
            found = pairs(mine, theirs)
            if first is None:
                first = Counter(found)
                counts = Counter(kind(code, ch) for code, ch in found)
                totals.update(counts)
                for code, ch in found:
                    by_code[code][ch] += 1
                print(f"{path} ↔ {conv_path}: " + ", ".join(f"{counts[k]} {k}" for k in KINDS if counts[k]))
            else:
                differ = sum((first - Counter(found)).values())
                print(f"  {conv_path}: {differ} of {sum(first.values())} pairs differ from the first conversion")
        if first is None:
            print(f"{path}: no conversion found")
    print("\ntotal: " + ", ".join(f"{totals[k]} {k}" for k in KINDS))
    print("other forms: " + ", ".join(sorted({f"{shown(hchar_text(c))}→{shown(ch)} ({hex(c)})"
                                             for c, chs in by_code.items() for ch in chs
                                             if kind(c, ch) == "another form"})))
    bad = [c for c in by_code if any(kind(c, ch) in ("dropped", "wrong") for ch in by_code[c])]
    bad.sort(key=lambda c: -sum(n for ch, n in by_code[c].items() if kind(c, ch) in ("dropped", "wrong")))
    print("worst codes (code: decoded; what Hancom wrote × times):" + ("" if bad else " none dropped or wrong"))
    for code in bad[:args.worst]:
        wrote = ", ".join(f"{shown(ch)} ×{n}" for ch, n in by_code[code].most_common(4))
        print(f"  {code:#06x}: {shown(hchar_text(code))}; {wrote}")
    private = Counter({c: sum(n for ch, n in chs.items() if kind(c, ch) == "private use left out")
                       for c, chs in by_code.items()})
    print("private use left out, by code: " + ", ".join(f"{c:#06x} ×{n}" for c, n in private.most_common() if n))


if __name__ == "__main__":
    main()
