"""Korean particles chosen by the word they follow: 메시지 3을, 메시지 2를, `read_file`로.

A particle's form depends on how the word before it ends when read aloud: with a final
consonant (받침) 을/은/이/과/으로, without one 를/는/가/와/로, and 로 after ㄹ. `tossi` picks the
form for Hangul and for numbers (read as Korean numerals: 10 is 십, so 10을; 12,000 is
만이천, so 12,000을) and skips a closing "(...)" (메시지 3(어시스턴트)을). It leaves Latin
letters open (`keep을(를)`); `coda` reads them the way Korean readers say them: an acronym
letter by letter (API 에이피아이, so API를), a word by its last sound (keep 킵: keep을; file
파일: read_file로; cache 캐시: cache를).

In the course's Korean templates a particle is the tail of a placeholder's format spec,
written in its form after a consonant: "{n:,을}" is n with thousands separators and 을 or
를 (coursekit.i18n.fill fills them).
"""

from __future__ import annotations

import re

import tossi
from tossi.coda import filter_only_significant, guess_coda

# How an acronym's last letter is read: L 엘, M 엠, N 엔, R 알; every other letter ends in a
# vowel (A 에이, B 비, ... X 엑스, Z 지).
LETTER_CODA = {"L": "ㄹ", "M": "ㅁ", "N": "ㄴ", "R": "ㄹ"}
# Words the rules below read wrong, with the final sound Korean readers give them.
READINGS = {"loop": "", "check": "", "type": "ㅂ", "bit": "", "group": "ㅂ"}
VOWELS = "aeiou"


def word_coda(word: str) -> str:
    """The final consonant (a jamo, or "" for a vowel) of an English word or acronym as
    Korean reads it; a code name (`read_file`, `BatchClearing`) by its last part."""
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", word)
    last = parts[-1] if parts else word
    if last.isupper() or len(last) == 1:  # API, GB, x: letter by letter
        return LETTER_CODA.get(last[-1].upper(), "")
    w = last.lower()
    if w in READINGS:
        return READINGS[w]
    if w.endswith("ng"):
        return "ㅇ"  # string 스트링
    if w.endswith(("m", "me")):
        return "ㅁ"  # item 아이템, time 타임
    if w.endswith(("n", "ne")):
        return "ㄴ"  # token 토큰, line 라인
    if w.endswith(("l", "le")):
        return "ㄹ"  # file 파일, tool 툴, table 테이블
    short = len(w) >= 2 and w[-2] in VOWELS and (len(w) < 3 or w[-3] not in VOWELS)
    if w.endswith("p") and (short or w.endswith("eep")):
        return "ㅂ"  # step 스텝, keep 킵 (but loop 루프)
    if w.endswith("ck") or w.endswith("ook"):
        return "ㄱ"  # block 블록, book 북 (but check 체크)
    if w.endswith("t") and short:
        return "ㅅ"  # cut 컷, audit 오딧, output 아웃풋 (but wait 웨이트, text 텍스트)
    if w.endswith("b") and short:
        return "ㅂ"  # web 웹
    return ""  # server 서버, notes 노츠, cache 캐시, code 코드, search 서치


def coda(word: object) -> str | None:
    """The final consonant of `word` as read aloud ("" after a vowel), or None if it does
    not end in something readable. Trailing quotes, backticks, brackets and a closing
    "(...)" are skipped, as a reader skips them."""
    text = str(word)
    if re.search(r"%[`'\"\])}]*$", text):
        return ""  # 40% 사십 퍼센트
    found = guess_coda(text)  # Hangul, or a number read as a Korean numeral
    if found is not None:
        return found
    latin = re.search(r"[A-Za-z]+$", filter_only_significant(text))
    return word_coda(latin.group(0)) if latin else None


def pick(word: object, particle: str) -> str:
    """The form of `particle` (given in either form: 을 or 를) that follows `word`."""
    return tossi.pick(str(word), particle, guess_coda=coda)


def attach(word: object, particle: str) -> str:
    """`word` followed by the right form of `particle`: attach("메시지 3", "를") is "메시지 3을"."""
    return f"{word}{pick(word, particle)}"


def open_particles(text: str) -> list[str]:
    """The particles left open in `text` (을(를), (으)로, ...), which a template must not
    print: it picks the form instead."""
    return re.findall(r"[을은이과]\((?:를|는|가|와)\)|\((?:를|는|가|와)\)|\(으\)로|으로\(로\)", text)
