"""Minimal writers for old binary formats, so tests can make the files they read.

``hwp3_bytes`` follows Hancom's published HWP 3.0 structure (signature,
document information, summary, fonts, styles, paragraph lists with special
characters). ``ole_bytes`` writes a compound file (version 3, 512-byte
sectors, every stream in the main FAT); ``doc_bytes`` puts a Word 97 FIB,
one UTF-16 piece and paragraph properties (table marks, heading styles) in it.
They write only what the readers need; they are not general writers.
"""
from __future__ import annotations

import struct
import zlib

# ---- HWP 3.0 ----------------------------------------------------------------------
HWP3_SIGNATURE = b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05"
_INITIAL = {i: i + 2 for i in range(19)}
_MEDIAL = dict(enumerate(list(range(3, 8)) + list(range(10, 16)) + list(range(18, 24)) + list(range(26, 30))))
_FINAL = dict(enumerate([1] + list(range(2, 18)) + list(range(19, 30))))


def hchar(ch: str) -> int:
    """Unicode -> HWP 3.0 code (ASCII, Johab syllables, other KS X 1001 characters)."""
    code = ord(ch)
    if code < 0x80:
        return code
    if 0xAC00 <= code <= 0xD7A3:
        index = code - 0xAC00
        initial, medial, final = index // 588, index % 588 // 28, index % 28
        return 0x8000 | _INITIAL[initial] << 10 | _MEDIAL[medial] << 5 | _FINAL[final]
    raw = ch.encode("johab")
    return raw[0] << 8 | raw[1]


def _chars(text: str) -> bytes:
    return b"".join(struct.pack("<H", hchar(ch)) for ch in text)


