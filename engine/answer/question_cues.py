"""What a question asks for: its content terms and the kind of answer it wants.

Questions are worded differently from documents ("언제까지 신청해야 하나요?"
→ "신청기간은 8월 28일까지"). ``analyze`` splits a question into *terms*
(the noun-like part of each word, with its morphemes as parts, from the
shared Kiwi of engine.search.analyzer) and *cues*: the kinds of answer its question
words ask for. ``CUES`` maps each kind to the question words that ask for it
and to the line patterns that hold such an answer (a date, an amount, an
organisation, a definition …); ``line_cues`` tells which of them a line has
and ``cue_weight`` what they are worth (``full_cues``: which it holds in
full); ``field_weight`` what a form field ("행사일시: 2023. 10. 21.") is worth
when its label names the question's words or the kind of answer and its
value holds that kind. A few common question
words get the words documents use instead (``PARAPHRASES``: 질문 → 질의,
열리다 → 개최); other verbs and adjectives are looked for by their stem,
which a line gains by and never loses for (``Term.verb``); the noun after
어느/어떤 that only names the kind of answer ("어느 부서") is not looked for; words for the document itself ("파일",
"본문": ``GENERIC_WORDS``) are marked to weigh little; and a term that is
itself a question word of a cue ("원인", "날짜") is marked with it (``asks``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.korean import ITEM_MARK, LETTER, QUESTION_NOUNS, QUESTION_WORDS, flat
from engine.read.form_fields import days_written
from engine.search.analyzer import kiwi

# Kiwi tags of the morphemes a term is made of (nouns, numbers, foreign words, roots, and what Kiwi
# reads as one word: a serial number "46014-2330", an e-mail address, a web address: W_SERIAL, W_EMAIL …).
NOUN_TAGS = ("NNG", "NNP", "NNB", "NR", "SL", "SN", "SH", "XR", "W_")
# Joiners kept inside a term: "K-water", "4~6월" ("·" and "," separate terms).
JOIN_TAGS = ("SO",)
# A symbol standing alone as a word is a term too ("& 기호").
SYMBOL_TAGS = ("SW", "SO")
# Question words and the generic nouns of questions: never terms.
NOT_TERMS = QUESTION_WORDS | QUESTION_NOUNS
# Verbs and adjectives: their stem is a term ("찔러 보았나" → 찌르) that adds to a line holding it and
# costs nothing when missing (documents say it in other words). One-syllable stems (받, 쓰, 내) stand
# inside too many other words, and the verbs that join nouns like particles ("~에 대한", "~를 위한",
# "~에 따른") say nothing about the answer.
VERB_TAGS = ("VV", "VA")
# Case particles that follow only a noun, and the tags Kiwi gives a word it does not know when it reads
# it as something else (an interjection, an adverb, a determiner): see ``_misread_nouns``.
NOUN_PARTICLES = ("JKS", "JKG", "JKO", "JKB", "JC")
MISREAD_TAGS = ("IC", "MAG", "MM")
# A noun the question makes its verb ("게시됐나요": 게시 + 되, "신청하려면") is weighed like a verb's stem.
PREDICATE_SUFFIXES = ("XSV", "XSA")
LINKING_VERBS = frozenset("대하 관하 위하 통하 따르 의하 인하".split())
# Words of questions and the words documents use for them (a term found as either counts). The
# document word for a question verb ("열리나요" → 개최) is weighed like the verb's stem: it adds when found.
PARAPHRASES: dict[str, tuple[str, ...]] = {
    "질문": ("질의", "문의"), "문의": ("질의",), "예산": ("사업비", "사업금액", "소요예산"),
    "돈": ("금액", "수입"), "열리": ("개최", "행사"), "내": ("제출",), "늘": ("증가", "증감"),
    "줄": ("감소",), "줄어들": ("감소",), "뽑": ("선정",), "받": ("접수",),
    "편성": ("예산",), "계산": ("산출",), "산정": ("산출",), "작년": ("전년",), "올해": ("금년",),
    "바뀌": ("변경",), "바꾸": ("변경",), "고치": ("개정", "변경"),
    # the Latin letters forms and letterheads print for a contact ("F A X : 041-…", "E-mail", "TEL")
    "팩스": ("fax",), "이메일": ("e-mail", "email", "전자우편"), "전화": ("tel", "☎"), "전화번호": ("tel", "☎"),
    "홈페이지": ("누리집", "www"),
}
# Words naming the document or its parts ("예제 파일 본문에는"): looked for, but worth little.
GENERIC_WORDS = frozenset("문서 파일 자료 본문 문장 항목 부분".split())
# Question nouns that name the kind of answer ("원인을 어떻게 보나요"): a line holding that kind of
# answer holds them (see ``Term.asks``).
KIND_WORDS = {
    **dict.fromkeys(("원인", "이유", "까닭"), "why"), **dict.fromkeys(("날짜", "일자", "일시", "기한", "시기"), "when"),
    **dict.fromkeys(("금액", "액수", "비율", "총액"), "amount"), **dict.fromkeys(("조항", "법령", "법률", "근거"), "law"),
    **dict.fromkeys(("장소", "위치"), "where"), **dict.fromkeys(("기간", "동안"), "period"),
    **dict.fromkeys(("정의", "뜻", "의미"), "define"),
    **dict.fromkeys(("기관", "부서", "부처", "업체", "회사", "단체"), "who"),     # "발주한 기관은 어디인가요?"
}
# After 어느/어떤/무슨 these name the kind of answer asked for ("어느 부서"), not a word to look for.
ANSWER_KINDS = frozenset("기관 부서 부처 부대 사무소 곳 업체 회사 단체 팀 과 장소 지역 나라 사람 분".split())
_WHICH = frozenset(("어느", "어떤", "무슨"))

# A full date (2023. 10. 21. / 2020년 2월 11일 / 8월 28일 / 22.1.1.) or the day an act dates from ("공포한
# 날부터"); then a month, a clock time, a weekday, a span ("7일 이내") or a year.
_FULL_DATE = (r"\d{4}\s*[.\-/]\s*\d{1,2}\s*[.\-/]\s*\d{1,2}|\d{1,2}\s*월\s*\d{1,2}\s*일"
              r"|[’'‘]\d{2}\s*\.\s*\d{1,2}\s*\.\s*\d{1,2}"
              r"|(?<![0-9.])\d{2}\.\s?(0?[1-9]|1[0-2])\.\s?(0?[1-9]|[12][0-9]|3[01])\.(?![0-9])"   # 22.1.1.
              r"|(?<![0-9.])(0?[1-9]|1[0-2])\.\s?(0?[1-9]|[12][0-9]|3[01])\.?\s*[(（][월화수목금토일][)）]"   # 9.3(목)
              r"|(한|된|받은|지난)\s*날\s*(부터|로부터|까지|이후)")    # "공포한 날부터 시행한다"
_SOME_TIME = (r"\d{4}\s*년\s*\d{1,2}\s*월|(?<![0-9])\d{4}\s*\.\s*(0?[1-9]|1[0-2])\s*\.(?!\s*[0-9])"   # 2004. 11.
              r"|\d{1,2}\s*:\s*\d{2}|[(（][월화수목금토일][)）]"
              r"|\d+\s*(일|주|개월|시간|년)\s*(이내|이전|전|후|까지|부터)"
              # a year alone: "1919년", "’21년", "(21년)" — not a length of years ("3년간", "20년 동안")
              r"|(?<![0-9])(1[0-9]|20)[0-9]{2}\s*년(?!\s*(간|동안|째))|[’'‘][0-9]{2}\s*년|[(（][0-9]{2}\s*년\s*[)）]")
# A number with its unit or counter (원, 달러, %, 명, 매, 종 …), a written-out amount ("1,250", "12.5") or a number alone
# in a table cell; then any other number of three or more characters.
_UNIT_AMOUNT = (r"[0-9][0-9,.]*\s*[십백천만억조]*\s*(원|달러|불|%|퍼센트|명|건|대|개|곳|쪽|페이지|회|점|초|분"
                r"|시간|배|편|인치|바이트|톤|㎡|km|매|장|부|권|종|가지|세대|채|팀|개소|항목)|[0-9]\s*[만억조]|[￦₩$]\s*[0-9]"
                r"|[0-9]{1,3}(,[0-9]{3})+"
                # a decimal, not a bracketed rate "(9.6)" nor a day "9.3(목)"
                r"|(?<![(（△▲0-9.,])[0-9]+\.[0-9]+(?![0-9]*\s*[)）]|[0-9]*\.?\s*[(（][월화수목금토일][)）])"
                r"|(^|\|)\s*([△▲-]?[0-9][0-9,.]*|\(\s*[0-9][0-9,]*\s*\))\s*(\||$)"
                r"|(?<![0-9’‘'`])[0-9]{1,3}\s*(개월|년간|일간|주간|년(?![0-9도]))")   # a span: "1년", "24개월"
_BARE_NUMBER = r"[0-9][0-9,.]{2,}"
# A share or a rate of change: a percentage, or a decimal or △ number in brackets alone in a table
# cell (how statistics tables print a growth rate under an amount: "미국 | 68.5" over "미국 | (9.6)";
# a whole number in brackets is a count: "(6항목)").
_RATE = (r"[0-9]\s*(%|％|퍼센트|%p|포인트)"
         r"|(^|\|)\s*[(（]\s*([△▲▽▼+-]?\s*[0-9][0-9,]*\.[0-9]+|[△▲▽▼]\s*[0-9][0-9,]*)\s*[)）]\s*(\||$)")
# A stretch of time: from one date or month to another ("’26. 4. ∼ ’27. 3.", "3.23. ~ 4.13."), a length
# ("6개월", "5년 동안", "270일간") or one counted from a day ("계약일로부터 270일").
_SPAN = (r"[0-9][.)\s]*(일|월|년)?\s*[~∼～〜–]\s*[’'‘]?\s*[0-9]"
         r"|[0-9]\s*(개월|년간|일간|주간|시간)|[0-9]\s*(년|일|주|달)\s*(동안|간|이내)|(로|으로)?부터\s*[0-9]")


@dataclass(frozen=True)
class Cue:
    """One kind of answer: the question words asking for it and the line patterns holding it.

    A line matching ``strong`` earns ``weight``; one matching only ``weak``
    earns half of it (a full date against a month or a clock time, a number
    with its unit against a bare number); one matching neither loses ``missing``.
    ``labels`` are the words a form field's label uses for this kind of answer
    ("행사일시:", "제출장소:", "사업금액:"). A question asking for it does not ask for the
    cues it ``replaces`` ("얼마나 자주" asks how often, not how much).
    """

    name: str
    asked_by: re.Pattern
    strong: re.Pattern
    weak: re.Pattern
    weight: float
    missing: float
    labels: re.Pattern
    replaces: tuple[str, ...] = ()


NEVER = r"(?!)"   # a pattern that matches nothing


def _cue(name: str, asked_by: str, strong: str, weak: str, weight: float, missing: float = 0.0,
         labels: str = NEVER, replaces: tuple[str, ...] = ()) -> Cue:
    return Cue(name, re.compile(asked_by), re.compile(strong), re.compile(weak), weight, missing,
               re.compile(labels), replaces)


CUES: tuple[Cue, ...] = (
    _cue("when", r"언제|며칠|몇\s*시|몇\s*일|기한|날짜|일자|일시|시기|마감", _FULL_DATE, _SOME_TIME, 0.15, 0.1,
         labels=r"일시|기간|일자|날짜|기한|시기|일정|마감|시점|시각|일$"),
    _cue("amount", r"얼마|몇|금액|액수|비율|규모|수치|퍼센트|총액", _UNIT_AMOUNT, _BARE_NUMBER, 0.12, 0.1,
         labels=r"금액|예산|비용|사업비|단가|가격|액$|수$|규모|비율|률$|율$"),
    # a share or rate asked ("몇 퍼센트", "증가율", "비중") rather than an amount
    _cue("rate", r"퍼센트|%|％|비율|비중|[증감가소승락]\s*[률율]", _RATE, _BARE_NUMBER, 0.12, 0.1,
         labels=r"비율|비중|률$|율$|증감", replaces=("amount",)),
    _cue("who", r"누구|누가|어느\s*(기관|부서|부처|부대|사무소|곳|업체|회사|단체|팀|과)|(기관|부서|부처|업체|회사|단체)(은|는|이|가)?\s*어디"
                r"|소속|담당|주관|발주|문의",
         r"귀하|담당자?\s*:|소속|사무관|주무관|과장|국장|장관|교수|대표|책임자|관리자|대리인|\bpm\b"
         r"|[가-힣]{2,}(부|처|청|과|팀|실|국|단)(\b|\s)"
         r"|기관|센터|공사|공단|대학교|위원회|재단|협회|연구원",
         r"담당|문의|주관|발주|수신|작성|저자|부서", 0.1, 0.05,
         labels=r"담당|부서|기관|문의|주관|발주|성명|소속|작성자|대표|수신|발신|저자|제출처|접수처|장소"),
    # how long: "얼마 동안", "사업 기간은", "몇 년간" — a span from one day to another, or a length
    _cue("period", r"동안|기간|몇\s*(년|개월|달|주|일|시간)\s*(간|동안)|언제부터\s*언제까지",
         _SPAN, _SOME_TIME, 0.15, 0.1, labels=r"기간|기한|일정|동안"),
    _cue("where", r"어디|어느\s*(곳|장소|지역|나라)|장소|위치",
         r"장소|위치|주소|출처|[가-힣]+(시|군|구|동|읍|면|실|센터|청사|홀)(\b|\s)", r"에서|지역", 0.08, 0.05,
         labels=r"장소|위치|주소|출처|소재지|제출처"),
    _cue("define", r"정의|뜻|의미|가리키|이란|란\s*\?|어떤\s*(곳|사람|것)|무엇을\s*위한",
         r"라\s*함은|이란|[가-힣)”\"]란\s|말한다|말함|정의|의미한다|뜻한다|:\s*\S", r"말하는|위한|위해서|기능", 0.15),
    _cue("what", r"무엇|뭐|뭔|무슨|어떤", NEVER, r":\s*\S|위한|위해서|기능", 0.08),
    # the words themselves are asked for ("뭐라고 적혀 있나요"): a line may be made of the question's words
    _cue("quote", r"뭐라고|무엇이라고|어떤\s*(문장|문구|말)|적혀|쓰여", NEVER, NEVER, 0.0),
    _cue("why", r"왜|이유|원인|까닭|어떻게\s*보", r"때문|영향|결과|풀이|원인|이유|인해", r"따른|위해", 0.1),
    _cue("law", r"조항|법령|법률|근거|규정", r"제\s*\d+\s*조|【", r"법\s*제|법령|법률|시행령|시행규칙", 0.15,
         labels=r"법령|법률|법규|근거"),
    # a phone number, fax or e-mail: "전화번호가 뭔가요", "어디로 연락", "몇 번으로"
    _cue("contact", r"전화|연락|팩스|fax|FAX|이메일|메일\s*주소|문의처|몇\s*번으로",
         r"\d{2,4}\s*[-)]\s*\d{3,4}\s*-\s*\d{4}|(?<![0-9-])\d{3,4}-\d{4}(?![0-9-])|[\w.+-]+@[\w-]+\.[\w.]+",
         r"☎|내선|\(\s*\d{4}\s*\)", 0.15, 0.1, labels=r"전화|연락처|팩스|fax|이메일|e-?mail|문의",
         replaces=("amount", "where", "what")),
    # a document's own number: "공고번호는", "접수번호", "몇 호 서식" — "제2024-08호", "법규과-1633", "별지 제3호 서식"
    _cue("number", r"(공고|문서|접수|과제|사건|고시|의안|등록|관리)\s*번호|몇\s*호\s*(로|서식)",
         r"제\s*[0-9]{2,4}\s*-\s*[0-9]+\s*호|제\s*[0-9]+\s*호\s*서식|[가-힣0-9]+(과|팀|부|실|국|처|청)\s*-\s*[0-9]{2,}",
         r"제\s*[0-9]+\s*호|[0-9]{3}-[0-9]{2}-[0-9]{5}", 0.12, 0.1, labels=r"번호", replaces=("amount", "what")),
    # how often: "얼마나 자주", "주기" — 연간, 월 1회, 1회/월, 매주, 수시
    _cue("often", r"얼마나\s*자주|주기|빈도|몇\s*번씩",
         r"[0-9]+\s*회\s*/\s*(년|월|주|일)|(연|월|주|일|년)\s*[0-9]+\s*회|매\s*(년|월|주|일|분기|반기)"
         r"|연간|월간|주간|수시|상시|분기별|반기별|격주|격월|매일",
         r"정기|[0-9]+\s*회", 0.12, 0.1, labels=r"주기|빈도|횟수", replaces=("amount",)),
    _cue("yesno", r"(나요|까요|는지|가요|습니까|ㄹ까)\s*\?*\s*$",
         r"것입니다|것임|것이다|해당하지|아니|않", r"해당|과세|가능|없|있", 0.08),
)
_CUE_BY_NAME = {cue.name: cue for cue in CUES}
WH_WORDS = re.compile(r"언제|며칠|얼마|몇|누구|누가|어디|무엇|뭐|뭔|무슨|어떤|어느|어떻게|왜")   # what a question asks by
_ORDINAL = re.compile(r"(첫|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*번\s*째")
_QUOTED = re.compile(r"[‘'“\"「『]([^’'”\"」』]{1,40})[’'”\"」』]")


@dataclass
class Term:
    """A question term: its text and, for a compound, its morphemes of two or more characters."""

    text: str
    parts: list[str] = field(default_factory=list)
    number: bool = False
    alternatives: tuple[str, ...] = ()     # the words documents use instead (PARAPHRASES)
    generic: bool = False                  # a word for the document itself (GENERIC_WORDS)
    asks: str | None = None                # the cue this word itself asks for ("원인" → why, "날짜" → when)
    verb: bool = False                     # a verb's stem: found, it adds; missing, it costs nothing


@dataclass
class Question:
    text: str
    terms: list[Term]
    cues: list[str]
    unit: str | None = None      # the counter after 몇 ("쪽" in "몇 쪽"), when there is one


def analyze(question: str) -> Question:
    """The terms and answer cues of ``question``."""
    cues = [cue.name for cue in CUES if cue.asked_by.search(question)]
    if "yesno" in cues and WH_WORDS.search(question):
        cues.remove("yesno")
    replaced = {name for cue in cues for name in _CUE_BY_NAME[cue].replaces}
    cues = [cue for cue in cues if cue not in replaced]
    tokens = _misread_nouns(question, kiwi().tokenize(question))
    unit = next((b.form for a, b in zip(tokens, tokens[1:]) if a.form == "몇"
                 and b.tag.startswith(("NN", "SW", "SL"))), None)
    terms = question_terms(question, tokens)
    known = {t.text for t in terms}
    for tok in tokens:     # a question verb: a document noun for it ("열리나요" → 개최), else its stem
        if not tok.tag.startswith(VERB_TAGS) or tok.form in known:
            continue
        known.add(tok.form)
        if tok.form in PARAPHRASES:
            terms.append(Term(PARAPHRASES[tok.form][0], alternatives=PARAPHRASES[tok.form][1:], verb=True))
        elif len(tok.form) >= 2 and tok.form not in LINKING_VERBS:
            terms.append(Term(tok.form, verb=True))
    terms += [Term(m.group().replace(" ", "")) for m in _ORDINAL.finditer(question)]
    for quoted in _QUOTED.findall(question):
        if quoted.lower() not in known:
            terms.append(Term(quoted.lower(), [t.text for t in question_terms(quoted)]))
    for term in terms:
        kind = KIND_WORDS.get(term.text)
        term.asks = kind if kind in cues else None
    return Question(question, terms, cues, unit)


def question_terms(text: str, tokens=None) -> list[Term]:
    """The noun-like run of every word of ``text`` (particles and endings dropped), once each."""
    tokens = tokens if tokens is not None else _misread_nouns(text, kiwi().tokenize(text))
    runs: list[list] = []
    current: list = []
    last_end = -1
    previous = None
    for tok, after in zip(tokens, [*tokens[1:], None]):
        kind = previous in _WHICH and tok.form in ANSWER_KINDS
        previous = tok.form
        noun = not kind and (tok.tag.startswith(NOUN_TAGS) or (tok.tag in SYMBOL_TAGS and _alone(text, tok))
                             or _glued_determiner(tok, after))
        joiner = tok.tag in JOIN_TAGS and current and tok.start == last_end
        if (noun or joiner) and (not current or tok.start == last_end):
            current.append(tok)
        else:
            if current:
                runs.append(current)
            current = [tok] if noun else []
        last_end = tok.start + tok.len
    if current:
        runs.append(current)
    out: list[Term] = []
    seen = set()
    following: dict[int, object] = {}
    for tok in tokens:
        following.setdefault(tok.start, tok)   # the first token at a place: 되 of 됐 (되 + 었)
    for run in runs:
        after = following.get(run[-1].start + run[-1].len)
        predicate = after is not None and after.tag in PREDICATE_SUFFIXES and not any(t.tag == "SN" for t in run)
        while run and run[-1].tag in JOIN_TAGS:
            run = run[:-1]
        if not run:
            continue
        term = text[run[0].start: run[-1].start + run[-1].len].lower()
        number = any(t.tag == "SN" for t in run)
        symbol = run[0].tag in SYMBOL_TAGS
        if term in seen or term in NOT_TERMS or (len(term) < 2 and not (number or symbol)):
            continue
        seen.add(term)
        parts = [t.form.lower() for t in run
                 if t.tag not in JOIN_TAGS and (len(t.form) >= 2 or t.tag == "SN")
                 and t.form not in NOT_TERMS]
        out.append(Term(term, parts if parts != [term] else [], number, PARAPHRASES.get(term, ()),
                        term in GENERIC_WORDS, verb=predicate))
    if all(term.verb for term in out):     # "언제까지 신청해야 하나요?": the predicate is all there is to look for
        for term in out:
            term.verb = False
    return out


@dataclass(frozen=True)
class _Token:
    """A token standing in for what Kiwi split wrongly (the fields question_terms reads of a Kiwi token)."""

    form: str
    tag: str
    start: int
    len: int


def _misread_nouns(text: str, tokens: list) -> list:
    """``tokens`` with a word Kiwi read as interjections, adverbs or determiners before a case particle
    ("헤이케의" as 헤 + 이케 + 의, "인제에" as the adverb 인제 + 에) made one proper noun: those particles
    follow only nouns."""
    out: list = []
    for tok in tokens:
        word = []
        while out and out[-1].tag in MISREAD_TAGS and out[-1].start + out[-1].len == (word or [tok])[0].start:
            word.insert(0, out.pop())
        if word and tok.tag in NOUN_PARTICLES and (word[0].start == 0 or text[word[0].start - 1].isspace()):
            start = word[0].start
            word = [_Token(text[start:tok.start], "NNP", start, tok.start - start)]
        out.extend(word)
        out.append(tok)
    return out


def _glued_determiner(tok, after) -> bool:
    """A determiner written together with the noun after it is a misread noun ("각주" as 각 + 주):
    Korean spaces a real one ("각 기관", "두 번")."""
    return (tok.tag == "MM" and tok.form not in NOT_TERMS and after is not None
            and after.start == tok.start + tok.len and after.tag in ("NNG", "NNP"))


def _alone(text: str, tok) -> bool:
    """Whether a token is a whole word of ``text`` (spaces or the text's ends around it)."""
    end = tok.start + tok.len
    return (tok.start == 0 or text[tok.start - 1].isspace()) and (end == len(text) or text[end].isspace())


UNIT_WEIGHT = 0.05
# Counters that count the same things: "몇 장" is answered by "2매", "몇 곳" by "3개소".
LIKE_COUNTERS = {"장": ("매",), "매": ("장",), "명": ("인",), "곳": ("개소",), "개소": ("곳",)}
MAX_CUE_WEIGHT = 0.2
# What each kind of answer held in full is worth in ``line_cues`` (the features say which kinds a line holds).
CUE_WORTH = {**{cue.name: cue.weight for cue in CUES if cue.weight}, "unit": UNIT_WEIGHT}


def cue_weight(question: Question, found: dict[str, float]) -> float:
    """What a line's answer cues (``found``, from ``line_cues``) are worth for ``question``:
    up to 0.2, or below zero when the line lacks what it asks for (a date, an amount, a place …)."""
    if not found:
        return -max((_CUE_BY_NAME[name].missing for name in question.cues), default=0.0)
    return min(sum(found.values()), MAX_CUE_WEIGHT)


FIELD_TERM = 0.1      # a form field whose label holds a word of the question ("행사일시" for 열리다 → 행사) …
FIELD_KIND = 0.05     # … or names the kind of answer asked ("일시" for 언제), with an answer of that kind after it
LABEL_CHARS = 12
# A form field: a short label, a colon, a value ("제출장소: 강북구청 문화관광체육과", "2) 일 시 : 10. 21.").
_FIELD = re.compile(rf"^[^\w(]*({ITEM_MARK})?\s*(?P<label>[^:：|]{{1,30}}?)\s*[:：]\s*(?P<value>\S.*)$")


def field_weight(question: Question, line: str, form: tuple[tuple[tuple[str, ...], str], ...] = ()) -> float:
    """What ``line`` is worth as a form field answering ``question``: its label names the question's
    words or the kind of answer asked, and its value holds an answer of that kind. A form row of
    several fields ("보도시점 | 2024. 6. 21. | 배포 | 6. 20.") is worth what its best field is. ``form``
    holds (labels, value) of the fields its document was read to state (``documents.Documents.form``):
    a line holding such a value (a date as written there: 「2023년 3월 24일」 for 2023-03-24) is that field too."""
    cells, days = (_without_bars(line), days_written(line)) if form else ("", set())
    stated = [(label, value) for labels, value in form if _without_bars(value) in cells or value in days
              for label in labels]
    return max(_one_field_weight(question, label, value) for label, value in _fields(line) + stated)


def _without_bars(text: str) -> str:
    """``text`` flat and without cell bars: a value as a line holds it across the cells it spreads over."""
    return flat(text).replace("|", "")


def _fields(line: str) -> list[tuple[str, str]]:
    """The (label, value) pairs of ``line`` (``_field``); a table row of label and value cells taken
    in turn, every label holding letters, gives one pair each."""
    cells = line.split(" | ")
    if len(cells) >= 4 and len(cells) % 2 == 0 and all(LETTER.search(c) for c in cells[::2]):
        return [(re.sub(r"\s+", "", label).lower(), value) for label, value in zip(cells[::2], cells[1::2])]
    return [_field(line)]


def _one_field_weight(question: Question, label: str, value: str) -> float:
    if not label or len(label) > LABEL_CHARS or not LETTER.search(label):
        return 0.0
    # the value answers when it looks like what is asked or its label says it is that ("개찰장소: 나라장터")
    answered = [cue for cue in map(_CUE_BY_NAME.get, question.cues)
                if cue.name in ("what", "define") or cue.strong.search(value) or cue.weak.search(value)
                or (cue.labels.search(label) and LETTER.search(value))]
    if not answered:
        return 0.0
    weight = 0.0
    if any(word in label for term in question.terms if not term.generic
           for word in (term.text, *term.alternatives, *term.parts)):
        weight += FIELD_TERM
    if any(cue.labels.search(label) for cue in answered):
        weight += FIELD_KIND
    return weight


def field_parts(line: str) -> tuple[str, str]:
    """(label as written, value) of a form field — "label: value", or a table row of two cells
    "label | value" — else ("", "")."""
    cells = line.split(" | ")
    if len(cells) == 2 and cells[1].strip():
        return cells[0], cells[1]
    found = _FIELD.match(line)
    return (found["label"], found["value"]) if found else ("", "")


def _field(line: str) -> tuple[str, str]:
    """(label without spaces, in lower case, value) of a form field (``field_parts``)."""
    label, value = field_parts(line)
    return re.sub(r"\s+", "", label).lower(), value


def line_cues(question: Question, line: str, header: str = "") -> dict[str, float]:
    """The cues of ``question`` that ``line`` holds beyond the question's own words, with what each is
    worth ("unit": a number with the counter asked for, or under a table header naming it).
    Letter-spaced words ("귀 하") count too."""
    rest = _without_terms(question, line)
    # letters spaced apart close up; numbers do not (a date "’26. 4." is no decimal "26.4")
    variants = (rest, _LETTER_SPACES.sub("", rest))
    found = {}
    for name in question.cues:
        cue = _CUE_BY_NAME[name]
        if any(cue.strong.search(text) for text in variants):
            found[name] = cue.weight
        elif any(cue.weak.search(text) for text in variants):
            found[name] = cue.weight / 2
    unit = "|".join(map(re.escape, (question.unit, *LIKE_COUNTERS.get(question.unit, ())))) if question.unit else ""
    if unit and "amount" in question.cues and (
            re.search(rf"[0-9]\s*({unit})", line) or (re.search(unit, header) and re.search(r"[0-9]", line))):
        found["unit"] = UNIT_WEIGHT
    return found


_LETTER_SPACES = re.compile(rf"(?<={LETTER.pattern})\s+(?={LETTER.pattern})")


def _without_terms(question: Question, line: str) -> str:
    """``line`` without the question's own words; a number goes with the counter of a number the
    question names ("1분기" when the question says "3분기": another quarter, not an amount), and the
    number alone of "2024년" or "1분기" only where it stands alone ("2024. 6. 21." stays a date)."""
    rest = line.lower()
    for term in question.terms:
        for word in (term.text, *term.parts):
            if word.isdigit():   # a number alone: never a piece of another number or date
                rest = re.sub(rf"(?<![0-9.,]){word}(?![0-9.,])", " ", rest)
                continue
            counted = r"([0-9][0-9.,]*\s*)?" if term.number and not word[:1].isdigit() else ""
            rest = re.sub(counted + re.escape(word), " ", rest)
    return rest


def full_cues(found: dict[str, float]) -> set[str]:
    """The cues of a line (``found``, from ``line_cues``) it holds in full (a whole date, a number
    with its unit …), not only a sign of them."""
    return {name for name, worth in found.items()
            if name in _CUE_BY_NAME and worth == _CUE_BY_NAME[name].weight}
