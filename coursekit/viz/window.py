"""What fills the context window: every block of a message list drawn as a box whose width
is its token count, coloured by what it is (a tool result, a cleared result, a summary...).

`window_html` / `show_window` draw one list, `show_step` one step of a run, and
`window_viewer` adds a slider over a run's steps. Deterministic (no ids, no timestamps),
so a re-run notebook saves the same output.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from agentlib import tokens
from agentlib.context.clear import is_cleared
from agentlib.messages import SUMMARY_MARK, TRUNCATION_MARK, blocks, result_text
from agentlib.models import tool_prompt_tokens
from coursekit.i18n import say

# kind -> (legend label, background colour). One palette for the HTML and the plots.
KINDS: dict[str, tuple[str, str]] = {
    "system": ("system prompt", "#b0bec5"),
    "tools": ("tool definitions", "#bcaaa4"),
    "hidden": ("tool-use prompt (the API's)", "#cfd8dc"),
    "user": ("user text", "#90caf9"),
    "assistant": ("assistant text", "#a5d6a7"),
    "tool_use": ("tool_use", "#ffcc80"),
    "tool_result": ("tool_result", "#fff176"),
    "cleared": ("cleared result", "#eeeeee"),
    "error": ("error result", "#ef9a9a"),
    "summary": ("summary", "#ce93d8"),
    "truncation": ("truncation marker", "#f48fb1"),
    "compaction": ("compaction block", "#b39ddb"),
    "other": ("other block", "#e0e0e0"),
}

# ---------------------------------------------------------------- what a block is


def block_kind(block: Mapping, role: str = "user") -> str:
    """What a block is, as one of the keys of `KINDS` (the viewer's colour)."""
    kind = block.get("type")
    if kind == "text":
        text = block.get("text", "").lstrip()
        if text.startswith(SUMMARY_MARK):
            return "summary"
        if text.startswith(TRUNCATION_MARK):
            return "truncation"
        return "assistant" if role == "assistant" else "user"
    if kind == "tool_result":
        if is_cleared(block):
            return "cleared"
        return "error" if block.get("is_error") else "tool_result"
    if kind in ("tool_use", "compaction"):
        return kind
    return "other"


def _preview(block: Mapping) -> str:
    """The readable text of a block, for the hover title."""
    kind = block.get("type")
    if kind == "text":
        return block.get("text", "")
    if kind == "tool_use":
        args = json.dumps(block.get("input", {}), ensure_ascii=False)
        return f"{block.get('name', '')}({args})"
    if kind == "tool_result":
        return result_text(block)
    if kind == "compaction":
        return block.get("content") or ""
    return json.dumps(block, ensure_ascii=False)


def _short(s: str, n: int) -> str:
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _label(block: Mapping, kind: str, n: int) -> str:
    """The few words written inside a block's box."""
    if kind == "tool_use":
        args = [v for v in (block.get("input") or {}).values() if isinstance(v, str | int)]
        first = f" {_short(str(args[0]), 24)}" if args else ""
        return f"tool_use {block.get('name', '')}{first}"
    names = {"user": "text", "assistant": "text", "tool_result": "result", "error": "error",
             "cleared": "cleared", "summary": "summary", "truncation": "truncated",
             "compaction": "compaction", "other": str(block.get("type", "block"))}
    return f"{names.get(kind, kind)} {n:,} tok"


def _hidden(model: str | None, tools: Sequence[Mapping] | None) -> int:
    """The tool-use system prompt the API adds to a request with tools (0 if no model)."""
    return tool_prompt_tokens(model, tools) if model and tools else 0


def kind_tokens(messages: Sequence[Mapping], *, system: Any = None,
                tools: Sequence[Mapping] | None = None, model: str | None = None
                ) -> dict[str, int]:
    """Tokens per kind of block (`KINDS` keys) in what would be sent; absent kinds are 0.
    With `model`, "hidden" is the tool-use system prompt the API adds (never sent).

    Message framing (a few tokens per message) is not in any block, so the values add up
    to slightly less than `tokens.input_tokens(messages, ...)`.
    """
    totals = dict.fromkeys(KINDS, 0)
    totals["hidden"] = _hidden(model, tools)
    if system:
        totals["system"] += tokens.count(system)
    if tools:
        totals["tools"] += tokens.count([], tools=list(tools))
    for message in messages:
        role = message.get("role", "user")
        for block in blocks(message):
            totals[block_kind(block, role)] += tokens.count(block)
    return totals


# ---------------------------------------------------------------- the window as HTML

_FONT = "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:11px"
_LABEL_PX = 130  # the role column
_MIN_PX = 6  # a one-token block is still visible
_GAP_PX = 2


def _box(kind: str, width: float, label: str, title: str) -> str:
    bg = KINDS[kind][1]
    border = "1px dashed #757575" if kind in ("cleared", "hidden") else \
        "1px solid rgba(0,0,0,0.25)"
    style = (f"flex:0 0 auto;box-sizing:border-box;width:{width:.1f}px;height:18px;"
             f"line-height:16px;background:{bg};border:{border};border-radius:3px;"
             "padding:0 3px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis")
    return (f'<div class="cw-box cw-{kind}" style="{style}" '
            f'title="{html.escape(title)}">{html.escape(label)}</div>')


def _row(head: str, boxes: list[str]) -> str:
    label = (f'<div class="cw-role" style="flex:0 0 {_LABEL_PX}px;color:#424242;'
             f'overflow:hidden;white-space:nowrap">{head}</div>')
    inner = "".join(boxes) or '<span style="color:#c62828">(empty content)</span>'
    return (f'<div class="cw-row" style="display:flex;align-items:center;margin:1px 0">'
            f'{label}<div style="display:flex;flex-wrap:wrap;gap:{_GAP_PX}px">{inner}</div>'
            "</div>")


def _items(block_list: list[tuple[str, int, str, str]], scale: float) -> list[str]:
    return [_box(kind, max(_MIN_PX, n * scale), label, title)
            for kind, n, label, title in block_list]


def _title(kind: str, n: int, preview: str, limit: int = 200) -> str:
    body = preview if len(preview) <= limit else preview[:limit] + "…"
    return f"{say(KINDS[kind][0])} · {say('{n} tokens', n=f'{n:,}')}\n{body}"


def window_html(messages: Sequence[Mapping], *, system: Any = None,
                tools: Sequence[Mapping] | None = None, window: int | None = None,
                width_px: int = 900, max_rows: int = 200, model: str | None = None) -> str:
    """A static HTML picture of a context window: one row per message, one box per block.

    A box's width is proportional to its exact token count (`tokens.count`), with a
    minimum so that tiny blocks stay visible; its colour says what it is (see `KINDS`)
    and hovering shows its first 200 characters. With `model`, a first row shows the
    tool-use system prompt the API adds to a request with tools (the client never sends
    it). The header gives the total (with `model`, what the offline model reports as
    `usage.input_tokens`) and, with `window`, how full it is.
    Histories longer than `max_rows` show their first and last rows around a gap row.
    Inline styles only, no scripts, no ids: the same input gives the same string.
    """
    messages = list(messages)
    hidden_n = _hidden(model, tools)
    total = tokens.count(messages, system=system, tools=tools) + hidden_n

    # Every row as (head, [(kind, tokens, label, title)]); system and tools come first.
    # A head of None is the row that stands for the hidden middle of a long history.
    rows: list[tuple[str | None, list[tuple[str, int, str, str]]]] = []
    if hidden_n:
        rows.append(("added by the API", [("hidden", hidden_n, f"tool-use prompt {hidden_n:,} tok",
                                           _title("hidden", hidden_n, "The system prompt the "
                                                  "API adds to every request with tools: "
                                                  "your code never sends it."))]))
    if system:
        items = []
        for part in [system] if isinstance(system, str) else list(system):
            text = part if isinstance(part, str) else _preview(part)
            n = tokens.count(part)
            items.append(("system", n, f"system {n:,} tok", _title("system", n, text)))
        rows.append(("system", items))
    if tools:
        items = []
        for tool in tools:
            n = tokens.count([], tools=[tool])
            name = str(tool.get("name", tool.get("type", "tool")))
            text = f"{name}: {tool.get('description', '')}"
            items.append(("tools", n, name, _title("tools", n, text)))
        rows.append((f"tools ({len(tools)})", items))

    head = max_rows // 2
    tail = max_rows - head
    hidden = messages[head:len(messages) - tail] if len(messages) > max_rows else []
    for i, message in enumerate(messages):
        if hidden and i == head:
            rows.append((None, []))
        if hidden and head <= i < len(messages) - tail:
            continue
        role = message.get("role", "?")
        items = []
        for block in blocks(message):
            kind = block_kind(block, role)
            n = tokens.count(block)
            items.append((kind, n, _label(block, kind, n), _title(kind, n, _preview(block))))
        size = tokens.count(message)  # framing included
        rows.append((f'{html.escape(f"#{i} {role}")} '
                     f'<span style="color:#9e9e9e">{size:,}</span>', items))

    # One scale for all rows, chosen so that the largest row fits on one line.
    avail = width_px - _LABEL_PX - 8
    scale = float("inf")
    for _, items in rows:
        room = avail - len(items) * (_MIN_PX + _GAP_PX)
        row_tokens = sum(n for _, n, _, _ in items)
        if room > 0 and row_tokens > 0:
            scale = min(scale, room / row_tokens)
    if scale == float("inf"):
        scale = 1.0

    out = [f'<div class="cw" style="{_FONT};width:{width_px}px;color:#212121">']
    out.append(_header(messages, total, window, system, tools, width_px, model))
    for row_head, items in rows:
        if row_head is None:
            out.append(f'<div class="cw-row cw-gap" style="color:#757575;margin:3px 0;'
                       f'padding-left:{_LABEL_PX}px">… {len(hidden):,} messages '
                       f'({tokens.count(hidden):,} tokens) …</div>')
        else:
            out.append(_row(row_head, _items(items, scale)))
    out.append(_legend())
    out.append("</div>")
    return "\n".join(out)


def _header(messages: list, total: int, window: int | None, system: Any,
            tools: Sequence[Mapping] | None, width_px: int, model: str | None = None) -> str:
    """The totals line and, with a window, a fill bar split by kind."""
    line = say("{m} messages · {n} tokens", m=f"{len(messages):,}", n=f"{total:,}")
    if not window:
        return f'<div class="cw-head" style="margin-bottom:4px"><b>{line}</b></div>'
    pct = 100 * total / window
    colour = "#2e7d32" if pct < 70 else "#ef6c00" if pct <= 100 else "#c62828"
    over = " — " + say("over by {n}", n=f"{total - window:,}") if total > window else ""
    fill = say("{n} / {w} tokens ({pct}%)", n=f"{total:,}", w=f"{window:,}",
               pct=f"{pct:.0f}") + over
    segs = []
    by_kind = kind_tokens(messages, system=system, tools=tools, model=model)
    framing = total - sum(by_kind.values())
    parts = [(kind, say(KINDS[kind][0]), n) for kind, n in by_kind.items()]
    for kind, name, n in [*parts, ("other", say("message framing"), framing)]:
        if n > 0:
            w = 100 * n / max(total, window)  # past the window, the bar is the total
            segs.append(f'<div class="cw-seg cw-{kind}" style="width:{w:.2f}%;height:100%;'
                        f'background:{KINDS[kind][1]}" title="{name}: {n:,}"></div>')
    bar = (f'<div class="cw-fill" style="display:flex;width:{width_px - 2}px;height:10px;'
           f'border:1px solid {colour};border-radius:2px;overflow:hidden;margin:3px 0 6px">'
           f'{"".join(segs)}</div>')
    return (f'<div class="cw-head"><b>{line}</b> · <span style="color:{colour}">'
            f"{fill}</span></div>{bar}")


def _legend() -> str:
    items = []
    for kind, (name, bg) in KINDS.items():
        border = "1px dashed #757575" if kind in ("cleared", "hidden") else \
            "1px solid rgba(0,0,0,0.25)"
        items.append(f'<span style="display:inline-flex;align-items:center;margin-right:10px">'
                     f'<span class="cw-key cw-{kind}" style="display:inline-block;width:12px;'
                     f'height:10px;background:{bg};border:{border};margin-right:3px"></span>'
                     f"{say(name)}</span>")
    return f'<div class="cw-legend" style="margin-top:6px;color:#616161">{"".join(items)}</div>'


class WindowView:
    """A context window that a notebook displays as HTML (its `_repr_html_`)."""

    def __init__(self, messages: Sequence[Mapping], **kw: Any) -> None:
        self.messages = list(messages)
        self.kw = kw
        self.html = window_html(self.messages, **kw)

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:  # the text/plain output; stable, unlike the default repr
        n = tokens.count(self.messages, system=self.kw.get("system"),
                         tools=self.kw.get("tools")) + \
            _hidden(self.kw.get("model"), self.kw.get("tools"))
        return say("WindowView({m} messages, {n:,} tokens)", m=len(self.messages), n=n)


def show_window(messages: Sequence[Mapping], **kw: Any) -> WindowView:
    """The window picture as a displayable object; same keywords as `window_html`."""
    return WindowView(messages, **kw)


def _sent(step: Any) -> list:
    return list(getattr(step, "sent", None) or [])


def show_step(run: Any, index: int = -1, *, window: int | None = None) -> WindowView:
    """The static picture of what one step of a run sent (the last step by default), with
    the tool-use prompt the API added to it (when the run knows its model)."""
    model = getattr(run, "model", None)
    if not run.steps:
        return show_window(run.history, system=run.system, tools=run.tools, window=window,
                           model=model)
    step = run.steps[index]
    return show_window(_sent(step), system=run.system, tools=run.tools, window=window,
                       model=model)


def step_caption(step: Any) -> str:
    """One line about a step: its input tokens, its events and its error."""
    parts = [say("step {i}", i=step.index), say("input {n} tokens", n=f"{step.input_tokens:,}"),
             say("estimate {n}", n=f"{step.estimate:,}")]
    if step.events:
        parts.append(say("events") + ": " + "; ".join(say(e) for e in step.events))
    if step.error:
        parts.append(say("error") + f": {step.error}")
    return " · ".join(parts)


def _scroll(page: str, height: int = 380) -> str:
    """A scroll area that opens at its bottom (newest rows), so a tall window fits the screen."""
    return (f'<div class="cw-scroll" style="max-height:{height}px;overflow-y:auto;display:flex;'
            f'flex-direction:column-reverse">{page}</div>')


class StepViewer:
    """What `window_viewer` returns: in a live kernel the slider widget; saved in a notebook
    (widget state is not saved), the static picture of the step it showed and how to bring
    the slider back. Both come in one output, and the notebook shows what it can."""

    def __init__(self, widget: Any, static_html: str, steps: int) -> None:
        self.widget, self.static_html, self.steps = widget, static_html, steps

    def _repr_mimebundle_(self, **kwargs: Any) -> dict:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {}) if self.widget else {}
        bundle["text/html"] = self.static_html
        bundle["text/plain"] = say("window viewer over {n} steps ({note})", n=self.steps,
                                   note=say(RUN_NOTE))
        return bundle


