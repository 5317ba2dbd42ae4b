"""The learner's language, English or Korean, and the few words the course prints in each.

`lang()` is "ko" when `AGENTLIB_LANG=ko`, or when the kernel runs in a folder named `ko`
(the Korean edition's notebooks live in lessons/ko/, exercises/ko/ and solutions/ko/, and
Jupyter starts a notebook's kernel in the notebook's folder); else "en". So the same code
cell prints English labels in an English notebook and Korean ones in a Korean notebook.

`say(text)` is `text` in the learner's language: English is the key, the Korean catalog is
`PHRASES` below (a phrase it lacks stays English; tests/test_i18n.py finds those).
`use_korean_font()` lets matplotlib draw Hangul with a real Korean font.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
from pathlib import Path

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


def say(text: str, language: str | None = None, **values: object) -> str:
    """`text` in the learner's language (or `language`), with `values` filled in ({name}
    placeholders)."""
    phrase = PHRASES.get(text, text) if (language or lang()) == "ko" else text
    return phrase.format(**values) if values else phrase


def translate(text: str) -> str:
    """`text`, already filled in, in Korean when the catalog knows it: as it is, or by a
    template ("window ({n})" matches "window (8,000)"). Else unchanged."""
    if text in PHRASES:
        return PHRASES[text]
    for pattern, korean in _templates():
        m = pattern.fullmatch(text)
        if m:
            return korean.format(**{k: translate(v) for k, v in m.groupdict().items()})
    return text


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
    "no `{name}` defined yet: run its cell first": "`{name}`이(가) 아직 없습니다: 그 셀을 먼저 실행하세요",
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
    "cleared {n} results (-{t} tokens)": "결과 {n}개 비움 (-{t} 토큰)",
    "compacted {n} messages (~{a} -> ~{b} tokens)": "메시지 {n}개 압축 (~{a} -> ~{b} 토큰)",
    "truncated: {a} -> {b} messages": "잘라냄: 메시지 {a}개 -> {b}개",
    "server: {edit}": "서버: {edit}",
    "compaction ({a} tokens in, {b} out)": "압축 (입력 토큰 {a}, 출력 {b})",
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
    "calls": "호출 수",
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
    "re-reads": "다시 읽기",
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
    `agentlib.figure_texts`), so tests/test_korean_figures.py can read what a Korean
    notebook's figures say without drawing them again."""
    try:
        from matplotlib_inline import backend_inline
    except ImportError:
        return
    fetch = backend_inline._fetch_figure_metadata
    if getattr(fetch, "_agentlib", False):
        return

    def with_texts(fig):
        metadata = dict(fetch(fig) or {})
        metadata["agentlib"] = {"figure_texts": figure_texts(fig)}
        return metadata

    with_texts._agentlib = True
    backend_inline._fetch_figure_metadata = with_texts
