"""The few sentences agentlib prints about its own objects (`print(run)`, a score), and the
one seam through which a course prints them in its learner's language.

agentlib speaks English only. `say(template, **values)` fills a template in; a course may
`set_say(fn)` to fill it in its own words instead (coursekit.i18n does, so a Korean
notebook's `print(run)` reads Korean). The values stay as they are: data, not words.
"""

from __future__ import annotations

from collections.abc import Callable


def english(template: str, /, **values: object) -> str:
    return template.format(**values) if values else template


_say: Callable[..., str] = english


def say(template: str, /, **values: object) -> str:
    """`template` with `values` filled in, in the words of whoever `set_say` (English)."""
    return _say(template, **values)


def set_say(fn: Callable[..., str] | None) -> None:
    """Fill agentlib's sentences with `fn(template, **values)`; None for English again."""
    global _say
    _say = fn or english
