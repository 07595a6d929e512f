"""The base of every exception newsstemmer raises: ``except NewsstemmerError`` catches
any of them.  Each error keeps its other base too (``ValueError``, ``RuntimeError``)
so callers that catch those still do."""

from __future__ import annotations

__all__ = ["NewsstemmerError", "UnknownMethodError"]


class NewsstemmerError(Exception):
    """Base class of newsstemmer's exceptions."""


class UnknownMethodError(NewsstemmerError, ValueError):
    """A single-page method name that is not (or no longer) one of newsstemmer's."""
