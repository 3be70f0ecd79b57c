"""Characters 한글 writes in Unicode's private use areas, as the text they stand for.

- Old Hangul (옛한글) syllables in the Hanyang private use area (U+E0BC–U+F8F7), as 한글 wrote them
  before it composed them from jamo: decoded into conjoining jamo by ``hypua2jamo`` (pyhwp's author,
  LGPL), so "아래한글(U+F53A글)" reads "아래한글(ᄒᆞᆫ글)" (67 times in the HWP files of the office and
  corpus sets). PDFs 한글 exported are left as MuPDF reads them: their equation fonts draw formulas with
  the same code points, which would become Hangul.
- 한글's numbers in a square, U+F02B1–U+F02C4 (1–20), which number the items of plans and notices:
  written as the circled numbers ①–⑳, the nearest characters Unicode has (other HWP tools read the
  range the same way: the number, drawn in a square).
- Symbols of the Wingdings font, which 한글 stores at U+F000 + the font's code (a bullet "▪" is
  U+F0A7, a ticked box "☑" U+F0FE, an arrow "➔" U+F0E8 between the steps of a procedure): written as
  the Unicode characters for those glyphs (``WINGDINGS``: the bullets, boxes, checks, arrows and
  pointing hands office documents use; 한글's own PDF export draws the same glyphs for them).
- 한글's own symbols in the supplementary private use area (``HANCOM_SYMBOLS``): the double angle brackets
  U+F0854/U+F0855 around a ※ or a title (《 》), arrows, bullets, box-drawing lines, as other HWP readers
  print them (hwp.js-family viewers agree on these code points).
Any other private-use character is kept as it is: what it stands for is not known here.
"""
from __future__ import annotations

import re

from hypua2jamo import translate

SQUARED_NUMBERS = range(0xF02B1, 0xF02C5)   # 1–20
CIRCLED_ONE = 0x2460                        # ①; ⑳ is U+2473
# Wingdings code -> the Unicode character for its glyph
WINGDINGS = {
    0x45: "☜", 0x46: "☞", 0x47: "☝", 0x48: "☟",
    0x6C: "●", 0x6D: "❍", 0x6E: "■", 0x6F: "□", 0x71: "❑", 0x72: "❒", 0x75: "◆", 0x76: "❖", 0x77: "⬥",
    0x9E: "·", 0x9F: "•", 0xA0: "▪", 0xA1: "○", 0xA4: "◉", 0xA5: "◎", 0xA7: "▪", 0xA8: "◻", 0xAB: "★",
    0xD8: "➢", 0xE8: "➔", 0xEF: "⇦", 0xF0: "⇨", 0xF1: "⇧", 0xF2: "⇩",
    0xFB: "✗", 0xFC: "✓", 0xFD: "☒", 0xFE: "☑",
}
SYMBOL_FONT = 0xF000                         # 한글 stores a Wingdings glyph at U+F000 + its code
HANCOM_SYMBOLS = {
    0xF0854: "《", 0xF0855: "》", 0xF003B: "↓", 0xF03A0: "↵", 0xF02FC: "►", 0xF02EF: "·",
    0xF031C: "■", 0xF03C5: "□", 0xF080F: "━", 0xF081A: "─", 0xF0811: "┌", 0xF0817: "└",
}
_SYMBOLS = str.maketrans({**{SYMBOL_FONT + code: char for code, char in WINGDINGS.items()}, **HANCOM_SYMBOLS})
_PRIVATE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010fffd]")
_SQUARED = re.compile(f"[{chr(SQUARED_NUMBERS.start)}-{chr(SQUARED_NUMBERS.stop - 1)}]")


def readable(text: str) -> str:
    """``text`` with the private-use characters above written as the text they stand for."""
    if _PRIVATE.search(text) is None:
        return text
    text = _SQUARED.sub(lambda m: chr(CIRCLED_ONE + ord(m.group()) - SQUARED_NUMBERS.start), text)
    return translate(text.translate(_SYMBOLS))
