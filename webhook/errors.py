"""Exceptions that cross wings: raised in the cluster wing, caught by the admission decisions (imports nothing)."""

from __future__ import annotations


class LiveReadError(Exception):
    """The apiserver could not answer a live read (unreachable, timeout, forbidden); one-line message."""