RUN_NOTE = "run the cells above to use the step slider"


def window_viewer(run: Any, *, window: int | None = None) -> Any:
    """A slider over a run's steps that shows what each step sent, newest rows in view.

    Needs a live kernel and ipywidgets; a saved notebook shows the picture of the last
    step instead, with a line saying how to get the slider. Without ipywidgets, or for a
    run without steps, this returns that static picture.
    """
    if not run.steps:
        return show_step(run, window=window)

    def render(i: int) -> tuple[str, str]:
        step = run.steps[i]
        page = window_html(_sent(step), system=run.system, tools=run.tools, window=window,
                           model=getattr(run, "model", None))
        caption = html.escape(step_caption(step))
        if step.error:
            caption = f'<span style="color:#c62828">{caption}</span>'
        return f'<div style="{_FONT}">{caption}</div>', _scroll(page)

    last = len(run.steps) - 1
    caption, page = render(last)
    shown = say("step {i} of 0-{last} shown; {note}.", i=last, last=last, note=say(RUN_NOTE))
    static = (f'<div style="{_FONT};color:#616161;margin-bottom:4px">{shown}</div>'
              f"{caption}{page}")
    try:
        import ipywidgets as widgets
    except ImportError:
        return StepViewer(None, static, len(run.steps))
    slider = widgets.IntSlider(value=last, min=0, max=last, description="step",
                               continuous_update=False)
    caption_w = widgets.HTML(value=caption)
    page_w = widgets.HTML(value=page)

    def on_change(change: dict) -> None:
        caption_w.value, page_w.value = render(change["new"])

    slider.observe(on_change, names="value")
    return StepViewer(widgets.VBox([slider, caption_w, page_w]), static, len(run.steps))
