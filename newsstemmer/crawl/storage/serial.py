"""Requests in the shared queue as JSON (``SCHEDULER_SERIALIZER``), not pickle.

A pickle read from a server every worker writes to would run whatever code the
server held; JSON is data only.  ``Request.to_dict()`` holds bytes (body, header
names and values) and dicts keyed by bytes (headers): they are tagged
(``{"b": base64}``, ``{"kv": [[key, value], ...]}``) and restored by :func:`loads`;
any other non-JSON value (an object in ``meta``) raises ``TypeError`` naming it.
"""

from __future__ import annotations

import base64
import json
from typing import Any

__all__ = ["dumps", "loads"]


def _encode(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, bytes):
        return {"b": base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {"d": {k: _encode(v) for k, v in value.items()}}
        return {"kv": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    raise TypeError(f"a request to share through Redis holds a {type(value).__name__}, which JSON cannot keep: "
                    f"{value!r:.100}")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if "b" in value:
            return base64.b64decode(value["b"])
        if "kv" in value:
            return {_decode(k): _decode(v) for k, v in value["kv"]}
        return {k: _decode(v) for k, v in value["d"].items()}
    return value


def dumps(obj: Any) -> str:
    """A request dict as JSON text."""
    return json.dumps(_encode(obj), ensure_ascii=False, separators=(",", ":"))


def loads(data: bytes | str) -> Any:
    """The request dict of :func:`dumps`'s text."""
    return _decode(json.loads(data))
