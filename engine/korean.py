"""Korean text rules the stages share: how text is cleaned and compared, where sentences end, question words.

Reading (readers' titles, outline, form fields, revisions), search (analyzer, chunking, phrases,
re-ranking) and answers (question cues, lines, scoring, citations, verify, the evidence page) take
these from here rather than keeping their own copies. Rules that look alike but do different jobs
stay apart, each named for its job (cutting a long paragraph into chunks is not splitting an answer
into sentences); a change here changes what is indexed and answered, so it is measured with
bench/answers.py.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# ---- cleaning and comparing ---------------------------------------------------
_INVISIBLE = re.compile(r"[\u00ad\u200b-\u200d\u2060\ufeff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u00a0\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\t]")
_SPACES = re.compile(r" {2,}")
DIGIT_COMMA = re.compile(r"(?<=[0-9]),(?=[0-9])")     # a thousands comma: "1,200"
LETTER = re.compile(r"[^\W\d_]")                     # a letter of any script: not a digit, mark or "_"
# A page number standing alone: "- 7 -", "iii", "7 / 35" (a PDF's footer, a header's only text).
PAGE_NUMBER = re.compile(r"[-–—\s]*(\d{1,3}|[ivxIVX]{1,6})(\s*/\s*\d{1,4})?[-–—\s]*")


SHORT_TEXT = 200   # characters: table cells and the like, which repeat (numbers, units, names)


def clean_text(text: str) -> str:
    """No-break spaces and control characters become spaces; blank lines and edge spaces go."""
    return _clean_short(text) if len(text) <= SHORT_TEXT else _clean(text)


@lru_cache(maxsize=65536)
def _clean_short(text: str) -> str:
    return _clean(text)


def _clean(text: str) -> str:
    text = _CONTROL.sub(" ", _INVISIBLE.sub("", text.replace("\r\n", "\n").replace("\r", "\n")))
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


_LETTER_SPACED = re.compile(r"(?<![가-힣])[가-힣](?:\s+[가-힣]){2,}(?![가-힣])")


def closed_up(text: str) -> str:
    """``text`` with each run of three or more Hangul syllables set letter by letter closed up
    ("통 합 재 정 통 계" → "통합재정통계", "강 서 소 방 서" → "강서소방서"); words of two or more stay apart."""
    return _LETTER_SPACED.sub(lambda m: "".join(m.group().split()), text)


def one_line(text: str) -> str:
    """Whitespace runs as single spaces, edges trimmed (how a field or a quote is compared)."""
    return " ".join((text or "").split())


def folded(text: str) -> str:
    """NFKC and lower case: full-width forms and letter case do not count."""
    return unicodedata.normalize("NFKC", text).lower()


def compact(text: str) -> str:
    """Folded, without whitespace: how a phrase or a passage is compared ("해외직접투자 동향" = "해외직접투자동향")."""
    return "".join(folded(text).split())


def flat(text: str) -> str:
    """Folded, without thousands commas, then without whitespace: how an answer's terms are looked for in
    a line ("1,200 원" = "1200원"; "1, 2" keeps its comma)."""
    return "".join(DIGIT_COMMA.sub("", folded(text)).split())


# ---- sentences ----------------------------------------------------------------
# A sentence ends at . ! ? 。 (not after a digit, so "2024. 6. 21." and "1. 목적" stay whole, nor after a
# letter standing alone: the initial of "비. 리치(B. Rich)", the item mark of "가. 목적") or at a line break.
_AFTER_SENTENCE = r"(?<=[^0-9\s][.!?。])(?<![\s(\"'“‘]\w\.)(?<!^\w\.)\s+"
_SENTENCE_BREAK = re.compile(rf"{_AFTER_SENTENCE}|\n+")
# The same, where a long paragraph is cut into chunks: "…" ends a sentence too, and so does a digit's full stop.
SENTENCE_END = re.compile(r"(?<=[.!?。…])\s+")
CHUNK_BREAK = re.compile(rf"{SENTENCE_END.pattern}|\n+")
# A line that ends a sentence (or a lead-in's colon): the page did not break it.
ENDS_SENTENCE = re.compile(r"[.!?。:;]\s*$")


def split_sentences(text: str) -> list[str]:
    """The sentences of a text, each stripped; empty pieces dropped."""
    return [s.strip() for s in _SENTENCE_BREAK.split(text) if s and s.strip()]


# ---- list markers ---------------------------------------------------------------
# Each names its job; they differ because the jobs do (an answer line's item, a title that cannot be
# one, a comparison table's provision label).
# List bullets: a line starting with one is a list item, and a line of answer text is cut before one.
BULLETS = "○●◦•▪■□◆◇◎※➀➁➂➃➄➅➆➇➈➉①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮·"
# The mark of a numbered or lettered item: "1." "(2)" "3)" "가." "나)".
ITEM_MARK = r"\(?[0-9]{1,2}[.)]|[가-하][.)]"
# A line starting a list item or a numbered heading ("○ ", "ㅇ ", "1. ", "(2) ", "가) ", "제3조").
LIST_MARKER = re.compile(rf"\s*([{BULLETS}□■▣\-*]|ㅇ\s|(?:{ITEM_MARK})\s|제\s*[0-9]+\s*[조장절])")
# The marks of a list lettered 가. 나. 다. …, and a line each of them opens.
ITEM_LETTERS = "가나다라마바사아자차카타파하"
_ITEM_LETTER = re.compile(r"\s*([가-힣])[.)]\s")
_LETTERED_LINE = {letter: re.compile(rf"(?m)^\s*{letter}[.)]\s") for letter in ITEM_LETTERS}


def opens_item(text: str, before: list[str]) -> bool:
    """Whether ``text`` opens a list item (LIST_MARKER). A syllable and a full stop ("다. 또한 …") open one
    only as the next of the 가 나 다 … marks after its predecessor opened a line of ``before``: else the
    syllable ends a sentence the page broke ("… 부여해야 한" / "다. 또한 …")."""
    if not LIST_MARKER.match(text):
        return False
    letter = _ITEM_LETTER.match(text)
    if letter is None:
        return True
    place = ITEM_LETTERS.find(letter.group(1))
    if place <= 0:
        return place == 0
    return any(_LETTERED_LINE[ITEM_LETTERS[place - 1]].search(part) for part in before)


def broken_word(prev: str, row: str) -> bool:
    """Whether a page or column end may have broken a word between two lines: a letter ends ``prev`` and
    one opens ``row``."""
    return prev[-1:].isalpha() and row[:1].isalpha()


# A word marked for a note ("마이데이터*", "K-water**") and the note that explains it ("* 정보주체인 이용자
# 중심의 …", "** …"), as plans and press releases set them out.
STARRED = re.compile(r"([^\s*|()]+)\*+(?![^\s)\]」』,.])")
NOTE = re.compile(r"^\s*[*＊]+\s")
# Where a line of answer text is cut into lines: after a sentence end and before a list bullet.
LINE_BREAK = re.compile(rf"{_AFTER_SENTENCE}|\s+(?=[{BULLETS}])|\s+(?=ㅇ\s)")
# A line that opens as one of a list or an outline ("1." "Ⅱ." "가)" "○" "(3)"): not a document's title.
LISTED_LINE = re.compile(r"^([\dⅠ-Ⅹ]+\s*[.)]|[가-하]\s*[.)]|[□■○●◦ㅇ※*·•]|\(\d+\))")
# The label of a provision in a comparison table's row: 제13조, 제13조의2, ①, 13., 1), 가., 가).
PROVISION_LABEL = re.compile(
    r"^\s*(제\s*\d+\s*(조|항|호|장|절|관)(\s*의\s*\d+)?"   # 제13조, 제13조의2
    r"|[①-⑳]"                                          # ①
    r"|\d{1,3}\s*\.(?!\d)"                               # 13.
    r"|\d{1,3}\s*\)"                                      # 1)
    r"|[가-하]\s*[.)])"                                   # 가.  가)
)
# Endings of a short numbered line that make it an item, not a heading ("1. 신청은 온라인으로 함").
ITEM_ENDINGS = (".", "。", "다", "함", "임", "음")


# ---- questions ----------------------------------------------------------------
# What a question asks with ("언제", "얼마나"): never a word to look for in the text that answers it.
QUESTION_WORDS = frozenset("언제 며칠 얼마 얼마나 몇 누구 누가 어디 무엇 뭐 뭔가 무슨 어떤 어느 어떻게 왜".split())
# The generic nouns questions are built with ("경우", "내용", "것"): never a term of the question.
QUESTION_NOUNS = frozenset("경우 관련 내용 정도 때 뒤 앞 중 등 것 거 건 수 이 그 저 해당".split())
