"""HWP 3.0 characters (``hchar``): 16-bit codes, Hangul in KSSM 조합형 (Johab) → Unicode.

A code below 0x80 is ASCII. A code with the high bit set is a Johab code
(KS X 1001:1998 annex 3, 상용 조합형): 1 bit + 5 bits initial + 5 bits
medial + 5 bits final consonant. A modern syllable is composed from the
three jamo indexes through the tables below, which restate the annex's bit
assignments; Johab codes that are no syllable (compatibility jamo, symbols,
hanja, in the KS X 1001 rows Johab maps to 0xD9xx–0xFExx) are decoded with
Python's ``johab`` codec, which implements the same annex; syllables with the
old vowel ㆍ become conjoining jamo (see ``ARAEA``).

Codes 0x80–0x7FFF are 한글's own, which the published format does not list.
What they mean was measured (``bench/hwp3_symbols.py``) by aligning the text
of nine HWP 3 files with 한글's own HWP 5 conversions of the same documents:
``HANJA_BASE`` + i is the i-th hanja of KS X 1001 (rows 42–93, 94 a row),
``SYMBOL_BASE`` + 96 × (row − 1) + cell is the symbol at that row (1–8) and
cell (1–94) of KS X 1001 (decoded as Python's ``euc_kr`` codec maps it), and
the few codes of ``OWN_CODES`` are each what every aligned conversion wrote.
Seen there: 51 symbol codes of rows 1, 2, 3, 5, 6 and 8 (1,529 times, rows 4
and 7 never: they follow the same layout) and 9 hanja from all over the
range, each as 한글 wrote it; the 한글 97 안내문 reads 漢語 and 注音字母 by the
same rule. Three symbols 한글 writes as another code point than Unicode's
KS X 1001 table (· ․, ∼ ～, ⊙ ◉) are kept in the table's form, as the Johab
symbol area decodes them. Any other code is dropped, never guessed: most
are 한글's private glyphs, which the conversions write in Unicode's private
use area and which are no text (0x301C, in long runs, is 24,836 of the
25,104 seen).
"""
from __future__ import annotations

from typing import Optional

# 5-bit field value -> jamo index of Unicode's syllable arithmetic (None: fill code or unused).
# Initial: 1 fill, 2 ㄱ … 20 ㅎ (the 19 modern initials in order).
INITIALS = {code: code - 2 for code in range(2, 21)}
# Medial: 2 fill; 3–7 ㅏㅐㅑㅒㅓ, 10–15 ㅔㅕㅖㅗㅘㅙ, 18–23 ㅚㅛㅜㅝㅞㅟ, 26–29 ㅠㅡㅢㅣ.
MEDIALS = {code: index for index, code in enumerate(
    list(range(3, 8)) + list(range(10, 16)) + list(range(18, 24)) + list(range(26, 30)))}
# Final: 1 fill (no final), 2–17 ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁ, 19–29 ㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ.
FINALS = {code: index for index, code in enumerate([1] + list(range(2, 18)) + list(range(19, 30)))}
SYLLABLE_BASE = 0xAC00
# Medial 30 is the old vowel ㆍ (아래아), which no modern syllable holds: such a syllable is written as
# conjoining jamo (initial U+1100…, U+119E, final U+11A8…). Seen in Hancom's own 한글 97 안내문, whose every
# 「ᄒᆞᆫ글」 is 0xD3C5 (ㅎ, 30, ㄴ), as Hancom's format document spells the name.
ARAEA, ARAEA_JAMO, INITIAL_JAMO, FINAL_JAMO = 30, "\u119e", 0x1100, 0x11A7
HANGUL_END = 0xD400   # Johab Hangul codes end with lead byte 0xD3; symbols and hanja start at 0xD8
# 한글's own codes below 0x8000 (see the module docstring for the measurement).
HANJA_BASE, HANJA_ROWS, FIRST_HANJA_ROW = 0x4000, 52, 42   # the 4,888 KS X 1001 hanja in their order
SYMBOL_BASE, SYMBOL_ROWS, ROW_STRIDE = 0x3400, 8, 96      # KS X 1001 rows 1–8, 96 codes a row
CELLS = 94
# first code -> the characters of it and the codes after it (each code seen in the conversions)
OWN_CODES = {0x81: "“”‘’", 0x2022: "•", 0x2219: "∙", 0x2C21: "ⓐⓑⓒⓓⓔⓕ", 0x2C40: "㉠㉡㉢",
             0x2E01: "①②③④⑤⑥⑦", 0x2F06: "■", 0x2F11: "◦", 0x2F17: "•", 0x37ED: "═"}


def hchar_text(code: int) -> Optional[str]:
    """The character of one hchar (None: a control, or a glyph with no published mapping)."""
    if code < 0x20:
        return None
    if code < 0x80:
        return chr(code)
    if code < 0x8000:
        return _OWN.get(code)
    syllable = _syllable(code)
    if syllable is not None:
        return syllable
    if code < HANGUL_END and (code >> 5) & 0x1F == ARAEA:
        return _araea(code)
    try:
        return bytes((code >> 8, code & 0xFF)).decode("johab")
    except UnicodeDecodeError:
        return None


def _syllable(code: int) -> Optional[str]:
    initial = INITIALS.get((code >> 10) & 0x1F)
    medial = MEDIALS.get((code >> 5) & 0x1F)
    final = FINALS.get(code & 0x1F)
    if initial is None or medial is None or final is None:
        return None
    return chr(SYLLABLE_BASE + (initial * 21 + medial) * 28 + final)


def _araea(code: int) -> Optional[str]:
    initial, final = INITIALS.get((code >> 10) & 0x1F), FINALS.get(code & 0x1F)
    if initial is None or final is None:
        return None
    return chr(INITIAL_JAMO + initial) + ARAEA_JAMO + (chr(FINAL_JAMO + final) if final else "")


def _ks_x_1001(row: int, cell: int) -> Optional[str]:
    try:
        return bytes((0xA0 + row, 0xA0 + cell)).decode("euc_kr")
    except UnicodeDecodeError:   # a cell the standard leaves empty
        return None


def _own_codes() -> dict[int, str]:
    """Every 한글-own code with a known character: KS X 1001 hanja and symbols, then ``OWN_CODES``."""
    table = {}
    for row in range(HANJA_ROWS):
        for cell in range(CELLS):
            table[HANJA_BASE + row * CELLS + cell] = _ks_x_1001(FIRST_HANJA_ROW + row, cell + 1)
    for row in range(SYMBOL_ROWS):
        for cell in range(1, CELLS + 1):
            table[SYMBOL_BASE + row * ROW_STRIDE + cell] = _ks_x_1001(row + 1, cell)
    table.update((first + i, ch) for first, chars in OWN_CODES.items() for i, ch in enumerate(chars))
    return {code: ch for code, ch in table.items() if ch}


_OWN = _own_codes()


def hchar_string(data: bytes) -> str:
    """A fixed ``hchar array`` (document summary fields) up to its first NUL."""
    out = []
    for i in range(0, len(data) - 1, 2):
        code = data[i] | data[i + 1] << 8
        if code == 0:
            break
        out.append(hchar_text(code) or "")
    return "".join(out).strip()