def hwp3_paragraph(*pieces, first: bool = False, new_page: bool = False, columns: int = 1) -> bytes:
    """One paragraph: pieces are text (str) or special characters already encoded (bytes)."""
    chars = b"".join(_chars(p) if isinstance(p, str) else p for p in pieces) + struct.pack("<H", 13)
    info = bytearray(43)
    info[0] = 0 if first else 1
    struct.pack_into("<HH", info, 1, len(chars) // 2, 1)
    shape = b""
    if first:
        shape = bytearray(187)
        shape[172] = columns
    line = bytearray(14)
    struct.pack_into("<H", line, 12, 0x8000 | (1 if new_page else 0))
    return bytes(info) + bytes(shape) + bytes(line) + chars


def hwp3_list(*paragraphs) -> bytes:
    """A paragraph list: str items become plain paragraphs; bytes items are whole paragraphs."""
    out = []
    for i, item in enumerate(paragraphs):
        out.append(hwp3_paragraph(item, first=i == 0) if isinstance(item, str) else item)
    return b"".join(out) + bytes(43)


def hwp3_table(rows: list[list[str]], *, merge_first_row: bool = False) -> bytes:
    """Special character 10 holding a table (each cell one paragraph); ``merge_first_row``
    makes the first row one cell spanning every column."""
    width, height = 1000, 500
    cells = []
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            if merge_first_row and r == 0:
                if c:
                    continue
                cells.append((r, c, width * len(rows[1]), text))
            else:
                cells.append((r, c, width, text))
    info = bytearray(84)
    struct.pack_into("<HH", info, 78, 0, len(cells))
    records = b""
    for r, c, w, _text in cells:
        record = bytearray(27)
        record[0], record[1] = r, c
        struct.pack_into("<4H", record, 4, c * width, r * height, w, height)
        records += bytes(record)
    lists = b"".join(hwp3_list(text) for *_pos, text in cells)
    return struct.pack("<HIH", 10, 0, 10) + bytes(info) + records + lists + hwp3_list()


def hwp3_note(kind: int, text: str, *, footer: bool = False) -> bytes:
    """Special character 16 (header/footer) or 17 (footnote) holding one paragraph."""
    info = bytearray(10 if kind == 16 else 14)
    if kind == 16:
        info[8] = 1 if footer else 0
    return struct.pack("<HIH", kind, 0, kind) + bytes(info) + hwp3_list(text)


def hwp3_bytes(body: bytes, *, title: str = "", compressed: bool = True, password: bool = False) -> bytes:
    """A whole HWP 3.0 file around ``body`` (a paragraph list)."""
    info = bytearray(128)
    struct.pack_into("<H", info, 96, 1 if password else 0)
    info[124], info[125] = (1 if compressed else 0), 1
    summary = bytearray(1008)
    encoded = _chars(title)[:110]
    summary[:len(encoded)] = encoded
    stream = bytes(7 * 2 + 2) + body + bytes(8)     # no fonts, no styles; end of extra blocks
    if compressed:
        packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
        stream = packer.compress(stream) + packer.flush()
    return HWP3_SIGNATURE + bytes(info) + bytes(summary) + stream


def unlock_hwp3(data: bytes, password: str) -> bytes:
    """A password-protected HWP 3.0 file made plain, for tests only (Noda itself never decrypts).

    The scheme is the one rhwp (MIT) found and kordoc (MIT) documents: everything after the
    information block is DES-ECB over the raw-deflated body, whose first 256 bytes check the
    password; the key folds the password's UTF-16LE bytes into 7 bytes (each XORed in, then
    rotated left by one) and spreads those 56 bits over the 8 key bytes, 7 bits each.
    """
    from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
    from cryptography.hazmat.primitives.ciphers import Cipher, modes

    ring = bytearray(7)
    for n, byte in enumerate(password.encode("utf-16-le")):
        mixed = ring[n % 7] ^ byte
        ring[n % 7] = (mixed << 1 | mixed >> 7) & 0xFF
    key = bytearray(8)
    for bit in range(56):
        key[bit // 7] |= (ring[bit // 8] >> (7 - bit % 8) & 1) << (7 - bit % 7)
    start = 30 + 128 + 1008 + struct.unpack_from("<H", data, 30 + 126)[0]
    cipher = data[start:len(data) - (len(data) - start) % 8]
    decryptor = Cipher(TripleDES(bytes(key) * 3), modes.ECB()).decryptor()   # three equal keys: DES
    body = zlib.decompressobj(-zlib.MAX_WBITS).decompress(decryptor.update(cipher) + decryptor.finalize())
    plain = bytearray(data[:start]) + body[256:]
    struct.pack_into("<H", plain, 30 + 96, 0)     # no password …
    plain[30 + 124] = 0                           # … and the body is no longer compressed
    return bytes(plain)


# ---- OLE compound file and Word 97 ----------------------------------------------------
SECTOR = 512
FREE, END, FAT_SECTOR, NO_STREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def ole_bytes(streams: dict[str, bytes]) -> bytes:
    """A compound file holding ``streams`` (each padded to at least 4096 bytes); a name with '/'
    (``BodyText/Section0``) puts the stream in a storage."""
    datas = {name: data.ljust(max(4096, len(data)), b"\0") for name, data in streams.items()}
    runs = [-(-len(d) // SECTOR) for d in datas.values()]
    nodes, kids = _ole_tree(list(datas))
    dir_sectors = -(-len(nodes) * 128 // SECTOR)
    fat_sectors = 1
    while fat_sectors * 128 < fat_sectors + dir_sectors + sum(runs):
        fat_sectors += 1
    fat = [FAT_SECTOR] * fat_sectors
    first_dir = len(fat)
    fat += [len(fat) + i + 1 for i in range(dir_sectors - 1)] + [END]
    starts = {}
    for name, run in zip(datas, runs):
        starts[name] = len(fat)
        fat += [len(fat) + i + 1 for i in range(run - 1)] + [END]
    fat += [FREE] * (fat_sectors * 128 - len(fat))
    right = {a: b for siblings in kids.values() for a, b in zip(siblings, siblings[1:])}
    entries = []
    for i, (name, kind, path) in enumerate(nodes):
        start, size = (starts[path], len(datas[path])) if kind == 2 else (END if kind == 5 else 0, 0)
        entries.append(_dir_entry(name, kind, start, size, child=kids[i][0] if kids.get(i) else NO_STREAM,
                                  right=right.get(i, NO_STREAM)))
    directory = b"".join(entries).ljust(dir_sectors * SECTOR, b"\0")
    header = bytearray(SECTOR)
    header[:8] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    struct.pack_into("<HHHHH", header, 24, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into("<IIIIIIII", header, 40, 0, fat_sectors, first_dir, 0, 4096, END, 0, END)
    struct.pack_into("<I", header, 72, 0)
    difat = list(range(fat_sectors)) + [FREE] * (109 - fat_sectors)
    struct.pack_into("<109I", header, 76, *difat)
    body = struct.pack(f"<{len(fat)}I", *fat) + directory
    body += b"".join(d.ljust(run * SECTOR, b"\0") for d, run in zip(datas.values(), runs))
    return bytes(header) + body


def _ole_tree(paths: list[str]) -> tuple[list[tuple[str, int, str]], dict[int, list[int]]]:
    """Directory entries (name, kind: 5 root, 1 storage, 2 stream; path) and each entry's children."""
    nodes = [("Root Entry", 5, "")]
    index = {"": 0}
    kids: dict[int, list[int]] = {0: []}
    for path in paths:
        parts = path.split("/")
        for depth in range(len(parts)):
            key, parent = "/".join(parts[:depth + 1]), "/".join(parts[:depth])
            if key not in index:
                index[key] = len(nodes)
                nodes.append((parts[depth], 2 if depth == len(parts) - 1 else 1, key))
                kids.setdefault(index[parent], []).append(index[key])
    return nodes, kids


def _dir_entry(name: str, kind: int, start: int, size: int, *, child: int = NO_STREAM,
               right: int = NO_STREAM) -> bytes:
    entry = bytearray(128)
    encoded = (name + "\0").encode("utf-16-le")
    entry[:len(encoded)] = encoded
    struct.pack_into("<HBB", entry, 64, len(encoded), kind, 1)
    struct.pack_into("<III", entry, 68, NO_STREAM, right, child)
    struct.pack_into("<II", entry, 116, start, size)
    return bytes(entry)


TEXT_AT = 1024          # where the one text piece starts in WordDocument


def doc_bytes(paragraphs: list[tuple[str, dict]], *, encrypted: bool = False, nfib: int = 0xC1) -> bytes:
    """A Word 97 document: each paragraph is (text with its end mark, properties); properties:
    ``style`` (1-9: heading level), ``in_table``, ``row_end``. Text is one UTF-16 piece."""
    text = "".join(t for t, _props in paragraphs)
    fkp_page = -(-(TEXT_AT + 2 * len(text)) // SECTOR)
    word = bytearray(fkp_page * SECTOR + SECTOR)
    struct.pack_into("<HH", word, 0, 0xA5EC, nfib)
    struct.pack_into("<H", word, 0x0A, 0x0200 | (0x0100 if encrypted else 0))
    struct.pack_into("<H", word, 32, 14)                 # csw, then 14 words
    struct.pack_into("<H", word, 62, 22)                 # cslw, then 22 dwords
    struct.pack_into("<i", word, 64 + 4 * 3, len(text))  # ccpText
    struct.pack_into("<H", word, 152, 93)                # cbRgFcLcb
    word[TEXT_AT:TEXT_AT + 2 * len(text)] = text.encode("utf-16-le")
    # paragraph properties: one FKP page
    page = bytearray(SECTOR)
    fcs, grpprls, fc = [TEXT_AT], [], TEXT_AT
    for t, props in paragraphs:
        fc += 2 * len(t)
        fcs.append(fc)
        sprms = struct.pack("<H", props.get("style", 0))
        if props.get("in_table"):
            sprms += struct.pack("<HB", 0x2416, 1)
        if props.get("row_end"):
            sprms += struct.pack("<HB", 0x2417, 1)
        grpprls.append(sprms + b"\0" * (len(sprms) % 2))
    crun = len(paragraphs)
    struct.pack_into(f"<{crun + 1}I", page, 0, *fcs)
    top = SECTOR - 1
    for i, grpprl in enumerate(grpprls):
        papx = bytes([0, len(grpprl) // 2]) + grpprl
        top = (top - len(papx)) // 2 * 2
        page[top:top + len(papx)] = papx
        page[4 * (crun + 1) + 13 * i] = top // 2
    page[SECTOR - 1] = crun
    word[fkp_page * SECTOR:(fkp_page + 1) * SECTOR] = page
    # table stream: the piece table, then the PAPX bin table
    clx = b"\x02" + struct.pack("<I", 4 * 2 + 8) + struct.pack("<II", 0, len(text))
    clx += struct.pack("<HIH", 0, TEXT_AT, 0)
    bte = struct.pack("<III", TEXT_AT, fc, fkp_page)
    table = clx + bte
    rgfclcb = 154
    struct.pack_into("<II", word, rgfclcb + 8 * 33, 0, len(clx))
    struct.pack_into("<II", word, rgfclcb + 8 * 13, len(clx), len(bte))
    return ole_bytes({"WordDocument": bytes(word), "1Table": table})
