"""Exceptions that cross wings (raised in the cluster wing, caught by the admission decisions), and how any
exception is written on one line; imports nothing."""

from __future__ import annotations


class LiveReadError(Exception):
    """The apiserver could not answer a live read (unreachable, timeout, forbidden); one-line message."""


def one_line(exc: BaseException, limit: int = 200) -> str:
    """The exception's text on one line (each run of whitespace one space), cut to ``limit`` characters."""
    return " ".join(str(exc).split())[:limit]


def exception_line(exc: BaseException) -> str:
    """An unexpected exception (a bug) as the server logs it and ``review`` prints it: type, then text."""
    return f"{type(exc).__name__}: {one_line(exc)}"
