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


@functools.lru_cache(maxsize=1)
def _templates() -> list[tuple[re.Pattern, str]]:
    out = []
    for english, korean in PHRASES.items():
        if "{" in english:
            parts = re.split(r"\{(\w+)\}", english)  # text, name, text, name, ..., text
            regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
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
    return fig


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
    # plots (agentlib.viz): axes, legends, notes
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
    "usage": "사용량(usage)",
    "over the window": "윈도우 초과",
    "cache read": "캐시 읽기",
    "cache write": "캐시 쓰기",
    "cache read ({r}x)": "캐시 읽기 ({r}배)",
    "cache write ({r}x)": "캐시 쓰기 ({r}배)",
    "uncached (1x)": "캐시 없음 (1배)",
    "the bar: peak <= {p}x, cost <= {c}x": "기준: 최대 윈도우 {p}배 이하, 비용 {c}배 이하",
    "peak window (x append-only)": "최대 윈도우 (append-only 대비 배수)",
    "cost with caching (x append-only)": "캐시 포함 비용 (append-only 대비 배수)",
    "input tokens (x append-only)": "입력 토큰 (append-only 대비 배수)",
    "cost (x append-only)": "비용 (append-only 대비 배수)",
    "success": "성공",
    # what the strategies report (notes on the plots)
    "cleared {n} results (-{t} tokens)": "결과 {n}개 비움 (-{t} 토큰)",
    "compacted {n} messages (~{a} -> ~{b} tokens)": "메시지 {n}개 압축 (~{a} -> ~{b} 토큰)",
    "truncated: {a} -> {b} messages": "잘라냄: 메시지 {a}개 -> {b}개",
    "server: {edit}": "서버: {edit}",
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
    # the grader's reports (python -m agentlib.grade --lang ko)
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
