"""Readable finding messages: one line of at most ``MAX_MESSAGE`` characters, the rest as detail.

Checks that quote a program's long or multi-line text (a scheduler's aggregated field errors, an
echoed document, a migration snippet) should give a short message and the verbatim text as
``detail`` themselves. This is the safety net for the ones that do not: the message keeps its
first line, cut at a word boundary, and the whole original text moves to ``detail`` so nothing
the program said is lost.
"""

from __future__ import annotations

MAX_MESSAGE = 200
_ELLIPSIS = " ..."


def readable(message: str, detail: str = "") -> tuple[str, str]:
    """``(message, detail)`` with the message a single line of at most ``MAX_MESSAGE`` characters."""
    if "\n" not in message and "\r" not in message and len(message) <= MAX_MESSAGE:
        return message, detail
    full = message if not detail else f"{message}\n{detail}"
    joined = " ".join(message.split())  # a multi-line text often reads well as one line
    if len(joined) <= MAX_MESSAGE:
        return joined, full
    return shorten(joined, MAX_MESSAGE - len(_ELLIPSIS)) + _ELLIPSIS, full


def shorten(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at the last space when there is one late enough."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:")
