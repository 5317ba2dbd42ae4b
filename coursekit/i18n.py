"""The learner's language, English or Korean, and the few words the course prints in each.

`lang()` is "ko" when `AGENTLIB_LANG=ko`, or when the kernel runs in a folder named `ko`
(the Korean edition's notebooks live in lessons/ko/, exercises/ko/ and solutions/ko/, and
Jupyter starts a notebook's kernel in the notebook's folder); else "en". So the same code
cell prints English labels in an English notebook and Korean ones in a Korean notebook.

`say(text)` is `text` in the learner's language: English is the key, the Korean catalog is
`PHRASES` below (a phrase it lacks stays English; tests/test_i18n.py finds those), and
`PRINTED` for the sentences the lessons' own code cells print (`print(say("...", n=...))`:
the same code cell prints English in an English notebook and Korean in a Korean one).
A Korean template picks each particle by the value before it ("{n:을}": 3을, 2를; see
coursekit/particles.py), and a text value the catalog knows ("answered", a run's label) is
said in Korean too. `coursekit.table` lays out printed tables with the same words.
`use_korean_font()` lets matplotlib draw Hangul with a real Korean font.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import string
import sys
from pathlib import Path

from agentlib import words
from coursekit.particles import attach
from coursekit.table import pad

LANGS = ("en", "ko")


def lang() -> str:
    """"ko" or "en": $AGENTLIB_LANG if set, else what the notebook's metadata declares, else
    "ko" inside a `ko` folder, else "en"."""
    chosen = os.environ.get("AGENTLIB_LANG", "").strip().lower()
    if chosen:
        if chosen not in LANGS:
            raise ValueError(f"AGENTLIB_LANG must be one of {', '.join(LANGS)}, got {chosen!r}")
        return chosen
    declared = _declared(os.environ.get("JPY_SESSION_NAME", ""))
    if declared:
        return declared
    return "ko" if Path.cwd().name == "ko" else "en"


@functools.lru_cache(maxsize=8)
def _declared(notebook: str) -> str | None:
    """The language a notebook declares in its metadata (`agentlib.lang`), if any. Jupyter
    tells a kernel its notebook's path in $JPY_SESSION_NAME."""
    if not notebook.endswith(".ipynb"):
        return None
    try:
        with open(notebook, encoding="utf-8") as f:
            found = json.load(f).get("metadata", {}).get("agentlib", {}).get("lang")
    except (OSError, ValueError, AttributeError):
        return None
    return found if found in LANGS else None


def say(text: str, /, language: str | None = None, **values: object) -> str:
    """`text` in the learner's language (or `language`), with `values` filled in ({name}
    placeholders). In Korean, a text value the catalog knows is Korean too, and a text
    without values that is no key may be a filled-in template (`translate`)."""
    if (language or lang()) != "ko":
        return fill(text, **values) if values else text
    phrase = PHRASES.get(text, PRINTED.get(text))
    if not values:
        return translate(text) if phrase is None else phrase
    return fill(phrase or text, **{k: _said(v) if isinstance(v, str) else v
                                   for k, v in values.items()})


def _said(value: str) -> str:
    """A text value in Korean: a word or label of the catalog, a filled-in template, or
    as it is (data: a path, the model's answer, an API error)."""
    return PHRASES.get(value) or PRINTED.get(value) or translate(value)


def translate(text: str) -> str:
    """`text`, already filled in, in Korean when the catalog knows it: as it is, or by a
    template ("window ({n})" matches "window (8,000)"). Else unchanged."""
    if text in PHRASES:
        return PHRASES[text]
    for pattern, korean in _templates():
        m = pattern.fullmatch(text)
        if m:
            return fill(korean, **{k: _value(v) for k, v in m.groupdict().items()})
    return text


def _value(text: str) -> object:
    """A slot's text as a template fills it: a plain integer as a number (so "{t:,}" writes
    2,039 for "2039"; "8,000" stays as written), anything else translated."""
    if re.fullmatch(r"[-+]?\d+", text):
        return int(text)
    return translate(text)


WIDTH = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>^]))?(?P<width>\d+)")
HANGUL_TAIL = re.compile(r"(?P<spec>.*?)(?P<particle>[\uac00-\ud7a3]+)")


class _Formatter(string.Formatter):
    """`str.format`, and two things Korean needs: a particle at the end of a format spec
    takes the form the value needs ("{n:,을}"), and a text's width counts columns as a
    monospace font shows them (a Hangul character two: coursekit.table.cols)."""

    def format_field(self, value, format_spec):
        tail = HANGUL_TAIL.fullmatch(format_spec)
        if tail:
            text = self.format_field(value, tail["spec"])
            return attach(text, tail["particle"])
        width = WIDTH.fullmatch(format_spec)
        if isinstance(value, str) and width and (width["fill"] or " ") == " ":
            align = width["align"] or "<"
            return pad(value, int(width["width"]), right=align == ">", center=align == "^")
        if isinstance(value, str) and format_spec and not width:
            return value  # a number's spec ("{t:,}") for a text that is not one ("8K")
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def fill(template: str, /, *args: object, **values: object) -> str:
    """`template.format(*args, **values)` with particles chosen by the values and text
    widths in columns (see `_Formatter`)."""
    return _FORMATTER.vformat(template, args, values)


class Template(str):
    """A Korean template whose own `.format` is `fill`: for a catalog that other code formats
    with `str.format` (classroom/checks/ko.py's, which classroom.grading fills in)."""

    def format(self, /, *args: object, **values: object) -> str:
        return fill(self, *args, **values)


def templates(catalog: dict[str, str]) -> dict[str, str]:
    """`catalog` with every value a `Template`."""
    return {key: Template(value) for key, value in catalog.items()}


# Placeholders that stand for a number match only a number ("{n} tokens" is "8,000 tokens",
# never "input tokens"); the others (a workload, a label, a name) match any text.
NUMBER_SLOTS = frozenset({"n", "m", "t", "i", "last", "r", "p", "c", "s", "pct", "passed",
                          "total", "got"})
NUMBER = r"[-+~]?\d[\d,._]*(?:\.\d+)?[KkM%]?"


@functools.lru_cache(maxsize=1)
def _templates() -> list[tuple[re.Pattern, str]]:
    out = []
    for english, korean in PHRASES.items():
        if "{" in english:
            parts = re.split(r"\{(\w+)\}", english)  # text, name, text, name, ..., text
            regex = "".join(re.escape(p) if i % 2 == 0 else
                            f"(?P<{p}>{NUMBER if p in NUMBER_SLOTS else '.+?'})"
                            for i, p in enumerate(parts))
            out.append((re.compile(regex, re.S), korean))
    return sorted(out, key=lambda t: -len(t[0].pattern))  # the most specific first


def localized(plot):
    """Decorator for a function that returns a matplotlib figure: in a Korean notebook, the
    Korean font is set up before it draws and its texts translated after (`localize_figure`)."""
    @functools.wraps(plot)
    def wrapper(*args, **kwargs):
        if lang() == "ko":
            use_korean_font()
            install_figure_hook()
        return localize_figure(plot(*args, **kwargs))
    return wrapper


def localize_figure(fig):
    """In a Korean notebook: every title, axis label, legend entry and note of a finished
    matplotlib figure in Korean (by `translate`), drawn with a Korean font. Returns `fig`."""
    if lang() != "ko":
        return fig
    use_korean_font()
    texts = list(fig.texts)
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label,
                  *ax.texts]
        legend = ax.get_legend()
        if legend is not None:
            texts += legend.get_texts()
    suptitle = getattr(fig, "_suptitle", None)
    texts += [suptitle] if suptitle is not None else []
    for t in texts:
        if t.get_text():
            t.set_text(translate(t.get_text()))
            t.set_fontfamily(matplotlib_family())
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            _localize_ticks(axis)
    return fig


def _localize_ticks(axis) -> None:
    """Tick labels that are words (a bar chart's categories, fixed labels) in Korean. Numbers
    are not in the catalog, so a numeric axis keeps its own formatter and locator."""
    labels = [t.get_text() for t in axis.get_ticklabels()]
    korean = [translate(label) for label in labels]
    if korean != labels:
        axis.set_ticks(axis.get_ticklocs(), labels=korean)
    for t in axis.get_ticklabels():
        t.set_fontfamily(matplotlib_family())


def figure_texts(fig) -> list[str]:
    """Every word a figure shows: titles, axis labels, tick labels, legend entries, notes."""
    found = [t.get_text() for t in fig.texts]
    suptitle = getattr(fig, "_suptitle", None)
    found += [suptitle.get_text()] if suptitle is not None else []
    for ax in fig.axes:
        found += [ax.get_title(loc) for loc in ("center", "left", "right")]
        found += [ax.get_xlabel(), ax.get_ylabel(), *(t.get_text() for t in ax.texts)]
        for axis in (ax.xaxis, ax.yaxis):
            found += [t.get_text() for t in axis.get_ticklabels()]
        legend = ax.get_legend()
        if legend is not None:
            found += [t.get_text() for t in legend.get_texts()]
            title = legend.get_title().get_text()
            found += [title] if title else []
    return [t for t in found if t and t.strip()]


def matplotlib_family() -> list[str]:
    import matplotlib

    return list(matplotlib.rcParams["font.family"])


# ---------------------------------------------------------------- Hangul in plots

KOREAN_FONT = "NanumGothic"


def korean_font_file() -> Path | None:
    """NanumGothic as shipped by the `koreanize-matplotlib` package, found without importing
    that package (its import changes matplotlib's settings and needs distutils)."""
    spec = importlib.util.find_spec("koreanize_matplotlib")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "fonts" / "NanumGothic.ttf"
        if path.is_file():
            return path
    return None


def use_korean_font() -> bool:
    """Register NanumGothic with matplotlib as a fallback after its default font: Latin text
    looks as before, Hangul gets real glyphs (no missing-glyph warnings). False if absent."""
    path = korean_font_file()
    if path is None:
        return False
    import matplotlib
    from matplotlib import font_manager

    if KOREAN_FONT not in {f.name for f in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(str(path))
    family = list(matplotlib.rcParams["font.family"])
    if family == ["sans-serif"]:  # the default: name the default sans font, then the fallback
        family = [matplotlib.rcParams["font.sans-serif"][0]]
    if KOREAN_FONT not in family:
        matplotlib.rcParams["font.family"] = [*family, KOREAN_FONT]
    return True


# ---------------------------------------------------------------- the Korean catalog

PHRASES: dict[str, str] = {
    # check() in a notebook
    "PASS": "통과",
    "FAIL": "실패",
    "TODO": "할 일",
    "ERROR": "오류",
    "MISSING": "없음",
    "TIMEOUT": "시간 초과",
    "CRASHED": "중단",
    "INVALID": "무효",
    "hint": "힌트",
    "not attempted yet": "아직 시도하지 않았습니다",
    "same as above": "위와 같은 이유",
    "{passed}/{total} checks passed": "검사 {total}개 중 {passed}개 통과",
    "no `{name}` defined yet: run its cell first": "아직 정의되지 않았습니다: `{name}`. 그 셀을 먼저 "
                                                   "실행하세요",
    "timed out after {s} s": "{s}초 뒤 시간 초과",
    # plots (coursekit.viz): axes, legends, notes
    "step": "단계",
    "input tokens per request": "요청당 입력 토큰",
    "cumulative input tokens": "누적 입력 토큰",
    "tokens sent": "보낸 토큰",
    "window ({n})": "윈도우 ({n})",
    "error (what it tried to send)": "오류 (보내려던 크기)",
    "{label}, chars/4": "{label}, 문자 수/4",
    "{name} (outside the window)": "{name} (윈도우 밖)",
    "clearing acted": "비우기 실행",
    "compaction acted": "압축 실행",
    "what fills the window: {label}": "윈도우를 채우는 것: {label}",
    "what fills the window": "윈도우를 채우는 것",
    "estimate vs {truth}": "추정치 대 {truth}",
    "usage": "사용량",
    "over the window": "윈도우 초과",
    "cache read": "캐시 읽기",
    "cache write": "캐시 쓰기",
    "cache read ({r}x)": "캐시 읽기 ({r}배)",
    "cache write ({r}x)": "캐시 쓰기 ({r}배)",
    "uncached (1x)": "캐시 없음 (1배)",
    "the bar: peak <= {p}x, cost <= {c}x": "기준: 최대 윈도우 {p}배 이하, 비용 {c}배 이하",
    "peak window (x append-only)": "최대 윈도우 (추가 전용 대비 배수)",
    "cost with caching (x append-only)": "캐시 포함 비용 (추가 전용 대비 배수)",
    "input tokens (x append-only)": "입력 토큰 (추가 전용 대비 배수)",
    "cost (x append-only)": "비용 (추가 전용 대비 배수)",
    "success": "성공",
    # what the strategies report (notes on the plots)
    "cleared {n} results (-{t} tokens)": "결과 {n}개 비움 (-{t:,} 토큰)",
    "compacted {n} messages (~{a} -> ~{b} tokens)": "메시지 {n}개 압축 (~{a:,} → ~{b:,} 토큰)",
    "truncated: {a} -> {b} messages": "잘라냄: 메시지 {a}개 → {b}개",
    "server: {edit}": "서버: {edit}",
    "compaction ({a} tokens in, {b} out)": "압축 (입력 토큰 {a:,}, 출력 토큰 {b:,})",
    # what a block is (the window viewer's legend, the fill plot's groups)
    "system prompt": "시스템 프롬프트",
    "tool definitions": "도구 정의",
    "tool-use prompt (the API's)": "도구 사용 프롬프트 (API가 추가)",
    "user text": "사용자 텍스트",
    "assistant text": "어시스턴트 텍스트",
    "cleared result": "비운 결과",
    "error result": "오류 결과",
    "summary": "요약",
    "truncation marker": "잘라내기 표시",
    "compaction block": "압축 블록",
    "other block": "기타 블록",
    "system + tools": "시스템 + 도구",
    "text": "텍스트",
    "cleared": "비운 결과",
    "message framing": "메시지 틀",
    # the window viewer's header and captions
    "{m} messages · {n} tokens": "메시지 {m}개 · 토큰 {n}개",
    "{n} tokens": "토큰 {n}개",
    "{n} / {w} tokens ({pct}%)": "토큰 {n} / {w} ({pct}%)",
    "over by {n}": "{n} 초과",
    "step {i}": "{i}단계",
    "input {n} tokens": "입력 토큰 {n}개",
    "estimate {n}": "추정치 {n}",
    "events": "이벤트",
    "error": "오류",
    "run the cells above to use the step slider": "위의 셀을 실행하면 단계 슬라이더를 쓸 수 있습니다",
    "window viewer over {n} steps ({note})": "{n}단계 윈도우 뷰어 ({note})",
    # the grader's reports (python -m classroom.grade --lang ko)
    "Assignment {a}: {student}": "과제 {a}: {student}",
    "{got} of {total} points": "{total}점 중 {got}점",
    "({passed} of {total} checks passed)": "(검사 {total}개 중 {passed}개 통과)",
    "Notebook": "노트북",
    "While running your notebook: ": "노트북을 실행하는 동안: ",
    "Hint: ": "힌트: ",
    "Grades": "성적",
    "student": "학생",
    "assignment {a}": "과제 {a}",
    "total": "합계",
    "step {i} of 0-{last} shown; {note}.": "0-{last}단계 중 {i}단계를 보여 줍니다. {note}.",
}

# What agentlib and coursekit say about a run, shown in printed tables, sentences and notes:
# how a run stopped, a score's detail, a strategy's event. The data stays English (a lesson
# may read it); `say` and `coursekit.table` show it in the learner's words.
PHRASES.update({
    "answered": "답함",
    "max_steps": "단계 한도",
    "answered {said}": "답 {said}",
    "error: {e}": "오류: {e}",
    "cut: {reason}": "잘림: {reason}",
    "budget: {e}": "예산 초과: {e}",
    "{n} of {total} found, {m} wrong": "{total}개 중 {n}개 찾음, 틀림 {m}개",
    "confirmed cause {cause}; answered {said}": "확정된 원인 {cause}, 답한 원인 {said}",
    "confirmed cause {cause}; answered {said} (ruled out: {out})":
        "확정된 원인 {cause}, 답한 원인 {said} (배제된 원인: {out})",
    "nothing": "없음",
    "chose {model} (${price}, {ram} GB); best is {best}":
        "고른 모델 '{model}' (${price:,}, {ram} GB), 정답 '{best}'",
    "chose {model} (${price}, {ram} GB)": "고른 모델 '{model}' (${price:,}, {ram} GB)",
    "no known model named": "아는 모델 이름이 없음",
    "{n} of 3 right ({which}); truth service {service}, deployment {deployment}, oncall {oncall}":
        "3개 중 {n}개 맞음 (`{which}`), 정답 `service: {service}; deployment: {deployment}; "
        "oncall: {oncall}`",
    "answered {said}; truth {t} over {n} invoices": "답 {said}, 정답 청구서 {n}개 합계 {t}",
    "a sub-task: only the lead's answer is scored": "하위 작업: 리드의 답만 채점합니다",
    "{name}: {a} -> {b} messages, -{t} tokens": "{name}: 메시지 {a}개 → {b}개, -{t:,} 토큰",
    "dropped {n} call records": "호출 기록 {n}개 버림",
    "compaction failed ({error}); history kept": "압축 실패 ({error}), 히스토리는 그대로",
    "{n} messages": "메시지 {n}개",
    "keep {n}, tool, no rules": "keep {n}, 도구만, 규칙 없음",
    "compact": "압축",
    # coursekit.bench.check_bars: lesson 7's bar lines
    "{v}: {name}, {strategy}: success {s}, {key} {got}x append-only (bar {limit}x)":
        "{v}: {name}, {strategy}: 성공 {s}, {key} 추가 전용의 {got}배 (기준 {limit}배)",
    "{v}: {name}, {strategy}: cost {got}x its own floor (bar {limit}x)":
        "{v}: {name}, {strategy}: 비용 자기 하한의 {got}배 (기준 {limit}배)",
    "{v}: {name}, {strategy}: success {s}, {key} {got}x append-only; its own floor is {x}x "
    "({tokens}), above the bar {limit}x, so the bar is {within}x that floor":
        "{v}: {name}, {strategy}: 성공 {s}, {key} 추가 전용의 {got}배. 자기 하한이 {x}배({tokens})로 "
        "기준 {limit}배보다 높으므로, 기준은 그 하한의 {within}배",
    "{workload} on claude-sonnet-5-5": "claude-sonnet-5-5의 {workload}",
    "write {w}, read {rd}, input {inp}, output {o} tokens":
        "쓰기 {w}, 읽기 {rd}, 입력 {inp}, 출력 {o} 토큰",
    "ok": "통과",
    "FAILS": "실패",
    "cost usd": "캐시 포함 비용",
    "peak window": "최대 윈도우",
    "held-out (seed {seed})": "홀드아웃 (시드 {seed})",
    "one agent: {strategy}": "에이전트 하나: {strategy}",
    "trigger {t}, margin {m}": "trigger {t}, 여유분 {m}",
    "trigger {t}, no margin": "trigger {t}, 여유분 없음",
    "trigger {t}, raw chars/4": "trigger {t}, 보정 없는 문자 수/4",
})

# What the lessons' own code cells write on their figures (titles, legends, axis labels).
# The code cells are the same in both editions; these make their figures Korean too.
# Workload names (audit(12)), strategy names (cap+clear+compact) and parameters (keep 4)
# are names in the code and stay as they are.
PHRASES.update({
    "$ cached": "$ (캐시 포함)",
    "after a restart: resume from notes, or start over": "재시작 후: 메모에서 이어 가기 또는 처음부터",
    "append-only (big window)": "추가 전용 (큰 윈도우)",
    "append-only, 200K window": "추가 전용, 200K 윈도우",
    "append-only, 8K window": "추가 전용, 8K 윈도우",
    "audit of 200 files: dollars against window": "파일 200개 감사: 윈도우 대비 비용($)",
    "audit of 200 files: each idea alone, combined, and without each":
        "파일 200개 감사: 아이디어 하나씩, 모두 함께, 하나씩 빼고",
    "audit of 96 files in 6 folders, a 24,000-token window":
        "폴더 6개, 파일 96개 감사, 24,000 토큰 윈도우",
    "audit(100): compaction at 50,000 tokens (agent requests only)":
        "audit(100): 50,000 토큰에서 압축 (에이전트 요청만)",
    "{w} in an 8,000-token window": "{w}, 8,000 토큰 윈도우",
    "{w} in an 8,000-token window: what keep and trigger cost":
        "{w}, 8,000 토큰 윈도우: keep과 trigger의 비용",
    "{w}, append-only: what fills the window": "{w}, 추가 전용: 윈도우를 채우는 것",
    "{w}: append-only vs clearing": "{w}: 추가 전용 대 비우기",
    "{w}: calibrated": "{w}: 보정",
    "{w}: chars/4": "{w}: 문자 수/4",
    "{w}: read_file capped at several sizes": "{w}: read_file 상한을 여러 크기로",
    "{w}: safe truncation at several window sizes": "{w}: 여러 윈도우 크기에서 안전한 잘라내기",
    "{w}: the history only grows": "{w}: 히스토리는 커지기만 한다",
    "{w}: what notes keep, and what they cost": "{w}: 메모가 지키는 것과 그 비용",
    "{w}: clearing, compaction and notes in one run": "{w}: 한 번의 실행에서 비우기, 압축, 메모",
    "{w}, clearing (keep 3, trigger 4,000): what fills the window":
        "{w}, 비우기 (keep 3, trigger 4,000): 윈도우를 채우는 것",
    "before each request: chars/4 (off) and calibrated (on)":
        "요청 직전: 문자 수/4 (보정 끔)와 보정한 추정치 (보정 켬)",
    "calls": "요청 수",
    "cap (characters per result)": "상한 (결과당 문자 수)",
    "clearing on the client and on the server": "클라이언트와 서버에서의 비우기",
    "clearing, 8K window": "비우기, 8K 윈도우",
    "client-side Clearing": "클라이언트 측 비우기 (Clearing)",
    "client-side": "클라이언트 측",
    "cold start, no notes": "새로 시작, 메모 없음",
    "cold start, with notes": "새로 시작, 메모 있음",
    "compact + notes": "압축 + 메모",
    "compact at {n}": "{n}에서 압축",
    "compact, task folded + notes": "압축, 과제도 접힘 + 메모",
    "compacted": "압축함",
    "compactions": "압축 횟수",
    "{w} in an 8,000-token window (x: refused)": "{w}, 8,000 토큰 윈도우 (x: 거부됨)",
    "cut with notice + window answers here: right": "안내문 붙여 자르기 + 윈도우의 답: 정답",
    "cut with notice + window": "안내문 붙여 자르기 + 윈도우",
    "cut with notice": "안내문 붙여 자르기",
    "input tokens in all": "전체 입력 토큰",
    "input tokens, all requests": "입력 토큰, 모든 요청",
    "input tokens, summaries included": "입력 토큰, 요약 포함",
    "keep (trigger 4,000)": "남길 결과 수 keep (trigger 4,000일 때)",
    "keep {n} + notes": "keep {n} + 메모",
    "largest request": "가장 큰 요청",
    "lead peak": "리드 최대치",
    "newest block only (cache=True)": "가장 새 블록만 (cache=True)",
    "no compaction": "압축 없음",
    "one agent, cache-aware": "에이전트 하나, 캐시를 고려한 파이프라인",
    "peak input tokens": "최대 입력 토큰",
    "re-reads": "재읽기",
    "recall (scored)": "재현율 (채점)",
    "recall": "재현율",
    "requests": "요청 수",
    "server-side edit": "서버 측 편집",
    "server-side": "서버 측",
    "session 2, resumed from notes": "세션 2, 메모에서 이어 감",
    "silent cut + window answers here: wrong": "말없이 자르기 + 윈도우의 답: 오답",
    "silent cut + window": "말없이 자르기 + 윈도우",
    "silent cut": "말없이 자르기",
    "silent cut answers here: wrong": "말없이 자르기의 답: 오답",
    "stable end, newest not cached": "안정된 끝, 가장 새 블록은 캐시 안 함",
    "team: 60 tokens by feel": "팀: 감으로 60 토큰",
    "team: everything": "팀: 전부",
    "team: format + budget": "팀: 형식 + 예산",
    "the window": "윈도우",
    "two ways to overflow a window of 8,000 tokens (x: refused)":
        "8,000 토큰 윈도우를 넘는 두 가지 방법 (x: 거부됨)",
    "trigger, tokens (keep 3)": "trigger 토큰 수 (keep 3일 때)",
    "uncapped": "상한 없음",
    "wall-clock steps": "순차 단계",
    "notes file": "메모 파일",
    "input tokens": "입력 토큰",
    "output tokens": "출력 토큰",
    "tokens": "토큰",
    "append-only": "추가 전용",
    "total input tokens": "전체 입력 토큰",
})


# The sentences the lessons' code cells print, `print(say(TEMPLATE, name=value, ...))`. The
# templates are str.format templates (format specs such as {n:,} included) and are never
# matched against drawn text (`translate` reads only PHRASES). Numbers, identifiers, API
# strings and values stay as they are; tests/test_korean_outputs.py reads the Korean lessons'
# saved outputs for English sentences.
PRINTED: dict[str, str] = {
    # agentlib's `print(run)` (agentlib.words), coursekit.viz's window view
    "WindowView({m} messages, {n:,} tokens)": "WindowView(메시지 {m}개, 토큰 {n:,}개)",
    # lesson 00 and every lesson's first cell
    "model: {m} | offline: {b}": "모델: {m} | 오프라인: {b}",
    "model: {m}": "모델: {m}",
    "(Claude, via your API key)": "(Claude, API 키로 연결)",
    # lesson 01
    "tools: {names}": "도구: {names}",
    "files: {n}": "파일 {n}개",
    "step {i:>2}: {m:>2} messages sent, input_tokens {n:>6,} -> {calls}":
        "{i:>2}단계: 메시지 {m:>2}개 보냄, input_tokens {n:>6,} → {calls}",
    "answer": "답",
    "notebook: {v}": "노트북:   {v}",
    "growth per step: {v}": "단계마다 늘어난 토큰: {v}",
    "steps": "단계 수",
    "total sent (measured)": "보낸 토큰 전체 (측정)",
    "token kind": "토큰 종류",
    "$ per MTok": "백만 토큰당 $",
    "x input": "입력 대비 배수",
    "input": "입력",
    "output": "출력",
    "history part": "히스토리 부분",
    "cost $": "비용 $",
    "cached $": "캐시 포함 $",
    "English": "영어",
    "Python": "파이썬 코드",
    "Korean": "한국어",
    "emoji": "이모지",
    "log line": "로그 한 줄",
    "chars": "문자 수",
    "chars/4": "문자 수/4",
    "bytes/4": "바이트 수/4",
    "count": "카운트",
    "count ÷ chars/4": "카운트 ÷ 문자 수/4",
    "rule": "규칙",
    "after 1": "메모 1건 뒤",
    "after 12": "메모 12건 뒤",
    "of the truth": "실제 대비",
    "first says > {b:,}": "처음 {b:,} 초과로 본 때",
    "never": "없음",
    "after note {k} (truly {t:,})": "메모 {k}건 뒤 (실제 {t:,})",
    "rel. error": "오차",
    "calibrated": "보정한 추정치",
    # lesson 02
    "stopped: {s} ...": "멈춘 이유: {s} ...",
    "score:   {s}": "점수:    {s}",
    "message {i}, block {j}, ids {ids}": "메시지 {i}, 블록 {j}, tool_use_id {ids}",
    "that block: {b}": "그 블록: {b}",
    "answer: {a}": "답: {a}",
    "(none: the run ended without one)": "(없음: 답 없이 끝난 실행)",
    "last_n(full.history, {k}) starts at message {i}: {kind} -> {verdict}":
        "last_n(full.history, {k})의 첫 메시지는 {i}번: {kind} → {verdict}",
    "valid": "유효",
    "the 400": "400 오류",
    "the marker: {m}": "잘라내기 표시: {m}",
    "messages in each history: {d}": "히스토리별 메시지 수: {d}",
    "task:   {t}": "과제: {t}",
    "turn 2: {t}": "사용자 턴 2: {t}",
    "then:   {a} ... {b}": "이어서: {a} ... {b}",
    "last:   {t}": "마지막 턴: {t}",
    "{role}: {text}": "{role}: {text}",
    "sent": "보낸 메시지",
    "kept": "제약 유지",
    "peak": "최대치",
    "choice": "선택",
    "prec.": "정밀도",
    "lists": "목록",
    "reads": "읽기",
    "truth: {t}": "정답: {t}",
    "{label}: {answer}  ({detail})": "{label}: {answer}  ({detail})",
    # lessons 03-03b
    "{n:>5,} tokens -> read_file at offset {o}": "{n:>5,} 토큰 → read_file(offset={o})",
    "stopped": "멈춘 이유",
    "read_file capped at N characters: with a notice | silent":
        "read_file 상한 N자: 안내문 있음 | 말없이 자르기",
    # lesson 04
    "accepted: {r} -> {calls}": "받아들여짐: {r} → {calls}",
    "the call:   {c}": "호출:    {c}",
    "its result: {r}": "그 결과: {r}",
    "{label} -> {stopped}": "{label} → {stopped}",
    # lesson 04b
    "defaults": "기본값",
    "request {i:>2}: {n:,} tokens seen; {events}": "요청 {i:>2}: 모델이 본 토큰 {n:,}; {events}",
    "history": "히스토리",
    "append-only (200K window)": "추가 전용 (200K 윈도우)",
    "clearing": "비우기",
    "clearing, clear_at_least 2,000": "비우기, clear_at_least 2,000",
    "read": "캐시 읽기",
    "written": "캐시 쓰기",
    "uncached": "캐시 안 됨",
    "cost": "비용",
    "thinking": "사고 블록",
    "notes in": "메모 위치",
    "listings": "목록 조회",
    "dropped": "버린 사고 블록",
    # lesson 05
    "last step: {e}": "마지막 단계: {e}",
    "raw blocks": "블록 그대로",
    "transcript": "트랜스크립트",
    "outcome": "결과",
    "score": "성공",
    "folded": "접은 메시지",
    "before": "접기 전",
    "after": "접은 뒤",
    "summary call in": "요약 호출 입력",
    "out": "출력",
    "the answer: {a}": "답: {a}",
    "tokens, summaries included": "입력 토큰 (요약 포함)",
    "free-form": "자유 형식",
    "paraphrase": "바꿔 쓰기",
    "paraphrase + user's words": "바꿔 쓰기 + 사용자의 말",
    "structured": "구조화",
    "its answer: {a}": "모델의 답: {a}",
    "(none)": "(없음)",
    # lesson 05b
    "80% of the window": "윈도우의 80%",
    "the API's default": "API의 기본값",
    "peak request": "가장 큰 요청",
    "input, all calls": "입력, 모든 호출",
    "$, cached": "$ (캐시 포함)",
    "largest history": "가장 긴 히스토리",
    "+summaries": "+요약 호출",
    "summaries by": "요약한 모델",
    "summary tokens in/out": "요약 토큰 입력/출력",
    "summaries $": "요약 $",
    "run $": "실행 $",
    "paused:    {r} {types} input_tokens {n} {its}": "일시 정지: {r} {types} input_tokens {n} {its}",
    "continued: {r} {types} input_tokens {n}": "이어서:    {r} {types} input_tokens {n}",
    "requests": "요청 수",
    "compacted at": "압축한 단계",
    "summaries in": "요약 입력",
    # lessons 06-06b
    "notes": "메모",
    "total incl. summaries": "입력 토큰 (요약 포함)",
    "summaries": "요약 호출",
    "with notes: {a}": "메모가 있으면: {a}",
    "input tokens": "입력 토큰",
    "last request": "마지막 요청",
    "tool definition: {d}": "도구 정의: {d}",
    "tool calls: {c}": "도구 호출: {c}",
    # lesson 07 (its short column heads: bench's keys)
    "strategy": "전략",
    "folds": "접기",
    "$ cached": "$ 캐시 포함",
    "$ no cache": "$ 캐시 없음",
    "input x": "입력 배수",
    "peak x": "최대치 배수",
    "$ x": "$ 배수",
    "$ floor": "$ 하한",
    "cache saves": "캐시 절감",
    # lessons 08-09 and appendix A
    "set-up": "구성",
    "largest window": "가장 큰 윈도우",
    "per request (read/written)": "요청별 (읽기/쓰기)",
    "tools": "도구 수",
    "definitions": "정의 토큰",
    "every def.": "모든 정의",
    "deferred": "지연 로딩",
    "ratio": "비율",
    "dollars": "달러",
    "results read": "읽은 결과",
    "client search": "클라이언트 검색",
    "refused ({error})": "거부 ({error})",
    # the solutions' own prints
    "{m} | {n} tools | task: {task}": "{m} | 도구 {n}개 | 과제: {task}",
    "{n} messages: {roles}": "메시지 {n}개: {roles}",
    "incident.log: {n:,} characters; its first two lines:": "incident.log: {n:,}자. 처음 두 줄:",
    "parse_notice reads back: {r}": "parse_notice가 읽어 낸 값: {r}",
    "the model sees: {name} {params}": "모델이 보는 도구: {name} {params}",
    "{m} messages, {n:,} tokens, {k} tool results; the first answers {first}":
        "메시지 {m}개, {n:,} 토큰, 도구 결과 {k}개. 첫 결과가 답하는 호출: {first}",
    "the placeholder: {p}": "자리표시자: {p}",
    "{meter}: characters / 4 says {a:,} tokens, calibrated {b:,}":
        "{meter}: 문자 수/4로는 {a:,} 토큰, 보정하면 {b:,} 토큰",
    "ready: {rules}": "준비됨: {rules}",
    "prices, USD per million tokens: {p}": "가격 (백만 토큰당 USD): {p}",
    "lead: {n} requests, {score}": "리드: 요청 {n}번, {score}",
    "  {label}: {n} requests, {t:,} input tokens": "  {label}: 요청 {n}번, 입력 토큰 {t:,}",
    "the notice: {notice}": "안내문: {notice}",
    "{n} tools, {t:,} tokens of definitions": "도구 {n}개, 정의 {t:,} 토큰",
    "the first: {name} - {description} ...": "첫 도구: {name} - {description} ...",
    "Run({label!r}: {stopped}, {calls} calls, {total:,} input tokens in all, peak {peak:,}, "
    "{score})": "Run({label!r}: {stopped}, 요청 {calls}번, 전체 입력 토큰 {total:,}, 최대치 "
                "{peak:,}, {score})",
    "The notebook's version and agentlib's agree: same requests, same history.":
        "노트북의 버전과 agentlib의 버전이 일치합니다: 요청도 히스토리도 같습니다.",
    "fitted line: input tokens ~ {a:,.0f} + {b:,.0f} * step":
        "회귀 직선: 입력 토큰 ~ {a:,.0f} + {b:,.0f} * 단계",
    "10x the steps: history part x{h:.0f}, cost x{c:.0f}, cached cost x{cc:.0f}":
        "단계가 10배면: 히스토리 부분 {h:.0f}배, 비용 {c:.0f}배, 캐시 포함 비용 {cc:.0f}배",
    "on every step; the documented tool-use prompt for {model}: {n}":
        "(모든 단계에서 같음). 문서에 나온 {model}의 도구 사용 프롬프트: {n}",
    "max_tokens={m}: {n} requests accepted, the largest {t:,} tokens; then step {i}:":
        "max_tokens={m}: 요청 {n}번 수락, 가장 큰 요청 {t:,} 토큰. 그다음 {i}단계:",
    "count_tokens says {n:,} tokens; the window is {w:,}":
        "count_tokens로 센 크기 {n:,} 토큰, 윈도우 {w:,} 토큰",
    "refused: {e}":
        "거부됨: {e}",
    "sent {n:,} tokens":
        "{n:,} 토큰 보냄",
    "step {i}: estimate {n:,}, {outcome}":
        "{i}단계: 추정치 {n:,}, {outcome}",
    "tool results: {n:,} of {total:,} tokens ({p:.0%})":
        "도구 결과: 전체 {total:,} 토큰 중 {n:,} 토큰 ({p:.0%})",
    "messages in the final history: {n}":
        "최종 히스토리의 메시지 수: {n}",
    "request {i}: {m} messages sent, {n:>5,} input tokens":
        "요청 {i}: 메시지 {m}개 보냄, 입력 토큰 {n:>5,}",
    "in the cut history:    {i}":
        "잘라낸 히스토리에서: {i}",
    "in the full history:   message {i} ({role}), its result is message {j}":
        "전체 히스토리에서:   메시지 {i} ({role}), 그 결과는 메시지 {j}",
    "the cut dropped messages 0 .. {a} and kept {b} onwards":
        "잘라내기가 메시지 0 .. {a:을} 버리고 메시지 {b}부터 남겼습니다",
    "both accepted":
        "둘 다 수락됨",
    "{stopped} after {n} requests":
        "요청 {n}번 뒤 {stopped}",
    "safe_truncate(full.history, {k}): {a} messages -> {b}: the task, the marker, and messages {i} onwards":
        "safe_truncate(full.history, {k}): 메시지 {a}개 -> {b}개: 과제, 잘라내기 표시, 그리고 메시지 {i}부터",
    "safe_truncate == agentlib.context.truncate on {n} cases; every output valid":
        "safe_truncate == agentlib.context.truncate: 사례 {n}개에서 같고, 모든 출력이 유효합니다",
    "truncate: 1000 of 1000 cuts valid":
        "truncate: 잘라내기 1000개 중 1000개 유효",
    "last_n:   {n} of 1000 cuts valid":
        "last_n:   잘라내기 1000개 중 {n}개 유효",
    "'budget' anywhere in the window: {b}":
        "윈도우 어딘가에 'budget'이 있는가: {b}",
    "the conversation so far: {n} messages; the window: {w}":
        "지금까지의 대화: 메시지 {n}개, 윈도우: {w}개",
    "{kind:<12} {n:>6,} tokens {p:>5.0%}":
        "{kind:<12} {n:>6,} 토큰 {p:>5.0%}",
    "the request":
        "요청 전체",
    "{label:<12} {n:>6,} tokens (message framing is the rest)":
        "{label:<12} {n:>6,} 토큰 (나머지는 메시지 틀)",
    "incident.log: {lines} lines, {chars:,} characters, {n:,} tokens":
        "incident.log: {lines}줄, {chars:,}자, {n:,} 토큰",
    "step {i}:":
        "{i}단계:",
    "sent {n:,} tokens, then called {calls}":
        "{n:,} 토큰을 보낸 뒤 호출: {calls}",
    "same tool definition: {b}":
        "도구 정의가 같은가: {b}",
    "{chars:,} characters; it ends in line {i} of 400:":
        "{chars:,}자. 400줄 가운데 {i}번째 줄에서 끝납니다:",
    "{chars:,} characters; the end of the page:":
        "{chars:,}자. 페이지의 끝:",
    "noticed_cap == agentlib.context.cap.cap on {n:,} pages; every page within budget":
        "noticed_cap == agentlib.context.cap.cap: 페이지 {n:,}개에서 같고, 모든 페이지가 예산 안에 듭니다",
    "search('timeout'): {m} matches shown, {n:,} tokens; the last lines:":
        "search('timeout'): 일치 {m}개 표시, {n:,} 토큰. 마지막 줄:",
    "search('timeout_s'): {n} tokens":
        "search('timeout_s'): {n} 토큰",
    "tool results: search + one read {a:,} tokens; the agent's list + 13 reads {b:,} tokens":
        "도구 결과: search() 한 번 + read_file() 한 번 {a:,} 토큰, 에이전트의 list_files() + "
        "read_file() 13번 {b:,} 토큰",
    "step {i}: {n:>5,} tokens -> {calls}":
        "{i}단계: {n:>5,} 토큰 -> {calls}",
    "answers":
        "답함",
    "paging: {a} calls, {b:,} tokens in all; search, then read: {c} calls, {d:,}":
        "페이지 넘기기: 호출 {a}번, 모두 {b:,} 토큰. 검색한 다음 읽기: 호출 {c}번, {d:,} 토큰",
    "{chars:,} characters; the notice in the middle:\n{middle}":
        "{chars:,}자. 가운데의 안내문:\n{middle}",
    "in the tail: {line}":
        "끝부분: {line}",
    "cap(search, max_chars=600): {chars} characters, ending:":
        "cap(search, max_chars=600): {chars}자, 끝부분:",
    "{kwargs}: lines shown {lines}, {chars:,} characters, {n:,} tokens":
        "{kwargs}: 보여 준 줄 {lines}, {chars:,}자, {n:,} 토큰",
    "{n} requests accepted, the largest {t:,} tokens":
        "요청 {n}번 수락, 가장 큰 요청 {t:,} 토큰",
    "tool results: {n:,} of {total:,} tokens ({p:.0%}), in {k} results":
        "도구 결과: 전체 {total:,} 토큰 중 {n:,} 토큰 ({p:.0%}), 결과 {k}개",
    "the agent's notes: {n}, the last: {last!r}":
        "에이전트의 메모: {n}개, 마지막 메모: {last!r}",
    "the newest result: {line} ...":
        "가장 새 결과: {line} ...",
    "{a} messages, {b:,} tokens -> {c} messages, {d:,} tokens: it would fit":
        "메시지 {a}개, {b:,} 토큰 -> 메시지 {c}개, {d:,} 토큰: 윈도우에 들어갑니다",
    "{n} requests accepted; then request {i}:":
        "요청 {n}번 수락. 그다음 요청 {i}:",
    "{a:,} tokens -> {b:,} tokens, {n} messages as before":
        "{a:,} 토큰 -> {b:,} 토큰, 메시지는 전과 같이 {n}개",
    "clear_old_results == agentlib.context.clear.clear_tool_results on {n} cases; every output valid":
        "clear_old_results == agentlib.context.clear.clear_tool_results: 사례 {n}개에서 같고, 모든 출력이 유효합니다",
    "on the complete audit: {n} results cleared, {t:,} tokens freed ({a:,} -> {b:,})":
        "감사 과제 전체에서: 결과 {n}개 비움, {t:,} 토큰 확보 ({a:,} -> {b:,})",
    "with clear_at_least=20,000: {n} cleared (not worth it)":
        "clear_at_least=20,000이면: {n}개 비움 (비울 만큼 모이지 않음)",
    "before request {i}: {events}":
        "요청 {i} 전: {events}",
    "\nthe notebook's clear_old_results as a strategy sends the same requests":
        "\n노트북의 clear_old_results를 전략으로 써도 같은 요청을 보냅니다",
    "{n} read_file calls for {k} files; read twice: {twice}":
        "파일 {k}개에 read_file 호출 {n}번. 두 번 읽은 파일: {twice}",
    "\nrequest {i}, the model's reply:":
        "\n요청 {i}, 모델의 응답:",
    "\nits note on the defaults file, from request 2: {note}":
        "\n요청 2에서 남긴 기본값 파일 메모: {note}",
    "{stopped} after {n} requests; {score}":
        "요청 {n}번 뒤 {stopped}. {score}",
    "the last reads: {reads}":
        "마지막 읽기: {reads}",
    "the last reply: {reply}":
        "마지막 응답: {reply}",
    "clearing acted before requests {steps}":
        "비우기가 동작한 요청: {steps}",
    "!: the request the API refused as over the {w:,}-token window, counted with tokens.count":
        "!: API가 {w:,} 토큰 윈도우를 넘는다며 거부한 요청 (tokens.count로 센 크기)",
    "{label}: sent {n:,} tokens of history, usage.input_tokens {u:,}":
        "{label}: 히스토리 {n:,} 토큰을 보냄, usage.input_tokens {u:,}",
    "\nsystem prompt, tool definitions and the API's tool-use prompt: {n} tokens":
        "\n시스템 프롬프트, 도구 정의, API의 도구 사용 프롬프트: {n} 토큰",
    "cost units: input 1, cache read {r:g}, cache write {w:g}\n":
        "비용 단위: 입력 1, 캐시 읽기 {r:g}, 캐시 쓰기 {w:g}\n",
    "\nrequests that found no cached prefix, after the first cache write:":
        "\n첫 캐시 쓰기 이후, 캐시된 접두부를 찾지 못한 요청:",
    "{n} requests; clearing acted before {a} of them, every request from {since} on":
        "요청 {n}번 가운데 {a}번 앞에서 비우기가 동작했습니다. 요청 {since}부터는 매번입니다",
    "the last request: notes and task {a:,}, calls {b:,}, placeholders {c:,}, live results {d:,} tokens":
        "마지막 요청: 메모와 과제 {a:,}, 호출 {b:,}, 자리표시자 {c:,}, 남아 있는 결과 {d:,} 토큰",
    "naive boundary: message {i} ({role}), which opens with a {kind}":
        "순진한 경계: 메시지 {i} ({role}), {kind} 블록으로 시작합니다",
    "boundary {a} -> {b}: keeps {n} messages, opening with the {name} call; valid":
        "경계 {a} -> {b}: 메시지 {n}개를 남기고 {name} 호출로 시작합니다. 유효합니다",
    "safe_cut == agentlib.context.truncate.safe_start on every boundary":
        "safe_cut == agentlib.context.truncate.safe_start: 모든 경계에서 같습니다",
    "{way:10}: {n} of {total} boundaries refused":
        "{way:10}: 경계 {total}개 중 {n}개 거부",
    "\nthe first refusal: {e} ...":
        "\n첫 거부: {e} ...",
    "{m} messages -> {lines} lines, {n:,} tokens of transcript; the first lines:\n":
        "메시지 {m}개 -> {lines}줄, 트랜스크립트 {n:,} 토큰. 처음 몇 줄:\n",
    "{n} messages -> {m}: the summary, then messages {a}-{b} verbatim":
        "메시지 {n}개 -> {m}개: 요약, 그다음 메시지 {a}-{b}를 원문 그대로",
    "no margin:   the check fired before step {i}: {event}":
        "여유분 없음: {i}단계 전에 검사가 동작했습니다: {event}",
    "             its summary call sent {n:,} tokens with max_tokens 2,048: {left:,} left in the window, {used:,} used{cut}":
        "             요약 호출이 max_tokens 2,048로 {n:,} 토큰을 보냄: 윈도우에 {left:,} 토큰 남음, {used:,} 토큰 사용{cut}",
    " (cut short)":
        " (중간에 잘림)",
    "raw chars/4: the check saw {n:,} tokens; the request: {was}":
        "보정 없는 문자 수/4: 검사가 본 크기는 {n:,} 토큰, 실제 요청의 결과: {was}",
    "from {a} to {b}":
        "{a}부터 {b}까지",
    "after step {i:>2}: {n:>4} tokens, {k:>2} notes, {span}":
        "{i:>2}단계 뒤: {n:>4} 토큰, 메모 {k:>2}개, {span}",
    "paraphrase, last request: '$1,400' appears: {a} | 'at most' appears: {b}":
        "바꿔 쓰기의 마지막 요청에 '$1,400'이 있는가: {a} | 'at most'가 있는가: {b}",
    "with the user's words pinned, the last request holds the limits verbatim: {b}":
        "사용자의 말을 고정하면 마지막 요청에 제약이 원문 그대로 남는가: {b}",
    "past_messages == agentlib's message trigger on every prefix":
        "past_messages == agentlib의 메시지 트리거: 모든 접두부에서 같습니다",
    "compactions: {n} - the first at step {i} ({m} messages)":
        "압축: {n}번 - 처음은 {i}단계 (메시지 {m}개)",
    "compaction blocks in the client's history: {n}, at messages {at} of {total}":
        "클라이언트 히스토리의 압축 블록: {n}개, 메시지 {total}개 중 {at}번째",
    "the history holds {a:,} tokens; the server counts {b:,}: from the newest block on":
        "히스토리에는 {a:,} 토큰이 있지만, 서버는 가장 새 블록부터 {b:,} 토큰만 셉니다",
    "the first summary holds {a} notes, the second {b}; every note of the first is in the second: {c}":
        "첫 요약의 메모 {a}개, 두 번째 요약의 메모 {b}개. 첫 요약의 메모가 모두 두 번째에 있는가: {c}",
    "MyNotes and agentlib's Notes agree on {n} actions and on the tool definition":
        "MyNotes와 agentlib의 Notes가 동작 {n}개와 도구 정의에서 일치합니다",
    "MyNotes and agentlib's Notes: the same run, the same notes file":
        "MyNotes와 agentlib의 Notes: 같은 실행, 같은 메모 파일",
    "notes.md: {n} lines; the findings above 30:":
        "notes.md: {n}줄. 30을 넘는 발견 사항:",
    "session 1: {stopped} after {n} calls; the notes it left:":
        "세션 1: 호출 {n}번 뒤 {stopped}. 남긴 메모:",
    "session 2, step {i}:":
        "세션 2, {i}단계:",
    "... {n} memory commands in all: {counts}":
        "... 메모리 명령 모두 {n}개: {counts}",
    "memory/memories/{path}: {n} lines; the first five:":
        "memory/memories/{path}: {n}줄. 처음 다섯 줄:",
    "clearing acted before {a} requests, compaction before {b} (request {which}); the notes file grew to {n:,} tokens, outside the window":
        "비우기는 {a}번, 압축은 {b}번(요청 {which} 직전) 동작했습니다. 메모 파일은 윈도우 밖에서 "
        "{n:,} 토큰까지 늘었습니다",
    "working in a fresh temp folder":
        "새 임시 폴더에서 작업합니다",
    "the process died after writing {n} characters":
        "{n}자를 쓴 뒤 프로세스가 죽었습니다",
    "notes.md now holds: {notes!r}":
        "지금 notes.md의 내용: {notes!r}",
    "notes.md still holds the old notes, whole: {n} lines":
        "notes.md에는 예전 메모가 온전히 남아 있습니다: {n}줄",
    "files in the folder: {files}":
        "폴더의 파일: {files}",
    "without a crash: {n} lines":
        "크래시가 없으면: {n}줄",
    "atomic_write and agentlib's Notes.write leave the same file":
        "atomic_write와 agentlib의 Notes.write가 같은 파일을 남깁니다",
    "agentlib's notes after the crash, unchanged: {n} lines | files: {files}":
        "크래시 뒤에도 그대로인 agentlib의 메모: {n}줄 | 파일: {files}",
    "WORK/notes-evil starts with WORK/notes: {b}":
        "WORK/notes-evil이 WORK/notes로 시작하는가: {b}",
    "prefix_check accepts '../notes-evil/x.md' -> {r}":
        "prefix_check가 '../notes-evil/x.md'를 받아들입니다 -> {r}",
    "safe_path and Workspace.resolve agree on all {n} names":
        "safe_path와 Workspace.resolve가 이름 {n}개 모두에서 일치합니다",
    "with the agent's tools: {stop} {calls}":
        "에이전트의 도구가 있을 때: {stop} {calls}",
    "without tools:         {stop} {n} tokens:\n":
        "도구가 없을 때:         {stop} {n} 토큰:\n",
    "next request, {label:29}: input_tokens {n:>5,}; usage.iterations: {its}":
        "다음 요청, {label:29}: input_tokens {n:>5,}; usage.iterations: {its}",
    "whole content":
        "내용 전체",
    "without the compaction block":
        "압축 블록 없이",
    "none":
        "없음",
    # lessons 01-02: new printed sentences (issue 23; add right below this line)
    "the course's catalog gives {model} {n} tokens; the docs' table gives {m} for "
    "claude-sonnet-5 with auto (docs/api-facts.md 8.5)":
        "코스의 카탈로그에서 {model}의 값은 {n} 토큰, 문서의 표에서 claude-sonnet-5"
        "(tool_choice=auto)의 값은 {m} 토큰입니다 (docs/api-facts.md 8.5)",
    "the log: {c:,} characters, {n:,} tokens: {r:.2f} tokens for every 4 characters":
        "로그: {c:,}자, {n:,} 토큰. 4자마다 {r:.2f} 토큰입니다",
    # lesson 03: new printed sentences (issue 23; add right below this line)
    "the notice: {n} characters; the {room} characters kept free fit a path of up to {m}":
        "안내문: {n}자. 안내문 몫으로 비워 둔 {room}자에는 {m}자까지의 경로가 들어갑니다",
    "a {n:,}-token window:":
        "{n:,} 토큰 윈도우:",
    "{n} service files: {a} to {b} lines, {c:,} to {d:,} characters":
        "서비스 파일 {n}개: {a}~{b}줄, {c:,}~{d:,}자",
    "with a notice, against uncapped:":
        "안내문이 있는 상한을 상한 없는 실행과 비교하면:",
    "{c:>5} characters: input tokens {t:+4.0%}, peak {p:+4.0%}":
        "{c:>5}자: 입력 토큰 {t:+4.0%}, 최대치 {p:+4.0%}",
    "the confirmed line: line {i} of {n}":
        "확정 줄: {n}줄 가운데 {i}번째 줄",
    "incident.log: {r:.2f} tokens per 4 characters":
        "incident.log: 4자당 {r:.2f} 토큰",
    # lessons 04-04b: new printed sentences (issue 23; add right below this line)
    "without the tool-use prompt the API adds, as lesson 1 counted: {n:,} of {total:,} tokens ({p:.0%})":
        "레슨 1처럼 API가 덧붙이는 도구 사용 프롬프트를 빼고 세면: 전체 {total:,} 토큰 중 {n:,} 토큰 ({p:.0%})",
    "the last request ({i}): notes and task {a:,}, calls {b:,}, placeholders {c:,}, live results {d:,} tokens":
        "마지막 요청({i}): 메모와 과제 {a:,}, 호출 {b:,}, 자리표시자 {c:,}, 남아 있는 결과 {d:,} 토큰",
    "\n{label}: a request after a clearing writes {n:,} tokens to the cache, on average":
        "\n{label}: 비우기 뒤의 요청은 평균 {n:,} 토큰을 캐시에 씁니다",
    "{m}: accepts thinking {t}; display {d}; binds thinking to the conversation: {b}":
        "{m}: 받는 thinking 설정 '{t}', thinking.display '{d}', 사고 블록을 대화에 묶음: {b}",
    "thinking (shown: {s!r}, signature of {n} characters)":
        "사고 블록(보이는 텍스트: {s!r}, 서명 {n}자)",
    "accepted":
        "받아들여짐",
    "The notebook's version and agentlib's agree":
        "노트북의 버전과 agentlib의 버전이 같습니다",
    "accepted: {r}":
        "받아들여짐: {r}",
    "thinking blocks: {a} in the history, {b} after the edit":
        "사고 블록: 히스토리에 {a}개, 편집 뒤에 {b}개",
    "{label}: {r:+} re-reads, {t:.1f}x the input tokens of {base}":
        "{label}: 재읽기 {r:+}번, 입력 토큰은 {base}의 {t:.1f}배",
    "{m}, display omitted":
        "{m}, 사고 텍스트 숨김",
    "{m}, display summarized":
        "{m}, 사고 요약 표시",
    "clearing (keep 3, trigger {t}): notes as text or as thinking":
        "비우기(keep 3, trigger {t}): 텍스트 메모와 사고 블록 메모",
    # lesson 04b (issue 38): changing instructions or tools on a binding model
    "system prompt edited": "시스템 프롬프트 편집",
    "a system message appended": "시스템 메시지 덧붙임",
    "list_files left out of tools": "도구 목록에서 list_files 뺌",
    "a tool_removal appended": "tool_removal 덧붙임",
    "each 400: {t}": "400은 모두 같은 까닭입니다: {t}",
    # lessons 05-05b: new printed sentences (issue 23; add right below this line)
    "80% of {m}'s window: {n:,} tokens":
        "{m}의 윈도우의 80%: {n:,} 토큰",
    "cache read: {r:.2f}x the input price, cache write: {w:.2f}x":
        "캐시 읽기: 입력 가격의 {r:.2f}배, 캐시 쓰기: {w:.2f}배",
    "message 0: {kinds}, signed: {s}; then {n} messages exactly as in the history: {same}":
        "메시지 0: {kinds}, 서명 있음: {s}. 그 뒤 메시지 {n}개는 히스토리 그대로: {same}",
    "on demand": "온디맨드",
    "server-side, {m}": "서버 측, {m}",
    "on demand, {m}": "온디맨드, {m}",
    # lesson 06 and appendix A: new printed sentences (issue 23; add right below this line)
    "keep 4 + notes: {r:.2f}x the total input tokens of keep 6 + notes, {s:.2f}x those of keep 6":
        "keep 4 + 메모: 전체 입력 토큰이 keep 6 + 메모의 {r:.2f}배, keep 6의 {s:.2f}배",
    "resuming saves {n} requests and {pct:.0%} of the input tokens of a cold start with notes":
        "이어서 하면 메모가 있는 콜드 스타트보다 요청 {n}번과 입력 토큰의 {pct:.0%}를 아낍니다",
    # lessons 07-08: new printed sentences (issue 23; add right below this line)
    # lesson 7 (the mechanisms, issue 32 item 4): its heads, set-ups and sentences
    "model": "모델",
    "input per million": "입력 100만 토큰당",
    "write x input": "쓰기 배수",
    "least prefix cached": "캐시되는 최소 접두부",
    "edits": "편집",
    "notes lost (per edit)": "잃은 메모 (편집당)",
    "pays after (requests)": "본전까지 (요청)",
    "clear, keep 3": "비우기, keep 3",
    "clear 1, newest marked": "1개 비우기, 가장 새 블록 표시",
    "clear 1, stable end": "1개 비우기, 안정된 끝",
    "batch clear": "묶어서 비우기",
    "batch clear, stable end": "묶어서 비우기, 안정된 끝",
    "clear 1 + compact": "1개 비우기 + 압축",
    "clear 1 + low-water": "1개 비우기 + 저수위",
    "records + fold": "records + 접기",
    "{m}: clearing costs {x:.2f}x append-only's dollars with the cache, {y:.2f}x without it":
        "{m}: 비우기는 캐시를 켜면 추가 전용 달러의 {x:.2f}배, 끄면 {y:.2f}배가 듭니다",
    "StableEnd and agentlib's Breakpoints mark the same blocks on every request":
        "`StableEnd`와 agentlib의 `Breakpoints`는 모든 요청에서 같은 블록에 표시합니다",
    "batch_clear and agentlib's BatchClearing send the same histories on every request":
        "`batch_clear`와 agentlib의 `BatchClearing`은 모든 요청에서 같은 히스토리를 보냅니다",
    "LowWater and agentlib's LowWaterCompactor send the same histories on every request":
        "`LowWater`와 agentlib의 `LowWaterCompactor`는 모든 요청에서 같은 히스토리를 보냅니다",
    "the floor of this run, by hand: ${f:.4f}, as cost.floor computes it":
        "손으로 계산한 이 실행의 하한: ${f:.4f}, `cost.floor`의 계산과 같습니다",
    "x its own floor": "자기 하한의 배수",
    "{n} more bars checked, all ok: the needle's and the held-out audits'":
        "기준 {n}개를 더 검사했고 모두 통과: 바늘 찾기 과제와 홀드아웃 감사 과제의 기준",
    "drop_read and mark_texts agree with agentlib's DropRecords on every request":
        "`drop_read`와 `mark_texts`는 모든 요청에서 agentlib의 `DropRecords`와 같습니다",
    "{m}, records: ${c:.4f}, {x:.2f}x its own floor":
        "{m}, `records`: ${c:.4f}, 자기 하한의 {x:.2f}배",
    "{n} messages; lesson 5's Compactor folds them: {f}":
        "메시지 {n}개, 레슨 5의 `Compactor`가 이것을 접는가: {f}",
    "FoldTexts keeps messages 0 to {a}, folds {a} to {b} and keeps the last {k}, as ours does":
        "`FoldTexts`는 메시지 0부터 {a}까지 남기고, {a}부터 {b}까지 접고, 마지막 {k}개를 남깁니다. "
        "노트북의 버전과 같습니다",
    "a cache write costs {w:g}x the input price, a cache read {r:g}x":
        "캐시 쓰기는 입력 가격의 {w:g}배, 캐시 읽기는 {r:g}배입니다",
    "{n} saved rows, written by: {command}":
        "저장된 행 {n}개, 만든 명령: `{command}`",
    "reads capped at {n:,} characters":
        "읽기 상한 {n:,}자",
    "notes tool":
        "메모 도구",
    "server {edit} over {n:,}":
        "서버 {edit}, {n:,} 초과 시",
    ", keep {n}":
        ", keep {n}",
    "nothing":
        "없음",
    "large size: audit of {a} files, needle of {b:,} lines, {c} lookups, a {w:,}-token window":
        "큰 크기: 감사 과제 파일 {a}개, 바늘 찾기 {b:,}줄, 조회 {c}번, {w:,} 토큰 윈도우",
    "with these prices (w - r) / r = {x:g}":
        "이 가격에서 `(w - r) / r` = {x:g}",
    "one result, only the newest block marked":
        "결과 하나, 가장 새 블록만 표시",
    "a batch of 10 results, only the newest marked":
        "결과 10개 묶음, 가장 새 블록만 표시",
    "one result, the stable part's end marked":
        "결과 하나, 안정된 부분의 끝 표시",
    "{label} F = {f:>5,}, P = {p:>5,}: pays after {s:5.0f} requests":
        "{label} F = {f:>5,}, P = {p:>5,}: 요청 {s:5.0f}번 뒤에 본전",
    "{label} {detail}; read {r:>7,}, written {w:>7,} tokens; ${t:.4f} (writes ${cw:.4f}, uncached ${u:.4f})":
        "{label} {detail}; 읽기 {r:>7,} 토큰, 쓰기 {w:>7,} 토큰; ${t:.4f} (쓰기 ${cw:.4f}, 캐시 없음 ${u:.4f})",
    "small audit: floor ${f:.4f}, the run ${c:.4f}":
        "작은 감사 과제: 하한 ${f:.4f}, 실행 ${c:.4f}",
    "audit of 200, {k:12}: ${c:.4f}, its own floor ${f:.4f} ({r:.2f}x the floor; the floor is {a:.2f}x append-only's bill)":
        "파일 200개 감사, {k:12}: ${c:.4f}, 자기 하한 ${f:.4f} (하한의 {r:.2f}배, 하한은 추가 전용 청구액의 {a:.2f}배)",
    "records: {c}x append-only's dollars, {i}x its input tokens, {p}x its peak; {f}x its own floor: ${a:.4f} above it, ${s:.4f} of that the fold":
        "records: 추가 전용 대비 달러 {c}배, 입력 토큰 {i}배, 최대치 {p}배. 자기 하한의 {f}배로 하한보다 ${a:.4f} 높고, 그중 ${s:.4f}가 접기입니다",
    "without the fold: {f:.3f}x its floor, input tokens {i:.3f}x append-only's (bar {b}x)":
        "접기가 없으면: 자기 하한의 {f:.3f}배, 입력 토큰은 추가 전용의 {i:.3f}배 (기준 {b}배)",
    "held-out audit: {n} files, seed {seed}":
        "홀드아웃 감사 과제: 파일 {n}개, 시드 {seed}",
    "catalog":
        "카탈로그 가격",
    "reads 0.10x":
        "읽기 0.10배",
    "1 step in 10 slow":
        "10단계에 1번 느림",
    "every step slow":
        "모든 단계 느림",
    "no cache":
        "캐시 없음",
    "dollars under each pricing; a slow step comes 6 minutes after the one before, past the 5-minute ttl":
        "가격별 달러. 느린 단계는 앞 요청보다 6분 늦게 와서 5분짜리 캐시 수명을 넘깁니다",
    "each bill as a multiple of append-only's under the same prices (its rank)":
        "같은 가격에서 추가 전용 청구액에 대한 배수(괄호 안은 순위)",
    "one result cleared, only the newest block marked: pays after {a:.0f} requests at the catalog's reads, {b:.0f} at 0.10x":
        "결과 하나를 비우고 가장 새 블록만 표시: 카탈로그의 읽기 가격에서는 요청 {a:.0f}번, 0.10배에서는 {b:.0f}번 뒤에 본전",
    # lessons 08-09 (issue 25 item 5): the sentences their code cells print, and lesson 9's plot
    "(offline course model)": "(오프라인 코스 모델)",
    "{folder:20} {n:>3} files {t:>7,} tokens": "{folder:20} 파일 {n:>3}개 {t:>7,} 토큰",
    "every file once: {t:,} tokens, {w:.1f} windows; {n} services above 30":
        "모든 파일을 한 번씩: {t:,} 토큰, 윈도우 {w:.1f}개 분량; 30을 넘는 서비스 {n}개",
    "{label}: {stop}, {n} requests + {k} summary calls, peak {t:,} tokens; {score}":
        "{label}: {stop}, 요청 {n}번 + 요약 호출 {k}번, 최대 {t:,} 토큰; {score}",
    "the lead's rules (sent to the model as they are):": "리드의 규칙 (모델에 이대로 보냅니다):",
    "the sub-agents' rules (sent to the model as they are):":
        "서브에이전트의 규칙 (모델에 이대로 보냅니다):",
    "  {label}: {stop}, {n} requests, peak {t:,}": "  {label}: {stop}, 요청 {n}번, 최대 {t:,}",
    "lead: {stop}...; its largest request {t:,} tokens, the window {w:,}":
        "리드: {stop}...; 가장 큰 요청 {t:,} 토큰, 윈도우 {w:,}",
    "{n} tokens, fitted to {m}:": "{n} 토큰을 {m} 토큰에 맞추면:",
    "lead: {stop}, {score}": "리드: {stop}, {score}",
    "the largest folder's findings alone, one `name: value` line each: {n} tokens":
        "가장 큰 폴더의 발견 사항만, 서비스마다 `name: value` 한 줄로: {n} 토큰",
    "{label} wrote {n} tokens:": "{label}의 응답, {n} 토큰:",
    "and the lead saw:": "리드가 받은 것:",
    "{n} files at most in a folder x {m} tokens a line = {t} tokens":
        "폴더당 파일 최대 {n}개 × 한 줄에 {m} 토큰 = {t} 토큰",
    "  {label}: {n} tokens of result, peak {t:,}": "  {label}: 결과 {n} 토큰, 최대 {t:,}",
    "the lead's largest request: {t:,} tokens, of which {parts}":
        "리드의 가장 큰 요청: {t:,} 토큰, 그중 {parts}",
    "{name} results {n:,}": "{name} 결과 {n:,}",
    "agentlib's Team and delegate_tool agree: {n} sub-agents, {m} requests, the same answer":
        "agentlib의 Team과 delegate_tool이 일치합니다: 서브에이전트 {n}개, 요청 {m}번, 같은 답",
    "the lead's peak: {a:.0%} of one agent's; wall-clock steps {b:.0%}; input tokens {c:.0%}; "
    "dollars {d:.0%}":
        "리드의 최대치: 에이전트 하나의 {a:.0%}; 순차 단계 {b:.0%}; 입력 토큰 {c:.0%}; 달러 {d:.0%}",
    "{n} tools, {t:,} tokens of definitions; one tool {lo} to {hi} tokens, median {mid}":
        "도구 {n}개, 정의 {t:,} 토큰; 도구 하나에 {lo}~{hi} 토큰, 중앙값 {mid}",
    "needed:": "필요한 도구:",
    "tokens per request:": "요청별 토큰:",
    "definitions' share of each request:": "요청마다 정의가 차지하는 비율:",
    "definitions' share of the run: {p:.0%} ({d:,} of {t:,} tokens)":
        "실행 전체에서 정의가 차지하는 비율: {p:.0%} ({t:,} 토큰 중 {d:,})",
    "the run's bill, no cache: ${c:.4f}; the definitions' part: ${d:.4f}":
        "캐시 없이 실행한 청구액: ${c:.4f}; 그중 정의의 몫: ${d:.4f}",
    "the first request: {n:,} tokens, {p:.1%} of a {w:,}-token window before any work":
        "첫 요청: {n:,} 토큰, 일을 시작하기도 전에 {w:,} 토큰 윈도우의 {p:.1%}",
    "{kind}: {ok}, {n} requests, {k} searches, {m} tools loaded, {t:,} input tokens "
    "({r:.2f}x every definition), peak {p:,}":
        "{kind}: {ok}, 요청 {n}번, 검색 {k}번, 로드한 도구 {m}개, 입력 토큰 {t:,} "
        "(모든 정의를 보낼 때의 {r:.2f}배), 최대 {p:,}",
    "{k} searches, each a round trip: {n} requests instead of {m} ({extra:+d}); {t:,} input "
    "tokens ({r:.2f}x every definition)":
        "검색 {k}번, 검색마다 왕복 한 번: 요청 {m}번이 아니라 {n}번 ({extra:+d}); 입력 토큰 {t:,} "
        "(모든 정의를 보낼 때의 {r:.2f}배)",
    "tools added by hand: {a} then {b}": "손으로 추가한 도구: {a}, 이어서 {b}",
    "deferred, regex: {a}": "지연 로딩, regex: {a}",
    "tools added by hand": "손으로 추가한 도구",
    "deferred, regex": "지연 로딩, regex",
    "the first request after adding the tools read {r:,} tokens from the cache and wrote {w:,}":
        "도구를 추가한 뒤 첫 요청은 캐시에서 {r:,} 토큰을 읽고 {w:,} 토큰을 썼습니다",
    "every definition: {a:,.0f} + {b:,.0f} per tool; deferred: {c:,.0f} + {d:,.0f} per tool "
    "(input tokens of the run)":
        "모든 정의: {a:,.0f} + 도구당 {b:,.0f}; 지연 로딩: {c:,.0f} + 도구당 {d:,.0f} "
        "(실행 전체의 입력 토큰)",
    "break-even: {n:.1f} tools, {t:,.0f} tokens of definitions per request ({p:.0f} per tool)":
        "손익분기점: 도구 {n:.1f}개, 요청당 정의 {t:,.0f} 토큰 (도구당 {p:.0f})",
    "every definition": "모든 정의",
    "deferred, regex search": "지연 로딩, 정규식 검색",
    "tools in the catalog": "카탈로그의 도구 수",
    "input tokens, whole run": "입력 토큰, 실행 전체",
    "the incident task: the catalog's size and the run's input":
        "인시던트 과제: 카탈로그의 크기와 실행의 입력",
    "every result": "결과 전부",
    "capped 1,200": "상한 1,200",
    "cleared, keep 3": "비우기, keep 3",
    "one script": "스크립트 하나",
    "one call per report": "보고서마다 호출 한 번",
    "the longest result: {n:,} characters (the cap: {cap:,})": "가장 긴 결과: {n:,}자 (상한: {cap:,})",
    "the script: {r:.2f}x the input tokens, {n} requests instead of {m}":
        "스크립트: 입력 토큰 {r:.2f}배, 요청 {m}번이 아니라 {n}번",
    "the script the model wrote:": "모델이 쓴 스크립트:",
    "what entered the window:": "윈도우에 들어간 것:",
    "{n} tool calls made by the script, answered by the client:":
        "스크립트가 한 도구 호출 {n}번, 답은 클라이언트가:",
    "(the invoices answered between the last two are not counted)":
        "(마지막 두 요청 사이에 답한 청구서는 세지 않습니다)",
    "the script's output is {r:.2f}x the results read one by one":
        "스크립트의 출력은 하나씩 읽은 결과의 {r:.2f}배입니다",
}

# the capstone (exercise 10, issue 34): its report, its plot, the class leaderboard
PHRASES.update({
    "task": "과제",
    "model": "모델",
    "setup": "설정",
    "solved": "해결",
    "yes": "예",
    "no": "아니요",
    "over the cap": "상한 초과",
    "you": "나",
    "course's best": "코스의 최선",
    "user turns": "사용자 턴",
    "definitions (tokens)": "정의(토큰)",
    "capstone: {n} runs ({f} tasks x {m} models), a window of {w:,} tokens, a cap of ${c:.2f} "
    "a run": "캡스톤: 실행 {n}번(과제 {f}개 × 모델 {m}개), 윈도우 {w:,} 토큰, 실행마다 상한 ${c:.2f}",
    "{who:14} score {s:6.1f}: {k} of {n} solved, ${d:.4f}, peak {p:,}":
        "{who:14} 점수 {s:6.1f}: {n}번 중 {k}번 해결, ${d:.4f}, 최대치 {p:,}",
    "score = sum over the runs solved within the cap of {a} + {b} x (1 - dollars / ${c:.2f}) + "
    "{d} x (1 - peak / {w:,})": "점수 = 상한 안에서 해결한 실행 하나마다 다음을 더한 값: {a} + {b} × "
                                "(1 - 비용 / ${c:.2f}) + {d} × (1 - 최대치 / {w:,})",
    "the capstone: runs solved against dollars": "캡스톤: 비용 대비 해결한 실행 수",
    "dollars, all runs (cache on)": "비용(달러), 모든 실행(캐시 켬)",
    "runs solved (of {n})": "해결한 실행 수({n}번 중)",
    "the frontier: no setup solves more for less": "경계선: 더 적은 비용으로 더 많이 해결하는 설정이 없음",
    # the leaderboard (classroom/grader/leaderboard.py)
    "Capstone leaderboard": "캡스톤 순위표",
    "rank": "순위",
    "student": "학생",
    "score (points)": "점수",
    "runs solved": "해결한 실행",
    "peak window": "최대 윈도우",
    "note": "참고",
    "reference": "기준",
    "{n} students, {k} tasks on {m} models drawn at grading time, a window of {w:,} tokens, "
    "a cap of ${c:.2f} a run": "학생 {n}명, 채점할 때 뽑은 과제 {k}개를 모델 {m}개에서, 윈도우 "
                               "{w:,} 토큰, 실행마다 상한 ${c:.2f}",
    "Click a column's heading to sort by it; click again to reverse.":
        "열 제목을 누르면 그 열로 정렬합니다. 한 번 더 누르면 순서가 뒤집힙니다.",
    "each family: runs solved on both models": "유형마다: 두 모델에서 해결한 실행 수",
    "the class on the frontier": "경계선 위의 반 전체",
    "no points: the setup used the course's own pipelines": "점수 없음: 코스 자체의 파이프라인을 썼습니다",
    "not graded": "채점되지 않음",
})

# lesson 01b (issue 32): the prompt cache
PRINTED.update({
    "the first request": "첫 요청",
    "the same request again": "같은 요청을 다시",
    "another task": "다른 과제",
    "a word added to the system prompt": "시스템 프롬프트에 단어 하나 추가",
    "a tool added": "도구 하나 추가",
    "The notebook's loop and agentlib's run_agent agree, request by request":
        "노트북의 루프와 agentlib의 run_agent가 요청마다 일치합니다",
    "{m}: the first request wrote {w:,} of its {n:,} tokens":
        "{m}: 첫 요청이 {n:,} 토큰 가운데 {w:,} 토큰을 썼습니다",
    "one breakpoint, at the end": "끝에만 중단점 하나",
    "another at message {i}": "메시지 {i}에 하나 더",
    "{label}: {d} positions after A's write of {a:,} tokens; read {r:,}, written {w:,}":
        "{label}: A가 쓴 {a:,} 토큰 항목에서 {d}위치 뒤. 읽기 {r:,}, 쓰기 {w:,}",
    "an hour costs {a:.2f}x more per token written, a lapse {b:.2f}x more per token it "
    "would have read: the hour pays once the lapsed reads exceed {x:.3f} of the writes":
        "1시간 캐시는 쓰는 토큰마다 {a:.2f}배 더 들고, 만료는 읽었을 토큰마다 {b:.2f}배 더 "
        "듭니다. 사라진 읽기가 쓰기의 {x:.3f}보다 많아지면 1시간이 이득입니다",
    "{m}: writes {w:,}; one slow step pays from step {i} on (it reads over {t:,.0f})":
        "{m}: 쓰기 {w:,} 토큰. {i}단계부터는 느린 단계 하나로 본전입니다({t:,.0f} 토큰보다 "
        "많이 읽습니다)",
    "every step": "모든 단계",
    "1 step in {n}": "{n}단계에 1번",
    "slow steps": "느린 단계",
    "{m}: request 1 refused, {s}: {t}": "{m}: 요청 1이 거절되었습니다. {s}: {t}",
    "{m}: {n} requests, read {r:,}, written {w:,}: ${c:.4f} cached, ${u:.4f} uncached":
        "{m}: 요청 {n}번, 읽기 {r:,}, 쓰기 {w:,}: 캐시 ${c:.4f}, 캐시 없음 ${u:.4f}",
    "  diagnostics: {kinds}; the second request missed {a:,} tokens, the last {b:,}":
        "  진단: {kinds}. 두 번째 요청은 {a:,} 토큰, 마지막 요청은 {b:,} 토큰을 놓쳤습니다",
    "{m}, the time in the task: read {r:,}, written {w:,}: ${c:.4f}; divergences: {k}":
        "{m}, 시각을 과제에 넣음: 읽기 {r:,}, 쓰기 {w:,}: ${c:.4f}, 달라진 곳 {k}개",
    "no change": "변경 없음",
    "the tools reordered": "도구 순서 변경",
    "thinking changed": "사고 설정 변경",
    "an old result edited": "오래된 결과 편집",
    "the same, stale thinking dropped": "같은 편집, 낡은 사고 블록 제거",
    # its tables (coursekit.table): headings and cells
    "minimum prefix": "최소 접두부",
    "5m write x input": "5분 쓰기 배수",
    "1h write x input": "1시간 쓰기 배수",
    "read x input": "읽기 배수",
    "request": "요청",
    "prompt": "프롬프트",
    "uncached $": "캐시 없음 $",
    "{m} 5m": "{m} 5분",
    "1h": "1시간",
    "change": "변경",
    "missed": "놓친 토큰",
})

# lessons 9 and 9b (issue 38 item 5): priced cached and uncached on both models, the
# break-even between two measured sizes, loaded tools through a compaction and a clear
PRINTED.update({
    "cache minimum": "캐시 최소 길이",
    "binds thinking": "사고 블록 묶임",
    "The notebook's catalog and workloads.ops(tools=n) agree":
        "노트북의 `catalog`와 `workloads.ops(tools=n)`이 일치합니다",
    "{m}: the run's bill ${c:.4f} with the cache, ${u:.4f} without; the definitions' "
    "part ${dc:.4f} and ${du:.4f}":
        "{m}: 실행의 청구액은 캐시를 켜면 ${c:.4f}, 끄면 ${u:.4f}; 그중 정의의 몫은 각각 "
        "${dc:.4f}, ${du:.4f}",
    "searches": "검색 수",
    "loaded": "로드한 도구",
    "$ uncached": "$ (캐시 없음)",
    "{kind}, tokens per request:": "{kind}, 요청별 토큰:",
    "{m}: {k} searches, each a round trip: {n} requests instead of {n0}; ${c:.4f} cached "
    "({rc:.2f}x every definition's), ${u:.4f} uncached ({ru:.2f}x)":
        "{m}: 검색 {k}번, 검색마다 왕복 한 번: 요청 {n0}번이 아니라 {n}번; 캐시 포함 ${c:.4f}"
        "(모든 정의를 보낼 때의 {rc:.2f}배), 캐시 없이 ${u:.4f}({ru:.2f}배)",
    "{m}: the first request after adding the tools read {r:,} tokens from the cache and "
    "wrote {w:,}":
        "{m}: 도구를 추가한 뒤 첫 요청은 캐시에서 {r:,} 토큰을 읽고 {w:,} 토큰을 썼습니다",
    "{m}: the first request after adding the tools: {e}": "{m}: 도구를 추가한 뒤 첫 요청: {e}",
    "dollars on {m}; then deferred's as a multiple of every definition's":
        "{m}의 달러, 이어서 지연 로딩의 값이 모든 정의를 보낼 때의 몇 배인지",
    "cached": "캐시 포함",
    "every def., cached": "모든 정의, 캐시 포함",
    "deferred, cached": "지연 로딩, 캐시 포함",
    "{m}, {p}: deferred costs {ra:.2f}x what every definition costs at {a} tools, "
    "{rb:.2f}x at {b}: the break-even lies between {a} and {b} tools":
        "{m}, {p}: 지연 로딩의 값은 모든 정의를 보낼 때의 {ra:.2f}배(도구 {a}개), "
        "{rb:.2f}배({b}개): 손익분기점은 도구 {a}개와 {b}개 사이",
    "{m}, {p}: deferred costs {r:.2f}x what every definition costs already at {a} tools, "
    "the smallest catalog measured: no break-even from {a} to {z} tools":
        "{m}, {p}: 측정한 가장 작은 카탈로그인 도구 {a}개에서 이미 지연 로딩의 값이 모든 정의를 "
        "보낼 때의 {r:.2f}배: 도구 {a}개에서 {z}개 사이에 손익분기점 없음",
    "{m}, {p}: deferred still costs {r:.2f}x what every definition costs at {z} tools, "
    "the largest catalog measured: no break-even from {a} to {z} tools":
        "{m}, {p}: 측정한 가장 큰 카탈로그인 도구 {z}개에서도 지연 로딩의 값이 모든 정의를 "
        "보낼 때의 {r:.2f}배: 도구 {a}개에서 {z}개 사이에 손익분기점 없음",
    "dollars, whole run": "달러, 실행 전체",
    "the incident task: the catalog's size and the run's bill":
        "인시던트 과제: 카탈로그의 크기와 실행의 청구액",
    "models:": "모델:",
    "no clearing": "비우기 없음",
    "compacted at the turn": "턴 사이에서 압축",
    "the same, search results kept": "같은 설정, 검색 결과는 남김",
    "cleared on the server, keep 3": "서버에서 비우기, keep 3",
    "again": "다시 한 검색",
    "{m}: searched before the compaction:": "{m}: 압축 전에 한 검색:",
    "after it:": "압축 뒤:",
    "tools called after the compaction: {n}; loaded by a search after its block: {k}":
        "압축 뒤에 호출한 도구 {n}개; 그중 블록 뒤의 검색이 로드한 도구 {k}개",
})

PRINTED.update({  # lesson 7b: the benchmark on the default model
    "the 200-file audit; success and $ x on {a}, then the rest on {b}; $ x: dollars as a "
    "multiple of append-only's on the same model":
        "파일 200개 감사 과제. 앞의 성공과 $ 배수는 {a}, 나머지는 {b}의 값입니다. $ 배수는 같은 "
        "모델에서 추가 전용 달러의 몇 배인지입니다",
    "x floor": "하한 배수",
    "and {n} variants of them, equal too (the large size below shows them)":
        "그 변형 {n}개도 저장된 행과 같습니다(아래의 큰 크기에서 봅니다)",
    "{m}: a client clear (keep 1) changes message {i}; the {n} replies after it lose their "
    "thinking, {t:,} of the {a:,} tokens of notes":
        "{m}: 클라이언트의 비우기(keep 1)는 메시지 {i}부터 바꿉니다. 그 뒤의 응답 {n}개가 사고 "
        "블록을 잃고, 메모 {a:,} 토큰 가운데 {t:,} 토큰이 사라집니다",
    "{k}: ${c:.4f}, {x}x append-only's dollars and {f}x its own floor; peak {p:,} tokens, {q}x":
        "{k}: ${c:.4f}, 추가 전용 달러의 {x}배, 자기 하한의 {f}배. 최대치 {p:,} 토큰, {q}배",
})


def localize_open_figures(*_: object) -> None:
    """Translate every open pyplot figure (an IPython `post_execute` hook: it runs before
    Jupyter draws the cell's figures, so a lesson's own titles and labels are Korean too)."""
    if lang() != "ko":
        return
    import matplotlib.pyplot as plt

    for number in plt.get_fignums():
        localize_figure(plt.figure(number))


def install_figure_hook() -> bool:
    """In a Korean notebook, run `localize_open_figures` after each cell, before the inline
    backend shows the figures. True if installed (an IPython kernel in Korean)."""
    if lang() != "ko":
        return False
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    if shell is None:
        return False
    hooks = shell.events.callbacks["post_execute"]
    if localize_open_figures not in hooks:
        hooks.insert(0, localize_open_figures)  # before the backend's flush_figures
    _record_figure_texts()
    return True


def _record_figure_texts() -> None:
    """Save each figure's words with its image in the notebook (output metadata
    `agentlib.figure_texts`), and what is wrong with where they sit (`agentlib.layout`,
    coursekit.viz.layout), so tests/test_korean_figures.py can read what a Korean notebook's
    figures say and how they are laid out without drawing them again."""
    try:
        from matplotlib_inline import backend_inline
    except ImportError:
        return
    fetch = backend_inline._fetch_figure_metadata
    if getattr(fetch, "_agentlib", False):
        return

    def with_texts(fig):
        # the backend asks for this just before it draws a figure, also when `plt.show()` is
        # called inside a cell or a function, before the post_execute hook: translate it here
        localize_figure(fig)
        metadata = dict(fetch(fig) or {})
        from coursekit.viz.layout import problems  # noqa: PLC0415 (viz imports this module)

        metadata["agentlib"] = {"figure_texts": figure_texts(fig), "layout": problems(fig)}
        return metadata

    with_texts._agentlib = True
    backend_inline._fetch_figure_metadata = with_texts


# agentlib's own sentences (`print(run)`, a score's detail) in the learner's words: agentlib
# imports nothing of the course, so the course hands it `say`.
words.set_say(say)

# A Korean lesson that draws with matplotlib alone (no coursekit.viz, which installs the hook
# too) gets Korean, recorded figures as soon as it imports `say`: in a running IPython kernel
# (IPython already imported), install the hook now. Elsewhere this costs nothing.
if "IPython" in sys.modules:
    install_figure_hook()
